import type { Device, DeviceBody, DeviceFilter } from '../../shared/contracts/devices';
import { DEVICE_STATUS, findStatusFilter, type DeviceStatusCode } from '../../shared/constants/domain';
import { OFFLINE_OVERLAID, statusSql } from '../../shared/deviceStatus';
import type { Queryable } from '../db/Db';
import type { ExportRecord } from './deviceCsv';
import { exportLineSql, instantSql, zoneJoinSql } from './deviceExportSql';
import type { BulkSelection } from '../../shared/contracts/jobs';
import type { LockType } from '../../shared/constants/domain';
import type { MachineFacts } from '../../shared/deviceStateMachine';
import {
  DEVICE_COLUMNS,
  DEVICE_JOINS,
  DEVICE_ROW_COLUMNS,
  SqlWhere,
  deviceRow,
  deviceWhere,
  inFlightHalves,
  inFlightSql,
  machineFactsOf,
  toDevice,
  type DeviceRow,
  type ListedDeviceRow,
} from './deviceQueries';
import type { DeviceSort } from '../../shared/constants/limits';

/**
 * The ORDER BY of each sort, id last as the tie-breaker, every key in the same direction so
 * the index of the sort (alone or after the filtered column, migrations 0006 and 0007) is read
 * in order.
 */
const SORT_KEYS: Record<DeviceSort, readonly string[]> = {
  createdAt: ['d.created_at'],
  imei: ['d.imei'],
  lastSeenAt: ['d.last_seen_at'],
};

/** Every column a sort reads (the gathered matches carry them). */
const SORT_COLUMNS = [...new Set(Object.values(SORT_KEYS).flat())].join(', ');

/**
 * The ORDER BY a page is shown in. Devices never seen come last in both orders: *Última conexión*
 * descending lists the latest first, not the devices that never connected (NULLS LAST is
 * PostgreSQL's default ascending only).
 */
export const orderBy = (sort: DeviceSort, order: 'asc' | 'desc'): string =>
  sort === 'lastSeenAt' && order === 'desc' ? 'd.last_seen_at DESC NULLS LAST, d.id DESC' : indexOrder(sort, order);

/**
 * The ORDER BY an index of the sort gives read forward or backward (NULLS FIRST descending): what
 * each half of the list asks, a half that holds no NULL being in the page's order already.
 */
const indexOrder = (sort: DeviceSort, order: 'asc' | 'desc'): string => {
  const dir = order === 'asc' ? 'ASC' : 'DESC';
  return [...SORT_KEYS[sort], 'd.id'].map((k) => `${k} ${dir}`).join(', ');
};

/**
 * The halves of the list read for `sort` and `order`: descending by last connection, each half
 * again split into the devices seen and those never seen (`last_seen_at IS NULL`, a range of the
 * same index), so that each is read in the index's order and the merge puts the second last.
 */
function nullsLastHalves(halves: readonly string[], sort: DeviceSort, order: 'asc' | 'desc'): string[] {
  if (sort !== 'lastSeenAt' || order !== 'desc') return [...halves];
  return halves.flatMap((h) => [`${h} AND d.last_seen_at IS NOT NULL`, `${h} AND d.last_seen_at IS NULL`]);
}

/**
 * The device_counts condition equal to `filter`, when the counters can answer it: no search, no
 * agent version (the counters do not keep it), and no status whose membership depends on the
 * clock (the offline overlay).
 */
export function countersWhere(filter: DeviceFilter): SqlWhere | undefined {
  // The locked filter depends on the clock too (a locked device offline shows *Sin conexión*).
  if (
    filter.search !== undefined ||
    filter.agentVersion !== undefined ||
    filter.agentVersionNot !== undefined ||
    filter.releasedFrom !== undefined ||
    filter.locked !== undefined
  ) {
    return undefined;
  }
  const w = new SqlWhere();
  if (filter.stage === 'enrolled') w.add(`base_status <> ${DEVICE_STATUS.PRE_ENROLLED}`);
  else if (filter.stage === 'preEnrolled') w.add(`base_status = ${DEVICE_STATUS.PRE_ENROLLED}`);
  if (filter.status !== undefined) {
    const entry = findStatusFilter(filter.status);
    if (!entry) return undefined;
    if (entry.status === DEVICE_STATUS.sin_conexion || OFFLINE_OVERLAID.includes(entry.status as DeviceStatusCode)) return undefined;
    w.add(`base_status = ${w.param(entry.status)}`);
    if (entry.lockType) w.add(`lock_type = ${w.param(entry.lockType)}`);
  }
  if (filter.deviceType !== undefined) w.add(`device_type = ${w.param(filter.deviceType)}`);
  if (filter.groupId === 'none') w.add('group_id = 0');
  else if (filter.groupId !== undefined) w.add(`group_id = ${w.param(filter.groupId)}`);
  if (filter.inFlight !== undefined) w.add(inFlightSql(filter.inFlight, 'base_status'));
  return w;
}

/** The registry fields of a body as SQL parameters, in REGISTRY_COLUMNS order. */
const REGISTRY_COLUMNS = ['imei', 'imei2', 'serial', 'device_type', 'brand', 'model', 'group_id', 'customer_name', 'credit_reference'] as const;
const registryValues = (b: DeviceBody): unknown[] => [
  b.imei,
  b.imei2,
  b.serial,
  b.deviceType,
  b.brand,
  b.model,
  b.groupId,
  b.customerName,
  b.creditReference,
];

/** Where a device can be found for an edit (live only), with the facts the rules need. */
export interface DeviceForEdit {
  device: Device;
  baseStatus: number;
}

/** The state machine's facts of a device row. */
export const factsOf = (r: DeviceRow): MachineFacts => machineFactsOf(r);

/** What the bulk rules need of a device, computed in SQL (derived status with the offline overlay). */
export interface DeviceRuleRow {
  id: number;
  status: number;
  lock_type: LockType | null;
  pending_action: number | null;
  deleted: boolean;
}

