import type { Queryable } from '../db/Db';
import type { AuthContext } from '../middleware/authenticate';
import { SessionRevocationsRepository } from './sessionRevocationsRepository';

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
  private readonly repository: SessionRevocationsRepository;

  constructor(db: Queryable, opts: RevocationOptions = {}) {
    this.repository = new SessionRevocationsRepository(db);
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
    const r = await this.repository.lookup({
      sub: auth.sub,
      originJti: auth.originJti ?? null,
      authTime: auth.authTime,
      kid: auth.kid ?? null,
      originUuid,
    });
    return r.denied || (r.embedded && r.live !== true);
  }

  /**
   * Ends one sign-in (`originJti`) or every sign-in of `sub` made until now, for tokens that
   * stay valid until they expire. Inside the caller's transaction when given one. This process
   * forgets its cached answers about `sub` at once.
   */
  async revoke(q: Queryable, r: { sub: string; originJti?: string }): Promise<void> {
    await new SessionRevocationsRepository(q).insert({ sub: r.sub, originJti: r.originJti ?? null, keepSeconds: MAX_ACCESS_TOKEN_SECONDS });
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
