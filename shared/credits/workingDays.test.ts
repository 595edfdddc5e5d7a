import fc from 'fast-check';
import { anyDate, dateBetween, isOpenDay } from '../../tests/helpers/creditArbitraries';
import { addDays, dateParts } from './calendarDate';
import { isWorkingDay, mexicanHolidays, nextWorkingDay, type WorkingCalendar } from './workingDays';

const SUNDAYS_OFF: WorkingCalendar = { nonWorkingWeekdays: [0], holidays: [...mexicanHolidays(2026), ...mexicanHolidays(2027)] };

describe('mexicanHolidays (Ley Federal del Trabajo, art. 74)', () => {
  test('2026', () => {
    expect(mexicanHolidays(2026)).toEqual(['2026-01-01', '2026-02-02', '2026-03-16', '2026-05-01', '2026-09-16', '2026-11-16', '2026-12-25']);
  });

  test('2030: a new federal executive takes office on 1 October', () => {
    expect(mexicanHolidays(2030)).toEqual([
      '2030-01-01',
      '2030-02-04',
      '2030-03-18',
      '2030-05-01',
      '2030-09-16',
      '2030-10-01',
      '2030-11-18',
      '2030-12-25',
    ]);
  });

  test('the transmission of the executive: 1 October from 2024, 1 December before', () => {
    expect(mexicanHolidays(2024)).toContain('2024-10-01');
    expect(mexicanHolidays(2036)).toContain('2036-10-01');
    expect(mexicanHolidays(2018)).toContain('2018-12-01');
    expect(mexicanHolidays(2018)).not.toContain('2018-10-01');
    for (const year of [2025, 2027, 2029, 2031, 2019]) expect(mexicanHolidays(year)).toHaveLength(7);
  });

  test('refuses years before the 2006 reform and non-years', () => {
    for (const year of [2005, 2026.5, 10000]) expect(() => mexicanHolidays(year)).toThrow(RangeError);
  });

  test('every year: the Mondays fall in the right week, the fixed days stay fixed, in date order', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2006, max: 2200 }), (year) => {
        const days = mexicanHolidays(year);
        const transmission = (year - 2024) % 6 === 0;
        expect(days).toHaveLength(transmission ? 8 : 7);
        expect([...days].sort()).toEqual(days);
        const inMonth = (m: number) => days.filter((d) => dateParts(d).month === m).map((d) => dateParts(d).day);
        for (const [month, first, last] of [
          [2, 1, 7],
          [3, 15, 21],
          [11, 15, 21],
        ] as const) {
          const [day] = inMonth(month);
          expect(day).toBeGreaterThanOrEqual(first);
          expect(day).toBeLessThanOrEqual(last);
          expect(new Date(Date.UTC(year, month - 1, day)).getUTCDay()).toBe(1);
        }
        expect(inMonth(1)).toEqual([1]);
        expect(inMonth(5)).toEqual([1]);
        expect(inMonth(9)).toEqual([16]);
        expect(inMonth(10)).toEqual(transmission && year >= 2024 ? [1] : []);
        expect(inMonth(12)).toEqual(transmission && year < 2024 ? [1, 25] : [25]);
      }),
    );
  });
});

describe('isWorkingDay and nextWorkingDay', () => {
  test('Sundays and holidays are closed', () => {
    expect(isWorkingDay('2026-01-30', SUNDAYS_OFF)).toBe(true); // a Friday
    expect(isWorkingDay('2026-01-31', SUNDAYS_OFF)).toBe(true); // a Saturday
    expect(isWorkingDay('2026-02-01', SUNDAYS_OFF)).toBe(false); // a Sunday
    expect(isWorkingDay('2026-02-02', SUNDAYS_OFF)).toBe(false); // Constitution Day
    expect(isWorkingDay('2026-12-25', { nonWorkingWeekdays: [], holidays: [] })).toBe(true);
  });

  test('the date itself when it is a working day, else the first one after', () => {
    expect(nextWorkingDay('2026-01-30', SUNDAYS_OFF)).toBe('2026-01-30');
    // Sunday 1 February, then Monday 2 February (a holiday): Tuesday.
    expect(nextWorkingDay('2026-02-01', SUNDAYS_OFF)).toBe('2026-02-03');
    expect(nextWorkingDay('2026-12-25', SUNDAYS_OFF)).toBe('2026-12-26');
    const weekendsOff = { nonWorkingWeekdays: [0, 6], holidays: mexicanHolidays(2026) };
    expect(nextWorkingDay('2026-01-31', weekendsOff)).toBe('2026-02-03');
    // Open on Mondays only, and the next two Mondays are closed.
    const mondays = { nonWorkingWeekdays: [0, 2, 3, 4, 5, 6], holidays: ['2026-02-02', '2026-02-09'] };
    expect(nextWorkingDay('2026-01-27', mondays)).toBe('2026-02-16');
  });

  test('refuses a calendar without a working weekday, with a weekday that is not one, or a holiday that is not a date', () => {
    expect(() => nextWorkingDay('2026-01-01', { nonWorkingWeekdays: [0, 1, 2, 3, 4, 5, 6], holidays: [] })).toThrow(RangeError);
    expect(() => isWorkingDay('2026-01-01', { nonWorkingWeekdays: [7], holidays: [] })).toThrow(RangeError);
    expect(() => isWorkingDay('2026-01-01', { nonWorkingWeekdays: [0], holidays: ['2026-02-30'] })).toThrow(RangeError);
    expect(() => nextWorkingDay('2026-02-30', SUNDAYS_OFF)).toThrow(RangeError);
  });

  /** Calendars with one to six weekdays off and runs of consecutive holidays. */
  const calendar: fc.Arbitrary<WorkingCalendar> = fc.record({
    nonWorkingWeekdays: fc.uniqueArray(fc.integer({ min: 0, max: 6 }), { maxLength: 6 }),
    holidays: fc
      .array(fc.tuple(dateBetween('2025-12-01', '2026-02-28'), fc.integer({ min: 1, max: 20 })), { maxLength: 4 })
      .map((runs) => runs.flatMap(([start, length]) => Array.from({ length }, (_, i) => addDays(start, i)))),
  });

  test('the next working day is open, not before the date, and every day between is closed; isWorkingDay agrees', () => {
    fc.assert(
      fc.property(fc.oneof(dateBetween('2025-12-01', '2026-03-31'), anyDate), calendar, (date, cal) => {
        const next = nextWorkingDay(date, cal);
        expect(next >= date).toBe(true);
        expect(isOpenDay(next, cal)).toBe(true);
        for (let d = date; d < next; d = addDays(d, 1)) expect(isOpenDay(d, cal)).toBe(false);
        expect(isWorkingDay(date, cal)).toBe(isOpenDay(date, cal));
        expect(nextWorkingDay(next, cal)).toBe(next);
      }),
    );
  });
});
