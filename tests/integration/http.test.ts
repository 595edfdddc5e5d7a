import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { createTestDb, type TestDb } from '../helpers/testDb';
import { DIST_DIR, buildTestApp } from '../helpers/testApp';

describe('HTTP behaviour', () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb('pglite');
  });
  afterAll(async () => {
    await t.dispose();
  });

  test('security headers: CSP with frame-ancestors none, the page isolated from other origins, no X-Powered-By, no HSTS over plain HTTP', async () => {
    const { app } = await buildTestApp(t.db, { env: { NODE_ENV: 'production', IDENTITY_MODE: 'embedded' } });
    const res = await request(app).get('/login').expect(200);
    const csp = res.headers['content-security-policy'] as string;
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(res.headers['x-powered-by']).toBeUndefined();
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    // No window of another origin keeps a reference to the portal's, nor shares its agent cluster
    // (at a cost to the first load: Chromium starts the page in a renderer process of its own).
    expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(res.headers['origin-agent-cluster']).toBe('?1');
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  test('HSTS in production behind TLS (trusted proxy says https), never in development', async () => {
    const prod = await buildTestApp(t.db, { env: { NODE_ENV: 'production', IDENTITY_MODE: 'embedded', TRUST_PROXY: '1' } });
    const res = await request(prod.app).get('/login').set('X-Forwarded-Proto', 'https').expect(200);
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    const dev = await buildTestApp(t.db, { env: { TRUST_PROXY: '1' } });
    const devRes = await request(dev.app).get('/login').set('X-Forwarded-Proto', 'https').expect(200);
    expect(devRes.headers['strict-transport-security']).toBeUndefined();
    // Without a trusted proxy the header is ignored.
    const untrusted = await buildTestApp(t.db, { env: { NODE_ENV: 'production', IDENTITY_MODE: 'embedded' } });
    const u = await request(untrusted.app).get('/login').set('X-Forwarded-Proto', 'https').expect(200);
    expect(u.headers['strict-transport-security']).toBeUndefined();
  });

  test('hashed assets are immutable for a year; a missing asset is a 404, not the app', async () => {
    const { app } = await buildTestApp(t.db);
    const manifest = JSON.parse(fs.readFileSync(path.join(DIST_DIR, 'manifest.json'), 'utf8')) as {
      entry: { js: string; css: string[] };
    };
    const js = await request(app).get(manifest.entry.js).expect(200);
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(js.headers['content-type']).toMatch(/javascript/);
    const css = await request(app).get(manifest.entry.css[0]!).expect(200);
    expect(css.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const br = await request(app).get(manifest.entry.js).set('Accept-Encoding', 'gzip, deflate, br').expect(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const gz = await request(app).get(manifest.entry.css[0]!).set('Accept-Encoding', 'gzip').expect(200);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['content-type']).toMatch(/text\/css/);
    const missing = await request(app).get('/assets/nope-ABC.js').expect(404);
    expect(missing.headers['content-type']).toMatch(/json/);
  });

  test('responses are compressed when the client accepts gzip', async () => {
    const { app } = await buildTestApp(t.db);
    const res = await request(app).get('/dashboard').set('Accept-Encoding', 'gzip').expect(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    const br = await request(app).get('/dashboard').set('Accept-Encoding', 'br;q=1, gzip;q=0.5').expect(200);
    expect(br.headers['content-encoding']).toBe('br');
    // A refused encoding is negotiated by compression(), not by the fast path.
    const refused = await request(app).get('/dashboard').set('Accept-Encoding', 'gzip;q=0, identity').expect(200);
    expect(refused.headers['content-encoding']).toBeUndefined();
    const plain = await request(app).get('/dashboard').set('Accept-Encoding', 'identity').expect(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.text).toContain('<div id="root">');
  });

  test('request id: an incoming x-request-id is kept, otherwise one is generated', async () => {
    const { app, logs } = await buildTestApp(t.db);
    const kept = await request(app).get('/login').set('x-request-id', 'abc-123').expect(200);
    expect(kept.headers['x-request-id']).toBe('abc-123');
    const made = await request(app).get('/login').expect(200);
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const bad = await request(app).get('/login').set('x-request-id', 'x'.repeat(300)).expect(200);
    expect(bad.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const line = logs.lines.find((l) => (l.req as { id?: string } | undefined)?.id === 'abc-123');
    expect(line).toBeDefined();
  });

  test('logs are JSON with the auth headers redacted', async () => {
    const { app, logs } = await buildTestApp(t.db);
    const secrets = {
      AccessToken: 'eyJaccess.secret.value',
      IdToken: 'eyJid.secret.value',
      RefreshToken: 'refresh-secret-value',
      Authorization: 'Bearer bearer-secret-value',
      Cookie: 'session=cookie-secret-value',
    };
    await request(app).get('/login').set(secrets).set('username', 'ana').expect(200);
    const all = logs.raw.join('\n');
    for (const value of Object.values(secrets)) expect(all).not.toContain(value.split(' ').pop()!);
    const line = logs.lines.find((l) => (l.req as { url?: string } | undefined)?.url === '/login')!;
    const headers = (line.req as { headers: Record<string, string> }).headers;
    for (const name of ['accesstoken', 'idtoken', 'refreshtoken', 'authorization', 'cookie']) {
      expect(headers[name]).toBe('[REDACTED]');
    }
    expect(headers.username).toBe('ana');
  });

  test('the API answers 401 without tokens, before revealing whether a path exists', async () => {
    const { app } = await buildTestApp(t.db);
    const res = await request(app).get('/api/v5/nada').expect(401);
    expect(res.body).toEqual({ message: 'Unauthorized', code: 'UNAUTHORIZED' });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  test('malformed and oversized JSON bodies get Spanish 400/413 answers, never a 500', async () => {
    const { app } = await buildTestApp(t.db);
    const bad = await request(app).post('/api/v5/nada').set('Content-Type', 'application/json').send('{"a":').expect(400);
    expect(bad.body.message).toBe('El cuerpo de la solicitud no es JSON válido');
    const big = await request(app)
      .post('/api/v5/nada')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ a: 'x'.repeat(1_100_000) }))
      .expect(413);
    expect(big.body.message).toBe('El cuerpo de la solicitud es demasiado grande');
  });
});
