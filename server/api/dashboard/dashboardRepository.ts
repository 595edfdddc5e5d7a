import { DASHBOARD_DAYS, DASHBOARD_STUCK_ROWS } from '../../../shared/contracts/dashboard';
import { DEVICE_ACTION } from '../../../shared/constants/deviceActions';
import { DEVICE_STATUS } from '../../../shared/constants/domain';
import { OFFLINE_OVERLAID } from '../../../shared/deviceStatus';
import type { Queryable } from '../../db/Db';

/** Kinds of activity_hourly (migration 0013). */
export const ACTIVITY = { command: 1, enrollment: 2 } as const;
/** Facts of device_fact_counts (migration 0013). */
export const FACT = { osVersion: 1, model: 2, agentVersion: 3, carrier: 4, brand: 5 } as const;

export interface StatusCountRow {
  device_type: number;
  base_status: number;
  n: number;
}
export interface GroupCountRow {
  group_id: number | null;
  name: string | null;
  n: number;
}
export interface ActivityRow {
  day: string;
  kind: number;
  key: number;
  n: number;
}
export interface StuckRow {
  id: number;
  device_id: number;
  imei: string;
  device_type: number;
  action: number;
  requested_at: Date;
  delivered_at: Date | null;
  last_seen_at: Date | null;
}
/** Devices offline per base status, keyed by the status code as text (JSON). */
export type OfflineCounts = Record<string, number>;
export interface OfflineSnapshot {
  offlineAfterHours: number;
  computedAt: Date;
  counts: OfflineCounts;
}
export interface DashboardCounters {
  statuses: StatusCountRow[];
  groups: GroupCountRow[];
  pendingCommands: number;
  snapshot: OfflineSnapshot | undefined;
  monthStart: Date;
  releasedThisMonth: number;
  /** Activity per day (YYYY-MM-DD) of the zone over the last DASHBOARD_DAYS days ending on `now`'s day. */
  activity: ActivityRow[];
  /** The commands in flight requested before `stuckSince` (and deliverable by then), oldest first, and how many. */
  stuck: { total: number; rows: StuckRow[] };
}
export interface FactRow {
  fact: number;
  device_type: number;
  value: string;
  brand: string;
  n: number;
}

const PRE_ENROLLED = DEVICE_STATUS.PRE_ENROLLED;

/** The general dashboard's row (GENERAL_READS). */
interface GeneralRow {
  statuses: StatusCountRow[];
  groups: GroupCountRow[];
  pending: number;
  snapshot: { offline_after_hours: number; computed_at: string; counts: OfflineCounts } | null;
  month_start: Date;
  released: number;
  activity: ActivityRow[];
  stuck: (Omit<StuckRow, 'requested_at' | 'delivered_at' | 'last_seen_at'> & {
    requested_at: string;
    delivered_at: string | null;
    last_seen_at: string | null;
  })[];
  stuck_total: number;
}

/** A device's unlocks (migration 0027's partial index device_commands_unlocks): carried out, or the offline code redeemed. */
const A = DEVICE_ACTION;
const UNLOCKED_WHERE = `((u.action IN (${A.UNLOCK}, ${A.RELEASE}) AND u.status = 'acknowledged')
                        OR (u.action IN (${A.UNLOCK_OFFLINE}, ${A.UNLOCK_OFFLINE_WITH_DATE}, ${A.RELEASE_OFFLINE}) AND u.status = 'redeemed'))`;

const STUCK_WHERE = `c.status = 'pending' AND c.requested_at < {since} AND c.deliver_after < {since}`;

/**
 * The general dashboard's reads, one row each, with named values ({now}, {tz}, {top}, {since}):
 * - counters: devices per type and base status, the top groups, the pending commands, the
 *   offline snapshot, the first instant of the month of {now} in {tz} and the live devices
 *   released since (the whole UTC hours from released_hourly, migration 0019; the hour that
 *   straddles the month's start, in a zone whose offset is not whole hours, from an index range
 *   of devices_released);
 * - activity: per day (YYYY-MM-DD) of {tz} over the last DASHBOARD_DAYS days ending on {now}'s day:
 *   an hour counts on the day its first instant falls on in {tz}. The days' first instants (the
 *   earlier one where midnight comes twice, as when a zone leaves summer time at 01:00) are
 *   computed once, and each hourly row finds its day among them by width_bucket, a binary search,
 *   rather than moving every row into the zone (a conversion per row, dearer than the search);
 * - stuck: the commands in flight requested before {since} (and deliverable by then), oldest
 *   first, and how many (a deleted device's waiting commands are cancelled with it, so each is a
 *   live device's).
 */
