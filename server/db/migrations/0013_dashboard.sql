-- Dashboards (GET /api/v5/dashboard/general|android) answered from counters kept in the same
-- transaction as the change that moves them, so no request scans the fleet:
--   device_counts (0006)       devices per (type, group, base status, lock type)
--   device_fact_counts         devices running the agent per reported fact (OS, model, agent
--                              version, carrier, brand) and device type
--   activity_hourly            events per UTC hour: commands requested (per action) and
--                              enrollments (per device type); the API sums them into days of the
--                              browser's zone
--   offline_snapshot           devices offline per base status, kept by the server's clock
--   pending_command_counts     commands waiting for their agent, per action
-- A consistency test compares each counter with a GROUP BY of the rows after random changes.

-- When a device was released (set by the trigger below; a device inserted released, as the demo
-- seeds them, takes its last contact).
ALTER TABLE devices ADD COLUMN released_at timestamptz;

CREATE FUNCTION devices_released_at() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.lifecycle = 'released' AND NEW.released_at IS NULL THEN
    NEW.released_at := CASE WHEN TG_OP = 'INSERT' THEN coalesce(NEW.last_seen_at, now()) ELSE now() END;
  ELSIF NEW.lifecycle <> 'released' THEN
    NEW.released_at := NULL;
  END IF;
  RETURN NEW;
END;
$$;
CREATE TRIGGER devices_released_at BEFORE INSERT OR UPDATE OF lifecycle ON devices
  FOR EACH ROW EXECUTE FUNCTION devices_released_at();

-- Facts: 1 OS version, 2 model (with its brand), 3 agent version, 4 SIM carrier, 5 brand. A fact
-- nobody reported is ''. Counted: the live devices that run the agent (enrolled and not released),
-- as the lock-app page counts the devices reporting each version.
CREATE TABLE device_fact_counts (
  fact smallint NOT NULL,
  device_type smallint NOT NULL,
  value text NOT NULL,
  brand text NOT NULL,
  n bigint NOT NULL,
  PRIMARY KEY (fact, device_type, value, brand)
);

-- The facts of a device as counted rows (a SQL function the planner inlines).
CREATE FUNCTION device_fact_values(os_version text, model text, agent_version text, sim_carrier text, maker text)
  RETURNS TABLE (fact smallint, value text, brand text) LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  VALUES (1::smallint, coalesce(os_version, ''), ''), (2::smallint, coalesce(model, ''), coalesce(maker, '')),
         (3::smallint, coalesce(agent_version, ''), ''), (4::smallint, coalesce(sim_carrier, ''), ''), (5::smallint, coalesce(maker, ''), '')
$$;
CREATE FUNCTION device_fact_counted(deleted_at timestamptz, lifecycle text) RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT deleted_at IS NULL AND lifecycle NOT IN ('pre_enrolled', 'released')
$$;

