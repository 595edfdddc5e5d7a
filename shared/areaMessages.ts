/**
 * The Spanish texts of each functional area (administrators and roles, inventory, CSV, the agent and
 * its settings, the integration): field errors, refusals and their pages' texts. Apart from the
 * shell's (shared/messages.ts) because they name fields by FIELD_LABELS: a bundler keeps every such
 * text wherever the module is imported, and the sign-in page needs none of them.
 */
import { FIELD_LABELS, type DeviceFieldKey } from './constants/fieldLabels';

/**
 * Texts of the administrators, roles and audit API (field errors and refusals). A field is named
 * by its Spanish label (FIELD_LABELS), never by its path.
 */
export const ADMIN_API_MESSAGES = {
  field: {
    body: 'El cuerpo de la solicitud debe ser un objeto JSON',
    required: (label: string) => `El campo ${label} es obligatorio`,
    requiredParam: (label: string) => `El parámetro ${label} es obligatorio`,
    text: (label: string) => `El campo ${label} debe ser un texto`,
    empty: (label: string) => `El campo ${label} no puede estar vacío`,
    tooLong: (label: string, max: number) => `El campo ${label} admite como máximo ${max} caracteres`,
    badCharacters: (label: string) => `El campo ${label} contiene caracteres no permitidos`,
    email: (label: string) => `El campo ${label} debe ser un correo electrónico válido`,
    positiveInteger: (label: string) => `El campo ${label} debe ser un número entero positivo`,
    list: (label: string, max: number) => `El campo ${label} debe ser una lista de como máximo ${max} elementos`,
    path: (value: unknown) => `El campo ${FIELD_LABELS.roles.paths} contiene una ruta que no se puede otorgar: ${String(value)}`,
    noPaths: `El campo ${FIELD_LABELS.roles.paths} debe incluir al menos una página`,
    action: (value: unknown) => `El campo ${FIELD_LABELS.roles.actions} contiene un código de acción no válido: ${String(value)}`,
  },
  param: {
    text: (label: string, max: number) => `El parámetro ${label} debe ser un texto de como máximo ${max} caracteres`,
    badCharacters: (label: string) => `El parámetro ${label} contiene caracteres no permitidos`,
    integer: (label: string, min: number, max: number) => `El parámetro ${label} debe ser un número entero entre ${min} y ${max}`,
    oneOf: (label: string, values: readonly string[]) => `El parámetro ${label} debe ser uno de: ${values.join(', ')}`,
    email: (label: string) => `El parámetro ${label} debe ser un correo electrónico válido`,
    date: (label: string) => `El parámetro ${label} debe ser una fecha AAAA-MM-DD o una fecha y hora ISO 8601 con zona horaria`,
    dateRange: (label: string, min: string, max: string) => `El parámetro ${label} debe ser una fecha entre ${min} y ${max}`,
    range: `El parámetro ${FIELD_LABELS.audit.from} debe ser anterior o igual a ${FIELD_LABELS.audit.to}`,
    timeZone: (label: string) => `El parámetro ${label} debe ser una zona horaria IANA válida, por ejemplo America/Mexico_City`,
  },
  roles: {
    notFound: 'Rol no encontrado',
    nameTaken: 'Ya existe un rol con ese nombre',
    inUse: (count: number) => `El rol no se puede eliminar: lo ${count === 1 ? 'usa 1 administrador' : `usan ${count} administradores`}`,
    escalation: (what: string) => `No puedes otorgar permisos que tu perfil no tiene: ${what}`,
    ownRolesAccess: 'No puedes quitar el acceso a Roles de tu propio rol',
    copyOf: (nombre: string, n: number) => `${nombre} (copia${n > 1 ? ` ${n}` : ''})`,
  },
  admins: {
    notFound: 'Administrador no encontrado',
    emailTaken: 'Ya existe un administrador con ese correo',
    profileNotFound: `El campo ${FIELD_LABELS.admins.profileId} no corresponde a un rol existente`,
    profileEscalation: 'No puedes asignar un rol con permisos que tu perfil no tiene',
    resetEscalation: 'No puedes restablecer la contraseña de un administrador con permisos que tu perfil no tiene',
    selfDisable: 'No puedes deshabilitarte a ti mismo',
    selfDelete: 'No puedes eliminarte a ti mismo',
    selfProfile: 'No puedes cambiar tu propio rol',
    selfReset: 'Tu propia contraseña se cambia desde Mi Perfil',
    lastRoleManager: 'Debe quedar al menos un administrador habilitado con acceso a Roles',
    identityUserExists: 'Ya existe un usuario con ese correo en el servicio de identidad',
    identityUserMissing: 'El administrador no tiene usuario en el servicio de identidad',
    identityUnavailable: 'El servicio de identidad no respondió; no se realizó ningún cambio',
  },
  audit: {
    csvColumns: [
      'id',
      'fecha',
      'id_actor',
      'correo_actor',
      'ip',
      'id_solicitud',
      'entidad',
      'id_entidad',
      'accion',
      'resultado',
      'detalle',
      'antes',
      'despues',
    ],
    exportFileName: (day: string) => `auditoria-${day}.csv`,
  },
} as const;

