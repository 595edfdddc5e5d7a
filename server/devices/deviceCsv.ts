/**
 * The CSV side of the registry, pure (no database): reading an import file into rows,
 * validating each row with the shared `deviceBody` schema, and writing CSV (export, template).
 * Read by server/audit/csvRead.ts and written by server/audit/csv.ts; nothing in a file is ever
 * executed or spliced into SQL.
 */
import { DEVICE_TYPES, deviceStatusLabel, deviceTypeLabel, lockTypeLabel } from '../../shared/constants/domain';
import { FIELD_LABELS, type DeviceFieldKey } from '../../shared/constants/fieldLabels';
import {
  EXPORT_COLUMNS,
  EXPORT_DATE_TIME_COLUMNS,
  IMPORT_COLUMNS,
  IMPORT_REQUIRED_COLUMNS,
  type ImportEncoding,
  type ImportRowError,
} from '../../shared/contracts/deviceImport';
import { deviceBody, luhnCheckDigit, type Device, type DeviceBody } from '../../shared/contracts/devices';
import { MESSAGES } from '../../shared/messages';
import { INVENTORY_MESSAGES } from '../../shared/areaMessages/inventory';
import { UTF8_BOM, csvLines, csvZone, type CsvValue, type CsvZone } from '../audit/csv';
import { parseCsvTable, readCsvTable, type CsvTable, type CsvTableRecord } from '../audit/csvRead';
import { IMPORT_MAX_ROWS } from '../../shared/constants/limits';

export { decodeImportCsv } from '../audit/csvRead';

const M = INVENTORY_MESSAGES.csv;

export type ImportColumn = (typeof IMPORT_COLUMNS)[number];

/** One data row of a device import file. */
export type CsvRecord = CsvTableRecord<ImportColumn>;

/** A parsed import file: its data rows and the header names that are not read. */
export type ImportTable = CsvTable<ImportColumn>;

const DEVICE_TABLE = { columns: IMPORT_COLUMNS, required: IMPORT_REQUIRED_COLUMNS, maxRows: IMPORT_MAX_ROWS };

/** Reads an import file from its bytes: decoding, then parseImportTable. */
export function readImportCsv(bytes: Uint8Array): ImportTable & { encoding: ImportEncoding } {
  return readCsvTable(bytes, DEVICE_TABLE);
}

/** The data rows of an import file's text (see parseImportTable). */
export const parseImportCsv = (input: string): CsvRecord[] => parseImportTable(input).records;

/** Reads a device import file's text (server/audit/csvRead.ts: parseCsvTable with the device columns). */
export const parseImportTable = (input: string): ImportTable => parseCsvTable(input, DEVICE_TABLE);

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
