-- ConfirmForgotPassword attempts per user, across codes: a new ForgotPassword does not forget
-- them (identity_reset_codes.attempts was reset with every code). Five failures within fifteen
-- minutes refuse the user's codes until they age out; a successful reset clears them.
CREATE TABLE identity_reset_failures (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  sub uuid NOT NULL REFERENCES identity_users (sub) ON DELETE CASCADE,
  failed_at timestamptz NOT NULL
);
CREATE INDEX identity_reset_failures_sub ON identity_reset_failures (sub, failed_at);
