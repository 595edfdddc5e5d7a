import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db, Queryable, QueryOptions, QueryResult, Row } from './Db';

interface Scope {
  db: Db;
  tx: Queryable;
  savepoints: number;
  closed: boolean;
}

const scopes = new AsyncLocalStorage<Scope>();

function openScope(db: Db): Scope | undefined {
  const scope = scopes.getStore();
  return scope && scope.db === db && !scope.closed ? scope : undefined;
}

async function inSavepoint<T>(scope: Scope, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  const name = `nested_${++scope.savepoints}`;
  await scope.tx.exec(`SAVEPOINT ${name}`);
  try {
    const result = await fn(scope.tx);
    await scope.tx.exec(`RELEASE SAVEPOINT ${name}`);
    return result;
  } catch (err) {
    await scope.tx.exec(`ROLLBACK TO SAVEPOINT ${name}`).catch(() => undefined);
    throw err;
  }
}

/**
 * `db.transaction(fn)`, remembered for everything `fn` awaits: a Db made by
 * `joinTransactions(db)` and called from inside `fn` runs its statements on this transaction
 * (its own transactions become savepoints) instead of the pool or, on PGlite, instead of waiting
 * for the one connection this transaction holds.
 */
export function transaction<T>(db: Db, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  const open = openScope(db);
  if (open) return inSavepoint(open, fn);
  return db.transaction(async (tx) => {
    const scope: Scope = { db, tx, savepoints: 0, closed: false };
    try {
      return await scopes.run(scope, () => fn(tx));
    } finally {
      // Work that outlives the callback must not use a finished transaction.
      scope.closed = true;
    }
  });
}

/**
 * `db` for a component that keeps its own reference to the database (the embedded identity
 * endpoint): inside a `transaction(db, …)` it joins that transaction, so the portal's rows and
 * the component's rows commit or roll back together; elsewhere it is `db` itself.
 */
export function joinTransactions(db: Db): Db {
  const target = (): Queryable => openScope(db)?.tx ?? db;
  return {
    get engine() {
      return db.engine;
    },
    query<T = Row>(sql: string, params?: readonly unknown[], options?: QueryOptions): Promise<QueryResult<T>> {
      return target().query<T>(sql, params, options);
    },
    exec(sql: string): Promise<void> {
      return target().exec(sql);
    },
    listen: (channel, onPayload, onGap) => db.listen(channel, onPayload, onGap),
    transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      const open = openScope(db);
      return open ? inSavepoint(open, fn) : db.transaction(fn);
    },
    close: () => db.close(),
  };
}
