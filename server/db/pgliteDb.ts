import fs from 'node:fs';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { Db, Queryable, QueryResult, Row } from './Db';
import { TYPE_IDS, parseInt8 } from './Db';

export interface PgliteOptions {
  /** Directory persisted on disk; absent means in memory. */
  dataDir?: string;
  /** A dump (`dumpDataDir`) to start from, e.g. a migrated template in tests. */
  loadDataDir?: Blob | File;
  /**
   * PostgreSQL's buffer cache inside PGlite's WebAssembly memory, in MB (PostgreSQL's default
   * 128). That memory grows as the cache fills and is never given back, so it is most of the
   * process's resident size; the operating system's file cache serves what does not fit.
   */
  sharedBuffersMb?: number;
}

/** A statement's name (QueryOptions) is not used: one connection, in this process, has nothing to share a plan with. */
function wrap(conn: PGlite | Transaction): Queryable {
  return {
    async query<T = Row>(sql: string, params?: readonly unknown[]): Promise<QueryResult<T>> {
      const res = await conn.query<T>(sql, params ? [...params] : []);
      return { rows: res.rows, rowCount: res.affectedRows || res.rows.length };
    },
    async exec(sql: string): Promise<void> {
      await conn.exec(sql);
    },
    async copyFrom(target: string, chunks: Iterable<string>): Promise<number> {
      const res = await conn.query(`COPY ${target} FROM '/dev/blob'`, [], { blob: new Blob([...chunks]) });
      return res.affectedRows ?? 0;
    },
  };
}

export interface PgliteDb extends Db {
  /** A copy of the database's files, to start other databases from (a migrated template). */
  dump(): Promise<Blob>;
}

/** The embedded default: PGlite, one connection in this process, with pg_trgm. */
export async function createPgliteDb(opts: PgliteOptions = {}): Promise<PgliteDb> {
  if (opts.dataDir) fs.mkdirSync(opts.dataDir, { recursive: true });
  const lite = await PGlite.create({
    ...(opts.dataDir ? { dataDir: opts.dataDir } : {}),
    ...(opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {}),
    extensions: { pg_trgm },
    ...(opts.sharedBuffersMb ? { startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${opts.sharedBuffersMb}MB`] } : {}),
    parsers: { [TYPE_IDS.int8]: parseInt8 },
  });
  const base = wrap(lite);
  return {
    engine: 'pglite',
    query: base.query,
    exec: base.exec,
    transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      return lite.transaction((tx) => fn(wrap(tx)));
    },
    async listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>> {
      // One process, one connection: notifications arrive in-process at commit.
      return lite.listen(channel, onPayload);
    },
    async close() {
      if (!lite.closed) await lite.close();
    },
    dump: () => lite.dumpDataDir('none'),
  };
}
