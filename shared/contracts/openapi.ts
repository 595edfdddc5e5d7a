/**
 * The OpenAPI 3.1 document of the integration API, generated from INTEGRATION_ROUTES and their
 * zod schemas: request bodies and parameters from the schemas' input side (what a client sends),
 * responses from their output side (what the server answers). What JSON Schema cannot say of a
 * zod schema (transforms, refinements, z.custom) is said here instead: the IMEI's 15 digits,
 * dates as date-time strings, the "exactly one of" of a device reference, the codes a custom
 * schema accepts. The webhooks section describes every event a subscription can receive (data
 * shapes: the triggers of migration 0015). Served unauthenticated at INTEGRATION_BASE/openapi.json.
 */
import * as z from 'zod';
import { API_REFERENCE_LABELS, API_REFERENCE_NOTES } from '../constants/apiReferenceLabels';
import { DEVICE_ACTIONS } from '../constants/deviceActions';
import { DEVICE_STATUSES, DEVICE_TYPES, LOCK_TYPES } from '../constants/domain';
import { API_KEY_TAG, WEBHOOK_EVENTS, WEBHOOK_RETRY_HOURS, type WebhookEventType } from '../constants/integration';
import { collectionStepEvent, creditOverdueEvent, paymentResultResponse, reconciliationSummaryEvent } from './credits';
import { COMMAND_STATUSES } from './deviceActions';
import { deviceResponse } from './devices';
import { INTEGRATION_BASE } from '../constants/apiPaths';
import { INTEGRATION_ROUTES, deviceRef, integrationBulkBody, integrationErrorBody } from './integration';
import { JOB_STATUSES } from './jobs';

/** The version of the integration API's contract (the `v1` of its base path). */
export const INTEGRATION_API_VERSION = '1.0.0';

type Json = Record<string, unknown>;
type Io = 'input' | 'output';

const ACTION_CODES: readonly number[] = DEVICE_ACTIONS.map((a) => a.code);
const actionList = DEVICE_ACTIONS.map((a) => `${a.code} ${a.label}`).join(', ');
const statusList = DEVICE_STATUSES.map((s) => `${s.code} ${s.label}`).join(', ');
const deviceTypeList = DEVICE_TYPES.map((t) => `${t.code} ${t.label}`).join(', ');

const IMEI_PATTERN = '^\\d{15}$';
const IMEI_TEXT = 'IMEI de 15 dígitos (se ignoran espacios y guiones)';

/** Spanish descriptions of the fields the schemas share, by property name. */
const FIELD_DESCRIPTIONS: Record<string, string> = {
  imei: IMEI_TEXT,
  imei2: `Segundo IMEI (equipos con dos SIM): ${IMEI_TEXT}; vacío o null si no hay`,
  imeis: 'IMEIs de los dispositivos',
  creditReference: 'Referencia del crédito en su sistema',
  creditReferences: 'Referencias de crédito de los dispositivos',
  device: 'El dispositivo, nombrado por IMEI o por referencia de crédito (solo uno de los dos)',
  payload: 'La acción y sus datos',
  action: `Código de acción: ${actionList}`,
  lockType: `Tipo de bloqueo: ${LOCK_TYPES.map((t) => `${t.key} (${t.label})`).join(', ')}`,
  stolen: 'Reportado como robado',
  until: 'Fecha y hora (ISO 8601 con zona horaria), futura y dentro de 90 días',
  deviceType: `Tipo de dispositivo: ${deviceTypeList}`,
  status: 'Estado',
  groupId: 'Grupo de dispositivos (id del portal)',
  page: 'Página, desde 1',
  perPage: 'Resultados por página',
  notFound: 'Referencias que no corresponden a ningún dispositivo (no forman parte de la acción masiva)',
  offlineCode: 'El código offline: se devuelve una sola vez, aquí',
  reference: 'Referencia del crédito (la que llevan sus dispositivos como Referencia de crédito); sin distinguir mayúsculas',
  customerName: 'Nombre del cliente',
  customerPhone: 'Teléfono del cliente: de 10 a 15 dígitos, + opcional; null si no hay',
  currency: 'Moneda, código ISO 4217 (MXN por omisión)',
  cancelled: 'Crédito cancelado: no admite pagos ni tiene importes vencidos',
  installments: 'Cuotas numeradas desde 1, en orden, con fechas de vencimiento crecientes',
  number: 'Número de cuota',
  dueDate: 'Fecha de vencimiento AAAA-MM-DD (zona horaria de la empresa)',
  amount: 'Importe como texto decimal con dos decimales, p. ej. "1250.00"',
  externalId: 'Id del pago en su sistema: el mismo id nunca se aplica dos veces a un crédito',
  paidAt: 'Cuándo se pagó (ISO 8601 con zona horaria); no posterior a la hora del servidor',
  daysOverdue: 'Días desde el vencimiento de la cuota impagada más antigua (0 si no hay atraso)',
  amountOverdue: 'Lo impagado de las cuotas vencidas antes de hoy',
  nextDueDate: 'Vencimiento de la próxima cuota no pagada por completo (hoy o después)',
  nextDueAmount: 'Lo que falta pagar de esa cuota',
  balance: 'Saldo: lo que falta pagar',
  source: 'Origen del pago: integration, csv o portal',
};

