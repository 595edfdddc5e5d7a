import type { Queryable } from '../db/Db';
import type { AuthContext } from '../middleware/authenticate';

/** How long an answer about a sign-in is reused before the database is asked again. */
export const REVOCATION_CACHE_MS = 5_000;
/** Answers kept at most (oldest dropped first). */
const CACHE_ENTRIES = 10_000;
/**
 * How long a revocation of every session is kept: the longest lifetime an access token can have
 * (Cognito allows up to one day; the embedded endpoint's maximum is the same).
 */
export const MAX_ACCESS_TOKEN_SECONDS = 86_400;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface RevocationOptions {
  /** Reuse of an answer, in milliseconds (REVOCATION_CACHE_MS by default). */
  cacheMs?: number;
  /** The clock of the cache (tests move it). */
  now?: () => number;
}

/**
 * Whether the sign-in behind a verified access token has ended. Two records are read:
 *
 * - the embedded identity endpoint's own (a token signed with one of its keys is live only while
 *   the refresh token of its sign-in exists and is not revoked: sign-out, GlobalSignOut,
 *   RevokeToken, a disabled, deleted or reset user);
 * - the portal's list of ended sessions (`revoked_sessions`), fed by its own sign-out and by
 *   disabling, deleting or resetting an administrator: how a Cognito pool's tokens, which stay
 *   valid until they expire, are refused.
 *
 * Answers are reused for `cacheMs` (a few seconds): a revocation made elsewhere (another
 * replica, the endpoint itself) applies within that time; one made through this process's
 * `revoke` applies at once.
 */
export class SessionRevocations {
  private readonly cache = new Map<string, { revoked: boolean; at: number }>();
  private readonly cacheMs: number;
  private readonly now: () => number;

  constructor(
    private readonly db: Queryable,
    opts: RevocationOptions = {},
  ) {
    this.cacheMs = opts.cacheMs ?? REVOCATION_CACHE_MS;
    this.now = opts.now ?? Date.now;
  }

  async isRevoked(auth: AuthContext): Promise<boolean> {
    const key = `${auth.sub}|${auth.originJti ?? ''}|${auth.authTime}|${auth.kid ?? ''}`;
    const hit = this.cache.get(key);
    const now = this.now();
    // An ended session never comes back: that answer is kept as long as the entry lives.
    if (hit && (hit.revoked || now - hit.at < this.cacheMs)) return hit.revoked;
    const revoked = await this.lookup(auth);
    this.cache.delete(key);
    this.cache.set(key, { revoked, at: now });
    if (this.cache.size > CACHE_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
    return revoked;
  }

  private async lookup(auth: AuthContext): Promise<boolean> {
    const originUuid = auth.originJti && UUID.test(auth.originJti) ? auth.originJti : null;
    // A revocation of every session covers the sign-ins made up to its second (`auth_time` has
    // no finer unit): one made in that same second is refused too and signs in again. The
    // embedded endpoint's own record is exact, so those revocations apply to the others' tokens.
    const res = await this.db.query<{ denied: boolean; embedded: boolean; live: boolean | null }>(
      `WITH k AS (SELECT EXISTS (SELECT 1 FROM identity_keys WHERE kid = $4) AS embedded)
       SELECT k.embedded,
              EXISTS (SELECT 1 FROM revoked_sessions r
                       WHERE r.sub = $1 AND r.expires_at > now()
                         AND (r.origin_jti = $2
                              OR (r.origin_jti IS NULL AND NOT k.embedded AND $3 <= floor(extract(epoch FROM r.revoked_at))))) AS denied,
              (SELECT t.revoked_at IS NULL FROM identity_refresh_tokens t WHERE t.origin_jti = $5::uuid) AS live
         FROM k`,
      [auth.sub, auth.originJti ?? null, auth.authTime, auth.kid ?? null, originUuid],
    );
    const r = res.rows[0]!;
    return r.denied || (r.embedded && r.live !== true);
  }

  /**
   * Ends one sign-in (`originJti`) or every sign-in of `sub` made until now, for tokens that
   * stay valid until they expire. Inside the caller's transaction when given one. This process
   * forgets its cached answers about `sub` at once.
   */
  async revoke(q: Queryable, r: { sub: string; originJti?: string }): Promise<void> {
    await q.query('DELETE FROM revoked_sessions WHERE expires_at <= now()');
    await q.query(`INSERT INTO revoked_sessions (sub, origin_jti, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3))`, [
      r.sub,
      r.originJti ?? null,
      MAX_ACCESS_TOKEN_SECONDS,
    ]);
    this.forget(r.sub);
  }

  /** Drops this process's cached answers about `sub`. */
  forget(sub: string): void {
    for (const key of this.cache.keys()) if (key.startsWith(`${sub}|`)) this.cache.delete(key);
  }
}

const shared = new WeakMap<object, SessionRevocations>();

/** The one SessionRevocations of a database in this process (the guards and the services share it). */
export function revocationsFor(db: Queryable): SessionRevocations {
  let r = shared.get(db);
  if (!r) shared.set(db, (r = new SessionRevocations(db)));
  return r;
}
