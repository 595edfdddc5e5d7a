import type { Db } from './Db';

/** Arbitrary constants, one per start-up step that several replicas may run at once. */
export const ADVISORY_LOCKS = {
  /** The migrations (transaction-level lock, server/db/migrate.ts). */
  migrations: 727_211_001,
  /** First-start bootstrap: signing keys, administrators, identity users, demo fleet. */
  firstStart: 727_211_002,
  /** The demo fleet's seeding transaction (tools/seed/demoDevices.ts). */
  demoSeed: 727_211_003,
} as const;

interface SessionLocking {
  withSessionLock<T>(key: number, fn: () => Promise<T>): Promise<T>;
}

const hasSessionLock = (db: Db): db is Db & SessionLocking => typeof (db as Partial<SessionLocking>).withSessionLock === 'function';

/**
 * Runs `fn` holding the advisory lock `key` across every process sharing the database: two
 * replicas starting together on an empty database run their first-start steps one after the
 * other, and the second one finds the work done (each step checks again inside the lock).
 * PGlite belongs to one process, which runs `fn` directly.
 */
export async function withAdvisoryLock<T>(db: Db, key: number, fn: () => Promise<T>): Promise<T> {
  if (db.engine === 'pglite') return fn();
  if (hasSessionLock(db)) return db.withSessionLock(key, fn);
  // Any other PostgreSQL Db: the lock lives in a transaction held open while `fn` runs on the pool.
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [key]);
    return fn();
  });
}
