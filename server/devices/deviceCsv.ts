/**
 * The CSV side of the registry, pure (no database): reading an import file into rows,
 * validating each row with the shared `deviceBody` schema, and writing CSV (export, template).
 * Parsed and written with papaparse; nothing in a file is ever executed or spliced into SQL.
 */
import iconv from 'iconv-lite';
import Papa from 'papaparse';
import { DEVICE_TYPES, deviceStatusLabel, deviceTypeLabel, lockTypeLabel } from '../../shared/constants/domain';
import { FIELD_LABELS, type DeviceFieldKey } from '../../shared/constants/fieldLabels';
import {
  EXPORT_COLUMNS,
  EXPORT_DATE_TIME_COLUMNS,
  IMPORT_COLUMNS,
  IMPORT_MAX_BYTES,
  IMPORT_MAX_ROWS,
  IMPORT_REQUIRED_COLUMNS,
  type ImportEncoding,
  type ImportRowError,
} from '../../shared/contracts/deviceImport';
import { deviceBody, luhnCheckDigit, type Device, type DeviceBody } from '../../shared/contracts/devices';
import { MESSAGES } from '../../shared/messages';
import { INVENTORY_MESSAGES } from '../../shared/areaMessages';
import { AppError } from '../errors';
import { UTF8_BOM, csvLines, csvZone, type CsvValue, type CsvZone } from '../audit/csv';

const M = INVENTORY_MESSAGES.csv;

/** Content types an import may arrive with (browsers label .csv files differently). */
export const CSV_CONTENT_TYPES = ['text/csv', 'text/plain', 'application/csv', 'application/vnd.ms-excel'];

/** The import size limit in MB, for the message. */
export const IMPORT_MAX_MB = Math.round(IMPORT_MAX_BYTES / (1024 * 1024));

export type ImportColumn = (typeof IMPORT_COLUMNS)[number];

/** One data row of the file: its 1-based line (the header is line 1) and its cells by column. */
export interface CsvRecord {
  line: number;
  cells: Partial<Record<ImportColumn, string>>;
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

/** A parsed import file: its data rows and the header names that are not read. */
export interface ImportTable {
  records: CsvRecord[];
  /** Header names (as written) that are not import columns, or repeat one, in header order. */
  ignoredColumns: string[];
}

/** Reads an import file from its bytes: decoding, then parseImportTable. */
export function readImportCsv(bytes: Uint8Array): ImportTable & { encoding: ImportEncoding } {
  const { text, encoding } = decodeImportCsv(bytes);
  return { ...parseImportTable(text), encoding };
}

/** The data rows of an import file's text (see parseImportTable). */
export const parseImportCsv = (input: string): CsvRecord[] => parseImportTable(input).records;

/**
 * Reads an import file: BOM stripped, line breaks normalised, delimiter taken from the header
 * line (',', ';' or tab), quotes honoured (a quoted cell may hold the delimiter or a line break),
 * empty lines skipped, header names trimmed and lower-cased, cells trimmed. Refuses a file
 * without data rows, with more than IMPORT_MAX_ROWS of them, or without the required columns.
 */
export function parseImportTable(input: string): ImportTable {
  const text = (input.startsWith(UTF8_BOM) ? input.slice(1) : input).replace(/\r\n?/g, '\n');
  const delimiter = headerDelimiter(text);
  let header: string[] | undefined;
  const ignoredColumns: string[] = [];
  const records: CsvRecord[] = [];
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
          const known = (IMPORT_COLUMNS as readonly string[]).includes(name) && header!.indexOf(name) === i;
          if (!known && name !== '') ignoredColumns.push(values[i]!.trim());
        });
        return;
      }
      if (records.length >= IMPORT_MAX_ROWS) {
        tooMany = true;
        parser.abort();
        return;
      }
      const cells: CsvRecord['cells'] = {};
      header.forEach((name, i) => {
        if ((IMPORT_COLUMNS as readonly string[]).includes(name) && cells[name as ImportColumn] === undefined) {
          cells[name as ImportColumn] = (values[i] ?? '').trim();
        }
      });
      records.push({ line, cells });
    },
  });
  if (unclosedQuoteLine !== undefined) throw new AppError(400, 'CSV_UNCLOSED_QUOTE', M.unclosedQuote(unclosedQuoteLine));
  if (tooMany) throw new AppError(400, 'CSV_TOO_MANY_ROWS', M.tooManyRows(IMPORT_MAX_ROWS));
  const missing = IMPORT_REQUIRED_COLUMNS.filter((c) => !header?.includes(c));
  if (header && missing.length) throw new AppError(400, 'CSV_MISSING_COLUMNS', M.missingColumns(missing));
  if (records.length === 0) throw new AppError(400, 'CSV_EMPTY', M.empty);
  return { records, ignoredColumns };
}

