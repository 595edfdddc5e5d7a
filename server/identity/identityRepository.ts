import type { Queryable } from '../db/Db';
import type { PublicJwk, TokenUse } from './keys';

export type UserStatus = 'FORCE_CHANGE_PASSWORD' | 'CONFIRMED' | 'RESET_REQUIRED';

export interface IdentityUser {
  sub: string;
  username: string;
  attributes: Record<string, string>;
  salt: string;
  verifier: string;
  status: UserStatus;
  enabled: boolean;
  passwordSetAt: Date;
  createdAt: Date;
  updatedAt: Date;
}

export interface ChallengeRow {
  kind: 'PASSWORD_VERIFIER' | 'NEW_PASSWORD_REQUIRED';
  username: string;
  clientId: string;
  state: Record<string, string | boolean>;
  expiresAt: Date;
}

export interface RefreshRow {
  sub: string;
  clientId: string;
  originJti: string;
  authTime: number;
  expiresAt: Date;
  revokedAt: Date | null;
}

/** A signing key as stored: the private key in PEM (PKCS #8), the public one as a JWK. */
export interface SigningKeyRow {
  tokenUse: TokenUse;
  kid: string;
  privatePem: string;
  publicJwk: PublicJwk;
}

interface UserRecord {
  sub: string;
  username: string;
  attributes: Record<string, string>;
  salt: string;
  verifier: string;
  status: UserStatus;
  enabled: boolean;
  password_set_at: Date;
  created_at: Date;
  updated_at: Date;
}

interface ChallengeRecord {
  kind: ChallengeRow['kind'];
  username: string;
  client_id: string;
  state: ChallengeRow['state'];
  expires_at: Date;
}

interface RefreshRecord {
  sub: string;
  client_id: string;
  origin_jti: string;
  auth_time: number;
  expires_at: Date;
  revoked_at: Date | null;
}

interface SigningKeyRecord {
  token_use: TokenUse;
  kid: string;
  private_pem: string;
  public_jwk: PublicJwk;
}

const USER_COLUMNS = 'sub, username, attributes, salt, verifier, status, enabled, password_set_at, created_at, updated_at';

