import { createHash, createHmac, randomBytes, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Db } from '../db/Db';
import type { Logger } from '../logger';
import { createTokenVerifiers, type TokenVerifiers } from '../auth/tokenVerifier';
import { Cognito, CognitoError, checkPasswordPolicy, checkUsername } from './cognitoErrors';
import { IdentityAdmin } from './identityAdmin';
import { IdentityRepository, type ChallengeRow, type IdentityUser } from './identityRepository';
import { signJwt } from './jwt';
import { loadOrCreateKeys, type SigningKeys } from './keys';
import type { AdminCredentials } from './sigv4';
import {
  N,
  createVerifier,
  hexToBigInt,
  isValidTimestamp,
  padHex,
  parseSrpA,
  poolNameOf,
  serverEphemeral,
  verifierMatches,
  verifyPasswordClaim,
} from './srp';

export interface IdentityOptions {
  region: string;
  userPoolId: string;
  clientId: string;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  logger: Logger;
  /** Milliseconds since the epoch; tests move it. */
  now?: () => number;
  /** Told of every sign-in that issues tokens or fails (the portal audits them). Its errors are logged, never thrown. */
  onSignIn?: (event: SignInEvent) => void | Promise<void>;
  /**
   * Embedded mode has no e-mail: when true (never in production) ForgotPassword writes the code
   * to the server log, its only delivery. When false no code is made and the log says so.
   */
  logResetCodes?: boolean;
}

/** Where a request to the endpoint comes from. */
export interface RequestContext {
  ip?: string;
  requestId?: string;
}

/** A sign-in that issued tokens or failed. */
export interface SignInEvent extends RequestContext {
  /** The name sent: as typed at InitiateAuth, the challenge's user name afterwards. */
  username: string;
  outcome: 'success' | 'failure';
  /** The protocol error of a failure, e.g. `NotAuthorizedException: User is disabled.` */
  reason?: string;
}

/** Sign-in failures before a name is locked, and for how long (docs/architecture.md, Identity). */
export const MAX_FAILED_ATTEMPTS = 5;
export const LOCKOUT_MS = 15 * 60 * 1000;
export const CHALLENGE_TTL_MS = 3 * 60 * 1000;
export const TEMP_PASSWORD_VALIDITY_MS = 7 * 24 * 3600 * 1000;
export const RESET_CODE_TTL_MS = 60 * 60 * 1000;

type Params = Record<string, unknown>;

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);
const required = (obj: Params | undefined, name: string): string => {
  const v = str(obj?.[name]);
  if (!v) throw Cognito.invalidParameter(`Missing required parameter ${name}`);
  return v;
};
const asParams = (v: unknown): Params => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Params) : {});

const requiredUsername = (obj: Params | undefined, name: string): string => checkUsername(required(obj, name));

/** Attributes a user may set (NEW_PASSWORD_REQUIRED); the rest are the pool's own. */
const WRITABLE_ATTRIBUTES = new Set(['name', 'given_name', 'family_name', 'middle_name', 'nickname', 'phone_number', 'locale', 'zoneinfo']);

export interface AuthenticationResult {
  AccessToken: string;
  IdToken: string;
  RefreshToken?: string;
  ExpiresIn: number;
  TokenType: 'Bearer';
}

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** An access key id in the shape of AWS's (20 upper-case characters), marked as local. */
const newAccessKeyId = () => `LOCAL${Array.from(randomBytes(15), (b) => BASE32[b % 32]).join('')}`;

/** SHA-256 hex: how secrets (SECRET_BLOCK, sessions, refresh tokens, codes) are stored. */
const sha256 = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');

/** A secret of the endpoint: the one kept in the database, `create()`d and kept the first time. */
async function keptSecret(repo: IdentityRepository, name: string, create: () => string): Promise<string> {
  await repo.insertSecret(name, create());
  return (await repo.findSecret(name))!;
}

/**
 * The embedded Cognito-compatible identity endpoint, all kept in the portal's database: this
 * file is the user protocol (SRP sign-in, tokens, refresh, sign-out, passwords); the
 * administrator operations are `admin` (identityAdmin.ts).
 */
export class IdentityService {
  readonly issuer: string;
  /** The administrator operations (Admin* calls) on the same user pool. */
  readonly admin: IdentityAdmin;
  private readonly poolName: string;
  private readonly now: () => number;
  private readonly repo: IdentityRepository;

