/**
 * The one CSV reader of every import (devices, credit schedules, payments): the file's bytes
 * decoded as UTF-8 or Windows-1252, then parsed with papaparse into rows of named columns.
 * Nothing in a file is ever executed or spliced into SQL.
 */
import iconv from 'iconv-lite';
import Papa from 'papaparse';
import type { ImportEncoding } from '../../shared/contracts/deviceImport';
import { INVENTORY_MESSAGES } from '../../shared/areaMessages/inventory';
import { AppError } from '../errors';
import { UTF8_BOM } from './csv';
import { IMPORT_MAX_BYTES } from '../../shared/constants/limits';

const M = INVENTORY_MESSAGES.csv;

/** Content types an import may arrive with (browsers label .csv files differently). */
export const CSV_CONTENT_TYPES = ['text/csv', 'text/plain', 'application/csv', 'application/vnd.ms-excel'];

/** The import size limit in MB, for the message. */
export const IMPORT_MAX_MB = Math.round(IMPORT_MAX_BYTES / (1024 * 1024));

/** One data row of a file: its 1-based line (the header is line 1) and its cells by column. */
export interface CsvTableRecord<C extends string> {
  line: number;
  cells: Partial<Record<C, string>>;
}

/** A parsed file: its data rows and the header names that are not read. */
export interface CsvTable<C extends string> {
  records: CsvTableRecord<C>[];
  /** Header names (as written) that are not columns of the import, or repeat one, in header order. */
  ignoredColumns: string[];
}

/** What an import reads: its columns (header names, lower case), the ones the header must have, the most data rows. */
export interface CsvTableSpec<C extends string> {
  columns: readonly C[];
  required: readonly C[];
  maxRows: number;
}

const DELIMITERS = [',', ';', '\t'] as const;

/** The delimiter of the header line: the candidate that occurs most often in it (',' by default). */
function headerDelimiter(text: string): string {
  const firstLine = text.slice(0, text.indexOf('\n') === -1 ? text.length : text.indexOf('\n'));
  let best: string = ',';
  let bestCount = 0;
  for (const d of DELIMITERS) {
    const count = firstLine.split(d).length - 1;
    if (count > bestCount) {
      best = d;
      bestCount = count;
    }
  }
  return best;
}

const countNewlines = (s: string, from: number, to: number): number => {
  let n = 0;
  for (let i = from; i < to; i++) if (s.charCodeAt(i) === 10) n++;
  return n;
};

const utf8 = new TextDecoder('utf-8', { fatal: true });
/** Windows-1252 by iconv-lite: bytes it leaves undefined (0x81, 0x8D, 0x8F, 0x90, 0x9D) become U+FFFD, which is refused. */
const decodeWindows1252 = (bytes: Uint8Array): string => iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), 'windows1252');

/**
 * Characters no CSV text holds: NUL (UTF-16 without BOM, binary files), C1 controls and
 * U+FFFD (a byte Windows-1252 leaves undefined, or a file already damaged by a wrong
 * conversion). A file with any of them is refused rather than stored with them.
 */
// eslint-disable-next-line no-control-regex
const NOT_TEXT = /[\u0000\u0080-\u009f\ufffd]/;

const encodingError = (message: string) => new AppError(415, 'CSV_ENCODING', message);

/**
 * The text of an import file from its bytes: UTF-8 (BOM optional) when the bytes are valid
 * UTF-8, otherwise Windows-1252 (what Excel writes for «CSV (delimitado por comas)»). UTF-16
 * and bytes that are neither are refused (415); a replacement character is never produced.
 */
export function decodeImportCsv(bytes: Uint8Array): { text: string; encoding: ImportEncoding } {
  if (bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) {
    throw encodingError(M.utf16);
  }
  let text: string;
  let encoding: ImportEncoding;
  try {
    // The decoder drops a leading BOM.
    text = utf8.decode(bytes);
    encoding = 'UTF-8';
  } catch {
    if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) throw encodingError(M.badEncoding);
    text = decodeWindows1252(bytes);
    encoding = 'Windows-1252';
  }
  if (NOT_TEXT.test(text)) throw encodingError(M.badEncoding);
  return { text, encoding };
}

