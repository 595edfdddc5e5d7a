-- Agent settings pages: every save is a version with what it changed; uploaded logos; business
-- apps; the lock-app versions gain their SHA-256, release notes and author.


CREATE TABLE agent_settings_history (
  id bigserial PRIMARY KEY,
  device_type smallint NOT NULL CHECK (device_type IN (1, 2)),
  group_id integer REFERENCES device_groups (id) ON DELETE CASCADE,
  version bigint NOT NULL,
  -- The keys the save changed: [{ key, before?, after? }] (absent: default or inherited).
  changes jsonb NOT NULL,
  -- The sections the changed keys belong to (a page lists its own).
  sections text[] NOT NULL,
  changed_at timestamptz NOT NULL DEFAULT now(),
  changed_by text
);
CREATE INDEX agent_settings_history_scope ON agent_settings_history (device_type, (coalesce(group_id, 0)), version DESC);

-- Logos of the lock screen, addressed by the SHA-256 of their bytes (served immutable).
CREATE TABLE agent_logos (
  sha256 text PRIMARY KEY CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  content_type text NOT NULL CHECK (content_type IN ('image/png', 'image/jpeg')),
  bytes bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by text
);

-- Apps the smartphone agent installs; an app with no group goes to every smartphone.
CREATE TABLE business_apps (
  id serial PRIMARY KEY,
  name text NOT NULL,
  package_name text NOT NULL,
  version_name text NOT NULL,
  version_code integer NOT NULL CHECK (version_code > 0),
  app_type smallint NOT NULL CHECK (app_type IN (2, 4, 5)),
  download_url text NOT NULL CHECK (download_url ~ '^https://'),
  sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by text
);
CREATE UNIQUE INDEX business_apps_package ON business_apps (lower(package_name));
CREATE TABLE business_app_groups (
  app_id integer NOT NULL REFERENCES business_apps (id) ON DELETE CASCADE,
  group_id integer NOT NULL REFERENCES device_groups (id) ON DELETE CASCADE,
  PRIMARY KEY (app_id, group_id)
);
CREATE INDEX business_app_groups_group ON business_app_groups (group_id);

ALTER TABLE lock_app_versions ADD COLUMN sha256 text CHECK (sha256 ~ '^[0-9a-f]{64}$');
ALTER TABLE lock_app_versions ADD COLUMN release_notes text;
ALTER TABLE lock_app_versions ADD COLUMN created_by text;
CREATE UNIQUE INDEX lock_app_versions_version ON lock_app_versions (device_type, lower(version_app));
