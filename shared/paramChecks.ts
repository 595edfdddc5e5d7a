import { isCalendarDate } from './credits/calendarDate';

/**
 * What a query parameter of the API accepts, as plain predicates: the contracts' parameters
 * (shared/contracts/fields.ts) check with them, and a list page reads its URL with them without
 * loading zod into its first load (zod's core is some 25 KB gzipped whatever part of it is used).
 */

/** Control characters (NUL included, which PostgreSQL text refuses): never in a one-line value. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point of this pattern
export const CONTROL = /[\u0000-\u001f\u007f]/;

/** A one-line text parameter the API takes: at most `max` characters once trimmed, no control characters. */
export const acceptsTextParam = (v: string, max: number) => {
  const t = v.trim();
  return t.length <= max && !CONTROL.test(t);
};

export const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
export const DAY_MS = 24 * 3600 * 1000;

/**
 * The days a date query parameter may name (UTC, inclusive). Bounded so that every value, and
 * the exclusive upper bound one day later, is an instant both databases store and compare
 * (`9999-12-31` would become year 10000, which PostgreSQL refuses).
 */
export const DATE_PARAM_MIN = '2000-01-01';
export const DATE_PARAM_MAX = '2100-12-31';
export const DATE_PARAM_MIN_MS = Date.parse(`${DATE_PARAM_MIN}T00:00:00Z`);
export const DATE_PARAM_END_MS = Date.parse(`${DATE_PARAM_MAX}T00:00:00Z`) + DAY_MS;

/** An instant as RFC 3339 writes it: a day, a time with seconds (and any fraction), its zone (Z or ±hh:mm). */
const INSTANT = /^(\d{4}-\d{2}-\d{2})T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;

/** A day (`AAAA-MM-DD`, a real calendar day) or an instant (RFC 3339, on a real day), whatever its range. */
export const isDayOrInstant = (v: string) => isCalendarDate(DATE_ONLY.test(v) ? v : INSTANT.exec(v)?.[1]);

/** A date parameter after validation: the instant it starts at and the instant just after it ends. */
export interface DateBounds {
  start: Date;
  end: Date;
}

/** The bounds of a day or an instant (a day spans 24 hours, an instant 1 ms). */
export function dayOrInstantBounds(v: string): DateBounds {
  const start = DATE_ONLY.test(v) ? Date.parse(`${v}T00:00:00Z`) : Date.parse(v);
  return { start: new Date(start), end: new Date(start + (DATE_ONLY.test(v) ? DAY_MS : 1)) };
}

/** Bounds between DATE_PARAM_MIN and DATE_PARAM_MAX. */
export const dateBoundsInRange = (b: DateBounds) => b.start.getTime() >= DATE_PARAM_MIN_MS && b.end.getTime() <= DATE_PARAM_END_MS;

/** A date parameter the API takes (not empty): a day or an instant within the range. */
export const acceptsDateParam = (v: string) => {
  const t = v.trim();
  return t !== '' && isDayOrInstant(t) && dateBoundsInRange(dayOrInstantBounds(t));
};
