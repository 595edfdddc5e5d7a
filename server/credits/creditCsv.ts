/**
 * The CSV side of the credit imports, pure (no database): a schedules file into one credit body
 * per reference, a payments file into payment bodies, each checked with the API's own schemas
 * (creditBody, paymentBody), every error under the CSV column and its row; and the templates.
 * The file is read by server/audit/csvRead.ts (UTF-8 or Windows-1252), written by server/audit/csv.ts.
 */
import {
  PAYMENT_COLUMNS,
  PAYMENT_REQUIRED_COLUMNS,
  SCHEDULE_COLUMNS,
  SCHEDULE_REQUIRED_COLUMNS,
  type CreditImportRowError,
  type PaymentColumn,
  type ScheduleColumn,
} from '../../shared/contracts/creditImport';
import {
  DEFAULT_CURRENCY,
  PAID_AT_MIN,
  creditBody,
  creditReferenceParam,
  paymentBody,
  type CreditBody,
  type PaymentBody,
} from '../../shared/contracts/credits';
import type { ImportEncoding } from '../../shared/contracts/deviceImport';
import { CREDIT_MESSAGES } from '../../shared/areaMessages/credit';
import { formatAmount, instantAt, isCalendarDate, parseAmount } from '../../shared/credits';
import { UTF8_BOM, csvLines } from '../audit/csv';
import { readCsvTable, type CsvTableRecord } from '../audit/csvRead';
import { IMPORT_MAX_ROWS, type CreditImportKind } from '../../shared/constants/limits';
import { DATE_PARAM_MAX, DATE_PARAM_MIN } from '../../shared/paramChecks';

const M = CREDIT_MESSAGES.csvImport;

/** The errors of a file's rows, by line, kept in the order they are found. */
class RowErrors {
  private readonly byLine = new Map<number, CreditImportRowError>();
  add(line: number, reference: string, field: string, message: string): void {
    const row = this.byLine.get(line) ?? { line, reference, errors: [] };
    this.byLine.set(line, row);
    if (!row.errors.some((e) => e.field === field && e.message === message)) row.errors.push({ field, message });
  }
  has(line: number): boolean {
    return this.byLine.has(line);
  }
  list(): CreditImportRowError[] {
    return [...this.byLine.values()].sort((a, b) => a.line - b.line);
  }
}

// Cells as people write them --------------------------------------------------------------

/**
 * An amount as spreadsheets write it, in cents: '1250.00', '1250', '1,250.00', '$1,250.00',
 * '$ 1 250.50' is not (only commas group thousands, in threes). Null when it is not one.
 */
