/** The CSV downloads (device export, audit log, job results). */
export const CSV_MESSAGES = {
  /** The header of a date-time column names the zone its values are written in: 'ultima_conexion (America/Mexico_City)'. */
  zonedColumn: (column: string, zone: string) => `${column} (${zone})`,
  /** The zone of a download that names none. */
  defaultZone: 'UTC',
} as const;

/**
 * The CSV uploads (device registration, credit schedules and payments) and the device export's
 * names; INVENTORY_MESSAGES carries them as `csv`. Apart, so a page with an import does not load
 * every inventory message.
 */
export const CSV_IMPORT_MESSAGES = {
  tooLarge: (mb: number) => `El archivo CSV admite como máximo ${mb} MB`,
  tooManyRows: (max: number) => `El archivo CSV admite como máximo ${max.toLocaleString('es-MX')} filas`,
  notCsv: 'El archivo debe ser un CSV (text/csv) en UTF-8 o Windows-1252',
  utf16: 'El archivo CSV está en UTF-16; guárdelo como «CSV UTF-8» o «CSV (delimitado por comas)» y vuelva a intentarlo',
  badEncoding: 'El archivo CSV no está en UTF-8 ni en Windows-1252 (o no es un archivo de texto); guárdelo como «CSV UTF-8» y vuelva a intentarlo',
  empty: 'El archivo CSV no tiene filas de datos',
  missingColumns: (cols: string[]) => `Faltan columnas en el encabezado: ${cols.join(', ')}`,
  duplicateInFile: (row: number) => `IMEI repetido en el archivo (fila ${row})`,
  duplicateInDb: 'Ya existe un dispositivo con este IMEI',
  groupUnknown: (name: string) => `El grupo "${name}" no existe`,
  unclosedQuote: (line: number) => `El archivo CSV tiene comillas sin cerrar en la fila ${line}`,
  exportFileName: (date: string) => `dispositivos-${date}.csv`,
  templateFileName: 'plantilla-dispositivos.csv',
} as const;
