import type { OverdueBucket, PaymentSource } from '../../shared/constants/creditLabels';
import type { CreditFilter } from '../../shared/contracts/credits';
import type { Installment } from '../../shared/credits';
import type { Queryable } from '../db/Db';
import { SqlWhere, creditDevicesSql } from '../devices';
import { countersAnswer, countersWhere, creditOrderBy, creditWhere, dueCondition, dueThisWeekSql, type PaymentDay } from './creditQueries';
import type { CreditSort } from '../../shared/constants/limits';

/** A credit as stored (dates as 'YYYY-MM-DD', money in cents). */
export interface CreditRecord {
  id: number;
  reference: string;
  customer_name: string;
  customer_phone: string | null;
  currency: string;
  cancelled_at: Date | null;
  total_cents: number;
  paid_cents: number;
  first_unpaid_due: string | null;
  created_at: Date;
  updated_at: Date;
}

/** A credit of a list, with the number of live devices carrying its reference. */
export interface ListedCreditRecord extends CreditRecord {
  device_count: number;
}

/** A payment as stored. `result` is the answer its first application gave. */
export interface PaymentRecord {
  id: number;
  credit_id: number;
  external_id: string;
  amount_cents: number;
  paid_at: Date;
  source: PaymentSource;
  recorded_at: Date;
  recorded_by: string | null;
  result: unknown;
  reversed_at: Date | null;
  reversed_by: string | null;
}

/** A payment to record: `result` is the answer its application gives (answered again to a retry). */
export interface PaymentInsert {
  creditId: number;
  externalId: string;
  amountCents: number;
  paidAt: Date;
  source: PaymentSource;
  recordedAt: Date;
  recordedBy: string | null;
  result: unknown;
}

/** The fields of a credit a PUT writes. */
export interface CreditFields {
  reference: string;
  customerName: string;
  customerPhone: string | null;
  currency: string;
  cancelled: boolean;
}

/** The derived columns, kept in step with every change (migration 0024). */
export interface CreditDerived {
  totalCents: number;
  paidCents: number;
  firstUnpaidDue: string | null;
}

/** The portfolio's counts by state and overdue bucket (from credit_due_counts). */
export interface DueCounts {
  total: number;
  current: number;
  overdue: number;
  paid_off: number;
  cancelled: number;
  buckets: Record<OverdueBucket, number>;
}

const COLUMNS = `c.id, c.reference, c.customer_name, c.customer_phone, c.currency, c.cancelled_at, c.total_cents, c.paid_cents,
  to_char(c.first_unpaid_due, 'YYYY-MM-DD') AS first_unpaid_due, c.created_at, c.updated_at`;
const LISTED_COLUMNS = `${COLUMNS}, ${creditDevicesSql.count('c.reference')} AS device_count`;
const PAYMENT_COLUMNS = `id, credit_id, external_id, amount_cents, paid_at, source, recorded_at, recorded_by, result, reversed_at, reversed_by`;

/** All SQL of the credits' tables: credits, credit_installments, credit_payments, credit_due_counts, credit_unpaid_by_due. */
export class CreditRepository {
  constructor(private readonly db: Queryable) {}

  // One credit ----------------------------------------------------------------------------

  /** The credit of a reference (ignoring case), with its number of devices. */
  async findByReference(reference: string): Promise<ListedCreditRecord | undefined> {
    const res = await this.db.query<ListedCreditRecord>(`SELECT ${LISTED_COLUMNS} FROM credits c WHERE lower(c.reference) = lower($1)`, [reference]);
    return res.rows[0] && listedRow(res.rows[0]);
  }

  /** The credit of a reference, its row locked until the transaction ends: every write to a credit takes it first. */
  async lockByReference(reference: string): Promise<CreditRecord | undefined> {
    const res = await this.db.query<CreditRecord>(`SELECT ${COLUMNS} FROM credits c WHERE lower(c.reference) = lower($1) FOR UPDATE`, [reference]);
    return res.rows[0];
  }

  /** The stored spellings of the credits among these references (ignoring case), by their lower case. */
  async referencesOf(references: readonly string[]): Promise<Map<string, string>> {
    const res = await this.db.query<{ reference: string }>('SELECT reference FROM credits WHERE lower(reference) = ANY($1::text[])', [
      references.map((r) => r.toLowerCase()),
    ]);
    return new Map(res.rows.map((r) => [r.reference.toLowerCase(), r.reference]));
  }

