-- The lender's integration: API keys, idempotency per key, and the webhooks' transactional outbox.

-- A key acts with a role's grants, never more than its creator holds now. The secret is shown
-- once; only its SHA-256 is kept (it is 256 random bits: no slow hash is needed). `prefix` is
-- the public part of the key that identifies it in lists and finds it on each request.
CREATE TABLE api_keys (
  id serial PRIMARY KEY,
  name text NOT NULL,
  prefix text COLLATE "C" NOT NULL,
  secret_hash text NOT NULL,
  -- A role used by a key that is not revoked cannot be deleted; a revoked key loses its role with it.
  profile_id integer REFERENCES profiles (id) ON DELETE SET NULL,
  -- CIDR blocks the key may be used from; empty: from anywhere.
  allowed_ips text[] NOT NULL DEFAULT '{}',
  expires_at timestamptz,
  created_by_admin_id integer,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  last_used_ip text,
  revoked_at timestamptz,
  revoked_by text
);
CREATE UNIQUE INDEX api_keys_prefix ON api_keys (prefix);
CREATE UNIQUE INDEX api_keys_name ON api_keys (lower(name)) WHERE revoked_at IS NULL;
CREATE INDEX api_keys_profile ON api_keys (profile_id) WHERE revoked_at IS NULL;

-- Idempotency keys are scoped by administrator, or by API key (0: a portal session).
ALTER TABLE idempotency_keys ADD COLUMN api_key_id integer NOT NULL DEFAULT 0;
ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_pkey;
ALTER TABLE idempotency_keys ADD PRIMARY KEY (admin_id, api_key_id, key);

-- Webhook subscriptions: an https URL, the event types it wants, its signing secret (kept: every
-- delivery is signed with it).
CREATE TABLE webhook_subscriptions (
  id serial PRIMARY KEY,
  name text NOT NULL,
  url text NOT NULL,
  events text[] NOT NULL,
  secret text NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  -- Why the server disabled it (null when an administrator did, or when enabled).
  disabled_reason text,
  disabled_at timestamptz,
  -- The first failed attempt since the last success: 24 hours of failures disable the subscription.
  failing_since timestamptz,
  created_by_admin_id integer,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- The outbox: every event row is written by a trigger in the transaction of the change it tells
-- (no change without its event, no event without its change), and only when an enabled
-- subscription wants its type. `order_key` groups the events delivered in order: a device's id,
-- or minus a job's id.
CREATE TABLE webhook_events (
  id bigserial PRIMARY KEY,
  type text NOT NULL,
  order_key bigint NOT NULL,
  data jsonb NOT NULL,
  occurred_at timestamptz NOT NULL DEFAULT now()
);

-- One delivery per event and subscription. A delivery is claimed for `claimed_until` (longer
-- than an attempt can take), so two replicas never send it at once and a killed process's
-- claim runs out and the delivery is sent again (at least once). `claimed_by` keeps the replica
-- that made the last attempt.
CREATE TABLE webhook_deliveries (
  id bigserial PRIMARY KEY,
  event_id bigint NOT NULL REFERENCES webhook_events (id) ON DELETE CASCADE,
  subscription_id integer NOT NULL REFERENCES webhook_subscriptions (id) ON DELETE CASCADE,
  order_key bigint NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  claimed_until timestamptz,
  claimed_by text,
  last_attempt_at timestamptz,
  response_status smallint,
  duration_ms integer,
  error text,
  delivered_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at, id) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_order ON webhook_deliveries (subscription_id, order_key, id) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_log ON webhook_deliveries (subscription_id, id);
CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_id);

-- Whether an enabled subscription wants an event type (each trigger asks once per statement).
CREATE FUNCTION webhook_wanted(event_type text) RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT EXISTS (SELECT 1 FROM webhook_subscriptions WHERE enabled AND event_type = ANY (events))
$$;

-- The fan-out: a delivery for every enabled subscription that wants the event, and a wake-up
-- for the dispatchers (delivered at commit).
CREATE FUNCTION webhook_events_fan_out() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO webhook_deliveries (event_id, subscription_id, order_key)
  SELECT e.id, s.id, e.order_key
    FROM new_events e JOIN webhook_subscriptions s ON s.enabled AND e.type = ANY (s.events)
   ORDER BY e.id, s.id;
  PERFORM pg_notify('webhook_deliveries', '');
  RETURN NULL;
END;
$$;
CREATE TRIGGER webhook_events_fan_out AFTER INSERT ON webhook_events
  REFERENCING NEW TABLE AS new_events FOR EACH STATEMENT EXECUTE FUNCTION webhook_events_fan_out();

-- What every device event says of the device.
CREATE FUNCTION webhook_device_data(d devices) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
  SELECT jsonb_build_object('deviceId', d.id, 'imei', d.imei, 'imei2', d.imei2, 'serial', d.serial,
    'creditReference', d.credit_reference, 'deviceType', d.device_type, 'groupId', d.group_id)
$$;

