import * as z from 'zod';
import { FIELD_LABELS } from '../constants/fieldLabels';
import { INTEGRATION_MESSAGES as M } from '../areaMessages/integration';
import { ADMIN_API_MESSAGES } from '../areaMessages/admin';
import { apiErrorBody } from './apiError';
import { actionPayload, actionResultResponse, commandResponse } from './deviceActions';
import {
  creditBody,
  creditParams,
  integrationCreditResponse,
  paymentBody,
  paymentParams,
  paymentResultResponse,
  reconciliationListResponse,
  reconciliationQuery,
} from './credits';
import { deviceBody, deviceResponse } from './devices';
import { listResponse, pagingParams, paramError, textParam } from './fields';
import { jobResponse, jobResultListResponse } from './jobs';
import { DEVICE_TEXT_MAX, BULK_MAX_DEVICES } from '../constants/limits';

const F = ADMIN_API_MESSAGES.field;
const L = FIELD_LABELS.integration;

/**
 * The integration API (/api/integration/v1, `Authorization: Bearer <API key>`): what a lender's
 * loan system calls. The same schemas, action rules, idempotency and audit as the portal's API;
 * devices are named by IMEI or credit reference instead of the portal's ids. INTEGRATION_ROUTES
 * is the one list the router serves and the OpenAPI document describes.
 */

export const REGISTER_BATCH_MAX = 1000;

const imeiValue = (label: string) =>
  z
    .string({ error: paramError(label, M.field.imei(label)) })
    .transform((v) => v.replace(/[\s-]/g, ''))
    .refine((v) => /^\d{15}$/.test(v), { error: M.field.imei(label) });
const creditReferenceValue = (label: string) =>
  z
    .string({ error: paramError(label, M.field.deviceRef) })
    .trim()
    .min(1, { error: F.empty(label) })
    .max(DEVICE_TEXT_MAX.creditReference, { error: F.tooLong(label, DEVICE_TEXT_MAX.creditReference) });

/** A device named by its IMEI (either of its two) or by its credit reference: exactly one of them. */
export const deviceRef = z
  .object({ imei: imeiValue(L.imei).optional(), creditReference: creditReferenceValue(L.creditReference).optional() }, { error: M.field.deviceRef })
  .refine((r) => (r.imei === undefined) !== (r.creditReference === undefined), { error: M.field.deviceRef });
export type DeviceRef = z.infer<typeof deviceRef>;

/** GET /devices?imei=… or ?creditReference=… */
export const deviceLookupQuery = z
  .object({ imei: textParam(L.imei, 20).optional(), creditReference: textParam(L.creditReference, DEVICE_TEXT_MAX.creditReference).optional() })
  .pipe(deviceRef);
export type DeviceLookupQuery = z.infer<typeof deviceLookupQuery>;

/** POST /devices/batch: up to REGISTER_BATCH_MAX devices, all registered or none. */
export const registerBatchBody = z.object(
  {
    devices: z
      .array(deviceBody, { error: M.field.batch(L.devices, REGISTER_BATCH_MAX) })
      .min(1, { error: M.field.batch(L.devices, REGISTER_BATCH_MAX) })
      .max(REGISTER_BATCH_MAX, { error: M.field.batch(L.devices, REGISTER_BATCH_MAX) }),
  },
  { error: F.body },
);
export type RegisterBatchBody = z.infer<typeof registerBatchBody>;
export const registerBatchResponse = z.strictObject({ data: z.array(deviceResponse) });

/** POST /commands: one action on one device. */
export const commandBody = z.object({ device: deviceRef, payload: actionPayload }, { error: F.body });
export type CommandBody = z.infer<typeof commandBody>;

const references = <T extends z.ZodType>(item: T, label: string) =>
  z
    .array(item, { error: M.field.references(label, BULK_MAX_DEVICES) })
    .min(1, { error: M.field.references(label, BULK_MAX_DEVICES) })
    .max(BULK_MAX_DEVICES, { error: M.field.references(label, BULK_MAX_DEVICES) });

/** POST /jobs: one action on many devices, named by IMEIs or by credit references. */
export const integrationBulkBody = z
  .object(
    {
      imeis: references(imeiValue(L.imeis), L.imeis).optional(),
      creditReferences: references(creditReferenceValue(L.creditReferences), L.creditReferences).optional(),
      payload: actionPayload,
    },
    { error: F.body },
  )
  .refine((b) => (b.imeis === undefined) !== (b.creditReferences === undefined), { error: M.field.devicesRef, path: ['imeis'] });
export type IntegrationBulkBody = z.infer<typeof integrationBulkBody>;

/** The job and the references that named no device (they are not part of the job). */
export const integrationJobCreatedResponse = z.strictObject({ job: jobResponse, notFound: z.array(z.string()) });
export type IntegrationJobCreated = z.infer<typeof integrationJobCreatedResponse>;

