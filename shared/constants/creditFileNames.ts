/** The names of the credit downloads when the answer names none (the API's Content-Disposition names them). */
export const CREDIT_FILE_NAMES = {
  portfolio: 'creditos.csv',
  reconciliation: 'conciliacion.csv',
  template: { schedules: 'plantilla-calendarios.csv', payments: 'plantilla-pagos.csv' },
} as const;
