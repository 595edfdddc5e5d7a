-- Trigram indexes serve substring search (IMEI, serial, customer) on both engines.
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;
