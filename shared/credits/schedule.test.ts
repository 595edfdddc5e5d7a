import fc from 'fast-check';
import { dateBetween, isOpenDay, scheduleInput, scheduleInputFrom } from '../../tests/helpers/creditArbitraries';
import { addDays, dateParts, daysBetween, lastDayOfMonth } from './calendarDate';
import { buildSchedule, MAX_INSTALLMENTS, type ScheduleInput } from './schedule';
import { mexicanHolidays, type WorkingCalendar } from './workingDays';

const dates = (input: ScheduleInput) => buildSchedule(input).map((i) => i.dueDate);
const isQuincenaDay = (date: string) => {
  const { year, month, day } = dateParts(date);
  return day === 15 || day === lastDayOfMonth(year, month);
};
const SUNDAYS_OFF: WorkingCalendar = { nonWorkingWeekdays: [0], holidays: [2026, 2027, 2028].flatMap(mexicanHolidays) };

describe('buildSchedule: due dates', () => {
  test('weekly and biweekly: every 7 and 14 days, across month and year ends', () => {
    expect(dates({ kind: 'weekly', firstDueDate: '2026-12-24', count: 3, totalCents: 300 })).toEqual(['2026-12-24', '2026-12-31', '2027-01-07']);
    expect(dates({ kind: 'biweekly', firstDueDate: '2028-02-15', count: 3, totalCents: 300 })).toEqual(['2028-02-15', '2028-02-29', '2028-03-14']);
  });

  test('monthly keeps the first date’s day, clamped to short months, without drifting', () => {
    expect(dates({ kind: 'monthly', firstDueDate: '2026-01-31', count: 5, totalCents: 500 })).toEqual([
      '2026-01-31',
      '2026-02-28',
      '2026-03-31',
      '2026-04-30',
      '2026-05-31',
    ]);
    expect(dates({ kind: 'monthly', firstDueDate: '2027-12-30', count: 4, totalCents: 400 })).toEqual([
      '2027-12-30',
      '2028-01-30',
      '2028-02-29',
      '2028-03-30',
    ]);
    expect(dates({ kind: 'monthly', firstDueDate: '2026-03-15', count: 12, totalCents: 1200 }).at(-1)).toBe('2027-02-15');
  });

  test('quincena: the 15th and the last day of each month, from the first such day on or after the first date', () => {
    expect(dates({ kind: 'quincena', firstDueDate: '2026-02-01', count: 4, totalCents: 400 })).toEqual([
      '2026-02-15',
      '2026-02-28',
      '2026-03-15',
      '2026-03-31',
    ]);
    expect(dates({ kind: 'quincena', firstDueDate: '2028-02-16', count: 3, totalCents: 300 })).toEqual(['2028-02-29', '2028-03-15', '2028-03-31']);
    expect(dates({ kind: 'quincena', firstDueDate: '2026-01-15', count: 2, totalCents: 200 })).toEqual(['2026-01-15', '2026-01-31']);
    expect(dates({ kind: 'quincena', firstDueDate: '2026-12-31', count: 3, totalCents: 300 })).toEqual(['2026-12-31', '2027-01-15', '2027-01-31']);
  });

  test('shifted to working days: Sundays and holidays move to the next working day', () => {
    // 1 February 2026 is a Sunday and 2 February a holiday; 1 March a Sunday; 1 November a Sunday.
    expect(dates({ kind: 'monthly', firstDueDate: '2026-01-01', count: 4, totalCents: 400, shiftToWorkingDay: SUNDAYS_OFF })).toEqual([
      '2026-01-02',
      '2026-02-03',
      '2026-03-02',
      '2026-04-01',
    ]);
    // 15 March 2026 is a Sunday and the 16th a holiday.
    expect(dates({ kind: 'quincena', firstDueDate: '2026-03-01', count: 2, totalCents: 200, shiftToWorkingDay: SUNDAYS_OFF })).toEqual([
      '2026-03-17',
      '2026-03-31',
    ]);
  });

  test('a closure longer than the interval: the later installment moves to the first working day after the earlier one', () => {
    // Closed from 20 December 2026 to 6 January 2027: three weekly dates fall inside.
    const closed = Array.from({ length: 18 }, (_, i) => addDays('2026-12-20', i));
    const calendar = { nonWorkingWeekdays: [0], holidays: closed };
    expect(dates({ kind: 'weekly', firstDueDate: '2026-12-17', count: 6, totalCents: 600, shiftToWorkingDay: calendar })).toEqual([
      '2026-12-17',
      '2027-01-07', // 24 Dec
      '2027-01-08', // 31 Dec, would collide with the one before
      '2027-01-09', // 7 Jan, would collide too
      '2027-01-14',
      '2027-01-21',
    ]);
  });
});

