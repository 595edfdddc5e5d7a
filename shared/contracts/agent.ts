import * as z from 'zod';
import { LOCK_TYPES, type LockType } from '../constants/domain';
import { FIELD_LABELS } from '../constants/fieldLabels';
import { AGENT_MESSAGES as A } from '../areaMessages/agent';
import { INVENTORY_MESSAGES as M } from '../areaMessages/inventory';
import { deviceTypeField, imeiField } from './devices';
import { fieldError, optionalTextField, paramError, textField } from './fields';
import { agentBusinessAppResponse } from './agentSettings';

const L = FIELD_LABELS.agent;

/**
 * The device agent's API under /agent/v1 (JSON, a device token instead of a portal session).
 * The agent app, the fleet simulator and the server share these schemas; a bad body is a 400
 * naming the field, as on the portal API.
 */

/** Longest a check-in may wait for a command (long poll), in seconds. */
export const CHECKIN_WAIT_MAX_SECONDS = 25;
/** When the agent should check in again after an answer without commands (its own jitter added). */
export const CHECKIN_INTERVAL_SECONDS = 30;
/** Longest reason a rejection may carry. */
export const REJECT_REASON_MAX = 500;

const LOCK_TYPE_KEYS = LOCK_TYPES.map((t) => t.key) as unknown as readonly [LockType, ...LockType[]];

/** A SIM as the agent reads it: its ICCID (18 to 22 digits, a trailing F allowed) and carrier name. */
export const simField = z.object(
  {
    iccid: z
      .string({ error: fieldError(L.simIccid, A.field.iccid(L.simIccid)) })
      .trim()
      .toUpperCase()
      .regex(/^\d{18,21}F?$/, { error: A.field.iccid(L.simIccid) }),
    carrier: optionalTextField(L.simCarrier, 60).default(null),
  },
  { error: A.field.sim(L.sim) },
);
export type Sim = z.infer<typeof simField>;

const versionField = (label: string) => optionalTextField(label, 40);

/** A base64url coordinate of a P-256 point (32 bytes). */
const COORDINATE = /^[A-Za-z0-9_-]{43}$/;

/**
 * The public half of the key pair the agent generated on the device, as a JWK (EC P-256): every
 * later request is signed with its private half (server/agent/requestSignature.ts). Other JWK
 * members (kid, use, alg…) are ignored; a private key (`d`) is refused.
 */
export const publicKeyField = z
  .looseObject(
    {
      kty: z.literal('EC', { error: A.field.publicKey(L.publicKey) }),
      crv: z.literal('P-256', { error: A.field.publicKey(L.publicKey) }),
      x: z.string({ error: A.field.publicKey(L.publicKey) }).regex(COORDINATE, { error: A.field.publicKey(L.publicKey) }),
      y: z.string({ error: A.field.publicKey(L.publicKey) }).regex(COORDINATE, { error: A.field.publicKey(L.publicKey) }),
    },
    { error: fieldError(L.publicKey, A.field.publicKey(L.publicKey)) },
  )
  .refine((k) => !('d' in k), { error: A.field.publicKeyPrivate(L.publicKey) })
  .transform(({ kty, crv, x, y }) => ({ kty, crv, x, y }));
export type AgentPublicKey = z.infer<typeof publicKeyField>;

/** What the device must show now, as the server knows it (a new agent learns it at enrollment and at every check-in). */
export const agentLockResponse = z.strictObject({
  /** The device is locked (Bloqueado, or a temporary unlock whose date has passed). */
  locked: z.boolean(),
  /** The lock's type (PorCredito, PorNoConexion, PorCambioSIM, SinKiosko) while locked or temporarily unlocked. */
  lockType: z.string().nullable(),
  /** The message the lock screen shows (null: the settings' default). */
  message: z.string().nullable(),
  /** A temporary unlock's end (the device locks again then). */
  temporaryUntil: z.string().nullable(),
});
export type AgentLock = z.infer<typeof agentLockResponse>;

