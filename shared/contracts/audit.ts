import * as z from 'zod';
import { AUDIT_OUTCOMES } from '../constants/audit';
import { FIELD_LABELS } from '../constants/fieldLabels';
import { ADMIN_API_MESSAGES as M } from '../areaMessages/admin';
import { csvZoneFields, dateParam, listResponse, oneOfParam, pagingParams, textParam } from './fields';

const L = FIELD_LABELS.audit;

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
