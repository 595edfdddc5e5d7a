import * as z from 'zod';
import { FIELD_LABELS } from '../constants/fieldLabels';
import { CREDIT_IMPORT_KINDS } from '../constants/limits';
import { IMPORT_ENCODINGS, importQuery } from './deviceImport';
import { oneOfParam } from './fields';

/**
 * CSV import of credit schedules and of payments (POST /v5/credits/import?kind=schedules|payments&mode=preview|commit),
 * read as the device import's files are (UTF-8 or Windows-1252, IMPORT_MAX_BYTES, IMPORT_MAX_ROWS,
 * the same `importQuery`). A preview validates every row and changes nothing; a commit applies
 * the whole file in one transaction, or nothing when a row has an error.
 */

/** Schedules: one row per installment; the rows of one reference are one credit's whole schedule. */
export const SCHEDULE_COLUMNS = ['referencia', 'cliente', 'telefono', 'moneda', 'imeis', 'numero', 'vencimiento', 'monto'] as const;
export const SCHEDULE_REQUIRED_COLUMNS = ['referencia', 'cliente', 'numero', 'vencimiento', 'monto'] as const;
export type ScheduleColumn = (typeof SCHEDULE_COLUMNS)[number];

/** Payments: one row per payment, idempotent by (referencia, id_externo) as the API's. */
export const PAYMENT_COLUMNS = ['referencia', 'id_externo', 'monto', 'fecha_pago'] as const;
export const PAYMENT_REQUIRED_COLUMNS = PAYMENT_COLUMNS;
export type PaymentColumn = (typeof PAYMENT_COLUMNS)[number];

/** Credits or payments an answer lists at most (the counts give the whole picture). */
export const CREDIT_IMPORT_SHOWN = 100;

/** The kind of file, in the query (`?kind=`): a path segment would meet the routes of a reference. */
const kindParam = oneOfParam(FIELD_LABELS.csv.kind, CREDIT_IMPORT_KINDS);
/** GET /v5/credits/import/template. */
export const creditTemplateQuery = z.object({ kind: kindParam });
/** POST /v5/credits/import: the kind and the device import's `mode` (preview by default). */
export const creditImportQuery = importQuery.extend({ kind: kindParam });
export type CreditImportQuery = z.infer<typeof creditImportQuery>;

export const creditImportRowErrorResponse = z.strictObject({
  /** 1-based line of the data row in the file (the header is line 1). */
  line: z.number().int(),
  reference: z.string(),
  /** `field`: the CSV column, as the header names it. */
  errors: z.array(z.strictObject({ field: z.string(), message: z.string() })),
});
export type CreditImportRowError = z.infer<typeof creditImportRowErrorResponse>;

/** A credit of a schedules file: created or replaced (its schedule entirely). */
export const scheduleImportItemResponse = z.strictObject({
  reference: z.string(),
  customerName: z.string(),
  currency: z.string(),
  installments: z.number().int(),
  /** The schedule's total, a decimal string. */
  total: z.string(),
  imeis: z.array(z.string()),
  outcome: z.enum(['create', 'replace']),
});
export type ScheduleImportItem = z.infer<typeof scheduleImportItemResponse>;

/** A payment of a payments file: new, or already applied (the same id with the same data). */
export const paymentImportItemResponse = z.strictObject({
  line: z.number().int(),
  reference: z.string(),
  externalId: z.string(),
  amount: z.string(),
  /** The credit's currency. */
  currency: z.string(),
  paidAt: z.string(),
  outcome: z.enum(['new', 'already_applied']),
});
export type PaymentImportItem = z.infer<typeof paymentImportItemResponse>;

/** The answer of POST /v5/credits/import. */
export const creditImportResultResponse = z.strictObject({
  mode: z.enum(['preview', 'commit']),
  kind: z.enum(CREDIT_IMPORT_KINDS),
  encoding: z.enum(IMPORT_ENCODINGS),
  ignoredColumns: z.array(z.string()),
  /** Data rows read. */
  rows: z.number().int(),
  /** Every row with an error; when any, a commit applies nothing. */
  invalid: z.array(creditImportRowErrorResponse),
  /** Schedules: the first CREDIT_IMPORT_SHOWN credits, and how many are created and replaced. */
  schedules: z.array(scheduleImportItemResponse),
  created: z.number().int(),
  replaced: z.number().int(),
  /** Payments: the first CREDIT_IMPORT_SHOWN payments, how many are new and how many were already applied. */
  payments: z.array(paymentImportItemResponse),
  newPayments: z.number().int(),
  alreadyApplied: z.number().int(),
  /** The file was applied (commit without errors). */
  applied: z.boolean(),
});
export type CreditImportResult = z.infer<typeof creditImportResultResponse>;
