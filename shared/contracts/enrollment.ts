import * as z from 'zod';
import { FIELD_LABELS } from '../constants/fieldLabels';
import { AGENT_MESSAGES as A } from '../areaMessages';
import { fieldError, idField, intParam } from './fields';

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
      validHours: z
        .int({ error: fieldError(L.validHours, A.field.validHours(L.validHours, ENROLLMENT_TOKEN_MAX_HOURS)) })
        .min(1, { error: A.field.validHours(L.validHours, ENROLLMENT_TOKEN_MAX_HOURS) })
        .max(ENROLLMENT_TOKEN_MAX_HOURS, { error: A.field.validHours(L.validHours, ENROLLMENT_TOKEN_MAX_HOURS) })
        .default(ENROLLMENT_TOKEN_DEFAULT_HOURS),
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