  /** A new credit, or undefined when another transaction created its reference meanwhile (the caller then locks that one). */
  async insert(f: CreditFields, derived: CreditDerived): Promise<number | undefined> {
    const res = await this.db.query<{ id: number }>(
      `INSERT INTO credits (reference, customer_name, customer_phone, currency, cancelled_at, total_cents, paid_cents, first_unpaid_due)
       VALUES ($1, $2, $3, $4, CASE WHEN $5::boolean THEN now() END, $6, $7, $8::date)
       ON CONFLICT ((lower(reference))) DO NOTHING RETURNING id`,
      [f.reference, f.customerName, f.customerPhone, f.currency, f.cancelled, derived.totalCents, derived.paidCents, derived.firstUnpaidDue],
    );
    return res.rows[0] === undefined ? undefined : Number(res.rows[0].id);
  }

  /** Writes the fields of a PUT (a credit cancelled earlier keeps when it was). */
  async update(id: number, f: Omit<CreditFields, 'reference'>): Promise<void> {
    await this.db.query(
      `UPDATE credits SET customer_name = $2, customer_phone = $3, currency = $4,
              cancelled_at = CASE WHEN $5::boolean THEN coalesce(cancelled_at, now()) END, updated_at = now()
        WHERE id = $1`,
      [id, f.customerName, f.customerPhone, f.currency, f.cancelled],
    );
  }

  async setDerived(id: number, d: CreditDerived): Promise<void> {
    await this.db.query('UPDATE credits SET total_cents = $2, paid_cents = $3, first_unpaid_due = $4::date, updated_at = now() WHERE id = $1', [
      id,
      d.totalCents,
      d.paidCents,
      d.firstUnpaidDue,
    ]);
  }

  /** Replaces the schedule. */
  async replaceInstallments(id: number, installments: readonly Installment[]): Promise<void> {
    await this.db.query('DELETE FROM credit_installments WHERE credit_id = $1', [id]);
    await this.db.query(
      `INSERT INTO credit_installments (credit_id, number, due_date, amount_cents)
       SELECT $1, t.number, t.due_date, t.amount_cents FROM unnest($2::integer[], $3::date[], $4::bigint[]) AS t (number, due_date, amount_cents)`,
      [id, installments.map((i) => i.number), installments.map((i) => i.dueDate), installments.map((i) => i.amountCents)],
    );
  }

  /** The schedules of some credits, each in number order. */
  async installments(ids: readonly number[]): Promise<Map<number, Installment[]>> {
    const res = await this.db.query<{ credit_id: number; number: number; due_date: string; amount_cents: number }>(
      `SELECT credit_id, number, to_char(due_date, 'YYYY-MM-DD') AS due_date, amount_cents
         FROM credit_installments WHERE credit_id = ANY($1::bigint[]) ORDER BY credit_id, number`,
      [[...ids]],
    );
    const out = new Map<number, Installment[]>(ids.map((id) => [id, []]));
    for (const r of res.rows) out.get(Number(r.credit_id))?.push({ number: r.number, dueDate: r.due_date, amountCents: Number(r.amount_cents) });
    return out;
  }

  /** The sum of the payments that stand (reversed ones left out). */
  async activePaidCents(id: number): Promise<number> {
    const res = await this.db.query<{ cents: number | null }>(
      'SELECT sum(amount_cents) AS cents FROM credit_payments WHERE credit_id = $1 AND reversed_at IS NULL',
      [id],
    );
    return Number(res.rows[0]?.cents ?? 0);
  }