/** Texts of the inventory API and pages (devices, groups, actions, bulk jobs, CSV). */
export const INVENTORY_MESSAGES = {
  field: {
    imei: (label: string) => `El campo ${label} debe tener 15 dígitos`,
    imeiCheckDigit: (label: string) => `El campo ${label} no es un IMEI válido (dígito verificador incorrecto)`,
    deviceType: (label: string) => `El campo ${label} debe ser 1 (Móvil) o 2 (TV)`,
    lockType: (label: string) => `El campo ${label} debe ser uno de: PorCredito, PorNoConexion, PorCambioSIM, SinKiosko`,
    action: (label: string) => `El campo ${label} debe ser un código de acción válido`,
    futureDate: (label: string) => `El campo ${label} debe ser una fecha futura`,
    dateTooFar: (label: string, days: number) => `El campo ${label} no puede estar a más de ${days} días`,
    date: (label: string) => `El campo ${label} debe ser una fecha y hora ISO 8601`,
    reference: (label: string) => `El campo ${label} solo admite letras, números y guiones`,
    ids: (label: string, max: number) => `El campo ${label} debe ser una lista de 1 a ${max} identificadores`,
    boolean: (label: string) => `El campo ${label} debe ser verdadero o falso`,
    selection: 'Indique los dispositivos: una lista de identificadores o un filtro, no ambos',
    filter: (label: string) => `El campo ${label} debe ser un objeto con los filtros de la lista de dispositivos`,
  },
  param: {
    status: `El parámetro ${FIELD_LABELS.deviceFilter.status} debe ser un código de estado o una entrada del filtro de estados`,
    groupId: `El parámetro ${FIELD_LABELS.deviceFilter.groupId} debe ser el id de un grupo o "none"`,
  },
  devices: {
    notFound: 'Dispositivo no encontrado',
    imeiTaken: (imei: string) => `Ya existe un dispositivo con el IMEI ${imei}`,
    groupNotFound: `El campo ${FIELD_LABELS.devices.groupId} no corresponde a un grupo existente`,
    imeiNotEditable: 'El IMEI solo se puede cambiar mientras el dispositivo está pre-enrolado',
  },
  actions: {
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
  },
  bulk: {
    tooMany: (max: number) => `Una acción masiva admite como máximo ${max.toLocaleString('es-MX')} dispositivos`,
    nothingToDo: 'Ningún dispositivo de la selección admite esta acción',
    jobNotFound: 'Trabajo no encontrado',
    failed: 'El trabajo se detuvo por un error inesperado; los lotes ya procesados se conservan y el resto no se aplicó',
    batchDetail: (action: string, done: number, skipped: number, failed: number) =>
      `${action}: ${done} realizados, ${skipped} omitidos, ${failed} fallidos`,
    /** The `resultado` column of a job's results CSV. */
    outcome: { done: 'realizado', skipped: 'omitido', failed: 'fallido' },
    resultsFileName: (id: number) => `trabajo-${id}.csv`,
  },
  groups: {
    notFound: 'Grupo no encontrado',
    nameTaken: 'Ya existe un grupo con ese nombre',
    notEmpty: (count: number) =>
      `El grupo tiene ${count === 1 ? '1 dispositivo' : `${count.toLocaleString('es-MX')} dispositivos`}; muévalos a otro grupo antes de eliminarlo`,
    moveToSelf: 'El grupo destino debe ser otro grupo',
    moveToNotFound: `El parámetro ${FIELD_LABELS.groups.moveTo} no corresponde a un grupo existente`,
  },
  csv: {
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
  },
} as const;

/** The CSV downloads (device export, audit log, job results). */
export const CSV_MESSAGES = {
  /** The header of a date-time column names the zone its values are written in: 'ultima_conexion (America/Mexico_City)'. */
  zonedColumn: (column: string, zone: string) => `${column} (${zone})`,
  /** The zone of a download that names none. */
  defaultZone: 'UTC',
} as const;

