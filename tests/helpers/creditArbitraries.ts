/**
 * fast-check arbitraries for the tests of shared/credits. Dates come from JavaScript's Date, not
 * from the library under test, so a wrong date function cannot also bend its own inputs.
 */
import fc from 'fast-check';
import { buildSchedule, SCHEDULE_KINDS, type Installment, type ScheduleInput, type WorkingCalendar } from '../../shared/credits';

/** Date.UTC's reading of a year, a month from 0 and a day (out-of-range values roll over), as 'YYYY-MM-DD'. */
const utcDate = (year: number, month: number, day: number) => new Date(Date.UTC(year, month, day)).toISOString().slice(0, 10);

/** Dates 'YYYY-MM-DD' between two dates (inclusive). */
export const dateBetween = (min: string, max: string): fc.Arbitrary<string> =>
  fc.date({ min: new Date(`${min}T00:00:00Z`), max: new Date(`${max}T23:59:59Z`), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));

/** Dates within a few days of a month's end, leap years among them: where off-by-one errors live. */
export const nearMonthEnd: fc.Arbitrary<string> = fc
  .tuple(fc.integer({ min: 1999, max: 2033 }), fc.integer({ min: 0, max: 11 }), fc.integer({ min: -3, max: 3 }))
  .map(([year, month, offset]) => utcDate(year, month + 1, offset));

/** Any date of 1999–2033, with month ends and mid-months (the quincenas) drawn as often as the rest. */
export const anyDate: fc.Arbitrary<string> = fc.oneof(
  dateBetween('1999-01-01', '2033-12-31'),
  nearMonthEnd,
  fc
    .tuple(fc.integer({ min: 1999, max: 2033 }), fc.integer({ min: 0, max: 11 }), fc.integer({ min: 14, max: 16 }))
    .map(([y, m, d]) => utcDate(y, m, d)),
);

/** The input of a schedule: any kind, a first due date drawn from `dates`, 1–40 installments, at least a cent each. */
export const scheduleInputFrom = (dates: fc.Arbitrary<string>): fc.Arbitrary<ScheduleInput> =>
  fc
    .record({ kind: fc.constantFrom(...SCHEDULE_KINDS), firstDueDate: dates, count: fc.integer({ min: 1, max: 40 }) })
    .chain((s) => fc.integer({ min: s.count, max: 5_000_000 }).map((totalCents) => ({ ...s, totalCents })));

export const scheduleInput = scheduleInputFrom(anyDate);

/**
 * Installments as the allocation may receive them: schedules, and hand-made lists in any order
 * with shared due dates and zero amounts.
 */
export const installmentsArb: fc.Arbitrary<Installment[]> = fc.oneof(
  scheduleInput.map(buildSchedule),
  fc
    .array(fc.record({ dueDate: fc.oneof(nearMonthEnd, fc.constantFrom('2026-01-31', '2026-02-28')), amountCents: fc.nat({ max: 200_000 }) }), {
      maxLength: 16,
    })
    .chain((xs) =>
      fc.shuffledSubarray(
        xs.map((x, i) => ({ number: i + 1, ...x })),
        { minLength: xs.length },
      ),
    ),
);

/**
 * Installments with a paid sum from nothing to beyond the total, often at or next to the edge of
 * some installments (the sum of some of them, give or take two cents).
 */
export const installmentsAndPaid: fc.Arbitrary<[Installment[], number]> = installmentsArb.chain((xs) => {
  const amounts = xs.map((i) => i.amountCents);
  const edge = fc
    .tuple(fc.subarray(amounts), fc.integer({ min: -2, max: 2 }))
    .map(([some, delta]) => Math.max(0, some.reduce((sum, a) => sum + a, 0) + delta));
  return fc.tuple(fc.constant(xs), fc.oneof(fc.nat({ max: amounts.reduce((sum, a) => sum + a, 0) + 100_000 }), edge));
});

/** A day-by-day count from `a` to `b` with Date, as an oracle for daysBetween. */
export function countDays(a: string, b: string): number {
  const day = new Date(`${a}T00:00:00Z`);
  let n = 0;
  while (day.toISOString().slice(0, 10) < b) {
    day.setUTCDate(day.getUTCDate() + 1);
    n++;
  }
  return n;
}

/** Whether a calendar has the date open, with Date's day of the week: an oracle for isWorkingDay. */
export const isOpenDay = (date: string, calendar: WorkingCalendar): boolean =>
  !calendar.nonWorkingWeekdays.includes(new Date(`${date}T00:00:00Z`).getUTCDay()) && !calendar.holidays.includes(date);
