import { generateKeyPairSync, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CognitoUser, CognitoUserSession } from 'amazon-cognito-identity-js';
import request from 'supertest';
import { createTokenVerifiers } from '../../server/auth/tokenVerifier';
import type { IdentityDirectory } from '../../server/identity/IdentityDirectory';
import { signJwt } from '../../server/identity/jwt';
import type { SigningKey } from '../../server/identity/keys';
import { adminApi, DEMO_PASSWORD, type AdminApi } from '../helpers/adminApi';
import { cb, makePool, signIn } from '../helpers/cognitoClient';
import { buildTestApp, type TestApp } from '../helpers/testApp';
import { createTestDb, testEngines, type TestDb } from '../helpers/testDb';

function listen(app: http.RequestListener): Promise<{ server: http.Server; base: string }> {
  const server = http.createServer(app);
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve({ server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }));
  });
}

/** The API headers of a session of the client library. */
const headersOfSession = (email: string, s: CognitoUserSession) => ({
  AccessToken: s.getAccessToken().getJwtToken(),
  IdToken: s.getIdToken().getJwtToken(),
  username: email,
});

/**
 * Item: a session that ended (sign-out, GlobalSignOut, RevokeToken, a disabled or deleted
 * administrator) is refused by the API at once, not when its access token expires; the portal
 * record is bound to the identity user's `sub`, never to the e-mail alone.
 */
