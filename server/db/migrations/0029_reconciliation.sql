-- Conciliación (/credits/reconciliation, server/credits/reconciliationRepository.ts): the devices
-- whose state contradicts their credit. Every role that holds the portfolio gets the new page (as
-- 0026 did for the collection policy), in menu order.
UPDATE profiles p
   SET paths = ARRAY(
         SELECT x.path
           FROM unnest(p.paths || ARRAY['/credits/reconciliation']) WITH ORDINALITY AS x (path, i)
          ORDER BY coalesce(array_position(ARRAY[
                     '/dashboard', '/dashboard/general', '/dashboard/android',
                     '/agent-settings', '/agent-settings/restrictions-enrollment', '/agent-settings/restrictions-lock',
                     '/agent-settings/restrictions-release', '/agent-settings/screen-design', '/agent-settings/business-app',
                     '/agent-settings/app-lock',
                     '/agent-settings-tv', '/agent-settings-tv/restrictions-enrollment-tv', '/agent-settings-tv/restrictions-lock-tv',
                     '/agent-settings-tv/restrictions-release-tv', '/agent-settings-tv/app-lock-tv',
                     '/inventory-management', '/inventory-management/add-device', '/inventory-management/devices',
                     '/inventory-management/devices-pre-enrolled', '/inventory-management/devices-group',
                     '/credits', '/credits/portfolio', '/credits/collection-policy', '/credits/reconciliation',
                     '/admin-settings', '/admin-settings/admins', '/admin-settings/roles', '/admin-settings/audit',
                     '/admin-settings/api-keys', '/admin-settings/webhooks', '/admin-settings/api-reference'], x.path), 1000), x.i),
       updated_at = now()
 WHERE p.paths @> ARRAY['/credits/portfolio']
   AND NOT (p.paths @> ARRAY['/credits/reconciliation']);

-- The reconciliation's reads from the devices' side: the devices locked Por Crédito, and those
-- carrying a reference, each by the reference they carry (lower case, as credits_reference).
CREATE INDEX devices_credit_locked ON devices (lower(credit_reference), id)
  WHERE deleted_at IS NULL AND lock_state = 'locked' AND lock_type = 'PorCredito';
CREATE INDEX devices_credit_reference ON devices (lower(credit_reference), id)
  WHERE deleted_at IS NULL AND credit_reference IS NOT NULL;

-- The daily webhook summary (reconciliation.summary): one row per company date. The replica whose
-- INSERT … ON CONFLICT DO NOTHING inserts the day's row sends it, in the same transaction: once a
-- day however many replicas tick.
CREATE TABLE reconciliation_summaries (
  day date PRIMARY KEY,
  sent_at timestamptz NOT NULL,
  total bigint NOT NULL
);
