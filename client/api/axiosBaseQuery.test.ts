import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BaseQueryApi } from '@reduxjs/toolkit/query';
import { axiosBaseQuery, http as req, type ApiExtra } from './axiosBaseQuery';

/** A real HTTP server that records what it receives. */
function server() {
  const seen: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }[] = [];
  const srv = http.createServer((r, res) => {
    let body = '';
    r.on('data', (c) => (body += c));
    r.on('end', () => {
      seen.push({ method: r.method!, url: r.url!, headers: r.headers, body });
      if (r.url?.startsWith('/api/fail')) {
        res.writeHead(500, { 'content-type': 'application/json' }).end('{"message":"Algo falló"}');
      } else if (r.url?.startsWith('/api/unauthorized')) {
        res.writeHead(401, { 'content-type': 'application/json' }).end('{"message":"Unauthorized"}');
      } else {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      }
    });
  });
  return { srv, seen };
}

describe('axiosBaseQuery', () => {
  const { srv, seen } = server();
  let base: string;
  beforeAll(async () => {
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(srv.address() as AddressInfo).port}/api`;
  });
  afterAll(() => new Promise((r) => srv.close(r)));

  const api = (extra: Partial<ApiExtra>) =>
    ({
      signal: new AbortController().signal,
      extra: { apiBase: base, getAuthHeaders: async () => ({}), onUnauthorized: () => undefined, ...extra },
    }) as unknown as BaseQueryApi;

  test('every call carries the session headers to the API base', async () => {
    const headers = { username: 'ana', AccessToken: 'a.b.c', IdToken: 'd.e.f', RefreshToken: 'r' };
    const out = await axiosBaseQuery(req.get('/portal/getVersion', { page: 2 }), api({ getAuthHeaders: async () => headers }), {});
    expect(out).toEqual({ data: { ok: true } });
    const last = seen.at(-1)!;
    expect(last.url).toBe('/api/portal/getVersion?page=2');
    expect(last.headers).toMatchObject({ username: 'ana', accesstoken: 'a.b.c', idtoken: 'd.e.f', refreshtoken: 'r' });
  });

  test('the generic helpers: POST body, PUT with and without id, DELETE with the id appended', async () => {
    const a = api({});
    await axiosBaseQuery(req.post('/v5/users/getUserByEmail', { correo: 'a@b.c' }), a, {});
    expect(seen.at(-1)).toMatchObject({ method: 'POST', url: '/api/v5/users/getUserByEmail', body: '{"correo":"a@b.c"}' });
    await axiosBaseQuery(req.put('/v5/groups', { n: 1 }, 7), a, {});
    expect(seen.at(-1)).toMatchObject({ method: 'PUT', url: '/api/v5/groups/7' });
    await axiosBaseQuery(req.put('/v5/settings', { n: 1 }), a, {});
    expect(seen.at(-1)).toMatchObject({ method: 'PUT', url: '/api/v5/settings' });
    await axiosBaseQuery(req.delete('/v5/groups', 'a b'), a, {});
    expect(seen.at(-1)).toMatchObject({ method: 'DELETE', url: '/api/v5/groups/a%20b' });
  });

  test('errors come back as { error }, never thrown: HTTP status with data, network errors, an ended session', async () => {
    expect(await axiosBaseQuery(req.get('/fail'), api({}), {})).toEqual({
      error: { status: 500, code: 'ERR_BAD_RESPONSE', data: { message: 'Algo falló' } },
    });
    expect(await axiosBaseQuery(req.get('/unauthorized'), api({}), {})).toMatchObject({ error: { status: 401 } });
    const network = await axiosBaseQuery(
      req.get('/x'),
      { ...api({}), extra: { ...(api({}).extra as ApiExtra), apiBase: 'http://127.0.0.1:1/api' } } as BaseQueryApi,
      {},
    );
    // No answer at all (Node's adapter says ECONNREFUSED where a browser says ERR_NETWORK).
    expect(network).toMatchObject({ error: { status: 'NETWORK_ERROR', code: 'ECONNREFUSED' } });
    const before = seen.length;
    const ended = await axiosBaseQuery(req.get('/x'), api({ getAuthHeaders: () => Promise.reject(new Error('no session')) }), {});
    expect(ended).toEqual({ error: { status: 401, code: 'SESSION_EXPIRED', data: { message: 'Unauthorized' } } });
    expect(seen.length).toBe(before); // nothing was sent without a session
  });
});