  private constructor(
    private readonly db: Db,
    private readonly keys: SigningKeys,
    readonly verifiers: TokenVerifiers,
    private readonly fakeSaltKey: string,
    private readonly adminKey: AdminCredentials,
    private readonly opts: IdentityOptions,
    /** What an unknown name's password is checked against, so that it costs what a known one does. */
    private readonly dummyVerifier = (hexToBigInt(randomBytes(384).toString('hex')) % N).toString(16),
  ) {
    this.issuer = `https://cognito-idp.${opts.region}.amazonaws.com/${opts.userPoolId}`;
    this.poolName = poolNameOf(opts.userPoolId);
    this.now = opts.now ?? Date.now;
    this.repo = new IdentityRepository(db);
    this.admin = new IdentityAdmin(db, this.poolName);
  }

  static async create(db: Db, opts: IdentityOptions): Promise<IdentityService> {
    const repo = new IdentityRepository(db);
    const keys = await loadOrCreateKeys(db);
    const fakeSaltKey = await keptSecret(repo, 'fake_salt_key', () => randomBytes(32).toString('hex'));
    // The key that signs (SigV4) administrator calls over HTTP: created on first start, kept in
    // the database like the other secrets, never logged.
    const adminKey: AdminCredentials = {
      accessKeyId: await keptSecret(repo, 'admin_access_key_id', newAccessKeyId),
      secretAccessKey: await keptSecret(repo, 'admin_secret_access_key', () => randomBytes(30).toString('base64')),
    };
    const verifiers = createTokenVerifiers({ userPoolId: opts.userPoolId, clientId: opts.clientId, jwks: keys.jwks });
    return new IdentityService(db, keys, verifiers, fakeSaltKey, adminKey, opts);
  }

  /**
   * The credentials administrator calls over HTTP must be signed with (SigV4, service
   * `cognito-idp`): for in-process use only, e.g. an AWS SDK client pointed at this endpoint.
   */
  adminCredentials(): AdminCredentials {
    return { ...this.adminKey };
  }

  get region() {
    return this.opts.region;
  }

  get jwks() {
    return this.keys.jwks;
  }

  get userPoolId() {
    return this.opts.userPoolId;
  }

  /** Dispatches one operation of the JSON protocol (`X-Amz-Target` suffix). */
  handle(operation: string, body: Params, context: RequestContext = {}): Promise<unknown> {
    switch (operation) {
      case 'InitiateAuth':
        return this.initiateAuth(body, context);
      case 'RespondToAuthChallenge':
        return this.respondToAuthChallenge(body, context);
      case 'GetUser':
        return this.getUser(body);
      case 'ChangePassword':
        return this.changePassword(body);
      case 'GlobalSignOut':
        return this.globalSignOut(body);
      case 'RevokeToken':
        return this.revokeToken(body);
      case 'ForgotPassword':
        return this.forgotPassword(body);
      case 'ConfirmForgotPassword':
        return this.confirmForgotPassword(body);
      default:
        return Promise.reject(Cognito.unknownOperation());
    }
  }

  private checkClient(body: Params): string {
    const clientId = required(body, 'ClientId');
    if (clientId !== this.opts.clientId) throw Cognito.unknownClient(clientId);
    return clientId;
  }

  private date(offsetMs = 0): Date {
    return new Date(this.now() + offsetMs);
  }

  // Sign-in ---------------------------------------------------------------------------------

  /**
   * One step of a sign-in, reported to `onSignIn` when it fails or issues tokens. A malformed
   * user name is refused first: it is neither audited nor stored.
   */
  private async signInStep<T extends object>(username: unknown, context: RequestContext, step: () => Promise<T>): Promise<T> {
    const name = str(username);
    if (name !== undefined) checkUsername(name);
    const report = async (event: Omit<SignInEvent, 'username'>) => {
      try {
        await this.opts.onSignIn?.({ username: str(username) ?? '', ...context, ...event });
      } catch (err) {
        this.opts.logger.error({ err }, 'sign-in report failed');
      }
    };
    let result: T;
    try {
      result = await step();
    } catch (err) {
      if (err instanceof CognitoError) await report({ outcome: 'failure', reason: `${err.type}: ${err.message}` });
      throw err;
    }
    if ('AuthenticationResult' in result) await report({ outcome: 'success' });
    return result;
  }

