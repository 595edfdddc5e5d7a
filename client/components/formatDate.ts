/**
 * The portal's one es-MX date formatter: every page shows dates through these functions, so a
 * date reads the same everywhere ('5 mar 2026, 14:05').
 */

const LOCALE = 'es-MX';
const dateTime = new Intl.DateTimeFormat(LOCALE, { dateStyle: 'medium', timeStyle: 'short' });
const dateTimeSeconds = new Intl.DateTimeFormat(LOCALE, { dateStyle: 'medium', timeStyle: 'medium' });
const dateOnly = new Intl.DateTimeFormat(LOCALE, { dateStyle: 'medium' });

/** The date and time, e.g. '5 mar 2026, 14:05'; with `seconds`, '5 mar 2026, 14:05:09' (the audit log). */
export function formatDateTime(at: string | Date, { seconds = false }: { seconds?: boolean } = {}): string {
  return (seconds ? dateTimeSeconds : dateTime).format(new Date(at));
}

/** The date alone, e.g. '5 mar 2026'. */
export function formatDate(at: string | Date): string {
  return dateOnly.format(new Date(at));
}

const calendarDay = new Intl.DateTimeFormat(LOCALE, { dateStyle: 'medium', timeZone: 'UTC' });

/**
 * A calendar date 'YYYY-MM-DD' (a due date, the company's today), e.g. '5 dic 2026': the day as
 * written, read at UTC midnight so no zone west of UTC shows it as the day before.
 */
export function formatCalendarDate(date: string): string {
  return calendarDay.format(new Date(`${date}T00:00:00Z`));
}
