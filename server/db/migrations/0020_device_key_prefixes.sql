-- The four first digits of the keys a search of digits finds (either IMEI, the serial, the credit
-- reference), in a narrow table of their own, in the order of the device list. Four digits are
-- shorter than a TAC (the model's first eight digits) and match the devices of whole models:
-- thousands of them in a large fleet. Through the btree ranges of `devices` they were all fetched
-- and sorted for a page of 25. Here
-- the page reads the prefix's devices newest (or oldest) first and stops, and their number is an
-- index-only count.
-- One row per live device and prefix (a device whose two IMEIs share their TAC has one), with
-- whether the device is only registered (the two device pages' stages). The rows are written
-- when those facts change (a registration, an edit, an import, an enrollment, a deletion), never
-- by a status write or a check-in: the table's pages stay all-visible and its reads index-only.
CREATE FUNCTION device_key_prefixes(imei text, imei2 text, serial text, credit_reference text) RETURNS SETOF text
  LANGUAGE sql IMMUTABLE AS $$
  SELECT DISTINCT left(k, 4) FROM (VALUES (imei), (imei2), (lower(serial)), (lower(credit_reference))) v(k) WHERE k ~ '^[0-9]{4}'
$$;

CREATE TABLE device_key_prefixes (
  prefix text NOT NULL,
  created_at timestamptz NOT NULL,
  device_id bigint NOT NULL,
  pre_enrolled boolean NOT NULL
);

INSERT INTO device_key_prefixes (prefix, created_at, device_id, pre_enrolled)
SELECT p, d.created_at, d.id, d.lifecycle = 'pre_enrolled'
  FROM devices d, device_key_prefixes(d.imei, d.imei2, d.serial, d.credit_reference) p
 WHERE d.deleted_at IS NULL;

CREATE INDEX device_key_prefixes_order ON device_key_prefixes (prefix, created_at, device_id) INCLUDE (pre_enrolled);
CREATE INDEX device_key_prefixes_device ON device_key_prefixes (device_id);
ANALYZE device_key_prefixes;

-- New devices, one statement at a time (a CSV import, a seed's COPY).
CREATE FUNCTION device_key_prefixes_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO device_key_prefixes (prefix, created_at, device_id, pre_enrolled)
  SELECT p, n.created_at, n.id, n.lifecycle = 'pre_enrolled'
    FROM new_rows n, device_key_prefixes(n.imei, n.imei2, n.serial, n.credit_reference) p
   WHERE n.deleted_at IS NULL;
  RETURN NULL;
END;
$$;
CREATE TRIGGER device_key_prefixes_insert AFTER INSERT ON devices
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION device_key_prefixes_insert();

-- A change of what the rows hold (a row trigger: only statements that name these columns fire
-- it, and only when a row's facts differ; status writes and check-ins do not).
CREATE FUNCTION device_key_prefixes_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM device_key_prefixes WHERE device_id = NEW.id;
  INSERT INTO device_key_prefixes (prefix, created_at, device_id, pre_enrolled)
  SELECT p, NEW.created_at, NEW.id, NEW.lifecycle = 'pre_enrolled'
    FROM device_key_prefixes(NEW.imei, NEW.imei2, NEW.serial, NEW.credit_reference) p
   WHERE NEW.deleted_at IS NULL;
  RETURN NULL;
END;
$$;
CREATE TRIGGER device_key_prefixes_update AFTER UPDATE OF imei, imei2, serial, credit_reference, created_at, deleted_at, lifecycle ON devices
  FOR EACH ROW
  WHEN (OLD.imei IS DISTINCT FROM NEW.imei OR OLD.imei2 IS DISTINCT FROM NEW.imei2 OR OLD.serial IS DISTINCT FROM NEW.serial
        OR OLD.credit_reference IS DISTINCT FROM NEW.credit_reference OR OLD.created_at IS DISTINCT FROM NEW.created_at
        OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at OR (OLD.lifecycle = 'pre_enrolled') <> (NEW.lifecycle = 'pre_enrolled'))
  EXECUTE FUNCTION device_key_prefixes_update();

-- A device removed for good (the API only soft-deletes; tests and maintenance may delete).
CREATE FUNCTION device_key_prefixes_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM device_key_prefixes k USING old_rows o WHERE k.device_id = o.id;
  RETURN NULL;
END;
$$;
CREATE TRIGGER device_key_prefixes_delete AFTER DELETE ON devices
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION device_key_prefixes_delete();
