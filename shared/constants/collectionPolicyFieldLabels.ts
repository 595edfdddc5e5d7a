/**
 * The collection policy's fields (Política de cobranza), the pause of a credit, the release
 * approvals: FIELD_LABELS carries them as `collectionPolicy`; apart, so the policy's page loads
 * these and not every field's label.
 */
export const COLLECTION_POLICY_FIELD_LABELS = {
  version: 'Versión',
  groupId: 'Grupo',
  values: 'Valores',
  reminders: 'Recordatorios',
  offsetDays: 'Días respecto al vencimiento',
  reminderMessage: 'Mensaje del recordatorio',
  barcode: 'Código de barras',
  ladder: 'Escalera de cobranza',
  daysOverdue: 'Días de atraso del escalón',
  kind: 'Tipo de escalón',
  rungMessage: 'Mensaje del escalón',
  lock: 'Bloqueo',
  lockEnabled: 'Bloquear por atraso',
  lockDays: 'Días de atraso para bloquear',
  lockMessage: 'Mensaje de bloqueo',
  hours: 'Horario permitido',
  hoursFrom: 'Hora de inicio',
  hoursTo: 'Hora de fin',
  nonWorkingWeekdays: 'Días no laborables de la semana',
  mexicanHolidays: 'Días de descanso oficiales de México',
  holidays: 'Días festivos de la empresa',
  shiftDueDates: 'Mover vencimientos a día hábil',
  unlockThresholdCents: 'Umbral de desbloqueo',
  release: 'Liberación al liquidar',
  manualUnlockHoldHours: 'Horas de espera tras un desbloqueo manual',
  pauseUntil: 'Pausar hasta',
  pauseReason: 'Motivo de la pausa',
  approvalStatus: 'Estado',
  approvalId: 'Id de la solicitud',
} as const;
