import type { CollectionPolicySettings } from '../../shared/credits';
import type { Queryable } from '../db/Db';

/** What the engine reads of a credit besides its record: the pause, the hold, the restrictions. */
export interface CollectionState {
  id: number;
  reference: string;
  customer_name: string;
  currency: string;
  cancelled_at: Date | null;
  paid_cents: number;
  paused_until: Date | null;
  paused_by: string | null;
  pause_reason: string | null;
  hold_until: Date | null;
  restricted: boolean;
  overdue_since: string | null;
  next_step_at: Date | null;
}

/** A policy row: the global one (group_id null) or a group's overrides. */
export interface PolicyRow {
  group_id: number | null;
  group_name: string | null;
  settings: Partial<CollectionPolicySettings>;
  version: number;
  updated_at: string;
  updated_by: string | null;
}

/** A step the policy took or skipped. */
export interface StepRow {
  id: number;
  installment: number;
  step_key: string;
  kind: string;
  outcome: 'done' | 'skipped';
  action: number | null;
  device_ids: number[];
  skipped_devices: { id: number; reason: string }[];
  reason: string;
  at: Date;
}

export interface NewStep {
  creditId: number;
  installment: number;
  key: string;
  kind: string;
  outcome: 'done' | 'skipped';
  action: number | null;
  deviceIds: readonly number[];
  skippedDevices: readonly { id: number; reason: string }[];
  reason: string;
  at: Date;
}

export interface ApprovalRow {
  id: number;
  credit_id: number;
  reference: string;
  customer_name: string;
  requested_at: Date;
  status: 'pending' | 'approved' | 'rejected';
  decided_at: Date | null;
  decided_by: string | null;
}

const POLICY_COLUMNS = `p.group_id, g.name AS group_name, p.settings, p.version, p.updated_at, p.updated_by`;
const policyRow = (r: PolicyRow): PolicyRow => ({
  ...r,
  group_id: r.group_id === null ? null : Number(r.group_id),
  version: Number(r.version),
  updated_at: new Date(r.updated_at).toISOString(),
});

/** All SQL of the collection policy's tables (migration 0025) and of the credits' collection columns. */
export class CollectionRepository {
  constructor(private readonly db: Queryable) {}

  // The engine's claim ------------------------------------------------------------------

  /**
   * Up to `limit` credits whose next step is due at `now`, locked until the transaction ends; rows
   * another replica holds are passed over (SKIP LOCKED), so replicas share the work without waiting.
   * Through the partial index credits_next_step: the cost does not grow with the portfolio.
   */
  async claimDue(now: Date, limit: number): Promise<number[]> {
    const res = await this.db.query<{ id: number }>(
      `SELECT id FROM credits WHERE next_step_at IS NOT NULL AND next_step_at <= $1
        ORDER BY next_step_at, id LIMIT $2 FOR UPDATE SKIP LOCKED`,
      [now, limit],
    );
    return res.rows.map((r) => Number(r.id));
  }

  /** A credit's collection state, its row locked (the caller's transaction may hold it already). */
  async lockState(id: number): Promise<CollectionState | undefined> {
    return (await this.lockStates([id]))[0];
  }

  /** Credits' collection states in id order, their rows locked (the engine's claim holds them already). */
  async lockStates(ids: readonly number[]): Promise<CollectionState[]> {
    const res = await this.db.query<CollectionState>(
      `SELECT id, reference, customer_name, currency, cancelled_at, paid_cents, paused_until, paused_by, pause_reason, hold_until,
              restricted, to_char(overdue_since, 'YYYY-MM-DD') AS overdue_since, next_step_at
         FROM credits WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE`,
      [[...ids]],
    );
    return res.rows.map((r) => ({ ...r, id: Number(r.id), paid_cents: Number(r.paid_cents) }));
  }

