/**
 * A large realistic fleet (`npm run seed`, the benchmarks): the demo groups and `count` devices
 * of the demo generator (tools/seed/demoDevices.ts) with their 30 days of command history and
 * the commands in flight, in one transaction. Devices go in by COPY (streamed on PostgreSQL, one
 * blob per batch on PGlite); their ids are drawn from the sequence first, so the commands can
 * follow. The counters the triggers keep (device_counts, device_fact_counts, activity_hourly,
 * pending_command_counts) move with the rows, as for any insert.
 */
import { randomBytes } from 'node:crypto';
import { ADVISORY_LOCKS } from '../../server/db/advisoryLock';
import type { Db, Queryable } from '../../server/db/Db';
import { DEMO_GROUPS, demoDeviceRows, insertDemoCommands, type DemoDeviceRow } from './demoDevices';

export interface SeedFleetOptions {
  /** Devices to add. */
  count: number;
  /** Add to a registry that already has devices (otherwise such a registry is refused). */
  append?: boolean;
  /** The generator's seed (the same seed and registry give the same fleet). */
  seed?: number;
  /** The fleet's present: last contacts, pending commands and history are relative to it. */
  now?: Date;
  /** Devices per COPY and per history statement. */
  batchSize?: number;
  /** Called after each batch with the devices added so far. */
  onProgress?: (done: number, total: number) => void;
  /** Called before the secondary indexes are built again (a new registry), with how many. */
  onIndexes?: (count: number) => void;
}

export interface SeedFleetResult {
  devices: number;
  /** Ids of DEMO_GROUPS, in its order. */
  groupIds: number[];
  /** Device numbers used by the generator: [start, start + count) plus those skipped on a collision. */
  start: number;
}

/** The registry has devices and `append` was not asked for: nothing was written. */
export class FleetNotEmptyError extends Error {
  constructor(readonly existing: number) {
    super(
      `La base de datos ya tiene ${existing} dispositivos: no se sembró nada (usa --append para agregar más). ` +
        `The database already has ${existing} devices: nothing was seeded (use --append to add more).`,
    );
    this.name = 'FleetNotEmptyError';
  }
}

const COLUMNS = [
  'id',
  'imei',
  'imei2',
  'serial',
  'device_type',
  'brand',
  'model',
  'os_version',
  'agent_version',
  'group_id',
  'customer_name',
  'credit_reference',
  'lifecycle',
  'lock_state',
  'lock_type',
  'lock_message',
  'temporary_until',
  'pending_action',
  'pending_until',
  'failure_reason',
  'last_seen_at',
  'enrolled_at',
  'created_at',
  'updated_at',
  'sim_iccid',
  'sim_carrier',
  'secret',
] as const;

/** A value in COPY's text format: `\N` for NULL, the delimiters and backslash escaped. */
function field(v: string | number | Date | null): string {
  if (v === null) return '\\N';
  if (typeof v === 'number') return String(v);
  if (v instanceof Date) return v.toISOString();
  return /[\\\t\n\r]/.test(v) ? v.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r') : v;
}

function copyLine(r: DemoDeviceRow, id: number, groupIds: readonly number[], secret: string): string {
  const updatedAt = r.lastSeenAt && r.lastSeenAt > r.createdAt ? r.lastSeenAt : r.createdAt;
  return `${[
    id,
    r.imei,
    r.imei2,
    r.serial,
    r.deviceType,
    r.brand,
    r.model,
    r.osVersion,
    r.agentVersion,
    r.groupIndex === null ? null : (groupIds[r.groupIndex] ?? null),
    r.customerName,
    r.creditReference,
    r.lifecycle,
    r.lockState,
    r.lockType,
    r.lockMessage,
    r.temporaryUntil,
    r.pendingAction,
    r.pendingUntil,
    r.failureReason,
    r.lastSeenAt,
    r.enrolledAt,
    r.createdAt,
    updatedAt,
  ]
    .map(field)
    .join('\t')}\t${field(r.simIccid)}\t${field(r.simCarrier)}\t\\\\x${secret}\n`;
}

/** Devices in the registry (deleted ones included: their IMEIs are history). */
export async function countDevices(q: Queryable): Promise<number> {
  const res = await q.query<{ n: number }>('SELECT count(*) AS n FROM devices');
  return res.rows[0]!.n;
}