/** Matched devices per (derived status, lock type, command in flight): the bulk dry run's input. */
export interface SelectionGroup {
  status: number;
  lock_type: LockType | null;
  pending_action: number | null;
  n: number;
  /** Of them, not seen since the offline cutoff. */
  offline: number;
}

/** The live devices of a bulk selection (ids, or the list filter), on the alias `d`. */
export function selectionWhere(selection: BulkSelection, cutoff: Date): SqlWhere {
  if (selection.ids) {
    const where = new SqlWhere();
    return where.add('d.deleted_at IS NULL').add(`d.id = ANY(${where.param(selection.ids)}::bigint[])`);
  }
  return deviceWhere(selection.filter ?? {}, cutoff);
}

/** A check-in's read: the hash of its device token and its instant. */
export interface CheckinKey {
  hash: Buffer;
  now: Date;
}

/** The check-in's one read: the device behind a token, its settings version and whether a command awaits it. */
export interface CheckinRow extends DeviceRow {
  settings_version: number;
  has_commands: boolean;
  /** The point of the public key the token's agent signs with (null: a token from before signatures). */
  public_key: Buffer | null;
}

const SETTINGS_VERSION = `(SELECT coalesce(max(s.version), 0) FROM agent_settings s
   WHERE s.device_type = d.device_type AND (s.group_id IS NULL OR s.group_id = d.group_id))`;

/** The sizes of the check-in read's statement; the largest is the most check-ins one statement reads. */
const CHECKIN_READ_SIZES = [1, 2, 4, 8, 16, 32] as const;
export const CHECKIN_READ_BATCH: number = CHECKIN_READ_SIZES[CHECKIN_READ_SIZES.length - 1]!;

/** The check-in read of `size` keys: ($1 hash, $2 instant), ($3, $4) … numbered k = 1 … size. */
const checkinRead = (size: number) =>
  `SELECT k.k, ${DEVICE_ROW_COLUMNS}, t.public_key, ${SETTINGS_VERSION} AS settings_version,
          EXISTS (SELECT 1 FROM device_commands c WHERE c.device_id = d.id AND c.status = 'pending' AND c.deliver_after <= k.now) AS has_commands
     FROM (VALUES ${Array.from({ length: size }, (_, i) => `($${2 * i + 1}::bytea, $${2 * i + 2}::timestamptz, ${i + 1})`).join(', ')}) AS k(hash, now, k)
     JOIN agent_tokens t ON t.token_hash = k.hash
     JOIN devices d ON d.id = t.device_id
    WHERE t.revoked_at IS NULL AND d.deleted_at IS NULL`;
const CHECKIN_READS = new Map(CHECKIN_READ_SIZES.map((n) => [n, checkinRead(n)]));

/** What a check-in or an event reports of the device, written with its facts. */
export interface Reported {
  lastSeenAt: Date;
  osVersion?: string | null;
  agentVersion?: string | null;
  sim?: { iccid: string; carrier: string | null } | null;
  batteryLevel?: number;
  agentLockState?: 'locked' | 'unlocked';
}

/**
 * All SQL of `devices`: the registry (register, edit, list, search, export), a device locked for
 * an action, the bulk selections and batches, and the agent's side (the check-in read, the facts
 * the state machine writes, what check-ins report, enrollment, the offline secret, the server's
 * clock). One row type, `DeviceRow` (deviceQueries.ts). What a write also does in the database
 * (counters, NOTIFY, the webhook outbox, the search tables) is in docs/architecture.md, section
 * "Side effects kept in database triggers".
 */
export class DeviceRepository {
  constructor(private readonly db: Queryable) {}

  /**
   * One page of the filtered list, read in the order of the sort's index (listGathered for few
   * matches); a filter read in two halves (inFlightHalves) takes the first offset + limit keys of
   * each, in order, and pages their merge.
   */
  async list(filter: DeviceFilter, cutoff: Date, sort: DeviceSort, order: 'asc' | 'desc', limit: number, offset: number): Promise<Device[]> {
    const w = deviceWhere(filter, cutoff);
    const halves = nullsLastHalves(inFlightHalves(filter, w), sort, order);
    // The page's keys first, then its rows: the rows the offset skips are read from the index of
    // the sort and filter alone (an index-only scan when it holds every column the filter reads),
    // and only the page's rows are fetched and joined. The IMEI sort pages by the IMEI alone,
    // unique among live devices (its indexes do not hold the id).
    const key = sort === 'imei' ? 'imei' : 'id';
    const keyOrder = sort === 'imei' ? `d.imei ${order === 'asc' ? 'ASC' : 'DESC'}` : indexOrder(sort, order);
    const keyColumns = sort === 'imei' ? 'd.imei' : `${SORT_KEYS[sort].join(', ')}, d.id`;
    const page = `LIMIT ${w.param(limit)} OFFSET ${w.param(offset)}`;
    let keys = `SELECT d.${key} FROM devices d ${halves[0]} ORDER BY ${keyOrder} ${page}`;
    if (halves.length > 1) {
      const reach = w.param(offset + limit);
      const parts = halves.map((half) => `(SELECT ${keyColumns} FROM devices d ${half} ORDER BY ${keyOrder} LIMIT ${reach})`);
      const mergeOrder = sort === 'imei' ? keyOrder : orderBy(sort, order);
      keys = `SELECT d.${key} FROM (${parts.join(' UNION ALL ')}) d ORDER BY ${mergeOrder} ${page}`;
    }
    const res = await this.db.query<ListedDeviceRow>(
      `SELECT ${DEVICE_COLUMNS}
         FROM (${keys}) p
         JOIN devices d ON d.${key} = p.${key}${key === 'imei' ? ' AND d.deleted_at IS NULL' : ''} ${DEVICE_JOINS}
        ORDER BY ${orderBy(sort, order)}`,
      w.params,
    );
    return res.rows.map((r) => toDevice(r, cutoff));
  }

