import * as z from 'zod';
import type { DeviceBody } from './devices';
import { oneOfParam } from './fields';

/** Registration from CSV (POST /v5/devices/import) and the columns of the export. */

export const IMPORT_MAX_ROWS = 10_000;
export const IMPORT_MAX_BYTES = 2 * 1024 * 1024;

/** The CSV columns, in the template's order (Spanish headers; `imei` and `tipo` required). */
export const IMPORT_COLUMNS = ['imei', 'imei2', 'serie', 'tipo', 'marca', 'modelo', 'grupo', 'cliente', 'referencia_credito'] as const;
export const IMPORT_REQUIRED_COLUMNS = ['imei', 'tipo'] as const;

export const importQuery = z.object({ mode: oneOfParam('mode', ['preview', 'commit']).default('preview') });
export type ImportQuery = z.infer<typeof importQuery>;

export interface ImportRowError {
  /** 1-based line of the data row in the file (the header is line 1). */
  line: number;
  imei: string;
  errors: { field: string; message: string }[];
}

/** The answer of POST /v5/devices/import. */
export interface ImportResult {
  mode: 'preview' | 'commit';
  rows: number;
  valid: number;
  invalid: ImportRowError[];
  /** The first valid rows, as they will be registered (preview table). */
  sample: DeviceBody[];
  /** Devices registered (0 in preview). */
  imported: number;
}

/** Columns of GET /v5/devices/export. */
export const EXPORT_COLUMNS = [
  'id', 'imei', 'imei2', 'serie', 'tipo', 'marca', 'modelo', 'estado', 'tipo_bloqueo', 'grupo', 'cliente', 'referencia_credito',
  'ultima_conexion', 'version_agente', 'enrolado', 'creado',
] as const;