  /** The collection state of a reference, without locking (the reads). */
  async stateByReference(reference: string): Promise<CollectionState | undefined> {
    const res = await this.db.query<{ id: number }>('SELECT id FROM credits WHERE lower(reference) = lower($1)', [reference]);
    const id = res.rows[0]?.id;
    if (id === undefined) return undefined;
    const state = await this.db.query<CollectionState>(
      `SELECT id, reference, customer_name, currency, cancelled_at, paid_cents, paused_until, paused_by, pause_reason, hold_until,
              restricted, to_char(overdue_since, 'YYYY-MM-DD') AS overdue_since, next_step_at
         FROM credits WHERE id = $1`,
      [id],
    );
    const r = state.rows[0]!;
    return { ...r, id: Number(r.id), paid_cents: Number(r.paid_cents) };
  }

  async setNextStep(id: number, at: Date | null): Promise<void> {
    await this.setNextSteps([{ id, at }]);
  }

  /** Each credit's next instant, set-based. */
  async setNextSteps(next: readonly { id: number; at: Date | null }[]): Promise<void> {
    if (next.length === 0) return;
    await this.db.query(`UPDATE credits c SET next_step_at = n.at FROM unnest($1::bigint[], $2::timestamptz[]) AS n(id, at) WHERE c.id = n.id`, [
      next.map((n) => n.id),
      next.map((n) => n.at),
    ]);
  }

  /** The credit of a reference is looked at again by the next tick (a payment, a schedule, a pause changed it). */
  async markDue(id: number, now: Date): Promise<void> {
    await this.db.query('UPDATE credits SET next_step_at = $2 WHERE id = $1', [id, now]);
  }

  /** Every credit with a step scheduled is looked at by the next tick (the policy changed). */
  async markScheduledDue(now: Date): Promise<void> {
    await this.db.query('UPDATE credits SET next_step_at = least(next_step_at, $1) WHERE next_step_at IS NOT NULL', [now]);
  }

  async setRestricted(id: number, on: boolean): Promise<void> {
    await this.db.query('UPDATE credits SET restricted = $2 WHERE id = $1', [id, on]);
  }

  async setOverdueSince(id: number, since: string | null): Promise<void> {
    await this.db.query('UPDATE credits SET overdue_since = $2::date WHERE id = $1', [id, since]);
  }

  async setPause(id: number, until: Date | null, by: string | null, reason: string | null): Promise<void> {
    await this.db.query('UPDATE credits SET paused_until = $2, paused_by = $3, pause_reason = $4, updated_at = now() WHERE id = $1', [
      id,
      until,
      by,
      reason,
    ]);
  }

  /**
   * Holds the lock off until `until` (a later hold already set stays) and has the credit looked at
   * now. A credit the engine holds is passed over (SKIP LOCKED): the device's row is locked before
   * the credit's here, the other way round in the engine, and the engine reads the unlock itself.
   */
  async holdUntil(reference: string, until: Date, now: Date): Promise<void> {
    await this.db.query(
      `UPDATE credits SET hold_until = greatest(coalesce(hold_until, $2), $2), next_step_at = $3
        WHERE id = (SELECT id FROM credits WHERE lower(reference) = lower($1) AND cancelled_at IS NULL FOR UPDATE SKIP LOCKED)`,
      [reference, until, now],
    );
  }

  // Steps -------------------------------------------------------------------------------

  /** The keys of the steps of each credit taken or skipped. */
  async doneKeys(creditIds: readonly number[]): Promise<Map<number, Set<string>>> {
    const out = new Map<number, Set<string>>(creditIds.map((id) => [id, new Set()]));
    const res = await this.db.query<{ credit_id: number; step_key: string }>(
      'SELECT credit_id, step_key FROM credit_steps WHERE credit_id = ANY($1::bigint[])',
      [[...creditIds]],
    );
    for (const r of res.rows) out.get(Number(r.credit_id))?.add(r.step_key);
    return out;
  }

