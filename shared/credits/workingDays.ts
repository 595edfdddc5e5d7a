/**
 * Working days: Mexico's statutory rest days and a company calendar (its weekly days off and its
 * holidays), so that due dates can avoid days nobody can pay at a branch.
 */
import { addDays, calendarDate, dayOfWeek, isCalendarDate } from './calendarDate';

export interface WorkingCalendar {
  /** Days of the week nobody works, 0 Sunday … 6 Saturday: [0] closes on Sundays. */
  nonWorkingWeekdays: readonly number[];
  /** Dates 'YYYY-MM-DD' closed whatever their weekday. */
  holidays: readonly string[];
}

const MONDAY = 1;
/** The year of the 2006 reform that moved three rest days to Mondays; earlier years followed other rules. */
const FIRST_HOLIDAY_YEAR = 2006;

/** The `n`-th `weekday` (0 Sunday … 6 Saturday) of a month: nthWeekday(2026, 3, 1, 3) → third Monday of March. */
function nthWeekday(year: number, month: number, weekday: number, n: number): string {
  const first = calendarDate(year, month, 1);
  return addDays(first, ((weekday - dayOfWeek(first) + 7) % 7) + 7 * (n - 1));
}

/**
 * The rest days of the Ley Federal del Trabajo, art. 74, in date order: 1 January; the first
 * Monday of February; the third Monday of March; 1 May; 16 September; the third Monday of
 * November; 25 December; and the day the federal executive changes hands, every six years: 1
 * October from 2024 (2024, 2030…), 1 December before (2018, 2012…). Election days (fraction IX)
 * are set by the electoral laws each time and are not listed. Years from 2006.
 */
export function mexicanHolidays(year: number): string[] {
  if (!Number.isInteger(year) || year < FIRST_HOLIDAY_YEAR || year > 9999) throw new RangeError(`No holiday rules for ${year}`);
  const date = (month: number, day: number) => calendarDate(year, month, day);
  const transmission = (year - 2024) % 6 === 0 ? [year >= 2024 ? date(10, 1) : date(12, 1)] : [];
  const days = [
    date(1, 1),
    nthWeekday(year, 2, MONDAY, 1),
    nthWeekday(year, 3, MONDAY, 3),
    date(5, 1),
    date(9, 16),
    nthWeekday(year, 11, MONDAY, 3),
    date(12, 25),
    ...transmission,
  ];
  return days.sort();
}

/** Calendars already checked (by identity): a plan asks about one calendar for every installment. */
const checked = new WeakSet<WorkingCalendar>();

function checkCalendar(calendar: WorkingCalendar): void {
  if (checked.has(calendar)) return;
  const weekdays = new Set(calendar.nonWorkingWeekdays);
  if ([...weekdays].some((d) => !Number.isInteger(d) || d < 0 || d > 6)) throw new RangeError('Weekdays are 0 (Sunday) to 6 (Saturday)');
  if (weekdays.size === 7) throw new RangeError('A calendar needs at least one working weekday');
  const bad = calendar.holidays.find((h) => !isCalendarDate(h));
  if (bad !== undefined) throw new RangeError(`Not a calendar date: ${bad}`);
  checked.add(calendar);
}

const isOpen = (date: string, calendar: WorkingCalendar) =>
  !calendar.nonWorkingWeekdays.includes(dayOfWeek(date)) && !calendar.holidays.includes(date);

/** Whether the date is neither a weekly day off nor a holiday of the calendar. */
export function isWorkingDay(date: string, calendar: WorkingCalendar): boolean {
  checkCalendar(calendar);
  return isOpen(date, calendar);
}

/** The date itself when it is a working day, else the first working day after it. */
export function nextWorkingDay(date: string, calendar: WorkingCalendar): string {
  checkCalendar(calendar);
  // Every 7 days hold a working weekday, closed only if it is a holiday: so at most
  // 7 × (holidays + 1) days in a row are closed, and the loop stops by then.
  const limit = 7 * (calendar.holidays.length + 1);
  let day = date;
  for (let i = 0; i < limit; i++, day = addDays(day, 1)) {
    if (isOpen(day, calendar)) return day;
  }
  throw new RangeError(`No working day within ${limit} days of ${date}`);
}
