import type { AuditAction, AuditEntity, AuditOutcome } from '../../shared/constants/audit';
import type { AuditEntryView } from '../../shared/contracts/audit';
import type { Queryable } from '../db/Db';

export type { AuditOutcome };

/** Who did it and from where (taken from the verified session and the request). */
export interface AuditActor {
  /** The administrator's id; when null it is looked up by e-mail (sign-ins). */
  adminId: number | null;
  email: string | null;
  ip: string | null;
  requestId: string | null;
}

/** One audit row to write. `before`/`after` are JSON snapshots; never a password or token. */
export interface AuditEntry {
  actor: AuditActor;
  entity: AuditEntity;
  entityId?: string | number | null;
  action: AuditAction;
  before?: unknown;
  after?: unknown;
  outcome?: AuditOutcome;
  detail?: string | null;
}

const json = (value: unknown): string | null => (value === undefined || value === null ? null : JSON.stringify(value));

/**
 * Appends one row to the audit log. Services call it with the transaction that makes the
 * change, so the row exists exactly when the change does.
 */
export function record(tx: Queryable, e: AuditEntry): Promise<void> {
  return recordEach(tx, [e]);
}

/** Appends rows in the order given, in one statement (a batch of the collection policy's actions). */
export async function recordEach(tx: Queryable, entries: readonly AuditEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const col = <T>(f: (e: AuditEntry) => T) => entries.map(f);
  await tx.query(
    `INSERT INTO audit_log (actor_admin_id, actor_email, ip, request_id, entity, entity_id, action, before, after, outcome, detail)
     SELECT COALESCE(e.admin_id, (SELECT id FROM admins WHERE lower(correo) = lower(e.email))),
            e.email, e.ip, e.request_id, e.entity, e.entity_id, e.action, e.before, e.after, e.outcome, e.detail
       FROM unnest($1::integer[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::jsonb[], $9::jsonb[],
                   $10::text[], $11::text[])
            WITH ORDINALITY AS e(admin_id, email, ip, request_id, entity, entity_id, action, before, after, outcome, detail, n)
      ORDER BY e.n`,
    [
      col((e) => e.actor.adminId),
      col((e) => e.actor.email),
      col((e) => e.actor.ip),
      col((e) => e.actor.requestId),
      col((e) => e.entity),
      col((e) => (e.entityId === undefined || e.entityId === null ? null : String(e.entityId))),
      col((e) => e.action),
      col((e) => json(e.before)),
      col((e) => json(e.after)),
      col((e) => e.outcome ?? 'success'),
      col((e) => e.detail ?? null),
    ],
  );
}

/** The filters of the audit page and export. */
export interface AuditFilters {
  /** Exact e-mail of the actor, case-insensitive. */
  actorEmail?: string;
  entity?: string;
  entityId?: string;
  action?: string;
  outcome?: AuditOutcome;
  /** Inclusive lower bound. */
  from?: Date;
  /** Exclusive upper bound. */
  before?: Date;
}

/** A row as the API answers it: the shared contract's shape. */
export type AuditRow = AuditEntryView;

interface AuditRecord {
  id: number;
  at: Date;
  actor_admin_id: number | null;
  actor_email: string | null;
  ip: string | null;
  request_id: string | null;
  entity: string;
  entity_id: string | null;
  action: string;
  before: unknown;
  after: unknown;
  outcome: AuditOutcome;
  detail: string | null;
}

const COLUMNS = 'id, at, actor_admin_id, actor_email, ip, request_id, entity, entity_id, action, before, after, outcome, detail';

const toRow = (r: AuditRecord): AuditRow => ({
  id: r.id,
  at: new Date(r.at).toISOString(),
  actorAdminId: r.actor_admin_id,
  actorEmail: r.actor_email,
  ip: r.ip,
  requestId: r.request_id,
  entity: r.entity,
  entityId: r.entity_id,
  action: r.action,
  before: r.before ?? null,
  after: r.after ?? null,
  outcome: r.outcome,
  detail: r.detail,
});

