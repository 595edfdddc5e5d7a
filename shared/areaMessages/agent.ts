import { FIELD_LABELS } from '../constants/fieldLabels';

/** Texts of the device agent's API (/agent/v1) and of enrollment. */
export const AGENT_MESSAGES = {
  field: {
    body: 'El cuerpo de la solicitud debe ser un objeto JSON',
    iccid: (label: string) => `El campo ${label} debe ser un ICCID de 18 a 22 dígitos`,
    sim: (label: string) => `El campo ${label} debe ser un objeto con iccid y carrier, o null`,
    enrollmentToken: (label: string) => `El campo ${label} debe ser el token o el código de enrolamiento`,
    wait: (label: string, max: number) => `El campo ${label} debe ser un número entero de segundos entre 0 y ${max}`,
    battery: (label: string) => `El campo ${label} debe ser un número entero entre 0 y 100`,
    lockState: (label: string) => `El campo ${label} debe ser locked o unlocked`,
    commandId: (label: string) => `El parámetro ${label} debe ser el id de un comando`,
    code: (label: string) => `El campo ${label} debe tener 8 dígitos`,
    eventType: (label: string) => `El campo ${label} debe ser uno de: offline_code, offline_lock, tamper_lock, sim_removed, temporary_expired`,
    validHours: (label: string, max: number) => `El campo ${label} debe ser un número entero de horas entre 1 y ${max}`,
    scope: `Indique el campo ${FIELD_LABELS.enrollmentTokens.groupId} o el campo ${FIELD_LABELS.enrollmentTokens.deviceId}, no ambos`,
    publicKey: (label: string) => `El campo ${label} debe ser la clave pública EC P-256 del dispositivo en formato JWK (kty, crv, x, y)`,
    publicKeyPrivate: (label: string) => `El campo ${label} no debe incluir la clave privada (d)`,
    instant: (label: string) => `El campo ${label} debe ser una fecha y hora ISO 8601 con zona horaria`,
  },
  auth: {
    missingToken: 'Falta el token del dispositivo (Authorization: Bearer …)',
    invalidToken: 'El token del dispositivo no es válido o fue revocado',
    signatureMissing: 'Falta la firma de la solicitud (X-Agent-Timestamp, X-Agent-Nonce y X-Agent-Signature)',
    signatureMalformed: 'La firma de la solicitud no tiene el formato esperado',
    signatureStale: (minutes: number) =>
      `La hora de la firma difiere más de ${minutes} minutos de la del servidor: revise la fecha y hora del dispositivo`,
    signatureInvalid: 'La firma de la solicitud no corresponde a la clave del dispositivo',
    noKey: 'El dispositivo se enroló sin clave pública: debe enrolarse de nuevo con la autorización de reenrolamiento del portal',
    otherDevice: 'El comando no pertenece a este dispositivo',
    rateLimited: 'Demasiadas solicitudes de este dispositivo; espere antes de reintentar',
  },
  enroll: {
    invalidToken: 'El token de enrolamiento no existe: revise el código o escanee el QR de nuevo',
    tokenExpired: 'El token de enrolamiento venció: genere un código nuevo en el portal',
    tokenRevoked: 'El token de enrolamiento fue revocado: use el código más reciente del portal',
    tokenUsed: 'La autorización de enrolamiento de este dispositivo ya se usó: solicite una nueva en el portal',
    codesVoided: 'Anulado: el dispositivo se enroló de nuevo y recibió otra clave para los códigos offline',
    tokenRequired: 'El enrolamiento requiere el código QR (require_QR_validation)',
    simRequired: 'El enrolamiento requiere una SIM en el dispositivo (require_sim_for_enroll)',
    notRegistered: 'El dispositivo no está registrado y su grupo no admite enrolar dispositivos sin registro',
    otherDevice: 'El token de enrolamiento es de otro dispositivo',
    otherGroup: 'El dispositivo está registrado en otro grupo',
    typeMismatch: 'El tipo de dispositivo no coincide con el registrado',
    released: 'El dispositivo fue liberado: ya no se puede enrolar',
    alreadyEnrolled:
      'El dispositivo ya está enrolado: solo se enrola de nuevo con la autorización de reenrolamiento que un administrador emite en el portal para este dispositivo',
  },
  commands: {
    notFound: 'Comando no encontrado',
    notPending: 'El comando ya no está pendiente',
  },
  events: {
    codeRejected: 'El código offline no es válido, venció o ya se usó',
    codeExpired: 'El código offline se usó en el dispositivo después de su vencimiento',
    reportTooLate: (days: number) => `El uso del código offline se reportó más de ${days} días después: ya no se acepta`,
    redeemedInFuture: 'La fecha de uso del código offline es posterior a la hora del servidor: revise la fecha y hora del dispositivo',
  },
  tokens: {
    notFound: 'Token de enrolamiento no encontrado',
    groupNotFound: `El campo ${FIELD_LABELS.enrollmentTokens.groupId} no corresponde a un grupo existente`,
    deviceNotFound: `El campo ${FIELD_LABELS.enrollmentTokens.deviceId} no corresponde a un dispositivo pre-enrolado`,
    reenrollNotEnrolled: 'El dispositivo aún no está enrolado: genere su código QR de enrolamiento desde la página de dispositivos pre-enrolados',
    noPackage: (version: string) =>
      `La versión actual de la app de bloqueo (${version}) no tiene URL de descarga ni checksum: el QR solo lleva el servidor y el token, para un agente ya instalado`,
    noVersion:
      'No hay una versión actual de la app de bloqueo para smartphones: el QR solo lleva el servidor y el token, para un agente ya instalado',
  },
  holds: {
    notHeld: 'El dispositivo no está suspendido',
    cannotHold: 'Solo se puede suspender un dispositivo enrolado',
  },
} as const;
