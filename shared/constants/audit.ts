/**
 * The audit log's vocabularies: outcomes, entities and actions the server records. Zod-free, so
 * the audit page's filters load none of the API's schemas (shared/contracts/audit.ts).
 */
import { DEVICE_ACTIONS, type DeviceActionKey } from './deviceActions';

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
