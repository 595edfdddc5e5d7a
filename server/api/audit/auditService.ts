import type { AuditList, AuditQuery } from '../../../shared/contracts/audit';
import { ADMIN_API_MESSAGES as M } from '../../../shared/messages';
import { AuditRepository, record, type AuditActor, type AuditFilters, type AuditRow } from '../../audit/auditRepository';
import { UTF8_BOM, csvRow } from '../../audit/csv';
import type { Db } from '../../db/Db';

const filtersOf = (q: AuditQuery): AuditFilters => ({
  actorEmail: q.actor,
  entity: q.entity,
  entityId: q.entityId,
  action: q.action,
  outcome: q.outcome,
  from: q.from,
  before: q.before,
});

/** Only the filters given, for the export's own audit row. */
const describeFilters = (f: AuditFilters) =>
  JSON.stringify(
    Object.fromEntries(
      Object.entries(f)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, v instanceof Date ? v.toISOString() : v]),
    ),
  );

const toCsv = (r: AuditRow) =>
  csvRow([
    r.id,
    r.at,
    r.actorAdminId,
    r.actorEmail,
    r.ip,
    r.requestId,
    r.entity,
    r.entityId,
    r.action,
    r.outcome,
    r.detail,
    r.before === null ? null : JSON.stringify(r.before),
    r.after === null ? null : JSON.stringify(r.after),
  ]);

export interface AuditExport {
  fileName: string;
  /** The file in pieces (BOM and header first), read from the database batch by batch. */
  chunks: AsyncIterable<string>;
}

/** The audit log: filtered pages and the CSV export (itself audited). */
export class AuditService {
  constructor(private readonly db: Db) {}

  async list(q: AuditQuery): Promise<AuditList> {
    const repo = new AuditRepository(this.db);
    const filters = filtersOf(q);
    const [data, total] = await Promise.all([repo.list(filters, { offset: (q.page - 1) * q.perPage, limit: q.perPage }), repo.count(filters)]);
    return { data, total };
  }

  /** Records the export, then hands out the rows that existed before it, newest first. */
  async export(actor: AuditActor, q: AuditQuery): Promise<AuditExport> {
    const repo = new AuditRepository(this.db);
    const filters = filtersOf(q);
    const upToId = await repo.maxId();
    await record(this.db, { actor, entity: 'audit', action: 'export', detail: describeFilters(filters) });
    async function* chunks(): AsyncGenerator<string> {
      yield UTF8_BOM + csvRow(M.audit.csvColumns);
      for await (const batch of repo.batches(filters, upToId)) yield batch.map(toCsv).join('');
    }
    return { fileName: M.audit.exportFileName(new Date().toISOString().slice(0, 10)), chunks: chunks() };
  }
}
