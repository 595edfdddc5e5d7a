/**
 * The counters the statement triggers keep (device_counts, device_fact_counts, activity_hourly,
 * released_hourly), each beside a recount of the rows they count: tests compare the two after changes.
 */
import type { Queryable } from '../../server/db/Db';
import { DEVICE_STATUS } from '../../shared/constants/domain';

type Rows = Record<string, unknown>[];
const rows = async (db: Queryable, sql: string): Promise<Rows> => (await db.query<Record<string, unknown>>(sql)).rows;

export const deviceCounts = (db: Queryable) =>
  rows(db, `SELECT device_type, group_id, base_status, lock_type, n::int AS n FROM device_counts WHERE n <> 0 ORDER BY 1, 2, 3, 4`);
export const deviceCountsRecount = (db: Queryable) =>
  rows(
    db,
    `SELECT device_type, coalesce(group_id, 0) AS group_id, base_status, coalesce(lock_type, '') AS lock_type, count(*)::int AS n
       FROM devices WHERE deleted_at IS NULL GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`,
  );

export const factCounts = (db: Queryable) =>
  rows(db, `SELECT fact, device_type, value, brand, n::int AS n FROM device_fact_counts WHERE n <> 0 ORDER BY 1, 2, 3, 4`);
export const factCountsRecount = (db: Queryable) =>
  rows(
    db,
    `SELECT f.fact, d.device_type, f.value, f.brand, count(*)::int AS n
       FROM devices d
       CROSS JOIN LATERAL (VALUES (1::smallint, coalesce(d.os_version, ''), ''), (2::smallint, coalesce(d.model, ''), coalesce(d.brand, '')),
                                  (3::smallint, coalesce(d.agent_version, ''), ''), (4::smallint, coalesce(d.sim_carrier, ''), ''),
                                  (5::smallint, coalesce(d.brand, ''), '')) AS f (fact, value, brand)
      WHERE d.deleted_at IS NULL AND d.lifecycle NOT IN ('pre_enrolled', 'released')
      GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`,
  );

export const activityCounts = (db: Queryable) => rows(db, `SELECT hour, kind, key, n::int AS n FROM activity_hourly WHERE n <> 0 ORDER BY 1, 2, 3`);
/** Events are history: commands are never deleted, each device enrolls once. */
export const activityRecount = (db: Queryable) =>
  rows(
    db,
    `SELECT hour, kind, key, count(*)::int AS n FROM (
       SELECT date_trunc('hour', requested_at, 'UTC') AS hour, 1 AS kind, action AS key FROM device_commands
       UNION ALL SELECT date_trunc('hour', enrolled_at, 'UTC'), 2, device_type FROM devices WHERE enrolled_at IS NOT NULL
     ) e GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
  );

export const releasedCounts = (db: Queryable) => rows(db, `SELECT hour, n::int AS n FROM released_hourly WHERE n <> 0 ORDER BY 1`);
/** The live released devices per UTC hour of their release (what the dashboard and releasedFrom read). */
export const releasedRecount = (db: Queryable) =>
  rows(
    db,
    `SELECT date_trunc('hour', released_at, 'UTC') AS hour, count(*)::int AS n
       FROM devices WHERE deleted_at IS NULL AND base_status = ${DEVICE_STATUS.liberado} AND released_at IS NOT NULL GROUP BY 1 ORDER BY 1`,
  );