  async initiateAuth(body: Params, context: RequestContext = {}) {
    const clientId = this.checkClient(body);
    const params = asParams(body.AuthParameters);
    switch (body.AuthFlow) {
      case 'USER_SRP_AUTH':
        return this.signInStep(params.USERNAME, context, () => this.startSrp(clientId, params));
      case 'USER_PASSWORD_AUTH':
        return this.signInStep(params.USERNAME, context, () => this.passwordAuth(clientId, params));
      case 'REFRESH_TOKEN_AUTH':
      case 'REFRESH_TOKEN':
        return this.refresh(clientId, params);
      default:
        throw Cognito.invalidParameter(`Unsupported AuthFlow: ${String(body.AuthFlow)}`);
    }
  }

  private async assertNotLocked(username: string): Promise<void> {
    const now = this.date();
    const until = await this.repo.lockedUntil(username);
    if (until && until > now) throw Cognito.attemptsExceeded();
  }

  /** Counts a failure; from MAX_FAILED_ATTEMPTS failures on, locks the name for LOCKOUT_MS. */
  private async failSignIn(username: string): Promise<never> {
    const lockUntil = this.date(LOCKOUT_MS);
    await this.repo.countFailure(username);
    await this.repo.lockAfterFailures(username, MAX_FAILED_ATTEMPTS, lockUntil);
    throw Cognito.incorrect();
  }

  /** Keeps a challenge under the hash of its secret (SECRET_BLOCK or Session), dropping the expired ones. */
  private async saveChallenge(secret: string, c: ChallengeRow): Promise<void> {
    await this.repo.deleteExpiredChallenges();
    await this.repo.insertChallenge(sha256(secret), c);
  }

  /** Cognito's fake-challenge salt of a name that has no user: stable between tries. */
  private fakeSalt(typed: string): string {
    return padHex(hexToBigInt(createHmac('sha256', this.fakeSaltKey).update(typed.toLowerCase()).digest('hex').slice(0, 32)));
  }

  /** After the password is proven: a disabled user is told so only then (no enumeration by state). */
  private assertUsable(user: IdentityUser): void {
    if (!user.enabled) throw Cognito.disabled();
    if (user.status === 'RESET_REQUIRED') throw Cognito.resetRequired();
  }

  private async startSrp(clientId: string, params: Params) {
    const typed = required(params, 'USERNAME');
    const A = parseSrpA(params.SRP_A);
    if (A === null) throw Cognito.invalidParameter('SRP_A is invalid');
    await this.assertNotLocked(typed);
    const user = await this.repo.findUser(typed);
    // Disabled is told only after the password is proven (afterPasswordProven). A reset by an
    // administrator is told at once: the user must be sent to the forgotten-password flow.
    if (user?.status === 'RESET_REQUIRED') throw Cognito.resetRequired();

    // An unknown user gets a challenge that looks real and stays the same between tries.
    const userId = user?.username ?? typed;
    const salt = user?.salt ?? this.fakeSalt(typed);
    const v = user ? hexToBigInt(user.verifier) : hexToBigInt(randomBytes(384).toString('hex')) % N;
    const { b, B } = serverEphemeral(v);
    const secretBlock = randomBytes(96).toString('base64');
    await this.saveChallenge(secretBlock, {
      kind: 'PASSWORD_VERIFIER',
      username: userId,
      clientId,
      state: { A: A.toString(16), b: b.toString(16), B: B.toString(16), v: v.toString(16), typed, fake: !user },
      expiresAt: this.date(CHALLENGE_TTL_MS),
    });
    return {
      ChallengeName: 'PASSWORD_VERIFIER',
      ChallengeParameters: { SALT: salt, SRP_B: B.toString(16), SECRET_BLOCK: secretBlock, USER_ID_FOR_SRP: userId, USERNAME: userId },
    };
  }

  async respondToAuthChallenge(body: Params, context: RequestContext = {}) {
    const clientId = this.checkClient(body);
    const responses = asParams(body.ChallengeResponses);
    if (body.ChallengeName === 'PASSWORD_VERIFIER') {
      return this.signInStep(responses.USERNAME, context, () => this.passwordVerifier(clientId, responses));
    }
    if (body.ChallengeName === 'NEW_PASSWORD_REQUIRED') {
      return this.signInStep(responses.USERNAME, context, () => this.newPassword(clientId, responses, body.Session));
    }
    throw Cognito.invalidParameter(`Unsupported ChallengeName: ${String(body.ChallengeName)}`);
  }