/** The DEMO_GROUPS, created when missing; their ids in DEMO_GROUPS order. */
async function ensureGroups(q: Queryable): Promise<number[]> {
  await q.query(
    `INSERT INTO device_groups (name, description)
     SELECT * FROM unnest($1::text[], $2::text[]) ON CONFLICT ((lower(name))) DO NOTHING`,
    [DEMO_GROUPS.map((g) => g.name), DEMO_GROUPS.map((g) => g.description)],
  );
  const res = await q.query<{ id: number; name: string }>('SELECT id, name FROM device_groups WHERE lower(name) = ANY($1::text[])', [
    DEMO_GROUPS.map((g) => g.name.toLowerCase()),
  ]);
  const byName = new Map(res.rows.map((r) => [r.name.toLowerCase(), r.id]));
  return DEMO_GROUPS.map((g) => byName.get(g.name.toLowerCase())!);
}

/**
 * Seeds `count` devices in one transaction (nothing stays of a failed run). Refuses, writing
 * nothing, when devices exist and `append` is not set. The generator numbers its devices from
 * the devices' id sequence, so an appended fleet never repeats the IMEIs of an earlier seed; an
 * IMEI already registered another way (an import) is skipped and another device drawn.
 */
export async function seedFleet(db: Db, opts: SeedFleetOptions): Promise<SeedFleetResult> {
  const { count, append = false, seed = 2026, now = new Date(), batchSize = 10_000, onProgress, onIndexes } = opts;
  if (!Number.isSafeInteger(count) || count < 0) throw new RangeError(`count: se esperaba un entero ≥ 0 (${count})`);
  return db.transaction(async (tx) => {
    // One seeder at a time (and not while a replica seeds the demo fleet); checked inside the lock.
    if (db.engine === 'postgres') await tx.query('SELECT pg_advisory_xact_lock($1)', [ADVISORY_LOCKS.demoSeed]);
    const existing = await countDevices(tx);
    if (existing > 0 && !append) throw new FleetNotEmptyError(existing);
    const groupIds = await ensureGroups(tx);
    // Every device ever inserted took a number of this sequence: numbering the generator's devices
    // from its last value keeps them apart from any earlier seed's.
    const seq = (await tx.query<{ last: number | null }>(`SELECT pg_sequence_last_value(pg_get_serial_sequence('devices', 'id')::regclass) AS last`))
      .rows[0]!.last;
    const start = seq ?? 0;
    let done = 0;
    onProgress?.(0, count);
    if (count === 0) return { devices: 0, groupIds, start };
    // An empty registry takes the rows without its secondary indexes, built again at the end: one
    // sort per index instead of an index entry per row (the trigram and word indexes above all).
    // Inside the transaction, so a failed seed leaves them as they were.
    const indexes = existing === 0 ? await dropSecondaryIndexes(tx, db.engine) : [];
    // Appending draws more than asked for, in case some IMEIs are taken (rare: imported ones).
    const rows = demoDeviceRows(append ? Number.MAX_SAFE_INTEGER - start : count, seed, now, batchSize, start);
    while (done < count) {
      const next = rows.next();
      if (next.done) break;
      let batch = next.value.slice(0, count - done);
      if (append) {
        const taken = await tx.query<{ imei: string }>('SELECT imei FROM devices WHERE imei = ANY($1::text[]) AND deleted_at IS NULL', [
          batch.map((r) => r.imei),
        ]);
        if (taken.rowCount > 0) {
          const set = new Set(taken.rows.map((r) => r.imei));
          batch = batch.filter((r) => !set.has(r.imei));
        }
      }
      if (batch.length === 0) continue;
      await insertFleetBatch(tx, batch, groupIds, now);
      done += batch.length;
      onProgress?.(done, count);
    }
    if (indexes.length) onIndexes?.(indexes.length);
    for (const def of indexes) await tx.exec(def);
    return { devices: done, groupIds, start };
  });
}

/** Tables the seed writes many rows to (device_search, device_key_prefixes: the searched text and key prefixes, when the schema has them). */
const LOADED_TABLES = ['devices', 'device_commands', 'device_search', 'device_key_prefixes'];

/**
 * Drops the indexes of the loaded tables that neither are unique nor back a constraint, and
 * returns their definitions (to run again once the rows are in). Takes the tables' exclusive lock
 * until the transaction ends.
 */
