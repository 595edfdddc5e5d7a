-- An administrator is bound to one identity user by its `sub` (never by the e-mail alone): a
-- token of a deleted user stays refused when an administrator with the same e-mail is created
-- again. Set when the portal creates the user; rows written before (bootstrap, earlier
-- versions) are bound on their first authenticated request (server/middleware/authorize.ts).
ALTER TABLE admins ADD COLUMN sub text;
CREATE UNIQUE INDEX admins_sub ON admins (sub);
UPDATE admins a SET sub = u.sub::text FROM identity_users u WHERE u.username_lower = lower(a.correo);

-- Sessions the portal ended (sign-out, disable, delete, password reset) for identity providers
-- whose access tokens stay valid until they expire (Cognito). `origin_jti` names one sign-in;
-- NULL ends every sign-in of `sub` made up to `revoked_at`. A row is useless once every token
-- it covers has expired (`expires_at`) and is then deleted.
CREATE TABLE revoked_sessions (
  id bigserial PRIMARY KEY,
  sub text NOT NULL,
  origin_jti text,
  revoked_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX revoked_sessions_sub ON revoked_sessions (sub, expires_at);
