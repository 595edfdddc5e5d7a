import * as z from 'zod';
import { DEVICE_ACTION } from '../constants/deviceActions';
import { DEVICE_TYPES, LOCK_TYPES, STATUS_FILTERS, type DeviceStatusCode, type DeviceTypeCode, type LockType } from '../constants/domain';
import { ADMIN_API_MESSAGES, INVENTORY_MESSAGES as M } from '../messages';
import { idField, intParam, oneOfParam, pagingParams, textField, textParam, type ListResponse } from './fields';

const F = ADMIN_API_MESSAGES.field;

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
export const imeiField = (field: string) =>
  z
    .string({ error: M.field.imei(field) })
    .transform((v) => v.replace(/[\s-]/g, ''))
    .refine((v) => /^\d{15}$/.test(v), { error: M.field.imei(field) })
    .refine((v) => !/^\d{15}$/.test(v) || luhnValid(v), { error: M.field.imeiCheckDigit(field) });

const optionalText = (field: string, max: number) =>
  z.preprocess((v) => (v === null ? '' : v), textField(field, { max })).transform((v) => (v === '' ? null : v));

export const DEVICE_TYPE_CODES = DEVICE_TYPES.map((t) => t.code) as unknown as readonly [DeviceTypeCode, ...DeviceTypeCode[]];
export const LOCK_TYPE_KEYS = LOCK_TYPES.map((t) => t.key) as unknown as readonly [LockType, ...LockType[]];

const deviceTypeField = (field: string) =>
  z.union(DEVICE_TYPE_CODES.map((c) => z.literal(c)), { error: M.field.deviceType(field) });

export const DEVICE_TEXT_MAX = { serial: 64, brand: 60, model: 80, customerName: 120, creditReference: 64 } as const;

const deviceFields = {
  imei: imeiField('imei'),
  imei2: z.preprocess((v) => (v === '' ? null : v), imeiField('imei2').nullable()).default(null),
  serial: optionalText('serial', DEVICE_TEXT_MAX.serial).default(null),
  deviceType: deviceTypeField('deviceType'),
  brand: optionalText('brand', DEVICE_TEXT_MAX.brand).default(null),
  model: optionalText('model', DEVICE_TEXT_MAX.model).default(null),
  groupId: idField('groupId').nullable().default(null),
  customerName: optionalText('customerName', DEVICE_TEXT_MAX.customerName).default(null),
  creditReference: optionalText('creditReference', DEVICE_TEXT_MAX.creditReference).default(null),
};

/** POST /v5/devices (one device; it starts PRE_ENROLLED) and PUT /v5/devices/:id. */
export const deviceBody = z.object(deviceFields, { error: F.body });
export type DeviceBody = z.infer<typeof deviceBody>;
/** What a form holds before parsing (the shared schema's input). */
export type DeviceBodyInput = z.input<typeof deviceBody>;

// Lists ----------------------------------------------------------------------------------

/** The sorts offered: each has an index with every filter (migration 0007), so any page stays fast at 10^6 devices. */
export const DEVICE_SORTS = ['createdAt', 'imei', 'lastSeenAt'] as const;
export type DeviceSort = (typeof DEVICE_SORTS)[number];
export const DEVICES_DEFAULT_PER_PAGE = 25;
export const SEARCH_MAX = 64;

const statusParam = z
  .string({ error: M.param.status })
  .trim()
  .refine((v) => v === '' || STATUS_FILTERS.some((f) => f.value === v), { error: M.param.status })
  .transform((v) => (v === '' ? undefined : v));

const groupParam = z
  .string({ error: M.param.groupId })
  .trim()
  .refine((v) => v === '' || v === 'none' || (/^\d{1,10}$/.test(v) && Number(v) >= 1 && Number(v) <= 2_147_483_647), { error: M.param.groupId })
  .transform((v): number | 'none' | undefined => (v === '' ? undefined : v === 'none' ? 'none' : Number(v)));

/** Which part of the registry: enrolled devices (every status but PRE_ENROLLED) or the pre-enrolled ones. */
export const DEVICE_STAGES = ['enrolled', 'preEnrolled'] as const;
export type DeviceStage = (typeof DEVICE_STAGES)[number];