  /**
   * One page of the filtered list from its matches gathered first (through the indexes of the
   * filter, the search's word index for a text search) and sorted, instead of reading the sort's
   * index until the page is full, which the planner prefers even when few devices match
   * (DevicesService.list decides). `matches`: how many devices matched, exact (the gathered set
   * is all of them); unknown when the page is past the last match.
   */
  async listGathered(
    filter: DeviceFilter,
    cutoff: Date,
    sort: DeviceSort,
    order: 'asc' | 'desc',
    limit: number,
    offset: number,
  ): Promise<{ data: Device[]; matches: number | undefined }> {
    const w = deviceWhere(filter, cutoff);
    const res = await this.db.query<ListedDeviceRow & { matches: string | number }>(
      `WITH m AS MATERIALIZED (SELECT d.id, ${SORT_COLUMNS} FROM devices d ${w}),
            p AS (SELECT d.id FROM m d ORDER BY ${orderBy(sort, order)} LIMIT ${w.param(limit)} OFFSET ${w.param(offset)})
       SELECT ${DEVICE_COLUMNS}, (SELECT count(*) FROM m) AS matches FROM p JOIN devices d ON d.id = p.id ${DEVICE_JOINS}
        ORDER BY ${orderBy(sort, order)}`,
      w.params,
    );
    return { data: res.rows.map((r) => toDevice(r, cutoff)), matches: res.rows[0] === undefined ? undefined : Number(res.rows[0].matches) };
  }

  /**
   * One page, newest or oldest first, of a search of KEY_PREFIX_DIGITS digits that only the stage
   * also filters (keyPrefixOf), from device_key_prefixes (migration 0020): the prefix's devices
   * read in the order of the registration until the page is full, and how many there are (an
   * index-only count). Only live devices have rows there.
   */
  async listByKeyPrefix(
    stage: DeviceFilter['stage'],
    prefix: string,
    cutoff: Date,
    order: 'asc' | 'desc',
    limit: number,
    offset: number,
  ): Promise<{ data: Device[]; matches: number }> {
    const w = new SqlWhere();
    w.add(`k.prefix = ${w.param(prefix)}`);
    if (stage === 'enrolled') w.add('NOT k.pre_enrolled');
    else if (stage === 'preEnrolled') w.add('k.pre_enrolled');
    const dir = order === 'asc' ? 'ASC' : 'DESC';
    const [page, count] = await Promise.all([
      this.db.query<ListedDeviceRow>(
        `SELECT ${DEVICE_COLUMNS}
           FROM (SELECT k.device_id FROM device_key_prefixes k ${w} ORDER BY k.created_at ${dir}, k.device_id ${dir}
                  LIMIT ${w.param(limit)} OFFSET ${w.param(offset)}) p
           JOIN devices d ON d.id = p.device_id ${DEVICE_JOINS}
          ORDER BY ${orderBy('createdAt', order)}`,
        w.params,
      ),
      this.db.query<{ n: string | number }>(`SELECT count(*) AS n FROM device_key_prefixes k ${w}`, w.params.slice(0, 1)),
    ]);
    return { data: page.rows.map((r) => toDevice(r, cutoff)), matches: Number(count.rows[0]!.n) };
  }

  /** The number of matching devices, counting no further than `cap` (then `cap` is answered); per half (inFlightHalves). */
  async countUpTo(filter: DeviceFilter, cutoff: Date, cap: number): Promise<number> {
    const w = deviceWhere(filter, cutoff);
    const halves = inFlightHalves(filter, w);
    const limit = w.param(cap);
    const counts = halves.map((half) => `(SELECT count(*) FROM (SELECT 1 FROM devices d ${half} LIMIT ${limit}) s)`);
    const res = await this.db.query<{ n: string | number }>(`SELECT ${counts.join(' + ')} AS n`, w.params);
    return Math.min(cap, Number(res.rows[0]!.n));
  }

  /** The exact total from the maintained counters, when they can answer the filter. */
  async countFromCounters(filter: DeviceFilter): Promise<number | undefined> {
    const w = countersWhere(filter);
    if (!w) return undefined;
    const res = await this.db.query<{ n: number | null }>(`SELECT sum(n)::bigint AS n FROM device_counts ${w}`, w.params);
    return Number(res.rows[0]!.n ?? 0);
  }

