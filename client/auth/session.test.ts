import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AuthClient } from './authClient';
import { signOutOnServer } from './session';

describe("the portal's sign-out reaches the server", () => {
  const seen: { method: string; url: string; headers: http.IncomingHttpHeaders }[] = [];
  const srv = http.createServer((req, res) => {
    seen.push({ method: req.method!, url: req.url!, headers: req.headers });
    req.resume();
    req.on('end', () => res.writeHead(204).end());
  });
  let base: string;
  beforeAll(async () => {
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(srv.address() as AddressInfo).port}/api`;
  });
  afterAll(() => new Promise((r) => srv.close(r)));

  const client = (tokens: Awaited<ReturnType<AuthClient['getTokens']>>) => ({ getTokens: async () => tokens }) as unknown as AuthClient;

  test('POST /v5/users/signOut under the API base, with the session headers', async () => {
    const tokens = { username: 'ana@demo.local', email: 'ana@demo.local', accessToken: 'a.b.c', idToken: 'd.e.f', refreshToken: 'r' };
    await signOutOnServer(client(tokens), base, false);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      method: 'POST',
      url: '/api/v5/users/signOut',
      headers: { username: 'ana@demo.local', accesstoken: 'a.b.c', idtoken: 'd.e.f' },
    });
    expect(seen[0]!.headers).not.toHaveProperty('refreshtoken');
  });

  test('without a session there is nothing to end: it rejects without calling', async () => {
    await expect(signOutOnServer(client(null), base, false)).rejects.toThrow('no session');
    expect(seen).toHaveLength(1);
  });
});