/** The filters shared by the list, the export and bulk selections. */
export const deviceFilterFields = {
  stage: oneOfParam('stage', DEVICE_STAGES).optional(),
  /** A value of the §4 status filter list: '3', '3:PorCredito'… */
  status: statusParam.optional(),
  deviceType: oneOfParam('deviceType', ['1', '2']).transform((v) => Number(v) as DeviceTypeCode).optional(),
  groupId: groupParam.optional(),
  /** IMEI prefix, serial, customer name or credit reference. */
  search: textParam('search', SEARCH_MAX).optional(),
};
export const deviceFilter = z.object(deviceFilterFields);
export type DeviceFilter = z.infer<typeof deviceFilter>;
/** The filter as it travels in a JSON body (bulk selections): the same fields, as strings. */
export type DeviceFilterInput = z.input<typeof deviceFilter>;

/** GET /v5/devices (and /export, which ignores paging). */
export const deviceListQuery = z.object({
  ...deviceFilterFields,
  sort: oneOfParam('sort', DEVICE_SORTS).default('createdAt'),
  order: oneOfParam('order', ['asc', 'desc']).default('desc'),
  ...pagingParams(DEVICES_DEFAULT_PER_PAGE),
});
export type DeviceListQuery = z.infer<typeof deviceListQuery>;

/** The command a device is waiting for. */
export interface PendingCommand {
  id: number;
  action: number;
  requestedAt: string;
  requestedBy: string | null;
  /** RELEASE waits out its cancellation window before the agent receives it. */
  deliverAfter: string;
}

/** A device as the API answers it. */
export interface Device {
  id: number;
  imei: string;
  imei2: string | null;
  serial: string | null;
  deviceType: DeviceTypeCode;
  brand: string | null;
  model: string | null;
  osVersion: string | null;
  agentVersion: string | null;
  groupId: number | null;
  groupName: string | null;
  customerName: string | null;
  creditReference: string | null;
  /** The specification §4 status code, derived (offline overlay included). */
  status: DeviceStatusCode;
  lockType: LockType | null;
  lockMessage: string | null;
  temporaryUntil: string | null;
  pendingCommand: PendingCommand | null;
  failureReason: string | null;
  lastSeenAt: string | null;
  enrolledAt: string | null;
  createdAt: string;
  updatedAt: string;
  simIccid: string | null;
  simCarrier: string | null;
}

/** `{ data, total }`; `totalIsEstimate` when the filtered set is large and the total is an estimate. */
export interface DeviceList extends ListResponse<Device> {
  totalIsEstimate: boolean;
}

// Actions --------------------------------------------------------------------------------

export const NOTIFICATION_TITLE_MAX = 100;
export const MESSAGE_MAX = 500;
export const OFFLINE_UNLOCK_MAX_DAYS = 90;
export const RELEASE_CANCEL_HOURS = 48;

const futureInstant = (field: string, maxDays: number) =>
  z
    .string({ error: M.field.date(field) })
    .refine((v) => z.iso.datetime({ offset: true }).safeParse(v).success, { error: M.field.date(field) })
    .refine((v) => Date.parse(v) > Date.now(), { error: M.field.futureDate(field) })
    .refine((v) => Date.parse(v) <= Date.now() + maxDays * 86_400_000, { error: M.field.dateTooFar(field, maxDays) })
    .transform((v) => new Date(v).toISOString());

const noPayload = <const C extends number>(code: C) => z.object({ action: z.literal(code) });

/**
 * POST /v5/devices/:id/actions and the bulk routes: the action code and its payload. HISTORY
 * (7) is not a command (GET …/history); DELETE_DEVICE (11) is DELETE /v5/devices/:id or a bulk action.
 */