  /**
   * New credits in one statement (a bulk load: the demo seed), with their derived columns and
   * creation instants; their ids by lower-case reference. A reference that exists already is left
   * out of the answer (the caller decides whether that is an error). Each is due for the
   * collection policy at once (next_step_at = now()), so the engine plans it at its next tick.
   */
  async insertMany(rows: readonly { fields: CreditFields; derived: CreditDerived; createdAt: Date }[]): Promise<Map<string, number>> {
    if (rows.length === 0) return new Map();
    const col = <T>(f: (r: (typeof rows)[number]) => T) => rows.map(f);
    const res = await this.db.query<{ id: number; reference: string }>(
      `INSERT INTO credits (reference, customer_name, customer_phone, currency, cancelled_at, total_cents, paid_cents, first_unpaid_due,
                            created_at, updated_at, next_step_at)
       SELECT t.reference, t.customer_name, t.customer_phone, t.currency, CASE WHEN t.cancelled THEN t.created_at END, t.total_cents,
              t.paid_cents, t.first_unpaid_due, t.created_at, t.created_at, now()
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::boolean[], $6::bigint[], $7::bigint[], $8::date[], $9::timestamptz[])
              WITH ORDINALITY AS t (reference, customer_name, customer_phone, currency, cancelled, total_cents, paid_cents, first_unpaid_due,
                                    created_at, n)
        ORDER BY t.n
       ON CONFLICT ((lower(reference))) DO NOTHING RETURNING id, reference`,
      [
        col((r) => r.fields.reference),
        col((r) => r.fields.customerName),
        col((r) => r.fields.customerPhone),
        col((r) => r.fields.currency),
        col((r) => r.fields.cancelled),
        col((r) => r.derived.totalCents),
        col((r) => r.derived.paidCents),
        col((r) => r.derived.firstUnpaidDue),
        col((r) => r.createdAt.toISOString()),
      ],
    );
    return new Map(res.rows.map((r) => [r.reference.toLowerCase(), Number(r.id)]));
  }

  /** The schedules of credits that have none yet, in one statement (COPY where the connection has it). */
  async insertInstallments(schedules: readonly { creditId: number; installments: readonly Installment[] }[]): Promise<void> {
    const rows = schedules.flatMap((s) => s.installments.map((i) => [s.creditId, i] as const));
    if (rows.length === 0) return;
    if (this.db.copyFrom) {
      await this.db.copyFrom(
        'credit_installments (credit_id, number, due_date, amount_cents)',
        chunked(rows.map(([id, i]) => `${id}\t${i.number}\t${i.dueDate}\t${i.amountCents}\n`)),
      );
      return;
    }
    await this.db.query(
      `INSERT INTO credit_installments (credit_id, number, due_date, amount_cents)
       SELECT * FROM unnest($1::bigint[], $2::integer[], $3::date[], $4::bigint[])`,
      [rows.map(([id]) => id), rows.map(([, i]) => i.number), rows.map(([, i]) => i.dueDate), rows.map(([, i]) => i.amountCents)],
    );
  }

  // Payments ------------------------------------------------------------------------------

  /** A credit's payments, in the order they were recorded. */
  async payments(id: number): Promise<PaymentRecord[]> {
    const res = await this.db.query<PaymentRecord>(`SELECT ${PAYMENT_COLUMNS} FROM credit_payments WHERE credit_id = $1 ORDER BY id`, [id]);
    return res.rows.map(paymentRow);
  }

  async findPayment(creditId: number, externalId: string): Promise<PaymentRecord | undefined> {
    const res = await this.db.query<PaymentRecord>(`SELECT ${PAYMENT_COLUMNS} FROM credit_payments WHERE credit_id = $1 AND external_id = $2`, [
      creditId,
      externalId,
    ]);
    return res.rows[0] && paymentRow(res.rows[0]);
  }

  async insertPayment(p: PaymentInsert): Promise<void> {
    await this.db.query(
      `INSERT INTO credit_payments (credit_id, external_id, amount_cents, paid_at, source, recorded_at, recorded_by, result)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb)`,
      [p.creditId, p.externalId, p.amountCents, p.paidAt, p.source, p.recordedAt, p.recordedBy, JSON.stringify(p.result)],
    );
  }

