import * as z from 'zod';
import { FIELD_LABELS } from '../constants/fieldLabels';
import { INTEGRATION_MESSAGES as M } from '../areaMessages/integration';
import { ADMIN_API_MESSAGES } from '../areaMessages/admin';
import { fieldError, idField, listResponse, textField } from './fields';

const F = ADMIN_API_MESSAGES.field;
const L = FIELD_LABELS.apiKeys;

/** API keys of the integration API (/v5/api-keys). */

export const API_KEY_NAME_MAX = 80;
export const API_KEY_CIDRS_MAX = 50;

/** An IPv4 address or block (`a.b.c.d` or `a.b.c.d/n`). */
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}(\/(3[0-2]|[12]?\d))?$/;
/** An IPv6 address or block, loosely (hex groups and colons, optional `/n` up to 128); the server checks it exactly. */
const IPV6 = /^[0-9a-fA-F:.]{2,45}(\/(12[0-8]|1[01]\d|[1-9]?\d))?$/;
/** Whether a value looks like an IP address or CIDR block (the page's check; the server also parses it). */
export const looksLikeCidr = (v: string) => IPV4.test(v) || (v.includes(':') && IPV6.test(v));

/** POST /v5/api-keys. */
export const apiKeyBody = z.object(
  {
    name: textField(L.name, { min: 1, max: API_KEY_NAME_MAX }),
    profileId: idField(L.profileId),
    allowedIps: z
      .array(z.string({ error: M.field.cidrList(L.allowedIps) }).trim(), { error: M.field.cidrList(L.allowedIps) })
      .max(API_KEY_CIDRS_MAX, { error: M.field.cidrCount(L.allowedIps, API_KEY_CIDRS_MAX) })
      .transform((list) => list.filter((v) => v !== ''))
      .superRefine((list, ctx) => {
        const bad = list.find((v) => !looksLikeCidr(v));
        if (bad !== undefined) ctx.addIssue({ code: 'custom', message: M.field.cidr(L.allowedIps, bad) });
      })
      .default([]),
    expiresAt: z
      .string({ error: fieldError(L.expiresAt, M.field.futureDate(L.expiresAt)) })
      .refine((v) => z.iso.datetime({ offset: true }).safeParse(v).success && Date.parse(v) > Date.now(), {
        error: M.field.futureDate(L.expiresAt),
      })
      .transform((v) => new Date(v).toISOString())
      .nullable()
      .default(null),
  },
  { error: F.body },
);
export type ApiKeyBody = z.infer<typeof apiKeyBody>;
export type ApiKeyBodyInput = z.input<typeof apiKeyBody>;

/** A key as the API answers it (never its secret, only its public prefix). */
export const apiKeyResponse = z.strictObject({
  id: z.number().int(),
  name: z.string(),
  /** The public start of the key (`mlk_XXXXXXXX`): how a key is recognised in lists and logs. */
  prefix: z.string(),
  /** Null once the role of a revoked key was deleted. */
  profileId: z.number().int().nullable(),
  profileName: z.string().nullable(),
  allowedIps: z.array(z.string()),
  expiresAt: z.string().nullable(),
  createdBy: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  lastUsedIp: z.string().nullable(),
  revokedAt: z.string().nullable(),
  revokedBy: z.string().nullable(),
  /** active, expired or revoked. */
  state: z.enum(['active', 'expired', 'revoked']),
  /** False when the key's role holds a path or action the caller lacks: the caller may not revoke it. */
  manageable: z.boolean(),
});
export type ApiKey = z.infer<typeof apiKeyResponse>;

/** GET /v5/api-keys: active and expired first, newest first. */
export const apiKeyListResponse = listResponse(apiKeyResponse);
export type ApiKeyList = z.infer<typeof apiKeyListResponse>;

/** The answer of the creation: the key and, once, its whole secret. */
export const apiKeyCreatedResponse = z.strictObject({ key: apiKeyResponse, secret: z.string() });
export type ApiKeyCreated = z.infer<typeof apiKeyCreatedResponse>;

/** GET /v5/api-keys/roles: the roles a key may be given; `grantable` is false for a role holding more than the caller. */
export const apiKeyRolesResponse = z.strictObject({
  data: z.array(z.strictObject({ id: z.number().int(), name: z.string(), grantable: z.boolean() })),
});
export type ApiKeyRoles = z.infer<typeof apiKeyRolesResponse>;
