import type { Queryable } from '../db/Db';

/** A stored `Idempotency-Key`: the request it was used with and the answer given. */
export interface StoredKey {
  request_hash: string;
  status_code: number;
  response: unknown;
}

/** Whose keys: an administrator's (apiKeyId 0), or an API key's (adminId 0). */
export interface IdempotencyScope {
  adminId: number;
  apiKeyId: number;
}

/** The `idempotency_keys` table: one row per scope and key. */
export class IdempotencyRepository {
  constructor(private readonly db: Queryable) {}

  async find(scope: IdempotencyScope, key: string): Promise<StoredKey | undefined> {
    const res = await this.db.query<StoredKey>(
      'SELECT request_hash, status_code, response FROM idempotency_keys WHERE admin_id = $1 AND api_key_id = $2 AND key = $3',
      [scope.adminId, scope.apiKeyId, key],
    );
    return res.rows[0];
  }

  /** Stores a key with its answer (fails on the primary key when a concurrent request stored it first). */
  async insert(k: IdempotencyScope & { key: string; hash: string; status: number; response: unknown }): Promise<void> {
    await this.db.query(
      'INSERT INTO idempotency_keys (admin_id, api_key_id, key, request_hash, status_code, response) VALUES ($1, $2, $3, $4, $5, $6::jsonb)',
      [k.adminId, k.apiKeyId, k.key, k.hash, k.status, JSON.stringify(k.response)],
    );
  }
}