/** POST /agent/v1/enroll: what the device says of itself, and the token it read from the QR code (or typed). */
export const enrollBody = z.object(
  {
    /** From the QR code's extras bundle, or the short code typed on a TV (dashes and case do not matter). */
    enrollmentToken: z.preprocess(
      (v) => (typeof v === 'string' ? v.replace(/[\s-]/g, '').toUpperCase() : v),
      z
        .string({ error: A.field.enrollmentToken(L.enrollmentToken) })
        .max(64, { error: A.field.enrollmentToken(L.enrollmentToken) })
        .nullable()
        .default(null),
    ),
    imei: imeiField(L.imei),
    imei2: z.preprocess((v) => (v === '' ? null : v), imeiField(L.imei2).nullable()).default(null),
    serial: optionalTextField(L.serial, 64).default(null),
    deviceType: deviceTypeField(L.deviceType),
    brand: optionalTextField(L.brand, 60).default(null),
    model: optionalTextField(L.model, 80).default(null),
    osVersion: versionField(L.osVersion).default(null),
    agentVersion: versionField(L.agentVersion).default(null),
    sim: simField.nullable().default(null),
    publicKey: publicKeyField,
  },
  { error: A.field.body },
);
export type EnrollBody = z.infer<typeof enrollBody>;
export type EnrollBodyInput = z.input<typeof enrollBody>;

/**
 * Every refusal of POST /agent/v1/enroll: its stable code and HTTP status (the body is
 * `{ code, message }`, the message in Spanish). A validation error (400 VALIDATION, naming the
 * field) and the per-IP limit (429 RATE_LIMITED) come before these.
 */
export const ENROLL_REFUSALS = {
  /** The token does not exist (mistyped, or from another installation). */
  ENROLLMENT_TOKEN_INVALID: 401,
  ENROLLMENT_TOKEN_EXPIRED: 401,
  /** Revoked by an administrator or replaced by a newer code of its scope ('Regenerar'). */
  ENROLLMENT_TOKEN_REVOKED: 401,
  /** A device's own token (its re-enrollment authorisation) already enrolled it once. */
  ENROLLMENT_TOKEN_USED: 401,
  /** No token, and the device's settings require the QR code (require_QR_validation). */
  ENROLLMENT_TOKEN_REQUIRED: 403,
  /** A token issued for another device. */
  ENROLLMENT_OTHER_DEVICE: 403,
  /** The IMEI is not registered and its group does not admit unregistered devices. */
  NOT_REGISTERED: 403,
  /** The device is registered in another group than the token's. */
  ENROLLMENT_OTHER_GROUP: 403,
  ENROLLMENT_TYPE_MISMATCH: 403,
  /** No SIM, and the settings require one (require_sim_for_enroll). */
  ENROLLMENT_SIM_REQUIRED: 403,
  /** The device is enrolled: only its re-enrollment authorisation enrolls it again. */
  ALREADY_ENROLLED: 409,
  DEVICE_RELEASED: 409,
  /** Two enrollments of the same unregistered IMEI at once: the other one registered it. */
  IMEI_TAKEN: 409,
} as const;
export type EnrollRefusal = keyof typeof ENROLL_REFUSALS;

/** The Spanish message of an enrollment refusal (IMEI_TAKEN names the IMEI and is built where it happens). */
export function enrollRefusalMessage(code: Exclude<EnrollRefusal, 'IMEI_TAKEN'>): string {
  const E = A.enroll;
  const messages: Record<Exclude<EnrollRefusal, 'IMEI_TAKEN'>, string> = {
    ENROLLMENT_TOKEN_INVALID: E.invalidToken,
    ENROLLMENT_TOKEN_EXPIRED: E.tokenExpired,
    ENROLLMENT_TOKEN_REVOKED: E.tokenRevoked,
    ENROLLMENT_TOKEN_USED: E.tokenUsed,
    ENROLLMENT_TOKEN_REQUIRED: E.tokenRequired,
    ENROLLMENT_OTHER_DEVICE: E.otherDevice,
    NOT_REGISTERED: E.notRegistered,
    ENROLLMENT_OTHER_GROUP: E.otherGroup,
    ENROLLMENT_TYPE_MISMATCH: E.typeMismatch,
    ENROLLMENT_SIM_REQUIRED: E.simRequired,
    ALREADY_ENROLLED: E.alreadyEnrolled,
    DEVICE_RELEASED: E.released,
  };
  return messages[code];
}