export function parseCsvAmount(text: string): number | null {
  const v = text.trim().replace(/^\$\s*/, '');
  const grouped = /^\d{1,3}(,\d{3})+(\.\d{1,2})?$/.test(v);
  return parseAmount(grouped ? v.replace(/,/g, '') : v);
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const MX_DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;

/** A due date written 'YYYY-MM-DD' or, as Mexican spreadsheets do, 'DD/MM/YYYY' (also 'D/M/YYYY'): 'YYYY-MM-DD', or null. */
export function parseCsvDate(text: string): string | null {
  const v = text.trim();
  if (ISO_DATE.test(v)) return isCalendarDate(v) ? v : null;
  const mx = MX_DATE.exec(v);
  if (!mx) return null;
  const [day, month] = [Number(mx[1]), Number(mx[2])];
  const date = `${mx[3]}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
  return isCalendarDate(date) ? date : null;
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;
const LOCAL_TIME = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/;

/**
 * A payment's instant: ISO 8601 with its zone ('2026-03-01T10:30:00-06:00', 'Z'), or a local
 * date and time of `timeZone`: 'DD/MM/YYYY HH:MM[:SS]', 'YYYY-MM-DD HH:MM[:SS]' (or with a 'T'), or
 * a date alone (its midnight). Null when it is none of them.
 */
export function parseCsvInstant(text: string, timeZone: string): Date | null {
  const v = text.trim();
  if (ISO_INSTANT.test(v)) {
    const ms = Date.parse(v);
    return Number.isNaN(ms) || !isCalendarDate(v.slice(0, 10)) ? null : new Date(ms);
  }
  const [datePart = '', timePart = '00:00', ...rest] = v.split(/[\sT]+/);
  if (rest.length > 0) return null;
  const date = parseCsvDate(datePart);
  const clock = LOCAL_TIME.exec(timePart);
  if (!date || !clock) return null;
  const [hours, minutes, seconds] = [Number(clock[1]), Number(clock[2]), Number(clock[3] ?? 0)];
  if (hours > 23 || minutes > 59 || seconds > 59) return null;
  const at = instantAt(date, `${String(hours).padStart(2, '0')}:${clock[2]}`, timeZone);
  return new Date(at.getTime() + seconds * 1000);
}

/** The IMEIs of a cell: separated by ';', ',' or spaces. */
export const splitImeis = (text: string): string[] => text.split(/[\s;,]+/).filter((v) => v !== '');

/** The reference of a row, or its error. */
function referenceOf(cell: string | undefined): { reference?: string; error?: string } {
  if ((cell ?? '') === '') return { error: M.required('referencia') };
  const parsed = creditReferenceParam.safeParse(cell);
  return parsed.success ? { reference: parsed.data } : { error: parsed.error.issues[0]!.message };
}

// Schedules --------------------------------------------------------------------------------

/** One credit of a schedules file: its reference as first written, its body, and where each part came from. */
export interface ScheduleGroup {
  reference: string;
  body: CreditBody;
  /** The first line of the reference. */
  line: number;
  /** The line of each IMEI (its first). */
  imeiLines: Map<string, number>;
}

export interface ReadSchedules {
  encoding: ImportEncoding;
  ignoredColumns: string[];
  rows: number;
  groups: ScheduleGroup[];
  invalid: CreditImportRowError[];
}

const INSTALLMENT_COLUMN: Record<string, ScheduleColumn> = { number: 'numero', dueDate: 'vencimiento', amount: 'monto' };

/**
 * Reads a schedules file: one row per installment, the rows of a reference (ignoring case) one
 * credit's whole schedule, in the order of `numero`. Customer, phone and currency are written on
 * the reference's first row (a later row leaves them empty or repeats them); the IMEIs of all
 * its rows are the credit's. A reference with any row in error yields no credit.
 */
export function readScheduleCsv(bytes: Uint8Array): ReadSchedules {
  const table = readCsvTable(bytes, { columns: SCHEDULE_COLUMNS, required: SCHEDULE_REQUIRED_COLUMNS, maxRows: IMPORT_MAX_ROWS });
  return { encoding: table.encoding, ignoredColumns: table.ignoredColumns, rows: table.records.length, ...scheduleGroups(table.records) };
}

interface ScheduleRow {
  line: number;
  cells: Partial<Record<ScheduleColumn, string>>;
  number?: number;
  dueDate?: string;
  amountCents?: number;
}

/** The credits of a schedules file's rows (see readScheduleCsv). */
export function scheduleGroups(records: readonly CsvTableRecord<ScheduleColumn>[]): { groups: ScheduleGroup[]; invalid: CreditImportRowError[] } {
  const errors = new RowErrors();
  const byReference = new Map<string, { reference: string; rows: ScheduleRow[] }>();
  for (const rec of records) {
    const c = rec.cells;
    const ref = referenceOf(c.referencia);
    if (ref.error) errors.add(rec.line, c.referencia ?? '', 'referencia', ref.error);
    const row: ScheduleRow = { line: rec.line, cells: c };
    const number = (c.numero ?? '').trim();
    if (/^\d{1,4}$/.test(number) && Number(number) >= 1) row.number = Number(number);
    else errors.add(rec.line, c.referencia ?? '', 'numero', number === '' ? M.required('numero') : M.number('numero'));
    const due = parseCsvDate(c.vencimiento ?? '');
    if (due && due >= DATE_PARAM_MIN && due <= DATE_PARAM_MAX) row.dueDate = due;
    else
      errors.add(
        rec.line,
        c.referencia ?? '',
        'vencimiento',
        (c.vencimiento ?? '') === '' ? M.required('vencimiento') : M.date('vencimiento', DATE_PARAM_MIN, DATE_PARAM_MAX),
      );
    const cents = parseCsvAmount(c.monto ?? '') ?? 0;
    if (cents) row.amountCents = cents;
    else errors.add(rec.line, c.referencia ?? '', 'monto', (c.monto ?? '') === '' ? M.required('monto') : M.amount('monto'));
    if (!ref.reference) continue;
    const key = ref.reference.toLowerCase();
    const group = byReference.get(key) ?? { reference: ref.reference, rows: [] };
    byReference.set(key, group);
    group.rows.push(row);
  }

  const groups: ScheduleGroup[] = [];
  for (const { reference, rows } of byReference.values()) {
    const first = rows[0]!;
    // Credit-level cells: the first value written; a later row may repeat it or leave it empty.
    const credit = (column: 'cliente' | 'telefono' | 'moneda') => {
      let value: { text: string; line: number } | undefined;
      for (const r of rows) {
        const text = r.cells[column] ?? '';
        if (text === '') continue;
        if (!value) value = { text, line: r.line };
        else if (text !== value.text) errors.add(r.line, reference, column, M.differs(column, value.line));
      }
      return value;
    };
    const customer = credit('cliente');
    if (!customer) errors.add(first.line, reference, 'cliente', M.required('cliente'));
    const phone = credit('telefono');
    const currency = credit('moneda');
    const imeiLines = new Map<string, number>();
    for (const r of rows) for (const imei of splitImeis(r.cells.imeis ?? '')) if (!imeiLines.has(imei)) imeiLines.set(imei, r.line);
    // Installments in the order of their number; a number twice is an error of the later row.
    const numbered = rows.filter((r) => r.number !== undefined).sort((a, b) => a.number! - b.number! || a.line - b.line);
    numbered.forEach((r, i) => {
      const previous = numbered[i - 1];
      if (previous && previous.number === r.number) errors.add(r.line, reference, 'numero', M.numberRepeated('numero', previous.line));
    });
    if (rows.some((r) => errors.has(r.line))) continue;
    const parsed = creditBody.safeParse({
      customerName: customer!.text,
      customerPhone: phone?.text ?? null,
      currency: (currency?.text ?? DEFAULT_CURRENCY).toUpperCase(),
      imeis: [...imeiLines.keys()],
      installments: numbered.map((r) => ({ number: r.number, dueDate: r.dueDate, amount: formatAmount(r.amountCents!) })),
    });
    if (parsed.success) {
      groups.push({ reference, body: parsed.data, line: first.line, imeiLines });
      continue;
    }
    for (const issue of parsed.error.issues) {
      const [field, index, part] = issue.path;
      if (field === 'installments' && typeof index === 'number') {
        const row = numbered[index] ?? first;
        errors.add(row.line, reference, INSTALLMENT_COLUMN[String(part)] ?? 'numero', issue.message);
      } else if (field === 'imeis') {
        const imei = typeof index === 'number' ? [...imeiLines.keys()][index] : undefined;
        errors.add((imei === undefined ? undefined : imeiLines.get(imei)) ?? first.line, reference, 'imeis', issue.message);
      } else if (field === 'customerPhone') errors.add(phone?.line ?? first.line, reference, 'telefono', issue.message);
      else if (field === 'currency') errors.add(currency?.line ?? first.line, reference, 'moneda', issue.message);
      else errors.add(customer?.line ?? first.line, reference, 'cliente', issue.message);
    }
  }
  return { groups, invalid: errors.list() };
}

// Payments ---------------------------------------------------------------------------------

export interface PaymentRow {
  line: number;
  reference: string;
  body: PaymentBody;
}

export interface ReadPayments {
  encoding: ImportEncoding;
  ignoredColumns: string[];
  rows: number;
  payments: PaymentRow[];
  invalid: CreditImportRowError[];
}

const PAYMENT_COLUMN: Record<string, PaymentColumn> = { externalId: 'id_externo', amount: 'monto', paidAt: 'fecha_pago' };

/** Reads a payments file: one payment per row; local dates and times are the company's (`timeZone`). */
export function readPaymentCsv(bytes: Uint8Array, timeZone: string): ReadPayments {
  const table = readCsvTable(bytes, { columns: PAYMENT_COLUMNS, required: PAYMENT_REQUIRED_COLUMNS, maxRows: IMPORT_MAX_ROWS });
  return { encoding: table.encoding, ignoredColumns: table.ignoredColumns, rows: table.records.length, ...paymentRows(table.records, timeZone) };
}

/** The payments of a payments file's rows (see readPaymentCsv). */
export function paymentRows(
  records: readonly CsvTableRecord<PaymentColumn>[],
  timeZone: string,
): { payments: PaymentRow[]; invalid: CreditImportRowError[] } {
  const errors = new RowErrors();
  const payments: PaymentRow[] = [];
  for (const rec of records) {
    const c = rec.cells;
    const name = c.referencia ?? '';
    const ref = referenceOf(c.referencia);
    if (ref.error) errors.add(rec.line, name, 'referencia', ref.error);
    const cents = parseCsvAmount(c.monto ?? '') ?? 0;
    if (!cents) errors.add(rec.line, name, 'monto', (c.monto ?? '') === '' ? M.required('monto') : M.amount('monto'));
    const paidAt = parseCsvInstant(c.fecha_pago ?? '', timeZone);
    if (!paidAt || paidAt.getTime() < Date.parse(PAID_AT_MIN))
      errors.add(rec.line, name, 'fecha_pago', (c.fecha_pago ?? '') === '' ? M.required('fecha_pago') : M.instant('fecha_pago', PAID_AT_MIN));
    if ((c.id_externo ?? '') === '') errors.add(rec.line, name, 'id_externo', M.required('id_externo'));
    const parsed = paymentBody.safeParse({
      externalId: c.id_externo ?? '',
      amount: cents ? formatAmount(cents) : '',
      paidAt: paidAt?.toISOString() ?? '',
    });
    if (!parsed.success) {
      // The cells checked above already carry their own message.
      for (const issue of parsed.error.issues) {
        const column = PAYMENT_COLUMN[String(issue.path[0])] ?? 'id_externo';
        if (column === 'id_externo' && (c.id_externo ?? '') !== '') errors.add(rec.line, name, column, issue.message);
      }
    }
    if (ref.reference && parsed.success && !errors.has(rec.line)) payments.push({ line: rec.line, reference: ref.reference, body: parsed.data });
  }
  return { payments, invalid: errors.list() };
}

// Templates --------------------------------------------------------------------------------

/** The downloadable template of a kind: BOM, the header and example rows that import cleanly. */
export function creditImportTemplate(kind: CreditImportKind): string {
  if (kind === 'schedules') {
    const rows: string[][] = [
      ['CR-2026-000123', 'María Fernanda López García', '55 1234 5678', 'MXN', '', '1', '15/01/2026', '$1,250.00'],
      ['CR-2026-000123', '', '', '', '', '2', '15/02/2026', '$1,250.00'],
      ['CR-2026-000123', '', '', '', '', '3', '2026-03-15', '1250.00'],
    ];
    return UTF8_BOM + csvLines([SCHEDULE_COLUMNS, ...rows]);
  }
  return UTF8_BOM + csvLines([PAYMENT_COLUMNS, ['CR-2026-000123', 'PAGO-0001', '1,250.00', '14/01/2026 10:30']]);
}
