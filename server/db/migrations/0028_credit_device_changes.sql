-- A credit's plan depends on its devices: which devices carry its reference, and the group whose
-- policy applies. Every write that changes either (a device's edit, a CSV import, a group's
-- deletion, the lender's PUT, a deletion) puts the credits concerned first in the collection
-- engine's queue, here rather than in each of those paths, so none can forget it. The epoch is
-- "due now" for any clock the server runs on; the engine's tick sets the real next step.
CREATE FUNCTION credits_replan_for_device() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE credits SET next_step_at = 'epoch'
   WHERE lower(reference) IN (lower(NEW.credit_reference), lower(CASE WHEN TG_OP = 'UPDATE' THEN OLD.credit_reference END))
     AND next_step_at IS DISTINCT FROM 'epoch';
  RETURN NULL;
END $$;

CREATE TRIGGER credits_replan_device_insert AFTER INSERT ON devices
  FOR EACH ROW WHEN (NEW.credit_reference IS NOT NULL) EXECUTE FUNCTION credits_replan_for_device();
CREATE TRIGGER credits_replan_device_update AFTER UPDATE OF credit_reference, group_id, deleted_at ON devices
  FOR EACH ROW WHEN (
    OLD.credit_reference IS DISTINCT FROM NEW.credit_reference
    OR (NEW.credit_reference IS NOT NULL AND (OLD.group_id IS DISTINCT FROM NEW.group_id OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at))
  ) EXECUTE FUNCTION credits_replan_for_device();
