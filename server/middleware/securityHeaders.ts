import { randomBytes } from 'node:crypto';
import type { RequestHandler, Response } from 'express';
import helmet, { type HelmetOptions } from 'helmet';

declare module 'express-serve-static-core' {
  interface Locals {
    /** This response's CSP nonce (the page's module script carries it). */
    cspNonce: string;
  }
}

/**
 * helmet's headers, with a fresh CSP nonce per response, without running helmet's dozen
 * middleware functions per request: at start-up helmet answers once into a recording response
 * whose nonce is a placeholder, and every response gets the same headers with its own nonce in
 * the placeholder's place. `scriptSrcNonce` marks where the nonce goes in `options`' directives.
 */
export function securityHeaders(build: (scriptSrcNonce: string) => HelmetOptions): RequestHandler {
  const placeholder = `nonce_${randomBytes(12).toString('hex')}`;
  const set: [name: string, parts: string[]][] = [];
  const removed: string[] = [];
  const recorder = {
    locals: {},
    setHeader(name: string, value: string | number | readonly string[]) {
      set.push([name, String(value).split(placeholder)]);
      return this;
    },
    removeHeader(name: string) {
      removed.push(name);
    },
  } as unknown as Response;
  let called = false;
  helmet(build(placeholder))({} as never, recorder, () => {
    called = true;
  });
  if (!called) throw new Error('helmet did not answer synchronously');
  return (_req, res, next) => {
    const nonce = randomBytes(16).toString('base64');
    res.locals.cspNonce = nonce;
    for (const name of removed) res.removeHeader(name);
    for (const [name, parts] of set) res.setHeader(name, parts.length === 1 ? parts[0]! : parts.join(nonce));
    next();
  };
}