const toUser = (r: UserRecord): IdentityUser => ({
  sub: r.sub,
  username: r.username,
  attributes: r.attributes,
  salt: r.salt,
  verifier: r.verifier,
  status: r.status,
  enabled: r.enabled,
  passwordSetAt: r.password_set_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/**
 * All SQL of the embedded identity endpoint: its users, lock-outs, challenges, refresh tokens,
 * password reset codes, secrets and signing keys. Secrets that stand for a credential
 * (SECRET_BLOCK, sessions, refresh tokens, codes) arrive already hashed.
 */
export class IdentityRepository {
  constructor(private readonly db: Queryable) {}

  // Secrets ----------------------------------------------------------------------------------

  /** Keeps the first value a secret was given. */
  async insertSecret(name: string, value: string): Promise<void> {
    await this.db.query('INSERT INTO identity_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [name, value]);
  }

  async findSecret(name: string): Promise<string | undefined> {
    const res = await this.db.query<{ value: string }>('SELECT value FROM identity_secrets WHERE name = $1', [name]);
    return res.rows[0]?.value;
  }

  // Signing keys -------------------------------------------------------------------------------

  async signingKeyUses(): Promise<TokenUse[]> {
    const res = await this.db.query<{ token_use: TokenUse }>('SELECT token_use FROM identity_keys');
    return res.rows.map((r) => r.token_use);
  }

  /** Keeps the key a concurrent start stored first for the same use. */
  async insertSigningKey(k: SigningKeyRow): Promise<void> {
    await this.db.query(
      `INSERT INTO identity_keys (kid, token_use, private_pem, public_jwk) VALUES ($1, $2, $3, $4)
       ON CONFLICT (token_use) DO NOTHING`,
      [k.kid, k.tokenUse, k.privatePem, JSON.stringify(k.publicJwk)],
    );
  }

  async signingKeys(): Promise<SigningKeyRow[]> {
    const res = await this.db.query<SigningKeyRecord>('SELECT token_use, kid, private_pem, public_jwk FROM identity_keys');
    return res.rows.map((r) => ({ tokenUse: r.token_use, kid: r.kid, privatePem: r.private_pem, publicJwk: r.public_jwk }));
  }

  // Users ------------------------------------------------------------------------------------

  async findUser(username: string): Promise<IdentityUser | undefined> {
    const res = await this.db.query<UserRecord>(`SELECT ${USER_COLUMNS} FROM identity_users WHERE username_lower = lower($1)`, [username]);
    return res.rows[0] ? toUser(res.rows[0]) : undefined;
  }

  async findUserBySub(sub: string): Promise<IdentityUser | undefined> {
    const res = await this.db.query<UserRecord>(`SELECT ${USER_COLUMNS} FROM identity_users WHERE sub = $1`, [sub]);
    return res.rows[0] ? toUser(res.rows[0]) : undefined;
  }

  async listUsers(limit: number, afterUsername?: string): Promise<IdentityUser[]> {
    const res = await this.db.query<UserRecord>(
      `SELECT ${USER_COLUMNS} FROM identity_users WHERE ($1::text IS NULL OR username_lower > lower($1))
       ORDER BY username_lower LIMIT $2`,
      [afterUsername ?? null, limit],
    );
    return res.rows.map(toUser);
  }

  /** False when the name (case-insensitive) is taken. */
  async insertUser(u: Omit<IdentityUser, 'createdAt' | 'updatedAt' | 'passwordSetAt'>): Promise<boolean> {
    const res = await this.db.query(
      `INSERT INTO identity_users (sub, username, username_lower, attributes, salt, verifier, status, enabled)
       VALUES ($1, $2, lower($2), $3, $4, $5, $6, $7) ON CONFLICT (username_lower) DO NOTHING`,
      [u.sub, u.username, JSON.stringify(u.attributes), u.salt, u.verifier, u.status, u.enabled],
    );
    return res.rowCount === 1;
  }

  async setPassword(sub: string, salt: string, verifier: string, status: UserStatus): Promise<void> {
    await this.db.query(
      `UPDATE identity_users SET salt = $2, verifier = $3, status = $4, password_set_at = now(), updated_at = now() WHERE sub = $1`,
      [sub, salt, verifier, status],
    );
  }

  async updateAttributes(sub: string, attributes: Record<string, string>): Promise<void> {
    await this.db.query('UPDATE identity_users SET attributes = $2, updated_at = now() WHERE sub = $1', [sub, JSON.stringify(attributes)]);
  }

  async setStatus(sub: string, status: UserStatus): Promise<void> {
    await this.db.query('UPDATE identity_users SET status = $2, updated_at = now() WHERE sub = $1', [sub, status]);
  }

  async setEnabled(sub: string, enabled: boolean): Promise<void> {
    await this.db.query('UPDATE identity_users SET enabled = $2, updated_at = now() WHERE sub = $1', [sub, enabled]);
  }

  async deleteUser(sub: string): Promise<void> {
    await this.db.query('DELETE FROM identity_users WHERE sub = $1', [sub]);
  }

  // Lock-out -------------------------------------------------------------------------------

  /** The end of the name's lock, possibly past; undefined when it has none. */
  async lockedUntil(username: string): Promise<Date | undefined> {
    const res = await this.db.query<{ locked_until: Date | null }>(
      'SELECT locked_until FROM identity_login_failures WHERE username_lower = lower($1)',
      [username],
    );
    return res.rows[0]?.locked_until ?? undefined;
  }

  /** Counts one failure of the name; the first one after a lock starts the count again and lifts the lock. */
  async countFailure(username: string): Promise<void> {
    await this.db.query(
      `INSERT INTO identity_login_failures (username_lower, failures) VALUES (lower($1), 1)
       ON CONFLICT (username_lower) DO UPDATE SET
         failures = CASE WHEN identity_login_failures.locked_until IS NOT NULL THEN 1
                         ELSE identity_login_failures.failures + 1 END,
         locked_until = NULL`,
      [username],
    );
  }

  /** Locks the name until `lockUntil` when it has `max` failures or more. */
  async lockAfterFailures(username: string, max: number, lockUntil: Date): Promise<void> {
    await this.db.query('UPDATE identity_login_failures SET locked_until = $3 WHERE username_lower = lower($1) AND failures >= $2', [
      username,
      max,
      lockUntil,
    ]);
  }

  async clearFailures(username: string): Promise<void> {
    await this.db.query('DELETE FROM identity_login_failures WHERE username_lower = lower($1)', [username]);
  }

  // Challenges -----------------------------------------------------------------------------

  async deleteExpiredChallenges(): Promise<void> {
    await this.db.query('DELETE FROM identity_challenges WHERE expires_at < now()');
  }

  async insertChallenge(idHash: string, c: ChallengeRow): Promise<void> {
    await this.db.query(`INSERT INTO identity_challenges (id_hash, kind, username, client_id, state, expires_at) VALUES ($1, $2, $3, $4, $5, $6)`, [
      idHash,
      c.kind,
      c.username,
      c.clientId,
      JSON.stringify(c.state),
      c.expiresAt,
    ]);
  }

  /** Single use: the challenge is deleted whether or not what follows succeeds. */
  async takeChallenge(idHash: string, kind: ChallengeRow['kind']): Promise<ChallengeRow | undefined> {
    const res = await this.db.query<ChallengeRecord>(
      'DELETE FROM identity_challenges WHERE id_hash = $1 AND kind = $2 RETURNING kind, username, client_id, state, expires_at',
      [idHash, kind],
    );
    const r = res.rows[0];
    return r && { kind: r.kind, username: r.username, clientId: r.client_id, state: r.state, expiresAt: r.expires_at };
  }

  // Refresh tokens ---------------------------------------------------------------------------

  async insertRefresh(tokenHash: string, r: Omit<RefreshRow, 'revokedAt'>): Promise<void> {
    await this.db.query(
      `INSERT INTO identity_refresh_tokens (token_hash, sub, client_id, origin_jti, auth_time, expires_at) VALUES ($1, $2, $3, $4, $5, $6)`,
      [tokenHash, r.sub, r.clientId, r.originJti, r.authTime, r.expiresAt],
    );
  }

  async findRefresh(tokenHash: string): Promise<RefreshRow | undefined> {
    const res = await this.db.query<RefreshRecord>(
      'SELECT sub, client_id, origin_jti, auth_time, expires_at, revoked_at FROM identity_refresh_tokens WHERE token_hash = $1',
      [tokenHash],
    );
    const r = res.rows[0];
    return (
      r && { sub: r.sub, clientId: r.client_id, originJti: r.origin_jti, authTime: r.auth_time, expiresAt: r.expires_at, revokedAt: r.revoked_at }
    );
  }

  /** Whether the sign-in's refresh token is revoked; an unknown sign-in counts as revoked. */
  async isOriginRevoked(originJti: string): Promise<boolean> {
    const res = await this.db.query<{ revoked: boolean }>(
      'SELECT revoked_at IS NOT NULL AS revoked FROM identity_refresh_tokens WHERE origin_jti = $1',
      [originJti],
    );
    return res.rows[0]?.revoked ?? true;
  }

  async revokeRefresh(tokenHash: string): Promise<void> {
    await this.db.query('UPDATE identity_refresh_tokens SET revoked_at = now() WHERE token_hash = $1 AND revoked_at IS NULL', [tokenHash]);
  }

  async revokeAllOf(sub: string): Promise<void> {
    await this.db.query('UPDATE identity_refresh_tokens SET revoked_at = now() WHERE sub = $1 AND revoked_at IS NULL', [sub]);
  }

  // Password reset codes -----------------------------------------------------------------------

  /** The user's one code: a new one replaces the previous and starts its attempts at zero. */
  async saveResetCode(sub: string, codeHash: string, expiresAt: Date): Promise<void> {
    await this.db.query(
      `INSERT INTO identity_reset_codes (sub, code_hash, attempts, expires_at) VALUES ($1, $2, 0, $3)
       ON CONFLICT (sub) DO UPDATE SET code_hash = EXCLUDED.code_hash, attempts = 0, expires_at = EXCLUDED.expires_at`,
      [sub, codeHash, expiresAt],
    );
  }

  async findResetCode(sub: string): Promise<{ codeHash: string; expiresAt: Date } | undefined> {
    const res = await this.db.query<{ code_hash: string; expires_at: Date }>(
      'SELECT code_hash, expires_at FROM identity_reset_codes WHERE sub = $1',
      [sub],
    );
    const r = res.rows[0];
    return r && { codeHash: r.code_hash, expiresAt: r.expires_at };
  }

  async deleteResetCode(sub: string): Promise<void> {
    await this.db.query('DELETE FROM identity_reset_codes WHERE sub = $1', [sub]);
  }

  /** Forgets the user's ConfirmForgotPassword attempts made before `before`. */
  async deleteResetAttemptsBefore(sub: string, before: Date): Promise<void> {
    await this.db.query('DELETE FROM identity_reset_failures WHERE sub = $1 AND failed_at < $2', [sub, before]);
  }

  /** Records one ConfirmForgotPassword attempt; returns its id. */
  async insertResetAttempt(sub: string, at: Date): Promise<string> {
    const res = await this.db.query<{ id: string }>('INSERT INTO identity_reset_failures (sub, failed_at) VALUES ($1, $2) RETURNING id::text AS id', [
      sub,
      at,
    ]);
    return res.rows[0]!.id;
  }

  async countResetAttemptsSince(sub: string, since: Date): Promise<number> {
    const res = await this.db.query<{ n: number }>('SELECT count(*)::integer AS n FROM identity_reset_failures WHERE sub = $1 AND failed_at >= $2', [
      sub,
      since,
    ]);
    return Number(res.rows[0]!.n);
  }

  async forgetResetAttempt(id: string): Promise<void> {
    await this.db.query('DELETE FROM identity_reset_failures WHERE id = $1::bigint', [id]);
  }

  async clearResetAttempts(sub: string): Promise<void> {
    await this.db.query('DELETE FROM identity_reset_failures WHERE sub = $1', [sub]);
  }
}
