-- 'Liberados este mes' of the general dashboard counted the live released devices since the
-- month's first instant with an index range of devices_released: that read every device released
-- this month, and from the table too once check-ins had written to their pages (most of the
-- dashboard's time in a large fleet). This
-- counter keeps them per UTC hour of their release, in the same transaction as the change, as
-- device_counts keeps them per status; the dashboard sums the whole hours since the month's start
-- and counts the devices of the one hour that straddles it (a zone whose offset is not whole hours)
-- from the index, at most an hour of releases.
--
-- It is kept by device_counts' own three statement triggers, not a trigger of its own: a check-in's
-- last-seen write fires every statement trigger of devices (0017), and device_counts_apply already
-- stops at its first question when no row changed what it counts; released_at joins that question.
-- Counted: deleted_at IS NULL AND base_status = 9 (liberado) AND released_at IS NOT NULL, exactly
-- the rows the dashboard and the devices list's releasedFrom read.
CREATE TABLE released_hourly (
  hour timestamptz PRIMARY KEY,
  n bigint NOT NULL
);

CREATE OR REPLACE FUNCTION device_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (
    SELECT o.id, o.device_type, o.group_id, o.base_status, o.lock_type, o.deleted_at IS NULL, o.released_at FROM old_rows o
    EXCEPT
    SELECT n.id, n.device_type, n.group_id, n.base_status, n.lock_type, n.deleted_at IS NULL, n.released_at FROM new_rows n
  ) THEN
    RETURN NULL;
  END IF;
  INSERT INTO device_counts AS c (device_type, group_id, base_status, lock_type, n)
  SELECT device_type, group_id, base_status, lock_type, sum(delta)
    FROM (
      SELECT o.device_type, coalesce(o.group_id, 0) AS group_id, o.base_status, coalesce(o.lock_type, '') AS lock_type, -1 AS delta
        FROM old_rows o WHERE o.deleted_at IS NULL
      UNION ALL
      SELECT n.device_type, coalesce(n.group_id, 0), n.base_status, coalesce(n.lock_type, ''), 1
        FROM new_rows n WHERE n.deleted_at IS NULL
    ) d
   GROUP BY device_type, group_id, base_status, lock_type
  HAVING sum(delta) <> 0
   ORDER BY device_type, group_id, base_status, lock_type
  ON CONFLICT (device_type, group_id, base_status, lock_type) DO UPDATE SET n = c.n + excluded.n;
  INSERT INTO released_hourly AS c (hour, n)
  SELECT hour, sum(delta)
    FROM (
      SELECT date_trunc('hour', o.released_at, 'UTC') AS hour, -1 AS delta
        FROM old_rows o WHERE o.deleted_at IS NULL AND o.base_status = 9 AND o.released_at IS NOT NULL
      UNION ALL
      SELECT date_trunc('hour', n.released_at, 'UTC'), 1
        FROM new_rows n WHERE n.deleted_at IS NULL AND n.base_status = 9 AND n.released_at IS NOT NULL
    ) d
   GROUP BY hour
  HAVING sum(delta) <> 0
   ORDER BY hour
  ON CONFLICT (hour) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END;
$$;

CREATE OR REPLACE FUNCTION device_counts_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO device_counts AS c (device_type, group_id, base_status, lock_type, n)
  SELECT n.device_type, coalesce(n.group_id, 0), n.base_status, coalesce(n.lock_type, ''), count(*)
    FROM new_rows n WHERE n.deleted_at IS NULL
   GROUP BY 1, 2, 3, 4
   ORDER BY 1, 2, 3, 4
  ON CONFLICT (device_type, group_id, base_status, lock_type) DO UPDATE SET n = c.n + excluded.n;
  INSERT INTO released_hourly AS c (hour, n)
  SELECT date_trunc('hour', n.released_at, 'UTC'), count(*)
    FROM new_rows n WHERE n.deleted_at IS NULL AND n.base_status = 9 AND n.released_at IS NOT NULL
   GROUP BY 1
   ORDER BY 1
  ON CONFLICT (hour) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END;
$$;

CREATE OR REPLACE FUNCTION device_counts_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO device_counts AS c (device_type, group_id, base_status, lock_type, n)
  SELECT o.device_type, coalesce(o.group_id, 0), o.base_status, coalesce(o.lock_type, ''), -count(*)
    FROM old_rows o WHERE o.deleted_at IS NULL
   GROUP BY 1, 2, 3, 4
   ORDER BY 1, 2, 3, 4
  ON CONFLICT (device_type, group_id, base_status, lock_type) DO UPDATE SET n = c.n + excluded.n;
  INSERT INTO released_hourly AS c (hour, n)
  SELECT date_trunc('hour', o.released_at, 'UTC'), -count(*)
    FROM old_rows o WHERE o.deleted_at IS NULL AND o.base_status = 9 AND o.released_at IS NOT NULL
   GROUP BY 1
   ORDER BY 1
  ON CONFLICT (hour) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END;
$$;

INSERT INTO released_hourly (hour, n)
SELECT date_trunc('hour', released_at, 'UTC'), count(*)
  FROM devices WHERE deleted_at IS NULL AND base_status = 9 AND released_at IS NOT NULL
 GROUP BY 1;
