-- Credits: the loans that finance devices, their installments and their payments. A device
-- belongs to the credit whose reference it carries (devices.credit_reference, compared ignoring
-- case): no key joins them, so a device registered before its credit is linked when the credit
-- arrives. Money is integer cents (bigint); due dates are calendar dates in the company's time
-- zone (COMPANY_TIME_ZONE).

-- The derived columns (total_cents, paid_cents, first_unpaid_due) are written by server/credits in
-- the transaction of every change, with the credit's row locked: the schedule's sum, the sum of
-- the payments that stand, and the due date of the first installment not fully paid (payments
-- cover the oldest installments first; null when nothing is left to pay). Whether a credit is
-- overdue, and by how many days, is then an index range against today's company date, which no
-- stored column could hold (it changes every midnight).
CREATE TABLE credits (
  id bigserial PRIMARY KEY,
  reference text NOT NULL,
  customer_name text NOT NULL,
  customer_phone text,
  currency text NOT NULL DEFAULT 'MXN' CHECK (currency ~ '^[A-Z]{3}$'),
  cancelled_at timestamptz,
  total_cents bigint NOT NULL CHECK (total_cents > 0),
  paid_cents bigint NOT NULL DEFAULT 0 CHECK (paid_cents >= 0),
  first_unpaid_due date,
  -- When a collection policy next has something to do with the credit (a later migration's
  -- policy fills it; null: nothing scheduled).
  next_step_at timestamptz,
  -- The searched text, folded as the devices' is (migration 0011): the reference and the customer.
  search_text text GENERATED ALWAYS AS (device_search_text(NULL::text, customer_name, reference)) STORED,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX credits_reference ON credits (lower(reference));
-- The portfolio's sorts (server/credits/creditRepository.ts, CREDIT_SORT_KEYS), each with the id
-- as its tie-breaker; the state, overdue and due-this-week filters are ranges of credits_due.
CREATE INDEX credits_due ON credits (first_unpaid_due, id) INCLUDE (cancelled_at);
CREATE INDEX credits_customer ON credits (lower(customer_name), id);
CREATE INDEX credits_balance ON credits ((greatest(total_cents - paid_cents, 0)), id);
CREATE INDEX credits_cancelled ON credits (cancelled_at, id) WHERE cancelled_at IS NOT NULL;
CREATE INDEX credits_next_step ON credits (next_step_at, id) WHERE next_step_at IS NOT NULL;
CREATE INDEX credits_search ON credits USING gin (search_text gin_trgm_ops);

-- The schedule: installments numbered 1…n, due dates strictly increasing with the number (so the
-- oldest-first order is the number's). A credit's installments due in a range of days are one
-- index range (the due-this-week filter asks it of overdue credits).
CREATE TABLE credit_installments (
  credit_id bigint NOT NULL REFERENCES credits (id) ON DELETE CASCADE,
  number integer NOT NULL CHECK (number >= 1),
  due_date date NOT NULL,
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  PRIMARY KEY (credit_id, number)
);
CREATE UNIQUE INDEX credit_installments_due ON credit_installments (credit_id, due_date);

-- Payments are never deleted: a reversal marks one (reversed_at), and the allocation depends only
-- on the sum of the payments that stand, so a reversal gives back exactly the schedule from
-- before the payment. An external id is applied once per credit; `result` is the answer its first
-- application gave, answered again to a retry with the same data.
CREATE TABLE credit_payments (
  id bigserial PRIMARY KEY,
  credit_id bigint NOT NULL REFERENCES credits (id),
  external_id text NOT NULL,
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  paid_at timestamptz NOT NULL,
  source text NOT NULL CHECK (source IN ('integration', 'csv', 'portal')),
  recorded_at timestamptz NOT NULL,
  recorded_by text,
  result jsonb NOT NULL,
  reversed_at timestamptz,
  reversed_by text
);
CREATE UNIQUE INDEX credit_payments_external ON credit_payments (credit_id, external_id);
-- The payments of a day (the portfolio's "payments today"): a range of the instants that stand.
CREATE INDEX credit_payments_paid_at ON credit_payments (paid_at) INCLUDE (amount_cents, credit_id) WHERE reversed_at IS NULL;

CREATE FUNCTION credit_payments_never_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'credit_payments is never deleted: a reversal marks a payment';
END;
$$;
CREATE TRIGGER credit_payments_never_deleted BEFORE DELETE OR TRUNCATE ON credit_payments
  FOR EACH STATEMENT EXECUTE FUNCTION credit_payments_never_deleted();

-- Credits per due date of their first unpaid installment ('infinity': nothing left to pay) and
-- cancellation: the portfolio's counts by state and overdue bucket are sums over a range of dates
-- (a few thousand rows at most), never a count of the credits. Kept by statement triggers in the
-- transaction of the change, as device_counts is (migration 0006).
CREATE TABLE credit_due_counts (
  due date NOT NULL,
  cancelled boolean NOT NULL,
  n bigint NOT NULL,
  PRIMARY KEY (due, cancelled)
);

CREATE FUNCTION credit_due_counts_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO credit_due_counts AS c (due, cancelled, n)
  SELECT coalesce(n.first_unpaid_due, 'infinity'), n.cancelled_at IS NOT NULL, count(*)
    FROM new_rows n
   GROUP BY 1, 2
   ORDER BY 1, 2
  ON CONFLICT (due, cancelled) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END;
$$;
CREATE TRIGGER credit_due_counts_insert AFTER INSERT ON credits
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION credit_due_counts_insert();

-- Updates stop at once when no row changed what is counted (an edit of the customer's name).
CREATE FUNCTION credit_due_counts_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (
    SELECT o.id, o.first_unpaid_due, o.cancelled_at IS NULL FROM old_rows o
    EXCEPT
    SELECT n.id, n.first_unpaid_due, n.cancelled_at IS NULL FROM new_rows n
  ) THEN
    RETURN NULL;
  END IF;
  INSERT INTO credit_due_counts AS c (due, cancelled, n)
  SELECT due, cancelled, sum(delta)
    FROM (
      SELECT coalesce(o.first_unpaid_due, 'infinity') AS due, o.cancelled_at IS NOT NULL AS cancelled, -1 AS delta FROM old_rows o
      UNION ALL
      SELECT coalesce(n.first_unpaid_due, 'infinity'), n.cancelled_at IS NOT NULL, 1 FROM new_rows n
    ) d
   GROUP BY due, cancelled
  HAVING sum(delta) <> 0
   ORDER BY due, cancelled
  ON CONFLICT (due, cancelled) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END;
$$;
CREATE TRIGGER credit_due_counts_update AFTER UPDATE ON credits
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION credit_due_counts_update();

CREATE FUNCTION credit_due_counts_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO credit_due_counts AS c (due, cancelled, n)
  SELECT coalesce(o.first_unpaid_due, 'infinity'), o.cancelled_at IS NOT NULL, -count(*)
    FROM old_rows o
   GROUP BY 1, 2
   ORDER BY 1, 2
  ON CONFLICT (due, cancelled) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END;
$$;
CREATE TRIGGER credit_due_counts_delete AFTER DELETE ON credits
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION credit_due_counts_delete();

-- What is unpaid of the installments of the credits not cancelled, per due date and currency:
-- the portfolio's amount overdue today is the sum of the dates before today (a small range), never
-- a read of every overdue credit. The payments' allocation is computed by the server
-- (shared/credits allocate), so the server keeps this table, with the derived columns of credits,
-- in the transaction of every change (CreditsService).
CREATE TABLE credit_unpaid_by_due (
  due date NOT NULL,
  currency text NOT NULL,
  cents bigint NOT NULL,
  PRIMARY KEY (due, currency)
);

-- The new module's pages and the action 100 (Registrar y revertir pagos) go to the bootstrap
-- 'Administrador' and to every role that holds the whole administrators' menu: otherwise nobody
-- could grant them (a role manager grants only what they hold). The pages are placed in menu
-- order (after the inventory's), the actions ascending, as every stored role keeps them.
UPDATE profiles p
   SET paths = ARRAY(
         SELECT x.path
           FROM unnest(p.paths || ARRAY['/credits', '/credits/portfolio']) WITH ORDINALITY AS x (path, i)
          ORDER BY coalesce(array_position(ARRAY[
                     '/dashboard', '/dashboard/general', '/dashboard/android',
                     '/agent-settings', '/agent-settings/restrictions-enrollment', '/agent-settings/restrictions-lock',
                     '/agent-settings/restrictions-release', '/agent-settings/screen-design', '/agent-settings/business-app',
                     '/agent-settings/app-lock',
                     '/agent-settings-tv', '/agent-settings-tv/restrictions-enrollment-tv', '/agent-settings-tv/restrictions-lock-tv',
                     '/agent-settings-tv/restrictions-release-tv', '/agent-settings-tv/app-lock-tv',
                     '/inventory-management', '/inventory-management/add-device', '/inventory-management/devices',
                     '/inventory-management/devices-pre-enrolled', '/inventory-management/devices-group',
                     '/credits', '/credits/portfolio',
                     '/admin-settings', '/admin-settings/admins', '/admin-settings/roles', '/admin-settings/audit',
                     '/admin-settings/api-keys', '/admin-settings/webhooks', '/admin-settings/api-reference'], x.path), 1000), x.i),
       actions = ARRAY(SELECT DISTINCT a FROM unnest(p.actions || 100) a ORDER BY a),
       updated_at = now()
 WHERE (p.nombre = 'Administrador'
        OR (p.paths @> ARRAY['/admin-settings/admins', '/admin-settings/roles', '/admin-settings/audit', '/admin-settings/api-keys',
                              '/admin-settings/webhooks', '/admin-settings/api-reference']))
   AND NOT (p.paths @> ARRAY['/credits/portfolio']);
