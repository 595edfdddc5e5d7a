-- The in-flight half of a list filtered by a group or an agent version (deviceQueries.ts,
-- inFlightHalves). The in-flight indexes of 0013 are in the order of the sorts only, so that half
-- walked them testing each device in flight for the filter before the merge could start: every
-- device in flight for a small group or a version few devices run; and a version whose devices'
-- IMEIs follow the others' (a television's agent) in IMEI order walked past every phone in
-- flight. With these two, as 0021's devices_in_flight_type_imei does for a type, that half is read
-- in IMEI order from its filter's own devices in flight, and in the other orders by its filter's
-- condition and sorted when they are few (PostgreSQL's statistics choose it). A lock writes them:
-- 15 of the 34 indexes per row.
CREATE INDEX devices_in_flight_group_imei ON devices ((coalesce(group_id, 0)), imei)
  WHERE deleted_at IS NULL AND base_status IN (4, 24, 6, 10, 16);
CREATE INDEX devices_in_flight_version_imei ON devices (agent_version, imei)
  WHERE deleted_at IS NULL AND base_status IN (4, 24, 6, 10, 16);
