import { createHash } from 'node:crypto';
import type { Db, Queryable } from '../db/Db';

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

/** SHA-256 hex: how secrets (SECRET_BLOCK, sessions, refresh tokens, codes) are stored. */
export const sha256 = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');

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

/** All SQL of the embedded identity endpoint. */
export class IdentityStore {
  constructor(private readonly db: Db) {}

  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.db.transaction(fn);
  }

  async secret(name: string, create: () => string): Promise<string> {
    await this.db.query('INSERT INTO identity_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [name, create()]);
    const res = await this.db.query<{ value: string }>('SELECT value FROM identity_secrets WHERE name = $1', [name]);
    return res.rows[0]!.value;
  }

  async findUser(username: string, q: Queryable = this.db): Promise<IdentityUser | undefined> {
    const res = await q.query<UserRecord>(`SELECT ${USER_COLUMNS} FROM identity_users WHERE username_lower = lower($1)`, [username]);
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

  async insertUser(u: Omit<IdentityUser, 'createdAt' | 'updatedAt' | 'passwordSetAt'>, q: Queryable = this.db): Promise<boolean> {
    const res = await q.query(
      `INSERT INTO identity_users (sub, username, username_lower, attributes, salt, verifier, status, enabled)
       VALUES ($1, $2, lower($2), $3, $4, $5, $6, $7) ON CONFLICT (username_lower) DO NOTHING`,
      [u.sub, u.username, JSON.stringify(u.attributes), u.salt, u.verifier, u.status, u.enabled],
    );
    return res.rowCount === 1;
  }

  async setPassword(sub: string, salt: string, verifier: string, status: UserStatus, q: Queryable = this.db): Promise<void> {
    await q.query(`UPDATE identity_users SET salt = $2, verifier = $3, status = $4, password_set_at = now(), updated_at = now() WHERE sub = $1`, [
      sub,
      salt,
      verifier,
      status,
    ]);
  }

  async updateAttributes(sub: string, attributes: Record<string, string>, q: Queryable = this.db): Promise<void> {
    await q.query('UPDATE identity_users SET attributes = $2, updated_at = now() WHERE sub = $1', [sub, JSON.stringify(attributes)]);
  }

  async setStatus(sub: string, status: UserStatus, q: Queryable = this.db): Promise<void> {
    await q.query('UPDATE identity_users SET status = $2, updated_at = now() WHERE sub = $1', [sub, status]);
  }

  async setEnabled(sub: string, enabled: boolean, q: Queryable = this.db): Promise<void> {
    await q.query('UPDATE identity_users SET enabled = $2, updated_at = now() WHERE sub = $1', [sub, enabled]);
  }

  async deleteUser(sub: string, q: Queryable = this.db): Promise<void> {
    await q.query('DELETE FROM identity_users WHERE sub = $1', [sub]);
  }

  // Lock-out -------------------------------------------------------------------------------

  async lockedUntil(username: string, now: Date): Promise<Date | undefined> {
    const res = await this.db.query<{ locked_until: Date | null }>(
      'SELECT locked_until FROM identity_login_failures WHERE username_lower = lower($1)',
      [username],
    );
    const until = res.rows[0]?.locked_until;
    return until && until > now ? until : undefined;
  }

  /** Counts a failure; from `max` failures on, locks the name until `lockUntil`. */
  async recordFailure(username: string, max: number, lockUntil: Date): Promise<void> {
    await this.db.query(
      `INSERT INTO identity_login_failures (username_lower, failures) VALUES (lower($1), 1)
       ON CONFLICT (username_lower) DO UPDATE SET
         failures = CASE WHEN identity_login_failures.locked_until IS NOT NULL THEN 1
                         ELSE identity_login_failures.failures + 1 END,
         locked_until = NULL`,
      [username],
    );
    await this.db.query('UPDATE identity_login_failures SET locked_until = $3 WHERE username_lower = lower($1) AND failures >= $2', [
      username,
      max,
      lockUntil,
    ]);
  }

  async clearFailures(username: string, q: Queryable = this.db): Promise<void> {
    await q.query('DELETE FROM identity_login_failures WHERE username_lower = lower($1)', [username]);
  }

  // Challenges -----------------------------------------------------------------------------

  async saveChallenge(secret: string, c: ChallengeRow): Promise<void> {
    await this.db.query('DELETE FROM identity_challenges WHERE expires_at < now()');
    await this.db.query(`INSERT INTO identity_challenges (id_hash, kind, username, client_id, state, expires_at) VALUES ($1, $2, $3, $4, $5, $6)`, [
      sha256(secret),
      c.kind,
      c.username,
      c.clientId,
      JSON.stringify(c.state),
      c.expiresAt,
    ]);
  }

  /** Single use: the challenge is deleted whether or not what follows succeeds. */
  async takeChallenge(secret: string, kind: ChallengeRow['kind']): Promise<ChallengeRow | undefined> {
    const res = await this.db.query<{
      kind: ChallengeRow['kind'];
      username: string;
      client_id: string;
      state: ChallengeRow['state'];
      expires_at: Date;
    }>('DELETE FROM identity_challenges WHERE id_hash = $1 AND kind = $2 RETURNING kind, username, client_id, state, expires_at', [
      sha256(secret),
      kind,
    ]);
    const r = res.rows[0];
    return r && { kind: r.kind, username: r.username, clientId: r.client_id, state: r.state, expiresAt: r.expires_at };
  }

  // Refresh tokens ---------------------------------------------------------------------------

  async insertRefresh(token: string, r: Omit<RefreshRow, 'revokedAt'>, q: Queryable = this.db): Promise<void> {
    await q.query(
      `INSERT INTO identity_refresh_tokens (token_hash, sub, client_id, origin_jti, auth_time, expires_at) VALUES ($1, $2, $3, $4, $5, $6)`,
      [sha256(token), r.sub, r.clientId, r.originJti, r.authTime, r.expiresAt],
    );
  }

  async findRefresh(token: string): Promise<RefreshRow | undefined> {
    const res = await this.db.query<{
      sub: string;
      client_id: string;
      origin_jti: string;
      auth_time: number;
      expires_at: Date;
      revoked_at: Date | null;
    }>('SELECT sub, client_id, origin_jti, auth_time, expires_at, revoked_at FROM identity_refresh_tokens WHERE token_hash = $1', [sha256(token)]);
    const r = res.rows[0];
    return (
      r && { sub: r.sub, clientId: r.client_id, originJti: r.origin_jti, authTime: r.auth_time, expiresAt: r.expires_at, revokedAt: r.revoked_at }
    );
  }

  async isOriginRevoked(originJti: string): Promise<boolean> {
    const res = await this.db.query<{ revoked: boolean }>(
      'SELECT revoked_at IS NOT NULL AS revoked FROM identity_refresh_tokens WHERE origin_jti = $1',
      [originJti],
    );
    return res.rows[0]?.revoked ?? true;
  }

  async revokeRefresh(token: string): Promise<void> {
    await this.db.query('UPDATE identity_refresh_tokens SET revoked_at = now() WHERE token_hash = $1 AND revoked_at IS NULL', [sha256(token)]);
  }

  async revokeAllOf(sub: string, q: Queryable = this.db): Promise<void> {
    await q.query('UPDATE identity_refresh_tokens SET revoked_at = now() WHERE sub = $1 AND revoked_at IS NULL', [sub]);
  }

  // Password reset codes -----------------------------------------------------------------------

  async saveResetCode(sub: string, code: string, expiresAt: Date): Promise<void> {
    await this.db.query(
      `INSERT INTO identity_reset_codes (sub, code_hash, attempts, expires_at) VALUES ($1, $2, 0, $3)
       ON CONFLICT (sub) DO UPDATE SET code_hash = EXCLUDED.code_hash, attempts = 0, expires_at = EXCLUDED.expires_at`,
      [sub, sha256(code), expiresAt],
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

  /**
   * Records one ConfirmForgotPassword attempt of a user (whatever the code) and forgets those
   * before `forgetBefore`; returns its id and how many attempts of that user remain, this one
   * included. Recording before counting keeps concurrent guesses from all passing the check.
   */
  async recordResetAttempt(sub: string, at: Date, forgetBefore: Date): Promise<{ id: string; recent: number }> {
    await this.db.query('DELETE FROM identity_reset_failures WHERE sub = $1 AND failed_at < $2', [sub, forgetBefore]);
    const inserted = await this.db.query<{ id: string }>(
      'INSERT INTO identity_reset_failures (sub, failed_at) VALUES ($1, $2) RETURNING id::text AS id',
      [sub, at],
    );
    const counted = await this.db.query<{ n: number }>(
      'SELECT count(*)::integer AS n FROM identity_reset_failures WHERE sub = $1 AND failed_at >= $2',
      [sub, forgetBefore],
    );
    return { id: inserted.rows[0]!.id, recent: Number(counted.rows[0]!.n) };
  }

  /** Takes back an attempt that was refused without checking its code (limit reached, code expired). */
  async forgetResetAttempt(id: string): Promise<void> {
    await this.db.query('DELETE FROM identity_reset_failures WHERE id = $1::bigint', [id]);
  }

  async clearResetAttempts(sub: string, q: Queryable = this.db): Promise<void> {
    await q.query('DELETE FROM identity_reset_failures WHERE sub = $1', [sub]);
  }

  async deleteResetCode(sub: string, q: Queryable = this.db): Promise<void> {
    await q.query('DELETE FROM identity_reset_codes WHERE sub = $1', [sub]);
  }
}
