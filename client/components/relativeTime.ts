/** Relative dates in es-MX ('hace 5 minutos'); the absolute ones are in components/formatDate. */

const UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400],
  ['month', 30 * 86_400],
  ['week', 7 * 86_400],
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
];

const relative = new Intl.RelativeTimeFormat('es-MX', { numeric: 'auto' });

/**
 * How long ago (or how far ahead) `at` is from `now`, in the largest whole unit: 'hace 3 horas',
 * 'ayer', 'dentro de 2 días'; less than a minute is 'ahora'.
 */
export function relativeTime(at: string | Date, now: number | Date): string {
  const seconds = (new Date(at).getTime() - new Date(now).getTime()) / 1000;
  const abs = Math.abs(seconds);
  for (const [unit, size] of UNITS) {
    if (abs >= size) return relative.format(Math.trunc(seconds / size), unit);
  }
  return relative.format(0, 'second');
}
