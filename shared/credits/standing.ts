/**
 * Where a credit stands on a given day: current, overdue, paid off or cancelled, and the figures
 * a collector needs (how late, how much late, what comes next).
 */
import { daysBetween, isCalendarDate } from './calendarDate';
import { allocate, compareInstallments } from './allocation';
import type { Installment } from './schedule';

export const CREDIT_STATES = ['current', 'overdue', 'paid_off', 'cancelled'] as const;
export type CreditState = (typeof CREDIT_STATES)[number];

export interface StandingInput {
  installments: readonly Installment[];
  /** The sum of the payments that stand (reversed ones left out). */
  paidCents: number;
  cancelled: boolean;
  /** The company's date today (`todayIn`): an installment due today is not yet overdue. */
  today: string;
}

export interface Standing {
  state: CreditState;
  /** Days from the oldest unpaid due date before today to today; 0 when none. */
  daysOverdue: number;
  /** The unpaid part of the installments due before today. */
  amountOverdueCents: number;
  /** The due date of the oldest installment due before today and not fully paid. */
  oldestUnpaidDue: string | null;
  /** The first installment due today or later and not fully paid: its date and its unpaid part. */
  nextDueDate: string | null;
  nextDueAmountCents: number | null;
  totalCents: number;
  /** As given: may exceed the total (see creditCents). */
  paidCents: number;
  /** What is left to pay: totalCents − paidCents, never below 0. */
  balanceCents: number;
  /** What was paid beyond the total. */
  creditCents: number;
}

/**
 * The standing of a credit on `today`. A cancelled credit is 'cancelled' whatever it owes and
 * reports nothing overdue or due (nothing is collected on it any more), only its totals.
 * Otherwise it is 'paid_off' when nothing is left to pay, 'overdue' when an installment due
 * before today is not fully paid, else 'current'.
 */
export function standing(input: StandingInput): Standing {
  const { cancelled, today } = input;
  if (!isCalendarDate(today)) throw new RangeError(`Not a calendar date: ${today}`);
  const { installments, creditCents } = allocate(input.installments, input.paidCents);
  const open = installments
    .filter((i) => i.paidCents < i.amountCents)
    .sort(compareInstallments)
    .map((i) => ({ dueDate: i.dueDate, unpaidCents: i.amountCents - i.paidCents }));
  const totalCents = installments.reduce((sum, i) => sum + i.amountCents, 0);
  const balanceCents = open.reduce((sum, i) => sum + i.unpaidCents, 0);
  const overdue = cancelled ? [] : open.filter((i) => i.dueDate < today);
  const next = cancelled ? undefined : open.find((i) => i.dueDate >= today);
  const oldest = overdue[0];
  const state: CreditState = cancelled ? 'cancelled' : balanceCents === 0 ? 'paid_off' : oldest ? 'overdue' : 'current';
  return {
    state,
    daysOverdue: oldest ? daysBetween(oldest.dueDate, today) : 0,
    amountOverdueCents: overdue.reduce((sum, i) => sum + i.unpaidCents, 0),
    oldestUnpaidDue: oldest?.dueDate ?? null,
    nextDueDate: next?.dueDate ?? null,
    nextDueAmountCents: next?.unpaidCents ?? null,
    totalCents,
    paidCents: input.paidCents,
    balanceCents,
    creditCents,
  };
}
