import type { Db } from './Db';
import { ADVISORY_LOCKS } from './advisoryLock';
import type { Migration } from './migrations/index';

/** Serialises migrations when several replicas start at once. */
const MIGRATION_LOCK = ADVISORY_LOCKS.migrations;

/**
 * Applies the pending migrations in order, all in one transaction, and records each in
 * `schema_migrations`. Returns the ids applied now.
 */
export async function migrate(db: Db, list: readonly Migration[]): Promise<string[]> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      id text PRIMARY KEY,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const done = new Set((await tx.query<{ id: string }>('SELECT id FROM schema_migrations')).rows.map((r) => r.id));
    const applied: string[] = [];
    for (const m of list) {
      if (done.has(m.id)) continue;
      await tx.exec(m.sql);
      await tx.query('INSERT INTO schema_migrations (id) VALUES ($1)', [m.id]);
      applied.push(m.id);
    }
    return applied;
  });
}
