-- A check-in that records its last-seen time (one UPDATE of devices, the fleet's commonest write)
-- fires the four statement triggers that keep counters and the webhook outbox, though it moves
-- nothing any of them counts. PostgreSQL allows no column list on a trigger with transition
-- tables, so they keep firing; each now first asks whether any row changed a column it reads:
-- the old rows EXCEPT the new ones (hashed or sorted, never a join of the transition tables),
-- restricted to those columns and the row's id. Empty means there is nothing to do. The webhook
-- trigger asked webhook_wanted() twice first: a SQL function called from PL/pgSQL is planned
-- again in each transaction; it now asks a query of its own, planned once per
-- session, and calls webhook_wanted() only when an event may be written.

CREATE OR REPLACE FUNCTION device_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (
    SELECT o.id, o.device_type, o.group_id, o.base_status, o.lock_type, o.deleted_at IS NULL FROM old_rows o
    EXCEPT
    SELECT n.id, n.device_type, n.group_id, n.base_status, n.lock_type, n.deleted_at IS NULL FROM new_rows n
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
  RETURN NULL;
END;
$$;

CREATE OR REPLACE FUNCTION device_fact_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO device_fact_counts AS c (fact, device_type, value, brand, n)
    SELECT f.fact, n.device_type, f.value, f.brand, count(*)
      FROM new_rows n, device_fact_values(n.os_version, n.model, n.agent_version, n.sim_carrier, n.brand) f
     WHERE device_fact_counted(n.deleted_at, n.lifecycle)
     GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (fact, device_type, value, brand) DO UPDATE SET n = c.n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO device_fact_counts AS c (fact, device_type, value, brand, n)
    SELECT f.fact, o.device_type, f.value, f.brand, -count(*)
      FROM old_rows o, device_fact_values(o.os_version, o.model, o.agent_version, o.sim_carrier, o.brand) f
     WHERE device_fact_counted(o.deleted_at, o.lifecycle)
     GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (fact, device_type, value, brand) DO UPDATE SET n = c.n + excluded.n;
  ELSIF EXISTS (
    SELECT o.id, o.device_type, o.os_version, o.model, o.agent_version, o.sim_carrier, o.brand,
           device_fact_counted(o.deleted_at, o.lifecycle) FROM old_rows o
    EXCEPT
    SELECT n.id, n.device_type, n.os_version, n.model, n.agent_version, n.sim_carrier, n.brand,
           device_fact_counted(n.deleted_at, n.lifecycle) FROM new_rows n
  ) THEN
    -- A row whose counted facts did not move appears once in old_rows and once in new_rows, the
    -- same: its -1 and +1 meet in one group and cancel (hashing, not a join of the transition
    -- tables, which the planner cannot estimate).
    INSERT INTO device_fact_counts AS c (fact, device_type, value, brand, n)
    SELECT f.fact, m.device_type, f.value, f.brand, sum(m.delta)
      FROM (
        SELECT id, device_type, os_version, model, agent_version, sim_carrier, brand, sum(delta) AS delta
          FROM (
            SELECT o.id, o.device_type, o.os_version, o.model, o.agent_version, o.sim_carrier, o.brand, -1 AS delta
              FROM old_rows o WHERE device_fact_counted(o.deleted_at, o.lifecycle)
            UNION ALL
            SELECT n.id, n.device_type, n.os_version, n.model, n.agent_version, n.sim_carrier, n.brand, 1
              FROM new_rows n WHERE device_fact_counted(n.deleted_at, n.lifecycle)
          ) v
         GROUP BY id, device_type, os_version, model, agent_version, sim_carrier, brand
        HAVING sum(delta) <> 0
      ) m
     CROSS JOIN device_fact_values(m.os_version, m.model, m.agent_version, m.sim_carrier, m.brand) f
     GROUP BY 1, 2, 3, 4
    HAVING sum(m.delta) <> 0
     ORDER BY 1, 2, 3, 4
    ON CONFLICT (fact, device_type, value, brand) DO UPDATE SET n = c.n + excluded.n;
  END IF;
  RETURN NULL;
END;
$$;

CREATE OR REPLACE FUNCTION activity_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'device_commands' THEN
    INSERT INTO activity_hourly AS c (hour, kind, key, n)
    SELECT date_trunc('hour', n.requested_at, 'UTC'), 1, n.action, count(*)
      FROM new_rows n
     GROUP BY 1, 3 ORDER BY 1, 3
    ON CONFLICT (hour, kind, key) DO UPDATE SET n = c.n + excluded.n;
  ELSIF TG_OP = 'INSERT' THEN
    INSERT INTO activity_hourly AS c (hour, kind, key, n)
    SELECT date_trunc('hour', n.enrolled_at, 'UTC'), 2, n.device_type, count(*)
      FROM new_rows n WHERE n.enrolled_at IS NOT NULL
     GROUP BY 1, 3 ORDER BY 1, 3
    ON CONFLICT (hour, kind, key) DO UPDATE SET n = c.n + excluded.n;
  ELSIF EXISTS (SELECT n.id, n.enrolled_at FROM new_rows n WHERE n.enrolled_at IS NOT NULL
                EXCEPT SELECT o.id, o.enrolled_at FROM old_rows o) THEN
    -- New enrolled_at values: a (device, enrolled_at) pair in new_rows and not in old_rows
    -- (hashing both, not a join of the transition tables).
    INSERT INTO activity_hourly AS c (hour, kind, key, n)
    SELECT date_trunc('hour', e.enrolled_at, 'UTC'), 2, e.device_type, count(*)
      FROM (
        SELECT id, enrolled_at, max(device_type) FILTER (WHERE side = 1) AS device_type
          FROM (
            SELECT n.id, n.enrolled_at, n.device_type, 1 AS side FROM new_rows n WHERE n.enrolled_at IS NOT NULL
            UNION ALL
            SELECT o.id, o.enrolled_at, o.device_type, -1 FROM old_rows o WHERE o.enrolled_at IS NOT NULL
          ) v
         GROUP BY id, enrolled_at
        HAVING sum(side) > 0
      ) e
     GROUP BY 1, 3 ORDER BY 1, 3
    ON CONFLICT (hour, kind, key) DO UPDATE SET n = c.n + excluded.n;
  END IF;
  RETURN NULL;
END;
$$;

CREATE OR REPLACE FUNCTION webhook_devices_events() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  want_enrolled boolean;
  want_status boolean;
BEGIN
  -- No subscription wants a device event (a query planned once per session, see the header), or
  -- no row changed what the events report: nothing to write.
  IF NOT EXISTS (SELECT 1 FROM webhook_subscriptions WHERE enabled AND events && ARRAY['device.enrolled', 'device.status_changed'])
     OR NOT EXISTS (
       SELECT o.id, o.base_status, o.enrolled_at, o.deleted_at IS NULL FROM old_rows o
       EXCEPT
       SELECT n.id, n.base_status, n.enrolled_at, n.deleted_at IS NULL FROM new_rows n
     ) THEN
    RETURN NULL;
  END IF;
  want_enrolled := webhook_wanted('device.enrolled');
  want_status := webhook_wanted('device.status_changed');
  INSERT INTO webhook_events (type, order_key, data, occurred_at)
  SELECT t.type, c.id, c.data || t.extra, coalesce(t.at, now())
    FROM (
      SELECT id,
             (array_agg(data) FILTER (WHERE side = 1))[1] AS data,
             max(status) FILTER (WHERE side = 0) AS old_status,
             max(status) FILTER (WHERE side = 1) AS new_status,
             max(enrolled_at) FILTER (WHERE side = 0) AS old_enrolled,
             max(enrolled_at) FILTER (WHERE side = 1) AS new_enrolled,
             bool_or(deleted) FILTER (WHERE side = 0) AS old_deleted,
             bool_or(deleted) FILTER (WHERE side = 1) AS new_deleted,
             max(lock_type) FILTER (WHERE side = 1) AS lock_type
        FROM (
          SELECT o.id, 0 AS side, NULL::jsonb AS data, o.base_status AS status, o.enrolled_at, o.deleted_at IS NOT NULL AS deleted, o.lock_type
            FROM old_rows o
          UNION ALL
          SELECT n.id, 1, webhook_device_data(n), n.base_status, n.enrolled_at, n.deleted_at IS NOT NULL, n.lock_type
            FROM new_rows n
        ) r
       GROUP BY id
    ) c
    CROSS JOIN LATERAL (VALUES
      (1, 'device.enrolled', jsonb_build_object('enrolledAt', c.new_enrolled), c.new_enrolled),
      (2, 'device.status_changed',
          jsonb_build_object('previousStatus', c.old_status, 'status', c.new_status, 'lockType', c.lock_type, 'deleted', c.new_deleted),
          NULL::timestamptz)
    ) t (k, type, extra, at)
   WHERE (t.k = 1 AND want_enrolled AND c.old_enrolled IS NULL AND c.new_enrolled IS NOT NULL)
      OR (t.k = 2 AND want_status AND (c.old_status <> c.new_status OR (NOT c.old_deleted AND c.new_deleted)))
   ORDER BY c.id, t.k;
  RETURN NULL;
END;
$$;
