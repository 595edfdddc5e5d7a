import * as z from 'zod';
import { HISTORY_DEFAULT_PER_PAGE, MESSAGE_MAX, NOTIFICATION_TITLE_MAX, OFFLINE_UNLOCK_MAX_DAYS } from '../constants/limits';
import { DEVICE_ACTION } from '../constants/deviceActions';
import { FIELD_LABELS } from '../constants/fieldLabels';
import { INVENTORY_MESSAGES as M } from '../areaMessages/inventory';
import { deviceResponse } from './devices';
import { fieldError, intParam, listResponse, optionalTextField, pagingParams, textField } from './fields';
import { LOCK_TYPE_KEYS } from '../constants/limits';

const L = FIELD_LABELS.actions;

/** Device actions (POST /v5/devices/:id/actions), their commands and a device's history. */

const futureInstant = (label: string, maxDays: number) =>
  z
    .string({ error: fieldError(label, M.field.date(label)) })
    .refine((v) => z.iso.datetime({ offset: true }).safeParse(v).success, { error: M.field.date(label) })
    .refine((v) => Date.parse(v) > Date.now(), { error: M.field.futureDate(label) })
    .refine((v) => Date.parse(v) <= Date.now() + maxDays * 86_400_000, { error: M.field.dateTooFar(label, maxDays) })
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
      lockType: z.enum(LOCK_TYPE_KEYS, { error: fieldError(L.lockType, M.field.lockType(L.lockType)) }),
      message: optionalTextField(L.lockMessage, MESSAGE_MAX).default(null),
      /** Reported stolen: the command's origin is LOCK_BY_STOLEN. */
      stolen: z.boolean({ error: M.field.boolean(L.stolen) }).default(false),
    }),
    z.object({ action: z.literal(DEVICE_ACTION.UNLOCK), until: futureInstant(L.until, OFFLINE_UNLOCK_MAX_DAYS).nullable().default(null) }),
    noPayload(DEVICE_ACTION.RELEASE),
    noPayload(DEVICE_ACTION.UPDATE_APP_MACRO),
    noPayload(DEVICE_ACTION.UPDATE_APP_BUSINESS),
    z.object({
      action: z.literal(DEVICE_ACTION.SEND_NOTIFICATION),
      title: textField(L.title, { min: 1, max: NOTIFICATION_TITLE_MAX }),
      message: textField(L.message, { min: 1, max: MESSAGE_MAX }),
      /** Stays on the screen until the customer acknowledges it; the agent acknowledges the command then. */
      persistent: z.boolean({ error: M.field.boolean(L.persistent) }).optional(),
    }),
    z.object({
      action: z.literal(DEVICE_ACTION.CODE_BAR),
      reference: textField(L.reference, { min: 1, max: 64 }).refine((v) => /^[A-Za-z0-9-]*$/.test(v), { error: M.field.reference(L.reference) }),
    }),
    z.object({
      action: z.literal(DEVICE_ACTION.RESTRICTIONS),
      /**
       * The collection restrictions (SMS, outgoing calls but emergency numbers) on top of the
       * restriction set: true adds them, false lifts them, absent leaves them as they are.
       */
      collection: z.boolean({ error: M.field.boolean(L.collectionRestrictions) }).optional(),
    }),
    noPayload(DEVICE_ACTION.UNLOCK_OFFLINE),
    noPayload(DEVICE_ACTION.SIM_CARD_SETTING),
    noPayload(DEVICE_ACTION.DELETE_DEVICE),
    z.object({ action: z.literal(DEVICE_ACTION.UNLOCK_OFFLINE_WITH_DATE), until: futureInstant(L.validUntil, OFFLINE_UNLOCK_MAX_DAYS) }),
    noPayload(DEVICE_ACTION.RELEASE_OFFLINE),
  ],
  { error: fieldError(L.action, M.field.action(L.action)) },
);
export type ActionPayload = z.infer<typeof actionPayload>;
export type ActionPayloadInput = z.input<typeof actionPayload>;
export const actionBody = actionPayload;

export const COMMAND_STATUSES = ['pending', 'acknowledged', 'rejected', 'cancelled', 'issued', 'redeemed'] as const;
export type CommandStatus = (typeof COMMAND_STATUSES)[number];

/** One entry of a device's history (a command, an offline code, or a registry change). */
export const commandResponse = z.strictObject({
  id: z.number().int(),
  deviceId: z.number().int(),
  action: z.number().int(),
  payload: z.record(z.string(), z.unknown()),
  /** The reference §4 action origin, when the command was not a plain portal request. */
  origin: z.number().int().nullable(),
  status: z.enum(COMMAND_STATUSES),
  requestedAt: z.string(),
  requestedBy: z.string().nullable(),
  deliverAfter: z.string(),
  /** When an agent's check-in first received it. */
  deliveredAt: z.string().nullable(),
  acknowledgedAt: z.string().nullable(),
  result: z.string().nullable(),
  /** Offline codes: until when the code is valid. */
  expiresAt: z.string().nullable(),
  /** Not yet received by the device (a RELEASE inside its window included): it can be cancelled. */
  cancellable: z.boolean(),
  jobId: z.number().int().nullable(),
});
export type Command = z.infer<typeof commandResponse>;

/** The answer of POST /v5/devices/:id/actions. */
export const actionResultResponse = z.strictObject({
  device: deviceResponse.nullable(),
  command: commandResponse.nullable(),
  /** Offline codes are shown once, here, and never again. */
  offlineCode: z.strictObject({ code: z.string(), expiresAt: z.string() }).optional(),
});
export type ActionResult = z.infer<typeof actionResultResponse>;

export const historyQuery = z.object({ ...pagingParams(HISTORY_DEFAULT_PER_PAGE) });
export type HistoryQuery = z.infer<typeof historyQuery>;
/** GET /v5/devices/:id/history. */
export const historyResponse = listResponse(commandResponse);
export type History = z.infer<typeof historyResponse>;

export const commandParams = z.object({
  id: intParam(FIELD_LABELS.params.id, 1, Number.MAX_SAFE_INTEGER),
  commandId: intParam(L.commandId, 1, Number.MAX_SAFE_INTEGER),
});
export type CommandParams = z.infer<typeof commandParams>;

/** The lock type the portal proposes for one device type: its global value and the groups whose own value differs. */
const lockDefaultsOfType = z.strictObject({
  global: z.enum(LOCK_TYPE_KEYS),
  /** Group id → the group's lock type; only groups whose value differs from `global`. */
  groups: z.record(z.string().regex(/^\d+$/), z.enum(LOCK_TYPE_KEYS)),
});

/**
 * GET /v5/devices/lock-defaults: the agent setting `default_lock_type` (global and per-group
 * overrides merged) of each device type, what the lock dialog starts on.
 */
export const lockDefaultsResponse = z.strictObject({
  byType: z.strictObject({ 1: lockDefaultsOfType, 2: lockDefaultsOfType }),
});
export type LockDefaults = z.infer<typeof lockDefaultsResponse>;
