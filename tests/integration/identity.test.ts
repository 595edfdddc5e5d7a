import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CognitoUser } from 'amazon-cognito-identity-js';
import request from 'supertest';
import { bootstrap } from '../../server/db/bootstrap';
import type { IdentityService } from '../../server/identity/identityService';
import { MAX_FAILED_ATTEMPTS } from '../../server/identity/identityService';
import { N } from '../../server/identity/srp';
import { cb, completeNewPassword, failure, getSession, makePool, signIn, type PoolHandle } from '../helpers/cognitoClient';
import { buildTestApp, type TestApp } from '../helpers/testApp';
import { createTestDb, testEngines, type TestDb } from '../helpers/testDb';

const PASSWORD = 'Demo-Portal-2026!';
const TARGET = 'AWSCognitoIdentityProviderService.';

describe.each(testEngines())('embedded identity endpoint with the real client (%s)', (engine) => {
  let t: TestDb;
  let test_: TestApp;
  let identity: IdentityService;
  let server: http.Server;
  let base: string;
  let userPoolId: string;
  let clientId: string;
  /** Bodies the client sent to the endpoint, by operation (for replay attacks). */
  const sent: { target: string; body: string }[] = [];
  const realFetch = globalThis.fetch;

  const pool = (): PoolHandle => makePool(base, userPoolId, clientId);
  const call = (op: string, body: unknown) =>
    realFetch(`${base}/cognito/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': `${TARGET}${op}` },
      body: JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }));

  beforeAll(async () => {
    t = await createTestDb(engine);
    test_ = await buildTestApp(t.db, { env: { DEMO_PASSWORD: PASSWORD } });
    identity = test_.deps.identity!;
    ({ userPoolId, clientId } = test_.config.identity);
    await bootstrap(t.db, test_.config, identity);
    server = http.createServer(test_.app);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
      const target = new Headers(init?.headers).get('x-amz-target');
      if (target && typeof init?.body === 'string') sent.push({ target, body: init.body });
      return realFetch(input, init);
    }) as typeof fetch;
  }, 60_000);

  afterAll(async () => {
    globalThis.fetch = realFetch;
    await new Promise((r) => server.close(r));
    await t.dispose();
  });

  test('SRP sign-in of the demo administrator: tokens the API accepts, keys as the browser keeps them', async () => {
    const h = pool();
    const out = await signIn(h, 'Admin@Demo.Local', PASSWORD);
    expect(out.kind).toBe('session');
    if (out.kind !== 'session') return;
    const access = out.session.getAccessToken();
    const id = out.session.getIdToken();
    expect(access.decodePayload()).toMatchObject({
      token_use: 'access',
      client_id: clientId,
      username: 'admin@demo.local',
      iss: `https://cognito-idp.us-east-1.amazonaws.com/${userPoolId}`,
      scope: 'aws.cognito.signin.user.admin',
    });
    expect(id.decodePayload()).toMatchObject({ token_use: 'id', aud: clientId, email: 'admin@demo.local', email_verified: true });
    expect(access.decodePayload().origin_jti).toBe(id.decodePayload().origin_jti);
    const prefix = `CognitoIdentityServiceProvider.${clientId}`;
    expect(h.storage.getItem(`${prefix}.LastAuthUser`)).toBe('admin@demo.local');
    for (const k of ['idToken', 'accessToken', 'refreshToken', 'clockDrift']) {
      expect(h.storage.getItem(`${prefix}.admin@demo.local.${k}`)).toBeTruthy();
    }

    const res = await request(test_.app)
      .post('/api/v5/users/getUserByEmail')
      .set({ AccessToken: access.getJwtToken(), IdToken: id.getJwtToken(), username: 'admin@demo.local' })
      .send({ correo: 'admin@demo.local' })
      .expect(200);
    expect(res.body).toMatchObject({ nombres: 'Administrador Demo', profile: { nombre: 'Administrador' } });
    expect(res.body.profile.details[0].modulo.map((m: { path: string }) => m.path)).toEqual([
      '/dashboard',
      '/agent-settings',
      '/agent-settings-tv',
      '/inventory-management',
      '/credits',
      '/admin-settings',
    ]);
    // The 14 device actions and the role actions 100–102 (payments, pauses, the collection policy).
    expect(res.body.profile.actions).toHaveLength(17);
    expect(res.body.profile.actions).toEqual(expect.arrayContaining([100, 101, 102]));
  });

  test('USER_PASSWORD_AUTH signs in too; the demo profiles have their partial grants', async () => {
    const out = await signIn(pool(), 'soporte@demo.local', PASSWORD, 'USER_PASSWORD_AUTH');
    expect(out.kind).toBe('session');
    if (out.kind !== 'session') return;
    const res = await request(test_.app)
      .post('/api/v5/users/getUserByEmail')
      .set({
        AccessToken: out.session.getAccessToken().getJwtToken(),
        IdToken: out.session.getIdToken().getJwtToken(),
        username: 'soporte@demo.local',
      })
      .send({ correo: 'soporte@demo.local' })
      .expect(200);
    expect(res.body.profile).toMatchObject({
      nombre: 'Soporte',
      actions: [7, 5],
      details: [
        {
          modulo: [
            { path: '/dashboard', submodules: [{ path: '/dashboard/general' }, { path: '/dashboard/android' }] },
            { path: '/inventory-management', submodules: [{ path: '/inventory-management/devices' }] },
          ],
        },
      ],
    });
  });

  test('wrong password and unknown user get the same answer', async () => {
    const wrong = await failure(signIn(pool(), 'inventario@demo.local', 'Wrong-Pass-1!'));
    const unknown = await failure(signIn(pool(), 'nadie@demo.local', 'Wrong-Pass-1!'));
    expect(wrong).toEqual({ code: 'NotAuthorizedException', message: 'Incorrect username or password.' });
    expect(unknown).toEqual(wrong);
    const plainUnknown = await failure(signIn(pool(), 'nadie@demo.local', 'Wrong-Pass-1!', 'USER_PASSWORD_AUTH'));
    expect(plainUnknown).toEqual(wrong);
    // The fake challenge of an unknown name is stable (same salt each time).
    const a = await call('InitiateAuth', {
      AuthFlow: 'USER_SRP_AUTH',
      ClientId: clientId,
      AuthParameters: { USERNAME: 'nadie2@demo.local', SRP_A: 'abc' },
    });
    const b = await call('InitiateAuth', {
      AuthFlow: 'USER_SRP_AUTH',
      ClientId: clientId,
      AuthParameters: { USERNAME: 'nadie2@demo.local', SRP_A: 'abc' },
    });
    expect((a.body.ChallengeParameters as Record<string, string>).SALT).toBe((b.body.ChallengeParameters as Record<string, string>).SALT);
  });

  test('an administrator created with a temporary password must choose a new one (NEW_PASSWORD_REQUIRED)', async () => {
    const { temporaryPassword } = await identity.admin.adminCreateUser({
      username: 'nuevo@demo.local',
      attributes: { email: 'nuevo@demo.local', email_verified: 'true' },
    });
    const h = pool();
    const out = await signIn(h, 'nuevo@demo.local', temporaryPassword);
    expect(out.kind).toBe('newPassword');
    if (out.kind !== 'newPassword') return;
    expect(out.userAttributes).toMatchObject({ email: 'nuevo@demo.local' });
    const weak = await failure(completeNewPassword(out.user, 'corta'));
    expect(weak.code).toBe('InvalidPasswordException');
    // A policy failure does not spend the session: the same challenge can be answered again.
    const session = await completeNewPassword(out.user, 'Nueva-Clave-2026!');
    expect(session.isValid()).toBe(true);
    expect((await signIn(pool(), 'nuevo@demo.local', 'Nueva-Clave-2026!')).kind).toBe('session');
    expect((await failure(signIn(pool(), 'nuevo@demo.local', temporaryPassword))).code).toBe('NotAuthorizedException');
    // Via USER_PASSWORD_AUTH the challenge comes directly.
    const second = await identity.admin.adminCreateUser({ username: 'otro@demo.local', attributes: { email: 'otro@demo.local' } });
    const plain = await signIn(pool(), 'otro@demo.local', second.temporaryPassword, 'USER_PASSWORD_AUTH');
    expect(plain.kind).toBe('newPassword');
  });

  test('refresh: a session whose clock says it expired is refreshed with the same sign-in (origin_jti)', async () => {
    const h = pool();
    const out = await signIn(h, 'inventario@demo.local', PASSWORD);
    if (out.kind !== 'session') throw new Error('no session');
    const before = out.session.getAccessToken();
    const prefix = `CognitoIdentityServiceProvider.${clientId}.inventario@demo.local`;
    h.storage.setItem(`${prefix}.clockDrift`, '-100000');
    const user = h.pool.getCurrentUser()!;
    const refreshed = await getSession(user);
    const after = refreshed.getAccessToken();
    expect(after.getJwtToken()).not.toBe(before.getJwtToken());
    expect(after.decodePayload().origin_jti).toBe(before.decodePayload().origin_jti);
    expect(after.decodePayload().jti).not.toBe(before.decodePayload().jti);
    expect(refreshed.getRefreshToken().getToken()).toBe(out.session.getRefreshToken().getToken());
    // The refresh operation never hands out a new refresh token.
    const direct = await call('InitiateAuth', {
      AuthFlow: 'REFRESH_TOKEN_AUTH',
      ClientId: clientId,
      AuthParameters: { REFRESH_TOKEN: out.session.getRefreshToken().getToken(), DEVICE_KEY: null },
    });
    expect(direct.status).toBe(200);
    expect(direct.body.AuthenticationResult).not.toHaveProperty('RefreshToken');
  });

  test('GetUser and ChangePassword through the client', async () => {
    const { temporaryPassword } = await identity.admin.adminCreateUser({ username: 'cambio@demo.local', attributes: { email: 'cambio@demo.local' } });
    await identity.admin.adminSetUserPassword('cambio@demo.local', temporaryPassword, true);
    const out = await signIn(pool(), 'cambio@demo.local', temporaryPassword);
    if (out.kind !== 'session') throw new Error('no session');
    const attrs = await cb<{ Name: string; Value: string }[]>((done) => out.user.getUserAttributes(done as never));
    expect(Object.fromEntries(attrs.map((a) => [a.Name, a.Value]))).toMatchObject({ email: 'cambio@demo.local', sub: expect.any(String) });
    const bad = await failure(cb((done) => out.user.changePassword('No-Es-La-1!', 'Otra-Clave-2026!', done as never)));
    expect(bad).toEqual({ code: 'NotAuthorizedException', message: 'Incorrect username or password.' });
    await cb((done) => out.user.changePassword(temporaryPassword, 'Otra-Clave-2026!', done as never));
    expect((await signIn(pool(), 'cambio@demo.local', 'Otra-Clave-2026!')).kind).toBe('session');
  });

  test('signOut(cb) revokes the refresh token; GlobalSignOut revokes the access token', async () => {
    const out = await signIn(pool(), 'admin@demo.local', PASSWORD);
    if (out.kind !== 'session') throw new Error('no session');
    const refresh = out.session.getRefreshToken().getToken();
    await cb<void>((done) => (out.user as CognitoUser).signOut(done as never));
    const after = await call('InitiateAuth', { AuthFlow: 'REFRESH_TOKEN_AUTH', ClientId: clientId, AuthParameters: { REFRESH_TOKEN: refresh } });
    expect(after.body).toEqual({ __type: 'NotAuthorizedException', message: 'Refresh Token has been revoked' });

    const again = await signIn(pool(), 'admin@demo.local', PASSWORD);
    if (again.kind !== 'session') throw new Error('no session');
    const accessToken = again.session.getAccessToken().getJwtToken();
    await new Promise<void>((resolve, reject) => again.user.globalSignOut({ onSuccess: () => resolve(), onFailure: reject }));
    const getUser = await call('GetUser', { AccessToken: accessToken });
    expect(getUser.body).toEqual({ __type: 'NotAuthorizedException', message: 'Access Token has been revoked' });
  });

  test('a disabled user is refused, and enabled again can sign in', async () => {
    await identity.admin.adminCreateUser({
      username: 'pausa@demo.local',
      attributes: { email: 'pausa@demo.local' },
      temporaryPassword: 'Pausa-Clave-2026!',
    });
    await identity.admin.adminSetUserPassword('pausa@demo.local', 'Pausa-Clave-2026!', true);
    await identity.admin.adminDisableUser('pausa@demo.local');
    expect(await failure(signIn(pool(), 'pausa@demo.local', 'Pausa-Clave-2026!'))).toEqual({
      code: 'NotAuthorizedException',
      message: 'User is disabled.',
    });
    await identity.admin.adminEnableUser('pausa@demo.local');
    expect((await signIn(pool(), 'pausa@demo.local', 'Pausa-Clave-2026!')).kind).toBe('session');
  });

  test(`lock-out after ${MAX_FAILED_ATTEMPTS} failures: even the right password is refused`, async () => {
    await identity.admin.adminCreateUser({
      username: 'bloqueo@demo.local',
      attributes: { email: 'bloqueo@demo.local' },
      temporaryPassword: 'Bloqueo-Clave-2026!',
    });
    await identity.admin.adminSetUserPassword('bloqueo@demo.local', 'Bloqueo-Clave-2026!', true);
    for (let i = 0; i < MAX_FAILED_ATTEMPTS; i++) {
      expect((await failure(signIn(pool(), 'bloqueo@demo.local', `Mala-Clave-${i}!A`))).message).toBe('Incorrect username or password.');
    }
    expect(await failure(signIn(pool(), 'bloqueo@demo.local', 'Bloqueo-Clave-2026!'))).toEqual({
      code: 'NotAuthorizedException',
      message: 'Password attempts exceeded',
    });
    expect((await failure(signIn(pool(), 'bloqueo@demo.local', 'Bloqueo-Clave-2026!', 'USER_PASSWORD_AUTH'))).message).toBe(
      'Password attempts exceeded',
    );
  });

  test('forgot password: the code goes to the server log only, and sets a new password', async () => {
    await identity.admin.adminCreateUser({
      username: 'olvido@demo.local',
      attributes: { email: 'olvido@demo.local' },
      temporaryPassword: 'Olvido-Clave-2026!',
    });
    await identity.admin.adminSetUserPassword('olvido@demo.local', 'Olvido-Clave-2026!', true);
    const asked = await call('ForgotPassword', { ClientId: clientId, Username: 'olvido@demo.local' });
    expect(asked.body).toEqual({ CodeDeliveryDetails: { Destination: 'o***@d***.local', DeliveryMedium: 'EMAIL', AttributeName: 'email' } });
    expect(JSON.stringify(asked.body)).not.toMatch(/\d{6}/);
    const line = test_.logs.lines.find((l) => l.username === 'olvido@demo.local' && typeof l.code === 'string');
    const code = line!.code as string;
    const wrong = await call('ConfirmForgotPassword', {
      ClientId: clientId,
      Username: 'olvido@demo.local',
      ConfirmationCode: code === '000000' ? '111111' : '000000',
      Password: 'Nueva-Olvido-2026!',
    });
    expect(wrong.body.__type).toBe('CodeMismatchException');
    const ok = await call('ConfirmForgotPassword', {
      ClientId: clientId,
      Username: 'olvido@demo.local',
      ConfirmationCode: code,
      Password: 'Nueva-Olvido-2026!',
    });
    expect(ok).toEqual({ status: 200, body: {} });
    expect((await signIn(pool(), 'olvido@demo.local', 'Nueva-Olvido-2026!')).kind).toBe('session');
    // An unknown user gets the same kind of answer and no code.
    const unknown = await call('ForgotPassword', { ClientId: clientId, Username: 'nadie@demo.local' });
    expect(unknown.status).toBe(200);
  });

  describe('attacks', () => {
    test.each([
      ['0', '0'],
      ['N', N.toString(16)],
      ['2N', (2n * N).toString(16)],
      ['not hex', 'xyz'],
    ])('SRP_A = %s is refused', async (_label, srpA) => {
      const res = await call('InitiateAuth', {
        AuthFlow: 'USER_SRP_AUTH',
        ClientId: clientId,
        AuthParameters: { USERNAME: 'admin@demo.local', SRP_A: srpA },
      });
      expect(res.status).toBe(400);
      expect(res.body.__type).toBe('InvalidParameterException');
    });

    test('a replayed PASSWORD_VERIFIER answer (same SECRET_BLOCK) is refused', async () => {
      sent.length = 0;
      await signIn(pool(), 'inventario@demo.local', PASSWORD);
      const answer = sent.find((s) => s.target.endsWith('RespondToAuthChallenge'));
      expect(answer).toBeDefined();
      const replay = await call('RespondToAuthChallenge', JSON.parse(answer!.body));
      expect(replay.body).toEqual({ __type: 'NotAuthorizedException', message: 'Invalid session for the user, session is expired.' });
    });

    test('no password, token or code appears in the logs', async () => {
      const all = test_.logs.raw.filter((l) => !l.includes('"code":')).join('\n');
      expect(all).not.toContain(PASSWORD);
      expect(all).not.toMatch(/eyJ[\w-]+\.[\w-]+\.[\w-]+/);
      expect(all).not.toContain('SRP_A');
    });

    test('the protocol is enforced: content type, X-Amz-Target, JSON body, body size, unknown client', async () => {
      const bad = async (headers: Record<string, string>, body: string) => {
        const r = await realFetch(`${base}/cognito/`, { method: 'POST', headers, body });
        return { status: r.status, body: (await r.json()) as { __type: string } };
      };
      const json = { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': `${TARGET}InitiateAuth` };
      expect((await bad({ 'content-type': 'application/json', 'x-amz-target': `${TARGET}InitiateAuth` }, '{}')).body.__type).toBe(
        'UnsupportedMediaTypeException',
      );
      expect((await bad({ 'content-type': 'application/x-amz-json-1.1' }, '{}')).body.__type).toBe('UnknownOperationException');
      expect((await bad(json, 'not json')).body.__type).toBe('SerializationException');
      expect((await bad(json, JSON.stringify({ pad: 'x'.repeat(70_000) }))).status).toBe(400);
      expect((await bad({ ...json, 'x-amz-target': `${TARGET}AdminCreateUser` }, '{}')).body.__type).toBe('MissingAuthenticationTokenException');
      const wrongClient = await call('InitiateAuth', {
        AuthFlow: 'USER_PASSWORD_AUTH',
        ClientId: 'otro',
        AuthParameters: { USERNAME: 'a', PASSWORD: 'b' },
      });
      expect(wrongClient.body.__type).toBe('ResourceNotFoundException');
    });
  });

  test('JWKS and OpenID discovery are served under the pool id; keys survive a restart', async () => {
    const jwks = await request(test_.app).get(`/cognito/${userPoolId}/.well-known/jwks.json`).expect(200);
    expect(jwks.body.keys).toHaveLength(2);
    expect(new Set(jwks.body.keys.map((k: { kid: string }) => k.kid)).size).toBe(2);
    for (const k of jwks.body.keys) expect(k).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig', e: 'AQAB' });
    const oidc = await request(test_.app).get(`/cognito/${userPoolId}/.well-known/openid-configuration`).expect(200);
    expect(oidc.body.issuer).toBe(`https://cognito-idp.us-east-1.amazonaws.com/${userPoolId}`);

    const out = await signIn(pool(), 'soporte@demo.local', PASSWORD);
    if (out.kind !== 'session') throw new Error('no session');
    const restarted = await buildTestApp(t.db);
    expect(restarted.deps.identity!.jwks).toEqual(identity.jwks);
    await request(restarted.app)
      .post('/api/v5/users/getUserByEmail')
      .set({
        AccessToken: out.session.getAccessToken().getJwtToken(),
        IdToken: out.session.getIdToken().getJwtToken(),
        username: 'soporte@demo.local',
      })
      .send({ correo: 'soporte@demo.local' })
      .expect(200);
  });
});

describe('sign-in rate limit per client IP', () => {
  test('past the limit the endpoint answers TooManyRequestsException; discovery stays open', async () => {
    const t = await createTestDb('pglite');
    try {
      const { app, config } = await buildTestApp(t.db, { env: { IDENTITY_RATE_LIMIT_PER_MINUTE: '3' } });
      const body = {
        AuthFlow: 'USER_PASSWORD_AUTH',
        ClientId: config.identity.clientId,
        AuthParameters: { USERNAME: 'x@y.z', PASSWORD: 'Nada-1234!' },
      };
      const post = () =>
        request(app)
          .post('/cognito/')
          .set({ 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': `${TARGET}InitiateAuth` })
          .send(JSON.stringify(body));
      for (let i = 0; i < 3; i++) expect(JSON.parse((await post()).text).__type).toBe('NotAuthorizedException');
      const limited = await post();
      expect(limited.status).toBe(400);
      expect(JSON.parse(limited.text)).toEqual({ __type: 'TooManyRequestsException', message: 'Too many requests' });
      await request(app).get(`/cognito/${config.identity.userPoolId}/.well-known/jwks.json`).expect(200);
    } finally {
      await t.dispose();
    }
  });
});
