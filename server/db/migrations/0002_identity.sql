-- The embedded Cognito-compatible identity endpoint (embedded mode only; empty otherwise).

-- RSA signing keys: one for ID tokens, one for access tokens (distinct kids, as Cognito).
CREATE TABLE identity_keys (
  kid text PRIMARY KEY,
  token_use text NOT NULL UNIQUE CHECK (token_use IN ('id', 'access')),
  private_pem text NOT NULL,
  public_jwk jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Process-independent secrets (e.g. the key behind the fake challenges of unknown users).
CREATE TABLE identity_secrets (
  name text PRIMARY KEY,
  value text NOT NULL
);

CREATE TABLE identity_users (
  sub uuid PRIMARY KEY,
  username text NOT NULL,
  username_lower text NOT NULL UNIQUE,
  attributes jsonb NOT NULL DEFAULT '{}',
  salt text NOT NULL,
  verifier text NOT NULL,
  status text NOT NULL CHECK (status IN ('FORCE_CHANGE_PASSWORD', 'CONFIRMED', 'RESET_REQUIRED')),
  enabled boolean NOT NULL DEFAULT true,
  password_set_at timestamptz NOT NULL DEFAULT now(),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Failed sign-ins by the name typed, whether or not such a user exists (no enumeration).
CREATE TABLE identity_login_failures (
  username_lower text PRIMARY KEY,
  failures integer NOT NULL DEFAULT 0,
  locked_until timestamptz
);

-- SRP challenge state (keyed by a hash of SECRET_BLOCK) and NEW_PASSWORD_REQUIRED sessions:
-- single use, three minutes.
CREATE TABLE identity_challenges (
  id_hash text PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('PASSWORD_VERIFIER', 'NEW_PASSWORD_REQUIRED')),
  username text NOT NULL,
  client_id text NOT NULL,
  state jsonb NOT NULL DEFAULT '{}',
  expires_at timestamptz NOT NULL
);
CREATE INDEX identity_challenges_expires ON identity_challenges (expires_at);

-- Refresh tokens, stored hashed; one row per sign-in (origin_jti). Revoking the row revokes
-- the access tokens of that sign-in in the endpoint's own operations.
CREATE TABLE identity_refresh_tokens (
  token_hash text PRIMARY KEY,
  sub uuid NOT NULL REFERENCES identity_users (sub) ON DELETE CASCADE,
  client_id text NOT NULL,
  origin_jti uuid NOT NULL UNIQUE,
  auth_time bigint NOT NULL,
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX identity_refresh_tokens_sub ON identity_refresh_tokens (sub);

CREATE TABLE identity_reset_codes (
  sub uuid PRIMARY KEY REFERENCES identity_users (sub) ON DELETE CASCADE,
  code_hash text NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  expires_at timestamptz NOT NULL
);