/** `name` ends like a stored instant (the server answers ISO 8601 in UTC). */
const isInstantName = (name: string) => /(At|Until)$/.test(name) || name === 'until' || name === 'timestamp';

const SAFE = Number.MAX_SAFE_INTEGER;

function asArray(type: unknown): string[] {
  return Array.isArray(type) ? (type as string[]) : typeof type === 'string' ? [type] : [];
}

/**
 * Tidies one generated schema, recursively: no `$schema`, no safe-integer bounds (noise), integer
 * constants as integers, date-time formats, the IMEI pattern, descriptions of known fields.
 * `name` is the property the schema is the value of.
 */
function tidy(schema: unknown, io: Io, name?: string, describe = true): unknown {
  if (Array.isArray(schema)) return schema.map((s) => tidy(s, io, name, describe));
  if (schema === null || typeof schema !== 'object') return schema;
  const s: Json = { ...(schema as Json) };
  delete s.$schema;
  if (s.minimum === -SAFE) delete s.minimum;
  if (s.maximum === SAFE) delete s.maximum;
  if (s.type === 'number' && typeof s.const === 'number' && Number.isInteger(s.const)) s.type = 'integer';
  // An action payload's variant: titled with the action's name.
  const props = s.properties as Record<string, Json> | undefined;
  const actionConst = props?.action?.const;
  if (typeof actionConst === 'number' && ACTION_CODES.includes(actionConst)) {
    s.title = `${actionConst} — ${DEVICE_ACTIONS.find((a) => a.code === actionConst)!.label}`;
  }
  // A variant of a property keeps its format and pattern; the property itself holds the description.
  for (const key of ['anyOf', 'oneOf', 'allOf']) if (s[key]) s[key] = tidy(s[key], io, name, false);
  if (s.items) s.items = tidy(s.items, io, name === 'imeis' ? 'imei' : undefined);
  if (props) s.properties = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, tidy(v, io, k)]));
  if (s.additionalProperties && typeof s.additionalProperties === 'object') s.additionalProperties = tidy(s.additionalProperties, io);
  if (name !== undefined) {
    const types = asArray(s.type);
    if (types.includes('string') && isInstantName(name)) s.format = 'date-time';
    if (types.includes('string') && io === 'input' && (name === 'imei' || name === 'imei2')) s.pattern = IMEI_PATTERN;
    if (describe && FIELD_DESCRIPTIONS[name] && s.description === undefined && s.const === undefined) s.description = FIELD_DESCRIPTIONS[name];
  }
  return s;
}