/** The body field each column fills (the group is looked up by name instead). */
const FIELD_OF: Record<Exclude<ImportColumn, 'grupo'>, keyof DeviceBody> = {
  imei: 'imei',
  imei2: 'imei2',
  serie: 'serial',
  tipo: 'deviceType',
  marca: 'brand',
  modelo: 'model',
  cliente: 'customerName',
  referencia_credito: 'creditReference',
};
const COLUMN_OF = Object.fromEntries(Object.entries(FIELD_OF).map(([col, field]) => [field, col])) as Record<string, ImportColumn>;

/** 'tipo' as people write it: the code, or the label with or without the accent. */
export function deviceTypeOf(value: string): number | string {
  const v = value
    .trim()
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '');
  if (v === '1') return 1;
  if (v === '2') return 2;
  for (const t of DEVICE_TYPES) {
    if (
      v ===
      t.label
        .toLowerCase()
        .normalize('NFD')
        .replace(/[\u0300-\u036f]/g, '')
    )
      return t.code;
  }
  return value;
}

/** A row after validation: the body to register, or its errors. */
export interface ValidatedRow {
  line: number;
  /** The IMEI as written in the file. */
  imei: string;
  body?: DeviceBody;
  errors: { field: string; message: string }[];
}

/**
 * Validates every row with the shared schema, collecting all the errors of a row under the
 * CSV column names; `groups` maps lower-cased group names to ids. A later row repeating an
 * IMEI of an earlier valid-IMEI row is refused (duplicateInFile with the first line).
 */
export function validateImportRows(records: readonly CsvRecord[], groups: ReadonlyMap<string, number>): ValidatedRow[] {
  const firstLineOf = new Map<string, number>();
  return records.map((rec) => {
    const c = rec.cells;
    const errors: ValidatedRow['errors'] = [];
    let groupId: number | null = null;
    const groupName = c.grupo ?? '';
    if (groupName !== '') {
      const id = groups.get(groupName.toLowerCase());
      if (id === undefined) errors.push({ field: 'grupo', message: M.groupUnknown(groupName) });
      else groupId = id;
    }
    const input = {
      imei: c.imei ?? '',
      imei2: c.imei2 ?? '',
      serial: c.serie ?? '',
      deviceType: deviceTypeOf(c.tipo ?? ''),
      brand: c.marca ?? '',
      model: c.modelo ?? '',
      groupId,
      customerName: c.cliente ?? '',
      creditReference: c.referencia_credito ?? '',
    };
    const parsed = deviceBody.safeParse(input);
    const imeiErrors = new Set<string>();
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0] ?? '');
        const column = COLUMN_OF[field] ?? field;
        const empty = (column === 'imei' || column === 'tipo') && (c[column] ?? '') === '';
        // The schema's message names the field by its label (FIELD_LABELS), as the form does; `field` is the column.
        const message = empty ? MESSAGES.required(FIELD_LABELS.devices[field as DeviceFieldKey]) : issue.message;
        if (errors.some((e) => e.field === column && e.message === message)) continue;
        errors.push({ field: column, message });
        if (column === 'imei') imeiErrors.add(message);
      }
    }
    // Duplicates: judged on the normalised IMEI whenever the IMEI itself is valid.
    const imei = parsed.success ? parsed.data.imei : imeiErrors.size === 0 ? (c.imei ?? '').replace(/[\s-]/g, '') : undefined;
    if (imei !== undefined) {
      const first = firstLineOf.get(imei);
      if (first !== undefined) errors.push({ field: 'imei', message: M.duplicateInFile(first) });
      else firstLineOf.set(imei, rec.line);
    }
    return { line: rec.line, imei: c.imei ?? '', body: errors.length === 0 && parsed.success ? parsed.data : undefined, errors };
  });
}