function where(f: AuditFilters, params: unknown[]): string {
  const clauses: string[] = [];
  const add = (sql: (n: string) => string, value: unknown) => {
    params.push(value);
    clauses.push(sql(`$${params.length}`));
  };
  if (f.actorEmail !== undefined) add((p) => `lower(actor_email) = lower(${p})`, f.actorEmail);
  if (f.entity !== undefined) add((p) => `entity = ${p}`, f.entity);
  if (f.entityId !== undefined) add((p) => `entity_id = ${p}`, f.entityId);
  if (f.action !== undefined) add((p) => `action = ${p}`, f.action);
  if (f.outcome !== undefined) add((p) => `outcome = ${p}`, f.outcome);
  if (f.from !== undefined) add((p) => `at >= ${p}`, f.from);
  if (f.before !== undefined) add((p) => `at < ${p}`, f.before);
  return clauses.length ? `WHERE ${clauses.join(' AND ')}` : '';
}

/** Reads of the audit log (newest first). There is no update or delete: the log is append-only. */
export class AuditRepository {
  constructor(private readonly db: Queryable) {}

  async list(filters: AuditFilters, page: { offset: number; limit: number }): Promise<AuditRow[]> {
    const params: unknown[] = [];
    const w = where(filters, params);
    params.push(page.limit, page.offset);
    const res = await this.db.query<AuditRecord>(
      `SELECT ${COLUMNS} FROM audit_log ${w} ORDER BY id DESC LIMIT $${params.length - 1} OFFSET $${params.length}`,
      params,
    );
    return res.rows.map(toRow);
  }

  async count(filters: AuditFilters): Promise<number> {
    const params: unknown[] = [];
    const res = await this.db.query<{ n: number }>(`SELECT count(*) AS n FROM audit_log ${where(filters, params)}`, params);
    return res.rows[0]!.n;
  }

  /** A device's enrollments, refused attempts and re-enrollment authorisations, newest first (a partial index of their own). */
  async deviceEnrollments(deviceId: number, page: { offset: number; limit: number }): Promise<AuditRow[]> {
    const res = await this.db.query<AuditRecord>(
      `SELECT ${COLUMNS} FROM audit_log
        WHERE entity = 'device' AND action IN ('enroll', 'enroll_refused', 'authorize_reenroll') AND entity_id = $1
        ORDER BY id DESC LIMIT $2 OFFSET $3`,
      [String(deviceId), page.limit, page.offset],
    );
    return res.rows.map(toRow);
  }

  async countDeviceEnrollments(deviceId: number): Promise<number> {
    const res = await this.db.query<{ n: number }>(
      `SELECT count(*) AS n FROM audit_log WHERE entity = 'device' AND action IN ('enroll', 'enroll_refused', 'authorize_reenroll') AND entity_id = $1`,
      [String(deviceId)],
    );
    return Number(res.rows[0]!.n);
  }

  /** The newest id now: an export lists the rows up to it, whatever is written meanwhile. */
  async maxId(): Promise<number> {
    const res = await this.db.query<{ id: number | null }>('SELECT max(id) AS id FROM audit_log');
    return res.rows[0]!.id ?? 0;
  }

  /** Every matching row up to `upToId`, newest first, in batches (keyset on the id: constant cost per batch). */
  async *batches(filters: AuditFilters, upToId: number, batchSize = 1000): AsyncGenerator<AuditRow[]> {
    let below = upToId + 1;
    for (;;) {
      const params: unknown[] = [];
      const w = where(filters, params);
      params.push(below, batchSize);
      const res = await this.db.query<AuditRecord>(
        `SELECT ${COLUMNS} FROM audit_log ${w}${w ? ' AND' : ' WHERE'} id < $${params.length - 1} ORDER BY id DESC LIMIT $${params.length}`,
        params,
      );
      if (res.rows.length === 0) return;
      below = res.rows[res.rows.length - 1]!.id;
      yield res.rows.map(toRow);
      if (res.rows.length < batchSize) return;
    }
  }
}
