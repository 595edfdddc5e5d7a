-- Text search that finds 'Peña' and 'Núñez' (reference §5: the search input removes ñ as
-- the user types, so 'Peña' arrives as 'Pea'). The stored text is compared in a normalised form:
-- accents folded and case folded, in two spellings when it holds an ñ (ñ as n, and ñ removed),
-- so 'Pea' finds 'Peña' and 'Nunez' finds 'Núñez'. The query gets the input's rule (ñ removed,
-- then folded: server/devices/deviceQueries.ts).
CREATE FUNCTION search_fold(t text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT lower(translate(t, 'ÁÀÂÄÃÉÈÊËÍÌÎÏÓÒÔÖÕÚÙÛÜÇÑáàâäãéèêëíìîïóòôöõúùûüçñ', 'AAAAAEEEEIIIIOOOOOUUUUCNaaaaaeeeeiiiiooooouuuucn'))
$$;

-- One expression of builtins (no call to search_fold, no subquery), so the planner inlines it:
-- rechecking a row costs a few string functions, and index maintenance, which runs with a
-- restricted search_path (PostgreSQL 17+, PGlite), never looks a user function up by name.
CREATE FUNCTION device_search_text(serial text, customer text, credit text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT translate(lower(translate(coalesce(serial, '') || ' ' || coalesce(customer, '') || ' ' || coalesce(credit, ''),
                                   'ÁÀÂÄÃÉÈÊËÍÌÎÏÓÒÔÖÕÚÙÛÜÇáàâäãéèêëíìîïóòôöõúùûüç', 'AAAAAEEEEIIIIOOOOOUUUUCaaaaaeeeeiiiiooooouuuuc')), 'ñ', 'n')
      || CASE WHEN strpos(lower(coalesce(serial, '') || coalesce(customer, '') || coalesce(credit, '')), 'ñ') > 0
              THEN ' ' || translate(lower(translate(coalesce(serial, '') || ' ' || coalesce(customer, '') || ' ' || coalesce(credit, ''),
                                                   'ÁÀÂÄÃÉÈÊËÍÌÎÏÓÒÔÖÕÚÙÛÜÇáàâäãéèêëíìîïóòôöõúùûüç', 'AAAAAEEEEIIIIOOOOOUUUUCaaaaaeeeeiiiiooooouuuuc')), 'ñ', '')
              ELSE '' END
$$;

-- The normalised text is stored (rechecking a row is then a plain LIKE) and kept by a trigger
-- that fires only when the searched columns are written: status changes and bulk actions never
-- pay for it.
ALTER TABLE devices ADD COLUMN search_text text;
CREATE FUNCTION devices_search_text() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_text := device_search_text(NEW.serial, NEW.customer_name, NEW.credit_reference);
  RETURN NEW;
END;
$$;
CREATE TRIGGER devices_search_text BEFORE INSERT OR UPDATE OF serial, customer_name, credit_reference ON devices
  FOR EACH ROW EXECUTE FUNCTION devices_search_text();
UPDATE devices SET search_text = device_search_text(serial, customer_name, credit_reference);

DROP INDEX devices_search;
CREATE INDEX devices_search ON devices USING gin (search_text gin_trgm_ops) WHERE deleted_at IS NULL;