-- devices: enrolled (enrolled_at set) and status changed (the stored status; 'Sin conexión'
-- depends on the clock and is no change). Old and new rows are matched by id through one
-- aggregate (hashed or sorted), never by a join of the transition tables: the plan is cached
-- from the first statement (often one row), and a nested loop over a bulk action's thousands of
-- rows would be quadratic.
CREATE FUNCTION webhook_devices_events() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  want_enrolled boolean := webhook_wanted('device.enrolled');
  want_status boolean := webhook_wanted('device.status_changed');
BEGIN
  IF NOT (want_enrolled OR want_status) THEN
    RETURN NULL;
  END IF;
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
CREATE TRIGGER webhook_devices_events AFTER UPDATE ON devices
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION webhook_devices_events();

-- device_commands: delivered, acknowledged, rejected, and an offline code redeemed (old and new
-- rows matched by an aggregate, as above; the device by its primary key).
CREATE FUNCTION webhook_commands_events() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  wanted text[] := ARRAY(
    SELECT t FROM unnest(ARRAY['command.delivered', 'command.acknowledged', 'command.rejected', 'offline_code.redeemed']) t
     WHERE webhook_wanted(t));
BEGIN
  IF cardinality(wanted) = 0 THEN
    RETURN NULL;
  END IF;
  INSERT INTO webhook_events (type, order_key, data, occurred_at)
  SELECT t.type, c.device_id,
         webhook_device_data(d) || jsonb_build_object('commandId', c.id, 'action', c.action, 'status', c.new_status,
           'result', c.result, 'jobId', c.job_id, 'requestedAt', c.requested_at, 'deliveredAt', c.new_delivered,
           'acknowledgedAt', c.acknowledged_at),
         t.at
    FROM (
      SELECT id,
             max(device_id) AS device_id,
             max(action) FILTER (WHERE side = 1) AS action,
             max(status) FILTER (WHERE side = 0) AS old_status,
             max(status) FILTER (WHERE side = 1) AS new_status,
             max(delivered_at) FILTER (WHERE side = 0) AS old_delivered,
             max(delivered_at) FILTER (WHERE side = 1) AS new_delivered,
             max(acknowledged_at) FILTER (WHERE side = 1) AS acknowledged_at,
             max(result) FILTER (WHERE side = 1) AS result,
             max(job_id) FILTER (WHERE side = 1) AS job_id,
             max(requested_at) FILTER (WHERE side = 1) AS requested_at
        FROM (
          SELECT o.id, 0 AS side, o.device_id, o.action, o.status, o.delivered_at, o.acknowledged_at, o.result, o.job_id, o.requested_at
            FROM old_rows o
          UNION ALL
          SELECT n.id, 1, n.device_id, n.action, n.status, n.delivered_at, n.acknowledged_at, n.result, n.job_id, n.requested_at
            FROM new_rows n
        ) r
       GROUP BY id
    ) c
    CROSS JOIN LATERAL (VALUES
      (1, 'command.delivered', c.new_delivered,
          c.old_delivered IS NULL AND c.new_delivered IS NOT NULL AND c.new_status <> 'redeemed'),
      (2, CASE c.new_status WHEN 'acknowledged' THEN 'command.acknowledged' WHEN 'rejected' THEN 'command.rejected'
                            ELSE 'offline_code.redeemed' END, c.acknowledged_at,
          c.old_status <> c.new_status AND c.new_status IN ('acknowledged', 'rejected', 'redeemed'))
    ) t (k, type, at, happened)
    JOIN devices d ON d.id = c.device_id
   WHERE t.happened AND t.type = ANY (wanted)
   ORDER BY c.device_id, c.id, t.k;
  RETURN NULL;
END;
$$;
CREATE TRIGGER webhook_commands_events AFTER UPDATE ON device_commands
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION webhook_commands_events();

-- jobs: a bulk action finished (completed or failed).
CREATE FUNCTION webhook_jobs_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT webhook_wanted('job.finished') THEN
    RETURN NULL;
  END IF;
  INSERT INTO webhook_events (type, order_key, data, occurred_at)
  SELECT 'job.finished', -n.id,
         jsonb_build_object('jobId', n.id, 'action', n.action, 'status', n.status, 'total', n.total,
           'succeeded', n.succeeded, 'skipped', n.skipped, 'failed', n.failed, 'error', n.error, 'finishedAt', n.finished_at),
         coalesce(n.finished_at, now())
    FROM new_rows n JOIN old_rows o ON o.id = n.id
   WHERE o.status IN ('queued', 'running') AND n.status IN ('completed', 'failed')
   ORDER BY n.id;
  RETURN NULL;
END;
$$;
CREATE TRIGGER webhook_jobs_events AFTER UPDATE ON jobs
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION webhook_jobs_events();

-- The three new pages go to the profiles that already hold the whole administrators' menu (the
-- bootstrap 'Administrador'): otherwise nobody could grant them (a role manager grants only what
-- they hold).
UPDATE profiles
   SET paths = paths || ARRAY['/admin-settings/api-keys', '/admin-settings/webhooks', '/admin-settings/api-reference'], updated_at = now()
 WHERE '/admin-settings/admins' = ANY (paths) AND '/admin-settings/roles' = ANY (paths) AND '/admin-settings/audit' = ANY (paths)
   AND NOT ('/admin-settings/api-keys' = ANY (paths));