/** Refuses the valid rows whose IMEI a live device already has. */
export function markTaken(rows: ValidatedRow[], taken: ReadonlySet<string>): void {
  for (const row of rows) {
    if (row.body && taken.has(row.body.imei)) {
      row.errors.push({ field: 'imei', message: M.duplicateInDb });
      row.body = undefined;
    }
  }
}

/** The invalid rows as the answer lists them. */
export const invalidRows = (rows: readonly ValidatedRow[]): ImportRowError[] =>
  rows.filter((r) => !r.body).map((r) => ({ line: r.line, imei: r.imei, errors: r.errors }));

// Writing -----------------------------------------------------------------------------------

/** The first chunk of an export: BOM and the header (the date-time columns name `zone`). */
export const exportHeader = (zone: CsvZone = csvZone()): string => UTF8_BOM + csvLines([zone.header(EXPORT_COLUMNS, EXPORT_DATE_TIME_COLUMNS)]);

/**
 * One device as the export query reads it, in EXPORT_COLUMNS order: id, imei, imei2, serial,
 * device type code, brand, model, derived status code, lock type key, group name, customer,
 * credit reference, last seen, agent version, enrolled, created (dates ISO 8601, UTC).
 */
export type ExportRecord = [
  id: number,
  imei: string,
  imei2: string | null,
  serial: string | null,
  deviceType: number,
  brand: string | null,
  model: string | null,
  status: number,
  lockType: string | null,
  groupName: string | null,
  customerName: string | null,
  creditReference: string | null,
  lastSeenAt: string | null,
  agentVersion: string | null,
  enrolledAt: string | null,
  createdAt: string,
];

/**
 * One export line per device, with the Spanish labels of the type, status and lock type, the dates
 * in `zone`. The export is written by the database with the same bytes (deviceExportSql.ts, held
 * equal by tests/integration/deviceExportCsv.test.ts); this writer serves a zone the database
 * writes otherwise.
 */
export function exportLines(records: readonly ExportRecord[], zone: CsvZone = csvZone()): string {
  return csvLines(
    records.map((r) => {
      const line: CsvValue[] = [...r];
      line[4] = deviceTypeLabel(r[4]);
      line[7] = deviceStatusLabel(r[7]) ?? String(r[7]);
      line[8] = lockTypeLabel(r[8]);
      line[12] = zone.instant(r[12]);
      line[14] = zone.instant(r[14]);
      line[15] = zone.instant(r[15]);
      return line;
    }),
  );
}

/** A device of the API as an export record (the same columns the export query reads). */
export const exportRecordOf = (d: Device): ExportRecord => [
  d.id,
  d.imei,
  d.imei2,
  d.serial,
  d.deviceType,
  d.brand,
  d.model,
  d.status,
  d.lockType,
  d.groupName,
  d.customerName,
  d.creditReference,
  d.lastSeenAt,
  d.agentVersion,
  d.enrolledAt,
  d.createdAt,
];

/** The downloadable template: BOM, the IMPORT_COLUMNS header and one example row. */
export function importTemplate(): string {
  const body = '35693803564380';
  const example: Record<ImportColumn, string> = {
    imei: `${body}${luhnCheckDigit(body)}`,
    imei2: '',
    serie: 'R58W20ABCDE',
    tipo: DEVICE_TYPES[0].label,
    marca: 'Samsung',
    modelo: 'Galaxy A15',
    grupo: '',
    cliente: 'María Fernanda López García',
    referencia_credito: 'CR-2026-000123',
  };
  return UTF8_BOM + csvLines([IMPORT_COLUMNS, IMPORT_COLUMNS.map((c) => example[c])]);
}
