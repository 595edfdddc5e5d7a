/**
 * Credits loaded in bulk with their past: schedules and the payments already made, a few
 * statements for thousands of credits (the demo seed's portfolio). Every figure comes from the
 * same functions as CreditsService's writes: the derived columns (derivedOf), what is unpaid per
 * due date (unpaidByDue, credit_unpaid_by_due), each payment's answer (the standing it left on
 * its own date); the counters of credit_due_counts move with the rows by their triggers.
 */
import type { PaymentSource } from '../../shared/constants/creditLabels';
import type { PaymentResult } from '../../shared/contracts/credits';
import { addDays, formatAmount, instantAt, standing, todayIn, type Installment } from '../../shared/credits';
import type { Queryable } from '../db/Db';
import { CreditRepository, type PaymentInsert } from './creditRepository';
import { derivedOf, standingResponse, unpaidByDue } from './creditViews';

export interface ImportedPayment {
  externalId: string;
  amountCents: number;
  paidAt: Date;
  recordedAt: Date;
}

/** A new credit, its schedule and the payments that stand on it (in the order they were made). */
export interface ImportedCredit {
  reference: string;
  customerName: string;
  customerPhone: string | null;
  currency: string;
  createdAt: Date;
  installments: readonly Installment[];
  payments: readonly ImportedPayment[];
}

export interface ImportOptions {
  /** The company's zone: each payment's answer is the credit's standing on the company's date it was made. */
  timeZone: string;
  source: PaymentSource;
  recordedBy: string | null;
}

/** A reference given twice, or one that names a credit already: nothing of the call may stay (the caller's transaction). */
export class CreditExistsError extends Error {
  constructor(readonly reference: string) {
    super(`El crédito ${reference} ya existe`);
    this.name = 'CreditExistsError';
  }
}

/**
 * The company's date of each instant among `instants`: the day whose midnight (instantAt) is the
 * last one at or before it. A few hundred midnights found once, then a binary search per instant,
 * instead of a time-zone conversion per payment.
 */
function companyDates(timeZone: string, instants: readonly number[]): (at: Date) => string {
  if (instants.length === 0) return (at) => todayIn(timeZone, at);
  let min = Infinity;
  let max = -Infinity;
  for (const t of instants) {
    if (t < min) min = t;
    if (t > max) max = t;
  }
  const days: string[] = [];
  for (let d = addDays(todayIn(timeZone, new Date(min)), -1), last = addDays(todayIn(timeZone, new Date(max)), 1); d <= last; d = addDays(d, 1))
    days.push(d);
  const midnights = days.map((d) => instantAt(d, '00:00', timeZone).getTime());
  return (at) => {
    const t = at.getTime();
    let lo = 0;
    let hi = midnights.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (midnights[mid]! <= t) lo = mid;
      else hi = mid - 1;
    }
    return days[lo]!;
  };
}

/**
 * Inserts new credits with their schedules and payments, in the caller's transaction. A payment
 * total above a credit's schedule is a RangeError, an existing reference a CreditExistsError,
 * either before anything is written or with the caller's transaction to roll back. Answers how many credits were inserted.
 */
export async function importCredits(q: Queryable, credits: readonly ImportedCredit[], opts: ImportOptions): Promise<number> {
  if (credits.length === 0) return 0;
  const seen = new Set<string>();
  for (const c of credits) {
    if (seen.has(c.reference.toLowerCase())) throw new CreditExistsError(c.reference);
    seen.add(c.reference.toLowerCase());
  }
  const paid = credits.map((c) => c.payments.reduce((sum, p) => sum + p.amountCents, 0));
  credits.forEach((c, i) => {
    const total = c.installments.reduce((sum, x) => sum + x.amountCents, 0);
    if (paid[i]! > total) throw new RangeError(`${c.reference}: los pagos (${paid[i]}) exceden el total del crédito (${total})`);
  });
  const repo = new CreditRepository(q);
  const ids = await repo.insertMany(
    credits.map((c, i) => ({
      fields: { reference: c.reference, customerName: c.customerName, customerPhone: c.customerPhone, currency: c.currency, cancelled: false },
      derived: derivedOf(c.installments, paid[i]!),
      createdAt: c.createdAt,
    })),
  );
  const idOf = (c: ImportedCredit) => ids.get(c.reference.toLowerCase());
  const existing = credits.find((c) => idOf(c) === undefined);
  if (existing) throw new CreditExistsError(existing.reference);
  await repo.insertInstallments(credits.map((c) => ({ creditId: idOf(c)!, installments: c.installments })));

  const dateOf = companyDates(
    opts.timeZone,
    credits.flatMap((c) => c.payments.map((p) => p.paidAt.getTime())),
  );
  const payments: PaymentInsert[] = [];
  const unpaid = new Map<string, Map<string, number>>();
  credits.forEach((c, i) => {
    let paidCents = 0;
    for (const p of c.payments) {
      paidCents += p.amountCents;
      const result: PaymentResult = {
        payment: {
          externalId: p.externalId,
          amount: formatAmount(p.amountCents),
          paidAt: p.paidAt.toISOString(),
          source: opts.source,
          reversedAt: null,
        },
        credit: standingResponse(c, standing({ installments: c.installments, paidCents, cancelled: false, today: dateOf(p.paidAt) })),
      };
      payments.push({ creditId: idOf(c)!, ...p, source: opts.source, recordedBy: opts.recordedBy, result });
    }
    const byDue = unpaid.get(c.currency) ?? new Map<string, number>();
    unpaid.set(c.currency, byDue);
    for (const [due, cents] of unpaidByDue(c.installments, paid[i]!, false)) byDue.set(due, (byDue.get(due) ?? 0) + cents);
  });
  // Bounded statements: a payment's answer is a few hundred bytes of JSON.
  for (let i = 0; i < payments.length; i += 20_000) await repo.insertPayments(payments.slice(i, i + 20_000));
  for (const [currency, byDue] of unpaid)
    await repo.moveUnpaid(
      currency,
      [...byDue].sort(([a], [b]) => (a < b ? -1 : 1)),
    );
  return credits.length;
}
