-- The device side: agent tokens, enrollment tokens, the settings agents receive, the
-- 'Desbloqueado' lock state, administrative holds, and the notification that wakes a waiting
-- check-in when a command is created (LISTEN/NOTIFY, on every replica).

-- 'unlocked' (Desbloqueado, 11): an UNLOCK acknowledged; the next check-in makes it 'active'.
ALTER TABLE devices DROP CONSTRAINT devices_lock_state_check;
ALTER TABLE devices ADD CONSTRAINT devices_lock_state_check
  CHECK (lock_state IN ('active', 'locked', 'unlocked', 'unlocked_offline', 'temporary_active'));
-- SUSPENDED: the lifecycle the device returns to when the hold ends.
ALTER TABLE devices ADD COLUMN held_lifecycle text
  CHECK (held_lifecycle IN ('enrolled', 'configured', 'operating', 'reconfigured'));
-- What the agent last reported besides versions and SIM.
ALTER TABLE devices ADD COLUMN battery_level smallint CHECK (battery_level BETWEEN 0 AND 100);
ALTER TABLE devices ADD COLUMN agent_lock_state text CHECK (agent_lock_state IN ('locked', 'unlocked'));

-- base_status gains 'unlocked' → 11. PostgreSQL 15 cannot change a generated expression in
-- place: the column is added again (the indexes built on it go with it and are rebuilt below,
-- identical; a test compares them with those of 0006/0007).
ALTER TABLE devices DROP COLUMN base_status;
ALTER TABLE devices ADD COLUMN base_status smallint GENERATED ALWAYS AS (CASE
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
  WHEN lock_state = 'unlocked' THEN 11
  WHEN lock_state = 'unlocked_offline' THEN 17
  WHEN lock_state = 'temporary_active' THEN 23
  ELSE 5
END) STORED;
CREATE INDEX devices_status ON devices (base_status, last_seen_at, id) WHERE deleted_at IS NULL;
CREATE INDEX devices_status_created ON devices (base_status, created_at, id) WHERE deleted_at IS NULL;
CREATE INDEX devices_locked_type ON devices (lock_type, created_at, id) WHERE deleted_at IS NULL AND base_status = 3;
CREATE INDEX devices_enrolled_created ON devices (created_at, id) WHERE deleted_at IS NULL AND base_status <> 25;
CREATE INDEX devices_enrolled_last_seen ON devices (last_seen_at, id) WHERE deleted_at IS NULL AND base_status <> 25;
CREATE INDEX devices_type_created ON devices (device_type, created_at, id) WHERE deleted_at IS NULL AND base_status <> 25;
CREATE INDEX devices_type_last_seen ON devices (device_type, last_seen_at, id) WHERE deleted_at IS NULL AND base_status <> 25;
CREATE INDEX devices_type_imei ON devices (device_type, imei) WHERE deleted_at IS NULL AND base_status <> 25;
CREATE INDEX devices_group_created ON devices ((coalesce(group_id, 0)), created_at, id) WHERE deleted_at IS NULL AND base_status <> 25;
CREATE INDEX devices_group_last_seen ON devices ((coalesce(group_id, 0)), last_seen_at, id) WHERE deleted_at IS NULL AND base_status <> 25;
CREATE INDEX devices_group_imei ON devices ((coalesce(group_id, 0)), imei) WHERE deleted_at IS NULL AND base_status <> 25;
CREATE INDEX devices_status_imei ON devices (base_status, imei) WHERE deleted_at IS NULL;
CREATE INDEX devices_locked_type_last_seen ON devices (lock_type, last_seen_at, id) WHERE deleted_at IS NULL AND base_status = 3;
CREATE INDEX devices_locked_type_imei ON devices (lock_type, imei) WHERE deleted_at IS NULL AND base_status = 3;
-- Temporary unlocks that run out: the server locks them again (a sweep reads this range).
CREATE INDEX devices_temporary_until ON devices (temporary_until) WHERE deleted_at IS NULL AND lock_state = 'temporary_active';

