import { randomBytes } from 'node:crypto';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { RequestHandler } from 'express';
import helmet, { type HelmetOptions } from 'helmet';

declare module 'express-serve-static-core' {
  interface Locals {
    /** This response's CSP nonce (the page's module script carries it). */
    cspNonce: string;
  }
}

const NONCE_BYTES = 16;
/** Random bytes for 256 nonces, drawn from the CSPRNG at once; each nonce uses its own 16, once. */
let pool = Buffer.alloc(0);
let offset = 0;
function nextNonce(): string {
  if (offset === pool.length) {
    pool = randomBytes(NONCE_BYTES * 256);
    offset = 0;
  }
  offset += NONCE_BYTES;
  return pool.toString('base64', offset - NONCE_BYTES, offset);
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
  // A response of its own (never sent) whose header calls are recorded.
  const recorder = new ServerResponse(new IncomingMessage(new Socket()));
  recorder.setHeader = (name: string, value: string | number | readonly string[]) => {
    set.push([name, String(value).split(placeholder)]);
    return recorder;
  };
  recorder.removeHeader = (name: string) => {
    removed.push(name);
  };
  let called = false;
  helmet(build(placeholder))(recorder.req, recorder, () => {
    called = true;
  });
  if (!called) throw new Error('helmet did not answer synchronously');
  return (_req, res, next) => {
    const nonce = nextNonce();
    res.locals.cspNonce = nonce;
    for (const name of removed) res.removeHeader(name);
    for (const [name, parts] of set) res.setHeader(name, parts.length === 1 ? parts[0]! : parts.join(nonce));
    next();
  };
}
