import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFromStdin } from 'pg-copy-streams';
import type { Db, Queryable, QueryOptions, QueryResult, Row } from './Db';
import { TYPE_IDS, parseInt8 } from './Db';
import { isConnectionError } from './connectionErrors';

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
    async query<T = Row>(sql: string, params?: readonly unknown[], options?: QueryOptions): Promise<QueryResult<T>> {
      // A name makes pg prepare the statement once per connection (Parse), then only Bind/Execute it.
      const res = await client.query({ text: sql, values: params ? [...params] : [], types, ...(options?.name ? { name: options.name } : {}) });
      return { rows: res.rows as T[], rowCount: res.rowCount ?? res.rows.length };
    },
    async exec(sql: string): Promise<void> {
      await client.query(sql);
    },
    async copyFrom(target: string, chunks: Iterable<string>): Promise<number> {
      const conn = client instanceof pg.Pool ? await client.connect() : client;
      try {
        const stream = conn.query(copyFromStdin(`COPY ${target} FROM STDIN`));
        await pipeline(Readable.from(chunks), stream);
        return stream.rowCount;
      } finally {
        if (conn !== client) (conn as pg.PoolClient).release();
      }
    },
  };
}

/** The PostgreSQL implementation, with what only a shared server needs. */
export interface PgDb extends Db {
  readonly engine: 'postgres';
  /**
   * Runs `fn` while this process holds the session-level advisory lock `key`, on a connection
   * of its own (outside the pool, so `fn` may use every pooled connection). Other replicas
   * calling it with the same key wait until `fn` settles.
   */
  withSessionLock<T>(key: number, fn: () => Promise<T>): Promise<T>;
}

/**
 * max_parallel_workers_per_gather of every session the server opens. PostgreSQL plans a page
 * whose filter matches sparsely (a half of the list with a common word) as a Gather Merge of
 * workers; starting them and waiting for a row of each costs several times the page itself, and
 * the export's batches and the offline count are no faster with them. Set per session, above a
 * role's or the server's setting.
 */
export const PARALLEL_WORKERS_PER_GATHER = 0;

/** PostgreSQL through a connection pool. */
export function createPgDb(opts: PgOptions): PgDb {
  // No parallel plans (PARALLEL_WORKERS_PER_GATHER): every statement here reads a page, a
  // device or a batch by index, and a parallel plan's workers start before its first row.
  const options = [
    `-c max_parallel_workers_per_gather=${PARALLEL_WORKERS_PER_GATHER}`,
    ...(opts.searchPath ? [`-c search_path=${opts.searchPath}`] : []),
  ];
  const settings = {
    connectionString: opts.connectionString,
    application_name: opts.applicationName ?? 'portal',
    connectionTimeoutMillis: 5000,
    options: options.join(' '),
  };
  const pool = new pg.Pool({ ...settings, max: opts.max ?? 10, idleTimeoutMillis: 30000 });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  const base = wrap(pool);
  return {
    engine: 'postgres',
    query: base.query,
    exec: base.exec,
    async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      // A checked-out client has no listener of the pool's: without this one, the server going
      // away mid-transaction ('Connection terminated unexpectedly') would be an unhandled
      // 'error' event and end the process. The statement in flight rejects on its own.
      let lost: Error | undefined;
      const onError = (err: Error) => {
        lost ??= err;
      };
      client.on('error', onError);
      let failed: unknown;
      try {
        await client.query('BEGIN');
        const result = await fn(wrap(client));
        await client.query('COMMIT');
        return result;
      } catch (err) {
        failed = err;
        if (!lost && !isConnectionError(err)) await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.removeListener('error', onError);
        // A client whose connection failed is discarded, never handed to the next request.
        const broken = lost ?? (isConnectionError(failed) ? (failed as Error) : undefined);
        client.release(broken ?? undefined);
      }
    },
    async withSessionLock<T>(key: number, fn: () => Promise<T>): Promise<T> {
      const client = new pg.Client(settings);
      client.on('error', () => undefined);
      await client.connect();
      try {
        await client.query('SELECT pg_advisory_lock($1)', [key]);
        return await fn();
      } finally {
        // Ending the session releases the lock even when the unlock cannot be sent.
        await client.query('SELECT pg_advisory_unlock($1)', [key]).catch(() => undefined);
        await client.end().catch(() => undefined);
      }
    },
    listen(channel: string, onPayload: (payload: string) => void, onGap?: () => void): Promise<() => Promise<void>> {
      return listenOn(settings, channel, onPayload, onGap);
    },
    async close() {
      await pool.end();
    },
  };
}

const LISTEN_RETRY_MS = { first: 250, max: 5000 };

/**
 * LISTEN on a connection of its own (a pooled one would be handed to other queries). When the
 * connection is lost it is opened again with backoff, and `onGap` tells the listener that
 * notifications sent meanwhile were missed.
 */
async function listenOn(
  settings: pg.ClientConfig,
  channel: string,
  onPayload: (payload: string) => void,
  onGap?: () => void,
): Promise<() => Promise<void>> {
  let client: pg.Client | undefined;
  let stopped = false;
  let retryTimer: NodeJS.Timeout | undefined;
  const quoted = `"${channel.replace(/"/g, '""')}"`;

  const connect = async (): Promise<void> => {
    const c = new pg.Client(settings);
    c.on('notification', (msg) => {
      if (msg.channel === channel) onPayload(msg.payload ?? '');
    });
    c.on('error', () => reconnect(c));
    c.on('end', () => reconnect(c));
    await c.connect();
    await c.query(`LISTEN ${quoted}`);
    client = c;
  };
  let delay = LISTEN_RETRY_MS.first;
  const reconnect = (lost: pg.Client) => {
    if (stopped || client !== lost) return;
    client = undefined;
    lost.end().catch(() => undefined);
    const attempt = () => {
      retryTimer = undefined;
      if (stopped) return;
      connect().then(
        () => {
          delay = LISTEN_RETRY_MS.first;
          onGap?.();
        },
        () => {
          delay = Math.min(delay * 2, LISTEN_RETRY_MS.max);
          retryTimer = setTimeout(attempt, delay);
          retryTimer.unref();
        },
      );
    };
    retryTimer = setTimeout(attempt, delay);
    retryTimer.unref();
  };

  await connect();
  return async () => {
    stopped = true;
    if (retryTimer) clearTimeout(retryTimer);
    const c = client;
    client = undefined;
    if (c) await c.end().catch(() => undefined);
  };
}
