/**
 * Calendar dates as 'YYYY-MM-DD' strings (years 0000–9999): a due date is a day, with no time
 * and no zone. The arithmetic counts UTC midnights, where every day lasts exactly 24 hours, so a
 * daylight-saving change can never make a day longer or shorter. Such strings sort as dates.
 */

const DAY_MS = 86_400_000;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export interface DateParts {
  year: number;
  /** 1 (January) … 12 (December). */
  month: number;
  day: number;
}

const isLeapYear = (year: number) => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);

const isYear = (year: number) => Number.isInteger(year) && year >= 0 && year <= 9999;

/** The number of days of a month, which is also its last day: lastDayOfMonth(2028, 2) → 29. */
export function lastDayOfMonth(year: number, month: number): number {
  if (!isYear(year) || !Number.isInteger(month) || month < 1 || month > 12) throw new RangeError(`No such month: ${year}-${month}`);
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function partsOf(value: unknown): DateParts | null {
  const match = typeof value === 'string' ? DATE.exec(value) : null;
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return month >= 1 && month <= 12 && day >= 1 && day <= lastDayOfMonth(year, month) ? { year, month, day } : null;
}

/** Whether a value is a real date written 'YYYY-MM-DD': '2028-02-29' is, '2026-02-29' is not. */
export function isCalendarDate(value: unknown): value is string {
  return partsOf(value) !== null;
}

/** The year, month and day of a date; a RangeError when it is not one. */
export function dateParts(date: string): DateParts {
  const parts = partsOf(date);
  if (!parts) throw new RangeError(`Not a calendar date: ${date}`);
  return parts;
}

/** The date of a year, month (1–12) and day; a RangeError when there is no such day. */
export function calendarDate(year: number, month: number, day: number): string {
  const date = `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
  dateParts(date);
  return date;
}

// Days since 1970-01-01. setUTCFullYear, unlike Date.UTC, does not read years 0–99 as 1900–1999.
function dayNumber(date: string): number {
  const { year, month, day } = dateParts(date);
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  return d.getTime() / DAY_MS;
}

function fromDayNumber(days: number): string {
  const d = new Date(days * DAY_MS);
  return calendarDate(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate());
}

/** The date `days` days later (earlier when negative). */
export function addDays(date: string, days: number): string {
  if (!Number.isSafeInteger(days)) throw new RangeError(`Not a whole number of days: ${days}`);
  return fromDayNumber(dayNumber(date) + days);
}

/** Whole days from `a` to `b` (b − a): daysBetween('2028-02-28', '2028-03-01') → 2. */
export function daysBetween(a: string, b: string): number {
  return dayNumber(b) - dayNumber(a);
}

/** 0 Sunday … 6 Saturday. */
export function dayOfWeek(date: string): number {
  // 1970-01-01 was a Thursday (4).
  return (((dayNumber(date) + 4) % 7) + 7) % 7;
}