const GENERAL_READS = {
  counters: `WITH m AS (SELECT date_trunc('month', {now}::timestamptz AT TIME ZONE {tz}) AT TIME ZONE {tz} AS month_start)
    SELECT (SELECT coalesce(json_agg(s), '[]') FROM (SELECT device_type, base_status, sum(n)::int AS n FROM device_counts
                                                     GROUP BY 1, 2 HAVING sum(n) <> 0) s) AS statuses,
           (SELECT coalesce(json_agg(g ORDER BY g.n DESC, g.group_id IS NULL, g.group_id), '[]')
              FROM (SELECT nullif(c.group_id, 0) AS group_id, dg.name, c.n
                      FROM (SELECT group_id, sum(n)::int AS n FROM device_counts WHERE base_status <> ${PRE_ENROLLED}
                             GROUP BY 1 HAVING sum(n) > 0 ORDER BY 2 DESC, group_id = 0, 1 LIMIT {top}) c
                      LEFT JOIN device_groups dg ON dg.id = c.group_id) g) AS groups,
           (SELECT coalesce(sum(n), 0)::int FROM pending_command_counts) AS pending,
           (SELECT row_to_json(o) FROM (SELECT offline_after_hours, computed_at, counts FROM offline_snapshot) o) AS snapshot,
           m.month_start,
           (SELECT coalesce(sum(n), 0)::int FROM released_hourly WHERE hour >= m.first_hour)
           + (SELECT count(*)::int FROM devices
               WHERE deleted_at IS NULL AND base_status = ${DEVICE_STATUS.liberado}
                 AND released_at >= m.month_start AND released_at < m.first_hour) AS released
      FROM (SELECT month_start,
                   CASE WHEN date_trunc('hour', month_start, 'UTC') = month_start THEN month_start
                        ELSE date_trunc('hour', month_start, 'UTC') + interval '1 hour' END AS first_hour
              FROM m) m`,
  activity: `WITH d AS (SELECT d::date AS day, d AT TIME ZONE {tz} AS at
                 FROM generate_series(date_trunc('day', {now}::timestamptz AT TIME ZONE {tz}) - make_interval(days => ${DASHBOARD_DAYS} - 1),
                                      date_trunc('day', {now}::timestamptz AT TIME ZONE {tz}) + interval '1 day', interval '1 day') d),
         b AS (SELECT array_agg(CASE WHEN ((at - interval '1 hour') AT TIME ZONE {tz})::date >= day THEN at - interval '1 hour' ELSE at END
                                ORDER BY day) AS starts,
                      array_agg(to_char(day, 'YYYY-MM-DD') ORDER BY day) AS days
                 FROM d)
    SELECT (SELECT coalesce(json_agg(a), '[]')
              FROM (SELECT b.days[g.i] AS day, g.kind, g.key, g.n
                      FROM b CROSS JOIN (SELECT width_bucket(h.hour, b.starts) AS i, h.kind, h.key, sum(h.n)::int AS n
                                           FROM b JOIN activity_hourly h ON h.hour >= b.starts[1] AND h.hour <= {now}::timestamptz
                                          GROUP BY 1, 2, 3) g) a) AS activity`,
  stuck: `SELECT (SELECT coalesce(json_agg(s ORDER BY s.requested_at, s.id), '[]')
              FROM (SELECT c.id, c.device_id, d.imei, d.device_type, c.action, c.requested_at, c.delivered_at, d.last_seen_at
                      FROM (SELECT c.id, c.device_id, c.action, c.requested_at, c.delivered_at FROM device_commands c
                             WHERE ${STUCK_WHERE} ORDER BY c.requested_at, c.id LIMIT ${DASHBOARD_STUCK_ROWS}) c
                      JOIN devices d ON d.id = c.device_id) s) AS stuck,
           (SELECT count(*)::int FROM device_commands c WHERE ${STUCK_WHERE}) AS stuck_total`,
};

