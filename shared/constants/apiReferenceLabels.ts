/**
 * Spanish texts of the integration API's reference: the notes the OpenAPI document's
 * description is written from (shared/contracts/openapi.ts) and the labels of the portal page
 * that shows it (client/features/integration/ApiReferencePage.tsx). Zod-free.
 */

/** Where the portal serves the OpenAPI document (INTEGRATION_BASE + '/openapi.json'; openapi.test.ts checks it). */
export const OPENAPI_DOCUMENT_PATH = '/api/integration/v1/openapi.json';

/** One general note: a title and its paragraphs (a paragraph may hold `code` in backquotes). */
export interface ApiReferenceNote {
  id: string;
  title: string;
  paragraphs: readonly string[];
}

/** What every call shares: authentication, idempotency, rate limit, errors. */
export const API_REFERENCE_NOTES: readonly ApiReferenceNote[] = [
  {
    id: 'autenticacion',
    title: 'Autenticación',
    paragraphs: [
      'Cada solicitud lleva el encabezado `Authorization: Bearer <clave>` con una clave de API (`mlk_…`) creada en la página Claves de API del portal (Configuración de administradores). La clave se muestra una sola vez al crearla.',
      'La clave actúa con los permisos de su rol (nunca más que los que tiene hoy quien la creó); puede limitarse a direcciones IP o bloques CIDR y tener fecha de vencimiento. Una clave ausente, inválida, revocada o vencida recibe 401; una acción que el rol no permite, o una dirección IP no permitida, recibe 403.',
    ],
  },
  {
    id: 'idempotencia',
    title: 'Idempotencia',
    paragraphs: [
      'Las operaciones que actúan sobre dispositivos (`POST /commands`, `POST /jobs`) aceptan el encabezado `Idempotency-Key` (de 1 a 200 caracteres ASCII visibles, p. ej. un UUID). Un reintento con la misma clave y el mismo cuerpo no vuelve a actuar: responde la primera respuesta con el encabezado `Idempotent-Replayed: true`.',
      'La misma clave con otro cuerpo u otra ruta responde 409 con el código `IDEMPOTENCY_MISMATCH`. Las claves son de cada clave de API.',
    ],
  },
  {
    id: 'limite',
    title: 'Límite de solicitudes',
    paragraphs: [
      'Cada clave de API tiene un límite de solicitudes por minuto (600 por omisión; lo configura el operador del portal). Al superarlo se responde 429 con el encabezado `Retry-After` (segundos que hay que esperar).',
    ],
  },
  {
    id: 'errores',
    title: 'Errores',
    paragraphs: [
      'Todo error responde JSON `{ "code", "message", "field"? }`: `code` es estable (p. ej. `VALIDATION`, `DEVICE_NOT_FOUND`, `IDEMPOTENCY_MISMATCH`) y es lo que debe leer su sistema; `message` es un texto en español para personas; `field`, cuando el error se refiere a un dato, es su ruta (`device.imei`, `devices.3.imei`, `page`).',
      'Estados: 400 datos no válidos, 401 sin clave válida, 403 sin permiso, 404 no encontrado, 409 conflicto con el estado del dispositivo o con otra solicitud, 429 demasiadas solicitudes.',
    ],
  },
  {
    id: 'webhooks',
    title: 'Webhooks',
    paragraphs: [
      'Las suscripciones se crean en la página Webhooks del portal. Cada evento se envía por POST con el cuerpo `{ "type", "timestamp", "data" }`, firmado según Standard Webhooks: encabezados `webhook-id`, `webhook-timestamp` y `webhook-signature` (HMAC-SHA256 con el secreto `whsec_…` de la suscripción).',
      'La entrega es al menos una vez (descarte los duplicados por `webhook-id`), en orden por dispositivo y por crédito, con reintentos durante 24 horas; una suscripción que falla 24 horas seguidas se desactiva. Responda con un estado 2xx para confirmar la recepción.',
    ],
  },
];

