import * as z from 'zod';
import { FIELD_LABELS } from '../constants/fieldLabels';
import { AGENT_MESSAGES as A } from '../areaMessages/agent';
import { fieldError, idField, intParam, listResponse, pagingParams } from './fields';

const L = FIELD_LABELS.enrollmentTokens;

/**
 * Enrollment tokens (portal API /api/v5/enrollment-tokens): what a QR code carries to a new
 * device. A token belongs to a group (any registered device of that group, or unregistered ones
 * when the group allows them), to one pre-enrolled device, or to neither (devices with no group).
 * It is shown once, at creation, and stored hashed; 'Regenerar' creates a new one and revokes the
 * previous ones of the same scope.
 */

export const ENROLLMENT_TOKEN_DEFAULT_HOURS = 72;
export const ENROLLMENT_TOKEN_MAX_HOURS = 24 * 30;
/** A re-enrollment authorisation is short-lived by default: the device is being reset now. */
export const REENROLLMENT_DEFAULT_HOURS = 24;

const validHoursField = (defaultHours: number) =>
  z
    .int({ error: fieldError(L.validHours, A.field.validHours(L.validHours, ENROLLMENT_TOKEN_MAX_HOURS)) })
    .min(1, { error: A.field.validHours(L.validHours, ENROLLMENT_TOKEN_MAX_HOURS) })
    .max(ENROLLMENT_TOKEN_MAX_HOURS, { error: A.field.validHours(L.validHours, ENROLLMENT_TOKEN_MAX_HOURS) })
    .default(defaultHours);

/** Android's device-owner provisioning: the lock app's admin component (package/receiver). */
export const AGENT_ADMIN_COMPONENT = 'mx.macrolock.agent/.AdminReceiver';
/** The keys of the extras bundle the provisioned agent reads. */
export const PROVISIONING_EXTRAS = { serverUrl: 'mx.macrolock.agent.SERVER_URL', token: 'mx.macrolock.agent.ENROLLMENT_TOKEN' } as const;

/** POST /v5/enrollment-tokens. */
export const enrollmentTokenBody = z
  .object(
    {
      groupId: idField(L.groupId).nullable().default(null),
      deviceId: idField(L.deviceId).nullable().default(null),
      validHours: validHoursField(ENROLLMENT_TOKEN_DEFAULT_HOURS),
    },
    { error: A.field.body },
  )
  .refine((b) => b.groupId === null || b.deviceId === null, { error: A.field.scope, path: ['deviceId'] });
export type EnrollmentTokenBody = z.infer<typeof enrollmentTokenBody>;
export type EnrollmentTokenBodyInput = z.input<typeof enrollmentTokenBody>;

/** GET /v5/enrollment-tokens?groupId=…|deviceId=… (neither: the tokens for devices with no group). */
export const enrollmentTokenQuery = z.object({
  groupId: intParam(L.groupId, 1, 2_147_483_647).optional(),
  deviceId: intParam(L.deviceId, 1, 2_147_483_647).optional(),
});
export type EnrollmentTokenQuery = z.infer<typeof enrollmentTokenQuery>;

/** A live token as the list shows it (never the token itself). */
export const enrollmentTokenResponse = z.strictObject({
  id: z.number().int(),
  groupId: z.number().int().nullable(),
  deviceId: z.number().int().nullable(),
  /** The last four characters, to tell tokens apart. */
  hint: z.string(),
  createdAt: z.string(),
  createdBy: z.string().nullable(),
  expiresAt: z.string(),
  uses: z.number().int(),
  lastUsedAt: z.string().nullable(),
});
export type EnrollmentToken = z.infer<typeof enrollmentTokenResponse>;
export const enrollmentTokenListResponse = z.strictObject({ data: z.array(enrollmentTokenResponse) });
export type EnrollmentTokenList = z.infer<typeof enrollmentTokenListResponse>;

/** The answer of POST: the token once, as a smartphone QR code and as a code to type on a TV. */
export const enrollmentTokenCreatedResponse = z.strictObject({
  ...enrollmentTokenResponse.shape,
  /** The token (what the QR code carries). */
  token: z.string(),
  /** The same token grouped for typing with a remote: XXXX-XXXX-XXXX. */
  shortCode: z.string(),
  /** Where agents reach the service (the extras bundle's server URL). */
  serverUrl: z.string(),
  smartphone: z.strictObject({
    /** Android's device-owner provisioning payload (JSON), or null when the current lock-app version has no download URL and checksum. */
    provisioningPayload: z.string().nullable(),
    /** Why there is no provisioning payload (Spanish), when there is none. */
    missing: z.string().nullable(),
    /** The QR code (SVG markup) of the provisioning payload, or of the extras alone when there is none. */
    qrSvg: z.string(),
  }),
});
export type EnrollmentTokenCreated = z.infer<typeof enrollmentTokenCreatedResponse>;

/**
 * POST /v5/enrollment-tokens/reenrollments ('Autorizar reenrolamiento'): a token for one enrolled
 * device, which only it can use, once, within `validHours` (default 24): the way a device that was
 * factory-reset enrolls again. Any earlier live token of the device is revoked.
 */
export const reenrollmentBody = z.object(
  {
    deviceId: idField(L.deviceId),
    validHours: validHoursField(REENROLLMENT_DEFAULT_HOURS),
  },
  { error: A.field.body },
);
export type ReenrollmentBody = z.infer<typeof reenrollmentBody>;
export type ReenrollmentBodyInput = z.input<typeof reenrollmentBody>;

/** Which token an enrollment attempt presented: none, one that does not exist, a group's, the no-group one, the device's own. */
export const ENROLLMENT_TOKEN_KINDS = ['none', 'unknown', 'group', 'no_group', 'device'] as const;

/** One entry of a device's enrollments (GET /v5/devices/:id/enrollments): an enrollment, a refusal, an authorisation. */
export const enrollmentAttemptResponse = z.strictObject({
  id: z.number().int(),
  at: z.string(),
  kind: z.enum(['enrolled', 'refused', 'authorized']),
  /** A refusal's stable code (ENROLL_REFUSALS). */
  code: z.string().nullable(),
  /** A refusal's Spanish message. */
  message: z.string().nullable(),
  token: z.enum(ENROLLMENT_TOKEN_KINDS).nullable(),
  /** An enrollment of a device that had been enrolled before (authorised). */
  reenrolled: z.boolean(),
  /** The agent (`dispositivo <IMEI>`) or the administrator who authorised it. */
  by: z.string().nullable(),
  ip: z.string().nullable(),
  /** An authorisation's expiry. */
  expiresAt: z.string().nullable(),
});
export type EnrollmentAttempt = z.infer<typeof enrollmentAttemptResponse>;
export const enrollmentAttemptsQuery = z.object({ ...pagingParams(10) });
export type EnrollmentAttemptsQuery = z.infer<typeof enrollmentAttemptsQuery>;
export const enrollmentAttemptsResponse = listResponse(enrollmentAttemptResponse);
export type EnrollmentAttempts = z.infer<typeof enrollmentAttemptsResponse>;