-- Each branch names only the transition tables its event has (PL/pgSQL plans a statement when
-- it first runs). An update makes deltas only for the rows whose counted facts moved (most move
-- none: a check-in's last_seen_at, a lock); PostgreSQL allows no column list on a trigger with
-- transition tables, so every update statement runs it.
CREATE FUNCTION device_fact_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
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
  ELSE
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
CREATE TRIGGER device_fact_counts_insert AFTER INSERT ON devices
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION device_fact_counts_apply();
CREATE TRIGGER device_fact_counts_update AFTER UPDATE ON devices
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION device_fact_counts_apply();
CREATE TRIGGER device_fact_counts_delete AFTER DELETE ON devices
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION device_fact_counts_apply();

INSERT INTO device_fact_counts (fact, device_type, value, brand, n)
SELECT f.fact, d.device_type, f.value, f.brand, count(*)
  FROM devices d, device_fact_values(d.os_version, d.model, d.agent_version, d.sim_carrier, d.brand) f
 WHERE device_fact_counted(d.deleted_at, d.lifecycle)
 GROUP BY 1, 2, 3, 4;

-- Events per UTC hour. kind 1: a command requested (key: its action); 2: an enrollment (key:
-- the device type). Events are history: deleting a device does not remove them.
CREATE TABLE activity_hourly (
  hour timestamptz NOT NULL,
  kind smallint NOT NULL CHECK (kind IN (1, 2)),
  key smallint NOT NULL,
  n bigint NOT NULL,
  PRIMARY KEY (hour, kind, key)
);

-- Commands are inserted and never deleted; an enrollment is a new enrolled_at (a reset device
-- that enrolls again counts again). Each branch names only the transition tables its event has.
CREATE FUNCTION activity_apply() RETURNS trigger LANGUAGE plpgsql AS $$
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
  ELSE
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
CREATE TRIGGER activity_commands AFTER INSERT ON device_commands
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION activity_apply();
CREATE TRIGGER activity_devices_insert AFTER INSERT ON devices
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION activity_apply();
CREATE TRIGGER activity_devices_update AFTER UPDATE ON devices
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION activity_apply();

-- Backfill from what is stored: every command ever requested, the enrollment times, and the
-- devices already released (at their last contact).
UPDATE devices SET released_at = coalesce(last_seen_at, updated_at) WHERE lifecycle = 'released';
INSERT INTO activity_hourly (hour, kind, key, n)
SELECT date_trunc('hour', requested_at, 'UTC'), 1, action, count(*) FROM device_commands GROUP BY 1, 3;
INSERT INTO activity_hourly (hour, kind, key, n)
SELECT date_trunc('hour', enrolled_at, 'UTC'), 2, device_type, count(*) FROM devices WHERE enrolled_at IS NOT NULL GROUP BY 1, 3;

-- Commands waiting for their agent, per action (the dashboard's 'comandos pendientes'): counting
-- the pending rows would read each one (they are recent, so their pages are never all-visible).
CREATE TABLE pending_command_counts (
  action smallint PRIMARY KEY,
  n bigint NOT NULL
);
CREATE FUNCTION pending_command_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO pending_command_counts AS c (action, n)
    SELECT n.action, count(*) FROM new_rows n WHERE n.status = 'pending' GROUP BY 1 ORDER BY 1
    ON CONFLICT (action) DO UPDATE SET n = c.n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO pending_command_counts AS c (action, n)
    SELECT o.action, -count(*) FROM old_rows o WHERE o.status = 'pending' GROUP BY 1 ORDER BY 1
    ON CONFLICT (action) DO UPDATE SET n = c.n + excluded.n;
  ELSE
    INSERT INTO pending_command_counts AS c (action, n)
    SELECT action, sum(delta) FROM (
      SELECT o.action, -1 AS delta FROM old_rows o WHERE o.status = 'pending'
      UNION ALL
      SELECT n.action, 1 FROM new_rows n WHERE n.status = 'pending'
    ) d
     GROUP BY 1 HAVING sum(delta) <> 0 ORDER BY 1
    ON CONFLICT (action) DO UPDATE SET n = c.n + excluded.n;
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER pending_command_counts_insert AFTER INSERT ON device_commands
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION pending_command_counts_apply();
CREATE TRIGGER pending_command_counts_update AFTER UPDATE ON device_commands
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION pending_command_counts_apply();
CREATE TRIGGER pending_command_counts_delete AFTER DELETE ON device_commands
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION pending_command_counts_apply();
INSERT INTO pending_command_counts (action, n) SELECT action, count(*) FROM device_commands WHERE status = 'pending' GROUP BY 1;

-- The devices list with a command in flight (inFlight=true: the statuses of shared/deviceStatus.ts
-- reached through the pending action), in each sort's order: few devices, scattered in the others.
CREATE INDEX devices_in_flight_created ON devices (created_at, id) WHERE deleted_at IS NULL AND base_status IN (4, 24, 6, 10, 16);
CREATE INDEX devices_in_flight_imei ON devices (imei, id) WHERE deleted_at IS NULL AND base_status IN (4, 24, 6, 10, 16);
CREATE INDEX devices_in_flight_last_seen ON devices (last_seen_at, id) WHERE deleted_at IS NULL AND base_status IN (4, 24, 6, 10, 16);

-- Released since a date ('Liberados este mes' and the devices list's releasedFrom), newest first.
CREATE INDEX devices_released ON devices (released_at, id) WHERE deleted_at IS NULL AND base_status = 9;
-- The stuck-command board reads the commands in flight oldest first, from the index alone (the
-- planner's statistics of requested_at cover every command, not the pending ones: with the
-- columns it shows in the index, this stays its cheapest path).
CREATE INDEX device_commands_pending_since ON device_commands (requested_at, id) INCLUDE (deliver_after, device_id, action, delivered_at)
  WHERE status = 'pending';
-- The devices list filtered by agent version (the Android dashboard links to it: devices running
-- the agent, so neither pre-enrolled nor released), in the order of the sorts by creation and by
-- last contact (the IMEI's own index serves the third: a version is a large share of the fleet).
CREATE INDEX devices_agent_version ON devices (agent_version, created_at, id) WHERE deleted_at IS NULL AND base_status <> 25 AND base_status <> 9;
CREATE INDEX devices_agent_version_last_seen ON devices (agent_version, last_seen_at, id)
  WHERE deleted_at IS NULL AND base_status <> 25 AND base_status <> 9;

-- Devices offline ('Sin conexión') per base status. Offline is the clock's doing, not a change's:
-- counting the offline range of devices_status costs a read of every offline device, so the
-- server's clock (AgentClock, every 30 s, one replica at a time) keeps this snapshot, and a
-- dashboard request finding it older than a minute counts again itself. One row.
CREATE TABLE offline_snapshot (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  offline_after_hours double precision NOT NULL,
  cutoff timestamptz NOT NULL,
  computed_at timestamptz NOT NULL,
  -- {"<base status>": devices, …}
  counts jsonb NOT NULL
);
