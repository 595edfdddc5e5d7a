-- The device list at 10^6 devices: every offered sort (created_at, imei, last_seen_at) has an
-- index behind each filter (type, group, status, locked by lock type), so a page is an
-- ordered index range whatever the combination; digit searches are btree prefixes.

-- A settled device (enrolled, configured, operating) has been seen: the offline filters are
-- then plain ranges of last_seen_at (shared/deviceStatus.ts relies on it).
-- (SETTLED_LIFECYCLES of shared/deviceStatus.ts)
ALTER TABLE devices ADD CONSTRAINT devices_settled_seen
  CHECK (lifecycle NOT IN ('enrolled', 'configured', 'operating', 'reconfigured') OR last_seen_at IS NOT NULL);

-- The enrolled devices page lists every status but PRE_ENROLLED, and new registrations are
-- both the newest and never seen: its indexes leave them out, so no page walks past them.
-- Brand is no longer a sort; the sort and filter indexes of 0006 are replaced by enrolled-only
-- ones (the pages always name their stage; every index costs each bulk update).
DROP INDEX devices_brand, devices_group, devices_type, devices_created, devices_last_seen;

CREATE INDEX devices_enrolled_created ON devices (created_at, id) WHERE deleted_at IS NULL AND base_status <> 25;
CREATE INDEX devices_enrolled_last_seen ON devices (last_seen_at, id) WHERE deleted_at IS NULL AND base_status <> 25;
CREATE INDEX devices_type_created ON devices (device_type, created_at, id) WHERE deleted_at IS NULL AND base_status <> 25;
CREATE INDEX devices_type_last_seen ON devices (device_type, last_seen_at, id) WHERE deleted_at IS NULL AND base_status <> 25;
CREATE INDEX devices_type_imei ON devices (device_type, imei) WHERE deleted_at IS NULL AND base_status <> 25;
-- coalesce: "no group" (0) is an equality, so the index order serves the sort (IS NULL is not).
CREATE INDEX devices_group_created ON devices ((coalesce(group_id, 0)), created_at, id) WHERE deleted_at IS NULL AND base_status <> 25;
CREATE INDEX devices_group_last_seen ON devices ((coalesce(group_id, 0)), last_seen_at, id) WHERE deleted_at IS NULL AND base_status <> 25;
CREATE INDEX devices_group_imei ON devices ((coalesce(group_id, 0)), imei) WHERE deleted_at IS NULL AND base_status <> 25;
-- Moving or deleting a group (the foreign key check).
CREATE INDEX devices_group_id ON devices (group_id);
-- Status filters (pre-enrolled included) and the locked ones by lock type, with each sort.
CREATE INDEX devices_status_imei ON devices (base_status, imei) WHERE deleted_at IS NULL;
CREATE INDEX devices_locked_type_last_seen ON devices (lock_type, last_seen_at, id) WHERE deleted_at IS NULL AND base_status = 3;
CREATE INDEX devices_locked_type_imei ON devices (lock_type, imei) WHERE deleted_at IS NULL AND base_status = 3;

-- Digits: a prefix of the IMEIs, the serial or the credit reference (the planner combines the
-- btree ranges; the statistics on the expressions let it see how few rows a prefix matches).
CREATE INDEX devices_serial_prefix ON devices (lower(serial) text_pattern_ops) WHERE deleted_at IS NULL;
CREATE INDEX devices_credit_prefix ON devices (lower(credit_reference) text_pattern_ops) WHERE deleted_at IS NULL;
CREATE STATISTICS devices_prefix_stats ON (lower(serial)), (lower(credit_reference)) FROM devices;
