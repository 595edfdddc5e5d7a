import * as z from 'zod';
import { FIELD_LABELS } from '../constants/fieldLabels';
import { deviceBody } from './devices';
import { oneOfParam } from './fields';

/** Registration from CSV (POST /v5/devices/import) and the columns of the export. */

/** The CSV columns, in the template's order (Spanish headers; `imei` and `tipo` required). */
export const IMPORT_COLUMNS = ['imei', 'imei2', 'serie', 'tipo', 'marca', 'modelo', 'grupo', 'cliente', 'referencia_credito'] as const;
export const IMPORT_REQUIRED_COLUMNS = ['imei', 'tipo'] as const;

/** The encodings an import file may be in: UTF-8 (with or without BOM) or Windows-1252 (Excel's «CSV (delimitado por comas)»). */
export const IMPORT_ENCODINGS = ['UTF-8', 'Windows-1252'] as const;
export type ImportEncoding = (typeof IMPORT_ENCODINGS)[number];

export const importQuery = z.object({ mode: oneOfParam(FIELD_LABELS.csv.mode, ['preview', 'commit']).default('preview') });
export type ImportQuery = z.infer<typeof importQuery>;

export const importRowErrorResponse = z.strictObject({
  /** 1-based line of the data row in the file (the header is line 1). */
  line: z.number().int(),
  imei: z.string(),
  errors: z.array(z.strictObject({ field: z.string(), message: z.string() })),
});
export type ImportRowError = z.infer<typeof importRowErrorResponse>;

/** The answer of POST /v5/devices/import. */
export const importResultResponse = z.strictObject({
  mode: z.enum(['preview', 'commit']),
  /** The character encoding the file was read in. */
  encoding: z.enum(IMPORT_ENCODINGS),
  /** Header names that are not import columns (or repeat one): their cells are not read. */
  ignoredColumns: z.array(z.string()),
  rows: z.number().int(),
  valid: z.number().int(),
  invalid: z.array(importRowErrorResponse),
  /** The first valid rows, as they will be registered (preview table): registration bodies, already normalised. */
  sample: z.array(deviceBody),
  /** Devices registered (0 in preview). */
  imported: z.number().int(),
});
export type ImportResult = z.infer<typeof importResultResponse>;

/** Columns of GET /v5/devices/export. */
export const EXPORT_COLUMNS = [
  'id',
  'imei',
  'imei2',
  'serie',
  'tipo',
  'marca',
  'modelo',
  'estado',
  'tipo_bloqueo',
  'grupo',
  'cliente',
  'referencia_credito',
  'ultima_conexion',
  'version_agente',
  'enrolado',
  'creado',
] as const;
/** The date-time columns of the export: ISO 8601 in the zone the browser sent (`tz`), which their header names. */
export const EXPORT_DATE_TIME_COLUMNS: readonly (typeof EXPORT_COLUMNS)[number][] = ['ultima_conexion', 'enrolado', 'creado'];
