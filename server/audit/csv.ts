/** A value of one CSV cell. */
export type CsvValue = string | number | boolean | null | undefined;

/** Cells a spreadsheet would run as a formula: neutralised with a leading apostrophe. */
const FORMULA = /^[=+\-@\t\r]/;

/** One cell (RFC 4180): quoted when it holds a comma, quote or line break; quotes doubled. */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'string') return String(value);
  const text = FORMULA.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One line, CRLF-terminated. */
export function csvRow(values: readonly CsvValue[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}

/** Written first so spreadsheet programs read the file as UTF-8. */
export const UTF8_BOM = '\uFEFF';
