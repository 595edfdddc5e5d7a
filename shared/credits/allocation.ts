/**
 * How the money paid on a credit covers its installments. Allocation depends only on the sum of
 * the payments that stand, so reversing a payment (taking it out of the sum) gives back exactly
 * the allocation from before it.
 */
import { isCalendarDate } from './calendarDate';
import { isCents } from './money';
import type { Installment } from './schedule';

export interface AllocatedInstallment extends Installment {
  /** The part of the installment the payments cover, 0 … amountCents. */
  paidCents: number;
}

export interface Allocation {
  /** The installments in the order given, each with its paid part. */
  installments: AllocatedInstallment[];
  /** What was paid beyond the total of the installments: owed back to the customer or kept as credit, never lost. */
  creditCents: number;
}

/** Oldest first: by due date, then by number. */
export function compareInstallments(a: Installment, b: Installment): number {
  return a.dueDate < b.dueDate ? -1 : a.dueDate > b.dueDate ? 1 : a.number - b.number;
}

/** Spreads `paidCents` over the installments, oldest first, each filled before the next gets anything. */
export function allocate(installments: readonly Installment[], paidCents: number): Allocation {
  if (!isCents(paidCents)) throw new RangeError(`Not a whole, non-negative number of cents: ${paidCents}`);
  for (const i of installments) {
    if (!isCents(i.amountCents) || !isCalendarDate(i.dueDate)) throw new RangeError(`Not an installment: ${JSON.stringify(i)}`);
  }
  const oldestFirst = [...installments.keys()].sort((a, b) => compareInstallments(installments[a]!, installments[b]!));
  const paid: number[] = [];
  let left = paidCents;
  for (const k of oldestFirst) {
    const part = Math.min(installments[k]!.amountCents, left);
    paid[k] = part;
    left -= part;
  }
  return { installments: installments.map((i, k) => ({ ...i, paidCents: paid[k]! })), creditCents: left };
}