/** Refusals of the authorization rules: superiors, the last holder of a grant, device edits. */
export const AUTHZ_MESSAGES = {
  adminSuperior: (verb: 'modificar' | 'deshabilitar' | 'habilitar' | 'eliminar', what: string) =>
    `No puedes ${verb} a un administrador con permisos que tu perfil no tiene: ${what}`,
  roleSuperior: (verb: 'modificar' | 'eliminar', what: string) => `No puedes ${verb} un rol con permisos que tu perfil no tiene: ${what}`,
  apiKeySuperior: (verb: 'revocar', what: string) => `No puedes ${verb} una clave de API con permisos que tu perfil no tiene: ${what}`,
  lastHolder: (what: string) => `Ningún otro administrador habilitado conserva estos permisos, que no se pueden quitar: ${what}`,
  deviceIdentity: (field: DeviceFieldKey) => `El campo ${FIELD_LABELS.devices[field]} no se puede cambiar en un dispositivo enrolado`,
  deviceAssignment: 'Tu perfil no permite cambiar el cliente, la referencia de crédito ni el grupo de un dispositivo enrolado',
} as const;

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

/** Agent settings, business apps and lock-app versions (/api/v5/agent-settings). */
export const AGENT_SETTINGS_MESSAGES = {
  field: {
    boolean: (label: string) => `El campo ${label} debe ser verdadero o falso`,
    integer: (label: string, min: number, max: number) => `El campo ${label} debe ser un número entero entre ${min} y ${max}`,
    oneOf: (label: string, values: readonly string[]) => `El campo ${label} debe ser uno de: ${values.join(', ')}`,
    url: (label: string) => `El campo ${label} debe ser una dirección https válida`,
    phone: (label: string) => `El campo ${label} debe tener de 8 a 15 dígitos (puede empezar con + y llevar espacios o guiones)`,
    time: (label: string) => `El campo ${label} debe ser una hora HH:MM`,
    color: (label: string) => `El campo ${label} debe ser un color #RRGGBB`,
    logo: (label: string) => `El campo ${label} debe ser un logotipo subido al portal`,
    sha256: (label: string) => `El campo ${label} debe ser un SHA-256 de 64 caracteres hexadecimales`,
    packageName: (label: string) => `El campo ${label} debe ser un nombre de paquete Android, por ejemplo com.empresa.app`,
    version: (label: string) => `El campo ${label} debe ser la versión cargada (un número entero) o null`,
    values: 'El campo Valores debe ser un objeto con los valores de la sección',
    unknownSetting: (key: string) => `«${key}» no es un ajuste de la configuración del agente`,
    otherSetting: (label: string) => `El ajuste ${label} no pertenece a esta página ni a este tipo de dispositivo`,
    groupIds: (label: string, max: number) => `El campo ${label} debe ser una lista de como máximo ${max} grupos`,
  },
  settings: {
    conflict: 'Otro administrador guardó esta configuración mientras la editaba. Recargue la página para ver sus cambios antes de guardar.',
    groupNotFound: 'El grupo no existe',
  },
  logo: {
    empty: 'El archivo del logotipo está vacío',
    tooLarge: (kb: number) => `El logotipo no puede pesar más de ${kb} KB`,
    badType: 'El logotipo debe ser una imagen PNG o JPEG',
    svg: 'El logotipo debe ser una imagen PNG o JPEG: el SVG no se admite',
    notFound: 'El logotipo no existe: súbalo de nuevo',
  },
  businessApps: {
    notFound: 'App de negocio no encontrada',
    packageTaken: 'Ya existe una app de negocio con ese nombre de paquete',
    groupNotFound: 'Uno de los grupos no existe',
  },
  lockApp: {
    notFound: 'Versión de la app de bloqueo no encontrada',
    versionTaken: 'Ya existe esa versión de la app de bloqueo para este tipo de dispositivo',
    currentNotDeleted: 'La versión actual no se puede eliminar: marque otra como actual primero',
  },
} as const;

