import * as z from 'zod';
import { acceptsDateParam, acceptsTextParam, dateBoundsInRange, dayOrInstantBounds, isDayOrInstant } from './paramChecks';

/** What the contracts accepted before the check was a plain predicate: zod's own ISO date and instant. */
const zodAccepts = (v: string) => (/^\d{4}-\d{2}-\d{2}$/.test(v) ? z.iso.date() : z.iso.datetime({ offset: true })).safeParse(v).success;

const SAMPLES = [
  '2026-01-01',
  '2028-02-29',
  '2026-02-29',
  '2026-02-30',
  '2026-04-31',
  '2026-13-01',
  '2026-00-10',
  '2026-1-01',
  '2026-01-01T10:00:00Z',
  '2026-01-01T10:00:00.123Z',
  '2026-01-01T10:00:00.123456-06:00',
  '2026-01-01T23:59:59+14:00',
  '2026-01-01T24:00:00Z',
  '2026-01-01T10:60:00Z',
  '2026-01-01T10:00:60Z',
  '2026-01-01T10:00Z',
  '2026-01-01T10:00:00',
  '2026-01-01 10:00:00Z',
  '2026-01-01T10:00:00+0600',
  '2026-02-29T10:00:00Z',
  '2026-01-01T10:00:00.Z',
  'hoy',
  '',
];

test('a day or an instant: exactly what zod.iso.date() and zod.iso.datetime({ offset: true }) accept', () => {
  expect(SAMPLES.map((v) => [v, isDayOrInstant(v)])).toEqual(SAMPLES.map((v) => [v, zodAccepts(v)]));
});

test('a date parameter the API takes: a day or an instant, trimmed, between 2000-01-01 and 2100-12-31', () => {
  expect(acceptsDateParam(' 2026-01-01 ')).toBe(true);
  expect(acceptsDateParam('2000-01-01')).toBe(true);
  expect(acceptsDateParam('1999-12-31')).toBe(false);
  expect(acceptsDateParam('1999-12-31T23:59:59-06:00')).toBe(true);
  expect(acceptsDateParam('2100-12-31')).toBe(true);
  expect(acceptsDateParam('2101-01-01')).toBe(false);
  expect(acceptsDateParam('2026-02-29')).toBe(false);
  expect(acceptsDateParam('')).toBe(false);
  expect(dayOrInstantBounds('2026-03-01')).toEqual({ start: new Date('2026-03-01T00:00:00Z'), end: new Date('2026-03-02T00:00:00Z') });
  expect(dayOrInstantBounds('2026-03-01T10:00:00Z').end.getTime() - dayOrInstantBounds('2026-03-01T10:00:00Z').start.getTime()).toBe(1);
  expect(dateBoundsInRange(dayOrInstantBounds('2100-12-31'))).toBe(true);
});

test('a text parameter the API takes: at most `max` characters once trimmed, one line', () => {
  expect(acceptsTextParam('  3.4.1  ', 5)).toBe(true);
  expect(acceptsTextParam('3.4.10', 5)).toBe(false);
  expect(acceptsTextParam('3.4\n', 5)).toBe(true);
  expect(acceptsTextParam('3.\u00004', 5)).toBe(false);
  expect(acceptsTextParam('3.\u007f4', 5)).toBe(false);
});