/** The labels of the reference page. */
export const API_REFERENCE_LABELS = {
  intro:
    'La API de integración permite al sistema de créditos registrar dispositivos, consultarlos y actuar sobre ellos (bloquear, desbloquear, liberar, notificar, códigos offline) sin usar el portal.',
  baseUrl: 'URL base',
  version: 'Versión',
  download: 'Descargar openapi.json',
  contents: 'Contenido',
  general: 'General',
  operations: 'Operaciones',
  webhooks: 'Eventos de webhook',
  loadError: 'No se pudo cargar la referencia de la API',
  requires: 'Permiso necesario',
  idempotent: 'Acepta Idempotency-Key',
  parameters: 'Parámetros',
  paramName: 'Nombre',
  paramType: 'Tipo',
  paramDescription: 'Descripción',
  paramLocations: { query: 'consulta', path: 'ruta', header: 'encabezado', cookie: 'cookie' } as Record<string, string>,
  requestBody: 'Cuerpo de la solicitud',
  showRequestBody: 'Ver el cuerpo de la solicitud',
  hideRequestBody: 'Ocultar el cuerpo de la solicitud',
  responses: 'Respuestas',
  responseBody: 'Ver el cuerpo de la respuesta',
  hideResponseBody: 'Ocultar el cuerpo de la respuesta',
  status: 'Estado',
  required: 'obligatorio',
  optional: 'opcional',
  nullable: 'o null',
  values: 'Valores',
  defaultValue: 'Por omisión',
  pattern: 'Formato',
  length: (min: number | undefined, max: number | undefined) =>
    min !== undefined && max !== undefined
      ? `de ${min} a ${max} caracteres`
      : max !== undefined
        ? `hasta ${max} caracteres`
        : `al menos ${min} caracteres`,
  items: (min: number | undefined, max: number | undefined) =>
    min !== undefined && max !== undefined
      ? `de ${min} a ${max} elementos`
      : max !== undefined
        ? `hasta ${max} elementos`
        : `al menos ${min} elementos`,
  range: (min: number | undefined, max: number | undefined) =>
    min !== undefined && max !== undefined ? `de ${min} a ${max}` : max !== undefined ? `hasta ${max}` : `desde ${min}`,
  oneOf: 'Una de estas formas',
  exactlyOne: (names: readonly string[]) => `Indique exactamente uno: ${names.join(' o ')}`,
  variant: (n: number) => `Forma ${n}`,
  anyValue: 'cualquier valor',
  types: {
    string: 'texto',
    integer: 'entero',
    number: 'número',
    boolean: 'booleano',
    object: 'objeto',
    array: 'lista',
    null: 'null',
  } as Record<string, string>,
  formats: { 'date-time': 'fecha y hora ISO 8601' } as Record<string, string>,
  listOf: (type: string) => `lista de ${type}`,
  headers: 'Encabezados',
  payload: 'Contenido del evento',
  event: 'Evento',
  verifyTitle: 'Cómo verificar la firma',
  verifyIntro:
    'Verifique cada entrega con la biblioteca standardwebhooks (Node) y el secreto whsec_… de la suscripción, sobre el cuerpo tal como llegó (sin volver a serializarlo):',
  verifySnippet: [
    "import { Webhook } from 'standardwebhooks';",
    '',
    'const wh = new Webhook(process.env.MACROLOCK_WEBHOOK_SECRET); // whsec_…',
    '// rawBody: el cuerpo sin procesar (string o Buffer); headers: los encabezados recibidos',
    'const event = wh.verify(rawBody, {',
    "  'webhook-id': headers['webhook-id'],",
    "  'webhook-timestamp': headers['webhook-timestamp'],",
    "  'webhook-signature': headers['webhook-signature'],",
    '}); // lanza un error si la firma o la hora no son válidas',
    '// Descarte los duplicados por webhook-id y responda 2xx.',
  ].join('\n'),
  noParameters: 'Sin parámetros',
} as const;