-- A device's credential on the agent API: random, stored as its SHA-256, revocable.
CREATE TABLE agent_tokens (
  token_hash bytea PRIMARY KEY,
  device_id bigint NOT NULL REFERENCES devices (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz
);
CREATE INDEX agent_tokens_device ON agent_tokens (device_id) WHERE revoked_at IS NULL;

-- What a QR code (or a code typed on a TV) carries to enroll a device: per group, per device,
-- or for devices with no group. Stored as its SHA-256; shown once.
CREATE TABLE enrollment_tokens (
  id serial PRIMARY KEY,
  token_hash bytea NOT NULL UNIQUE,
  hint text NOT NULL,
  group_id integer REFERENCES device_groups (id) ON DELETE CASCADE,
  device_id bigint REFERENCES devices (id),
  created_by_admin_id integer,
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz,
  uses integer NOT NULL DEFAULT 0,
  last_used_at timestamptz,
  CHECK (group_id IS NULL OR device_id IS NULL)
);
CREATE INDEX enrollment_tokens_scope ON enrollment_tokens ((coalesce(group_id, 0)), (coalesce(device_id, 0))) WHERE revoked_at IS NULL;

-- The settings agents apply, per device type: the global row (group_id NULL) and optional
-- per-group overrides holding only what they change. Every save takes a new version from one
-- sequence, so the version a device sees (the greater of its two rows) only grows.
CREATE SEQUENCE agent_settings_version;
CREATE TABLE agent_settings (
  device_type smallint NOT NULL CHECK (device_type IN (1, 2)),
  group_id integer REFERENCES device_groups (id) ON DELETE CASCADE,
  settings jsonb NOT NULL DEFAULT '{}',
  version bigint NOT NULL DEFAULT nextval('agent_settings_version'),
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by text
);
CREATE UNIQUE INDEX agent_settings_scope ON agent_settings (device_type, (coalesce(group_id, 0)));
INSERT INTO agent_settings (device_type, group_id) VALUES (1, NULL), (2, NULL);

-- The lock-app version a factory-reset phone downloads when it scans the provisioning QR.
ALTER TABLE lock_app_versions ADD COLUMN package_name text;
ALTER TABLE lock_app_versions ADD COLUMN download_url text CHECK (download_url ~ '^https://');
-- SHA-256 of the APK, URL-safe base64 without padding (Android's PROVISIONING_DEVICE_ADMIN_PACKAGE_CHECKSUM).
ALTER TABLE lock_app_versions ADD COLUMN package_checksum text CHECK (package_checksum ~ '^[A-Za-z0-9_-]{43}$');

-- Instant delivery: a command an agent may receive now wakes the check-ins waiting for its device,
-- on every replica (LISTEN agent_commands). The payload is a comma-separated list of device ids,
-- sent at commit; a statement creating many commands sends them in chunks under the 8,000-byte limit.
CREATE FUNCTION agent_commands_notify() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  chunk text;
BEGIN
  FOR chunk IN
    SELECT string_agg(device_id::text, ',')
      FROM (SELECT DISTINCT device_id, (dense_rank() OVER (ORDER BY device_id) - 1) / 500 AS part
              FROM new_rows WHERE status = 'pending' AND deliver_after <= now() + interval '1 minute') d
     GROUP BY part
  LOOP
    PERFORM pg_notify('agent_commands', chunk);
  END LOOP;
  RETURN NULL;
END;
$$;
CREATE TRIGGER agent_commands_notify AFTER INSERT ON device_commands
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION agent_commands_notify();

-- Pending commands by action for /metrics, and the deliverable ones of a device in order.
CREATE INDEX device_commands_pending_action ON device_commands (action) WHERE status = 'pending';
-- A bulk job's commands by where they are (the job's progress view).
CREATE INDEX device_commands_job ON device_commands (job_id) WHERE job_id IS NOT NULL;
