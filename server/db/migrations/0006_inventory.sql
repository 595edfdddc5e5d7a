-- Inventory: device groups, devices, the commands sent to them (and offline codes issued for
-- them), bulk-action jobs, idempotency keys, and counters of devices per key.

CREATE TABLE device_groups (
  id serial PRIMARY KEY,
  name text NOT NULL,
  description text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX device_groups_name ON device_groups (lower(name));

-- A device stores facts; the status code (reference §4) is derived from them. base_status
-- is that derivation without the offline overlay (which depends on the clock), generated from
-- the rule list in shared/deviceStatus.ts (a test compares the expression with baseStatusSql()).
CREATE TABLE devices (
  id bigserial PRIMARY KEY,
  -- C collation: IMEI prefix searches and sorts use the plain btree index.
  imei text COLLATE "C" NOT NULL CHECK (imei ~ '^[0-9]{15}$'),
  imei2 text COLLATE "C" CHECK (imei2 ~ '^[0-9]{15}$'),
  serial text,
  device_type smallint NOT NULL CHECK (device_type IN (1, 2)),
  brand text,
  model text,
  os_version text,
  agent_version text,
  group_id integer REFERENCES device_groups (id),
  customer_name text,
  credit_reference text,
  lifecycle text NOT NULL DEFAULT 'pre_enrolled'
    CHECK (lifecycle IN ('pre_enrolled', 'enrolling', 'enrolled', 'configured', 'operating', 'reconfigured', 'released', 'suspended')),
  lock_state text NOT NULL DEFAULT 'active' CHECK (lock_state IN ('active', 'locked', 'unlocked_offline', 'temporary_active')),
  lock_type text CHECK (lock_type IN ('PorCredito', 'PorNoConexion', 'PorCambioSIM', 'SinKiosko')),
  lock_message text,
  temporary_until timestamptz,
  -- The command in flight (one stateful command at a time).
  pending_command_id bigint,
  pending_action smallint,
  pending_until timestamptz,
  failure_reason text,
  last_seen_at timestamptz,
  enrolled_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  sim_iccid text,
  sim_carrier text,
  -- Per-device secret of the offline codes (HMAC key) and the counter of codes issued.
  secret bytea NOT NULL,
  offline_counter integer NOT NULL DEFAULT 0,
  base_status smallint GENERATED ALWAYS AS (CASE
  WHEN lifecycle = 'pre_enrolled' THEN 25
  WHEN lifecycle = 'released' THEN 9
  WHEN lifecycle = 'suspended' THEN 22
  WHEN pending_action = 0 THEN 4
  WHEN pending_action = 1 AND pending_until IS NOT NULL THEN 24
  WHEN pending_action = 1 THEN 6
  WHEN pending_action = 2 THEN 10
  WHEN pending_action IN (3, 4, 8, 10) THEN 16
  WHEN failure_reason IS NOT NULL THEN 21
  WHEN lifecycle = 'enrolling' THEN 2
  WHEN lifecycle = 'enrolled' THEN 1
  WHEN lifecycle = 'configured' THEN 15
  WHEN lifecycle = 'reconfigured' AND lock_state = 'locked' THEN 18
  WHEN lifecycle = 'reconfigured' THEN 19
  WHEN lock_state = 'locked' THEN 3
  WHEN lock_state = 'unlocked_offline' THEN 17
  WHEN lock_state = 'temporary_active' THEN 23
  ELSE 5
END) STORED
);
-- One live device per IMEI (deleted devices keep theirs for the history).
CREATE UNIQUE INDEX devices_imei ON devices (imei) WHERE deleted_at IS NULL;
CREATE INDEX devices_imei2 ON devices (imei2) WHERE deleted_at IS NULL AND imei2 IS NOT NULL;
-- Text search in serial, customer and credit reference.
CREATE INDEX devices_search ON devices
  USING gin ((lower(coalesce(serial, '') || ' ' || coalesce(customer_name, '') || ' ' || coalesce(credit_reference, ''))) gin_trgm_ops)
  WHERE deleted_at IS NULL;
-- Sorts (id breaks ties) and the filters combined with them.
CREATE INDEX devices_created ON devices (created_at, id) WHERE deleted_at IS NULL;
CREATE INDEX devices_last_seen ON devices (last_seen_at, id) WHERE deleted_at IS NULL;
CREATE INDEX devices_brand ON devices (brand, id) WHERE deleted_at IS NULL;
CREATE INDEX devices_status ON devices (base_status, last_seen_at, id) WHERE deleted_at IS NULL;
CREATE INDEX devices_status_created ON devices (base_status, created_at, id) WHERE deleted_at IS NULL;
CREATE INDEX devices_locked_type ON devices (lock_type, created_at, id) WHERE deleted_at IS NULL AND base_status = 3;
CREATE INDEX devices_group ON devices (group_id, created_at, id) WHERE deleted_at IS NULL;
CREATE INDEX devices_type ON devices (device_type, created_at, id) WHERE deleted_at IS NULL;

-- Live devices per (type, group, base status, lock type), kept by the statement triggers below:
-- totals and dashboard counts at 10^6 devices without a scan. group_id 0 = no group.
CREATE TABLE device_counts (
  device_type smallint NOT NULL,
  group_id integer NOT NULL,
  base_status smallint NOT NULL,
  lock_type text NOT NULL,
  n bigint NOT NULL,
  PRIMARY KEY (device_type, group_id, base_status, lock_type)
);

CREATE FUNCTION device_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
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
CREATE FUNCTION device_counts_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO device_counts AS c (device_type, group_id, base_status, lock_type, n)
  SELECT n.device_type, coalesce(n.group_id, 0), n.base_status, coalesce(n.lock_type, ''), count(*)
    FROM new_rows n WHERE n.deleted_at IS NULL
   GROUP BY 1, 2, 3, 4
   ORDER BY 1, 2, 3, 4
  ON CONFLICT (device_type, group_id, base_status, lock_type) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END;
$$;
CREATE FUNCTION device_counts_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO device_counts AS c (device_type, group_id, base_status, lock_type, n)
  SELECT o.device_type, coalesce(o.group_id, 0), o.base_status, coalesce(o.lock_type, ''), -count(*)
    FROM old_rows o WHERE o.deleted_at IS NULL
   GROUP BY 1, 2, 3, 4
   ORDER BY 1, 2, 3, 4
  ON CONFLICT (device_type, group_id, base_status, lock_type) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END;
$$;
CREATE TRIGGER device_counts_insert AFTER INSERT ON devices
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION device_counts_insert();
CREATE TRIGGER device_counts_update AFTER UPDATE ON devices
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION device_counts_apply();
CREATE TRIGGER device_counts_delete AFTER DELETE ON devices
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION device_counts_delete();

-- Commands to devices, stored before the request is answered and kept forever (the history).
-- Offline codes are rows too (status issued → redeemed); the code itself is not stored.
CREATE TABLE device_commands (
  id bigserial PRIMARY KEY,
  device_id bigint NOT NULL REFERENCES devices (id),
  action smallint NOT NULL CHECK (action BETWEEN 0 AND 13),
  payload jsonb NOT NULL DEFAULT '{}',
  origin smallint CHECK (origin IN (0, 1, 2)),
  status text NOT NULL CHECK (status IN ('pending', 'acknowledged', 'rejected', 'cancelled', 'issued', 'redeemed')),
  requested_at timestamptz NOT NULL DEFAULT now(),
  requested_by_admin_id integer,
  requested_by text,
  -- RELEASE waits out its cancellation window before the agent may receive it.
  deliver_after timestamptz NOT NULL DEFAULT now(),
  delivered_at timestamptz,
  acknowledged_at timestamptz,
  result text,
  -- Offline codes: the counter (nonce) and the expiry the code was derived with.
  nonce integer,
  expires_at timestamptz,
  job_id bigint
);
CREATE INDEX device_commands_device ON device_commands (device_id, id);
CREATE INDEX device_commands_pending ON device_commands (device_id, id) WHERE status = 'pending';

-- A retried request with the same Idempotency-Key gets the first answer instead of acting twice.
CREATE TABLE idempotency_keys (
  admin_id integer NOT NULL,
  key text NOT NULL,
  request_hash text NOT NULL,
  status_code smallint NOT NULL,
  response jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (admin_id, key)
);

-- Bulk actions run as jobs in batches; a job survives a restart (resumed by a live runner).
CREATE TABLE jobs (
  id bigserial PRIMARY KEY,
  kind text NOT NULL DEFAULT 'bulk_action',
  action smallint NOT NULL,
  payload jsonb NOT NULL,
  device_ids bigint[] NOT NULL,
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'completed', 'failed')),
  total integer NOT NULL,
  processed integer NOT NULL DEFAULT 0,
  succeeded integer NOT NULL DEFAULT 0,
  skipped integer NOT NULL DEFAULT 0,
  failed integer NOT NULL DEFAULT 0,
  created_by_admin_id integer,
  created_by text,
  actor jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz,
  error text,
  runner text,
  heartbeat_at timestamptz
);
CREATE INDEX jobs_unfinished ON jobs (id) WHERE status IN ('queued', 'running');
CREATE TABLE job_results (
  job_id bigint NOT NULL REFERENCES jobs (id),
  device_id bigint NOT NULL,
  outcome text NOT NULL CHECK (outcome IN ('done', 'skipped', 'failed')),
  reason text,
  command_id bigint,
  PRIMARY KEY (job_id, device_id)
);