export const actionPayload = z.discriminatedUnion(
  'action',
  [
    z.object({
      action: z.literal(DEVICE_ACTION.LOCK),
      lockType: z.enum(LOCK_TYPE_KEYS, { error: M.field.lockType('lockType') }),
      message: optionalText('message', MESSAGE_MAX).default(null),
      /** Reported stolen: the command's origin is LOCK_BY_STOLEN. */
      stolen: z.boolean({ error: M.field.boolean('stolen') }).default(false),
    }),
    z.object({ action: z.literal(DEVICE_ACTION.UNLOCK), until: futureInstant('until', OFFLINE_UNLOCK_MAX_DAYS).nullable().default(null) }),
    noPayload(DEVICE_ACTION.RELEASE),
    noPayload(DEVICE_ACTION.UPDATE_APP_MACRO),
    noPayload(DEVICE_ACTION.UPDATE_APP_BUSINESS),
    z.object({
      action: z.literal(DEVICE_ACTION.SEND_NOTIFICATION),
      title: textField('title', { min: 1, max: NOTIFICATION_TITLE_MAX }),
      message: textField('message', { min: 1, max: MESSAGE_MAX }),
    }),
    z.object({
      action: z.literal(DEVICE_ACTION.CODE_BAR),
      reference: textField('reference', { min: 1, max: 64 }).refine((v) => /^[A-Za-z0-9-]*$/.test(v), { error: M.field.reference('reference') }),
    }),
    noPayload(DEVICE_ACTION.RESTRICTIONS),
    noPayload(DEVICE_ACTION.UNLOCK_OFFLINE),
    noPayload(DEVICE_ACTION.SIM_CARD_SETTING),
    noPayload(DEVICE_ACTION.DELETE_DEVICE),
    z.object({ action: z.literal(DEVICE_ACTION.UNLOCK_OFFLINE_WITH_DATE), until: futureInstant('until', OFFLINE_UNLOCK_MAX_DAYS) }),
    noPayload(DEVICE_ACTION.RELEASE_OFFLINE),
  ],
  { error: M.field.action('action') },
);
export type ActionPayload = z.infer<typeof actionPayload>;
export type ActionPayloadInput = z.input<typeof actionPayload>;
export const actionBody = actionPayload;

/** Offline actions answer a code instead of creating a command for the agent. */
export const OFFLINE_CODE_ACTIONS: readonly number[] = [DEVICE_ACTION.UNLOCK_OFFLINE, DEVICE_ACTION.UNLOCK_OFFLINE_WITH_DATE, DEVICE_ACTION.RELEASE_OFFLINE];

export const COMMAND_STATUSES = ['pending', 'acknowledged', 'rejected', 'cancelled', 'issued', 'redeemed'] as const;
export type CommandStatus = (typeof COMMAND_STATUSES)[number];

/** One entry of a device's history (a command, an offline code, or a registry change). */
export interface Command {
  id: number;
  deviceId: number;
  action: number;
  payload: Record<string, unknown>;
  /** Specification §4 action origin, when the command was not a plain portal request. */
  origin: number | null;
  status: CommandStatus;
  requestedAt: string;
  requestedBy: string | null;
  deliverAfter: string;
  acknowledgedAt: string | null;
  result: string | null;
  /** Offline codes: until when the code is valid. */
  expiresAt: string | null;
  /** RELEASE still inside its cancellation window. */
  cancellable: boolean;
  jobId: number | null;
}

/** The answer of POST /v5/devices/:id/actions. */
export interface ActionResult {
  device: Device | null;
  command: Command | null;
  /** Offline codes are shown once, here, and never again. */
  offlineCode?: { code: string; expiresAt: string };
}

export const HISTORY_DEFAULT_PER_PAGE = 20;
export const historyQuery = z.object({ ...pagingParams(HISTORY_DEFAULT_PER_PAGE) });
export type HistoryQuery = z.infer<typeof historyQuery>;
export type History = ListResponse<Command>;

export const commandParams = z.object({ id: intParam('id', 1, Number.MAX_SAFE_INTEGER), commandId: intParam('commandId', 1, Number.MAX_SAFE_INTEGER) });
export type CommandParams = z.infer<typeof commandParams>;

// Bulk -----------------------------------------------------------------------------------

export const BULK_MAX_DEVICES = 10_000;
export const BULK_BATCH_SIZE = 5_000;

const selection = z
  .object(
    {
      ids: z
        .array(idField('ids'), { error: M.field.ids('ids', BULK_MAX_DEVICES) })
        .min(1, { error: M.field.ids('ids', BULK_MAX_DEVICES) })
        .max(BULK_MAX_DEVICES, { error: M.field.ids('ids', BULK_MAX_DEVICES) })
        .optional(),
      filter: deviceFilter.optional(),
    },
    { error: M.field.selection },
  )
  .refine((s) => (s.ids === undefined) !== (s.filter === undefined), { error: M.field.selection });
export type BulkSelection = z.infer<typeof selection>;