export const enrollResponse = z.strictObject({
  deviceId: z.number().int(),
  /** The device's credential for every later call (`Authorization: Bearer …`); shown once. */
  deviceToken: z.string(),
  /** The key the offline codes are derived with (base64url), for the agent to check them with no network. */
  offlineSecret: z.string(),
  /** The nonce after which this secret's codes start (the agent accepts the next ones). */
  offlineNonce: z.number().int(),
  status: z.number().int(),
  /** What the device must show now: a re-enrolled device that was locked stays locked. */
  lock: agentLockResponse,
  serverTime: z.string(),
});
export type EnrollResponse = z.infer<typeof enrollResponse>;

/** POST /agent/v1/checkin: what the agent reports; `wait` asks the server to hold the answer until a command arrives. */
export const checkinBody = z.object(
  {
    wait: z
      .int({ error: A.field.wait(L.wait, CHECKIN_WAIT_MAX_SECONDS) })
      .min(0, { error: A.field.wait(L.wait, CHECKIN_WAIT_MAX_SECONDS) })
      .max(CHECKIN_WAIT_MAX_SECONDS, { error: A.field.wait(L.wait, CHECKIN_WAIT_MAX_SECONDS) })
      .default(0),
    osVersion: versionField(L.osVersion).optional(),
    agentVersion: versionField(L.agentVersion).optional(),
    /** The SIM in the device now (null: none); absent when the agent cannot read it. */
    sim: simField.nullable().optional(),
    batteryLevel: z
      .int({ error: A.field.battery(L.batteryLevel) })
      .min(0, { error: A.field.battery(L.batteryLevel) })
      .max(100, { error: A.field.battery(L.batteryLevel) })
      .optional(),
    /** What the device shows now, as the agent sees it. */
    lockState: z.enum(['locked', 'unlocked'], { error: A.field.lockState(L.lockState) }).optional(),
  },
  { error: A.field.body },
);
export type CheckinBody = z.infer<typeof checkinBody>;
export type CheckinBodyInput = z.input<typeof checkinBody>;

/** A command as the agent receives it. */
export const agentCommand = z.strictObject({
  id: z.number().int(),
  action: z.number().int(),
  /** What the action needs: lock type and message, notification title and text, payment reference, temporary date… */
  payload: z.record(z.string(), z.unknown()),
  requestedAt: z.string(),
});
export type AgentCommand = z.infer<typeof agentCommand>;

export const checkinResponse = z.strictObject({
  /** Commands to carry out, oldest first; the same one comes again until it is acknowledged or rejected. */
  commands: z.array(agentCommand),
  /** The version of the agent settings for the device's type and group (fetch GET /agent/v1/settings when it changes). */
  settingsVersion: z.number().int(),
  /** The reference §4 status the portal shows for the device now. */
  status: z.number().int(),
  /** What the device must show now. */
  lock: agentLockResponse,
  /** Seconds until the next check-in. */
  nextCheckinSeconds: z.number().int(),
  serverTime: z.string(),
});
export type CheckinResponse = z.infer<typeof checkinResponse>;

/** POST /agent/v1/commands/:id/reject. */
export const rejectBody = z.object(
  { reason: textField(L.reason, { min: 1, max: REJECT_REASON_MAX }) },
  {
    error: A.field.body,
  },
);
export type RejectBody = z.infer<typeof rejectBody>;

