import * as z from 'zod';
import {
  AGENT_VERSION_MAX,
  DEVICE_SORTS,
  DEVICE_TEXT_MAX,
  DEVICE_TYPE_CODES,
  DEVICES_DEFAULT_PER_PAGE,
  LOCK_TYPE_KEYS,
  SEARCH_MAX,
} from '../constants/limits';
import { DEVICE_STATUSES, findStatusFilter, type DeviceStatusCode, type DeviceTypeCode } from '../constants/domain';
import { FIELD_LABELS } from '../constants/fieldLabels';
import { INVENTORY_MESSAGES as M } from '../areaMessages/inventory';
import { ADMIN_API_MESSAGES } from '../areaMessages/admin';
import {
  booleanParam,
  csvZoneFields,
  dateParam,
  fieldError,
  idField,
  listResponse,
  oneOfParam,
  optionalTextField,
  pagingParams,
  paramError,
  textParam,
} from './fields';

const F = ADMIN_API_MESSAGES.field;
const L = FIELD_LABELS.devices;
const Q = FIELD_LABELS.deviceFilter;

// IMEI -----------------------------------------------------------------------------------

/** Luhn check of a digit string (the IMEI's 15th digit checks the first 14). */
export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** The Luhn check digit that completes 14 digits into a valid IMEI. */
export function luhnCheckDigit(first14: string): string {
  for (let d = 0; d <= 9; d++) if (luhnValid(`${first14}${d}`)) return String(d);
  throw new Error('unreachable');
}

/** A 15-digit IMEI with a valid check digit (spaces and dashes typed by people are removed). */
export const imeiField = (label: string) =>
  z
    .string({ error: fieldError(label, M.field.imei(label)) })
    .transform((v) => v.replace(/[\s-]/g, ''))
    .refine((v) => /^\d{15}$/.test(v), { error: M.field.imei(label) })
    .refine((v) => !/^\d{15}$/.test(v) || luhnValid(v), { error: M.field.imeiCheckDigit(label) });

export const deviceTypeField = (label: string) =>
  z.union(
    DEVICE_TYPE_CODES.map((c) => z.literal(c)),
    { error: fieldError(label, M.field.deviceType(label)) },
  );

const deviceFields = {
  imei: imeiField(L.imei),
  imei2: z.preprocess((v) => (v === '' ? null : v), imeiField(L.imei2).nullable()).default(null),
  serial: optionalTextField(L.serial, DEVICE_TEXT_MAX.serial).default(null),
  deviceType: deviceTypeField(L.deviceType),
  brand: optionalTextField(L.brand, DEVICE_TEXT_MAX.brand).default(null),
  model: optionalTextField(L.model, DEVICE_TEXT_MAX.model).default(null),
  groupId: idField(L.groupId).nullable().default(null),
  customerName: optionalTextField(L.customerName, DEVICE_TEXT_MAX.customerName).default(null),
  creditReference: optionalTextField(L.creditReference, DEVICE_TEXT_MAX.creditReference).default(null),
};

/** POST /v5/devices (one device; it starts PRE_ENROLLED) and PUT /v5/devices/:id. */
export const deviceBody = z.object(deviceFields, { error: F.body });
export type DeviceBody = z.infer<typeof deviceBody>;
/** What a form holds before parsing (the shared schema's input). */
export type DeviceBodyInput = z.input<typeof deviceBody>;

// Lists ----------------------------------------------------------------------------------

const statusParam = z
  .string({ error: paramError(Q.status, M.param.status) })
  .trim()
  .refine((v) => v === '' || findStatusFilter(v) !== undefined, { error: M.param.status })
  .transform((v) => (v === '' ? undefined : v));

/** A group filter: a group's id, or 'none' (no group); empty means absent. The credit portfolio filters by its devices' group with it. */
export const groupFilterParam = (label: string) =>
  z
    .string({ error: paramError(label, M.param.groupId) })
    .trim()
    .refine((v) => v === '' || v === 'none' || (/^\d{1,10}$/.test(v) && Number(v) >= 1 && Number(v) <= 2_147_483_647), { error: M.param.groupId })
    .transform((v): number | 'none' | undefined => (v === '' ? undefined : v === 'none' ? 'none' : Number(v)));

/** Which part of the registry: enrolled devices (every status but PRE_ENROLLED) or the pre-enrolled ones. */
export const DEVICE_STAGES = ['enrolled', 'preEnrolled'] as const;
export type DeviceStage = (typeof DEVICE_STAGES)[number];