/** What zod says of the schemas it cannot express, filled in at generation. */
function override(ctx: { zodSchema: unknown; jsonSchema: Json }): void {
  const { zodSchema, jsonSchema: j } = ctx;
  const def = (zodSchema as { _zod: { def: { type: string; defaultValue?: unknown } } })._zod.def;
  // optionalTextField(…).default(null) and friends: null, absent or empty mean "none".
  if (def.type === 'default' && def.defaultValue === null) {
    if (j.type === 'string') j.type = ['string', 'null'];
    j.default = null;
  }
  if (zodSchema === deviceResponse.shape.deviceType) {
    Object.assign(j, { type: 'integer', enum: DEVICE_TYPES.map((t) => t.code), description: `Tipo de dispositivo: ${deviceTypeList}` });
  }
  if (zodSchema === deviceResponse.shape.status) {
    Object.assign(j, { type: 'integer', enum: DEVICE_STATUSES.map((s) => s.code), description: `Estado del dispositivo: ${statusList}` });
  }
  if (zodSchema === deviceRef) {
    j.oneOf = [{ required: ['imei'] }, { required: ['creditReference'] }];
  }
  if (zodSchema === integrationBulkBody) {
    j.oneOf = [{ required: ['imeis'] }, { required: ['creditReferences'] }];
  }
}

/** The JSON Schema of a zod schema's input or output side, tidied. */
export function jsonSchemaOf(schema: z.ZodType, io: Io): Json {
  const generated = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any', reused: 'inline', override });
  return tidy(JSON.parse(JSON.stringify(generated)), io) as Json;
}

const DIGITS = /^\^\\d\{1,\d+\}\$$/;

/** A query or path parameter's schema: numbers as integers (they are digits on the wire), else what a client sends. */
function parameterSchema(input: Json, output: Json | undefined): Json {
  if (output && (output.type === 'number' || output.type === 'integer')) return { ...output, type: 'integer' };
  if (input.type === 'string' && typeof input.pattern === 'string' && DIGITS.test(input.pattern)) {
    return { type: 'integer', minimum: 1, ...(input.description !== undefined && { description: input.description }) };
  }
  return input;
}

function parametersOf(schema: z.ZodType, place: 'query' | 'path'): Json[] {
  const input = jsonSchemaOf(schema, 'input');
  const output = jsonSchemaOf(schema, 'output');
  const props = (input.properties ?? {}) as Record<string, Json>;
  const outProps = (output.properties ?? {}) as Record<string, Json>;
  const required = new Set((input.required as string[] | undefined) ?? []);
  return Object.entries(props).map(([name, s]) => {
    const paramSchema = parameterSchema(s, outProps[name]);
    const description = paramSchema.description;
    delete paramSchema.description;
    return {
      name,
      in: place,
      required: place === 'path' || required.has(name),
      ...(description !== undefined && { description }),
      schema: paramSchema,
    };
  });
}

const ERROR_RESPONSES: Record<number, string> = {
  400: 'Datos no válidos (`VALIDATION`, con `field`) o encabezado `Idempotency-Key` mal formado',
  401: 'Falta la clave de API, o no es válida, está revocada o vencida',
  403: 'El rol de la clave no permite la operación o la acción, o la dirección IP no está permitida',
  404: 'No existe (dispositivo, comando, acción masiva, crédito o pago)',
  409: 'Conflicto: con el estado del dispositivo, con otro registro (IMEI ya registrado, dispositivo de otro crédito, pago con otros datos o ya revertido), un crédito cancelado o `Idempotency-Key` usada con otra solicitud',
  429: 'Demasiadas solicitudes con esta clave: espere los segundos de `Retry-After`',
};
const ALWAYS = [400, 401, 403, 429] as const;

const idempotencyHeader = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Clave única de la solicitud (p. ej. un UUID). Un reintento con la misma clave y el mismo cuerpo responde la primera respuesta con `Idempotent-Replayed: true`; con otro cuerpo, 409 `IDEMPOTENCY_MISMATCH`.',
  schema: { type: 'string', minLength: 1, maxLength: 200, pattern: '^[\\x21-\\x7e]+$' },
};

