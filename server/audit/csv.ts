import Papa from 'papaparse';

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
