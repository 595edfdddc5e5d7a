import { relativeTime } from './relativeTime';

const NOW = Date.parse('2026-03-10T12:00:00Z');
const ago = (ms: number) => new Date(NOW - ms).toISOString();
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

test('the past in the largest whole unit, in es-MX', () => {
  expect(relativeTime(ago(5 * MIN), NOW)).toBe('hace 5 minutos');
  expect(relativeTime(ago(1 * MIN), NOW)).toBe('hace 1 minuto');
  expect(relativeTime(ago(3 * HOUR + 20 * MIN), NOW)).toBe('hace 3 horas');
  expect(relativeTime(ago(1 * DAY), NOW)).toBe('ayer');
  expect(relativeTime(ago(2 * DAY), NOW)).toBe('anteayer');
  expect(relativeTime(ago(4 * DAY), NOW)).toBe('hace 4 días');
  expect(relativeTime(ago(15 * DAY), NOW)).toBe('hace 2 semanas');
  expect(relativeTime(ago(65 * DAY), NOW)).toBe('hace 2 meses');
  expect(relativeTime(ago(400 * DAY), NOW)).toBe('el año pasado');
});

test('less than a minute is "ahora"; the future reads "dentro de"', () => {
  expect(relativeTime(ago(20_000), NOW)).toBe('ahora');
  expect(relativeTime(new Date(NOW), NOW)).toBe('ahora');
  expect(relativeTime(new Date(NOW + 2 * HOUR).toISOString(), NOW)).toBe('dentro de 2 horas');
  expect(relativeTime(new Date(NOW + 1 * DAY).toISOString(), new Date(NOW))).toBe('mañana');
});
