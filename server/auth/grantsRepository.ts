import type { Queryable } from '../db/Db';
import type { AuthContext } from '../middleware/authenticate';

/** Arbitrary constant: serialises changes to administrators and roles (their guards read both). */
const ADMINISTRATION_LOCK = 727_211_002;

/** An administrator's record as the guards read it, with what their profile grants. */
export interface GrantsRow {
  adminId: number;
  profileId: number;
  enabled: boolean;
  /** The identity user the record is bound to; null until the first sign-in binds it. */
  sub: string | null;
  paths: string[];
  actions: number[];
}

interface Row {
  id: number;
  profile_id: number;
  enabled: boolean;
  sub: string | null;
  paths: string[];
  actions: number[];
}

const toGrants = (r: Row): GrantsRow => ({
  adminId: r.id,
  profileId: r.profile_id,
  enabled: r.enabled,
  sub: r.sub,
  paths: r.paths,
  actions: r.actions,
});

/** The queries of the permission checks: who an administrator is and what their profile grants. */
export class GrantsRepository {
  constructor(private readonly db: Queryable) {}

  /**
   * The administrator of an identity user: bound by `sub`; a record not yet bound (bootstrap,
   * earlier versions) is found by its e-mail, unless the sign-in predates the record (a deleted
   * user's token).
   */
  async forIdentity(auth: Pick<AuthContext, 'sub' | 'email' | 'authTime'>): Promise<GrantsRow | undefined> {
    const res = await this.db.query<Row>(
      `SELECT a.id, a.profile_id, a.enabled, a.sub, p.paths, p.actions FROM admins a JOIN profiles p ON p.id = a.profile_id
        WHERE a.sub = $1
           OR (a.sub IS NULL AND lower(a.correo) = lower($2) AND $3 >= floor(extract(epoch FROM a.created_at)))
        ORDER BY a.sub IS NULL LIMIT 1`,
      [auth.sub, auth.email, auth.authTime],
      // Every portal API request reads it: parsed and planned once per pooled connection.
      { name: 'grants_for_identity' },
    );
    return res.rows[0] && toGrants(res.rows[0]);
  }

  /** Binds a record to its identity user; false when another request bound it first. */
  async bindSub(adminId: number, sub: string): Promise<boolean> {
    const res = await this.db.query('UPDATE admins SET sub = $1 WHERE id = $2 AND sub IS NULL', [sub, adminId]);
    return res.rowCount === 1;
  }

  /** An enabled administrator's grants as they are now (inside a transaction: after the lock). */
  async ofEnabledAdmin(adminId: number): Promise<GrantsRow | undefined> {
    const res = await this.db.query<Row>(
      `SELECT a.id, a.profile_id, a.enabled, a.sub, p.paths, p.actions FROM admins a JOIN profiles p ON p.id = a.profile_id
        WHERE a.id = $1 AND a.enabled`,
      [adminId],
    );
    return res.rows[0] && toGrants(res.rows[0]);
  }

  /** Everything enabled administrators hold, leaving out one administrator and/or one role's holders. */
  async heldByOthers(except: { adminId?: number; profileId?: number }): Promise<{ paths: string[]; actions: number[] }> {
    const res = await this.db.query<{ paths: string[]; actions: number[] }>(
      `WITH holders AS (
         SELECT p.paths, p.actions FROM admins a JOIN profiles p ON p.id = a.profile_id
          WHERE a.enabled AND a.id <> $1 AND p.id <> $2)
       SELECT ARRAY(SELECT DISTINCT unnest(paths) FROM holders) AS paths,
              ARRAY(SELECT DISTINCT unnest(actions) FROM holders) AS actions`,
      [except.adminId ?? 0, except.profileId ?? 0],
    );
    return res.rows[0]!;
  }

  /**
   * Taken first in every transaction that changes administrators or roles (held until it ends):
   * two administrators acting at once cannot both pass a guard.
   */
  async lockAdministration(): Promise<void> {
    await this.db.query('SELECT pg_advisory_xact_lock($1)', [ADMINISTRATION_LOCK]);
  }
}
