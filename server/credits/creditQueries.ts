/**
 * The SQL the portfolio's reads share: the WHERE of its filters on a day, the ORDER BY of its
 * sorts, and the same filters on the counters (credit_due_counts). Plain parameterised SQL; no
 * value is ever spliced. Every date condition is a range of `first_unpaid_due`, the due date of
 * the first installment not fully paid (migration 0024), against the company's date today.
 */
import type { OverdueBucket } from '../../shared/constants/creditLabels';
import type { CreditFilter } from '../../shared/contracts/credits';
import { addDays } from '../../shared/credits';
import { SqlWhere, creditDevicesSql, likeEscape } from '../devices';
import type { CreditSort } from '../../shared/constants/limits';

/** Days overdue of each bucket, inclusive (no upper bound for the last). */
const BUCKET_DAYS: Record<OverdueBucket, { min: number; max?: number }> = {
  '1-7': { min: 1, max: 7 },
  '8-30': { min: 8, max: 30 },
  '31+': { min: 31 },
};

/** The days from today an installment counts as due this week: today and the six after it. */
export const DUE_THIS_WEEK_DAYS = 7;

/**
 * Which credits a state and an overdue bucket keep: cancelled or not, and for those not
 * cancelled the dates their first unpaid installment may be due on ('none': nothing left to pay,
 * a range otherwise, each bound inclusive). `empty` when no credit can match both.
 */
export type DueCondition = { empty: true } | { empty: false; cancelled?: boolean; due?: 'none' | { min?: string; max?: string } };

const later = (a?: string, b?: string) => (a === undefined ? b : b === undefined || a > b ? a : b);
const earlier = (a?: string, b?: string) => (a === undefined ? b : b === undefined || a < b ? a : b);

/** The due condition of `filter`'s state and overdue bucket on `today`. */
export function dueCondition(filter: Pick<CreditFilter, 'state' | 'overdue'>, today: string): DueCondition {
  let cancelled: boolean | undefined;
  let due: 'none' | { min?: string; max?: string } | undefined;
  switch (filter.state) {
    case 'cancelled':
      cancelled = true;
      break;
    case 'paid_off':
      cancelled = false;
      due = 'none';
      break;
    case 'overdue':
      cancelled = false;
      due = { max: addDays(today, -1) };
      break;
    case 'current':
      cancelled = false;
      due = { min: today };
      break;
  }
  if (filter.overdue !== undefined) {
    // A bucket counts days overdue: a credit that is not cancelled, due that many days ago.
    if (cancelled === true || due === 'none') return { empty: true };
    const days = BUCKET_DAYS[filter.overdue];
    cancelled = false;
    due = {
      min: later(due?.min, days.max === undefined ? undefined : addDays(today, -days.max)),
      max: earlier(due?.max, addDays(today, -days.min)),
    };
  }
  if (due !== undefined && due !== 'none' && due.min !== undefined && due.max !== undefined && due.min > due.max) return { empty: true };
  return { empty: false, cancelled, due };
}

/** The due condition as SQL on the credits (alias `c`). */
function dueSqlOnCredits(cond: DueCondition, where: SqlWhere): void {
  if (cond.empty) {
    where.add('false');
    return;
  }
  if (cond.cancelled !== undefined) where.add(`c.cancelled_at IS ${cond.cancelled ? 'NOT ' : ''}NULL`);
  if (cond.due === 'none') where.add('c.first_unpaid_due IS NULL');
  else if (cond.due !== undefined) {
    if (cond.due.min !== undefined) where.add(`c.first_unpaid_due >= ${where.param(cond.due.min)}::date`);
    if (cond.due.max !== undefined) where.add(`c.first_unpaid_due <= ${where.param(cond.due.max)}::date`);
  }
}

/**
 * The due condition as SQL on credit_due_counts (`due`: 'infinity' when nothing is left to pay),
 * or undefined when the condition is empty.
 */
export function countersWhere(cond: DueCondition, where = new SqlWhere()): SqlWhere | undefined {
  if (cond.empty) return undefined;
  where.add('true');
  if (cond.cancelled !== undefined) where.add(`cancelled = ${cond.cancelled ? 'true' : 'false'}`);
  if (cond.due === 'none') where.add(`due = 'infinity'`);
  else if (cond.due !== undefined) {
    where.add(`due < 'infinity'`);
    if (cond.due.min !== undefined) where.add(`due >= ${where.param(cond.due.min)}::date`);
    if (cond.due.max !== undefined) where.add(`due <= ${where.param(cond.due.max)}::date`);
  }
  return where;
}