  /**
   * Records steps in one statement. Answers the steps recorded; one whose key was taken already
   * (another replica, a retry) is not, and then nothing it did may stand (the caller rolls back).
   */
  async insertSteps(steps: readonly NewStep[]): Promise<number> {
    if (steps.length === 0) return 0;
    const col = <T>(f: (s: NewStep) => T) => steps.map(f);
    const res = await this.db.query(
      `INSERT INTO credit_steps (credit_id, installment, step_key, kind, outcome, action, device_ids, skipped_devices, reason, at)
       SELECT s.credit_id, s.installment, s.step_key, s.kind, s.outcome, s.action, s.device_ids::bigint[], s.skipped_devices, s.reason, s.at
         FROM unnest($1::bigint[], $2::integer[], $3::text[], $4::text[], $5::text[], $6::smallint[], $7::text[], $8::jsonb[], $9::text[],
                     $10::timestamptz[])
              WITH ORDINALITY AS s(credit_id, installment, step_key, kind, outcome, action, device_ids, skipped_devices, reason, at, n)
        ORDER BY s.n
       ON CONFLICT (credit_id, step_key) DO NOTHING`,
      [
        col((s) => s.creditId),
        col((s) => s.installment),
        col((s) => s.key),
        col((s) => s.kind),
        col((s) => s.outcome),
        col((s) => s.action),
        // A step's devices as an array literal ('{1,2}'): unnest takes one dimension.
        col((s) => `{${s.deviceIds.join(',')}}`),
        col((s) => JSON.stringify(s.skippedDevices)),
        col((s) => s.reason),
        col((s) => s.at),
      ],
    );
    return res.rowCount;
  }

  /** Records a step; false when it was recorded already (another replica, a retry): then nothing must be sent. */
  async insertStep(s: NewStep): Promise<boolean> {
    return (await this.insertSteps([s])) > 0;
  }

  /** A credit's last steps, newest first. */
  async steps(creditId: number, limit: number): Promise<StepRow[]> {
    const res = await this.db.query<StepRow>(
      `SELECT id, installment, step_key, kind, outcome, action, device_ids, skipped_devices, reason, at
         FROM credit_steps WHERE credit_id = $1 ORDER BY at DESC, id DESC LIMIT $2`,
      [creditId, limit],
    );
    return res.rows.map((r) => ({ ...r, id: Number(r.id), device_ids: (r.device_ids ?? []).map(Number) }));
  }

  // The policy --------------------------------------------------------------------------

  /** The global row and, when given, the group's row. */
  async policyRows(groupId: number | null): Promise<{ global: PolicyRow; group?: PolicyRow }> {
    const res = await this.db.query<PolicyRow>(
      `SELECT ${POLICY_COLUMNS} FROM collection_policy p LEFT JOIN device_groups g ON g.id = p.group_id
        WHERE p.group_id IS NULL OR p.group_id = $1 ORDER BY p.group_id NULLS FIRST`,
      [groupId],
    );
    const rows = res.rows.map(policyRow);
    return { global: rows.find((r) => r.group_id === null)!, group: rows.find((r) => r.group_id !== null) };
  }

  /** Every group with an override. */
  async overriddenGroups(): Promise<{ id: number; name: string; version: number }[]> {
    const res = await this.db.query<{ id: number; name: string; version: number }>(
      `SELECT g.id, g.name, p.version FROM collection_policy p JOIN device_groups g ON g.id = p.group_id ORDER BY lower(g.name), g.id`,
    );
    return res.rows.map((r) => ({ id: Number(r.id), name: r.name, version: Number(r.version) }));
  }

  /** A scope's row, locked until the transaction ends (a concurrent save waits, then sees the new version). */
  async lockPolicy(groupId: number | null): Promise<PolicyRow | undefined> {
    const res = await this.db.query<PolicyRow>(
      `SELECT ${POLICY_COLUMNS} FROM collection_policy p LEFT JOIN device_groups g ON g.id = p.group_id
        WHERE coalesce(p.group_id, 0) = coalesce($1::integer, 0) FOR UPDATE OF p`,
      [groupId],
    );
    return res.rows[0] && policyRow(res.rows[0]);
  }

  /** Writes a scope's values as a new version (a group's row is created by its first save). */
  async savePolicy(groupId: number | null, settings: Partial<CollectionPolicySettings>, by: string | null): Promise<number> {
    const res = await this.db.query<{ version: number }>(
      `INSERT INTO collection_policy (group_id, settings, updated_at, updated_by) VALUES ($1, $2::jsonb, now(), $3)
       ON CONFLICT ((coalesce(group_id, 0)))
       DO UPDATE SET settings = EXCLUDED.settings, version = nextval('collection_policy_version'), updated_at = now(), updated_by = EXCLUDED.updated_by
       RETURNING version`,
      [groupId, JSON.stringify(settings), by],
    );
    return Number(res.rows[0]!.version);
  }

