-- The searched text of a device in a narrow table of its own.
-- On `devices`, the word index (about 27 entries a device) and the trigram index were written
-- again by every update that is not HOT: a lock (base_status is indexed), a bulk action, a
-- check-in that records its last-seen time. Here they are written only when the searched columns
-- (serial, customer name, credit reference) are: the device list joins this table by its key.
-- Every device has its row (deleted ones too: the list's conditions on `devices` leave them out).
CREATE TABLE device_search (
  device_id bigint PRIMARY KEY,
  search_text text NOT NULL,
  search_words tsvector NOT NULL
);

INSERT INTO device_search (device_id, search_text, search_words)
SELECT id, coalesce(search_text, device_search_text(serial, customer_name, credit_reference)),
       coalesce(search_words, search_words(coalesce(search_text, device_search_text(serial, customer_name, credit_reference))))
  FROM devices;

CREATE INDEX device_search_text ON device_search USING gin (search_text gin_trgm_ops);
CREATE INDEX device_search_words ON device_search USING gin (search_words);

DROP TRIGGER devices_search_text ON devices;
DROP FUNCTION devices_search_text();
DROP INDEX devices_search, devices_search_words;
ALTER TABLE devices DROP COLUMN search_text, DROP COLUMN search_words;

-- New devices, one statement at a time (a CSV import, a seed: one INSERT … SELECT).
CREATE FUNCTION device_search_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO device_search (device_id, search_text, search_words)
  SELECT n.id, t.folded, search_words(t.folded)
    FROM new_rows n, LATERAL (SELECT device_search_text(n.serial, n.customer_name, n.credit_reference) AS folded) t;
  RETURN NULL;
END;
$$;
CREATE TRIGGER device_search_insert AFTER INSERT ON devices
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION device_search_insert();

-- An edit of the searched columns (a row trigger: only statements that name them fire it, so
-- status writes and bulk actions never do).
CREATE FUNCTION device_search_update() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  folded text := device_search_text(NEW.serial, NEW.customer_name, NEW.credit_reference);
BEGIN
  INSERT INTO device_search AS s (device_id, search_text, search_words)
  VALUES (NEW.id, folded, search_words(folded))
  ON CONFLICT (device_id) DO UPDATE SET search_text = excluded.search_text, search_words = excluded.search_words;
  RETURN NULL;
END;
$$;
CREATE TRIGGER device_search_update AFTER UPDATE OF serial, customer_name, credit_reference ON devices
  FOR EACH ROW
  WHEN (OLD.serial IS DISTINCT FROM NEW.serial OR OLD.customer_name IS DISTINCT FROM NEW.customer_name
        OR OLD.credit_reference IS DISTINCT FROM NEW.credit_reference)
  EXECUTE FUNCTION device_search_update();

-- A device removed for good (the API only soft-deletes; tests and maintenance may delete).
CREATE FUNCTION device_search_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM device_search s USING old_rows o WHERE s.device_id = o.id;
  RETURN NULL;
END;
$$;
CREATE TRIGGER device_search_delete AFTER DELETE ON devices
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION device_search_delete();

-- The list's pages read their keys from the index of the sort and filter alone (index-only scans,
-- server/devices/deviceRepository.ts): the indexes hold the columns the filters read.
-- - The enrolled sort indexes carry the status, the last contact and the agent version: the
--   offline filter ('Sin conexión', a clock-dependent range) and the agent-version filters are
--   checked in the index (else they walk the rows).
-- - The IMEI order of the enrolled devices has an index of its own (devices_imei also holds the
--   pre-enrolled ones, which the page then skipped row by row).
-- - The group indexes hold group_id (an index on an expression alone cannot serve an index-only scan).
-- - The agent version in IMEI order (the dashboards' link; a walk of devices_imei in IMEI order
--   skips every device of the other versions to reach a page).
-- - This month's releases carry the sort keys (sorted without reading their rows).
DROP INDEX devices_enrolled_created, devices_enrolled_last_seen, devices_group_created, devices_group_last_seen, devices_group_imei,
  devices_released;
CREATE INDEX devices_enrolled_created ON devices (created_at, id) INCLUDE (base_status, last_seen_at, agent_version)
  WHERE deleted_at IS NULL AND base_status <> 25;
CREATE INDEX devices_enrolled_last_seen ON devices (last_seen_at, id) INCLUDE (base_status, created_at, imei, agent_version)
  WHERE deleted_at IS NULL AND base_status <> 25;
CREATE INDEX devices_enrolled_imei ON devices (imei) INCLUDE (base_status, last_seen_at, agent_version)
  WHERE deleted_at IS NULL AND base_status <> 25;
CREATE INDEX devices_group_created ON devices ((coalesce(group_id, 0)), created_at, id) INCLUDE (group_id)
  WHERE deleted_at IS NULL AND base_status <> 25;
CREATE INDEX devices_group_last_seen ON devices ((coalesce(group_id, 0)), last_seen_at, id) INCLUDE (group_id)
  WHERE deleted_at IS NULL AND base_status <> 25;
CREATE INDEX devices_group_imei ON devices ((coalesce(group_id, 0)), imei) INCLUDE (group_id) WHERE deleted_at IS NULL AND base_status <> 25;
CREATE INDEX devices_agent_version_imei ON devices (agent_version, imei) WHERE deleted_at IS NULL AND base_status <> 25 AND base_status <> 9;
CREATE INDEX devices_released ON devices (released_at, id) INCLUDE (created_at, last_seen_at, imei) WHERE deleted_at IS NULL AND base_status = 9;
