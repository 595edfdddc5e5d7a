/**
 * Calendar dates and wall-clock times in an IANA time zone (the company's setting), through Intl
 * so the browser and Node read the same zone database without a date library.
 */
import { daysBetween } from './calendarDate';

/** The company's time zone unless its settings name another. */
export const DEFAULT_TIME_ZONE = 'America/Mexico_City';

const EPOCH = '1970-01-01';
const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const CLOCK = /^([01]\d|2[0-3]):([0-5]\d)$/;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      calendar: 'gregory',
      numberingSystem: 'latn',
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** Whether Intl knows this time zone ('America/Mexico_City', 'UTC'…). */
export function isTimeZone(name: string): boolean {
  try {
    formatter(name);
    return true;
  } catch {
    return false;
  }
}

/** The date and the wall-clock milliseconds since midnight that `ms` shows in the zone (whole seconds). */
function wallClock(timeZone: string, ms: number): { date: string; time: number } {
  const parts: Record<string, string> = {};
  for (const p of formatter(timeZone).formatToParts(ms)) parts[p.type] = p.value;
  // Some engines still print midnight as hour 24 despite h23.
  const hour = Number(parts.hour) % 24;
  return {
    date: `${parts.year!.padStart(4, '0')}-${parts.month}-${parts.day}`,
    time: ((hour * 60 + Number(parts.minute)) * 60 + Number(parts.second)) * 1000,
  };
}

/** The wall clock as milliseconds since 1970-01-01 00:00 on that clock. */
function wallMs(timeZone: string, ms: number): number {
  const { date, time } = wallClock(timeZone, ms);
  return daysBetween(EPOCH, date) * DAY_MS + time;
}

/** The zone's offset from UTC at an instant (wall clock − UTC), in milliseconds. */
function offsetMs(timeZone: string, ms: number): number {
  return wallMs(timeZone, ms) - Math.floor(ms / 1000) * 1000;
}

/** The calendar date in the zone at an instant: todayIn('America/Mexico_City', new Date()). */
export function todayIn(timeZone: string, instant: Date): string {
  return wallClock(timeZone, instant.getTime()).date;
}

/**
 * The instant at which the zone's wall clock shows `date` at `time` ('HH:MM'). A time the clock
 * skips (a spring-forward gap) gives the first instant after the gap; a time it shows twice (a
 * fall-back overlap) gives the earlier one. Either way: the earliest instant at which the wall
 * clock shows that date and time or later.
 */
export function instantAt(date: string, time: string, timeZone: string): Date {
  const key = `${timeZone}|${date}|${time}`;
  const known = instants.get(key);
  if (known !== undefined) return new Date(known);
  const at = computeInstantAt(date, time, timeZone);
  if (instants.size >= INSTANTS_KEPT) instants.clear();
  instants.set(key, at.getTime());
  return at;
}

/**
 * instantAt's answers, kept: each costs four to six Intl calls, and the collection engine asks for
 * the same few days at the same hours for every credit it plans.
 */
const instants = new Map<string, number>();
const INSTANTS_KEPT = 10_000;

function computeInstantAt(date: string, time: string, timeZone: string): Date {
  const clock = CLOCK.exec(time);
  if (!clock) throw new RangeError(`Not a time HH:MM: ${time}`);
  const local = daysBetween(EPOCH, date) * DAY_MS + (Number(clock[1]) * 60 + Number(clock[2])) * MINUTE_MS;
  // The offsets in force a day either side: equal unless the wall clock changes near that time.
  const offsets = [offsetMs(timeZone, local - DAY_MS), offsetMs(timeZone, local + DAY_MS)];
  const exact = offsets.map((o) => local - o).filter((ms) => wallMs(timeZone, ms) === local);
  if (exact.length > 0) return new Date(Math.min(...exact));
  // A gap: the wall clock is before `local` at `lo` and past it at `hi`; find the jump to the second.
  let lo = local - Math.max(...offsets);
  let hi = local - Math.min(...offsets);
  while (hi - lo > 1000) {
    const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
    if (wallMs(timeZone, mid) >= local) hi = mid;
    else lo = mid;
  }
  return new Date(hi);
}