export const commandIdParams = z.object({
  id: z
    .string({ error: paramError(FIELD_LABELS.params.id, ADMIN_API_MESSAGES.param.integer(FIELD_LABELS.params.id, 1, 9_999_999_999)) })
    .regex(/^\d{1,10}$/, { error: ADMIN_API_MESSAGES.param.integer(FIELD_LABELS.params.id, 1, 9_999_999_999) })
    .transform(Number)
    .refine((n) => n >= 1, { error: ADMIN_API_MESSAGES.param.integer(FIELD_LABELS.params.id, 1, 9_999_999_999) }),
});

export const jobResultsQuery = z.object({ ...pagingParams(100) });

/** One route of the integration API: what the router validates and the OpenAPI document says. */
export interface IntegrationRoute {
  method: 'get' | 'post' | 'put';
  /** OpenAPI style, relative to INTEGRATION_BASE: `/commands/{id}`. */
  path: string;
  operationId: string;
  summary: string;
  description: string;
  /** What the key's role must hold, in words (the router checks it). */
  requires: string;
  query?: z.ZodType;
  params?: z.ZodType;
  body?: z.ZodType;
  /** Accepts `Idempotency-Key`. */
  idempotent?: boolean;
  success: { status: 200 | 201 | 202; schema: z.ZodType; description: string };
  /** Another success answer with the same schema (a replacement, a retry answered again). */
  alternate?: { status: 200; description: string };
  /** Error statuses it may answer besides 400, 401, 403 and 429. */
  errors?: readonly number[];
}

