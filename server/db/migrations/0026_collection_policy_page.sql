-- The page Política de cobranza (/credits/collection-policy) now guards the collection policy's
-- API, which the page Cartera de créditos guarded before: every role that holds the portfolio gets
-- the new page, so nobody loses what they could read or save. The pages stay in menu order, as
-- every stored role keeps them.
UPDATE profiles p
   SET paths = ARRAY(
         SELECT x.path
           FROM unnest(p.paths || ARRAY['/credits/collection-policy']) WITH ORDINALITY AS x (path, i)
          ORDER BY coalesce(array_position(ARRAY[
                     '/dashboard', '/dashboard/general', '/dashboard/android',
                     '/agent-settings', '/agent-settings/restrictions-enrollment', '/agent-settings/restrictions-lock',
                     '/agent-settings/restrictions-release', '/agent-settings/screen-design', '/agent-settings/business-app',
                     '/agent-settings/app-lock',
                     '/agent-settings-tv', '/agent-settings-tv/restrictions-enrollment-tv', '/agent-settings-tv/restrictions-lock-tv',
                     '/agent-settings-tv/restrictions-release-tv', '/agent-settings-tv/app-lock-tv',
                     '/inventory-management', '/inventory-management/add-device', '/inventory-management/devices',
                     '/inventory-management/devices-pre-enrolled', '/inventory-management/devices-group',
                     '/credits', '/credits/portfolio', '/credits/collection-policy',
                     '/admin-settings', '/admin-settings/admins', '/admin-settings/roles', '/admin-settings/audit',
                     '/admin-settings/api-keys', '/admin-settings/webhooks', '/admin-settings/api-reference'], x.path), 1000), x.i),
       updated_at = now()
 WHERE p.paths @> ARRAY['/credits/portfolio']
   AND NOT (p.paths @> ARRAY['/credits/collection-policy']);