  /** The planner's estimate of the matching rows. */
  async estimate(filter: DeviceFilter, cutoff: Date): Promise<number> {
    const w = deviceWhere(filter, cutoff);
    const res = await this.db.query<Record<string, unknown>>(`EXPLAIN (FORMAT JSON) SELECT 1 FROM devices d ${w}`, w.params);
    const raw = Object.values(res.rows[0] ?? {})[0];
    const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan?: { 'Plan Rows'?: number } }[];
    return Number(plan[0]?.Plan?.['Plan Rows'] ?? 0);
  }

  /** A live device (deleted ones are not found). */
  async find(id: number, cutoff: Date): Promise<Device | undefined> {
    const res = await this.db.query<ListedDeviceRow>(
      `SELECT ${DEVICE_COLUMNS} FROM devices d ${DEVICE_JOINS} WHERE d.id = $1 AND d.deleted_at IS NULL`,
      [id],
    );
    return res.rows[0] && toDevice(res.rows[0], cutoff);
  }

  /** Live devices by IMEI, in the order of `imeis` (the ones not found left out). */
  async findByImeis(imeis: readonly string[], cutoff: Date): Promise<Device[]> {
    const res = await this.db.query<ListedDeviceRow>(
      `SELECT ${DEVICE_COLUMNS} FROM devices d ${DEVICE_JOINS} WHERE d.imei = ANY($1::text[]) AND d.deleted_at IS NULL`,
      [[...imeis]],
    );
    const byImei = new Map(res.rows.map((r) => [r.imei, toDevice(r, cutoff)]));
    return imeis.flatMap((i) => (byImei.has(i) ? [byImei.get(i)!] : []));
  }

  /**
   * The rows of the live devices carrying each reference (ignoring case), up to `limit` each, in
   * id order: what the collection policy acts on, for a batch of credits in one statement.
   */
  async rowsByCreditReferences(references: readonly string[], limit: number): Promise<Map<string, ListedDeviceRow[]>> {
    const refs = [...new Set(references)];
    const out = new Map<string, ListedDeviceRow[]>(refs.map((k) => [k, []]));
    if (refs.length === 0) return out;
    const res = await this.db.query<ListedDeviceRow & { ref_key: string }>(
      `SELECT x.* FROM unnest($1::text[]) AS k(ref) CROSS JOIN LATERAL (
         SELECT ${DEVICE_COLUMNS}, k.ref AS ref_key FROM devices d ${DEVICE_JOINS}
          WHERE lower(d.credit_reference) = lower(k.ref) AND d.deleted_at IS NULL ORDER BY d.id LIMIT $2) AS x`,
      [refs, limit],
    );
    for (const { ref_key, ...r } of res.rows) out.get(ref_key)!.push(deviceRow(r as ListedDeviceRow));
    return out;
  }

  /** The rows of the live devices carrying a reference (ignoring case), in id order: what the collection policy acts on. */
  async rowsByCreditReference(reference: string, limit: number): Promise<ListedDeviceRow[]> {
    return (await this.rowsByCreditReferences([reference], limit)).get(reference)!;
  }

  /**
   * Live devices named by IMEI (either of a device's two) or by credit reference (ignoring
   * case), up to `limit`, oldest first: how the integration API finds a lender's device.
   */
  async idsByReference(by: 'imei' | 'creditReference', values: readonly string[], limit: number): Promise<{ id: number; ref: string }[]> {
    const sql =
      by === 'imei'
        ? `SELECT id, imei AS ref FROM devices WHERE deleted_at IS NULL AND imei = ANY($1::text[])
           UNION ALL
           SELECT id, imei2 FROM devices WHERE deleted_at IS NULL AND imei2 = ANY($1::text[]) AND imei <> ALL($1::text[])
           ORDER BY id LIMIT $2`
        : `SELECT id, lower(credit_reference) AS ref FROM devices WHERE deleted_at IS NULL AND lower(credit_reference) = ANY($1::text[])
           ORDER BY id LIMIT $2`;
    const res = await this.db.query<{ id: number; ref: string }>(sql, [by === 'imei' ? [...values] : values.map((v) => v.toLowerCase()), limit]);
    return res.rows.map((r) => ({ id: Number(r.id), ref: r.ref }));
  }

  /** Live devices carrying a credit reference (ignoring case), oldest first, up to `limit`: the devices of a credit. */
  async findByCreditReference(reference: string, cutoff: Date, limit: number): Promise<Device[]> {
    const res = await this.db.query<ListedDeviceRow>(
      `SELECT ${DEVICE_COLUMNS} FROM devices d ${DEVICE_JOINS}
        WHERE lower(d.credit_reference) = lower($1) AND d.deleted_at IS NULL ORDER BY d.id LIMIT $2`,
      [reference, limit],
    );
    return res.rows.map((r) => toDevice(r, cutoff));
  }

  /**
   * Live devices named by IMEI (either of a device's two), their rows locked until the
   * transaction ends, with the credit reference each carries: a credit's devices being assigned.
   */
  async lockByImeis(imeis: readonly string[]): Promise<{ id: number; imei: string; imei2: string | null; creditReference: string | null }[]> {
    const res = await this.db.query<{ id: number; imei: string; imei2: string | null; credit_reference: string | null }>(
      `SELECT id, imei, imei2, credit_reference FROM devices
        WHERE deleted_at IS NULL AND (imei = ANY($1::text[]) OR imei2 = ANY($1::text[])) ORDER BY id FOR UPDATE`,
      [[...imeis]],
    );
    return res.rows.map((r) => ({ id: Number(r.id), imei: r.imei, imei2: r.imei2, creditReference: r.credit_reference }));
  }

  /** Gives devices a credit reference (their search text follows, migration 0016). */
  async setCreditReference(ids: readonly number[], reference: string): Promise<void> {
    await this.db.query('UPDATE devices SET credit_reference = $2, updated_at = now() WHERE id = ANY($1::bigint[]) AND deleted_at IS NULL', [
      [...ids],
      reference,
    ]);
  }

  /** A live device, its row locked until the transaction ends, with its stored base status. */
  async findForEdit(id: number, cutoff: Date): Promise<DeviceForEdit | undefined> {
    const locked = await this.db.query<{ id: number }>('SELECT id FROM devices WHERE id = $1 AND deleted_at IS NULL FOR UPDATE', [id]);
    if (locked.rowCount === 0) return undefined;
    const res = await this.db.query<ListedDeviceRow>(`SELECT ${DEVICE_COLUMNS} FROM devices d ${DEVICE_JOINS} WHERE d.id = $1`, [id]);
    const row = res.rows[0]!;
    return { device: toDevice(row, cutoff), baseStatus: row.base_status };
  }

  /** Whether a live device other than `exceptId` has this IMEI. */
  async imeiTaken(imei: string, exceptId?: number): Promise<boolean> {
    const res = await this.db.query('SELECT 1 FROM devices WHERE imei = $1 AND deleted_at IS NULL AND id <> $2', [imei, exceptId ?? 0]);
    return res.rowCount > 0;
  }

  /** Which of these IMEIs live devices already have (one query). */
  async takenImeis(imeis: readonly string[]): Promise<Set<string>> {
    if (imeis.length === 0) return new Set();
    const res = await this.db.query<{ imei: string }>('SELECT imei FROM devices WHERE imei = ANY($1::text[]) AND deleted_at IS NULL', [[...imeis]]);
    return new Set(res.rows.map((r) => r.imei));
  }

  async groupExists(id: number): Promise<boolean> {
    const res = await this.db.query('SELECT 1 FROM device_groups WHERE id = $1', [id]);
    return res.rowCount > 0;
  }

  /** Group ids by lower-cased name (CSV import). */
  async groupsByName(): Promise<Map<string, number>> {
    const res = await this.db.query<{ id: number; name: string }>('SELECT id, name FROM device_groups');
    return new Map(res.rows.map((r) => [r.name.toLowerCase(), r.id]));
  }

  /** Registers one device, pre-enrolled, with its offline-code secret. */
  async insert(body: DeviceBody, secret: Buffer): Promise<number> {
    const values = registryValues(body);
    const res = await this.db.query<{ id: number }>(
      `INSERT INTO devices (${REGISTRY_COLUMNS.join(', ')}, lifecycle, secret)
       VALUES (${values.map((_, i) => `$${i + 1}`).join(', ')}, 'pre_enrolled', $${values.length + 1}) RETURNING id`,
      [...values, secret],
    );
    return Number(res.rows[0]!.id);
  }

  /**
   * Registers many devices in one statement (arrays unnested: one round trip, one trigger run).
   * `secrets` holds 32 bytes per device, in order.
   */
  async insertMany(bodies: readonly DeviceBody[], secrets: Buffer): Promise<number> {
    if (bodies.length === 0) return 0;
    const col = <T>(f: (b: DeviceBody) => T) => bodies.map(f);
    const res = await this.db.query(
      `INSERT INTO devices (${REGISTRY_COLUMNS.join(', ')}, lifecycle, secret)
       SELECT u.imei, u.imei2, u.serial, u.device_type::smallint, u.brand, u.model, u.group_id::integer, u.customer_name,
              u.credit_reference, 'pre_enrolled', substring($10::bytea FROM (u.n::integer - 1) * 32 + 1 FOR 32)
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[])
              WITH ORDINALITY AS u(imei, imei2, serial, device_type, brand, model, group_id, customer_name, credit_reference, n)
        ORDER BY u.n`,
      [
        col((b) => b.imei),
        col((b) => b.imei2),
        col((b) => b.serial),
        col((b) => String(b.deviceType)),
        col((b) => b.brand),
        col((b) => b.model),
        col((b) => (b.groupId === null ? null : String(b.groupId))),
        col((b) => b.customerName),
        col((b) => b.creditReference),
        secrets,
      ],
    );
    return res.rowCount;
  }

  /** Writes the registry fields of a device. */
  async update(id: number, body: DeviceBody): Promise<void> {
    const values = registryValues(body);
    await this.db.query(`UPDATE devices SET ${REGISTRY_COLUMNS.map((c, i) => `${c} = $${i + 2}`).join(', ')}, updated_at = now() WHERE id = $1`, [
      id,
      ...values,
    ]);
  }

  /**
   * The export columns of the matching devices with an id above `afterId`, in id order (keyset
   * iteration). The batch travels as one JSON array, parsed natively: per-cell driver parsing of
   * 5,000 rows was most of the export's cost. Dates are ISO 8601 UTC (as `toISOString`), the
   * status is the derived one at `cutoff`.
   */
  async exportBatch(filter: DeviceFilter, cutoff: Date, afterId: number, limit: number): Promise<ExportRecord[]> {
    const w = deviceWhere(filter, cutoff);
    w.add(`d.id > ${w.param(afterId)}`);
    const iso = (col: string) => `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
    const res = await this.db.query<{ rows: string | null }>(
      `SELECT json_agg(json_build_array(d.id, d.imei, d.imei2, d.serial, d.device_type, d.brand, d.model,
                ${statusSql(w.param(cutoff), 'd')}, d.lock_type, g.name, d.customer_name, d.credit_reference,
                ${iso('d.last_seen_at')}, d.agent_version, ${iso('d.enrolled_at')}, ${iso('d.created_at')}) ORDER BY d.id)::text AS rows
         FROM (SELECT * FROM devices d ${w} ORDER BY d.id LIMIT ${w.param(limit)}) d
         LEFT JOIN device_groups g ON g.id = d.group_id`,
      w.params,
    );
    const rows = res.rows[0]?.rows;
    return rows ? (JSON.parse(rows) as ExportRecord[]) : [];
  }

  /**
   * The export lines (exportLineSql, CRLF after each) of the matching devices with an id above
   * `afterId`, in id order (keyset iteration), as one text: the database writes the CSV, Node
   * only sends it. `tz`: the zone of the dates (UTC without one). `count` < `limit`: the last batch.
   */
  async exportCsvBatch(
    filter: DeviceFilter,
    cutoff: Date,
    afterId: number,
    limit: number,
    tz?: string,
  ): Promise<{ csv: string; lastId: number; count: number }> {
    const w = deviceWhere(filter, cutoff);
    w.add(`d.id > ${w.param(afterId)}`);
    const { line, join } = exportLineSql(w, w.param(cutoff), tz === undefined ? undefined : `${w.param(tz)}::text`);
    const res = await this.db.query<{ csv: string | null; last: string | number | null; n: string | number }>(
      `SELECT string_agg(s.line, E'\\r\\n' ORDER BY s.id) AS csv, max(s.id) AS last, count(*) AS n
         FROM (SELECT d.id, ${line} AS line
                 FROM (SELECT * FROM devices d ${w} ORDER BY d.id LIMIT ${w.param(limit)}) d
                 LEFT JOIN device_groups g ON g.id = d.group_id ${join}) s`,
      w.params,
    );
    const row = res.rows[0]!;
    const count = Number(row.n);
    return { csv: count > 0 ? `${row.csv}\r\n` : '', lastId: Number(row.last ?? afterId), count };
  }

  /**
   * These instants as the export writes them in the zone `tz` (instantSql), or undefined when the
   * database does not know the zone.
   */
  async instantsIn(tz: string, instants: readonly Date[]): Promise<string[] | undefined> {
    try {
      const res = await this.db.query<{ at: string }>(
        `SELECT ${instantSql('u.at', 0)} AS at FROM unnest($1::timestamptz[]) WITH ORDINALITY AS u(at, n) ${zoneJoinSql(['u.at'], '$2::text')}
          ORDER BY u.n`,
        [instants.map((d) => d.toISOString()), tz],
      );
      return res.rows.map((r) => r.at);
    } catch {
      return undefined;
    }
  }

  // Groups ---------------------------------------------------------------------------------

  /** Moves every device of the group (deleted ones too) to another group; returns the live ones moved. */
  async moveGroup(from: number, to: number): Promise<number> {
    const res = await this.db.query<{ n: number }>(
      `WITH moved AS (
         UPDATE devices SET group_id = $2, updated_at = CASE WHEN deleted_at IS NULL THEN now() ELSE updated_at END
          WHERE group_id = $1 RETURNING deleted_at IS NULL AS live)
       SELECT count(*) FILTER (WHERE live) AS n FROM moved`,
      [from, to],
    );
    return Number(res.rows[0]!.n);
  }

  /** Deleted devices keep their history but let go of the group. */
  async ungroupDeleted(id: number): Promise<void> {
    await this.db.query('UPDATE devices SET group_id = NULL WHERE group_id = $1 AND deleted_at IS NOT NULL', [id]);
  }

  // Device actions ---------------------------------------------------------------------------

  /** The device row (deleted or not) locked until the end of the transaction. */
  async lockForAction(id: number): Promise<ListedDeviceRow | undefined> {
    return (await this.lockForActions([id]))[0];
  }

  /** Device rows (deleted or not) locked in id order until the end of the transaction (no deadlock between batches). */
  async lockForActions(ids: readonly number[]): Promise<ListedDeviceRow[]> {
    const res = await this.db.query<ListedDeviceRow>(
      `SELECT ${DEVICE_COLUMNS} FROM devices d ${DEVICE_JOINS} WHERE d.id = ANY($1::bigint[]) ORDER BY d.id FOR UPDATE OF d`,
      [[...ids]],
    );
    return res.rows.map(deviceRow);
  }

  /** The device row as the API answers it (live devices only). */
  async findRow(id: number): Promise<ListedDeviceRow | undefined> {
    const res = await this.db.query<ListedDeviceRow>(
      `SELECT ${DEVICE_COLUMNS} FROM devices d ${DEVICE_JOINS} WHERE d.id = $1 AND d.deleted_at IS NULL`,
      [id],
    );
    const row = res.rows[0];
    return row && deviceRow(row);
  }

  /** Whether a device with this id was ever registered (deleted ones included). */
  async deviceExists(id: number): Promise<boolean> {
    const res = await this.db.query('SELECT 1 FROM devices WHERE id = $1', [id]);
    return res.rows.length > 0;
  }

  /** The device now waits for this stateful command. */
  async setPending(deviceId: number, commandId: number, action: number, until: Date | null, now: Date): Promise<void> {
    await this.db.query('UPDATE devices SET pending_command_id = $2, pending_action = $3, pending_until = $4, updated_at = $5 WHERE id = $1', [
      deviceId,
      commandId,
      action,
      until,
      now,
    ]);
  }

  /** Puts a device on administrative hold (SUSPENDED) or ends it: the lifecycle and the one to return to. */
  async setHold(deviceId: number, lifecycle: string, heldLifecycle: string | null, now: Date): Promise<void> {
    await this.db.query('UPDATE devices SET lifecycle = $2, held_lifecycle = $3, updated_at = $4 WHERE id = $1', [
      deviceId,
      lifecycle,
      heldLifecycle,
      now,
    ]);
  }

  async clearPending(deviceId: number, now: Date): Promise<void> {
    await this.db.query('UPDATE devices SET pending_command_id = NULL, pending_action = NULL, pending_until = NULL, updated_at = $2 WHERE id = $1', [
      deviceId,
      now,
    ]);
  }

  /** One more offline code for the device: its nonce. */
  async nextOfflineNonce(deviceId: number, now: Date): Promise<{ nonce: number; secret: Uint8Array }> {
    const res = await this.db.query<{ offline_counter: number; secret: Uint8Array }>(
      'UPDATE devices SET offline_counter = offline_counter + 1, updated_at = $2 WHERE id = $1 RETURNING offline_counter, secret',
      [deviceId, now],
    );
    const row = res.rows[0]!;
    return { nonce: row.offline_counter, secret: row.secret };
  }

  /** Soft delete (its commands and its agent's tokens are the other repositories'). */
  async softDelete(deviceIds: readonly number[], now: Date): Promise<void> {
    await this.db.query('UPDATE devices SET deleted_at = $2, updated_at = $2 WHERE id = ANY($1::bigint[]) AND deleted_at IS NULL', [deviceIds, now]);
  }

  // Bulk actions -----------------------------------------------------------------------------

  /** The matched devices grouped by what the rules look at (one row per combination, set-based). */
  async selectionGroups(selection: BulkSelection, cutoff: Date): Promise<SelectionGroup[]> {
    const where = selectionWhere(selection, cutoff);
    const c = where.param(cutoff);
    const res = await this.db.query<SelectionGroup>(
      `SELECT ${statusSql(`${c}::timestamptz`, 'd')} AS status, d.lock_type, d.pending_action, count(*) AS n,
              count(*) FILTER (WHERE d.last_seen_at < ${c}::timestamptz) AS offline
         FROM devices d ${where}
        GROUP BY 1, 2, 3`,
      where.params,
    );
    return res.rows.map((r) => ({ ...r, status: Number(r.status), n: Number(r.n), offline: Number(r.offline) }));
  }

  /** The matched devices in id order, at most `limit` (one more than allowed tells "too many"). */
  async selectionDevices(selection: BulkSelection, cutoff: Date, limit: number): Promise<DeviceRuleRow[]> {
    const where = selectionWhere(selection, cutoff);
    const c = where.param(cutoff);
    const l = where.param(limit);
    const res = await this.db.query<DeviceRuleRow>(
      `SELECT d.id, ${statusSql(`${c}::timestamptz`, 'd')} AS status, d.lock_type, d.pending_action, false AS deleted
         FROM devices d ${where} ORDER BY d.id LIMIT ${l}`,
      where.params,
    );
    return res.rows.map((r) => ({ ...r, id: Number(r.id), status: Number(r.status) }));
  }

  /** A batch's devices locked in id order (no deadlock between batches), with what the rules need. */
  async lockBatch(ids: readonly number[], cutoff: Date): Promise<DeviceRuleRow[]> {
    const res = await this.db.query<DeviceRuleRow>(
      `SELECT d.id, ${statusSql('$2::timestamptz', 'd')} AS status, d.lock_type, d.pending_action, d.deleted_at IS NOT NULL AS deleted
         FROM devices d WHERE d.id = ANY($1::bigint[]) ORDER BY d.id FOR UPDATE`,
      [ids, cutoff],
    );
    return res.rows.map((r) => ({ ...r, id: Number(r.id), status: Number(r.status) }));
  }

  /** Each device now waits for its own new stateful command, set-based. */
  async setPendingEach(pending: readonly { deviceId: number; commandId: number; action: number; until: Date | null }[], now: Date): Promise<void> {
    if (pending.length === 0) return;
    await this.db.query(
      `UPDATE devices d SET pending_command_id = p.command_id, pending_action = p.action, pending_until = p.until, updated_at = $5
         FROM unnest($1::bigint[], $2::bigint[], $3::smallint[], $4::timestamptz[]) AS p(device_id, command_id, action, until)
        WHERE d.id = p.device_id`,
      [pending.map((p) => p.deviceId), pending.map((p) => p.commandId), pending.map((p) => p.action), pending.map((p) => p.until), now],
    );
  }

  /** The devices now wait for their new stateful commands (one action), set-based. */
  async setPendingMany(commands: Map<number, number>, action: number, until: Date | null, now: Date): Promise<void> {
    await this.setPendingEach(
      [...commands].map(([deviceId, commandId]) => ({ deviceId, commandId, action, until })),
      now,
    );
  }

  // The agent --------------------------------------------------------------------------------

  /** The check-in's read: the live device behind a live token (one indexed lookup each). */
  async checkinByToken(hash: Buffer, now: Date): Promise<CheckinRow | undefined> {
    return (await this.checkinByTokens([{ hash, now }]))[0];
  }

  /**
   * The check-in's read of several check-ins at once (AgentService batches those that arrive
   * together): the answers in the order asked, each token read at its own instant. One statement
   * per CHECKIN_READ_BATCH keys, of a few fixed sizes (the keys padded with nulls, which match no
   * token): a VALUES list of n rows is estimated at n rows, so PostgreSQL keeps each size's
   * prepared generic plan (an array's unnest is estimated at 10 rows whatever it holds, and its
   * statement would be planned again at every call).
   */
  async checkinByTokens(keys: readonly CheckinKey[]): Promise<(CheckinRow | undefined)[]> {
    // Every slot set (DataLoader refuses an array whose last slot is a hole).
    const rows = new Array<CheckinRow | undefined>(keys.length).fill(undefined);
    for (let from = 0; from < keys.length; from += CHECKIN_READ_BATCH) {
      const chunk = keys.slice(from, from + CHECKIN_READ_BATCH);
      const size = CHECKIN_READ_SIZES.find((n) => n >= chunk.length)!;
      const params: unknown[] = [];
      for (let i = 0; i < size; i++) params.push(chunk[i]?.hash ?? null, chunk[i]?.now ?? null);
      const res = await this.db.query<CheckinRow & { k: number }>(CHECKIN_READS.get(size)!, params, { name: `agent_checkin_${size}` });
      for (const { k, ...row } of res.rows) rows[from + k - 1] = { ...row, id: Number(row.id), settings_version: Number(row.settings_version) };
    }
    return rows;
  }

  /** The device row locked until the end of the transaction (live devices only). */
  async lockLive(id: number): Promise<DeviceRow | undefined> {
    const res = await this.db.query<DeviceRow>(`SELECT ${DEVICE_ROW_COLUMNS} FROM devices d WHERE d.id = $1 AND d.deleted_at IS NULL FOR UPDATE`, [
      id,
    ]);
    const row = res.rows[0];
    return row && deviceRow(row);
  }

  /** The live device with this IMEI, locked. */
  async lockDeviceByImei(imei: string): Promise<DeviceRow | undefined> {
    const res = await this.db.query<DeviceRow>(`SELECT ${DEVICE_ROW_COLUMNS} FROM devices d WHERE d.imei = $1 AND d.deleted_at IS NULL FOR UPDATE`, [
      imei,
    ]);
    const row = res.rows[0];
    return row && deviceRow(row);
  }

  async secretOf(id: number): Promise<{ secret: Uint8Array; offlineCounter: number }> {
    const res = await this.db.query<{ secret: Uint8Array; offline_counter: number }>('SELECT secret, offline_counter FROM devices WHERE id = $1', [
      id,
    ]);
    return { secret: res.rows[0]!.secret, offlineCounter: res.rows[0]!.offline_counter };
  }

  /** Writes the machine's facts and what the agent reported (only the reported fields given). */
  async write(id: number, f: MachineFacts, now: Date, reported?: Reported): Promise<void> {
    const sets = [
      'lifecycle = $2',
      'lock_state = $3',
      'lock_type = $4',
      'lock_message = $5',
      'temporary_until = $6',
      'pending_command_id = $7',
      'pending_action = $8',
      'pending_until = $9',
      'failure_reason = $10',
      'held_lifecycle = $11',
      'updated_at = $12',
    ];
    const params: unknown[] = [
      id,
      f.lifecycle,
      f.lockState,
      f.lockType,
      f.lockMessage,
      f.temporaryUntil,
      f.pendingCommandId,
      f.pendingAction,
      f.pendingUntil,
      f.failureReason,
      f.heldLifecycle,
      now,
    ];
    if (reported) this.reportedSets(reported, sets, params);
    await this.db.query(`UPDATE devices SET ${sets.join(', ')} WHERE id = $1`, params);
  }

  /**
   * What check-ins reported when no fact moved, many devices in one statement (PresenceWriter).
   * Each field is written only where its device reported it (`shape`, a bit per field). A row
   * another transaction holds is skipped, never waited for (a bulk action may hold thousands, in
   * another order), and so is one whose stored last-seen time is later (a check-in that moved facts,
   * or another replica, wrote after this report). Returns the rows written.
   * `wait`: a held row is waited for instead, for the check-in of a device the portal shows Sin
   * conexión (one row: its status changes with that write, and a lone row lock cannot deadlock).
   */
  async refreshMany(reports: readonly (readonly [number, Reported])[], { wait = false }: { wait?: boolean } = {}): Promise<number> {
    const cols: unknown[][] = [[], [], [], [], [], [], [], [], []];
    for (const [id, r] of reports) {
      const shape =
        (r.osVersion !== undefined ? 1 : 0) |
        (r.agentVersion !== undefined ? 2 : 0) |
        (r.sim !== undefined ? 4 : 0) |
        (r.batteryLevel !== undefined ? 8 : 0) |
        (r.agentLockState !== undefined ? 16 : 0);
      const row = [
        id,
        r.lastSeenAt,
        shape,
        r.osVersion ?? null,
        r.agentVersion ?? null,
        r.sim?.iccid ?? null,
        r.sim?.carrier ?? null,
        r.batteryLevel ?? null,
        r.agentLockState ?? null,
      ];
      row.forEach((v, i) => cols[i]!.push(v));
    }
    const kept = (column: string, bit: number) => `${column} = CASE WHEN r.shape & ${bit} = 0 THEN d.${column} ELSE r.${column} END`;
    const res = await this.db.query(
      `WITH r AS (
         SELECT * FROM unnest($1::bigint[], $2::timestamptz[], $3::int[], $4::text[], $5::text[], $6::text[], $7::text[], $8::smallint[], $9::text[])
           AS r (id, seen, shape, os_version, agent_version, sim_iccid, sim_carrier, battery_level, agent_lock_state)
       ), free AS (
         SELECT d.id FROM devices d JOIN r ON r.id = d.id
          WHERE d.deleted_at IS NULL AND (d.last_seen_at IS NULL OR d.last_seen_at <= r.seen)
          ORDER BY d.id
            FOR UPDATE OF d${wait ? '' : ' SKIP LOCKED'}
       )
       UPDATE devices d
          SET last_seen_at = r.seen, ${kept('os_version', 1)}, ${kept('agent_version', 2)}, ${kept('sim_iccid', 4)}, ${kept('sim_carrier', 4)},
              ${kept('battery_level', 8)}, ${kept('agent_lock_state', 16)}
         FROM r JOIN free USING (id)
        WHERE d.id = r.id AND d.deleted_at IS NULL AND (d.last_seen_at IS NULL OR d.last_seen_at <= r.seen)`,
      cols,
      { name: wait ? 'agent_presence_wait' : 'agent_presence' },
    );
    return res.rowCount;
  }

  /** Adds the SET items of what was reported. */
  private reportedSets(reported: Reported, sets: string[], params: unknown[]): void {
    const set = (column: string, value: unknown) => {
      params.push(value);
      sets.push(`${column} = $${params.length}`);
    };
    set('last_seen_at', reported.lastSeenAt);
    if (reported.osVersion !== undefined) set('os_version', reported.osVersion);
    if (reported.agentVersion !== undefined) set('agent_version', reported.agentVersion);
    if (reported.sim !== undefined) {
      set('sim_iccid', reported.sim?.iccid ?? null);
      set('sim_carrier', reported.sim?.carrier ?? null);
    }
    if (reported.batteryLevel !== undefined) set('battery_level', reported.batteryLevel);
    if (reported.agentLockState !== undefined) set('agent_lock_state', reported.agentLockState);
  }

  /** What enrollment writes besides the facts: identity details the registry lacks, when, the group. */
  async writeEnrollment(
    id: number,
    e: { imei2: string | null; serial: string | null; brand: string | null; model: string | null; groupId: number | null; now: Date },
  ): Promise<void> {
    await this.db.query(
      `UPDATE devices SET imei2 = coalesce(imei2, $2), serial = coalesce(serial, $3), brand = coalesce(brand, $4), model = coalesce(model, $5),
              group_id = coalesce(group_id, $6), enrolled_at = coalesce(enrolled_at, $7)
        WHERE id = $1`,
      [id, e.imei2, e.serial, e.brand, e.model, e.groupId, e.now],
    );
  }

  /** A device nobody registered, created by its enrollment (allowed by its group's settings). */
  async insertEnrolled(d: {
    imei: string;
    imei2: string | null;
    serial: string | null;
    deviceType: number;
    brand: string | null;
    model: string | null;
    groupId: number;
    secret: Buffer;
    now: Date;
  }): Promise<DeviceRow> {
    const res = await this.db.query<{ id: number }>(
      `INSERT INTO devices (imei, imei2, serial, device_type, brand, model, group_id, secret, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9) RETURNING id`,
      [d.imei, d.imei2, d.serial, d.deviceType, d.brand, d.model, d.groupId, d.secret, d.now],
    );
    return (await this.lockLive(Number(res.rows[0]!.id)))!;
  }

  /** A new offline secret; returns the device's offline counter, after which the new secret's codes start. */
  async replaceSecret(deviceId: number, secret: Buffer): Promise<number> {
    const res = await this.db.query<{ offline_counter: number }>('UPDATE devices SET secret = $2 WHERE id = $1 RETURNING offline_counter', [
      deviceId,
      secret,
    ]);
    return Number(res.rows[0]!.offline_counter);
  }

  /** Devices whose temporary unlock has run out, locked for the sweep (other replicas skip them). */
  async lockExpiredTemporary(now: Date, limit: number): Promise<DeviceRow[]> {
    const res = await this.db.query<DeviceRow>(
      `SELECT ${DEVICE_ROW_COLUMNS} FROM devices d
        WHERE d.deleted_at IS NULL AND d.lock_state = 'temporary_active' AND d.temporary_until <= $1
        ORDER BY d.temporary_until LIMIT $2 FOR UPDATE SKIP LOCKED`,
      [now, limit],
    );
    return res.rows.map(deviceRow);
  }
}