/** Reads an import file from its bytes: decodeImportCsv, then parseCsvTable. */
export function readCsvTable<C extends string>(bytes: Uint8Array, spec: CsvTableSpec<C>): CsvTable<C> & { encoding: ImportEncoding } {
  const { text, encoding } = decodeImportCsv(bytes);
  return { ...parseCsvTable(text, spec), encoding };
}

/**
 * Reads an import file: BOM stripped, line breaks normalised, delimiter taken from the header
 * line (',', ';' or tab), quotes honoured (a quoted cell may hold the delimiter or a line break),
 * empty lines skipped, header names trimmed and lower-cased, cells trimmed. Refuses a file
 * without data rows, with more than `spec.maxRows` of them, or without the required columns.
 */
export function parseCsvTable<C extends string>(input: string, spec: CsvTableSpec<C>): CsvTable<C> {
  const known = spec.columns as readonly string[];
  const text = (input.startsWith(UTF8_BOM) ? input.slice(1) : input).replace(/\r\n?/g, '\n');
  const delimiter = headerDelimiter(text);
  let header: string[] | undefined;
  const ignoredColumns: string[] = [];
  const records: CsvTableRecord<C>[] = [];
  let tooMany = false;
  let unclosedQuoteLine: number | undefined;
  // Line numbers: newlines before the end of each row, minus the ones inside its quoted cells.
  let scanned = 0;
  let linesBefore = 0;
  Papa.parse<string[]>(text, {
    delimiter,
    newline: '\n',
    quoteChar: '"',
    skipEmptyLines: 'greedy',
    step(result, parser) {
      if (result.errors.some((e) => e.code === 'MissingQuotes')) {
        // The cell never closes: it swallowed every later line. The row starts after the empty lines.
        let start = scanned;
        while (start < text.length && text.charCodeAt(start) === 10) start++;
        unclosedQuoteLine = linesBefore + countNewlines(text, scanned, start) + 1;
        parser.abort();
        return;
      }
      const values = result.data;
      let end = result.meta.cursor;
      if (end > 0 && text.charCodeAt(end - 1) === 10) end -= 1;
      linesBefore += countNewlines(text, scanned, end);
      scanned = end;
      const inside = values.reduce((n, v) => n + countNewlines(v, 0, v.length), 0);
      const line = linesBefore + 1 - inside;
      if (!header) {
        header = values.map((h) => h.trim().toLowerCase());
        header.forEach((name, i) => {
          const read = known.includes(name) && header!.indexOf(name) === i;
          if (!read && name !== '') ignoredColumns.push(values[i]!.trim());
        });
        return;
      }
      if (records.length >= spec.maxRows) {
        tooMany = true;
        parser.abort();
        return;
      }
      const cells: CsvTableRecord<C>['cells'] = {};
      header.forEach((name, i) => {
        if (known.includes(name) && cells[name as C] === undefined) cells[name as C] = (values[i] ?? '').trim();
      });
      records.push({ line, cells });
    },
  });
  if (unclosedQuoteLine !== undefined) throw new AppError(400, 'CSV_UNCLOSED_QUOTE', M.unclosedQuote(unclosedQuoteLine));
  if (tooMany) throw new AppError(400, 'CSV_TOO_MANY_ROWS', M.tooManyRows(spec.maxRows));
  const missing = spec.required.filter((c) => !header?.includes(c));
  if (header && missing.length) throw new AppError(400, 'CSV_MISSING_COLUMNS', M.missingColumns(missing));
  if (records.length === 0) throw new AppError(400, 'CSV_EMPTY', M.empty);
  return { records, ignoredColumns };
}
