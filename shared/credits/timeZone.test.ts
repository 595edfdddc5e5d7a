import fc from 'fast-check';
import { dateBetween } from '../../tests/helpers/creditArbitraries';
import { addDays } from './calendarDate';
import { DEFAULT_TIME_ZONE, instantAt, isTimeZone, todayIn } from './timeZone';

const ZONES = ['America/Mexico_City', 'America/Chicago', 'America/Santiago', 'Europe/Madrid', 'Asia/Kolkata'] as const;

/** The zone's wall clock at an instant, 'YYYY-MM-DD HH:MM:SS' (Sweden's way of writing it), read by Intl on its own. */
const wall = (timeZone: string, ms: number): string => new Date(ms).toLocaleString('sv-SE', { timeZone, hourCycle: 'h23' });

const at = (date: string, time: string, zone: string) => instantAt(date, time, zone).toISOString();

describe('todayIn', () => {
  test('the date on the zone’s wall clock', () => {
    expect(DEFAULT_TIME_ZONE).toBe('America/Mexico_City');
    // Mexico City is UTC−6 all year since 2022.
    expect(todayIn('America/Mexico_City', new Date('2026-07-15T05:59:59.999Z'))).toBe('2026-07-14');
    expect(todayIn('America/Mexico_City', new Date('2026-07-15T06:00:00Z'))).toBe('2026-07-15');
    // Before, it kept summer time: UTC−5 in July 2021.
    expect(todayIn('America/Mexico_City', new Date('2021-07-15T05:00:00Z'))).toBe('2021-07-15');
    expect(todayIn('America/Mexico_City', new Date('2021-07-15T04:59:59Z'))).toBe('2021-07-14');
    // Kolkata is UTC+5:30.
    expect(todayIn('Asia/Kolkata', new Date('2026-01-14T18:29:59.999Z'))).toBe('2026-01-14');
    expect(todayIn('Asia/Kolkata', new Date('2026-01-14T18:30:00Z'))).toBe('2026-01-15');
    expect(todayIn('UTC', new Date('2028-02-29T23:59:59Z'))).toBe('2028-02-29');
  });

  test('refuses an unknown zone or an invalid instant', () => {
    expect(() => todayIn('Mars/Olympus_Mons', new Date())).toThrow(RangeError);
    expect(() => todayIn('UTC', new Date(NaN))).toThrow(RangeError);
  });

  test('isTimeZone', () => {
    for (const zone of [...ZONES, 'UTC', 'America/Monterrey', 'America/Bogota']) expect(isTimeZone(zone)).toBe(true);
    for (const zone of ['Mars/Olympus_Mons', '', 'America/Ciudad_de_Mexico']) expect(isTimeZone(zone)).toBe(false);
  });
});

