/**
 * Installment schedules: the due dates of a credit and the amount due on each, the total split
 * to the cent.
 */
import { addDays, calendarDate, dateParts, lastDayOfMonth } from './calendarDate';
import { isCents, splitCents } from './money';
import { nextWorkingDay, type WorkingCalendar } from './workingDays';

/**
 * weekly: every 7 days; biweekly: every 14 days (catorcenal); monthly: the first date's day of
 * each month; quincena: the 15th and the last day of each month.
 */
export const SCHEDULE_KINDS = ['weekly', 'biweekly', 'monthly', 'quincena'] as const;
export type ScheduleKind = (typeof SCHEDULE_KINDS)[number];

/** A bound against runaway input, well above ten years of weekly installments. */
export const MAX_INSTALLMENTS = 1000;

export interface Installment {
  /** 1, 2, … in due-date order. */
  number: number;
  dueDate: string;
  amountCents: number;
}

export interface ScheduleInput {
  kind: ScheduleKind;
  firstDueDate: string;
  count: number;
  totalCents: number;
  /** When given, a due date on a day this calendar closes moves to its next working day. */
  shiftToWorkingDay?: WorkingCalendar;
}

/** The date in the month `index` months after January of year 0, on `day` or the month's last day if shorter. */
function dayOfMonthIndex(index: number, day: number): string {
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  return calendarDate(year, month, Math.min(day, lastDayOfMonth(year, month)));
}

function dueDates(kind: ScheduleKind, first: string, count: number): string[] {
  const { year, month, day } = dateParts(first);
  const months = year * 12 + month - 1;
  // Quincenas are numbered two a month: even ones on the 15th, odd ones on the month's last day.
  const firstQuincena = 2 * months + (day <= 15 ? 0 : 1);
  return Array.from({ length: count }, (_, i) => {
    switch (kind) {
      case 'weekly':
        return addDays(first, 7 * i);
      case 'biweekly':
        return addDays(first, 14 * i);
      case 'monthly':
        // Always from the first date's day, so 31 Jan → 28 Feb → 31 Mar does not drift to the 28th.
        return dayOfMonthIndex(months + i, day);
      case 'quincena': {
        const q = firstQuincena + i;
        return dayOfMonthIndex(Math.floor(q / 2), q % 2 === 0 ? 15 : 31);
      }
    }
  });
}

/**
 * The installments of a credit. The total is split into `count` amounts that differ by at most a
 * cent, the extra cents on the first installments. With `shiftToWorkingDay`, each due date on a
 * closed day moves to the next working day. When a date falls on or before the previous
 * installment's shifted date (a closure longer than the interval), it moves to the first working
 * day after that one: due dates stay strictly increasing and the count never changes.
 */
export function buildSchedule(input: ScheduleInput): Installment[] {
  const { kind, firstDueDate, count, totalCents, shiftToWorkingDay: calendar } = input;
  if (!SCHEDULE_KINDS.includes(kind)) throw new RangeError(`Unknown schedule kind: ${String(kind)}`);
  if (!Number.isInteger(count) || count < 1 || count > MAX_INSTALLMENTS)
    throw new RangeError(`Installments must be 1 to ${MAX_INSTALLMENTS}: ${count}`);
  if (!isCents(totalCents) || totalCents < count) throw new RangeError(`The total must be at least a cent per installment: ${totalCents}`);
  let dates = dueDates(kind, firstDueDate, count);
  if (calendar) {
    let previous = ''; // sorts before every date
    dates = dates.map((date) => (previous = nextWorkingDay(date > previous ? date : addDays(previous, 1), calendar)));
  }
  const amounts = splitCents(totalCents, count);
  return dates.map((dueDate, i) => ({ number: i + 1, dueDate, amountCents: amounts[i]! }));
}
