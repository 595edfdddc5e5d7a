/** The collection policy's starting templates ({nombre} {monto} {fecha} {referencia} are filled in per credit). */
export const COLLECTION_POLICY_DEFAULT_TEXTS = {
  reminderBefore: 'Hola {nombre}: tu pago de {monto} del crédito {referencia} vence el {fecha}.',
  reminderDue: 'Hola {nombre}: hoy vence tu pago de {monto} del crédito {referencia}. Puedes pagar con el código de barras.',
  overdue: 'Tu pago de {monto} del crédito {referencia} está vencido desde el {fecha}. Paga hoy para evitar restricciones en tu equipo.',
  persistent: 'Tu equipo será restringido si no pagas {monto} del crédito {referencia}.',
  lock: 'Equipo bloqueado por falta de pago. Adeudo: {monto}. Referencia: {referencia}.',
} as const;