/** `sql` with its {name} placeholders as $1, $2 … in order of first use, and their values. */
export function bindNamed(sql: string, values: Record<string, unknown>): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const numbers = new Map<string, number>();
  const text = sql.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (!(name in values)) throw new Error(`bindNamed: no value for {${name}}`);
    let n = numbers.get(name);
    if (n === undefined) {
      params.push(values[name]);
      n = params.length;
      numbers.set(name, n);
    }
    return `$${n}`;
  });
  return { sql: text, params };
}

/**
 * The dashboards' reads. Each is a read of a maintained counter (device_counts,
 * device_fact_counts, activity_hourly, released_hourly, offline_snapshot, pending_command_counts)
 * or an index range whose size is what it counts (the stuck commands, the releases of the hour
 * that straddles the month's start), never a scan of the fleet.
 */
export class DashboardRepository {
  constructor(private readonly db: Queryable) {}

  /** Devices not seen since `cutoff` per base status (the offline range of devices_status: a read of every offline device). */
  async countOffline(cutoff: Date): Promise<OfflineCounts> {
    const res = await this.db.query<{ base_status: number; n: number }>(
      `SELECT base_status, count(*)::int AS n FROM devices
        WHERE deleted_at IS NULL AND base_status IN (${OFFLINE_OVERLAID.join(', ')}) AND last_seen_at < $1
        GROUP BY 1`,
      [cutoff],
    );
    return Object.fromEntries(res.rows.map((r) => [String(r.base_status), r.n]));
  }

  /** The offline snapshot (migration 0013), if one was taken. */
  async offlineSnapshot(): Promise<OfflineSnapshot | undefined> {
    const res = await this.db.query<{ offline_after_hours: number; computed_at: Date; counts: OfflineCounts }>(
      'SELECT offline_after_hours, computed_at, counts FROM offline_snapshot',
    );
    const r = res.rows[0];
    return r && { offlineAfterHours: Number(r.offline_after_hours), computedAt: new Date(r.computed_at), counts: r.counts };
  }

  /**
   * Takes the snapshot row for a new count (locked until the transaction ends), unless it was
   * counted after `staleBefore` with the same threshold: another replica's clock got there first
   * (its row lock makes this one wait, then find it fresh). True when taken.
   */
  async claimOfflineSnapshot(now: Date, offlineAfterHours: number, cutoff: Date, staleBefore: Date): Promise<boolean> {
    const res = await this.db.query(
      `INSERT INTO offline_snapshot (offline_after_hours, cutoff, computed_at, counts) VALUES ($1, $2, $3, '{}')
       ON CONFLICT (id) DO UPDATE SET offline_after_hours = excluded.offline_after_hours, cutoff = excluded.cutoff, computed_at = excluded.computed_at
        WHERE offline_snapshot.computed_at < $4 OR offline_snapshot.offline_after_hours <> excluded.offline_after_hours
       RETURNING 1`,
      [offlineAfterHours, cutoff, now, staleBefore],
    );
    return res.rowCount > 0;
  }

  async storeOfflineSnapshot(counts: OfflineCounts): Promise<void> {
    await this.db.query('UPDATE offline_snapshot SET counts = $1', [JSON.stringify(counts)]);
  }

  /**
   * Everything the general dashboard reads (GENERAL_READS), one row: in one statement when
   * `oneStatement` (PGlite runs statements one after another, so separate ones would only add
   * round trips and plans), else its three reads in parallel on the pool (PostgreSQL), so the
   * answer waits for the slowest read alone.
   */
  async general(now: Date, timeZone: string, topGroups: number, stuckSince: Date, oneStatement: boolean): Promise<DashboardCounters> {
    const values = { now, tz: timeZone, top: topGroups, since: stuckSince };
    const reads = Object.values(GENERAL_READS);
    // On the pool, each read is a named statement: parsed and planned once per connection.
    const statements: [sql: string, name?: string][] = oneStatement
      ? [[`SELECT * FROM ${reads.map((sql, i) => `(${sql}) r${i}`).join(' CROSS JOIN ')}`]]
      : Object.entries(GENERAL_READS).map(([key, sql]) => [sql, `dashboard_general_${key}`]);
    const results = await Promise.all(
      statements.map(([sql, name]) => {
        const bound = bindNamed(sql, values);
        return this.db.query<Partial<GeneralRow>>(bound.sql, bound.params, name ? { name } : undefined);
      }),
    );
    const r = Object.assign({}, ...results.map((res) => res.rows[0])) as GeneralRow;
    const date = (v: string | null) => (v === null ? null : new Date(v));
    return {
      statuses: r.statuses,
      groups: r.groups,
      pendingCommands: r.pending,
      snapshot: r.snapshot
        ? { offlineAfterHours: Number(r.snapshot.offline_after_hours), computedAt: new Date(r.snapshot.computed_at), counts: r.snapshot.counts }
        : undefined,
      monthStart: new Date(r.month_start),
      releasedThisMonth: r.released,
      activity: r.activity,
      stuck: {
        total: r.stuck_total,
        rows: r.stuck.map((s) => ({
          ...s,
          requested_at: new Date(s.requested_at),
          delivered_at: date(s.delivered_at),
          last_seen_at: date(s.last_seen_at),
        })),
      },
    };
  }