  private async passwordVerifier(clientId: string, r: Params) {
    const block = required(r, 'PASSWORD_CLAIM_SECRET_BLOCK');
    const signature = required(r, 'PASSWORD_CLAIM_SIGNATURE');
    const timestamp = required(r, 'TIMESTAMP');
    const username = required(r, 'USERNAME');
    const challenge = await this.repo.takeChallenge(sha256(block), 'PASSWORD_VERIFIER');
    if (!challenge || challenge.expiresAt.getTime() < this.now() || challenge.clientId !== clientId) throw Cognito.sessionExpired();
    if (!isValidTimestamp(timestamp)) throw Cognito.invalidParameter('TIMESTAMP is invalid');
    const s = challenge.state as { A: string; b: string; B: string; v: string; typed: string; fake: boolean };
    const typed = String(s.typed);
    await this.assertNotLocked(typed);
    // Verified whatever the name: the fake challenge of an unknown name costs the same work.
    const claimVerified = verifyPasswordClaim({
      A: hexToBigInt(s.A),
      B: hexToBigInt(s.B),
      b: hexToBigInt(s.b),
      v: hexToBigInt(s.v),
      poolName: this.poolName,
      userId: challenge.username,
      secretBlock: block,
      timestamp,
      signature,
    });
    const ok = claimVerified && !s.fake && username === challenge.username;
    if (!ok) return this.failSignIn(typed);
    await this.repo.clearFailures(typed);
    const user = await this.repo.findUser(challenge.username);
    if (!user) throw Cognito.incorrect();
    return this.afterPasswordProven(user, clientId);
  }

  private async passwordAuth(clientId: string, params: Params) {
    const typed = required(params, 'USERNAME');
    const password = required(params, 'PASSWORD');
    await this.assertNotLocked(typed);
    const user = await this.repo.findUser(typed);
    // An unknown name is checked against a dummy verifier: the same work as a known one.
    const matches = user
      ? verifierMatches(this.poolName, user.username, password, user.salt, user.verifier)
      : verifierMatches(this.poolName, typed, password, this.fakeSalt(typed), this.dummyVerifier);
    if (!user || !matches) return this.failSignIn(typed);
    await this.repo.clearFailures(typed);
    return this.afterPasswordProven(user, clientId);
  }

  private async afterPasswordProven(user: IdentityUser, clientId: string) {
    this.assertUsable(user);
    if (user.status === 'FORCE_CHANGE_PASSWORD') {
      if (user.passwordSetAt.getTime() + TEMP_PASSWORD_VALIDITY_MS < this.now()) throw Cognito.tempPasswordExpired();
      const session = randomBytes(96).toString('base64url');
      await this.saveChallenge(session, {
        kind: 'NEW_PASSWORD_REQUIRED',
        username: user.username,
        clientId,
        state: {},
        expiresAt: this.date(CHALLENGE_TTL_MS),
      });
      const { email, email_verified } = user.attributes;
      return {
        ChallengeName: 'NEW_PASSWORD_REQUIRED',
        Session: session,
        ChallengeParameters: {
          USER_ID_FOR_SRP: user.username,
          userAttributes: JSON.stringify({ ...(email ? { email } : {}), ...(email_verified ? { email_verified } : {}) }),
          requiredAttributes: '[]',
        },
      };
    }
    return { ChallengeParameters: {}, AuthenticationResult: await this.issueTokens(user, clientId) };
  }

  private async newPassword(clientId: string, r: Params, session: unknown) {
    const sessionId = str(session);
    if (!sessionId) throw Cognito.invalidParameter('Missing required parameter Session');
    const username = required(r, 'USERNAME');
    const password = checkPasswordPolicy(r.NEW_PASSWORD);
    const updates: Record<string, string> = {};
    for (const [key, value] of Object.entries(r)) {
      if (!key.startsWith('userAttributes.')) continue;
      const name = key.slice('userAttributes.'.length);
      if (!WRITABLE_ATTRIBUTES.has(name)) throw Cognito.invalidParameter(`Cannot modify the non-mutable attribute ${name}`);
      if (typeof value !== 'string') throw Cognito.invalidParameter(`Invalid value for attribute ${name}`);
      updates[name] = value;
    }
    const challenge = await this.repo.takeChallenge(sha256(sessionId), 'NEW_PASSWORD_REQUIRED');
    if (!challenge || challenge.expiresAt.getTime() < this.now() || challenge.clientId !== clientId) throw Cognito.sessionExpired();
    if (challenge.username.toLowerCase() !== username.toLowerCase()) throw Cognito.sessionExpired();
    const user = await this.repo.findUser(challenge.username);
    if (!user) throw Cognito.userNotFound();
    this.assertUsable(user);
    const { salt, verifier } = createVerifier(this.poolName, user.username, password);
    await this.db.transaction(async (tx) => {
      const repo = new IdentityRepository(tx);
      await repo.setPassword(user.sub, salt, verifier, 'CONFIRMED');
      if (Object.keys(updates).length) await repo.updateAttributes(user.sub, { ...user.attributes, ...updates });
    });
    const fresh = (await this.repo.findUser(user.username))!;
    return { ChallengeParameters: {}, AuthenticationResult: await this.issueTokens(fresh, clientId) };
  }

