/** The CSV downloads (device export, audit log, job results). */
export const CSV_MESSAGES = {
  /** The header of a date-time column names the zone its values are written in: 'ultima_conexion (America/Mexico_City)'. */
  zonedColumn: (column: string, zone: string) => `${column} (${zone})`,
  /** The zone of a download that names none. */
  defaultZone: 'UTC',
} as const;
