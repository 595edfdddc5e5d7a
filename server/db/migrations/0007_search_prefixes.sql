-- A search made of digits is a prefix of the IMEIs, the serial or the credit reference: btree
-- ranges the planner can combine (a trigram match on digits shared by a whole model cannot).
CREATE INDEX devices_serial_prefix ON devices (lower(serial) text_pattern_ops) WHERE deleted_at IS NULL AND serial IS NOT NULL;
CREATE INDEX devices_credit_prefix ON devices (lower(credit_reference) text_pattern_ops) WHERE deleted_at IS NULL AND credit_reference IS NOT NULL;
