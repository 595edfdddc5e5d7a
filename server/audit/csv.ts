import Papa from 'papaparse';
import { CSV_MESSAGES } from '../../shared/areaMessages/csv';

/** A value of one CSV cell. */
export type CsvValue = string | number | boolean | null | undefined;

/**
 * CSV lines (RFC 4180, each CRLF-terminated): the one CSV writer of every download (audit log,
 * device export and template, job results). papaparse's `unparse` quotes a cell holding a comma,
 * quote, line break or edge space (quotes doubled), and its formula guard (`escapeFormulae`)
 * neutralises a text cell a spreadsheet would run (leading = + - @ tab or CR) with a leading
 * apostrophe, quoted.
 */
export function csvLines(rows: readonly (readonly CsvValue[])[]): string {
  if (rows.length === 0) return '';
  return `${Papa.unparse(
    rows.map((r) => [...r]),
    { newline: '\r\n', escapeFormulae: true },
  )}\r\n`;
}

/** One line, CRLF-terminated. */
export const csvRow = (values: readonly CsvValue[]): string => csvLines([values]);

/** Written first so spreadsheet programs read the file as UTF-8. */
export const UTF8_BOM = '\uFEFF';

/**
 * The zone the date-time columns of a download are written in: the browser's (`tz`, an IANA
 * zone already validated by the route) or UTC. Values stay ISO 8601 with milliseconds, with the
 * zone's offset at that instant ('2026-11-23T14:05:00.000-06:00'; 'Z' when it is zero), and the
 * header of those columns names the zone ('ultima_conexion (America/Mexico_City)').
 */
export interface CsvZone {
  /** The zone's name, as the header shows it. */
  readonly name: string;
  /** The header row: the date-time columns named with the zone. */
  header(columns: readonly string[], dateTimeColumns: readonly string[]): string[];
  /** An instant (ISO text or Date) in the zone; null and undefined stay empty. */
  instant(value: string | Date | null | undefined): string | null;
}

const pad = (n: number, width = 2) => String(Math.abs(n)).padStart(width, '0');

/** The CsvZone of a download: `tz` when the browser sent one, else UTC (the dates as the database gives them). */
export function csvZone(tz?: string): CsvZone {
  const name = tz ?? CSV_MESSAGES.defaultZone;
  const parts =
    tz === undefined
      ? undefined
      : new Intl.DateTimeFormat('en-US', {
          timeZone: tz,
          hourCycle: 'h23',
          year: 'numeric',
          month: '2-digit',
          day: '2-digit',
          hour: '2-digit',
          minute: '2-digit',
          second: '2-digit',
        });
  return {
    name,
    header: (columns, dateTimeColumns) => columns.map((c) => (dateTimeColumns.includes(c) ? CSV_MESSAGES.zonedColumn(c, name) : c)),
    instant(value) {
      if (value === null || value === undefined) return null;
      const at = new Date(value);
      if (Number.isNaN(at.getTime())) return String(value);
      if (!parts) return at.toISOString();
      const p = Object.fromEntries(parts.formatToParts(at).map((x) => [x.type, x.value])) as Record<Intl.DateTimeFormatPartTypes, string>;
      const ms = at.getTime() - Math.floor(at.getTime() / 1000) * 1000;
      // The wall-clock time read as if it were UTC, minus the instant: the zone's offset then.
      const wall = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
      const offset = Math.round((wall - (at.getTime() - ms)) / 60_000);
      const zone = offset === 0 ? 'Z' : `${offset < 0 ? '-' : '+'}${pad(Math.trunc(offset / 60))}:${pad(offset % 60)}`;
      return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}.${pad(ms, 3)}${zone}`;
    },
  };
}