/** API keys, webhooks and the integration API (/api/integration/v1). */
export const INTEGRATION_MESSAGES = {
  field: {
    cidrList: (label: string) => `El campo ${label} debe ser una lista de direcciones IP o bloques CIDR`,
    cidr: (label: string, value: string) => `El campo ${label} debe ser una lista de direcciones IP o bloques CIDR; no es válido: ${value}`,
    cidrCount: (label: string, max: number) => `El campo ${label} admite como máximo ${max} bloques`,
    futureDate: (label: string) => `El campo ${label} debe ser una fecha y hora futura (ISO 8601 con zona horaria)`,
    url: (label: string) => `El campo ${label} debe ser una URL https válida`,
    events: (label: string) => `El campo ${label} debe incluir al menos un evento válido`,
    deviceRef: 'Indique el dispositivo con IMEI o con Referencia de crédito (solo uno de los dos)',
    devicesRef: 'Indique los dispositivos con IMEIs o con Referencias de crédito (solo una de las dos listas)',
    imei: (label: string) => `El campo ${label} debe tener 15 dígitos`,
    references: (label: string, max: number) => `El campo ${label} debe ser una lista de 1 a ${max} valores`,
    batch: (label: string, max: number) => `El campo ${label} debe ser una lista de 1 a ${max} dispositivos`,
  },
  apiKeys: {
    notFound: 'Clave de API no encontrada',
    nameTaken: 'Ya existe una clave de API activa con ese nombre',
    roleNotFound: 'El rol no existe',
    beyondCreator: (grants: string) => `No puede crear una clave con permisos que usted no tiene: ${grants}`,
    alreadyRevoked: 'La clave de API ya está revocada',
    missing: 'Falta la clave de API: envíe el encabezado Authorization: Bearer <clave>',
    invalid: 'La clave de API no es válida',
    revoked: 'La clave de API fue revocada',
    expired: 'La clave de API venció',
    ipRefused: (ip: string) => `La clave de API no se puede usar desde la dirección ${ip}`,
    creatorDisabled: 'La clave de API no tiene permisos: el administrador que la creó está desactivado o fue eliminado',
    rateLimited: (seconds: number) => `Demasiadas solicitudes con esta clave de API: espere ${seconds} s`,
    roleInUse: (n: number) => `El rol lo usan ${n} clave(s) de API activas: revóquelas o cámbielas de rol primero`,
  },
  webhooks: {
    notFound: 'Suscripción de webhook no encontrada',
    deliveryNotFound: 'Entrega de webhook no encontrada',
    urlRefused: 'La URL apunta a una dirección local o privada: no se permite en producción',
    disabledFailing: 'Desactivada: las entregas fallaron durante 24 horas',
    urlUnresolved: (host: string) => `No se pudo resolver el servidor de la URL (${host}): revise el nombre`,
  },
  integration: {
    notFound: 'Ruta no encontrada en la API de integración',
    deviceNotFound: 'No hay ningún dispositivo con ese IMEI o referencia de crédito',
    ambiguous: (n: number) => `La referencia de crédito corresponde a ${n} dispositivos: indique el IMEI`,
    commandNotFound: 'Comando no encontrado',
    jobNotFound: 'Acción masiva no encontrada',
    noneFound: 'Ninguno de los dispositivos indicados existe',
  },
} as const;

