import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignatureV4 } from '@smithy/signature-v4';
import type { IdentityDirectory } from '../../server/identity/IdentityDirectory';
import { cognitoDirectory } from '../../server/identity/cognitoDirectory';
import { embeddedDirectory } from '../../server/identity/embeddedDirectory';
import type { IdentityService } from '../../server/identity/identityService';
import type { IdentityUser } from '../../server/identity/identityRepository';
import { NodeSha256, type AdminCredentials } from '../../server/identity/sigv4';
import { failure, makePool, signIn, type PoolHandle } from '../helpers/cognitoClient';
import { buildTestApp, type TestApp } from '../helpers/testApp';
import { createTestDb, testEngines, type TestDb } from '../helpers/testDb';

const TARGET = 'AWSCognitoIdentityProviderService.';
const CONTENT_TYPE = 'application/x-amz-json-1.1';
const TEMP = 'Temporal-Clave-2026!';
const FINAL = 'Definitiva-Clave-2026!';

interface Env {
  app: TestApp;
  identity: IdentityService;
  base: string;
  region: string;
  userPoolId: string;
  clientId: string;
}

/** One operation of the JSON protocol, unsigned (what the browser's client sends). */
async function call(env: Env, op: string, body: unknown) {
  const r = await fetch(`${env.base}/cognito/`, {
    method: 'POST',
    headers: { 'content-type': CONTENT_TYPE, 'x-amz-target': `${TARGET}${op}` },
    body: JSON.stringify(body),
  });
  return { status: r.status, headers: r.headers, body: (await r.json()) as Record<string, unknown> };
}

/**
 * An admin call signed by hand as the AWS SDK signs it (SigV4 with x-amz-content-sha256), with
 * hooks to change the request after signing: what an attacker holding a signed request can do.
 */
async function signedCall(
  env: Env,
  op: string,
  body: unknown,
  opts: {
    credentials?: AdminCredentials;
    date?: Date;
    region?: string;
    after?: (req: { headers: Record<string, string>; body: string }) => void;
  } = {},
) {
  const url = new URL(`${env.base}/cognito/`);
  const payload = JSON.stringify(body);
  const signer = new SignatureV4({
    service: 'cognito-idp',
    region: opts.region ?? env.region,
    credentials: opts.credentials ?? env.identity.adminCredentials(),
    sha256: NodeSha256,
  });
  const signed = await signer.sign(
    {
      method: 'POST',
      protocol: url.protocol,
      hostname: url.hostname,
      port: Number(url.port),
      path: url.pathname,
      query: {},
      headers: { 'content-type': CONTENT_TYPE, 'x-amz-target': `${TARGET}${op}`, host: url.host },
      body: payload,
    },
    { signingDate: opts.date ?? new Date() },
  );
  const req = { headers: { ...(signed.headers as Record<string, string>) }, body: payload };
  opts.after?.(req);
  delete req.headers.host; // fetch sets it from the URL: the same value
  const r = await fetch(url, { method: 'POST', headers: req.headers, body: req.body });
  return { status: r.status, headers: r.headers, body: (await r.json()) as Record<string, unknown> };
}

/** Rejection of a promise as the error's name (the SDK's and the service's exception type). */
async function rejection(p: Promise<unknown>): Promise<{ name: string; message: string }> {
  try {
    await p;
  } catch (err) {
    return { name: (err as Error).name, message: (err as Error).message };
  }
  throw new Error('expected a rejection');
}

/**
 * The IdentityDirectory contract: what the [admin] pages rely on, whatever the implementation.
 * Runs in order; `prefix` keeps the users of one run apart from another's on the same pool.
 */