  /** Every counted fact value with its devices. */
  async facts(): Promise<FactRow[]> {
    const res = await this.db.query<FactRow>(`SELECT fact, device_type, value, brand, n::int AS n FROM device_fact_counts WHERE n > 0`);
    return res.rows;
  }

  /**
   * The collection's figures of the general dashboard, each an index range (migration 0027):
   * - the devices the policy sent a lock, and an unlock, in [dayStart, dayEnd): the devices of its
   *   lock and unlock steps taken then (a step passed over sent nothing);
   * - of the devices whose lock Por Crédito (by the policy or a person) was acknowledged in
   *   [locksSince, now], those unlocked within `withinDays` of one of those locks: an unlock or a
   *   release acknowledged, or its offline code redeemed, after the lock and at most `withinDays`
   *   days after it, and by `now` (a lock of the last days may still be unlocked: it counts among the locked).
   */
  async creditActivity(
    dayStart: Date,
    dayEnd: Date,
    locksSince: Date,
    now: Date,
    withinDays: number,
  ): Promise<{ locksToday: number; unlocksToday: number; locked: number; unlocked: number }> {
    const res = await this.db.query<{ locks_today: number; unlocks_today: number; locked: number; unlocked: number }>(
      `SELECT (SELECT coalesce(sum(cardinality(s.device_ids)) FILTER (WHERE s.kind = 'lock'), 0)::int FROM credit_steps s
                WHERE s.outcome = 'done' AND s.kind IN ('lock', 'unlock') AND s.at >= $1 AND s.at < $2) AS locks_today,
              (SELECT coalesce(sum(cardinality(s.device_ids)) FILTER (WHERE s.kind = 'unlock'), 0)::int FROM credit_steps s
                WHERE s.outcome = 'done' AND s.kind IN ('lock', 'unlock') AND s.at >= $1 AND s.at < $2) AS unlocks_today,
              count(DISTINCT l.device_id)::int AS locked,
              count(DISTINCT l.device_id) FILTER (WHERE EXISTS (
                SELECT 1 FROM device_commands u
                 WHERE ${UNLOCKED_WHERE}
                   AND u.device_id = l.device_id AND u.acknowledged_at > l.acknowledged_at
                   AND u.acknowledged_at <= l.acknowledged_at + make_interval(days => $5) AND u.acknowledged_at <= $4))::int AS unlocked
         FROM device_commands l
        WHERE l.action = ${DEVICE_ACTION.LOCK} AND l.status = 'acknowledged' AND l.payload ->> 'lockType' = 'PorCredito'
          AND l.acknowledged_at >= $3 AND l.acknowledged_at <= $4`,
      [dayStart, dayEnd, locksSince, now, withinDays],
    );
    const r = res.rows[0]!;
    return { locksToday: Number(r.locks_today), unlocksToday: Number(r.unlocks_today), locked: Number(r.locked), unlocked: Number(r.unlocked) };
  }

  /** The current lock-app version of each device type. */
  async currentAgentVersions(): Promise<Map<number, string>> {
    const res = await this.db.query<{ device_type: number; version: string }>(
      'SELECT device_type, version_app AS version FROM lock_app_versions WHERE is_current',
    );
    return new Map(res.rows.map((r) => [r.device_type, r.version]));
  }
}
