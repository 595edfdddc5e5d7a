/** A row as both engines return it: column name → value. */
export type Row = Record<string, unknown>;

export interface QueryResult<T = Row> {
  rows: T[];
  /** Rows returned or affected. */
  rowCount: number;
}

/** How one statement is sent. */
export interface QueryOptions {
  /**
   * A named prepared statement: on PostgreSQL each pooled connection parses and plans it once,
   * the first time, and reuses that afterwards (the hot statements of the device side). One name,
   * one SQL text, always; at most 63 characters. PGlite, one connection in this process, ignores it.
   */
  name?: string;
}

/** Anything that runs SQL: the database itself or an open transaction. */
export interface Queryable {
  /** One parameterised statement ($1, $2 …). */
  query<T = Row>(sql: string, params?: readonly unknown[], options?: QueryOptions): Promise<QueryResult<T>>;
  /** One or more statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
  /**
   * Bulk load: `COPY target FROM …` (text format) of `chunks`, lines of tab-separated values,
   * `target` being `table (column, …)`. PostgreSQL streams them (COPY FROM STDIN), PGlite reads
   * them as one blob. Returns the rows loaded. Optional: a wrapper of a Queryable may lack it.
   */
  copyFrom?(target: string, chunks: Iterable<string>): Promise<number>;
}

/**
 * The one database interface of the server. Two implementations run the same SQL:
 * PostgreSQL through a `pg` Pool, and PGlite (PostgreSQL compiled to WASM) embedded.
 */
export interface Db extends Queryable {
  readonly engine: 'postgres' | 'pglite';
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * Receives the notifications of `channel` (NOTIFY, sent at commit) until the returned function
   * is called. `onGap` runs when notifications may have been missed (the listening connection was
   * lost and is back), so the listener can look again at what it waits for.
   */
  listen(channel: string, onPayload: (payload: string) => void, onGap?: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** PostgreSQL type ids parsed the same way on both engines. */
export const TYPE_IDS = { int8: 20, numeric: 1700 } as const;

/** int8 (count(*), bigint ids) as a JS number: fleets stay far below 2^53. */
export const parseInt8 = (value: string): number => Number(value);
