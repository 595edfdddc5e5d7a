import pg from 'pg';
import type { Db, Queryable, QueryResult, Row } from './Db';
import { TYPE_IDS, parseInt8 } from './Db';

export interface PgOptions {
  connectionString: string;
  max?: number;
  /** Extra server settings, e.g. a search_path for a test schema. */
  searchPath?: string;
  applicationName?: string;
}

const types = {
  getTypeParser(oid: number, format?: string) {
    if (oid === TYPE_IDS.int8) return parseInt8;
    return pg.types.getTypeParser(oid, format as 'text');
  },
} as pg.CustomTypesConfig;

function wrap(client: pg.Pool | pg.PoolClient): Queryable {
  return {
    async query<T = Row>(sql: string, params?: readonly unknown[]): Promise<QueryResult<T>> {
      const res = await client.query({ text: sql, values: params ? [...params] : [], types });
      return { rows: res.rows as T[], rowCount: res.rowCount ?? res.rows.length };
    },
    async exec(sql: string): Promise<void> {
      await client.query(sql);
    },
  };
}

/** PostgreSQL through a connection pool. */
export function createPgDb(opts: PgOptions): Db {
  const pool = new pg.Pool({
    connectionString: opts.connectionString,
    max: opts.max ?? 10,
    application_name: opts.applicationName ?? 'portal',
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 30000,
    ...(opts.searchPath ? { options: `-c search_path=${opts.searchPath}` } : {}),
  });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  const base = wrap(pool);
  return {
    engine: 'postgres',
    query: base.query,
    exec: base.exec,
    async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn(wrap(client));
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    },
    async close() {
      await pool.end();
    },
  };
}