describe('instantAt', () => {
  test('ordinary times, including a zone half an hour off whole hours', () => {
    expect(at('2026-04-05', '02:30', 'America/Mexico_City')).toBe('2026-04-05T08:30:00.000Z'); // no DST any more
    expect(at('2026-01-15', '09:00', 'Asia/Kolkata')).toBe('2026-01-15T03:30:00.000Z');
    expect(at('2026-01-15', '00:00', 'Asia/Kolkata')).toBe('2026-01-14T18:30:00.000Z');
    expect(at('2026-07-01', '23:59', 'Europe/Madrid')).toBe('2026-07-01T21:59:00.000Z');
    expect(at('2026-01-01', '00:00', 'UTC')).toBe('2026-01-01T00:00:00.000Z');
  });

  test('a time inside a spring-forward gap gives the first instant after the gap', () => {
    // Chicago, 8 March 2026: 02:00 CST → 03:00 CDT (08:00Z).
    expect(at('2026-03-08', '02:30', 'America/Chicago')).toBe('2026-03-08T08:00:00.000Z');
    expect(at('2026-03-08', '02:00', 'America/Chicago')).toBe('2026-03-08T08:00:00.000Z');
    expect(at('2026-03-08', '03:00', 'America/Chicago')).toBe('2026-03-08T08:00:00.000Z');
    expect(at('2026-03-08', '01:59', 'America/Chicago')).toBe('2026-03-08T07:59:00.000Z');
    // Madrid, 29 March 2026: 02:00 CET → 03:00 CEST (01:00Z).
    expect(at('2026-03-29', '02:30', 'Europe/Madrid')).toBe('2026-03-29T01:00:00.000Z');
    // Santiago skips midnight: 6 September 2026 begins at 01:00 −03 (04:00Z).
    expect(at('2026-09-06', '00:00', 'America/Santiago')).toBe('2026-09-06T04:00:00.000Z');
    expect(at('2026-09-06', '00:30', 'America/Santiago')).toBe('2026-09-06T04:00:00.000Z');
    // Mexico City's last spring forward, 3 April 2022: 02:00 CST → 03:00 CDT.
    expect(at('2022-04-03', '02:30', 'America/Mexico_City')).toBe('2022-04-03T08:00:00.000Z');
  });

  test('a time shown twice (a fall-back overlap) gives the earlier instant', () => {
    // Chicago, 1 November 2026: 01:30 CDT (06:30Z) and 01:30 CST (07:30Z).
    expect(at('2026-11-01', '01:30', 'America/Chicago')).toBe('2026-11-01T06:30:00.000Z');
    expect(at('2026-11-01', '02:00', 'America/Chicago')).toBe('2026-11-01T08:00:00.000Z');
    // Madrid, 25 October 2026: 02:30 CEST (00:30Z) and 02:30 CET (01:30Z).
    expect(at('2026-10-25', '02:30', 'Europe/Madrid')).toBe('2026-10-25T00:30:00.000Z');
    // Santiago, 4 April 2026: at midnight the clock goes back to 23:00, so 23:30 is shown twice.
    expect(at('2026-04-04', '23:30', 'America/Santiago')).toBe('2026-04-05T02:30:00.000Z');
    // Mexico City, 30 October 2022: 01:30 CDT (06:30Z) and 01:30 CST (07:30Z).
    expect(at('2022-10-30', '01:30', 'America/Mexico_City')).toBe('2022-10-30T06:30:00.000Z');
  });

  test('a whole day skipped, and a change of half an hour', () => {
    // Samoa skipped 30 December 2011: its times give the first instant of the 31st.
    expect(at('2011-12-30', '12:00', 'Pacific/Apia')).toBe('2011-12-30T10:00:00.000Z');
    // Lord Howe Island moves its clock by 30 minutes: 02:00 → 02:30 on 4 October 2026.
    expect(at('2026-10-04', '02:15', 'Australia/Lord_Howe')).toBe('2026-10-03T15:30:00.000Z');
  });

  test('refuses a time that is not HH:MM, a date that does not exist, an unknown zone', () => {
    for (const time of ['24:00', '7:30', '07:60', '07:30:00', '']) expect(() => instantAt('2026-01-01', time, 'UTC')).toThrow(RangeError);
    expect(() => instantAt('2026-02-29', '10:00', 'UTC')).toThrow(RangeError);
    expect(() => instantAt('2026-01-01', '10:00', 'Mars/Olympus_Mons')).toThrow(RangeError);
  });
});

describe('properties over the test zones', () => {
  /** Days on which one of the zones changed its clocks, where the gaps and overlaps are. */
  const CHANGE_DAYS = [
    '2021-04-04',
    '2021-10-31',
    '2022-04-03',
    '2022-10-30',
    '2025-03-09',
    '2025-11-02',
    '2026-03-08',
    '2026-11-01',
    '2026-03-29',
    '2026-10-25',
    '2026-04-04',
    '2026-09-06',
  ];
  const zone = fc.constantFrom(...ZONES);
  const date = fc.oneof(dateBetween('1970-01-01', '2040-12-31'), fc.constantFrom(...CHANGE_DAYS));
  const pad = (n: number) => String(n).padStart(2, '0');
  const time = fc
    .oneof(fc.integer({ min: 0, max: 1439 }), fc.integer({ min: 0, max: 239 }), fc.integer({ min: 1380, max: 1439 }))
    .map((m) => `${pad(Math.floor(m / 60))}:${pad(m % 60)}`);

  test('instantAt is the earliest instant whose wall clock shows that date and time or later; outside gaps todayIn gives the date back', () => {
    fc.assert(
      fc.property(zone, date, time, (z, d, t) => {
        const ms = instantAt(d, t, z).getTime();
        const target = `${d} ${t}:00`;
        expect(wall(z, ms) >= target).toBe(true);
        // Every earlier instant shows an earlier time (clocks move by at most a few hours).
        for (const seconds of [1, 60, 1800, 3600, 5400, 7200, 10800]) expect(wall(z, ms - seconds * 1000) < target).toBe(true);
        if (wall(z, ms) === target) expect(todayIn(z, new Date(ms))).toBe(d);
      }),
      { numRuns: 300 },
    );
  });

  test('todayIn gives the date whose first instant is at or before the instant, and the next date’s after it', () => {
    const instant = fc.date({ min: new Date('1970-01-02T00:00:00Z'), max: new Date('2040-12-31T00:00:00Z'), noInvalidDate: true });
    fc.assert(
      fc.property(zone, instant, (z, i) => {
        const d = todayIn(z, i);
        expect(instantAt(d, '00:00', z).getTime()).toBeLessThanOrEqual(i.getTime());
        expect(instantAt(addDays(d, 1), '00:00', z).getTime()).toBeGreaterThan(i.getTime());
      }),
    );
  });
});
