import * as z from 'zod';
import { DEVICE_ACTIONS, type DeviceActionKey } from '../constants/deviceActions';
import { FIELD_LABELS } from '../constants/fieldLabels';
import { ADMIN_API_MESSAGES as M } from '../areaMessages/admin';
import { csvZoneFields, dateParam, listResponse, oneOfParam, pagingParams, textParam } from './fields';

const L = FIELD_LABELS.audit;

export const AUDIT_OUTCOMES = ['success', 'failure'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

/** Every entity the server records in the audit log. */
export const AUDIT_ENTITIES = [
  'role',
  'admin',
  'session',
  'audit',
  'device',
  'group',
  'job',
  'enrollment_token',
  'agent_settings',
  'business_app',
  'lock_app_version',
  'api_key',
  'webhook',
  'credit',
  'collection_policy',
] as const;
export type AuditEntity = (typeof AUDIT_ENTITIES)[number];

/** A device action is recorded under its key in lower case, e.g. 'lock', 'delete_device'. */
export type DeviceAuditAction = Lowercase<DeviceActionKey>;
export const deviceAuditAction = <K extends DeviceActionKey>(key: K): Lowercase<K> => key.toLowerCase() as Lowercase<K>;

/** The actions that are not a device action. */
export const AUDIT_GENERAL_ACTIONS = [
  'create',
  'update',
  'delete',
  'duplicate',
  'disable',
  'enable',
  'reset_password',
  'sign_in',
  'sign_out',
  'export',
  'import',
  'cancel_release',
  'cancel_command',
  // A scheduled RELEASE delivered before the end of its cancel window.
  'deliver_release_now',
  'bulk_action',
  // The device side (the actor is the device's agent, or the server's clock).
  'enroll',
  'enroll_refused',
  'authorize_reenroll',
  'acknowledge',
  'reject',
  'redeem_offline_code',
  'agent_lock',
  'sim_change_lock',
  'temporary_expired',
  'hold',
  'resume',
  'revoke',
  // Agent settings: the current lock-app version.
  'set_current',
  // The integration: a device looked up with an API key, a webhook delivery sent again, an API key refused.
  'lookup',
  'resend',
  'refuse',
  // Credits: a payment registered or reversed.
  'register_payment',
  'reverse_payment',
  // The collection policy: a credit's pause (Promesa de pago) and its end, a release approved or rejected.
  'pause_collection',
  'resume_collection',
  'approve_release',
  'reject_release',
] as const;
/** Every action the server records in the audit log. */
export type AuditAction = (typeof AUDIT_GENERAL_ACTIONS)[number] | DeviceAuditAction;
export const AUDIT_ACTIONS: readonly AuditAction[] = [...AUDIT_GENERAL_ACTIONS, ...DEVICE_ACTIONS.map((a) => deviceAuditAction(a.key))];

/**
 * GET /v5/audit and /v5/audit/export: `actor` (e-mail or name typed at sign-in, exact,
 * case-insensitive), `entity`, `entityId`, `action`, `outcome`, `from`/`to` (inclusive; a bare
 * date covers the whole day; both between DATE_PARAM_MIN and DATE_PARAM_MAX), `page`/`perPage`
 * (the export ignores them).
 */
const auditQueryFields = {
  actor: textParam(L.actor, 254).optional(),
  entity: textParam(L.entity, 50).optional(),
  entityId: textParam(L.entityId, 100).optional(),
  action: textParam(L.action, 50).optional(),
  outcome: oneOfParam(L.outcome, AUDIT_OUTCOMES).optional(),
  from: dateParam(L.from).optional(),
  to: dateParam(L.to).optional(),
  ...pagingParams(50),
};

/** The bounds as the repository reads them: lower inclusive, upper exclusive (the day after a bare date). */
const withBounds = <T extends { from?: { start: Date }; to?: { end: Date } }>({ from, to, ...rest }: T) => ({
  ...rest,
  from: from?.start,
  before: to?.end,
});
const ordered = (q: { from?: Date; before?: Date }) => !q.from || !q.before || q.from < q.before;

export const auditQuery = z
  .object(auditQueryFields)
  .transform(withBounds)
  .refine(ordered, { error: M.param.range, path: ['from'] });
export type AuditQuery = z.infer<typeof auditQuery>;

/** GET /v5/audit/export: the same filters and `tz`, the zone the dates of the file are written in. */
export const auditExportQuery = z
  .object({ ...auditQueryFields, ...csvZoneFields })
  .transform(withBounds)
  .refine(ordered, { error: M.param.range, path: ['from'] });
export type AuditExportQuery = z.infer<typeof auditExportQuery>;

/** One row of the audit log as the API answers it. `before`/`after` are JSON snapshots. */
export const auditEntryResponse = z.strictObject({
  id: z.number().int(),
  at: z.string(),
  actorAdminId: z.number().int().nullable(),
  actorEmail: z.string().nullable(),
  ip: z.string().nullable(),
  requestId: z.string().nullable(),
  entity: z.string(),
  entityId: z.string().nullable(),
  action: z.string(),
  before: z.unknown(),
  after: z.unknown(),
  outcome: z.enum(AUDIT_OUTCOMES),
  detail: z.string().nullable(),
});
export type AuditEntryView = z.infer<typeof auditEntryResponse>;

/** GET /v5/audit. */
export const auditListResponse = listResponse(auditEntryResponse);
export type AuditList = z.infer<typeof auditListResponse>;