  /** Many payments in one statement (a bulk load; COPY where the connection has it), each with the answer of its application. */
  async insertPayments(ps: readonly PaymentInsert[]): Promise<void> {
    if (ps.length === 0) return;
    const target = 'credit_payments (credit_id, external_id, amount_cents, paid_at, source, recorded_at, recorded_by, result)';
    const line = (p: PaymentInsert) =>
      `${[
        p.creditId,
        p.externalId,
        p.amountCents,
        p.paidAt.toISOString(),
        p.source,
        p.recordedAt.toISOString(),
        p.recordedBy,
        JSON.stringify(p.result),
      ]
        .map(copyField)
        .join('\t')}\n`;
    if (this.db.copyFrom) {
      await this.db.copyFrom(target, chunked(ps.map(line)));
      return;
    }
    const col = <T>(f: (p: PaymentInsert) => T) => ps.map(f);
    await this.db.query(
      `INSERT INTO ${target}
       SELECT t.credit_id, t.external_id, t.amount_cents, t.paid_at, t.source, t.recorded_at, t.recorded_by, t.result::jsonb
         FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::timestamptz[], $5::text[], $6::timestamptz[], $7::text[], $8::text[])
              WITH ORDINALITY AS t (credit_id, external_id, amount_cents, paid_at, source, recorded_at, recorded_by, result, n)
        ORDER BY t.n`,
      [
        col((p) => p.creditId),
        col((p) => p.externalId),
        col((p) => p.amountCents),
        col((p) => p.paidAt.toISOString()),
        col((p) => p.source),
        col((p) => p.recordedAt.toISOString()),
        col((p) => p.recordedBy),
        col((p) => JSON.stringify(p.result)),
      ],
    );
  }

  async reversePayment(id: number, at: Date, by: string | null): Promise<void> {
    await this.db.query('UPDATE credit_payments SET reversed_at = $2, reversed_by = $3 WHERE id = $1 AND reversed_at IS NULL', [id, at, by]);
  }

  // The portfolio ----------------------------------------------------------------------------

  /** A page of the credits matching `filter` on `today`, in the order of the sort. */
  async list(
    filter: CreditFilter,
    today: string,
    sort: CreditSort,
    order: 'asc' | 'desc',
    limit: number,
    offset: number,
    paymentDay?: PaymentDay,
  ): Promise<ListedCreditRecord[]> {
    const where = creditWhere(filter, today, new SqlWhere(), paymentDay);
    const res = await this.db.query<ListedCreditRecord>(
      `SELECT ${LISTED_COLUMNS} FROM credits c ${where} ORDER BY ${creditOrderBy(sort, order)}
        LIMIT ${where.param(limit)} OFFSET ${where.param(offset)}`,
      where.params,
    );
    return res.rows.map(listedRow);
  }

  /** The matching credits, in id order after `afterId` (keyset: constant cost per batch): the export's batches. */
  async batch(filter: CreditFilter, today: string, afterId: number, limit: number, paymentDay?: PaymentDay): Promise<ListedCreditRecord[]> {
    const where = creditWhere(filter, today, new SqlWhere([afterId]), paymentDay).add('c.id > $1');
    const res = await this.db.query<ListedCreditRecord>(
      `SELECT ${LISTED_COLUMNS} FROM credits c ${where} ORDER BY c.id LIMIT ${where.param(limit)}`,
      where.params,
    );
    return res.rows.map(listedRow);
  }

  /** The number of credits matching `filter` on `today`: from the counters when only the state and the bucket filter. */
  async count(filter: CreditFilter, today: string, paymentDay?: PaymentDay): Promise<number> {
    if (countersAnswer(filter)) {
      const where = countersWhere(dueCondition(filter, today));
      if (!where) return 0;
      const res = await this.db.query<{ n: number | null }>(`SELECT sum(n) AS n FROM credit_due_counts ${where}`, where.params);
      return Number(res.rows[0]?.n ?? 0);
    }
    const where = creditWhere(filter, today, new SqlWhere(), paymentDay);
    const res = await this.db.query<{ n: number }>(`SELECT count(*) AS n FROM credits c ${where}`, where.params);
    return Number(res.rows[0]!.n);
  }