  private async refresh(clientId: string, params: Params) {
    const token = required(params, 'REFRESH_TOKEN');
    const row = await this.repo.findRefresh(sha256(token));
    if (!row || row.clientId !== clientId) throw Cognito.invalidRefresh();
    if (row.revokedAt) throw Cognito.refreshRevoked();
    if (row.expiresAt.getTime() < this.now()) throw Cognito.refreshExpired();
    const user = await this.repo.findUserBySub(row.sub);
    if (!user) throw Cognito.invalidRefresh();
    if (!user.enabled) throw Cognito.disabled();
    const tokens = this.signTokens(user, clientId, row.originJti, row.authTime);
    return { ChallengeParameters: {}, AuthenticationResult: tokens };
  }

  // Tokens ------------------------------------------------------------------------------------

  private signTokens(user: IdentityUser, clientId: string, originJti: string, authTime: number): AuthenticationResult {
    const iat = Math.floor(this.now() / 1000);
    const exp = iat + this.opts.accessTokenTtlSeconds;
    const eventId = randomUUID();
    const common = { sub: user.sub, iss: this.issuer, origin_jti: originJti, event_id: eventId, auth_time: authTime, iat, exp };
    const access = signJwt(
      { ...common, client_id: clientId, token_use: 'access', scope: 'aws.cognito.signin.user.admin', jti: randomUUID(), username: user.username },
      this.keys.access,
    );
    const idAttributes = Object.fromEntries(Object.entries(user.attributes).map(([k, v]) => [k, k.endsWith('_verified') ? v === 'true' : v]));
    const id = signJwt(
      { ...idAttributes, ...common, 'cognito:username': user.username, aud: clientId, token_use: 'id', jti: randomUUID() },
      this.keys.id,
    );
    return { AccessToken: access, IdToken: id, ExpiresIn: this.opts.accessTokenTtlSeconds, TokenType: 'Bearer' };
  }

  private async issueTokens(user: IdentityUser, clientId: string): Promise<AuthenticationResult> {
    const originJti = randomUUID();
    const authTime = Math.floor(this.now() / 1000);
    const refresh = randomBytes(48).toString('base64url');
    await this.repo.insertRefresh(sha256(refresh), {
      sub: user.sub,
      clientId,
      originJti,
      authTime,
      expiresAt: this.date(this.opts.refreshTokenTtlSeconds * 1000),
    });
    return { ...this.signTokens(user, clientId, originJti, authTime), RefreshToken: refresh };
  }

  /** An access token for the endpoint's own operations: valid, not revoked, user enabled. */
  private async userFromAccessToken(body: Params): Promise<IdentityUser> {
    const token = required(body, 'AccessToken');
    let payload: { sub: string; origin_jti?: unknown };
    try {
      payload = await this.verifiers.verifyAccess(token);
    } catch (err) {
      throw (err as Error).name === 'JwtExpiredError' || /expired/i.test((err as Error).message) ? Cognito.accessExpired() : Cognito.invalidAccess();
    }
    if (typeof payload.origin_jti !== 'string' || (await this.repo.isOriginRevoked(payload.origin_jti))) throw Cognito.accessRevoked();
    const user = await this.repo.findUserBySub(payload.sub);
    if (!user) throw Cognito.userNotFound();
    if (!user.enabled) throw Cognito.disabled();
    return user;
  }

  private userAttributes(user: IdentityUser) {
    return [{ Name: 'sub', Value: user.sub }, ...Object.entries(user.attributes).map(([Name, Value]) => ({ Name, Value }))];
  }

  async getUser(body: Params) {
    const user = await this.userFromAccessToken(body);
    return { Username: user.username, UserAttributes: this.userAttributes(user) };
  }

