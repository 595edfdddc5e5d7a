-- The general dashboard's credit figures (server/api/dashboard/dashboardRepository.ts), each an
-- index range whose size is what it counts:
-- - the locks and unlocks the collection policy sent on the company's day: the steps it took of
--   those kinds, by instant;
-- - the devices locked Por Crédito (acknowledged by the device) over the last days, by instant of
--   the acknowledgement, and for each, the unlocks of that device after it (an unlock, a release,
--   their offline codes once redeemed), by device and instant.
CREATE INDEX credit_steps_acted ON credit_steps (at) INCLUDE (kind, device_ids) WHERE outcome = 'done' AND kind IN ('lock', 'unlock');
CREATE INDEX device_commands_credit_locks ON device_commands (acknowledged_at) INCLUDE (device_id)
  WHERE action = 0 AND status = 'acknowledged' AND payload ->> 'lockType' = 'PorCredito';
CREATE INDEX device_commands_unlocks ON device_commands (device_id, acknowledged_at)
  WHERE (action IN (1, 2) AND status = 'acknowledged') OR (action IN (9, 12, 13) AND status = 'redeemed');