export const commandIdParams = z.object({
  id: z
    .string({ error: paramError(L.commandId, A.field.commandId(L.commandId)) })
    .regex(/^\d{1,15}$/, { error: A.field.commandId(L.commandId) })
    .transform(Number)
    .refine((n) => n >= 1, { error: A.field.commandId(L.commandId) }),
});

/** The answer of an acknowledgement or a rejection (a repeated one answers the first result). */
export const commandOutcomeResponse = z.strictObject({
  id: z.number().int(),
  action: z.number().int(),
  status: z.enum(['acknowledged', 'rejected', 'cancelled']),
  acknowledgedAt: z.string().nullable(),
  result: z.string().nullable(),
  /** The device's status after it. */
  deviceStatus: z.number().int(),
});
export type CommandOutcome = z.infer<typeof commandOutcomeResponse>;

/** POST /agent/v1/events: what happened on the device without the server asking. */
export const AGENT_EVENT_TYPES = ['offline_code', 'offline_lock', 'tamper_lock', 'sim_removed', 'temporary_expired'] as const;
export type AgentEventType = (typeof AGENT_EVENT_TYPES)[number];
export const eventBody = z.discriminatedUnion(
  'type',
  [
    /** The customer typed an offline code and the agent accepted it (the server checks it again, once). */
    z.object({
      type: z.literal('offline_code'),
      code: z.string({ error: fieldError(L.code, A.field.code(L.code)) }).regex(/^\d{8}$/, { error: A.field.code(L.code) }),
      /** When the customer typed it on the device (it may be reported later, once the device is online). */
      redeemedAt: z
        .string({ error: fieldError(L.redeemedAt, A.field.instant(L.redeemedAt)) })
        .pipe(z.iso.datetime({ offset: true, error: A.field.instant(L.redeemedAt) }))
        .transform((v) => new Date(v)),
    }),
    /** The agent locked the device itself after too long without connection ('Por No Conexión'). */
    z.object({ type: z.literal('offline_lock') }),
    /** The agent locked the device after detecting tampering. */
    z.object({
      type: z.literal('tamper_lock'),
      lockType: z.enum(LOCK_TYPE_KEYS, { error: M.field.lockType(L.lockType) }).default('PorCredito'),
      detail: optionalTextField(L.detail, 200).default(null),
    }),
    /** The SIM was taken out ('Por Cambio SIM' lock when enabled_lock_for_remove_sim applies). */
    z.object({ type: z.literal('sim_removed') }),
    /** A temporary unlock ran out on the device: locked again. */
    z.object({ type: z.literal('temporary_expired') }),
  ],
  { error: fieldError(L.type, A.field.eventType(L.type)) },
);
export type AgentEvent = z.infer<typeof eventBody>;

export const eventResponse = z.strictObject({
  /** Whether the event changed the device (a repeated or inapplicable event is answered, not applied). */
  applied: z.boolean(),
  /** The reference §4 status the portal shows for the device now. */
  status: z.number().int(),
  /** For an offline code: the action it carried. */
  action: z.number().int().optional(),
});
export type EventResponse = z.infer<typeof eventResponse>;

/**
 * GET /agent/v1/settings: what applies to the device (its type's defaults, the global values, its
 * group's overrides), the lock screen's logo, the business apps to install (smartphones) and the
 * current lock-app version. Answered with an ETag (the version): `If-None-Match` → 304.
 */
export const agentSettingsResponse = z.strictObject({
  version: z.number().int(),
  settings: z.record(z.string(), z.union([z.boolean(), z.number(), z.string(), z.null()])),
  /** Where to download the lock screen's logo (null: none). */
  logoUrl: z.string().nullable(),
  businessApps: z.array(agentBusinessAppResponse),
  lockApp: z
    .strictObject({
      versionName: z.string(),
      versionApp: z.string(),
      appType: z.number().int(),
      packageName: z.string().nullable(),
      downloadUrl: z.string().nullable(),
      sha256: z.string().nullable(),
    })
    .nullable(),
});
export type AgentSettingsAnswer = z.infer<typeof agentSettingsResponse>;
