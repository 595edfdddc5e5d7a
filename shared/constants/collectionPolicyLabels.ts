import { count, plural } from './spanishNumbers';

/**
 * Política de cobranza (/credits/collection-policy): the page's blocks, options, hints and the
 * values in words (overrides, history). Apart from CREDIT_PAGE_LABELS: the policy's page loads
 * none of the other credit pages' texts.
 */
export const COLLECTION_POLICY_LABELS = {
  description:
    'Qué hace el portal por sí solo con cada crédito: recordatorios antes del vencimiento, avisos y restricciones escalonadas, el bloqueo por atraso y el desbloqueo al pagar.',
  loadError: 'No se pudo cargar la política de cobranza',
  saved: 'Política de cobranza guardada',
  remindersHint:
    'Días respecto al vencimiento: negativo antes, 0 el día del vencimiento. Variables del mensaje: {nombre} {monto} {fecha} {referencia}.',
  reminder: (n: number) => `Recordatorio ${n}`,
  addReminder: 'Agregar recordatorio',
  removeReminder: (n: number) => `Quitar el recordatorio ${n}`,
  noReminders: 'Sin recordatorios.',
  ladderHint: 'Cada escalón actúa al cumplirse sus días de atraso y se deshace al pagar.',
  rung: (n: number) => `Escalón ${n}`,
  addRung: 'Agregar escalón',
  removeRung: (n: number) => `Quitar el escalón ${n}`,
  noRungs: 'Sin escalones.',
  kinds: { notification: 'Aviso', persistent_notification: 'Aviso persistente', restrictions: 'Restricciones (SMS y llamadas salientes)' },
  lockHint: 'Bloqueo Por Crédito. Variables del mensaje: {nombre} {monto} {fecha} {referencia}.',
  hoursHint: 'Fuera de este horario (hora de la empresa) la política no bloquea ni restringe; los desbloqueos ocurren a cualquier hora.',
  calendar: 'Días no laborables',
  calendarHint: 'En estos días la política no bloquea ni restringe.',
  weekdays: ['Domingo', 'Lunes', 'Martes', 'Miércoles', 'Jueves', 'Viernes', 'Sábado'],
  holidaysHint: 'Una fecha por línea, AAAA-MM-DD.',
  unlock: 'Desbloqueo y liberación',
  unlockThresholdHint:
    'Importe en la moneda del crédito, por ejemplo 500.00. El equipo se desbloquea cuando el monto vencido queda en este importe o menos (0.00: sin adeudo vencido).',
  releaseModes: { automatic: 'Automática', approval: 'Con aprobación de un administrador' },
  holdHint: 'Tras un desbloqueo manual, la política no vuelve a bloquear durante estas horas.',
  /** The values in words, in the inherited markers and the history. */
  days: (n: number) => `${count(n)} ${plural(n, 'día', 'días')}`,
  hoursValue: (n: number) => `${count(n)} h`,
  none: 'Ninguno',
  count: (n: number, one: string, many: string) => `${count(n)} ${plural(n, one, many)}`,
  lockOff: 'No bloquea',
  lockAt: (days: string) => `Bloquea a los ${days} de atraso`,
  withBarcode: 'con código de barras',
} as const;