function operationOf(route: (typeof INTEGRATION_ROUTES)[number]): Json {
  const r = route as (typeof INTEGRATION_ROUTES)[number] & {
    query?: z.ZodType;
    params?: z.ZodType;
    body?: z.ZodType;
    idempotent?: boolean;
    errors?: readonly number[];
    alternate?: { status: number; description: string };
  };
  const parameters = [
    ...(r.params ? parametersOf(r.params, 'path') : []),
    ...(r.query ? parametersOf(r.query, 'query') : []),
    ...(r.idempotent ? [idempotencyHeader] : []),
  ];
  const statuses = [...new Set([...ALWAYS, ...(r.errors ?? [])])].sort((a, b) => a - b);
  return {
    operationId: r.operationId,
    summary: r.summary,
    description: `${r.description}\n\n${API_REFERENCE_LABELS.requires}: ${r.requires}.`,
    'x-requires': r.requires,
    ...(parameters.length > 0 && { parameters }),
    ...(r.body && {
      requestBody: { required: true, content: { 'application/json': { schema: jsonSchemaOf(r.body, 'input') } } },
    }),
    responses: {
      [String(r.success.status)]: {
        description: r.success.description,
        ...(r.idempotent && {
          headers: {
            'Idempotent-Replayed': {
              description: '`true` cuando la respuesta es la de una solicitud anterior con la misma `Idempotency-Key`',
              schema: { type: 'string', enum: ['true'] },
            },
          },
        }),
        content: { 'application/json': { schema: jsonSchemaOf(r.success.schema, 'output') } },
      },
      ...(r.alternate && {
        [String(r.alternate.status)]: {
          description: r.alternate.description,
          content: { 'application/json': { schema: jsonSchemaOf(r.success.schema, 'output') } },
        },
      }),
      ...Object.fromEntries(statuses.map((status) => [String(status), { $ref: `#/components/responses/Error${status}` }])),
    },
  };
}

// Webhooks ---------------------------------------------------------------------------------

const nullableString = (description?: string): Json => ({ type: ['string', 'null'], ...(description && { description }) });
const instant = (description: string, nullable = false): Json => ({
  type: nullable ? ['string', 'null'] : 'string',
  format: 'date-time',
  description,
});
const int = (description: string, nullable = false): Json => ({ type: nullable ? ['integer', 'null'] : 'integer', description });

/** What every device event tells of the device (webhook_device_data of migration 0015). */
const deviceData: Record<string, Json> = {
  deviceId: int('Id del dispositivo en el portal'),
  imei: { type: 'string', description: 'IMEI' },
  imei2: nullableString('Segundo IMEI'),
  serial: nullableString('Número de serie'),
  creditReference: nullableString('Referencia de crédito'),
  deviceType: { type: 'integer', enum: DEVICE_TYPES.map((t) => t.code), description: `Tipo de dispositivo: ${deviceTypeList}` },
  groupId: int('Grupo de dispositivos', true),
};
const commandData: Record<string, Json> = {
  ...deviceData,
  commandId: int('Id del comando (GET /commands/{id})'),
  action: { type: 'integer', enum: ACTION_CODES, description: `Código de acción: ${actionList}` },
  status: { type: 'string', enum: [...COMMAND_STATUSES], description: 'Estado del comando' },
  result: nullableString('Resultado que informó el dispositivo'),
  jobId: int('Acción masiva a la que pertenece', true),
  requestedAt: instant('Cuándo se pidió'),
  deliveredAt: instant('Cuándo lo recibió el dispositivo', true),
  acknowledgedAt: instant('Cuándo lo confirmó o rechazó el dispositivo (o se canjeó el código)', true),
};
const statusCode: Json = { type: 'integer', enum: DEVICE_STATUSES.map((s) => s.code), description: `Estado del dispositivo: ${statusList}` };

/** What every credit event tells: the payment and the credit's standing after it (the payments' answer, paymentResultResponse). */
const creditEventData = (): Record<string, Json> => jsonSchemaOf(paymentResultResponse, 'output').properties as Record<string, Json>;