/** Whether the counters answer `filter`'s total: only the state and the overdue bucket filter it. */
export const countersAnswer = (filter: CreditFilter): boolean =>
  filter.dueThisWeek === undefined && filter.paidToday === undefined && filter.groupId === undefined && filter.search === undefined;

/** The company's day today as instants, [start, end): the payments dated today (paidToday). */
export interface PaymentDay {
  start: Date;
  end: Date;
}

/**
 * A payment that stands is dated in `day`: a range of the partial index credit_payments_paid_at
 * (migration 0024), whose credits the list keeps. Never NULL, so NOT of it is its opposite.
 */
export function paidOnSql(day: PaymentDay, where: SqlWhere): string {
  return `c.id IN (SELECT p.credit_id FROM credit_payments p
                    WHERE p.reversed_at IS NULL AND p.paid_at >= ${where.param(day.start)} AND p.paid_at < ${where.param(day.end)})`;
}

/**
 * An installment not fully paid is due in the seven days from today: the first unpaid one (when
 * due today or later), or a later one of an overdue credit (every installment after the first
 * unpaid is unpaid: payments cover the oldest first). Never NULL, so NOT of it is its opposite.
 */
export function dueThisWeekSql(today: string, where: SqlWhere): string {
  const from = where.param(today);
  const to = where.param(addDays(today, DUE_THIS_WEEK_DAYS - 1));
  return `(c.cancelled_at IS NULL AND c.first_unpaid_due IS NOT NULL AND c.first_unpaid_due <= ${to}::date
           AND (c.first_unpaid_due >= ${from}::date
                OR EXISTS (SELECT 1 FROM credit_installments i WHERE i.credit_id = c.id AND i.due_date >= ${from}::date AND i.due_date <= ${to}::date)))`;
}

/**
 * The credits matching `filter` on the company's date `today` (`paymentDay`: its instants, which
 * paidToday compares payments with), on the alias `c`. Search: every
 * word (space-separated) is found in the reference or the customer's name, folded as the stored
 * text is (accents and case ignored, ñ as the devices' search reads it: migration 0011), through
 * the trigram index credits_search.
 */
export function creditWhere(filter: CreditFilter, today: string, where = new SqlWhere(), paymentDay?: PaymentDay): SqlWhere {
  dueSqlOnCredits(dueCondition(filter, today), where);
  if (filter.dueThisWeek !== undefined) where.add(`${filter.dueThisWeek ? '' : 'NOT '}${dueThisWeekSql(today, where)}`);
  if (filter.paidToday !== undefined) {
    if (!paymentDay) throw new Error('creditWhere: paidToday needs the instants of the company day');
    where.add(`${filter.paidToday ? '' : 'NOT '}(${paidOnSql(paymentDay, where)})`);
  }
  if (filter.groupId !== undefined) {
    const group = filter.groupId === 'none' ? 'none' : where.param(filter.groupId);
    where.add(`lower(c.reference) IN (${creditDevicesSql.referencesInGroup(group)})`);
  }
  if (filter.search !== undefined) {
    for (const token of filter.search.toLowerCase().replace(/[ñÑ]/g, '').split(/\s+/)) {
      if (token) where.add(`c.search_text LIKE search_fold(${where.param(`%${likeEscape(token)}%`)})`);
    }
  }
  return where;
}

/**
 * The ORDER BY of each sort, read in the order of its index (migration 0024), the id last as the
 * tie-breaker (the reference is unique by itself). `dueDate`: the oldest unpaid due date, so
 * ascending lists the most overdue first, then what falls due next, the paid-off last.
 */
const SORT_KEYS: Record<CreditSort, readonly string[]> = {
  dueDate: ['c.first_unpaid_due', 'c.id'],
  reference: ['lower(c.reference)'],
  customerName: ['lower(c.customer_name)', 'c.id'],
  balance: ['greatest(c.total_cents - c.paid_cents, 0)', 'c.id'],
  createdAt: ['c.id'],
};

export const creditOrderBy = (sort: CreditSort, order: 'asc' | 'desc'): string =>
  SORT_KEYS[sort].map((k) => `${k} ${order === 'asc' ? 'ASC' : 'DESC'}`).join(', ');