function directoryContract(kind: 'embedded' | 'cognito', prefix: string, ctx: () => { env: Env; directory: IdentityDirectory }) {
  describe(`IdentityDirectory contract (${kind})`, () => {
    const email = (name: string) => `${prefix}-${name}@demo.local`;
    const ana = email('ana');
    const pool = (): PoolHandle => makePool(ctx().env.base, ctx().env.userPoolId, ctx().env.clientId);
    let created: Awaited<ReturnType<IdentityDirectory['createUser']>>;

    test('kind', () => {
      expect(ctx().directory.kind).toBe(kind);
    });

    test('createUser: lower-cased e-mail as the name, verified e-mail, FORCE_CHANGE_PASSWORD with the given temporary password', async () => {
      const before = Date.now();
      created = await ctx().directory.createUser({ email: ana.toUpperCase(), attributes: { name: 'Ana Prueba' }, temporaryPassword: TEMP });
      expect(created.temporaryPassword).toBe(TEMP);
      expect(created.user).toMatchObject({
        username: ana,
        email: ana,
        enabled: true,
        status: 'FORCE_CHANGE_PASSWORD',
        attributes: { email: ana, email_verified: 'true', name: 'Ana Prueba', sub: expect.stringMatching(/^[0-9a-f-]{36}$/) },
      });
      expect(created.user.createdAt).toBeInstanceOf(Date);
      expect(created.user.createdAt.getTime()).toBeGreaterThan(before - 60_000);
      expect(created.user.createdAt.getTime()).toBeLessThan(Date.now() + 60_000);
      expect(created.user.updatedAt).toBeInstanceOf(Date);
      const first = await signIn(pool(), ana, TEMP);
      expect(first.kind).toBe('newPassword');
    });

    test('createUser again (any case) → UsernameExistsException; a weak temporary password → InvalidPasswordException', async () => {
      expect((await rejection(ctx().directory.createUser({ email: ana, temporaryPassword: TEMP }))).name).toBe('UsernameExistsException');
      expect((await rejection(ctx().directory.createUser({ email: ana.toUpperCase(), temporaryPassword: TEMP }))).name).toBe(
        'UsernameExistsException',
      );
      expect((await rejection(ctx().directory.createUser({ email: email('debil'), temporaryPassword: 'corta' }))).name).toBe(
        'InvalidPasswordException',
      );
      expect(await ctx().directory.getUser(email('debil'))).toBeUndefined();
    });

    test('getUser: the same user as created; unknown → undefined', async () => {
      expect(await ctx().directory.getUser(ana)).toEqual(created.user);
      expect(await ctx().directory.getUser(ana.toUpperCase())).toMatchObject({ username: ana });
      expect(await ctx().directory.getUser(email('nadie'))).toBeUndefined();
    });

    test('listUsers: pages of at most `limit`, every user once', async () => {
      const names = [ana];
      for (const n of ['bea', 'carla', 'dario', 'elena']) {
        names.push((await ctx().directory.createUser({ email: email(n), temporaryPassword: TEMP })).user.username);
      }
      const seen: string[] = [];
      let nextToken: string | undefined;
      let pages = 0;
      do {
        const page = await ctx().directory.listUsers({ limit: 2, nextToken });
        expect(page.users.length).toBeLessThanOrEqual(2);
        seen.push(...page.users.map((u) => u.username));
        nextToken = page.nextToken;
        pages++;
      } while (nextToken && pages < 100);
      expect(nextToken).toBeUndefined();
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen).toEqual(expect.arrayContaining(names));
      const all = await ctx().directory.listUsers();
      expect(all.users.find((u) => u.username === ana)).toEqual(created.user);
    });

    test('setPassword permanent → CONFIRMED, signs in without a challenge', async () => {
      await ctx().directory.setPassword(ana, FINAL, true);
      expect(await ctx().directory.getUser(ana)).toMatchObject({ status: 'CONFIRMED', enabled: true });
      expect((await signIn(pool(), ana, FINAL)).kind).toBe('session');
      expect((await failure(signIn(pool(), ana, TEMP))).code).toBe('NotAuthorizedException');
    });

    test('setPassword temporary → FORCE_CHANGE_PASSWORD again', async () => {
      const bea = email('bea');
      await ctx().directory.setPassword(bea, 'Otra-Temporal-2026!', false);
      expect(await ctx().directory.getUser(bea)).toMatchObject({ status: 'FORCE_CHANGE_PASSWORD' });
      expect((await signIn(pool(), bea, 'Otra-Temporal-2026!')).kind).toBe('newPassword');
    });

    test('disableUser: sign-in refused with "User is disabled.", open sessions end', async () => {
      const out = await signIn(pool(), ana, FINAL);
      if (out.kind !== 'session') throw new Error('no session');
      await ctx().directory.disableUser(ana);
      expect(await ctx().directory.getUser(ana)).toMatchObject({ enabled: false });
      expect(await failure(signIn(pool(), ana, FINAL))).toEqual({ code: 'NotAuthorizedException', message: 'User is disabled.' });
      const { env } = ctx();
      const refresh = await call(env, 'InitiateAuth', {
        AuthFlow: 'REFRESH_TOKEN_AUTH',
        ClientId: env.clientId,
        AuthParameters: { REFRESH_TOKEN: out.session.getRefreshToken().getToken() },
      });
      expect(refresh.body.__type).toBe('NotAuthorizedException');
      const getUser = await call(env, 'GetUser', { AccessToken: out.session.getAccessToken().getJwtToken() });
      expect(getUser.body.__type).toBe('NotAuthorizedException');
    });

    test('enableUser: signs in again', async () => {
      await ctx().directory.enableUser(ana);
      expect(await ctx().directory.getUser(ana)).toMatchObject({ enabled: true, status: 'CONFIRMED' });
      expect((await signIn(pool(), ana, FINAL)).kind).toBe('session');
    });

    test('signOutEverywhere: refresh and access tokens are revoked; a new sign-in works', async () => {
      const out = await signIn(pool(), ana, FINAL);
      if (out.kind !== 'session') throw new Error('no session');
      await ctx().directory.signOutEverywhere(ana);
      const { env } = ctx();
      const refresh = await call(env, 'InitiateAuth', {
        AuthFlow: 'REFRESH_TOKEN_AUTH',
        ClientId: env.clientId,
        AuthParameters: { REFRESH_TOKEN: out.session.getRefreshToken().getToken() },
      });
      expect(refresh.body).toEqual({ __type: 'NotAuthorizedException', message: 'Refresh Token has been revoked' });
      const getUser = await call(env, 'GetUser', { AccessToken: out.session.getAccessToken().getJwtToken() });
      expect(getUser.body).toEqual({ __type: 'NotAuthorizedException', message: 'Access Token has been revoked' });
      expect((await signIn(pool(), ana, FINAL)).kind).toBe('session');
    });

    test('resetPassword → RESET_REQUIRED, sign-in refused with PasswordResetRequiredException', async () => {
      await ctx().directory.resetPassword(ana);
      expect(await ctx().directory.getUser(ana)).toMatchObject({ status: 'RESET_REQUIRED' });
      expect(await failure(signIn(pool(), ana, FINAL))).toEqual({
        code: 'PasswordResetRequiredException',
        message: 'Password reset required for the user',
      });
    });

    test('operations on an unknown user → UserNotFoundException', async () => {
      const nobody = email('nadie');
      for (const op of [
        () => ctx().directory.disableUser(nobody),
        () => ctx().directory.enableUser(nobody),
        () => ctx().directory.deleteUser(nobody),
        () => ctx().directory.resetPassword(nobody),
        () => ctx().directory.setPassword(nobody, FINAL, true),
        () => ctx().directory.signOutEverywhere(nobody),
      ]) {
        expect((await rejection(op())).name).toBe('UserNotFoundException');
      }
    });

    test('deleteUser: gone (getUser → undefined, not listed, cannot sign in), the name can be used again', async () => {
      await ctx().directory.deleteUser(ana);
      expect(await ctx().directory.getUser(ana)).toBeUndefined();
      expect((await ctx().directory.listUsers()).users.map((u) => u.username)).not.toContain(ana);
      expect((await failure(signIn(pool(), ana, FINAL))).code).toBe('NotAuthorizedException');
      const again = await ctx().directory.createUser({ email: ana, temporaryPassword: TEMP });
      expect(again.user.attributes.sub).not.toBe(created.user.attributes.sub);
      await ctx().directory.deleteUser(ana);
    });
  });
}

