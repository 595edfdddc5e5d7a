import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import type { IdentityService } from '../../server/identity/identityService';
import { LOCKOUT_MS, MAX_FAILED_ATTEMPTS } from '../../server/identity/identityService';
import { modPowOperations } from '../../server/identity/srp';
import { failure, makePool, signIn, type PoolHandle } from '../helpers/cognitoClient';
import { buildTestApp, type TestApp } from '../helpers/testApp';
import { createTestDb, testEngines, type TestDb } from '../helpers/testDb';

const TARGET = 'AWSCognitoIdentityProviderService.';
const WRONG = { code: 'NotAuthorizedException', message: 'Incorrect username or password.' };

/** What an attacker learns from the embedded endpoint: timing, account state, guessable codes, log flooding. */
describe.each(testEngines())('embedded identity endpoint under attack (%s)', (engine) => {
  let t: TestDb;
  let test_: TestApp;
  let identity: IdentityService;
  let server: http.Server;
  let base: string;
  let clientId: string;
  let userPoolId: string;
  /** The endpoint's clock: tests move it. */
  let clock = Date.now();

  const pool = (): PoolHandle => makePool(base, userPoolId, clientId);
  const op = async (operation: string, body: Record<string, unknown>) => {
    const res = await request(test_.app)
      .post('/cognito/')
      .set({ 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': `${TARGET}${operation}` })
      .send(JSON.stringify(body));
    return { status: res.status, body: JSON.parse(res.text) as Record<string, unknown> };
  };
  const createUser = async (username: string, password: string) => {
    await identity.admin.adminCreateUser({ username, attributes: { email: username }, temporaryPassword: password });
    await identity.admin.adminSetUserPassword(username, password, true);
  };
  /** Modular exponentiations the server does while `fn` runs (the client library has its own). */
  const cost = async (fn: () => Promise<unknown>) => {
    const before = modPowOperations();
    await fn().catch(() => undefined);
    return modPowOperations() - before;
  };
  const lastCode = (username: string) =>
    test_.logs.lines.filter((l) => l.username === username && typeof l.code === 'string').at(-1)?.code as string | undefined;
  const forgot = async (user: string) => {
    expect((await op('ForgotPassword', { ClientId: clientId, Username: user })).status).toBe(200);
    return lastCode(user)!;
  };
  const confirm = (user: string, code: string, Password = 'Nueva-Adivina-2026!') =>
    op('ConfirmForgotPassword', { ClientId: clientId, Username: user, ConfirmationCode: code, Password });
  const wrongOf = (code: string) => (code === '000000' ? '111111' : '000000');
  const count = async (sql: string) => Number((await t.db.query<{ n: number }>(sql)).rows[0]!.n);

  beforeAll(async () => {
    t = await createTestDb(engine);
    test_ = await buildTestApp(t.db, { now: () => clock });
    identity = test_.deps.identity!;
    ({ userPoolId, clientId } = test_.config.identity);
    server = http.createServer(test_.app);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }, 60_000);

  afterAll(async () => {
    await new Promise((r) => server.close(r));
    await t.dispose();
  });

  afterEach(() => {
    clock = Date.now();
  });

  test('an unknown name costs the server the same modular exponentiations as a known one (SRP and password flows)', async () => {
    await createUser('costo@demo.local', 'Costo-Clave-2026!');
    const srpKnown = await cost(() => signIn(pool(), 'costo@demo.local', 'Mala-Clave-2026!'));
    const srpUnknown = await cost(() => signIn(pool(), 'nadie-costo@demo.local', 'Mala-Clave-2026!'));
    // InitiateAuth: g^b; PASSWORD_VERIFIER: the B check and S = (A·v^u)^b.
    expect(srpKnown).toBeGreaterThanOrEqual(4);
    expect(srpUnknown).toBe(srpKnown);
    const plainKnown = await cost(() => signIn(pool(), 'costo@demo.local', 'Mala-Clave-2026!', 'USER_PASSWORD_AUTH'));
    const plainUnknown = await cost(() => signIn(pool(), 'nadie-costo@demo.local', 'Mala-Clave-2026!', 'USER_PASSWORD_AUTH'));
    expect(plainKnown).toBeGreaterThanOrEqual(1);
    expect(plainUnknown).toBe(plainKnown);
    // Both names fail with the same answer.
    expect(await failure(signIn(pool(), 'nadie-costo@demo.local', 'Mala-Clave-2026!'))).toEqual(WRONG);
  });

  test('a disabled user is told so only after proving the password; a wrong one gets the answer of any wrong password', async () => {
    await createUser('apagado@demo.local', 'Apagado-Clave-2026!');
    await identity.admin.adminDisableUser('apagado@demo.local');
    for (const flow of ['USER_SRP_AUTH', 'USER_PASSWORD_AUTH'] as const) {
      expect(await failure(signIn(pool(), 'apagado@demo.local', 'Mala-Clave-2026!', flow))).toEqual(WRONG);
      expect(await failure(signIn(pool(), 'apagado@demo.local', 'Apagado-Clave-2026!', flow))).toEqual({
        code: 'NotAuthorizedException',
        message: 'User is disabled.',
      });
    }
    // And it costs what a known enabled user's wrong password costs.
    await createUser('encendido@demo.local', 'Encendido-Clave-2026!');
    const enabled = await cost(() => signIn(pool(), 'encendido@demo.local', 'Mala-Clave-2026!'));
    expect(await cost(() => signIn(pool(), 'apagado@demo.local', 'Mala-Clave-2026!'))).toBe(enabled);
  });

  test(`reset codes: failures count per user across codes; after ${MAX_FAILED_ATTEMPTS} in 15 minutes even the right code is refused`, async () => {
    const user = 'adivina@demo.local';
    await createUser(user, 'Adivina-Clave-2026!');

    // A new code used to reset the counter: one guess per code, without end.
    for (let i = 0; i < MAX_FAILED_ATTEMPTS; i++) {
      expect((await confirm(user, wrongOf(await forgot(user)))).body.__type).toBe('CodeMismatchException');
    }
    const code = await forgot(user);
    expect((await confirm(user, code)).body).toEqual({
      __type: 'LimitExceededException',
      message: 'Attempt limit exceeded, please try after some time.',
    });
    expect(await failure(signIn(pool(), user, 'Nueva-Adivina-2026!', 'USER_PASSWORD_AUTH'))).toEqual(WRONG);

    // Fifteen minutes after those failures the right code works again.
    clock = Date.now() + LOCKOUT_MS + 1000;
    const fresh = await forgot(user);
    expect(await confirm(user, fresh)).toEqual({ status: 200, body: {} });
    clock = Date.now();
    expect((await signIn(pool(), user, 'Nueva-Adivina-2026!', 'USER_PASSWORD_AUTH')).kind).toBe('session');
  });

  test('concurrent guesses of a reset code cannot pass the limit together', async () => {
    const user = 'paralelo@demo.local';
    await createUser(user, 'Paralelo-Clave-2026!');
    const code = await forgot(user);
    const answers = await Promise.all(Array.from({ length: 12 }, () => confirm(user, wrongOf(code))));
    const types = answers.map((a) => a.body.__type);
    expect(types.every((x) => x === 'CodeMismatchException' || x === 'LimitExceededException')).toBe(true);
    // Codes compared in the burst and one by one afterwards: exactly the limit, never more.
    let compared = types.filter((x) => x === 'CodeMismatchException').length;
    for (let i = 0; i <= MAX_FAILED_ATTEMPTS; i++) {
      const type = (await confirm(user, wrongOf(code))).body.__type;
      if (type === 'LimitExceededException') break;
      expect(type).toBe('CodeMismatchException');
      compared++;
    }
    expect(compared).toBe(MAX_FAILED_ATTEMPTS);
    expect((await confirm(user, await forgot(user))).body.__type).toBe('LimitExceededException');
  });

  test('a user name over 128 characters (or with control characters) is refused before anything is stored', async () => {
    const huge = `${'x'.repeat(60_000)}@demo.local`;
    const bad = [huge, 'a'.repeat(129), 'con\u0000nulo@demo.local', 'salto\nde-linea@demo.local'];
    const audit = () => count('SELECT count(*) AS n FROM audit_log');
    const auditBefore = await audit();
    for (const name of bad) {
      const answers = [
        await op('InitiateAuth', {
          AuthFlow: 'USER_PASSWORD_AUTH',
          ClientId: clientId,
          AuthParameters: { USERNAME: name, PASSWORD: 'Mala-Clave-2026!' },
        }),
        await op('InitiateAuth', { AuthFlow: 'USER_SRP_AUTH', ClientId: clientId, AuthParameters: { USERNAME: name, SRP_A: 'abc' } }),
        await op('RespondToAuthChallenge', {
          ChallengeName: 'PASSWORD_VERIFIER',
          ClientId: clientId,
          ChallengeResponses: {
            USERNAME: name,
            PASSWORD_CLAIM_SECRET_BLOCK: 'eA==',
            TIMESTAMP: 'Mon Nov 23 10:00:00 UTC 2026',
            PASSWORD_CLAIM_SIGNATURE: 'x',
          },
        }),
        await op('RespondToAuthChallenge', {
          ChallengeName: 'NEW_PASSWORD_REQUIRED',
          ClientId: clientId,
          Session: 'x',
          ChallengeResponses: { USERNAME: name, NEW_PASSWORD: 'Nueva-Clave-2026!' },
        }),
        await op('ForgotPassword', { ClientId: clientId, Username: name }),
        await op('ConfirmForgotPassword', { ClientId: clientId, Username: name, ConfirmationCode: '123456', Password: 'Nueva-Clave-2026!' }),
      ];
      for (const a of answers) {
        expect(a.status).toBe(400);
        expect(a.body.__type).toBe('InvalidParameterException');
        expect(String(a.body.message)).toMatch(/username/);
      }
    }
    await expect(identity.admin.adminCreateUser({ username: 'b'.repeat(129) })).rejects.toMatchObject({ type: 'InvalidParameterException' });
    expect(await audit()).toBe(auditBefore);
    expect(await count('SELECT count(*) AS n FROM identity_login_failures WHERE length(username_lower) > 128')).toBe(0);
    expect(await count('SELECT count(*) AS n FROM identity_challenges WHERE length(username) > 128')).toBe(0);
    expect(await count('SELECT count(*) AS n FROM identity_users WHERE length(username) > 128')).toBe(0);
    // 128 characters is still a name: an unknown one, answered as any unknown name, and audited.
    const longest = `${'c'.repeat(117)}@demo.local`;
    expect(longest).toHaveLength(128);
    const ok = await op('InitiateAuth', {
      AuthFlow: 'USER_PASSWORD_AUTH',
      ClientId: clientId,
      AuthParameters: { USERNAME: longest, PASSWORD: 'Mala-Clave-2026!' },
    });
    expect(ok.body).toEqual({ __type: WRONG.code, message: WRONG.message });
    expect(await audit()).toBe(auditBefore + 1);
  });
});

describe('reset codes in production', () => {
  test('the code is never written to the log; the operator is told how to reset instead', async () => {
    const t = await createTestDb('pglite');
    try {
      const { app, config, logs, deps } = await buildTestApp(t.db, { env: { NODE_ENV: 'production', IDENTITY_MODE: 'embedded' } });
      await deps.identity!.admin.adminCreateUser({
        username: 'prod@empresa.mx',
        attributes: { email: 'prod@empresa.mx' },
        temporaryPassword: 'Prod-Clave-Propia-77',
      });
      await deps.identity!.admin.adminSetUserPassword('prod@empresa.mx', 'Prod-Clave-Propia-77', true);
      const res = await request(app)
        .post('/cognito/')
        .set({ 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': `${TARGET}ForgotPassword` })
        .send(JSON.stringify({ ClientId: config.identity.clientId, Username: 'prod@empresa.mx' }));
      expect(JSON.parse(res.text)).toEqual({ CodeDeliveryDetails: { Destination: 'p***@e***.mx', DeliveryMedium: 'EMAIL', AttributeName: 'email' } });
      expect(logs.lines.some((l) => 'code' in l)).toBe(false);
      expect(logs.raw.join('\n')).not.toMatch(/\b\d{6}\b/);
      expect(logs.lines.some((l) => l.username === 'prod@empresa.mx' && /AdminSetUserPassword|no se envían/i.test(String(l.msg)))).toBe(true);
    } finally {
      await t.dispose();
    }
  });
});