/** Texts of the credits API (the integration's and the portal's): field errors, refusals, the export. */
export const CREDIT_MESSAGES = {
  field: {
    reference: (label: string, max: number) => `El parámetro ${label} debe ser un texto de 1 a ${max} caracteres`,
    amount: (label: string) =>
      `El campo ${label} debe ser un importe mayor que cero con hasta dos decimales, escrito como texto (por ejemplo "1250.00")`,
    threshold: (label: string) =>
      `El campo ${label} debe ser un importe de 0 a 1000000.00 con hasta dos decimales, sin separadores de miles (por ejemplo "500.00")`,
    currency: (label: string) => `El campo ${label} debe ser un código de moneda ISO 4217 de tres letras mayúsculas, por ejemplo MXN`,
    phone: (label: string) => `El campo ${label} debe ser un teléfono de 10 a 15 dígitos (se admiten +, espacios, guiones y paréntesis)`,
    boolean: (label: string) => `El campo ${label} debe ser verdadero o falso`,
    installments: (label: string, max: number) => `El campo ${label} debe ser una lista de 1 a ${max} cuotas`,
    installment: (label: string) => `El campo ${label} debe ser una cuota: un objeto con number, dueDate y amount`,
    number: (label: string, expected: number) => `El campo ${label} debe ser ${expected}: las cuotas se numeran desde 1, en orden y sin huecos`,
    dueDate: (label: string, min: string, max: string) => `El campo ${label} debe ser una fecha AAAA-MM-DD real entre ${min} y ${max}`,
    dueDateOrder: (label: string) => `El campo ${label} debe ser posterior a la fecha de vencimiento de la cuota anterior`,
    imeis: (label: string, max: number) => `El campo ${label} debe ser una lista de como máximo ${max} IMEIs`,
    imeiRepeated: (label: string, imei: string) => `El campo ${label} repite el IMEI ${imei}`,
    externalId: (label: string, max: number) => `El campo ${label} debe tener de 1 a ${max} caracteres visibles, sin espacios`,
    instant: (label: string, min: string) => `El campo ${label} debe ser una fecha y hora ISO 8601 con zona horaria, posterior a ${min}`,
    future: (label: string) => `El campo ${label} no puede ser posterior a la hora actual`,
    integer: (label: string, min: number, max: number) => `El campo ${label} debe ser un número entero entre ${min} y ${max}`,
    object: (label: string) => `El campo ${label} debe ser un objeto con los campos documentados`,
    list: (label: string, max: number) => `El campo ${label} debe ser una lista de como máximo ${max} elementos`,
    oneOf: (label: string, values: readonly string[]) => `El campo ${label} debe ser uno de: ${values.join(', ')}`,
    time: (label: string) => `El campo ${label} debe ser una hora HH:MM de 00:00 a 23:59`,
    hoursOrder: (from: string, to: string) => `El campo ${to} debe ser posterior al campo ${from}`,
    calendarDate: (label: string) => `El campo ${label} debe ser una fecha AAAA-MM-DD real`,
    unknownKeys: (keys: readonly string[]) => `Campos desconocidos: ${keys.join(', ')}`,
    version: (label: string) => `El campo ${label} debe ser la versión cargada (un número entero) o null`,
    pauseFuture: (label: string) => `El campo ${label} debe ser hoy o una fecha posterior`,
  },
  collection: {
    conflict: 'Otro administrador guardó la política de cobranza mientras la editaba. Recargue la página para ver sus cambios antes de guardar.',
    groupNotFound: 'Grupo no encontrado',
    approvalNotFound: 'Solicitud de liberación no encontrada',
    approvalDecided: 'La solicitud de liberación ya fue resuelta',
    notPaused: 'La cobranza de este crédito no está pausada',
  },
  credits: {
    notFound: 'Crédito no encontrado',
    cancelled: 'El crédito está cancelado: no admite pagos',
    deviceNotFound: (imei: string) => `No hay ningún dispositivo con el IMEI ${imei}`,
    deviceOfOtherCredit: (imei: string, reference: string) => `El dispositivo con IMEI ${imei} pertenece al crédito ${reference}`,
    paymentNotFound: 'Pago no encontrado',
    paymentConflict: (externalId: string) => `El pago ${externalId} ya se registró con otros datos (importe o fecha de pago)`,
    alreadyReversed: (externalId: string) => `El pago ${externalId} ya fue revertido`,
    csvColumns: [
      'referencia',
      'cliente',
      'moneda',
      'estado',
      'dias_atraso',
      'importe_vencido',
      'proximo_vencimiento',
      'importe_proximo',
      'saldo',
      'total',
      'pagado',
      'dispositivos',
      'alta',
    ],
    exportFileName: (day: string) => `creditos-${day}.csv`,
  },
  reconciliation: {
    csvColumns: ['tipo', 'referencia', 'imei', 'cliente', 'detalle', 'dias_atraso', 'dia_bloqueo', 'liberado', 'ultimo_reporte'],
    exportFileName: (day: string) => `conciliacion-${day}.csv`,
  },
  /** The CSV import of schedules and payments: each error names the column as the file's header does. */
  csvImport: {
    required: (column: string) => `La columna ${column} es obligatoria`,
    amount: (column: string) =>
      `La columna ${column} debe ser un importe mayor que cero con hasta dos decimales, por ejemplo 1250.00, 1,250.00 o $1,250.00`,
    date: (column: string, min: string, max: string) => `La columna ${column} debe ser una fecha real AAAA-MM-DD o DD/MM/AAAA entre ${min} y ${max}`,
    instant: (column: string, min: string) =>
      `La columna ${column} debe ser una fecha y hora ISO 8601 o DD/MM/AAAA HH:MM (hora local), posterior a ${min}`,
    number: (column: string) => `La columna ${column} debe ser un número de cuota entero, desde 1`,
    numberRepeated: (column: string, line: number) => `La columna ${column} repite la cuota de la fila ${line} de la misma referencia`,
    differs: (column: string, line: number) => `La columna ${column} difiere de la fila ${line} de la misma referencia`,
    templateFileName: (kind: 'schedules' | 'payments') => (kind === 'schedules' ? 'plantilla-calendarios.csv' : 'plantilla-pagos.csv'),
  },
} as const;
