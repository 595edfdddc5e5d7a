import fc from 'fast-check';
import { anyDate, countDays, dateBetween } from '../../tests/helpers/creditArbitraries';
import { addDays, calendarDate, dateParts, dayOfWeek, daysBetween, isCalendarDate, lastDayOfMonth } from './calendarDate';

/** JavaScript's own reading of a date, as an oracle. */
const utc = (date: string) => new Date(`${date}T00:00:00Z`);
const iso = (d: Date) => d.toISOString().slice(0, 10);

describe('isCalendarDate', () => {
  test('real dates only', () => {
    for (const ok of ['2026-01-01', '2028-02-29', '2000-02-29', '2026-12-31', '0001-01-01', '9999-12-31']) expect(isCalendarDate(ok)).toBe(true);
    for (const bad of [
      '2026-02-29',
      '1900-02-29',
      '2100-02-29',
      '2026-04-31',
      '2026-13-01',
      '2026-00-10',
      '2026-01-00',
      '2026-1-01',
      '26-01-01',
      '20260101',
      ' 2026-01-01',
      '2026-01-01T00:00',
      '2026/01/01',
      '',
      20260101,
      null,
      new Date(0),
    ])
      expect(isCalendarDate(bad)).toBe(false);
  });

  test('agrees with Date on every year, month and day', () => {
    // Century years and leap years drawn often: the leap-year rule's exceptions live there.
    const years = fc.oneof(
      fc.integer({ min: 1000, max: 9999 }),
      fc.integer({ min: 10, max: 99 }).map((c) => c * 100),
      fc.integer({ min: 250, max: 2499 }).map((q) => q * 4),
    );
    fc.assert(
      fc.property(years, fc.integer({ min: 0, max: 13 }), fc.oneof(fc.integer({ min: 0, max: 32 }), fc.integer({ min: 28, max: 31 })), (y, m, d) => {
        const text = `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
        const real = m >= 1 && m <= 12 && d >= 1 && iso(new Date(Date.UTC(y, m - 1, d))) === text;
        expect(isCalendarDate(text)).toBe(real);
      }),
    );
  });
});

describe('lastDayOfMonth, calendarDate and dateParts', () => {
  test('lastDayOfMonth agrees with Date, century years included', () => {
    const years = fc.oneof(
      fc.integer({ min: 1000, max: 9999 }),
      fc.integer({ min: 10, max: 99 }).map((c) => c * 100),
    );
    fc.assert(
      fc.property(years, fc.integer({ min: 1, max: 12 }), (y, m) => {
        expect(lastDayOfMonth(y, m)).toBe(new Date(Date.UTC(y, m, 0)).getUTCDate());
      }),
    );
  });

  test('month lengths and leap years', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((m) => lastDayOfMonth(2026, m))).toEqual([31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]);
    expect(lastDayOfMonth(2028, 2)).toBe(29);
    expect(lastDayOfMonth(2000, 2)).toBe(29);
    expect(lastDayOfMonth(1900, 2)).toBe(28);
    expect(lastDayOfMonth(2100, 2)).toBe(28);
    for (const [y, m] of [
      [2026, 0],
      [2026, 13],
      [2026, 1.5],
      [-1, 1],
      [10000, 1],
    ] as const)
      expect(() => lastDayOfMonth(y, m)).toThrow(RangeError);
  });

  test('builds and splits dates, padding years below 1000', () => {
    expect(calendarDate(2026, 3, 5)).toBe('2026-03-05');
    expect(calendarDate(99, 1, 1)).toBe('0099-01-01');
    expect(dateParts('2028-02-29')).toEqual({ year: 2028, month: 2, day: 29 });
    expect(() => calendarDate(2026, 2, 29)).toThrow(RangeError);
    expect(() => dateParts('2026-02-29')).toThrow(RangeError);
  });
});

describe('addDays, daysBetween, dayOfWeek', () => {
  test('across month ends, year ends and leap days', () => {
    expect(addDays('2026-01-31', 1)).toBe('2026-02-01');
    expect(addDays('2026-02-28', 1)).toBe('2026-03-01');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2026-01-15', 0)).toBe('2026-01-15');
    expect(addDays('2026-01-01', 365)).toBe('2027-01-01');
    expect(addDays('2028-01-01', 365)).toBe('2028-12-31');
    expect(addDays('0099-12-31', 1)).toBe('0100-01-01');
    expect(daysBetween('2028-02-28', '2028-03-01')).toBe(2);
    expect(daysBetween('2026-02-28', '2026-03-01')).toBe(1);
    expect(daysBetween('2026-03-01', '2026-02-28')).toBe(-1);
    expect(daysBetween('2024-01-01', '2025-01-01')).toBe(366);
    // The day Mexico City last left daylight saving time is 24 hours long here.
    expect(daysBetween('2022-10-30', '2022-10-31')).toBe(1);
  });

  test('days of the week: 0 Sunday … 6 Saturday', () => {
    expect(dayOfWeek('2026-01-01')).toBe(4);
    expect(dayOfWeek('2026-02-01')).toBe(0);
    expect(dayOfWeek('2026-02-07')).toBe(6);
    expect(dayOfWeek('1969-12-31')).toBe(3);
    expect(dayOfWeek('2000-01-01')).toBe(6);
    expect(dayOfWeek('0001-01-01')).toBe(1);
  });

  test('refuse what is not a date or a whole number of days, and years past 9999', () => {
    expect(() => addDays('2026-02-29', 1)).toThrow(RangeError);
    expect(() => addDays('2026-01-01', 0.5)).toThrow(RangeError);
    expect(() => addDays('9999-12-31', 1)).toThrow(RangeError);
    expect(() => addDays('0000-01-01', -1)).toThrow(RangeError);
    expect(() => daysBetween('2026-01-01', 'mañana')).toThrow(RangeError);
    expect(() => dayOfWeek('')).toThrow(RangeError);
  });

  test('agree with Date, and daysBetween with a day-by-day count', () => {
    fc.assert(
      fc.property(anyDate, fc.integer({ min: -1500, max: 1500 }), (date, n) => {
        const later = addDays(date, n);
        const oracle = utc(date);
        oracle.setUTCDate(oracle.getUTCDate() + n);
        expect(later).toBe(iso(oracle));
        expect(daysBetween(date, later)).toBe(n);
        expect(dayOfWeek(later)).toBe(oracle.getUTCDay());
      }),
    );
    fc.assert(
      fc.property(dateBetween('2023-06-01', '2029-06-30'), dateBetween('2023-06-01', '2029-06-30'), (a, b) => {
        expect(daysBetween(a, b)).toBe(a <= b ? countDays(a, b) : -countDays(b, a));
      }),
    );
  });
});
