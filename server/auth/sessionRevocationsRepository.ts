import type { Queryable } from '../db/Db';

/** What the database records about one sign-in (the keys of SessionRevocations' answer). */
export interface SignInRef {
  sub: string;
  /** The sign-in's origin_jti as the token carries it (any text). */
  originJti: string | null;
  /** The token's auth_time, in seconds. */
  authTime: number;
  /** The key the token was signed with. */
  kid: string | null;
  /** `originJti` when it is a UUID (the embedded endpoint's record is keyed by one), else null. */
  originUuid: string | null;
}

/** The queries of the session revocations: ended sign-ins and the embedded endpoint's record of them. */
export class SessionRevocationsRepository {
  constructor(private readonly db: Queryable) {}

  /**
   * Whether a sign-in is denied by the portal's list of ended sessions, whether its token was
   * signed by the embedded endpoint, and whether that endpoint's record of the sign-in is live
   * (null when it has none).
   *
   * A revocation of every session covers the sign-ins made up to its second (`auth_time` has no
   * finer unit): one made in that same second is refused too and signs in again. The embedded
   * endpoint's own record is exact, so those revocations apply to the others' tokens.
   */
  async lookup(ref: SignInRef): Promise<{ denied: boolean; embedded: boolean; live: boolean | null }> {
    const res = await this.db.query<{ denied: boolean; embedded: boolean; live: boolean | null }>(
      `WITH k AS (SELECT EXISTS (SELECT 1 FROM identity_keys WHERE kid = $4) AS embedded)
       SELECT k.embedded,
              EXISTS (SELECT 1 FROM revoked_sessions r
                       WHERE r.sub = $1 AND r.expires_at > now()
                         AND (r.origin_jti = $2
                              OR (r.origin_jti IS NULL AND NOT k.embedded AND $3 <= floor(extract(epoch FROM r.revoked_at))))) AS denied,
              (SELECT t.revoked_at IS NULL FROM identity_refresh_tokens t WHERE t.origin_jti = $5::uuid) AS live
         FROM k`,
      [ref.sub, ref.originJti, ref.authTime, ref.kid, ref.originUuid],
    );
    return res.rows[0]!;
  }

  /**
   * Records an ended sign-in (`originJti`) or every sign-in of `sub` made until now, kept for
   * `keepSeconds`; expired records are dropped first.
   */
  async insert(r: { sub: string; originJti: string | null; keepSeconds: number }): Promise<void> {
    await this.db.query('DELETE FROM revoked_sessions WHERE expires_at <= now()');
    await this.db.query(`INSERT INTO revoked_sessions (sub, origin_jti, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3))`, [
      r.sub,
      r.originJti,
      r.keepSeconds,
    ]);
  }
}
