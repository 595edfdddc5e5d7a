-- Profiles (roles) grant portal paths and device actions; administrators hold one profile.
CREATE TABLE profiles (
  id serial PRIMARY KEY,
  nombre text NOT NULL,
  paths text[] NOT NULL DEFAULT '{}',
  actions integer[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX profiles_nombre_lower ON profiles (lower(nombre));

CREATE TABLE admins (
  id serial PRIMARY KEY,
  correo text NOT NULL,
  nombres text NOT NULL,
  apellidos text NOT NULL DEFAULT '',
  profile_id integer NOT NULL REFERENCES profiles (id),
  enabled boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX admins_correo_lower ON admins (lower(correo));
CREATE INDEX admins_profile ON admins (profile_id);