  async insertHistory(groupId: number | null, version: number, changes: unknown, by: string | null): Promise<void> {
    await this.db.query('INSERT INTO collection_policy_history (group_id, version, changes, changed_by) VALUES ($1, $2, $3::jsonb, $4)', [
      groupId,
      version,
      JSON.stringify(changes),
      by,
    ]);
  }

  async history(
    groupId: number | null,
    limit: number,
  ): Promise<{ version: number; changed_at: Date; changed_by: string | null; changes: { key: string; before?: unknown; after?: unknown }[] }[]> {
    const res = await this.db.query<{
      version: number;
      changed_at: Date;
      changed_by: string | null;
      changes: { key: string; before?: unknown; after?: unknown }[];
    }>(
      `SELECT version, changed_at, changed_by, changes FROM collection_policy_history
        WHERE coalesce(group_id, 0) = coalesce($1::integer, 0) ORDER BY version DESC LIMIT $2`,
      [groupId, limit],
    );
    return res.rows.map((r) => ({ ...r, version: Number(r.version) }));
  }

  async groupName(id: number): Promise<string | null> {
    const res = await this.db.query<{ name: string }>('SELECT name FROM device_groups WHERE id = $1', [id]);
    return res.rows[0]?.name ?? null;
  }

  async groupExists(id: number): Promise<boolean> {
    const res = await this.db.query('SELECT 1 FROM device_groups WHERE id = $1 FOR SHARE', [id]);
    return res.rowCount > 0;
  }

  // Release approvals --------------------------------------------------------------------

  /** Queues a credit's release; false when one is pending already. */
  async requestRelease(creditId: number, at: Date): Promise<boolean> {
    const res = await this.db.query(
      `INSERT INTO credit_release_approvals (credit_id, requested_at) VALUES ($1, $2)
       ON CONFLICT (credit_id) WHERE status = 'pending' DO NOTHING`,
      [creditId, at],
    );
    return res.rowCount > 0;
  }

  async approvals(status: 'pending' | 'approved' | 'rejected', limit: number, offset: number): Promise<{ rows: ApprovalRow[]; total: number }> {
    const [rows, total] = await Promise.all([
      this.db.query<ApprovalRow>(
        `SELECT a.id, a.credit_id, c.reference, c.customer_name, a.requested_at, a.status, a.decided_at, a.decided_by
           FROM credit_release_approvals a JOIN credits c ON c.id = a.credit_id
          WHERE a.status = $1 ORDER BY a.requested_at DESC, a.id DESC LIMIT $2 OFFSET $3`,
        [status, limit, offset],
      ),
      this.db.query<{ n: number }>('SELECT count(*) AS n FROM credit_release_approvals WHERE status = $1', [status]),
    ]);
    return { rows: rows.rows.map(approvalRow), total: Number(total.rows[0]!.n) };
  }

  /** A request, locked until the transaction ends (two administrators deciding at once: one wins). */
  async lockApproval(id: number): Promise<ApprovalRow | undefined> {
    const res = await this.db.query<ApprovalRow>(
      `SELECT a.id, a.credit_id, c.reference, c.customer_name, a.requested_at, a.status, a.decided_at, a.decided_by
         FROM credit_release_approvals a JOIN credits c ON c.id = a.credit_id WHERE a.id = $1 FOR UPDATE OF a`,
      [id],
    );
    return res.rows[0] && approvalRow(res.rows[0]);
  }

  async decide(id: number, status: 'approved' | 'rejected', at: Date, by: string | null): Promise<void> {
    await this.db.query('UPDATE credit_release_approvals SET status = $2, decided_at = $3, decided_by = $4 WHERE id = $1', [id, status, at, by]);
  }

  /** Whether a release of the credit waits for an administrator. */
  async pendingApproval(creditId: number): Promise<boolean> {
    const res = await this.db.query("SELECT 1 FROM credit_release_approvals WHERE credit_id = $1 AND status = 'pending'", [creditId]);
    return res.rowCount > 0;
  }
}

const approvalRow = (r: ApprovalRow): ApprovalRow => ({ ...r, id: Number(r.id), credit_id: Number(r.credit_id) });