describe.each(testEngines())('sessions that ended are refused by the API (%s)', (engine) => {
  let t: TestDb;
  let api: AdminApi;
  let server: http.Server;
  let base: string;
  let admin: Record<string, string>;

  beforeAll(async () => {
    t = await createTestDb(engine);
    api = await adminApi(t.db);
    ({ server, base } = await listen(api.ta.app));
    admin = await api.headersOf('admin@demo.local');
  }, 60_000);
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    await t.dispose();
  });

  const app = () => api.ta.app;
  const pool = () => makePool(base, api.ta.config.identity.userPoolId, api.ta.config.identity.clientId);
  async function session(email: string): Promise<{ user: CognitoUser; headers: Record<string, string> }> {
    const out = await signIn(pool(), email, DEMO_PASSWORD);
    if (out.kind !== 'session') throw new Error(`no session for ${email}`);
    return { user: out.user, headers: headersOfSession(email, out.session) };
  }
  const me = (headers: Record<string, string>) => request(app()).post('/api/v5/users/getUserByEmail').set(headers).send({ correo: headers.username });
  const idOf = async (correo: string) => (await t.db.query<{ id: number }>('SELECT id FROM admins WHERE correo = $1', [correo])).rows[0]?.id;

  test('sign-out in the browser (RevokeToken): that session gets 401 at once, another one goes on', async () => {
    const a = await session('soporte@demo.local');
    const b = await session('soporte@demo.local');
    await me(b.headers).expect(200);
    await new Promise<void>((resolve) => a.user.signOut(() => resolve()));
    const refused = await me(a.headers).expect(401);
    expect(refused.body).toEqual({ message: 'Unauthorized', code: 'UNAUTHORIZED' });
    await request(app()).get('/api/v5/devices').set(a.headers).expect(401);
    await me(b.headers).expect(200);
  });

  test('GlobalSignOut: every session of the user gets 401', async () => {
    const c = await session('inventario@demo.local');
    const d = await session('inventario@demo.local');
    await cb<string>((done) => c.user.globalSignOut({ onSuccess: (r) => done(null, r), onFailure: (e) => done(e) }));
    await me(d.headers).expect(401);
    await request(app()).get('/api/portal/getVersion').set(c.headers).expect(401);
    await me((await session('inventario@demo.local')).headers).expect(200);
  });

  test('disabled: 403 on every route; enabled again: the sessions of before stay ended', async () => {
    const id = await api.addAdmin('pausa@demo.local', 3);
    const s = await session('pausa@demo.local');
    await me(s.headers).expect(200);
    await request(app()).post(`/api/v5/admins/${id}/disable`).set(admin).expect(200);
    // A revoked session answers 401 before the disabled record is even looked at.
    await me(s.headers).expect(401);
    await request(app()).post(`/api/v5/admins/${id}/enable`).set(admin).expect(200);
    await me(s.headers).expect(401);
    await request(app()).get('/api/portal/getVersion').set(s.headers).expect(401);
    await me((await session('pausa@demo.local')).headers).expect(200);
  });

  test("a deleted administrator's token never works again, even once the e-mail is created again", async () => {
    await api.addAdmin('vuelve@demo.local', 3);
    const old = await session('vuelve@demo.local');
    await me(old.headers).expect(200);
    await request(app())
      .delete(`/api/v5/admins/${await idOf('vuelve@demo.local')}`)
      .set(admin)
      .expect(204);
    expect((await me(old.headers)).status).toBeGreaterThanOrEqual(401);
    const created = await request(app())
      .post('/api/v5/admins')
      .set(admin)
      .send({ correo: 'vuelve@demo.local', nombres: 'Vuelve', profileId: 3 })
      .expect(201);
    const newSub = (await api.ta.deps.identity!.admin.adminGetUser('vuelve@demo.local')).sub;
    expect((await t.db.query('SELECT sub FROM admins WHERE id = $1', [created.body.id])).rows[0]).toEqual({ sub: newSub });
    for (const res of [await me(old.headers), await request(app()).get('/api/portal/getVersion').set(old.headers)]) {
      expect([401, 403]).toContain(res.status);
    }
    // The new identity user is the administrator.
    await me(await api.headersOf('vuelve@demo.local')).expect(200);
  });

  describe('with a Cognito user pool (its access tokens stay valid until they expire)', () => {
    let pooled: TestApp;
    let poolAdmin: Record<string, string>;
    const calls: string[] = [];
    /** The pool's signing keys: not the embedded endpoint's, so only the portal's deny list applies. */
    const poolKey = (kid: string): SigningKey & { jwk: object } => {
      const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      return { kid, privateKey, jwk: { ...(publicKey.export({ format: 'jwk' }) as object), kid, alg: 'RS256', use: 'sig' } } as SigningKey & {
        jwk: object;
      };
    };
    const keys = { access: poolKey('pool-access'), id: poolKey('pool-id') };

    /** Tokens as the pool issues them for `email`'s user; `at` is the sign-in time. */
    async function poolHeaders(email: string, at = Math.floor(Date.now() / 1000)): Promise<Record<string, string>> {
      const { sub } = await api.ta.deps.identity!.admin.adminGetUser(email);
      const clientId = api.ta.config.identity.clientId;
      const exp = Math.floor(Date.now() / 1000) + 600;
      const common = {
        sub,
        iss: api.ta.deps.identity!.issuer,
        origin_jti: randomUUID(),
        event_id: randomUUID(),
        auth_time: at,
        iat: at,
        exp,
        jti: randomUUID(),
      };
      return {
        AccessToken: signJwt(
          { ...common, client_id: clientId, token_use: 'access', scope: 'aws.cognito.signin.user.admin', username: email },
          keys.access,
        ),
        IdToken: signJwt({ ...common, email, aud: clientId, token_use: 'id', 'cognito:username': email }, keys.id),
        username: email,
      };
    }

    beforeAll(async () => {
      // A pool ends its sessions on its side only: the tokens it issued still verify.
      const real = api.ta.deps.directory;
      const directory: IdentityDirectory = {
        ...real,
        kind: 'cognito',
        disableUser: async (u) => void calls.push(`disable ${u}`),
        enableUser: async (u) => void calls.push(`enable ${u}`),
        deleteUser: async (u) => void calls.push(`delete ${u}`),
        setPassword: async (u) => void calls.push(`setPassword ${u}`),
        signOutEverywhere: async (u) => void calls.push(`signOut ${u}`),
      };
      const { userPoolId, clientId } = api.ta.config.identity;
      const verifiers = createTokenVerifiers({ userPoolId, clientId, jwks: { keys: [keys.access.jwk, keys.id.jwk] } });
      pooled = await buildTestApp(t.db, { deps: { directory, verifiers } });
      poolAdmin = await poolHeaders('admin@demo.local');
    });

    test("the portal's sign-out ends that session for the API; other sessions go on; audited", async () => {
      const one = await poolHeaders('soporte@demo.local');
      const two = await poolHeaders('soporte@demo.local');
      await request(pooled.app).post('/api/v5/users/getUserByEmail').set(one).send({ correo: 'soporte@demo.local' }).expect(200);
      await request(pooled.app).post('/api/v5/users/signOut').set(one).expect(204);
      await request(pooled.app).post('/api/v5/users/getUserByEmail').set(one).send({ correo: 'soporte@demo.local' }).expect(401);
      await request(pooled.app).get('/api/v5/devices').set(one).expect(401);
      await request(pooled.app).post('/api/v5/users/getUserByEmail').set(two).send({ correo: 'soporte@demo.local' }).expect(200);
      const row = (await t.db.query("SELECT actor_email, entity, action FROM audit_log WHERE action = 'sign_out' ORDER BY id DESC LIMIT 1")).rows[0];
      expect(row).toEqual({ actor_email: 'soporte@demo.local', entity: 'session', action: 'sign_out' });
    });

    test('disable, reset-password and delete end every earlier session (the deny list); a later sign-in works', async () => {
      const id = await api.addAdmin('remota@demo.local', 3);
      const before = await poolHeaders('remota@demo.local');
      await request(pooled.app).get('/api/portal/getVersion').set(before).expect(200);
      await request(pooled.app).post(`/api/v5/admins/${id}/disable`).set(poolAdmin).expect(200);
      await request(pooled.app).post(`/api/v5/admins/${id}/enable`).set(poolAdmin).expect(200);
      expect(calls).toEqual(['disable remota@demo.local', 'enable remota@demo.local']);
      await request(pooled.app).get('/api/portal/getVersion').set(before).expect(401);
      // A sign-in after the revocation (the next second on) is not covered by it.
      const later = await poolHeaders('remota@demo.local', Math.floor(Date.now() / 1000) + 2);
      await request(pooled.app).get('/api/portal/getVersion').set(later).expect(200);

      for (const [correo, end] of [
        ['reinicio@demo.local', (n: number) => request(pooled.app).post(`/api/v5/admins/${n}/reset-password`).set(poolAdmin).expect(200)],
        ['baja@demo.local', (n: number) => request(pooled.app).delete(`/api/v5/admins/${n}`).set(poolAdmin).expect(204)],
      ] as const) {
        const n = await api.addAdmin(correo, 3);
        const headers = await poolHeaders(correo);
        await request(pooled.app).get('/api/portal/getVersion').set(headers).expect(200);
        await end(n);
        await request(pooled.app).get('/api/portal/getVersion').set(headers).expect(401);
      }
      expect(calls.slice(2)).toEqual(['setPassword reinicio@demo.local', 'signOut reinicio@demo.local', 'delete baja@demo.local']);
    });
  });
});
