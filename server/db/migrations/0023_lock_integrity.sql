-- Proof of possession: the public key (an uncompressed P-256 point, 65 bytes) the agent generated
-- on the device when it enrolled. Every later request is signed with its private key; a token
-- without a key (issued before this migration) can no longer act: its device re-enrolls with an
-- administrator's authorisation.
ALTER TABLE agent_tokens ADD COLUMN public_key bytea CHECK (public_key IS NULL OR octet_length(public_key) = 65);

-- A device-scoped enrollment token is used once: the enrollment it allows revokes it (used_at
-- tells a used token from one an administrator revoked, for the agent's refusal code).
ALTER TABLE enrollment_tokens ADD COLUMN used_at timestamptz;

-- The device detail's enrollment attempts (accepted, refused, authorised), newest first.
CREATE INDEX audit_log_device_enrollments ON audit_log (entity_id, id)
  WHERE entity = 'device' AND action IN ('enroll', 'enroll_refused', 'authorize_reenroll');
