import type { AuditList, AuditQuery } from '../../../shared/contracts/audit';
import { ADMIN_API_MESSAGES as M } from '../../../shared/areaMessages/admin';
import { AuditRepository, record, type AuditActor, type AuditFilters, type AuditRow } from '../../audit/auditRepository';
import { UTF8_BOM, csvRow, csvZone, type CsvZone } from '../../audit/csv';
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

/** The date-time column of the export (ISO 8601 in the download's zone). */
const AUDIT_DATE_TIME_COLUMNS = ['fecha'];

const toCsv = (r: AuditRow, zone: CsvZone) =>
  csvRow([
    r.id,
    zone.instant(r.at),
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

  /** Records the export, then hands out the rows that existed before it, newest first, the dates in `tz` (UTC without one). */
  async export(actor: AuditActor, q: AuditQuery, tz?: string): Promise<AuditExport> {
    const repo = new AuditRepository(this.db);
    const filters = filtersOf(q);
    const upToId = await repo.maxId();
    await record(this.db, { actor, entity: 'audit', action: 'export', detail: describeFilters(filters) });
    const zone = csvZone(tz);
    async function* chunks(): AsyncGenerator<string> {
      yield UTF8_BOM + csvRow(zone.header(M.audit.csvColumns, AUDIT_DATE_TIME_COLUMNS));
      for await (const batch of repo.batches(filters, upToId)) yield batch.map((r) => toCsv(r, zone)).join('');
    }
    return { fileName: M.audit.exportFileName(new Date().toISOString().slice(0, 10)), chunks: chunks() };
  }
}
