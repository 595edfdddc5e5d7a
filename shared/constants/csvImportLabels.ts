/** The CSV import's shared steps (client/components/CsvImportFlow.tsx): device registration, credit schedules and payments. */
export const CSV_IMPORT_LABELS = {
  downloadTemplate: 'Descargar plantilla',
  file: 'Archivo CSV',
  validating: 'Validando el archivo...',
  counts: 'Resumen del archivo',
  rows: 'Filas',
  encoding: 'Codificación',
  invalidTitle: 'Filas con errores',
  invalidShown: (shown: number, total: number) => `Se muestran las primeras ${shown} de ${total.toLocaleString('es-MX')} filas con errores.`,
  line: 'Línea',
  errors: 'Errores',
  importAnother: 'Importar otro archivo',
  cancel: 'Cancelar',
  ignoredColumns: (n: number) =>
    n === 1 ? 'Columna ignorada (no es una columna de la plantilla):' : 'Columnas ignoradas (no son columnas de la plantilla):',
};
