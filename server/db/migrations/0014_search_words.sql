-- Text search by words: a word of letters typed in the search
-- is the beginning of a word of the serial, customer name or credit reference. The words are
-- the runs of letters of the stored, folded search_text (migration 0011: accents and case folded,
-- ñ both as n and removed); their beginnings are kept in a tsvector with a GIN index: a typed word
-- reads one posting list, and the statistics of a tsvector count each lexeme, so the planner knows
-- a common name from a rare one (the trigram statistics could not). A typed word with a digit, or
-- without letters, is still a substring of search_text (trigram index devices_search):
-- server/devices/deviceQueries.ts.

-- The beginnings of the words of a folded text: every prefix of every run of letters ('garcia'
-- gives g, ga, gar, garc, garci, garcia), so a typed word, however much of it is typed, is one
-- exact term whose posting list is read directly (a prefix term, 'garc':*, collects the posting
-- lists of every word it begins in a bitmap first, which grows with the fleet).
-- Letters only: a typed word that is searched by words has no digits, so runs of digits (credit
-- references, the serials' numbers) would only make the index larger.
CREATE FUNCTION search_words(folded text) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT array_to_tsvector(array(SELECT left(w, n)
                                   FROM unnest(regexp_split_to_array(folded, '[^[:alpha:]]+')) AS w, generate_series(1, length(w)) AS n
                                  WHERE w <> ''))
$$;

-- The query of typed words: each folded run of letters, all of them required. A run that begins
-- another one is left out (the longer one implies it), so 'perez perez' or 'p perez' is the single
-- term 'perez' and the planner's estimate is that of one word. A run of letters needs no quoting
-- inside the lexeme's quotes. NULL when the text has no letters (matches nothing). Immutable:
-- called with the query's parameter, the planner evaluates it once and estimates the matches from
-- the statistics of the terms.
CREATE FUNCTION search_words_query(typed text) RETURNS tsquery LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  WITH typed_words AS (
    SELECT DISTINCT w FROM unnest(regexp_split_to_array(search_fold(typed), '[^[:alpha:]]+')) AS w WHERE w <> ''
  )
  SELECT string_agg('''' || t.w || '''', ' & ' ORDER BY t.w)::tsquery
    FROM typed_words t
   WHERE NOT EXISTS (SELECT 1 FROM typed_words longer WHERE longer.w <> t.w AND starts_with(longer.w, t.w))
$$;

ALTER TABLE devices ADD COLUMN search_words tsvector;

-- The trigger of migration 0011 keeps both (it fires only when the searched columns are written).
CREATE OR REPLACE FUNCTION devices_search_text() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_text := device_search_text(NEW.serial, NEW.customer_name, NEW.credit_reference);
  NEW.search_words := search_words(NEW.search_text);
  RETURN NEW;
END;
$$;
UPDATE devices SET search_words = search_words(search_text);

CREATE INDEX devices_search_words ON devices USING gin (search_words) WHERE deleted_at IS NULL;
