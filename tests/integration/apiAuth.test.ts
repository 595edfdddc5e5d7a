import { generateKeyPairSync, randomUUID } from 'node:crypto';
import request from 'supertest';
import { bootstrap } from '../../server/db/bootstrap';
import { signJwt } from '../../server/identity/jwt';
import { loadOrCreateKeys, type SigningKeys } from '../../server/identity/keys';
import { buildTestApp, type TestApp } from '../helpers/testApp';
import { createTestDb, testEngines, type TestDb } from '../helpers/testDb';

const EMAIL = 'admin@demo.local';

describe.each(testEngines())('token verification on the API (%s)', (engine) => {
  let t: TestDb;
  let ta: TestApp;
  let keys: SigningKeys;
  let issuer: string;
  let clientId: string;
  let sub: string;
  /** A sign-in the endpoint recorded (its refresh token is live). */
  const origin = randomUUID();

  beforeAll(async () => {
    t = await createTestDb(engine);
    ta = await buildTestApp(t.db, { env: { DEMO_PASSWORD: 'Demo-Portal-2026!', SEED_DEMO: 'false' } });
    await bootstrap(t.db, ta.config, ta.deps.identity);
    keys = await loadOrCreateKeys(t.db);
    issuer = ta.deps.identity!.issuer;
    clientId = ta.config.identity.clientId;
    sub = (await ta.deps.identity!.admin.adminGetUser(EMAIL)).sub;
    await t.db.query(
      `INSERT INTO identity_refresh_tokens (token_hash, sub, client_id, origin_jti, auth_time, expires_at)
       VALUES ('api-auth-test', $1, $2, $3, $4, now() + interval '1 day')`,
      [sub, clientId, origin, Math.floor(Date.now() / 1000)],
    );
  }, 60_000);
  afterAll(async () => {
    await t.dispose();
  });

  /** Claims as the endpoint issues them; `over` changes any of them. */
  function tokens(over: { access?: Record<string, unknown>; id?: Record<string, unknown> } = {}) {
    const now = Math.floor(Date.now() / 1000);
    const common = { sub, iss: issuer, origin_jti: origin, event_id: randomUUID(), auth_time: now, iat: now, exp: now + 600 };
    return {
      access: {
        ...common,
        client_id: clientId,
        token_use: 'access',
        scope: 'aws.cognito.signin.user.admin',
        jti: randomUUID(),
        username: EMAIL,
        ...over.access,
      },
      id: { ...common, email: EMAIL, email_verified: true, 'cognito:username': EMAIL, aud: clientId, token_use: 'id', jti: randomUUID(), ...over.id },
    };
  }

  const ask = (access: string, id: string, username = EMAIL) =>
    request(ta.app).post('/api/v5/users/getUserByEmail').set({ AccessToken: access, IdToken: id, username }).send({ correo: EMAIL });

  test('well-formed tokens signed by the endpoint pass', async () => {
    const c = tokens();
    const res = await ask(signJwt(c.access, keys.access), signJwt(c.id, keys.id)).expect(200);
    expect(res.body.correo).toBe(EMAIL);
  });

  const foreign = (() => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    return privateKey;
  })();

  test.each<[string, () => [string, string, string?]]>([
    ['no tokens', () => ['', '']],
    [
      'a forged signature',
      () => {
        const c = tokens();
        const good = signJwt(c.access, keys.access).split('.');
        return [`${good[0]}.${good[1]}.${Buffer.from('forged').toString('base64url')}`, signJwt(c.id, keys.id)];
      },
    ],
    [
      'a changed payload under a valid signature',
      () => {
        const c = tokens();
        const [h, , s] = signJwt(c.access, keys.access).split('.');
        const payload = Buffer.from(JSON.stringify({ ...c.access, username: 'otro@demo.local' })).toString('base64url');
        return [`${h}.${payload}.${s}`, signJwt(c.id, keys.id)];
      },
    ],
    [
      'an expired access token',
      () => {
        const past = Math.floor(Date.now() / 1000) - 7200;
        const c = tokens({ access: { iat: past, exp: past + 3600 } });
        return [signJwt(c.access, keys.access), signJwt(c.id, keys.id)];
      },
    ],
    [
      'a token for another client',
      () => {
        const c = tokens({ access: { client_id: 'otroclienteajeno' }, id: { aud: 'otroclienteajeno' } });
        return [signJwt(c.access, keys.access), signJwt(c.id, keys.id)];
      },
    ],
    [
      'an ID token sent as the access token',
      () => {
        const c = tokens();
        const id = signJwt(c.id, keys.id);
        return [id, id];
      },
    ],
    [
      'an access token sent as the ID token',
      () => {
        const c = tokens();
        const access = signJwt(c.access, keys.access);
        return [access, access];
      },
    ],
    [
      'alg none',
      () => {
        const c = tokens();
        const unsigned = (p: object, kid: string) =>
          `${Buffer.from(JSON.stringify({ kid, alg: 'none' })).toString('base64url')}.${Buffer.from(JSON.stringify(p)).toString('base64url')}.`;
        return [unsigned(c.access, keys.access.kid), unsigned(c.id, keys.id.kid)];
      },
    ],
    [
      'a token signed by another key with the same kid',
      () => {
        const c = tokens();
        return [signJwt(c.access, { ...keys.access, privateKey: foreign }), signJwt(c.id, keys.id)];
      },
    ],
    [
      'another issuer',
      () => {
        const c = tokens({ access: { iss: 'https://cognito-idp.us-east-1.amazonaws.com/us-east-1_Otro' } });
        return [signJwt(c.access, keys.access), signJwt(c.id, keys.id)];
      },
    ],
    [
      'a username header that is not the token user',
      () => {
        const c = tokens();
        return [signJwt(c.access, keys.access), signJwt(c.id, keys.id), 'soporte@demo.local'];
      },
    ],
    [
      'an ID token of another user',
      () => {
        const c = tokens({ id: { sub: randomUUID() } });
        return [signJwt(c.access, keys.access), signJwt(c.id, keys.id)];
      },
    ],
  ])('%s → 401', async (_label, make) => {
    const [access, id, username] = make();
    const res = await ask(access, id, username).expect(401);
    expect(res.body).toEqual({ message: 'Unauthorized', code: 'UNAUTHORIZED' });
  });

  test('the RefreshToken header is never needed nor read', async () => {
    const c = tokens();
    await ask(signJwt(c.access, keys.access), signJwt(c.id, keys.id)).set('RefreshToken', 'anything').expect(200);
  });

  test("asking for another administrator's record is refused; bad input is a Spanish 400", async () => {
    const c = tokens();
    const headers = { AccessToken: signJwt(c.access, keys.access), IdToken: signJwt(c.id, keys.id), username: EMAIL };
    const other = await request(ta.app).post('/api/v5/users/getUserByEmail').set(headers).send({ correo: 'soporte@demo.local' }).expect(403);
    expect(other.body.message).toBe('No Autorizado');
    const missing = await request(ta.app).post('/api/v5/users/getUserByEmail').set(headers).send({}).expect(400);
    expect(missing.body).toMatchObject({ message: 'El campo Correo es obligatorio', field: 'correo' });
    const invalid = await request(ta.app).post('/api/v5/users/getUserByEmail').set(headers).send({ correo: 'no-es-correo' }).expect(400);
    expect(invalid.body).toMatchObject({ message: 'El campo Correo debe ser un correo electrónico válido', field: 'correo' });
    const unknownPath = await request(ta.app).get('/api/v5/nada').set(headers).expect(404);
    expect(unknownPath.body.message).toBe('Recurso no encontrado');
  });
});
