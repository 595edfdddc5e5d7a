-- The enrolled devices' list indexes (all, by type, by group, by agent version, each in the order
-- of the three sorts) hold no device with a command in flight (the statuses of IN_FLIGHT_STATUSES
-- in shared/deviceStatus.ts' rules: bloqueando, desbloqueando, liberando, configurando,
-- desbloqueo temporal en curso). A lock, an unlock or a release moves the device into an in-flight
-- status: its new row version is no longer written into these twelve indexes, only into the ones
-- that keep every status: a bulk lock's UPDATE writes about half the index entries per row it
-- wrote (13 of 24, with the index at the end of this file), and its time falls about as much.
-- Those devices stay listed: a list that does not choose a status or in-flight-ness is read as
-- two halves (deviceQueries.ts, inFlightHalves): these indexes, and the in-flight ones, each in order.
DROP INDEX devices_enrolled_created, devices_enrolled_last_seen, devices_enrolled_imei,
  devices_type_created, devices_type_last_seen, devices_type_imei,
  devices_group_created, devices_group_last_seen, devices_group_imei,
  devices_agent_version, devices_agent_version_last_seen, devices_agent_version_imei;

CREATE INDEX devices_enrolled_created ON devices (created_at, id) INCLUDE (base_status, last_seen_at, agent_version)
  WHERE deleted_at IS NULL AND base_status <> 25 AND base_status NOT IN (4, 24, 6, 10, 16);
CREATE INDEX devices_enrolled_last_seen ON devices (last_seen_at, id) INCLUDE (base_status, created_at, imei, agent_version)
  WHERE deleted_at IS NULL AND base_status <> 25 AND base_status NOT IN (4, 24, 6, 10, 16);
CREATE INDEX devices_enrolled_imei ON devices (imei) INCLUDE (base_status, last_seen_at, agent_version)
  WHERE deleted_at IS NULL AND base_status <> 25 AND base_status NOT IN (4, 24, 6, 10, 16);

CREATE INDEX devices_type_created ON devices (device_type, created_at, id)
  WHERE deleted_at IS NULL AND base_status <> 25 AND base_status NOT IN (4, 24, 6, 10, 16);
CREATE INDEX devices_type_last_seen ON devices (device_type, last_seen_at, id)
  WHERE deleted_at IS NULL AND base_status <> 25 AND base_status NOT IN (4, 24, 6, 10, 16);
CREATE INDEX devices_type_imei ON devices (device_type, imei)
  WHERE deleted_at IS NULL AND base_status <> 25 AND base_status NOT IN (4, 24, 6, 10, 16);

CREATE INDEX devices_group_created ON devices ((coalesce(group_id, 0)), created_at, id) INCLUDE (group_id)
  WHERE deleted_at IS NULL AND base_status <> 25 AND base_status NOT IN (4, 24, 6, 10, 16);
CREATE INDEX devices_group_last_seen ON devices ((coalesce(group_id, 0)), last_seen_at, id) INCLUDE (group_id)
  WHERE deleted_at IS NULL AND base_status <> 25 AND base_status NOT IN (4, 24, 6, 10, 16);
CREATE INDEX devices_group_imei ON devices ((coalesce(group_id, 0)), imei) INCLUDE (group_id)
  WHERE deleted_at IS NULL AND base_status <> 25 AND base_status NOT IN (4, 24, 6, 10, 16);

CREATE INDEX devices_agent_version ON devices (agent_version, created_at, id)
  WHERE deleted_at IS NULL AND base_status <> 25 AND base_status <> 9 AND base_status NOT IN (4, 24, 6, 10, 16);
CREATE INDEX devices_agent_version_last_seen ON devices (agent_version, last_seen_at, id)
  WHERE deleted_at IS NULL AND base_status <> 25 AND base_status <> 9 AND base_status NOT IN (4, 24, 6, 10, 16);
CREATE INDEX devices_agent_version_imei ON devices (agent_version, imei)
  WHERE deleted_at IS NULL AND base_status <> 25 AND base_status <> 9 AND base_status NOT IN (4, 24, 6, 10, 16);

-- The in-flight half of a type's list in IMEI order: a type's IMEIs are not spread over the
-- others' (a television's follow the phones'), so the in-flight IMEI index alone was walked past
-- every phone in flight to reach a television's page. Devices by type and registration or last contact interleave
-- in time, and groups and agent versions in IMEI order: the 0013 indexes serve those halves.
CREATE INDEX devices_in_flight_type_imei ON devices (device_type, imei) WHERE deleted_at IS NULL AND base_status IN (4, 24, 6, 10, 16);
