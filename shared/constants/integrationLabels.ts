/**
 * Spanish texts of the lender's integration pages: 'Claves de API' (/admin-settings/api-keys) and
 * 'Webhooks' (/admin-settings/webhooks). The forms' field labels are FIELD_LABELS.apiKeys and
 * FIELD_LABELS.webhooks (the API's messages name fields by them); the API's own texts are
 * INTEGRATION_MESSAGES (shared/messages.ts).
 */
import { WEBHOOK_DELIVERY_STATUSES, WEBHOOK_EVENTS, WEBHOOK_RETRY_HOURS } from './integration';
import { count } from './spanishNumbers';

/** The Spanish name of a webhook event type (the type itself when unknown). */
export function webhookEventLabel(type: string): string {
  return WEBHOOK_EVENTS.find((e) => e.type === type)?.label ?? type;
}

/** The Spanish name of a delivery status (the key itself when unknown). */
export function deliveryStatusLabel(status: string): string {
  return WEBHOOK_DELIVERY_STATUSES.find((s) => s.key === status)?.label ?? status;
}

export const INTEGRATION_LABELS = {
  common: {
    by: (who: string) => `por ${who}`,
    never: 'Nunca',
    close: 'Cerrar',
    copy: 'Copiar',
    copyOf: (what: string) => `Copiar ${what}`,
    copied: (what: string) => `${what} copiada al portapapeles`,
    secretOnce: 'Copie la clave ahora: no se volverá a mostrar',
    secretUnderstood: 'Ya la copié, cerrar',
  },

  apiKeys: {
    create: 'Nueva clave',
    createTitle: 'Nueva clave de API',
    caption: 'Claves de API',
    loading: 'Cargando claves de API',
    intro:
      'Las claves de API permiten que el sistema de créditos del financiador consulte y bloquee dispositivos por la API de integración. Cada clave actúa con los permisos del rol que se le asigna.',
    empty: 'Aún no hay claves de API',
    emptyHelp: 'Cree una clave para que su sistema de créditos se conecte con la API de integración.',
    columns: {
      name: 'Nombre',
      prefix: 'Prefijo',
      role: 'Rol',
      state: 'Estado',
      allowedIps: 'IPs permitidas',
      expiresAt: 'Vence',
      lastUsed: 'Último uso',
      created: 'Creada',
    },
    states: { active: 'Activa', expired: 'Vencida', revoked: 'Revocada' },
    anyIp: 'Cualquiera',
    noExpiry: 'Sin vencimiento',
    neverUsed: 'Nunca usada',
    fromIp: (ip: string) => `desde ${ip}`,
    revokedBy: (who: string, when: string) => `Revocada por ${who} el ${when}`,
    revoke: 'Revocar',
    revokeOf: (name: string) => `Revocar la clave ${name}`,
    revokeTitle: 'Revocar clave de API',
    confirmRevoke: (name: string, prefix: string) =>
      `¿Revocar la clave ${name} (${prefix})? Las solicitudes que la usen se rechazarán de inmediato; esto no se puede deshacer.`,
    revokedDone: (name: string) => `Clave ${name} revocada`,
    /** A key whose role holds more than the caller: shown, not revocable (as administrators with more grants). */
    notManageable: 'Solo lectura: su rol tiene permisos que usted no tiene',
    createdDone: (name: string) => `Clave ${name} creada`,
    // The form
    rolePlaceholder: 'Seleccione el rol',
    rolesLoading: 'Cargando roles...',
    rolesError: 'No se pudieron cargar los roles',
    roleHelp: 'La clave podrá hacer lo mismo que un administrador con este rol.',
    notGrantable: 'Tiene permisos que usted no tiene',
    roleOption: (name: string, grantable: boolean) => (grantable ? name : `${name} — Tiene permisos que usted no tiene`),
    someNotGrantable: (n: number) =>
      n === 1
        ? 'Un rol aparece desactivado: tiene permisos que usted no tiene.'
        : `${count(n)} roles aparecen desactivados: tienen permisos que usted no tiene.`,
    allowedIpsHelp:
      'Una dirección IP o bloque CIDR por línea o separados por comas (p. ej. 203.0.113.10 o 198.51.100.0/24). Vacío: se acepta desde cualquier dirección.',
    allowedIpsPlaceholder: '203.0.113.10\n198.51.100.0/24',
    expiresHelpEmpty: 'Sin vencimiento: la clave funciona hasta que se revoque.',
    expiresHelpSet: 'La clave dejará de funcionar en esa fecha y hora (hora de este equipo).',
    // The secret, shown once
    secretTitle: 'Clave de API creada',
    secretFor: (name: string) => `Esta es la clave ${name}. Guárdela en el sistema que la usará:`,
    secretLabel: 'Clave de API',
    curlTitle: 'Ejemplo de uso',
    curlHelp: 'Consulta un dispositivo por su IMEI (reemplace los puntos suspensivos):',
    curlLabel: 'Ejemplo de curl',
  },

  webhooks: {
    create: 'Nuevo webhook',
    createTitle: 'Nueva suscripción de webhook',
    editTitle: 'Editar suscripción de webhook',
    caption: 'Suscripciones de webhook',
    loading: 'Cargando suscripciones de webhook',
    intro:
      'Los webhooks avisan a su sistema de lo que pasa en los dispositivos: el portal envía un POST firmado a la URL de cada suscripción con los eventos elegidos y reintenta durante 24 horas si su sistema no responde.',
    empty: 'Aún no hay suscripciones de webhook',
    emptyHelp: 'Cree una suscripción para recibir los eventos de los dispositivos en su sistema.',
    columns: {
      name: 'Nombre',
      url: 'URL',
      events: 'Eventos',
      state: 'Estado',
      pending: 'Pendientes',
      lastDelivery: 'Última entrega',
    },
    states: { enabled: 'Activa', disabled: 'Desactivada' },
    disabledFailing: `Desactivada: las entregas fallaron durante ${WEBHOOK_RETRY_HOURS} horas`,
    failingSince: (when: string) => `Las entregas fallan desde ${when}`,
    failingHelp: 'Revise que su sistema responda con un código 2xx y reactívela.',
    noDelivery: 'Sin entregas',
    edit: 'Editar',
    editOf: (name: string) => `Editar el webhook ${name}`,
    delete: 'Eliminar',
    deleteOf: (name: string) => `Eliminar el webhook ${name}`,
    deleteTitle: 'Eliminar suscripción de webhook',
    confirmDelete: (name: string, url: string) =>
      `¿Eliminar la suscripción ${name} (${url})? Se dejarán de enviar sus eventos, también los pendientes.`,
    deletedDone: (name: string) => `Webhook ${name} eliminado`,
    createdDone: (name: string) => `Webhook ${name} creado`,
    updatedDone: (name: string) => `Webhook ${name} actualizado`,
    reactivate: 'Reactivar',
    reactivateOf: (name: string) => `Reactivar el webhook ${name}`,
    reactivatedDone: (name: string) => `Webhook ${name} reactivado`,
    deliveries: 'Entregas',
    deliveriesOf: (name: string) => `Ver las entregas del webhook ${name}`,
    // The form
    urlPlaceholder: 'https://',
    urlHelp: 'La dirección https de su sistema que recibirá los eventos (POST con JSON).',
    eventsHelp: 'Elija al menos un evento.',
    allEvents: 'Todos los eventos',
    enabledHelp: 'Desactivada, no se envían eventos.',
    reenableNote: 'Al guardarla activa, se reanudan las entregas.',
    // The secret, shown once
    secretTitle: 'Webhook creado',
    secretFor: (name: string) => `Este es el secreto de firma del webhook ${name}. Guárdelo en el sistema que recibirá los eventos:`,
    secretLabel: 'Secreto de firma',
    secretOnce: 'Copie el secreto ahora: no se volverá a mostrar',
    verifyTitle: 'Cómo verificar la firma',
    verifyText:
      'Cada entrega sigue el estándar Standard Webhooks: lleva los encabezados webhook-id, webhook-timestamp y webhook-signature. Verifique la firma con este secreto (por ejemplo con la biblioteca standardwebhooks) y rechace las entregas cuya firma no coincida o cuya hora sea antigua.',
    // The delivery log
    deliveriesTitle: (name: string) => `Entregas del webhook ${name}`,
    deliveriesCaption: 'Entregas del webhook',
    deliveriesLoading: 'Cargando entregas',
    deliveriesEmpty: 'No hay entregas',
    deliveriesEmptyFiltered: 'No hay entregas con ese estado',
    statusFilter: 'Estado de la entrega',
    allStatuses: 'Todos los estados',
    refresh: 'Actualizar',
    deliveryColumns: {
      event: 'Evento',
      occurredAt: 'Fecha',
      status: 'Estado',
      attempts: 'Intentos',
      responseStatus: 'Código de respuesta',
      duration: 'Duración (ms)',
      error: 'Error',
      nextAttempt: 'Próximo intento',
    },
    noNextAttempt: 'Ninguno',
    resend: 'Reenviar',
    resendOf: (event: string, when: string) => `Reenviar la entrega ${event} del ${when}`,
    resentDone: 'Entrega reenviada: se enviará de nuevo en unos segundos',
    payload: 'Ver contenido',
    payloadOf: (event: string, when: string) => `Ver el contenido de la entrega ${event} del ${when}`,
    payloadHide: 'Ocultar contenido',
    payloadTitle: (event: string, when: string) => `Contenido de ${event} (${when})`,
    deliveriesPager: { perPage: 'Entregas por página', pagination: 'Paginación de las entregas' },
  },
} as const;