async function dropSecondaryIndexes(tx: Queryable, engine: Db['engine']): Promise<string[]> {
  const res = await tx.query<{ name: string; def: string }>(
    `SELECT format('%I.%I', n.nspname, c.relname) AS name, pg_get_indexdef(i.indexrelid) AS def
       FROM pg_index i
       JOIN pg_class c ON c.oid = i.indexrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE i.indrelid = ANY (SELECT to_regclass(t) FROM unnest($1::text[]) AS t WHERE to_regclass(t) IS NOT NULL)
        AND NOT i.indisunique AND NOT i.indisprimary
        AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)
      ORDER BY c.relname`,
    [LOADED_TABLES],
  );
  if (res.rows.length === 0) return [];
  await tx.exec(`DROP INDEX ${res.rows.map((r) => r.name).join(', ')}`);
  // Room to sort in memory while the indexes are built (PGlite's memory is the process's own).
  await tx.exec(`SET LOCAL maintenance_work_mem = '${engine === 'postgres' ? '512MB' : '256MB'}'`);
  return res.rows.map((r) => r.def);
}

/** One batch: ids from the sequence, the devices by COPY (a multi-row insert without it), their commands. */
async function insertFleetBatch(tx: Queryable, batch: readonly DemoDeviceRow[], groupIds: readonly number[], now: Date): Promise<void> {
  const ids = (
    await tx.query<{ id: number }>(`SELECT nextval(pg_get_serial_sequence('devices', 'id')) AS id FROM generate_series(1, $1::integer)`, [
      batch.length,
    ])
  ).rows.map((r) => r.id);
  if (!tx.copyFrom) throw new Error('seedFleet: la conexión no admite COPY');
  const secrets = randomBytes(32 * batch.length).toString('hex');
  const lines = batch.map((r, i) => copyLine(r, ids[i]!, groupIds, secrets.slice(i * 64, i * 64 + 64)));
  await tx.copyFrom(`devices (${COLUMNS.join(', ')})`, chunked(lines, 1000));
  await insertDemoCommands(
    tx,
    ids,
    ids.filter((_, i) => batch[i]!.pendingAction !== null),
    now,
  );
}

/** Lines joined a thousand at a time (fewer, larger writes to the socket). */
function* chunked(lines: readonly string[], size: number): Generator<string> {
  for (let i = 0; i < lines.length; i += size) yield lines.slice(i, i + size).join('');
}

/** A live-device count per base status where the dashboard counter and the rows disagree. */
export interface CounterMismatch {
  baseStatus: number;
  counted: number;
  rows: number;
}

/**
 * Compares device_counts (what the dashboards and list totals read) with a GROUP BY of the live
 * devices, per base status. Empty when they agree. Reads every live device once.
 */
export async function fleetCounterMismatches(q: Queryable): Promise<CounterMismatch[]> {
  const res = await q.query<{ base_status: number; counted: number; rows: number }>(
    `SELECT coalesce(c.base_status, r.base_status) AS base_status, coalesce(c.n, 0)::integer AS counted, coalesce(r.n, 0)::integer AS rows
       FROM (SELECT base_status, sum(n) AS n FROM device_counts GROUP BY 1 HAVING sum(n) <> 0) c
       FULL JOIN (SELECT base_status, count(*) AS n FROM devices WHERE deleted_at IS NULL GROUP BY 1) r ON r.base_status = c.base_status
      WHERE c.n IS DISTINCT FROM r.n
      ORDER BY 1`,
  );
  return res.rows.map((r) => ({ baseStatus: r.base_status, counted: r.counted, rows: r.rows }));
}

/**
 * After a seed, what autovacuum would do some time later, at once: the counters (a few thousand
 * rows, each updated by every batch inside the seed's one transaction, so each left as many dead
 * versions as there were batches: activity_hourly grew to 44 MB for 4,000 rows and the 30-day
 * read of the dashboard took 12–35 ms instead of 1) are rewritten, and the fleet's tables get
 * their statistics and visibility map (index-only scans skip the rows).
 */
export async function settleAfterSeed(db: Db): Promise<void> {
  await db.exec('VACUUM FULL activity_hourly, device_fact_counts, device_counts, pending_command_counts, released_hourly');
  await db.exec('VACUUM ANALYZE');
}
