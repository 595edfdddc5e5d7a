import type { Device, DeviceBody, DeviceFilter, DeviceSort } from '../../../shared/contracts/devices';
import { DEVICE_STATUS, findStatusFilter, type DeviceStatusCode } from '../../../shared/constants/domain';
import { OFFLINE_OVERLAID, statusSql } from '../../../shared/deviceStatus';
import type { Queryable } from '../../db/Db';
import type { ExportRecord } from './deviceCsv';
import { exportLineSql, instantSql, zoneJoinSql } from './deviceExportSql';
import { DEVICE_COLUMNS, DEVICE_JOINS, SqlWhere, deviceWhere, inFlightHalves, inFlightSql, toDevice, type DeviceRow } from './deviceQueries';

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

export const orderBy = (sort: DeviceSort, order: 'asc' | 'desc'): string => {
  const dir = order === 'asc' ? 'ASC' : 'DESC';
  return [...SORT_KEYS[sort], 'd.id'].map((k) => `${k} ${dir}`).join(', ');
};

/**
 * The device_counts condition equal to `filter`, when the counters can answer it: no search, no
 * agent version (the counters do not keep it), and no status whose membership depends on the
 * clock (the offline overlay).
 */
export function countersWhere(filter: DeviceFilter): SqlWhere | undefined {
  if (filter.search !== undefined || filter.agentVersion !== undefined || filter.agentVersionNot !== undefined || filter.releasedFrom !== undefined) {
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

/** All SQL of the device registry. */
export class DevicesRepository {
  constructor(private readonly db: Queryable) {}

  /**
   * One page of the filtered list, read in the order of the sort's index (listGathered for few
   * matches); a filter read in two halves (inFlightHalves) takes the first offset + limit keys of
   * each, in order, and pages their merge.
   */
  async list(filter: DeviceFilter, cutoff: Date, sort: DeviceSort, order: 'asc' | 'desc', limit: number, offset: number): Promise<Device[]> {
    const w = deviceWhere(filter, cutoff);
    const halves = inFlightHalves(filter, w);
    // The page's keys first, then its rows: the rows the offset skips are read from the index of
    // the sort and filter alone (an index-only scan when it holds every column the filter reads),
    // and only the page's rows are fetched and joined. The IMEI sort pages by the IMEI alone,
    // unique among live devices (its indexes do not hold the id).
    const key = sort === 'imei' ? 'imei' : 'id';
    const keyOrder = sort === 'imei' ? `d.imei ${order === 'asc' ? 'ASC' : 'DESC'}` : orderBy(sort, order);
    const keyColumns = sort === 'imei' ? 'd.imei' : `${SORT_KEYS[sort].join(', ')}, d.id`;
    const page = `LIMIT ${w.param(limit)} OFFSET ${w.param(offset)}`;
    let keys = `SELECT d.${key} FROM devices d ${halves[0]} ORDER BY ${keyOrder} ${page}`;
    if (halves.length > 1) {
      const reach = w.param(offset + limit);
      const parts = halves.map((half) => `(SELECT ${keyColumns} FROM devices d ${half} ORDER BY ${keyOrder} LIMIT ${reach})`);
      keys = `SELECT d.${key} FROM (${parts.join(' UNION ALL ')}) d ORDER BY ${keyOrder} ${page}`;
    }
    const res = await this.db.query<DeviceRow>(
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
    const res = await this.db.query<DeviceRow & { matches: string | number }>(
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
      this.db.query<DeviceRow>(
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
    const res = await this.db.query<DeviceRow>(`SELECT ${DEVICE_COLUMNS} FROM devices d ${DEVICE_JOINS} WHERE d.id = $1 AND d.deleted_at IS NULL`, [
      id,
    ]);
    return res.rows[0] && toDevice(res.rows[0], cutoff);
  }

  /** Live devices by IMEI, in the order of `imeis` (the ones not found left out). */
  async findByImeis(imeis: readonly string[], cutoff: Date): Promise<Device[]> {
    const res = await this.db.query<DeviceRow>(
      `SELECT ${DEVICE_COLUMNS} FROM devices d ${DEVICE_JOINS} WHERE d.imei = ANY($1::text[]) AND d.deleted_at IS NULL`,
      [[...imeis]],
    );
    const byImei = new Map(res.rows.map((r) => [r.imei, toDevice(r, cutoff)]));
    return imeis.flatMap((i) => (byImei.has(i) ? [byImei.get(i)!] : []));
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

  /** A live device, its row locked until the transaction ends, with its stored base status. */
  async findForEdit(id: number, cutoff: Date): Promise<DeviceForEdit | undefined> {
    const locked = await this.db.query<{ id: number }>('SELECT id FROM devices WHERE id = $1 AND deleted_at IS NULL FOR UPDATE', [id]);
    if (locked.rowCount === 0) return undefined;
    const res = await this.db.query<DeviceRow>(`SELECT ${DEVICE_COLUMNS} FROM devices d ${DEVICE_JOINS} WHERE d.id = $1`, [id]);
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
}
