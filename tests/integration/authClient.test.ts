import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { AuthClient, SessionExpiredError } from '../../client/auth/authClient';
import { SessionUnreadableError } from '../../client/auth/sessionErrors';
import { sessionHeaders } from '../../client/auth/session';
import { bootstrap } from '../../server/db/bootstrap';
import { MemoryStorage } from '../helpers/cognitoClient';
import { buildTestApp, type TestApp } from '../helpers/testApp';
import { createTestDb, type TestDb } from '../helpers/testDb';

const PASSWORD = 'Demo-Portal-2026!';

/** The browser's AuthClient (amazon-cognito-identity-js underneath) against a running server. */
describe('AuthClient', () => {
  let t: TestDb;
  let ta: TestApp;
  let server: http.Server;
  let origin: string;

  beforeAll(async () => {
    t = await createTestDb('pglite');
    ta = await buildTestApp(t.db, { env: { DEMO_PASSWORD: PASSWORD } });
    await bootstrap(t.db, ta.config, ta.deps.identity);
    server = http.createServer(ta.app);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }, 60_000);
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    await t.dispose();
  });

  /** A client whose clock the test moves (seconds added to the real time). */
  function client(storage = new MemoryStorage()) {
    let skew = 0;
    const auth = new AuthClient({ ...ta.config.identity, endpoint: '/cognito/' }, storage, origin, () => Math.floor(Date.now() / 1000) + skew);
    return { auth, storage, setSkew: (s: number) => (skew = s) };
  }

  test('refreshes exactly when the access token has 1000 s or less to live', async () => {
    const { auth, setSkew } = client();
    const signed = await auth.signIn('inventario@demo.local', PASSWORD);
    if (signed.status !== 'signedIn') throw new Error('no session');
    const ttl = ta.config.tokens.accessTtlSeconds;

    setSkew(ttl - 1005); // ~1005 s left (less the seconds this test has taken): used as they are
    const same = await auth.getTokens();
    expect(same!.accessToken).toBe(signed.tokens.accessToken);

    setSkew(ttl - 1000); // 1000 s left: refreshed
    const fresh = await auth.getTokens();
    expect(fresh!.accessToken).not.toBe(signed.tokens.accessToken);
    expect(fresh!.refreshToken).toBe(signed.tokens.refreshToken);
    expect(fresh).toMatchObject({ username: 'inventario@demo.local', email: 'inventario@demo.local' });
  });

  test('a failed refresh ends the session', async () => {
    const { auth, setSkew } = client();
    const signed = await auth.signIn('soporte@demo.local', PASSWORD);
    if (signed.status !== 'signedIn') throw new Error('no session');
    await ta.deps.identity!.admin.adminUserGlobalSignOut('soporte@demo.local');
    setSkew(ta.config.tokens.accessTtlSeconds);
    await expect(auth.getTokens()).rejects.toBeInstanceOf(SessionExpiredError);
  }, 30_000);

  test('a stored session that cannot be read is reported as such', async () => {
    const { auth, storage } = client();
    await auth.signIn('admin@demo.local', PASSWORD);
    const key = [...storage.items.keys()].find((k) => k.endsWith('.idToken'))!;
    storage.setItem(key, 'garbage');
    await expect(auth.getTokens()).rejects.toBeInstanceOf(SessionUnreadableError);
  });

  test('no stored session: null; signOut revokes the refresh token', async () => {
    const { auth } = client();
    expect(await auth.getTokens()).toBeNull();
    const signed = await auth.signIn('admin@demo.local', PASSWORD);
    if (signed.status !== 'signedIn') throw new Error('no session');
    await auth.signOut();
    expect(auth.hasStoredSession()).toBe(false);
    const res = await fetch(`${origin}/cognito/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': 'AWSCognitoIdentityProviderService.InitiateAuth' },
      body: JSON.stringify({
        AuthFlow: 'REFRESH_TOKEN_AUTH',
        ClientId: ta.config.identity.clientId,
        AuthParameters: { REFRESH_TOKEN: signed.tokens.refreshToken },
      }),
    });
    expect(await res.json()).toMatchObject({ message: 'Refresh Token has been revoked' });
  });

  test('API headers: username, AccessToken, IdToken and RefreshToken unless API_SEND_REFRESH_TOKEN=false', async () => {
    const { auth } = client();
    const signed = await auth.signIn('admin@demo.local', PASSWORD);
    if (signed.status !== 'signedIn') throw new Error('no session');
    const { tokens } = signed;
    expect(await sessionHeaders(auth, true)).toEqual({
      username: 'admin@demo.local',
      AccessToken: tokens.accessToken,
      IdToken: tokens.idToken,
      RefreshToken: tokens.refreshToken,
    });
    expect(await sessionHeaders(auth, false)).not.toHaveProperty('RefreshToken');
    await auth.signOut();
    await expect(sessionHeaders(auth, true)).rejects.toThrow();
  });
});
