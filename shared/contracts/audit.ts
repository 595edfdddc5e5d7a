import * as z from 'zod';
import { ADMIN_API_MESSAGES as M } from '../messages';
import { oneOfParam, pagingParams, textParam, type ListResponse } from './fields';

export const AUDIT_OUTCOMES = ['success', 'failure'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

/** Entities and actions the server records (other features add their own). */
export const AUDIT_ENTITIES = ['role', 'admin', 'session', 'audit'] as const;
export const AUDIT_ACTIONS = ['create', 'update', 'delete', 'duplicate', 'disable', 'enable', 'reset_password', 'sign_in', 'export'] as const;

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 24 * 3600 * 1000;

const isoDate = z.iso.date();
const isoDateTime = z.iso.datetime({ offset: true });
const validDate = (v: string) =>
  (DATE_ONLY.test(v) ? isoDate : isoDateTime).safeParse(v).success && Number(v.slice(0, 4)) >= 1900;

/** A day (`AAAA-MM-DD`, UTC) or an instant (ISO 8601 with its zone); empty means absent. */
const dateParam = (param: string) =>
  z
    .string({ error: M.param.date(param) })
    .trim()
    .refine((v) => v === '' || validDate(v), { error: M.param.date(param) })
    .transform((v) => (v === '' ? undefined : v));

/**
 * GET /v5/audit and /v5/audit/export: `actor` (e-mail or name typed at sign-in, exact,
 * case-insensitive), `entity`, `entityId`, `action`, `outcome`, `from`/`to` (inclusive; a bare
 * date covers the whole day), `page`/`perPage` (the export ignores them).
 */
export const auditQuery = z
  .object({
    actor: textParam('actor', 254).optional(),
    entity: textParam('entity', 50).optional(),
    entityId: textParam('entityId', 100).optional(),
    action: textParam('action', 50).optional(),
    outcome: oneOfParam('outcome', AUDIT_OUTCOMES).optional(),
    from: dateParam('from').optional(),
    to: dateParam('to').optional(),
    ...pagingParams(50),
  })
  .transform(({ from, to, ...rest }) => ({
    ...rest,
    // Lower bound inclusive; upper bound exclusive (the day after a bare date).
    from: from === undefined ? undefined : new Date(DATE_ONLY.test(from) ? `${from}T00:00:00Z` : from),
    before: to === undefined ? undefined : new Date(DATE_ONLY.test(to) ? Date.parse(`${to}T00:00:00Z`) + DAY_MS : Date.parse(to) + 1),
  }))
  .refine((q) => !q.from || !q.before || q.from < q.before, { error: M.param.range, path: ['from'] });
export type AuditQuery = z.infer<typeof auditQuery>;

/** One row of the audit log as the API answers it. `before`/`after` are JSON snapshots. */
export interface AuditEntryView {
  id: number;
  at: string;
  actorAdminId: number | null;
  actorEmail: string | null;
  ip: string | null;
  requestId: string | null;
  entity: string;
  entityId: string | null;
  action: string;
  before: unknown;
  after: unknown;
  outcome: AuditOutcome;
  detail: string | null;
}

export type AuditList = ListResponse<AuditEntryView>;
