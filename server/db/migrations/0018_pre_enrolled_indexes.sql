-- The pre-enrolled devices page filtered by group (the group indexes of 0007/0016 cover the
-- enrolled devices only: base_status <> 25). Without these, a group's page of pre-enrolled devices
-- read every pre-enrolled device and sorted them; with them it reads its page's keys in the order
-- of its sort. The page sorts by
-- IMEI or by registration. A status write of an enrolled device never touches them.
CREATE INDEX devices_pre_enrolled_group_created ON devices ((coalesce(group_id, 0)), created_at, id)
  WHERE deleted_at IS NULL AND base_status = 25;
CREATE INDEX devices_pre_enrolled_group_imei ON devices ((coalesce(group_id, 0)), imei)
  WHERE deleted_at IS NULL AND base_status = 25;

-- The planner estimated a group of pre-enrolled devices as the product of the two selectivities
-- (far fewer than there are), so it sorted them instead of reading this index in order. Statistics of the two together give it the right number (the enrolled group pages too).
CREATE STATISTICS devices_group_status (mcv) ON (coalesce(group_id, 0)), base_status FROM devices;
ANALYZE devices;
