import express from 'express';
import helmet, { type HelmetOptions } from 'helmet';
import request from 'supertest';
import { securityHeaders } from './securityHeaders';

const options = (nonce: string): HelmetOptions => ({
  contentSecurityPolicy: {
    useDefaults: false,
    directives: { defaultSrc: ["'self'"], scriptSrc: ["'self'", `'nonce-${nonce}'`], frameAncestors: ["'none'"] },
  },
  strictTransportSecurity: false,
});

function appWith(middleware: express.RequestHandler) {
  const app = express();
  app.use(middleware);
  app.get('/', (_req, res) => {
    res.send(res.locals.cspNonce ?? '');
  });
  return app;
}

test('the same headers helmet sets, with a fresh nonce per response in the CSP', async () => {
  const fixed = 'FIXEDNONCE';
  const reference = await request(appWith(helmet(options(fixed)))).get('/');
  const app = appWith(securityHeaders(options));
  const first = await request(app).get('/');
  const second = await request(app).get('/');

  expect(first.text).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  expect(second.text).not.toBe(first.text);
  expect(first.headers['content-security-policy']).toBe(`default-src 'self';script-src 'self' 'nonce-${first.text}';frame-ancestors 'none'`);

  const names = (h: Record<string, string>) => Object.keys(h).filter((n) => !['date', 'content-length', 'etag', 'x-powered-by'].includes(n));
  expect(names(first.headers).sort()).toEqual(names(reference.headers).sort());
  for (const name of names(reference.headers)) {
    expect([name, first.headers[name]!.replace(first.text, fixed)]).toEqual([name, reference.headers[name]]);
  }
  expect(first.headers['x-powered-by']).toBeUndefined();
});
