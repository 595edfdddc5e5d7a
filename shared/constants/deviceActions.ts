/** Device action codes (reference §4) with their Spanish labels. */
export const DEVICE_ACTIONS = [
  { code: 0, key: 'LOCK', label: 'Bloquear' },
  { code: 1, key: 'UNLOCK', label: 'Desbloquear' },
  { code: 2, key: 'RELEASE', label: 'Liberar' },
  { code: 3, key: 'UPDATE_APP_MACRO', label: 'Actualizar app de bloqueo' },
  { code: 4, key: 'UPDATE_APP_BUSINESS', label: 'Actualizar apps de negocio' },
  { code: 5, key: 'SEND_NOTIFICATION', label: 'Enviar notificación' },
  { code: 6, key: 'CODE_BAR', label: 'Código de barras de pago' },
  { code: 7, key: 'HISTORY', label: 'Historial' },
  { code: 8, key: 'RESTRICTIONS', label: 'Aplicar restricciones' },
  { code: 9, key: 'UNLOCK_OFFLINE', label: 'Desbloqueo sin conexión' },
  { code: 10, key: 'SIM_CARD_SETTING', label: 'Configuración de SIM' },
  { code: 11, key: 'DELETE_DEVICE', label: 'Eliminar dispositivo' },
  { code: 12, key: 'UNLOCK_OFFLINE_WITH_DATE', label: 'Desbloqueo sin conexión con fecha' },
  { code: 13, key: 'RELEASE_OFFLINE', label: 'Liberación sin conexión' },
] as const;

export type DeviceActionKey = (typeof DEVICE_ACTIONS)[number]['key'];

/**
 * RESTRICTIONS by what its `collection` flag asks: the collection policy's own rung, and its lift
 * on payment (the step the credit's history calls Quitar restricciones).
 */
export const COLLECTION_RESTRICTION_LABELS = {
  apply: 'Aplicar restricciones de cobranza',
  lift: 'Quitar restricciones de cobranza',
} as const;

/** code by key, e.g. DEVICE_ACTION.LOCK === 0 */
export const DEVICE_ACTION = Object.fromEntries(DEVICE_ACTIONS.map((a) => [a.key, a.code])) as {
  [K in DeviceActionKey]: Extract<(typeof DEVICE_ACTIONS)[number], { key: K }>['code'];
};

export const ALL_DEVICE_ACTION_CODES: readonly number[] = DEVICE_ACTIONS.map((a) => a.code);

/** Offline actions answer a code instead of creating a command for the agent. */
export const OFFLINE_CODE_ACTIONS: readonly number[] = [
  DEVICE_ACTION.UNLOCK_OFFLINE,
  DEVICE_ACTION.UNLOCK_OFFLINE_WITH_DATE,
  DEVICE_ACTION.RELEASE_OFFLINE,
];