/** The filters shared by the list, the export and bulk selections. */
export const deviceFilterFields = {
  stage: oneOfParam(Q.stage, DEVICE_STAGES).optional(),
  /** A value of the reference §4 status filter list: '3', '3:PorCredito'… */
  status: statusParam.optional(),
  deviceType: oneOfParam(Q.deviceType, ['1', '2'])
    .transform((v) => Number(v) as DeviceTypeCode)
    .optional(),
  groupId: groupFilterParam(Q.groupId).optional(),
  /** IMEI prefix, serial, customer name or credit reference. */
  search: textParam(Q.search, SEARCH_MAX).optional(),
  /** true: a command in flight (bloqueando, desbloqueando, liberando, configurando…); false: none. */
  inFlight: booleanParam(Q.inFlight).optional(),
  /** true: locked or being locked (LOCKED_STATUSES: Bloqueado, Configurado bloqueado, Bloqueando); false: none of them. */
  locked: booleanParam(Q.locked).optional(),
  /** The agent version the device reports, exactly (released devices, which no longer run the agent, are left out). */
  agentVersion: textParam(Q.agentVersion, AGENT_VERSION_MAX).optional(),
  /** Devices that report an agent version other than this one (those that report none, and released ones, are left out). */
  agentVersionNot: textParam(Q.agentVersionNot, AGENT_VERSION_MAX).optional(),
  /** Released devices, released at or after this day or instant ('Liberados este mes' links to its month's first instant). */
  releasedFrom: dateParam(Q.releasedFrom).optional(),
};
export const deviceFilter = z.object(deviceFilterFields);
export type DeviceFilter = z.infer<typeof deviceFilter>;
/** The filter as it travels in a JSON body (bulk selections): the same fields, as strings. */
export type DeviceFilterInput = z.input<typeof deviceFilter>;

/** GET /v5/devices (and /export, which ignores paging). */
export const deviceListQuery = z.object({
  ...deviceFilterFields,
  sort: oneOfParam(Q.sort, DEVICE_SORTS).default('createdAt'),
  order: oneOfParam(Q.order, ['asc', 'desc']).default('desc'),
  ...pagingParams(DEVICES_DEFAULT_PER_PAGE),
});
export type DeviceListQuery = z.infer<typeof deviceListQuery>;

/** GET /v5/devices/export: the list's filters (paging and sort ignored) and `tz`, the zone its dates are written in. */
export const deviceExportQuery = deviceListQuery.extend(csvZoneFields);
export type DeviceExportQuery = z.infer<typeof deviceExportQuery>;

/** The command a device is waiting for. */
// Responses ------------------------------------------------------------------------------

export const DEVICE_STATUS_CODES = DEVICE_STATUSES.map((s) => s.code) as readonly DeviceStatusCode[];
const nullableText = z.string().nullable();

/** The command a device is waiting for (one at a time). */
export const pendingCommandResponse = z.strictObject({
  id: z.number().int(),
  action: z.number().int(),
  requestedAt: z.string(),
  requestedBy: nullableText,
  /** RELEASE waits out its cancellation window before the agent receives it. */
  deliverAfter: z.string(),
  /** What was requested (lock type and message, notification text…). */
  payload: z.record(z.string(), z.unknown()),
  /** When an agent's check-in received it; until then it can be cancelled. */
  deliveredAt: nullableText,
});
export type PendingCommand = z.infer<typeof pendingCommandResponse>;

/** A device as the API answers it (GET /v5/devices/:id, the list rows, action answers). */
export const deviceResponse = z.strictObject({
  id: z.number().int(),
  imei: z.string(),
  imei2: nullableText,
  serial: nullableText,
  deviceType: z.custom<DeviceTypeCode>((v) => (DEVICE_TYPE_CODES as readonly unknown[]).includes(v)),
  brand: nullableText,
  model: nullableText,
  osVersion: nullableText,
  agentVersion: nullableText,
  groupId: z.number().int().nullable(),
  groupName: nullableText,
  customerName: nullableText,
  creditReference: nullableText,
  /** The reference §4 status code, derived (offline overlay included). */
  status: z.custom<DeviceStatusCode>((v) => (DEVICE_STATUS_CODES as readonly unknown[]).includes(v)),
  lockType: z.enum(LOCK_TYPE_KEYS).nullable(),
  lockMessage: nullableText,
  temporaryUntil: nullableText,
  pendingCommand: pendingCommandResponse.nullable(),
  failureReason: nullableText,
  lastSeenAt: nullableText,
  enrolledAt: nullableText,
  createdAt: z.string(),
  updatedAt: z.string(),
  simIccid: nullableText,
  simCarrier: nullableText,
});
export type Device = z.infer<typeof deviceResponse>;

/** GET /v5/devices: `{ data, total }`; `totalIsEstimate` when the filtered set is large and the total is an estimate. */
export const deviceListResponse = listResponse(deviceResponse).extend({ totalIsEstimate: z.boolean() });
export type DeviceList = z.infer<typeof deviceListResponse>;
