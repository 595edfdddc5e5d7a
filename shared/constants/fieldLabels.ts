/**
 * The Spanish label of every input the API validates, by resource and path: what the validation
 * messages call a field ('El campo Nombre no puede estar vacío', 'El parámetro Página …'), on the
 * server and under the field in the page. An error answer keeps the path itself in `field`
 * (`name`, `sim.iccid`) for forms and clients to place the message.
 */

import { COLLECTION_POLICY_FIELD_LABELS } from './collectionPolicyFieldLabels';

const paging = { page: 'Página', perPage: 'Resultados por página' } as const;
const sorting = { sort: 'Orden', order: 'Sentido del orden' } as const;

const device = {
  imei: 'IMEI',
  imei2: 'IMEI 2',
  serial: 'Número de serie',
  deviceType: 'Tipo',
  brand: 'Marca',
  model: 'Modelo',
  groupId: 'Grupo',
  customerName: 'Cliente',
  creditReference: 'Referencia de crédito',
} as const;

export const FIELD_LABELS = {
  agentSettings: { version: 'Versión', values: 'Valores', groupId: 'Grupo', logo: 'Logotipo' },
  businessApps: {
    name: 'Nombre',
    packageName: 'Nombre de paquete',
    versionName: 'Nombre de versión',
    versionCode: 'Código de versión',
    appType: 'Tipo de app',
    downloadUrl: 'URL de descarga',
    sha256: 'SHA-256',
    groupIds: 'Grupos',
  },
  lockApp: {
    versionName: 'Nombre de versión',
    versionApp: 'Versión',
    appType: 'Tipo de app',
    packageName: 'Nombre de paquete',
    downloadUrl: 'URL de descarga',
    sha256: 'SHA-256',
    releaseNotes: 'Notas de la versión',
  },
  /** Route parameters of every resource (`/:id`). */
  params: { id: 'Id' },
  paging,
  admins: { correo: 'Correo', nombres: 'Nombres', apellidos: 'Apellidos', profileId: 'Perfil' },
  adminsQuery: { search: 'Búsqueda', profileId: 'Perfil', enabled: 'Estado', ...sorting },
  roles: { nombre: 'Nombre', paths: 'Páginas', actions: 'Acciones' },
  groups: { name: 'Nombre', description: 'Descripción', moveTo: 'Grupo destino' },
  devices: device,
  deviceFilter: {
    stage: 'Etapa',
    status: 'Estado',
    deviceType: 'Tipo',
    groupId: 'Grupo',
    search: 'Búsqueda',
    inFlight: 'Comando en curso',
    locked: 'Bloqueado o bloqueando',
    agentVersion: 'Versión del agente',
    agentVersionNot: 'Versión del agente excluida',
    releasedFrom: 'Liberado desde',
    ...sorting,
  },
  /** Device actions and their payloads (POST /v5/devices/:id/actions, bulk actions). */
  actions: {
    action: 'Acción',
    lockType: 'Tipo de bloqueo',
    lockMessage: 'Mensaje en la pantalla de bloqueo',
    stolen: 'Reportado como robado',
    collectionRestrictions: 'Restricciones de cobranza',
    persistent: 'Persistente (el cliente debe confirmar que lo leyó)',
    until: 'Hasta',
    validUntil: 'Válido hasta',
    title: 'Título',
    message: 'Mensaje',
    reference: 'Referencia de pago',
    commandId: 'Comando',
  },
  bulk: { selection: 'Selección', ids: 'Dispositivos', filter: 'Filtro', payload: 'Acción' },
  audit: { actor: 'Actor', entity: 'Entidad', entityId: 'Id de entidad', action: 'Acción', outcome: 'Resultado', from: 'Desde', to: 'Hasta' },
  /** Registration from CSV (`mode`) and CSV downloads (`tz`: the browser's time zone). */
  csv: { mode: 'Modo', tz: 'Zona horaria', kind: 'Tipo de archivo' },
  dashboard: { tz: 'Zona horaria' },
  enrollmentTokens: { groupId: 'Grupo', deviceId: 'Dispositivo', validHours: 'Vigencia del código' },
  /** The device agent's API (/agent/v1). */
  agent: {
    ...device,
    enrollmentToken: 'Token de enrolamiento',
    osVersion: 'Versión del sistema',
    agentVersion: 'Versión del agente',
    sim: 'SIM',
    simIccid: 'ICCID de la SIM',
    simCarrier: 'Operador de la SIM',
    wait: 'Espera',
    batteryLevel: 'Nivel de batería',
    lockState: 'Estado de bloqueo',
    reason: 'Motivo',
    commandId: 'Comando',
    type: 'Tipo de evento',
    code: 'Código offline',
    lockType: 'Tipo de bloqueo',
    detail: 'Detalle',
    publicKey: 'Clave pública',
    redeemedAt: 'Fecha de uso',
  },
  users: { correo: 'Correo' },
  apiKeys: { name: 'Nombre', profileId: 'Rol', allowedIps: 'IPs permitidas', expiresAt: 'Vencimiento' },
  webhooks: { name: 'Nombre', url: 'URL', events: 'Eventos', enabled: 'Activa', status: 'Estado' },
  /** A credit and its schedule (PUT /api/integration/v1/credits/{reference}). */
  credits: {
    reference: 'Referencia de crédito',
    customerName: 'Cliente',
    customerPhone: 'Teléfono del cliente',
    currency: 'Moneda',
    cancelled: 'Cancelado',
    imeis: 'IMEIs',
    installments: 'Cuotas',
    number: 'Número de cuota',
    dueDate: 'Fecha de vencimiento',
    amount: 'Importe de la cuota',
  },
  /** The collection policy (Política de cobranza), the pause of a credit, the release approvals. */
  collectionPolicy: COLLECTION_POLICY_FIELD_LABELS,
  /** A payment of a credit and its reversal. */
  payments: { externalId: 'Id externo del pago', amount: 'Importe del pago', paidAt: 'Fecha de pago' },
  /** The credit portfolio's list, summary and export. */
  creditFilter: {
    state: 'Estado',
    overdue: 'Días de atraso',
    dueThisWeek: 'Vence esta semana',
    paidToday: 'Con pago hoy',
    groupId: 'Grupo',
    search: 'Búsqueda',
    ...sorting,
  },
  /** Conciliación's filter (GET /v5/credits/reconciliation and the integration API's). */
  reconciliation: {
    kind: 'Tipo',
  },
  /** The integration API (/api/integration/v1). */
  integration: {
    imei: 'IMEI',
    creditReference: 'Referencia de crédito',
    devices: 'Dispositivos',
    imeis: 'IMEIs',
    creditReferences: 'Referencias de crédito',
    payload: 'Acción',
  },
} as const;

/** The field of a device that an enrolled device's edit may not change, by its label. */
export type DeviceFieldKey = keyof typeof device;