const WEBHOOK_DATA: Record<WebhookEventType, { description: string; properties: Record<string, Json> }> = {
  'device.enrolled': {
    description: 'Un dispositivo pre-registrado completó su enrolamiento.',
    properties: { ...deviceData, enrolledAt: instant('Cuándo se enroló') },
  },
  'device.status_changed': {
    description: 'Cambió el estado guardado de un dispositivo, o se eliminó. "Sin conexión" no es un cambio: depende del reloj.',
    properties: {
      ...deviceData,
      previousStatus: { ...statusCode, description: 'Estado anterior' },
      status: { ...statusCode, description: 'Estado nuevo' },
      lockType: { type: ['string', 'null'], enum: [...LOCK_TYPES.map((t) => t.key), null], description: 'Tipo de bloqueo, si está bloqueado' },
      deleted: { type: 'boolean', description: 'El dispositivo fue eliminado' },
    },
  },
  'command.delivered': { description: 'El dispositivo recibió un comando.', properties: commandData },
  'command.acknowledged': { description: 'El dispositivo confirmó que ejecutó un comando.', properties: commandData },
  'command.rejected': { description: 'El dispositivo rechazó un comando.', properties: commandData },
  'offline_code.redeemed': { description: 'Se canjeó en el dispositivo un código offline.', properties: commandData },
  'job.finished': {
    description: 'Una acción masiva terminó (completada o fallida).',
    properties: {
      jobId: int('Id de la acción masiva (GET /jobs/{id})'),
      action: { type: 'integer', enum: ACTION_CODES, description: `Código de acción: ${actionList}` },
      status: { type: 'string', enum: JOB_STATUSES.filter((s) => s === 'completed' || s === 'failed'), description: 'Cómo terminó' },
      total: int('Dispositivos de la acción'),
      succeeded: int('Con éxito'),
      skipped: int('Omitidos'),
      failed: int('Fallidos'),
      error: nullableString('Por qué falló la acción masiva'),
      finishedAt: instant('Cuándo terminó', true),
    },
  },
  'payment.applied': {
    description:
      'Se registró un pago de un crédito (API de integración, portal o archivo CSV): el pago y la situación del crédito después de aplicarlo.',
    properties: creditEventData(),
  },
  'payment.reversed': {
    description: 'Se revirtió un pago: el pago (con reversedAt) y la situación del crédito sin él, la misma que antes de registrarlo.',
    properties: creditEventData(),
  },
  'credit.paid_off': {
    description: 'Un pago dejó el saldo del crédito en cero: el pago y la situación del crédito (Liquidado).',
    properties: creditEventData(),
  },
  'credit.overdue': {
    description: 'Un crédito pasó a estar vencido (una vez cada vez que lo hace; un pago que lo pone al corriente lo reinicia).',
    properties: jsonSchemaOf(creditOverdueEvent, 'output').properties as Record<string, Json>,
  },
  'collection.step': {
    description:
      'La política de cobranza aplicó un paso a un crédito (recordatorio, aviso, restricciones, bloqueo, desbloqueo, liberación) o lo omitió, con el motivo.',
    properties: jsonSchemaOf(collectionStepEvent, 'output').properties as Record<string, Json>,
  },
  'reconciliation.summary': {
    description:
      'Una vez al día (07:00 hora de la compañía), el resumen de Conciliación: cuántos dispositivos contradicen a su crédito, por tipo, y las primeras filas (GET /reconciliation).',
    properties: jsonSchemaOf(reconciliationSummaryEvent, 'output').properties as Record<string, Json>,
  },
};

const signatureHeaders: Json[] = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: 'Id único del evento: el mismo en cada reintento. Úselo para descartar duplicados.',
    schema: { type: 'string' },
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'Cuándo se firmó el envío, en segundos desde 1970 (UTC). Rechace los envíos con una hora muy distinta de la suya.',
    schema: { type: 'string', pattern: '^\\d+$' },
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      'Firmas separadas por espacios, cada una `v1,<base64>`: HMAC-SHA256 de `<webhook-id>.<webhook-timestamp>.<cuerpo>` con el secreto `whsec_…` de la suscripción (la parte tras `whsec_`, decodificada de base64).',
    schema: { type: 'string' },
  },
];