  /** The counts by state and overdue bucket on `today`, from the counters (a few thousand rows at most). */
  async dueCounts(today: string): Promise<DueCounts> {
    const where = new SqlWhere();
    // Each figure's condition, its parameters numbered into the one statement's.
    const cond = (filter: Pick<CreditFilter, 'state' | 'overdue'>): string =>
      countersWhere(dueCondition(filter, today), new SqlWhere(where.params))?.conditions.join(' AND ') || 'false';
    const figures = {
      current: cond({ state: 'current' }),
      overdue: cond({ state: 'overdue' }),
      paid_off: cond({ state: 'paid_off' }),
      cancelled: cond({ state: 'cancelled' }),
      b1: cond({ overdue: '1-7' }),
      b8: cond({ overdue: '8-30' }),
      b31: cond({ overdue: '31+' }),
    };
    const res = await this.db.query<Record<keyof typeof figures | 'total', number | null>>(
      `SELECT sum(n) AS total, ${Object.entries(figures)
        .map(([k, c]) => `sum(n) FILTER (WHERE ${c}) AS ${k}`)
        .join(', ')} FROM credit_due_counts`,
      where.params,
    );
    const r = res.rows[0]!;
    const n = (v: number | null | undefined) => Number(v ?? 0);
    return {
      total: n(r.total),
      current: n(r.current),
      overdue: n(r.overdue),
      paid_off: n(r.paid_off),
      cancelled: n(r.cancelled),
      buckets: { '1-7': n(r.b1), '8-30': n(r.b8), '31+': n(r.b31) },
    };
  }

  /** Credits with an installment not fully paid due in the seven days from `today`. */
  async countDueThisWeek(today: string): Promise<number> {
    const where = new SqlWhere();
    const res = await this.db.query<{ n: number }>(`SELECT count(*) AS n FROM credits c WHERE ${dueThisWeekSql(today, where)}`, where.params);
    return Number(res.rows[0]!.n);
  }

  /**
   * Moves what is unpaid per due date of a currency by these amounts (positive or negative), the
   * credit's change in the transaction that makes it (credit_unpaid_by_due, migration 0024).
   */
  async moveUnpaid(currency: string, deltas: readonly (readonly [string, number])[]): Promise<void> {
    if (deltas.length === 0) return;
    await this.db.query(
      `INSERT INTO credit_unpaid_by_due AS u (due, currency, cents)
       SELECT t.due, $1, t.cents FROM unnest($2::date[], $3::bigint[]) AS t (due, cents) ORDER BY t.due
       ON CONFLICT (due, currency) DO UPDATE SET cents = u.cents + excluded.cents`,
      [currency, deltas.map(([due]) => due), deltas.map(([, cents]) => cents)],
    );
  }

  /**
   * The portfolio's amount overdue on `today`, per currency: what is unpaid of the installments
   * due before today, of the credits not cancelled (exactly the overdue credits' amounts overdue).
   */
  async amountOverdue(today: string): Promise<{ currency: string; cents: number }[]> {
    const res = await this.db.query<{ currency: string; cents: number }>(
      `SELECT currency, sum(cents) AS cents FROM credit_unpaid_by_due WHERE due < $1::date
        GROUP BY currency HAVING sum(cents) <> 0 ORDER BY currency`,
      [today],
    );
    return res.rows.map((r) => ({ currency: r.currency, cents: Number(r.cents) }));
  }

  /** The payments that stand dated in [from, to), per currency. */
  async paymentsBetween(from: Date, to: Date): Promise<{ currency: string; count: number; cents: number }[]> {
    const res = await this.db.query<{ currency: string; count: number; cents: number }>(
      `SELECT c.currency, count(*) AS count, sum(p.amount_cents) AS cents
         FROM credit_payments p JOIN credits c ON c.id = p.credit_id
        WHERE p.reversed_at IS NULL AND p.paid_at >= $1 AND p.paid_at < $2
        GROUP BY c.currency ORDER BY c.currency`,
      [from, to],
    );
    return res.rows.map((r) => ({ currency: r.currency, count: Number(r.count), cents: Number(r.cents) }));
  }
}

/** A value in COPY's text format: `\N` for NULL, backslash and the delimiters escaped. */
function copyField(v: string | number | null): string {
  if (v === null) return '\\N';
  if (typeof v === 'number') return String(v);
  return /[\\\t\n\r]/.test(v) ? v.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r') : v;
}

/** COPY lines joined a thousand at a time (fewer, larger writes). */
function* chunked(lines: readonly string[], size = 1000): Generator<string> {
  for (let i = 0; i < lines.length; i += size) yield lines.slice(i, i + size).join('');
}

/** A listed credit as read, its counts as numbers. */
const listedRow = (r: ListedCreditRecord): ListedCreditRecord => ({ ...r, id: Number(r.id), device_count: Number(r.device_count) });

const paymentRow = (r: PaymentRecord): PaymentRecord => ({
  ...r,
  id: Number(r.id),
  credit_id: Number(r.credit_id),
  amount_cents: Number(r.amount_cents),
});
