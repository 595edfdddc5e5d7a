import type { ApiKey } from '../../shared/contracts/apiKeys';
import type { Queryable } from '../db/Db';

/** A key's row with its role's name. */
interface ApiKeyRow {
  id: number;
  name: string;
  prefix: string;
  profile_id: number | null;
  profile_name: string | null;
  allowed_ips: string[];
  expires_at: Date | null;
  created_by: string;
  created_at: Date;
  last_used_at: Date | null;
  last_used_ip: string | null;
  revoked_at: Date | null;
  revoked_by: string | null;
  /** The role's grants; null once the role of a revoked key was deleted. */
  paths: string[] | null;
  actions: number[] | null;
}

/** A key as stored: what the API answers but `manageable` (judged against each caller), with its role's grants. */
export type StoredApiKey = Omit<ApiKey, 'manageable'> & { grants: { paths: string[]; actions: number[] } };

/** What authenticating a key needs: its hash, state, role grants and its creator's current grants. */
export interface KeyForAuth {
  id: number;
  name: string;
  prefix: string;
  secret_hash: string;
  allowed_ips: string[];
  expires_at: Date | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
  last_used_ip: string | null;
  paths: string[] | null;
  actions: number[] | null;
  creator_enabled: boolean | null;
  creator_paths: string[] | null;
  creator_actions: number[] | null;
}

const COLUMNS = `k.id, k.name, k.prefix, k.profile_id, p.nombre AS profile_name, k.allowed_ips, k.expires_at, k.created_by, k.created_at,
  k.last_used_at, k.last_used_ip, k.revoked_at, k.revoked_by, p.paths, p.actions`;

const iso = (d: Date | string | null): string | null => (d === null ? null : new Date(d).toISOString());

/** A key with its state at `now` and its role's grants. */
export function toApiKey(r: ApiKeyRow, now: Date): StoredApiKey {
  const state = r.revoked_at !== null ? 'revoked' : r.expires_at !== null && new Date(r.expires_at) <= now ? 'expired' : 'active';
  return {
    id: r.id,
    name: r.name,
    prefix: r.prefix,
    profileId: r.profile_id,
    profileName: r.profile_name,
    allowedIps: r.allowed_ips,
    expiresAt: iso(r.expires_at),
    createdBy: r.created_by,
    createdAt: iso(r.created_at)!,
    lastUsedAt: iso(r.last_used_at),
    lastUsedIp: r.last_used_ip,
    revokedAt: iso(r.revoked_at),
    revokedBy: r.revoked_by,
    state,
    grants: { paths: r.paths ?? [], actions: r.actions ?? [] },
  };
}

/** The `api_keys` table. */
export class ApiKeysRepository {
  constructor(private readonly db: Queryable) {}

  /** Keys not revoked first, then newest first. */
  async list(page: { offset: number; limit: number }, now: Date): Promise<{ data: StoredApiKey[]; total: number }> {
    const [rows, count] = await Promise.all([
      this.db.query<ApiKeyRow>(
        `SELECT ${COLUMNS} FROM api_keys k LEFT JOIN profiles p ON p.id = k.profile_id
          ORDER BY (k.revoked_at IS NOT NULL), k.id DESC LIMIT $1 OFFSET $2`,
        [page.limit, page.offset],
      ),
      this.db.query<{ n: number }>('SELECT count(*)::integer AS n FROM api_keys'),
    ]);
    return { data: rows.rows.map((r) => toApiKey(r, now)), total: Number(count.rows[0]!.n) };
  }

  async find(id: number, now: Date, forUpdate = false): Promise<StoredApiKey | undefined> {
    const res = await this.db.query<ApiKeyRow>(
      `SELECT ${COLUMNS} FROM api_keys k LEFT JOIN profiles p ON p.id = k.profile_id WHERE k.id = $1${forUpdate ? ' FOR UPDATE OF k' : ''}`,
      [id],
    );
    return res.rows[0] && toApiKey(res.rows[0], now);
  }

  async insert(k: {
    name: string;
    prefix: string;
    secretHash: string;
    profileId: number;
    allowedIps: string[];
    expiresAt: string | null;
    createdByAdminId: number | null;
    createdBy: string;
  }): Promise<number> {
    const res = await this.db.query<{ id: number }>(
      `INSERT INTO api_keys (name, prefix, secret_hash, profile_id, allowed_ips, expires_at, created_by_admin_id, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
      [k.name, k.prefix, k.secretHash, k.profileId, k.allowedIps, k.expiresAt, k.createdByAdminId, k.createdBy],
    );
    return res.rows[0]!.id;
  }

  async revoke(id: number, by: string, now: Date): Promise<void> {
    await this.db.query('UPDATE api_keys SET revoked_at = $2, revoked_by = $3 WHERE id = $1 AND revoked_at IS NULL', [id, now, by]);
  }

  /** Keys not revoked that act with this role. */
  async countUsingRole(profileId: number): Promise<number> {
    const res = await this.db.query<{ n: number }>('SELECT count(*)::integer AS n FROM api_keys WHERE profile_id = $1 AND revoked_at IS NULL', [
      profileId,
    ]);
    return Number(res.rows[0]!.n);
  }

  /** The key with this public prefix, with its role's grants and its creator's (one query per request). */
  async forAuth(prefix: string): Promise<KeyForAuth | undefined> {
    const res = await this.db.query<KeyForAuth>(
      `SELECT k.id, k.name, k.prefix, k.secret_hash, k.allowed_ips, k.expires_at, k.revoked_at, k.last_used_at, k.last_used_ip,
              p.paths, p.actions, a.enabled AS creator_enabled, ap.paths AS creator_paths, ap.actions AS creator_actions
         FROM api_keys k
         LEFT JOIN profiles p ON p.id = k.profile_id
         LEFT JOIN admins a ON a.id = k.created_by_admin_id
         LEFT JOIN profiles ap ON ap.id = a.profile_id
        WHERE k.prefix = $1`,
      [prefix],
    );
    return res.rows[0];
  }

  /** Records a use (at most once a minute per key and address: not a write per request). */
  async touch(id: number, ip: string | null, now: Date): Promise<void> {
    await this.db.query(
      `UPDATE api_keys SET last_used_at = $2, last_used_ip = $3
        WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < $2::timestamptz - interval '1 minute' OR last_used_ip IS DISTINCT FROM $3)`,
      [id, now, ip],
    );
  }

  /** Roles a key can be given, by name. */
  async roles(): Promise<{ id: number; nombre: string; paths: string[]; actions: number[] }[]> {
    const res = await this.db.query<{ id: number; nombre: string; paths: string[]; actions: number[] }>(
      'SELECT id, nombre, paths, actions FROM profiles ORDER BY lower(nombre), id',
    );
    return res.rows;
  }

  async role(id: number): Promise<{ id: number; nombre: string; paths: string[]; actions: number[] } | undefined> {
    const res = await this.db.query<{ id: number; nombre: string; paths: string[]; actions: number[] }>(
      'SELECT id, nombre, paths, actions FROM profiles WHERE id = $1',
      [id],
    );
    return res.rows[0];
  }
}
