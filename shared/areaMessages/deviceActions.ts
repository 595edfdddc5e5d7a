/**
 * Why a device action is refused (the API's answers and the pages' disabled reasons): apart from
 * INVENTORY_MESSAGES, which carries them as `actions`, so a list page that judges its rows' actions
 * does not load every inventory message.
 */
export const DEVICE_ACTION_MESSAGES = {
  disabledForStatus: (action: string, status: string) => `La acción ${action} no está disponible para dispositivos en estado ${status}`,
  pendingConflict: (pending: string) => `El dispositivo tiene un comando pendiente (${pending}); espere la respuesta o cancélelo`,
  notGranted: (action: string) => `Su perfil no permite la acción ${action}`,
  notEnrolled: 'El dispositivo aún no está enrolado: solo se puede editar, asignar a un grupo o eliminar',
  alreadyReleased: 'El dispositivo ya está liberado',
  releasedNoAgent: 'El dispositivo está liberado: su agente ya no recibe comandos',
  deleteWhileInUse: 'No se puede eliminar un dispositivo activo o bloqueado',
  commandNotFound: 'Comando no encontrado',
  notCancellable: 'Solo se puede cancelar un comando que el dispositivo aún no ha recibido',
  noScheduledRelease: 'El dispositivo no tiene una liberación programada por entregar',
  idempotencyMismatch: 'La clave Idempotency-Key ya se usó con otra solicitud',
  idempotencyKey: 'El encabezado Idempotency-Key debe tener de 1 a 200 caracteres visibles',
} as const;
