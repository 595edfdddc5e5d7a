-- Versions of the on-device lock app, per device type; one is current per type. The current
-- smartphone version is what portal/getVersionApp answers and the sidebar footer shows.
CREATE TABLE lock_app_versions (
  id serial PRIMARY KEY,
  device_type integer NOT NULL CHECK (device_type IN (1, 2)),
  version_name text NOT NULL,
  version_app text NOT NULL,
  app_type integer NOT NULL,
  is_current boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX lock_app_versions_current ON lock_app_versions (device_type) WHERE is_current;
