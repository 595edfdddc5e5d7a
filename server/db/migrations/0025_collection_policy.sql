-- The collection policy (Política de cobranza) and what its engine records (server/credits,
-- collectionEngine.ts): the policy's settings, global and per group, versioned as the agent
-- settings are (migrations 0010 and 0012); each step the policy took or skipped, once; the
-- credits' pause (Promesa de pago) and the hold after a person unlocked a device; the releases
-- waiting for an administrator's approval.

-- The global row (group_id NULL) and optional per-group overrides holding only the keys they
-- change. Every save takes a new version from one sequence, so versions only grow.
CREATE SEQUENCE collection_policy_version;
CREATE TABLE collection_policy (
  group_id integer REFERENCES device_groups (id) ON DELETE CASCADE,
  settings jsonb NOT NULL DEFAULT '{}',
  version bigint NOT NULL DEFAULT nextval('collection_policy_version'),
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by text
);
CREATE UNIQUE INDEX collection_policy_scope ON collection_policy ((coalesce(group_id, 0)));
INSERT INTO collection_policy (group_id) VALUES (NULL);

CREATE TABLE collection_policy_history (
  id bigserial PRIMARY KEY,
  group_id integer REFERENCES device_groups (id) ON DELETE CASCADE,
  version bigint NOT NULL,
  -- The keys the save changed: [{ key, before?, after? }] (absent: default or inherited).
  changes jsonb NOT NULL,
  changed_at timestamptz NOT NULL DEFAULT now(),
  changed_by text
);
CREATE INDEX collection_policy_history_scope ON collection_policy_history ((coalesce(group_id, 0)), version DESC);

-- One row per step of a credit the policy took ('done') or will never take ('skipped'). The key
-- names the installment and the step (shared/credits stepKey: '3:reminder:-3', '3:ladder:5:restrictions',
-- '0:release'; locks and unlocks, which are states, get the instant in theirs). The unique key is
-- what makes a step happen once however many replicas tick and however often a batch is retried:
-- the row is inserted in the transaction of the step's commands (ON CONFLICT DO NOTHING).
CREATE TABLE credit_steps (
  id bigserial PRIMARY KEY,
  credit_id bigint NOT NULL REFERENCES credits (id) ON DELETE CASCADE,
  installment integer NOT NULL,
  step_key text NOT NULL,
  -- reminder, notification, persistent_notification, restrictions, lock, unlock, lift_restrictions,
  -- release, release_request.
  kind text NOT NULL,
  outcome text NOT NULL CHECK (outcome IN ('done', 'skipped')),
  -- The device action the step sent (null: none, e.g. a release waiting for approval).
  action smallint,
  -- The devices it acted on, and those it passed over: [{ id, reason }].
  device_ids bigint[] NOT NULL DEFAULT '{}',
  skipped_devices jsonb NOT NULL DEFAULT '[]',
  -- Why, in Spanish: "vencido 5 días, 1,250.00 MXN, política Global v7", or why it was skipped.
  reason text NOT NULL,
  at timestamptz NOT NULL
);
CREATE UNIQUE INDEX credit_steps_once ON credit_steps (credit_id, step_key);
CREATE INDEX credit_steps_credit ON credit_steps (credit_id, at DESC, id DESC);

-- Promesa de pago: no reminder, rung or lock before paused_until; who and why. A manual unlock
-- of a device of an overdue credit holds the lock off until hold_until. `restricted`: the
-- collection restrictions are on (a restrictions rung applied, not yet lifted).
ALTER TABLE credits ADD COLUMN paused_until timestamptz;
ALTER TABLE credits ADD COLUMN paused_by text;
ALTER TABLE credits ADD COLUMN pause_reason text;
ALTER TABLE credits ADD COLUMN hold_until timestamptz;
ALTER TABLE credits ADD COLUMN restricted boolean NOT NULL DEFAULT false;
-- When the credit last became overdue (credit.overdue is sent once per time it does).
ALTER TABLE credits ADD COLUMN overdue_since date;

-- Releases at payoff waiting for an administrator (the policy's default). One pending request per
-- credit; approving sends RELEASE to its devices, rejecting leaves them as they are.
CREATE TABLE credit_release_approvals (
  id bigserial PRIMARY KEY,
  credit_id bigint NOT NULL REFERENCES credits (id) ON DELETE CASCADE,
  requested_at timestamptz NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
  decided_at timestamptz,
  decided_by text
);
CREATE UNIQUE INDEX credit_release_approvals_pending ON credit_release_approvals (credit_id) WHERE status = 'pending';
CREATE INDEX credit_release_approvals_status ON credit_release_approvals (status, requested_at DESC, id DESC);

-- The role actions 101 (Pausar cobranza) and 102 (Editar política de cobranza) go to the roles
-- that hold 100 (the bootstrap 'Administrador' and the whole administrators' menu since 0024):
-- otherwise nobody could grant them.
UPDATE profiles
   SET actions = ARRAY(SELECT DISTINCT a FROM unnest(actions || ARRAY[101, 102]) a ORDER BY a),
       updated_at = now()
 WHERE 100 = ANY (actions) AND NOT (actions @> ARRAY[101, 102]);
