-- The audit log: who changed what, when, from where, with the values before and after.
-- Append-only: rows are inserted in the same transaction as the change they describe and are
-- never updated or deleted (the trigger below refuses it, whoever asks).
CREATE TABLE audit_log (
  id bigserial PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT now(),
  -- No foreign key: the log outlives the administrators it names.
  actor_admin_id integer,
  actor_email text,
  ip text,
  request_id text,
  entity text NOT NULL,
  entity_id text,
  action text NOT NULL,
  before jsonb,
  after jsonb,
  outcome text NOT NULL DEFAULT 'success' CHECK (outcome IN ('success', 'failure')),
  detail text
);
-- The filters of the audit page (newest first is the id order): date range, actor, entity.
CREATE INDEX audit_log_at ON audit_log (at);
CREATE INDEX audit_log_actor ON audit_log (lower(actor_email), id);
CREATE INDEX audit_log_entity ON audit_log (entity, id);

CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;
-- Statement-level: even an UPDATE or DELETE that matches no row is refused.
CREATE TRIGGER audit_log_append_only
  BEFORE UPDATE OR DELETE OR TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();

-- Existing installations: the new page goes to the profiles that manage roles (nobody could
-- grant a path nobody holds). A new installation has no profile yet; the bootstrap grants it.
UPDATE profiles SET paths = array_append(paths, '/admin-settings/audit')
 WHERE '/admin-settings/roles' = ANY (paths) AND NOT '/admin-settings/audit' = ANY (paths);