function webhookOf(type: WebhookEventType, label: string): Json {
  const data = WEBHOOK_DATA[type];
  return {
    post: {
      operationId: `webhook_${type.replace(/\./g, '_')}`,
      summary: label,
      description: `${data.description}\n\nEntrega al menos una vez, en orden por dispositivo y por crédito; reintentos durante ${WEBHOOK_RETRY_HOURS} horas.`,
      security: [],
      parameters: signatureHeaders,
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['type', 'timestamp', 'data'],
              properties: {
                type: { type: 'string', const: type, description: 'Tipo de evento' },
                timestamp: { type: 'string', format: 'date-time', description: 'Cuándo ocurrió el evento' },
                data: { type: 'object', required: Object.keys(data.properties), properties: data.properties },
              },
            },
          },
        },
      },
      responses: {
        '2XX': { description: 'Recibido. Cualquier otra respuesta, o ninguna a tiempo, se reintenta.' },
      },
    },
  };
}

// The document -----------------------------------------------------------------------------

const noteMarkdown = API_REFERENCE_NOTES.map((n) => `## ${n.title}\n\n${n.paragraphs.join('\n\n')}`).join('\n\n');

function build(serverUrl: string): Json {
  const paths: Record<string, Json> = {};
  for (const route of INTEGRATION_ROUTES) {
    paths[route.path] = { ...paths[route.path], [route.method]: operationOf(route) };
  }
  const error = jsonSchemaOf(integrationErrorBody, 'output');
  return {
    openapi: '3.1.0',
    info: {
      title: 'Macrolock — API de integración',
      version: INTEGRATION_API_VERSION,
      description: `API para el sistema de créditos: registrar dispositivos, consultarlos y actuar sobre ellos (bloquear, desbloquear, liberar, notificar, códigos offline, acciones masivas).\n\n${noteMarkdown}`,
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    servers: [{ url: serverUrl, description: 'Este portal' }],
    security: [{ apiKey: [] }],
    paths,
    webhooks: Object.fromEntries(WEBHOOK_EVENTS.map((e) => [e.type, webhookOf(e.type, e.label)])),
    components: {
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: `${API_KEY_TAG}…`,
          description: 'Clave de API creada en el portal (Configuración de administradores → Claves de API).',
        },
      },
      schemas: {
        Error: {
          ...error,
          description: 'Toda respuesta de error',
          properties: {
            code: { type: 'string', description: 'Código estable (p. ej. VALIDATION, DEVICE_NOT_FOUND, IDEMPOTENCY_MISMATCH)' },
            message: { type: 'string', description: 'Mensaje en español para personas' },
            field: { type: 'string', description: 'Ruta del dato erróneo (device.imei, devices.3.imei, page), cuando el error se refiere a uno' },
          },
        },
      },
      responses: Object.fromEntries(
        Object.entries(ERROR_RESPONSES).map(([status, description]) => [
          `Error${status}`,
          {
            description,
            ...(status === '429' && {
              headers: { 'Retry-After': { description: 'Segundos que hay que esperar', schema: { type: 'integer', minimum: 1 } } },
            }),
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
          },
        ]),
      ),
    },
  };
}

let cached: Json | undefined;

/**
 * The OpenAPI 3.1.0 document of the integration API, computed once (it is constant).
 * `serverUrl` is the base its paths are relative to (INTEGRATION_BASE by default); another one
 * gets a shallow copy with that server, so a request's Host header never grows a cache.
 */
export function openApiDocument(opts: { serverUrl?: string } = {}): object {
  cached ??= build(INTEGRATION_BASE);
  if (opts.serverUrl === undefined || opts.serverUrl === INTEGRATION_BASE) return cached;
  return { ...cached, servers: [{ url: opts.serverUrl, description: 'Este portal' }] };
}