/** POST /v5/devices/bulk-actions/preview and /v5/devices/bulk-actions. */
export const bulkBody = z
  .object({ selection, payload: actionPayload }, { error: F.body })
  .refine((b) => b.payload.action !== DEVICE_ACTION.UNLOCK_OFFLINE && b.payload.action !== DEVICE_ACTION.UNLOCK_OFFLINE_WITH_DATE && b.payload.action !== DEVICE_ACTION.RELEASE_OFFLINE, {
    error: M.field.action('payload.action'),
    path: ['payload', 'action'],
  });
export type BulkBody = z.infer<typeof bulkBody>;
export type BulkBodyInput = z.input<typeof bulkBody>;

/** The dry run of a bulk action. */
export interface BulkPreview {
  /** Devices the selection matches. */
  total: number;
  /** Devices that will get the action. */
  eligible: number;
  /** Matched devices per derived status. */
  byStatus: { status: DeviceStatusCode; count: number }[];
  /** Devices skipped, grouped by the reason. */
  skipped: { reason: string; count: number }[];
  /** Eligible devices that are offline and will get the command when they next check in. */
  offline: number;
  /** The selection exceeds BULK_MAX_DEVICES. */
  overLimit: boolean;
}

export const JOB_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** A bulk action job and its progress. */
export interface Job {
  id: number;
  kind: 'bulk_action';
  action: number;
  status: JobStatus;
  total: number;
  processed: number;
  succeeded: number;
  skipped: number;
  failed: number;
  createdAt: string;
  createdBy: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  error: string | null;
}

export const JOB_RESULT_OUTCOMES = ['done', 'skipped', 'failed'] as const;
export interface JobResult {
  deviceId: number;
  imei: string;
  outcome: (typeof JOB_RESULT_OUTCOMES)[number];
  reason: string | null;
  commandId: number | null;
}

// Registration from CSV --------------------------------------------------------------------

export const IMPORT_MAX_ROWS = 10_000;
export const IMPORT_MAX_BYTES = 2 * 1024 * 1024;

/** The CSV columns, in the template's order (Spanish headers; `imei` and `tipo` required). */
export const IMPORT_COLUMNS = ['imei', 'imei2', 'serie', 'tipo', 'marca', 'modelo', 'grupo', 'cliente', 'referencia_credito'] as const;
export const IMPORT_REQUIRED_COLUMNS = ['imei', 'tipo'] as const;

export const importQuery = z.object({ mode: oneOfParam('mode', ['preview', 'commit']).default('preview') });
export type ImportQuery = z.infer<typeof importQuery>;

export interface ImportRowError {
  /** 1-based line of the data row in the file (the header is line 1). */
  line: number;
  imei: string;
  errors: { field: string; message: string }[];
}

/** The answer of POST /v5/devices/import. */
export interface ImportResult {
  mode: 'preview' | 'commit';
  rows: number;
  valid: number;
  invalid: ImportRowError[];
  /** The first valid rows, as they will be registered (preview table). */
  sample: DeviceBody[];
  /** Devices registered (0 in preview). */
  imported: number;
}

/** Columns of GET /v5/devices/export. */
export const EXPORT_COLUMNS = [
  'id', 'imei', 'imei2', 'serie', 'tipo', 'marca', 'modelo', 'estado', 'tipo_bloqueo', 'grupo', 'cliente', 'referencia_credito',
  'ultima_conexion', 'version_agente', 'enrolado', 'creado',
] as const;

// Groups ---------------------------------------------------------------------------------

export const GROUP_NAME_MAX = 80;
export const GROUP_DESCRIPTION_MAX = 300;

/** POST /v5/groups and PUT /v5/groups/:id. */
export const groupBody = z.object(
  {
    name: textField('name', { min: 1, max: GROUP_NAME_MAX }),
    description: optionalText('description', GROUP_DESCRIPTION_MAX).default(null),
  },
  { error: F.body },
);
export type GroupBody = z.infer<typeof groupBody>;

/** DELETE /v5/groups/:id?moveTo=<id>: move the group's devices before deleting it. */
export const deleteGroupQuery = z.object({ moveTo: intParam('moveTo', 1, 2_147_483_647).optional() });
export type DeleteGroupQuery = z.infer<typeof deleteGroupQuery>;

export interface Group {
  id: number;
  name: string;
  description: string | null;
  deviceCount: number;
  createdAt: string;
  updatedAt: string;
}
export type GroupList = ListResponse<Group>;
