import express from 'express';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { WHOLE_BODY_MAX_BYTES, WHOLE_BODY_MIN_BYTES, compressResponses } from './compress';

/** A JSON body of about `bytes` bytes (compressible: repeated words). */
const json = (bytes: number) => ({ rows: Array.from({ length: Math.ceil(bytes / 40) }, (_, i) => ({ i, name: 'Dispositivo bloqueado' })) });
const BROWSER = 'gzip, deflate, br, zstd';

const app = express();
app.use(compressResponses());
app.get('/json', (_req, res) => {
  res.json(json(6_000));
});
app.get('/small', (_req, res) => {
  res.json({ ok: true });
});
app.get('/large', (_req, res) => {
  res.json(json(WHOLE_BODY_MAX_BYTES + 10_000));
});
app.get('/streamed', (_req, res) => {
  res.type('text/csv');
  for (let i = 0; i < 200; i++) res.write(`${i};Dispositivo bloqueado;Grupo Norte\n`);
  res.end();
});
app.get('/no-transform', (_req, res) => {
  res.set('Cache-Control', 'no-transform').json(json(6_000));
});
app.get('/image', (_req, res) => {
  res.type('image/png').send(Buffer.alloc(6_000, 7));
});

let server: http.Server;
let port: number;
beforeAll(async () => {
  server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

/** The response as sent (no decoding), and its body decoded by its Content-Encoding. */
function get(path: string, headers: Record<string, string>, method = 'GET') {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; raw: Buffer; text: string }>((resolve, reject) => {
    http
      .request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const raw = Buffer.concat(chunks);
          const decode = { br: zlib.brotliDecompressSync, gzip: zlib.gunzipSync, deflate: zlib.inflateSync }[String(res.headers['content-encoding'])];
          resolve({ status: res.statusCode!, headers: res.headers, raw, text: (decode ? decode(raw) : raw).toString('utf8') });
        });
      })
      .on('error', reject)
      .end();
  });
}

test.each([
  [BROWSER, 'br'],
  ['gzip, deflate', 'gzip'],
  ['deflate', 'deflate'],
  ['*', 'br'],
  ['br;q=0.5, gzip', 'gzip'],
])('a JSON body sent whole is compressed at once (a Content-Length, no chunks): Accept-Encoding %s gives %s', async (accept, encoding) => {
  const res = await get('/json', { 'Accept-Encoding': accept });
  expect(res.status).toBe(200);
  expect(res.headers['content-encoding']).toBe(encoding);
  expect(res.headers['content-length']).toBe(String(res.raw.length));
  expect(res.headers['transfer-encoding']).toBeUndefined();
  expect(res.headers.vary).toMatch(/Accept-Encoding/i);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.raw.length).toBeLessThan(Buffer.byteLength(JSON.stringify(json(6_000))) / 4);
  expect(JSON.parse(res.text)).toEqual(json(6_000));
});

test('a refused encoding, no compressed encoding asked, a body under the threshold, no-transform, an image: sent as they are', async () => {
  for (const [path, accept] of [
    ['/json', 'gzip;q=0, identity'],
    ['/json', 'identity'],
    ['/small', BROWSER],
    ['/no-transform', BROWSER],
    ['/image', BROWSER],
  ] as const) {
    const res = await get(path, { 'Accept-Encoding': accept });
    expect([path, accept, res.status, res.headers['content-encoding']]).toEqual([path, accept, 200, undefined]);
    expect(res.headers['content-length']).toBe(String(res.raw.length));
  }
  expect(Buffer.byteLength(JSON.stringify({ ok: true }))).toBeLessThan(WHOLE_BODY_MIN_BYTES);
});

test('a body larger than the bound, or written in pieces, is still compressed, by the stream (chunked)', async () => {
  for (const path of ['/large', '/streamed']) {
    const res = await get(path, { 'Accept-Encoding': 'gzip' });
    expect([path, res.headers['content-encoding'], res.headers['transfer-encoding'], res.headers['content-length']]).toEqual([
      path,
      'gzip',
      'chunked',
      undefined,
    ]);
  }
  expect(JSON.parse((await get('/large', { 'Accept-Encoding': BROWSER })).text)).toEqual(json(WHOLE_BODY_MAX_BYTES + 10_000));
  expect((await get('/streamed', { 'Accept-Encoding': BROWSER })).text.split('\n')[199]).toBe('199;Dispositivo bloqueado;Grupo Norte');
});

test('HEAD carries no body; a fresh ETag is a 304 without one', async () => {
  const head = await get('/json', { 'Accept-Encoding': BROWSER }, 'HEAD');
  expect(head.status).toBe(200);
  expect(head.raw.length).toBe(0);
  const first = await get('/json', { 'Accept-Encoding': BROWSER });
  expect(first.headers.etag).toBeDefined();
  const again = await get('/json', { 'Accept-Encoding': BROWSER, 'If-None-Match': first.headers.etag! });
  expect(again.status).toBe(304);
  expect(again.raw.length).toBe(0);
  expect(again.headers['content-encoding']).toBeUndefined();
});