  async changePassword(body: Params) {
    const user = await this.userFromAccessToken(body);
    const previous = required(body, 'PreviousPassword');
    const proposed = checkPasswordPolicy(body.ProposedPassword);
    await this.assertNotLocked(user.username);
    if (!verifierMatches(this.poolName, user.username, previous, user.salt, user.verifier)) {
      return this.failSignIn(user.username);
    }
    const { salt, verifier } = createVerifier(this.poolName, user.username, proposed);
    await this.repo.setPassword(user.sub, salt, verifier, 'CONFIRMED');
    return {};
  }

  async globalSignOut(body: Params) {
    const user = await this.userFromAccessToken(body);
    await this.repo.revokeAllOf(user.sub);
    return {};
  }

  async revokeToken(body: Params) {
    const token = required(body, 'Token');
    const clientId = this.checkClient(body);
    if (token.split('.').length === 3) throw Cognito.unsupportedToken();
    const tokenHash = sha256(token);
    const row = await this.repo.findRefresh(tokenHash);
    if (row && row.clientId !== clientId) throw new CognitoError('UnauthorizedException', 'Client is not authorized to revoke this token.');
    if (row) await this.repo.revokeRefresh(tokenHash);
    return {};
  }

  // Forgotten password --------------------------------------------------------------------------

  async forgotPassword(body: Params) {
    this.checkClient(body);
    const username = requiredUsername(body, 'Username');
    const user = await this.repo.findUser(username);
    const email = user?.attributes.email ?? username;
    const masked = email.replace(/^(.)[^@]*@(.)[^.]*/, '$1***@$2***');
    if (user && user.enabled) {
      if (this.opts.logResetCodes) {
        const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
        await this.repo.saveResetCode(user.sub, sha256(code), this.date(RESET_CODE_TTL_MS));
        // Embedded mode has no e-mail: outside production the code is delivered to the server log, and only there.
        this.opts.logger.warn({ username: user.username, code }, `Código de recuperación de contraseña para ${user.username}: ${code}`);
      } else {
        // Production never writes a code to the log, and without e-mail there is no other delivery.
        this.opts.logger.warn(
          { username: user.username },
          'password reset requested: embedded mode has no e-mail and production never logs reset codes; an administrator can give a temporary password from the administrators page (AdminSetUserPassword)',
        );
      }
    }
    return { CodeDeliveryDetails: { Destination: masked, DeliveryMedium: 'EMAIL', AttributeName: 'email' } };
  }

  async confirmForgotPassword(body: Params) {
    this.checkClient(body);
    const username = requiredUsername(body, 'Username');
    const code = required(body, 'ConfirmationCode');
    const password = checkPasswordPolicy(body.Password);
    const user = await this.repo.findUser(username);
    const saved = user && (await this.repo.findResetCode(user.sub));
    if (!user || !saved) throw Cognito.codeMismatch();
    // Wrong codes count per user across codes (a new ForgotPassword does not reset them): from
    // the sixth attempt within LOCKOUT_MS, even the right code is refused. Each attempt is recorded
    // before they are counted, so concurrent guesses cannot all pass the check.
    const at = this.date();
    const forgetBefore = this.date(-LOCKOUT_MS);
    await this.repo.deleteResetAttemptsBefore(user.sub, forgetBefore);
    const attempt = await this.repo.insertResetAttempt(user.sub, at);
    const recent = await this.repo.countResetAttemptsSince(user.sub, forgetBefore);
    if (recent > MAX_FAILED_ATTEMPTS) {
      // Refused without checking its code: the attempt is taken back.
      await this.repo.forgetResetAttempt(attempt);
      throw Cognito.limitExceeded();
    }
    if (saved.expiresAt.getTime() < this.now()) {
      await this.repo.forgetResetAttempt(attempt);
      throw Cognito.expiredCode();
    }
    if (!timingSafeEqual(Buffer.from(saved.codeHash, 'hex'), Buffer.from(sha256(code), 'hex'))) throw Cognito.codeMismatch();
    const { salt, verifier } = createVerifier(this.poolName, user.username, password);
    await this.db.transaction(async (tx) => {
      const repo = new IdentityRepository(tx);
      await repo.setPassword(user.sub, salt, verifier, 'CONFIRMED');
      await repo.deleteResetCode(user.sub);
      await repo.clearResetAttempts(user.sub);
      await repo.clearFailures(user.username);
    });
    return {};
  }
}