describe('buildSchedule: amounts', () => {
  test('equal installments, the remainder one cent each on the first ones', () => {
    const schedule = buildSchedule({ kind: 'weekly', firstDueDate: '2026-03-02', count: 3, totalCents: 100001 });
    expect(schedule).toEqual([
      { number: 1, dueDate: '2026-03-02', amountCents: 33334 },
      { number: 2, dueDate: '2026-03-09', amountCents: 33334 },
      { number: 3, dueDate: '2026-03-16', amountCents: 33333 },
    ]);
    expect(buildSchedule({ kind: 'monthly', firstDueDate: '2026-03-02', count: 1, totalCents: 125000 })).toEqual([
      { number: 1, dueDate: '2026-03-02', amountCents: 125000 },
    ]);
  });

  test('refuses a bad kind, count, total or date', () => {
    const ok: ScheduleInput = { kind: 'weekly', firstDueDate: '2026-03-02', count: 3, totalCents: 300 };
    for (const bad of [
      { kind: 'daily' as ScheduleInput['kind'] },
      { count: 0 },
      { count: 2.5 },
      { count: MAX_INSTALLMENTS + 1 },
      { totalCents: 2 },
      { totalCents: 300.5 },
      { totalCents: -300 },
      { firstDueDate: '2026-02-30' },
    ])
      expect(() => buildSchedule({ ...ok, ...bad })).toThrow(RangeError);
    expect(buildSchedule({ ...ok, count: MAX_INSTALLMENTS, totalCents: MAX_INSTALLMENTS })).toHaveLength(MAX_INSTALLMENTS);
  });
});

describe('buildSchedule: properties', () => {
  test('the amounts sum to the total, differ by at most a cent, larger first; the dates strictly increase', () => {
    fc.assert(
      fc.property(scheduleInput, (input) => {
        const schedule = buildSchedule(input);
        expect(schedule.map((i) => i.number)).toEqual(Array.from({ length: input.count }, (_, i) => i + 1));
        const amounts = schedule.map((i) => i.amountCents);
        expect(amounts.reduce((a, b) => a + b, 0)).toBe(input.totalCents);
        expect(amounts.every((a, i) => i === 0 || (amounts[i - 1]! >= a && amounts[0]! - a <= 1))).toBe(true);
        expect(schedule.every((x, i) => i === 0 || x.dueDate > schedule[i - 1]!.dueDate)).toBe(true);
      }),
    );
  });

  test('each kind keeps its cadence', () => {
    fc.assert(
      fc.property(scheduleInput, (input) => {
        const due = dates(input);
        const first = dateParts(input.firstDueDate);
        due.forEach((date, i) => {
          const { year, month, day } = dateParts(date);
          switch (input.kind) {
            case 'weekly':
            case 'biweekly':
              expect(daysBetween(input.firstDueDate, date)).toBe(i * (input.kind === 'weekly' ? 7 : 14));
              break;
            case 'monthly':
              expect(year * 12 + month - (first.year * 12 + first.month)).toBe(i);
              expect(day).toBe(Math.min(first.day, lastDayOfMonth(year, month)));
              break;
            case 'quincena': {
              // The first 15th or month's end on or after the first date, then after the previous one.
              let expected = i === 0 ? input.firstDueDate : addDays(due[i - 1]!, 1);
              while (!isQuincenaDay(expected)) expected = addDays(expected, 1);
              expect(date).toBe(expected);
            }
          }
        });
      }),
    );
  });

  /** Sundays and sometimes Saturdays off, and runs of holidays up to three weeks long. */
  const calendar: fc.Arbitrary<WorkingCalendar> = fc.record({
    nonWorkingWeekdays: fc.constantFrom([0], [0, 6], []),
    holidays: fc
      .array(fc.tuple(dateBetween('2026-01-01', '2027-12-31'), fc.integer({ min: 1, max: 21 })), { maxLength: 6 })
      .map((runs) => runs.flatMap(([start, length]) => Array.from({ length }, (_, i) => addDays(start, i)))),
  });

  test('shifted: every date is a working day, strictly after the previous one, on or after its unshifted date, and as early as that allows', () => {
    fc.assert(
      fc.property(scheduleInputFrom(dateBetween('2026-01-01', '2027-12-31')), calendar, (plain, cal) => {
        const unshifted = dates(plain);
        const shifted = dates({ ...plain, shiftToWorkingDay: cal });
        expect(buildSchedule({ ...plain, shiftToWorkingDay: cal }).map((i) => i.amountCents)).toEqual(buildSchedule(plain).map((i) => i.amountCents));
        shifted.forEach((date, i) => {
          const earliest = i > 0 && unshifted[i]! <= shifted[i - 1]! ? addDays(shifted[i - 1]!, 1) : unshifted[i]!;
          expect(isOpenDay(date, cal)).toBe(true);
          if (i > 0) expect(date > shifted[i - 1]!).toBe(true);
          expect(date >= earliest).toBe(true);
          for (let d = earliest; d < date; d = addDays(d, 1)) expect(isOpenDay(d, cal)).toBe(false);
        });
      }),
    );
  });
});