async function allUsers(identity: IdentityService): Promise<IdentityUser[]> {
  const out: IdentityUser[] = [];
  for (let page = await identity.admin.listUsers(60); page.length; page = await identity.admin.listUsers(60, page.at(-1)!.username))
    out.push(...page);
  return out;
}

describe.each(testEngines())('cognitoDirectory over the embedded endpoint (%s)', (engine) => {
  let t: TestDb;
  let env: Env;
  let server: http.Server;
  /** The AWS SDK client pointed at the app's own embedded endpoint, signing with its admin key. */
  let overHttp: IdentityDirectory;

  beforeAll(async () => {
    t = await createTestDb(engine);
    const app = await buildTestApp(t.db);
    server = http.createServer(app.app);
    // As the portal's own server (server/index.ts): with Node's 5 s default, a call made just as a
    // loaded machine's server closes the idle socket fetch reuses failed with ECONNRESET.
    server.keepAliveTimeout = 65_000;
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { region, userPoolId, clientId } = app.config.identity;
    env = {
      app,
      identity: app.deps.identity!,
      base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      region,
      userPoolId,
      clientId,
    };
    overHttp = cognitoDirectory({ region, userPoolId, endpoint: `${env.base}/cognito/`, credentials: env.identity.adminCredentials() });
  }, 60_000);

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await t.dispose();
  });

  directoryContract('cognito', 'sdk', () => ({ env, directory: overHttp }));
  directoryContract('embedded', 'local', () => ({ env, directory: embeddedDirectory(env.identity) }));

  describe('the admin key', () => {
    test('is generated once, kept in the database (the same after a restart), and never logged', async () => {
      const creds = env.identity.adminCredentials();
      expect(creds.accessKeyId).toMatch(/^LOCAL[A-Z2-7]{15}$/);
      expect(Buffer.from(creds.secretAccessKey, 'base64')).toHaveLength(30);
      const again = await buildTestApp(t.db);
      expect(again.deps.identity!.adminCredentials()).toEqual(creds);
      const logs = [...env.app.logs.raw, ...again.logs.raw].join('\n');
      expect(logs).not.toContain(creds.secretAccessKey);
      expect(logs).not.toContain(TEMP);
      expect(logs).not.toContain(FINAL);
    });

    test('another database gets another key', async () => {
      const other = await createTestDb(engine);
      try {
        const app = await buildTestApp(other.db);
        expect(app.deps.identity!.adminCredentials().secretAccessKey).not.toBe(env.identity.adminCredentials().secretAccessKey);
      } finally {
        await other.dispose();
      }
    });
  });

  describe('wire format of signed admin calls', () => {
    test('AdminCreateUser / AdminGetUser / ListUsers: AWS shapes, dates as epoch seconds', async () => {
      const name = 'formato@demo.local';
      const res = await signedCall(env, 'AdminCreateUser', {
        UserPoolId: env.userPoolId,
        Username: name,
        UserAttributes: [
          { Name: 'email', Value: name },
          { Name: 'email_verified', Value: 'true' },
        ],
        TemporaryPassword: TEMP,
        MessageAction: 'SUPPRESS',
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/x-amz-json-1\.1/);
      expect(res.headers.get('x-amzn-requestid')).toMatch(/^[0-9a-f-]{36}$/);
      const user = res.body.User as Record<string, unknown>;
      expect(user).toEqual({
        Username: name,
        Attributes: expect.arrayContaining([
          { Name: 'sub', Value: expect.any(String) },
          { Name: 'email', Value: name },
          { Name: 'email_verified', Value: 'true' },
        ]),
        UserCreateDate: expect.any(Number),
        UserLastModifiedDate: expect.any(Number),
        Enabled: true,
        UserStatus: 'FORCE_CHANGE_PASSWORD',
      });
      expect(Math.abs((user.UserCreateDate as number) - Date.now() / 1000)).toBeLessThan(60);

      const got = await signedCall(env, 'AdminGetUser', { UserPoolId: env.userPoolId, Username: name });
      expect(got.body).toEqual({
        Username: name,
        UserAttributes: user.Attributes,
        UserCreateDate: user.UserCreateDate,
        UserLastModifiedDate: user.UserLastModifiedDate,
        Enabled: true,
        UserStatus: 'FORCE_CHANGE_PASSWORD',
      });

      const listed = await signedCall(env, 'ListUsers', { UserPoolId: env.userPoolId, Limit: 1, AttributesToGet: ['email'] });
      expect(listed.body.Users).toEqual([expect.objectContaining({ Attributes: [{ Name: 'email', Value: expect.any(String) }] })]);
      expect(listed.body.PaginationToken).toEqual(expect.any(String));

      expect((await signedCall(env, 'AdminDeleteUser', { UserPoolId: env.userPoolId, Username: name })).body).toEqual({});
    });

    test('another pool id → ResourceNotFoundException; bad parameters → InvalidParameterException; unknown Admin* → UnknownOperationException', async () => {
      const other = await signedCall(env, 'AdminGetUser', { UserPoolId: 'us-east-1_Otro', Username: 'x' });
      expect(other).toMatchObject({ status: 400, body: { __type: 'ResourceNotFoundException' } });
      expect(other.headers.get('x-amzn-errortype')).toBe('ResourceNotFoundException:');
      expect((await signedCall(env, 'ListUsers', { UserPoolId: env.userPoolId, Limit: 61 })).body.__type).toBe('InvalidParameterException');
      expect((await signedCall(env, 'AdminGetUser', { UserPoolId: env.userPoolId })).body.__type).toBe('InvalidParameterException');
      expect((await signedCall(env, 'AdminAddUserToGroup', { UserPoolId: env.userPoolId, Username: 'x', GroupName: 'g' })).body.__type).toBe(
        'UnknownOperationException',
      );
    });

    test('over HTTP the temporary password must be given: nothing is generated, nothing is logged', async () => {
      const name = 'generada@demo.local';
      const res = await signedCall(env, 'AdminCreateUser', {
        UserPoolId: env.userPoolId,
        Username: name,
        UserAttributes: [{ Name: 'email', Value: name }],
      });
      expect(res.body).toEqual({ __type: 'InvalidParameterException', message: 'TemporaryPassword is required by the embedded endpoint' });
      expect(await embeddedDirectory(env.identity).getUser(name)).toBeUndefined();
      expect(env.app.logs.raw.join('\n')).not.toMatch(/temporaryPassword|Contraseña temporal/);
    });
  });

  describe('admin calls that are not signed with the admin key are refused and change nothing', () => {
    const victim = 'victima@demo.local';
    let before: IdentityUser[];

    beforeAll(async () => {
      await env.identity.admin.adminCreateUser({ username: victim, attributes: { email: victim }, temporaryPassword: TEMP });
      before = await allUsers(env.identity);
    });

    const create = (Username: string) => ({
      UserPoolId: env.userPoolId,
      Username,
      TemporaryPassword: TEMP,
      UserAttributes: [{ Name: 'email', Value: Username }],
    });
    const refused = (r: { status: number; body: Record<string, unknown>; headers: Headers }, type: string) => {
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ __type: type, message: expect.any(String) });
      expect(r.headers.get('x-amzn-errortype')).toBe(`${type}:`);
    };

    test('unsigned (the browser-facing protocol, no Authorization)', async () => {
      refused(await call(env, 'AdminCreateUser', create('intruso@demo.local')), 'MissingAuthenticationTokenException');
      refused(await call(env, 'AdminDisableUser', { UserPoolId: env.userPoolId, Username: victim }), 'MissingAuthenticationTokenException');
      refused(await call(env, 'ListUsers', { UserPoolId: env.userPoolId }), 'MissingAuthenticationTokenException');
      refused(
        await call(env, 'AdminAddUserToGroup', { UserPoolId: env.userPoolId, Username: victim, GroupName: 'admins' }),
        'MissingAuthenticationTokenException',
      );
      // A bearer token or a garbled header is no signature either.
      const bearer = await signedCall(
        env,
        'AdminDisableUser',
        { UserPoolId: env.userPoolId, Username: victim },
        {
          after: (r) => void (r.headers.authorization = 'Bearer abc'),
        },
      );
      refused(bearer, 'MissingAuthenticationTokenException');
      const garbled = await signedCall(
        env,
        'AdminDisableUser',
        { UserPoolId: env.userPoolId, Username: victim },
        {
          after: (r) => void (r.headers.authorization = r.headers.authorization!.replace(/, Signature=.*/, '')),
        },
      );
      refused(garbled, 'IncompleteSignatureException');
    });

    test('signed with a wrong secret, or with an unknown key id (through the SDK and by hand)', async () => {
      const { accessKeyId, secretAccessKey } = env.identity.adminCredentials();
      const wrongSecret = cognitoDirectory({
        region: env.region,
        userPoolId: env.userPoolId,
        endpoint: `${env.base}/cognito/`,
        credentials: { accessKeyId, secretAccessKey: secretAccessKey.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')) },
      });
      expect((await rejection(wrongSecret.createUser({ email: 'intruso@demo.local', temporaryPassword: TEMP }))).name).toBe(
        'InvalidSignatureException',
      );
      expect((await rejection(wrongSecret.disableUser(victim))).name).toBe('InvalidSignatureException');
      expect((await rejection(wrongSecret.getUser(victim))).name).toBe('InvalidSignatureException');
      const unknownKey = cognitoDirectory({
        region: env.region,
        userPoolId: env.userPoolId,
        endpoint: `${env.base}/cognito/`,
        credentials: { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey },
      });
      expect((await rejection(unknownKey.listUsers())).name).toBe('UnrecognizedClientException');
      refused(
        await signedCall(
          env,
          'AdminDisableUser',
          { UserPoolId: env.userPoolId, Username: victim },
          { credentials: { accessKeyId, secretAccessKey: 'x'.repeat(40) } },
        ),
        'InvalidSignatureException',
      );
      refused(
        await signedCall(env, 'AdminDisableUser', { UserPoolId: env.userPoolId, Username: victim }, { region: 'eu-west-1' }),
        'InvalidSignatureException',
      );
    });

    test('a correctly signed request whose body, target or payload hash was changed after signing', async () => {
      // The same helper without changes is accepted: the refusals below are about the change.
      expect((await signedCall(env, 'AdminGetUser', { UserPoolId: env.userPoolId, Username: victim })).status).toBe(200);
      const tamperedBody = await signedCall(
        env,
        'AdminGetUser',
        { UserPoolId: env.userPoolId, Username: victim },
        {
          after: (r) => void (r.body = JSON.stringify(create('intruso@demo.local'))),
        },
      );
      refused(tamperedBody, 'InvalidSignatureException');
      const sameLength = await signedCall(
        env,
        'AdminEnableUser',
        { UserPoolId: env.userPoolId, Username: victim },
        {
          after: (r) => void (r.body = r.body.replace('victima', 'victimb')),
        },
      );
      refused(sameLength, 'InvalidSignatureException');
      const withHash = await signedCall(
        env,
        'AdminGetUser',
        { UserPoolId: env.userPoolId, Username: victim },
        {
          after: (r) => {
            r.body = JSON.stringify(create('intruso@demo.local'));
            r.headers['x-amz-content-sha256'] = 'UNSIGNED-PAYLOAD';
          },
        },
      );
      refused(withHash, 'InvalidSignatureException');
      const otherTarget = await signedCall(
        env,
        'AdminGetUser',
        { UserPoolId: env.userPoolId, Username: victim },
        {
          after: (r) => void (r.headers['x-amz-target'] = `${TARGET}AdminDisableUser`),
        },
      );
      refused(otherTarget, 'InvalidSignatureException');
      const unsignedTarget = await signedCall(
        env,
        'AdminGetUser',
        { UserPoolId: env.userPoolId, Username: victim },
        {
          after: (r) => {
            r.headers.authorization = r.headers.authorization!.replace(/;x-amz-target(?=[;,])/, '');
            r.headers['x-amz-target'] = `${TARGET}AdminDisableUser`;
          },
        },
      );
      refused(unsignedTarget, 'InvalidSignatureException');
      expect(await env.identity.admin.adminGetUser(victim)).toMatchObject({ enabled: true });
      expect(await embeddedDirectory(env.identity).getUser('intruso@demo.local')).toBeUndefined();
    });

    test('a stale (or future) X-Amz-Date, more than 5 minutes away', async () => {
      const stale = await signedCall(
        env,
        'AdminDisableUser',
        { UserPoolId: env.userPoolId, Username: victim },
        { date: new Date(Date.now() - 6 * 60_000) },
      );
      refused(stale, 'InvalidSignatureException');
      expect(stale.body.message).toMatch(/^Signature expired/);
      const future = await signedCall(env, 'AdminCreateUser', create('intruso@demo.local'), { date: new Date(Date.now() + 6 * 60_000) });
      refused(future, 'InvalidSignatureException');
      expect(future.body.message).toMatch(/^Signature not yet current/);
      // Within the window the same signature is accepted (the clock check is the only difference).
      const recent = await signedCall(
        env,
        'AdminGetUser',
        { UserPoolId: env.userPoolId, Username: victim },
        { date: new Date(Date.now() - 4 * 60_000) },
      );
      expect(recent.status).toBe(200);
      expect(await env.identity.admin.adminGetUser(victim)).toMatchObject({ enabled: true });
    });

    test('after all of the above, the users are exactly as before', async () => {
      expect(await allUsers(env.identity)).toEqual(before);
    });

    test('the refusals are logged without the signature or the key', () => {
      const refusals = env.app.logs.lines.filter((l) => l.msg === 'identity admin request refused');
      expect(refusals.length).toBeGreaterThan(5);
      const raw = env.app.logs.raw.join('\n');
      expect(raw).not.toContain(env.identity.adminCredentials().secretAccessKey);
      expect(raw).not.toMatch(/Signature=[0-9a-f]{64}/);
    });
  });
});
