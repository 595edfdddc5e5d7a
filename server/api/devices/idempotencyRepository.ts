import type { Queryable } from '../../db/Db';

/** A stored `Idempotency-Key`: the request it was used with and the answer given. */
export interface StoredKey {
  request_hash: string;
  status_code: number;
  response: unknown;
}

/** The `idempotency_keys` table: one row per administrator and key. */
export class IdempotencyRepository {
  constructor(private readonly db: Queryable) {}

  async find(adminId: number, key: string): Promise<StoredKey | undefined> {
    const res = await this.db.query<StoredKey>('SELECT request_hash, status_code, response FROM idempotency_keys WHERE admin_id = $1 AND key = $2', [
      adminId,
      key,
    ]);
    return res.rows[0];
  }

  /** Stores a key with its answer (fails on the primary key when a concurrent request stored it first). */
  async insert(k: { adminId: number; key: string; hash: string; status: number; response: unknown }): Promise<void> {
    await this.db.query('INSERT INTO idempotency_keys (admin_id, key, request_hash, status_code, response) VALUES ($1, $2, $3, $4, $5::jsonb)', [
      k.adminId,
      k.key,
      k.hash,
      k.status,
      JSON.stringify(k.response),
    ]);
  }
}