export const INTEGRATION_ROUTES = [
  {
    method: 'post',
    path: '/devices',
    operationId: 'registerDevice',
    summary: 'Registrar un dispositivo',
    description: 'Registra un dispositivo pre-enrolado, igual que la página Registro de dispositivos.',
    requires: 'Página Registro de dispositivos',
    body: deviceBody,
    success: { status: 201, schema: deviceResponse, description: 'El dispositivo registrado' },
    errors: [409],
  },
  {
    method: 'post',
    path: '/devices/batch',
    operationId: 'registerDevices',
    summary: 'Registrar dispositivos en lote',
    description: `Registra de 1 a ${REGISTER_BATCH_MAX} dispositivos en una transacción: todos o ninguno. Un error indica el campo como devices.<índice>.<campo>.`,
    requires: 'Página Registro de dispositivos',
    body: registerBatchBody,
    success: { status: 201, schema: registerBatchResponse, description: 'Los dispositivos registrados, en el orden enviado' },
    errors: [409],
  },
  {
    method: 'get',
    path: '/devices',
    operationId: 'findDevices',
    summary: 'Buscar un dispositivo por IMEI o referencia de crédito',
    description: 'Devuelve los dispositivos con ese IMEI (cualquiera de los dos) o esa referencia de crédito, con su estado y su comando en curso.',
    requires: 'Página Dispositivos enrolados o Dispositivos pre-enrolados',
    query: deviceLookupQuery,
    success: { status: 200, schema: listResponse(deviceResponse), description: 'Los dispositivos encontrados (lista vacía si ninguno)' },
  },
  {
    method: 'post',
    path: '/commands',
    operationId: 'createCommand',
    summary: 'Actuar sobre un dispositivo',
    description:
      'Bloquear, desbloquear, liberar, notificar o emitir un código offline para un dispositivo nombrado por IMEI o referencia de crédito. Mismas reglas que el portal (las acciones que cada estado deshabilita, un comando en curso a la vez). Un código offline se devuelve una sola vez.',
    requires: 'Página Dispositivos enrolados y la acción',
    body: commandBody,
    idempotent: true,
    success: { status: 201, schema: actionResultResponse, description: 'El comando creado y el dispositivo tras la acción' },
    errors: [404, 409],
  },
  {
    method: 'get',
    path: '/commands/{id}',
    operationId: 'getCommand',
    summary: 'Estado de un comando',
    description: 'Pendiente, entregado, confirmado o rechazado por el dispositivo, cancelado; para un código offline, emitido o canjeado.',
    requires: 'Página Dispositivos enrolados',
    params: commandIdParams,
    success: { status: 200, schema: commandResponse, description: 'El comando' },
    errors: [404],
  },
  {
    method: 'post',
    path: '/jobs',
    operationId: 'createJob',
    summary: 'Acción masiva por IMEIs o referencias de crédito',
    description: `Crea una acción masiva (hasta ${BULK_MAX_DEVICES} dispositivos) con la misma maquinaria que el portal. Las referencias que no corresponden a ningún dispositivo se devuelven en notFound.`,
    requires: 'Página Dispositivos enrolados y la acción',
    body: integrationBulkBody,
    idempotent: true,
    success: { status: 202, schema: integrationJobCreatedResponse, description: 'La acción masiva en cola' },
    errors: [404, 409],
  },
  {
    method: 'get',
    path: '/jobs/{id}',
    operationId: 'getJob',
    summary: 'Progreso de una acción masiva',
    description: 'Dispositivos procesados, con éxito, omitidos y fallidos, y dónde están sus comandos.',
    requires: 'Página Dispositivos enrolados',
    params: commandIdParams,
    success: { status: 200, schema: jobResponse, description: 'La acción masiva' },
    errors: [404],
  },
  {
    method: 'get',
    path: '/jobs/{id}/results',
    operationId: 'getJobResults',
    summary: 'Resultados por dispositivo de una acción masiva',
    description: 'Resultado de cada dispositivo, paginado.',
    requires: 'Página Dispositivos enrolados',
    params: commandIdParams,
    query: jobResultsQuery,
    success: { status: 200, schema: jobResultListResponse, description: 'Los resultados' },
    errors: [404],
  },
  {
    method: 'put',
    path: '/credits/{reference}',
    operationId: 'putCredit',
    summary: 'Crear o reemplazar un crédito',
    description:
      'Crea el crédito (201) o lo reemplaza con su calendario de cuotas (200): los pagos ya registrados se aplican de nuevo sobre el calendario nuevo, a las cuotas más antiguas primero. Los dispositivos que llevan la referencia quedan vinculados; los IMEIs indicados reciben la referencia (409 si un IMEI pertenece a otro crédito, 404 si no existe). Importes como texto decimal ("1250.00"), fechas AAAA-MM-DD en la zona horaria de la empresa.',
    requires: 'Página Cartera de créditos',
    params: creditParams,
    body: creditBody,
    success: { status: 201, schema: integrationCreditResponse, description: 'El crédito creado' },
    alternate: { status: 200, description: 'El crédito reemplazado' },
    errors: [404, 409],
  },
  {
    method: 'get',
    path: '/credits/{reference}',
    operationId: 'getCredit',
    summary: 'Consultar un crédito',
    description:
      'El crédito con su situación de hoy (Al corriente, Vencido con sus días de atraso, Liquidado, Cancelado), sus cuotas con lo pagado de cada una, sus pagos y sus dispositivos.',
    requires: 'Página Cartera de créditos',
    params: creditParams,
    success: { status: 200, schema: integrationCreditResponse, description: 'El crédito' },
    errors: [404],
  },
  {
    method: 'post',
    path: '/credits/{reference}/payments',
    operationId: 'registerPayment',
    summary: 'Registrar un pago',
    description:
      'Aplica el pago a las cuotas más antiguas primero y responde la nueva situación del crédito. El mismo externalId con los mismos datos responde 200 con la primera respuesta (reintento); con otros datos, 409 PAYMENT_CONFLICT. Un paidAt posterior a la hora del servidor es un 400; un crédito cancelado, 409.',
    requires: 'Página Cartera de créditos y la acción Registrar y revertir pagos',
    params: creditParams,
    body: paymentBody,
    success: { status: 201, schema: paymentResultResponse, description: 'El pago aplicado y la nueva situación del crédito' },
    alternate: { status: 200, description: 'Reintento con el mismo externalId y los mismos datos: la primera respuesta' },
    errors: [404, 409],
  },
  {
    method: 'post',
    path: '/credits/{reference}/payments/{externalId}/reversal',
    operationId: 'reversePayment',
    summary: 'Revertir un pago',
    description:
      'Marca el pago como revertido (nunca se borra) y responde la situación del crédito sin él: exactamente la de antes de registrarlo. Una segunda reversión responde 409 PAYMENT_ALREADY_REVERSED.',
    requires: 'Página Cartera de créditos y la acción Registrar y revertir pagos',
    params: paymentParams,
    success: { status: 200, schema: paymentResultResponse, description: 'El pago revertido y la nueva situación del crédito' },
    errors: [404, 409],
  },
  {
    method: 'get',
    path: '/reconciliation',
    operationId: 'getReconciliation',
    summary: 'Conciliación: dispositivos que contradicen a su crédito',
    description:
      'Las mismas filas que la página Conciliación: crédito al corriente con el dispositivo bloqueado Por Crédito, vencido después del día de bloqueo de la política de su grupo sin bloquear, liquidado sin liberar, liberado que sigue reportando, crédito sin dispositivo y dispositivo sin crédito. Filtrable por `kind`, paginado; `counts` da las filas de cada tipo. `fix` es la acción de dispositivo que corrige la fila (POST /commands con el IMEI), null si ninguna.',
    requires: 'Página Conciliación',
    query: reconciliationQuery,
    success: { status: 200, schema: reconciliationListResponse, description: 'Una página de filas, su total y las filas por tipo' },
  },
] as const satisfies readonly IntegrationRoute[];

/** Every error answer: a stable `code` and a Spanish `message` (and `field` when one input is wrong). */
export const integrationErrorBody = apiErrorBody;
