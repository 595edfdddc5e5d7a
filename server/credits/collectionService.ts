import { CREDIT_MESSAGES as M } from '../../shared/areaMessages/credit';
import { FIELD_LABELS } from '../../shared/constants/fieldLabels';
import { DEVICE_ACTION } from '../../shared/constants/deviceActions';
import type {
  Approval,
  ApprovalList,
  ApprovalsQuery,
  CollectionPolicyAnswer,
  CollectionPolicyBody,
  CreditDetail,
  PauseBody,
} from '../../shared/contracts/credits';
import { rungAfterLock } from '../../shared/contracts/credits';
import { POLICY_KEYS, addDays, effectiveSettings, instantAt, todayIn, type CollectionPolicySettings } from '../../shared/credits';
import { record, type AuditActor } from '../audit/auditRepository';
import type { Db, Queryable } from '../db/Db';
import { transaction } from '../db/transactionScope';
import { AppError } from '../errors';
import { DeviceRepository, type DeviceActionsService } from '../devices';
import type { CollectionEngine } from './collectionEngine';
import { COLLECTION_ACTOR } from './collectionEngine';
import { CollectionRepository, type ApprovalRow } from './collectionRepository';
import type { CreditsService } from './creditsService';

/** The policy's saves a page lists. */
const HISTORY_SHOWN = 20;
const CP = FIELD_LABELS.collectionPolicy;

const conflict = () => new AppError(409, 'POLICY_VERSION_CONFLICT', M.collection.conflict, 'version');
const notFound = () => new AppError(404, 'CREDIT_NOT_FOUND', M.credits.notFound);

const approvalResponse = (r: ApprovalRow): Approval => ({
  id: r.id,
  reference: r.reference,
  customerName: r.customer_name,
  requestedAt: new Date(r.requested_at).toISOString(),
  status: r.status,
  decidedAt: r.decided_at === null ? null : new Date(r.decided_at).toISOString(),
  decidedBy: r.decided_by,
});

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The collection policy's administration: its settings (global and per group, versions, history,
 * 409 on a stale save), a credit's pause (Promesa de pago) and the releases waiting for approval.
 * Each write is one transaction with its audit row; a pause or its end re-plans the credit at once.
 */
export class CollectionService {
  constructor(
    private readonly db: Db,
    private readonly engine: Pick<CollectionEngine, 'reevaluateIn'>,
    private readonly actions: Pick<DeviceActionsService, 'applyIn'>,
    private readonly credits: Pick<CreditsService, 'detail'>,
    private readonly settings: { timeZone: string; now: () => Date },
  ) {}

  // The policy ---------------------------------------------------------------------------

  /** GET /v5/collection-policy?groupId=: the scope's effective values, its overrides, version and history. */
  async get(groupId: number | null, q: Queryable = this.db): Promise<CollectionPolicyAnswer> {
    const repo = new CollectionRepository(q);
    if (groupId !== null && !(await this.groupExists(q, groupId))) throw new AppError(404, 'GROUP_NOT_FOUND', M.collection.groupNotFound, 'groupId');
    const { global, group } = await repo.policyRows(groupId);
    const globalValues = effectiveSettings(global.settings);
    const groupName = groupId === null ? null : (group?.group_name ?? (await repo.groupName(groupId)));
    return {
      groupId,
      groupName,
      version: groupId === null ? global.version : (group?.version ?? null),
      values: { ...(groupId === null ? globalValues : effectiveSettings(global.settings, group?.settings)) },
      globalValues: { ...globalValues },
      overridden: groupId === null ? [] : POLICY_KEYS.filter((k) => group?.settings[k] !== undefined),
      overrides: (await repo.overriddenGroups()).map((g) => ({ groupId: g.id, groupName: g.name, version: g.version })),
      history: (await repo.history(groupId, HISTORY_SHOWN)).map((h) => ({
        version: h.version,
        changedAt: new Date(h.changed_at).toISOString(),
        changedBy: h.changed_by,
        changes: h.changes,
      })),
    };
  }

  private async groupExists(q: Queryable, id: number): Promise<boolean> {
    return new CollectionRepository(q).groupExists(id);
  }

  /**
   * PUT /v5/collection-policy?groupId=: the global scope's values (a key left out returns to its
   * default) or a group's overrides (a key left out is inherited). 409 when the scope changed
   * since the page loaded it; a save that changes nothing makes no version. Every credit is
   * re-planned by the clock as it comes due; those with a step scheduled are looked at at once.
   */
  async save(actor: AuditActor, groupId: number | null, body: CollectionPolicyBody): Promise<CollectionPolicyAnswer> {
    return transaction(this.db, async (tx) => {
      const repo = new CollectionRepository(tx);
      if (groupId !== null && !(await repo.groupExists(groupId))) throw new AppError(404, 'GROUP_NOT_FOUND', M.collection.groupNotFound, 'groupId');
      const row = await repo.lockPolicy(groupId);
      if ((row?.version ?? null) !== body.version) throw conflict();
      const current: Partial<CollectionPolicySettings> = row?.settings ?? {};
      const next = Object.fromEntries(
        POLICY_KEYS.filter((k) => body.values[k] !== undefined).map((k) => [k, body.values[k]]),
      ) as Partial<CollectionPolicySettings>;
      const global = groupId === null ? next : (await repo.lockPolicy(null))!.settings;
      const merged = groupId === null ? effectiveSettings(next) : effectiveSettings(global, next);
      const late = rungAfterLock(merged);
      if (late) throw new AppError(400, 'VALIDATION', late.message, `values.ladder.${late.index}.daysOverdue`);
      // The global scope has no inheritance: what changes is the values that apply. A group's change is what it overrides.
      const before = groupId === null ? effectiveSettings(current) : current;
      const after = groupId === null ? merged : next;
      const changes = POLICY_KEYS.filter((k) => !same(before[k], after[k])).map((k) => ({
        key: k,
        ...(before[k] !== undefined ? { before: before[k] } : {}),
        ...(after[k] !== undefined ? { after: after[k] } : {}),
      }));
      if (changes.length === 0) return this.get(groupId, tx);
      const version = await repo.savePolicy(groupId, next, actor.email);
      await repo.insertHistory(groupId, version, changes, actor.email);
      await record(tx, {
        actor,
        entity: 'collection_policy',
        entityId: groupId === null ? 'global' : `group:${groupId}`,
        action: 'update',
        before: Object.fromEntries(changes.map((c) => [c.key, c.before ?? null])),
        after: Object.fromEntries(changes.map((c) => [c.key, c.after ?? null])),
      });
      // Credits already scheduled are planned again under the new policy at the next tick.
      await new CollectionRepository(tx).markScheduledDue(this.settings.now());
      return this.get(groupId, tx);
    });
  }

  // The pause ----------------------------------------------------------------------------

  /** POST /v5/credits/:reference/pause: no reminder, rung or lock until the end of `until` (a company date). */
  async pause(actor: AuditActor, reference: string, body: PauseBody): Promise<CreditDetail> {
    const now = this.settings.now();
    const today = todayIn(this.settings.timeZone, now);
    if (body.until < today) throw new AppError(400, 'VALIDATION', M.field.pauseFuture(CP.pauseUntil), 'until');
    const until = instantAt(addDays(body.until, 1), '00:00', this.settings.timeZone);
    await transaction(this.db, async (tx) => {
      const repo = new CollectionRepository(tx);
      const credit = await this.lockCredit(tx, reference);
      await repo.setPause(credit.id, until, actor.email, body.reason);
      await record(tx, {
        actor,
        entity: 'credit',
        entityId: credit.reference,
        action: 'pause_collection',
        before: credit.paused_until ? { pausedUntil: new Date(credit.paused_until).toISOString() } : null,
        after: { pausedUntil: until.toISOString(), reason: body.reason },
      });
      await this.engine.reevaluateIn(tx, credit.id, now);
    });
    return this.credits.detail(reference);
  }

  /** DELETE /v5/credits/:reference/pause: the policy resumes at once. */
  async resume(actor: AuditActor, reference: string): Promise<CreditDetail> {
    const now = this.settings.now();
    await transaction(this.db, async (tx) => {
      const credit = await this.lockCredit(tx, reference);
      if (!credit.paused_until || new Date(credit.paused_until) <= now) throw new AppError(409, 'NOT_PAUSED', M.collection.notPaused);
      await new CollectionRepository(tx).setPause(credit.id, null, null, null);
      await record(tx, {
        actor,
        entity: 'credit',
        entityId: credit.reference,
        action: 'resume_collection',
        before: { pausedUntil: new Date(credit.paused_until).toISOString(), reason: credit.pause_reason },
      });
      await this.engine.reevaluateIn(tx, credit.id, now);
    });
    return this.credits.detail(reference);
  }

  private async lockCredit(tx: Queryable, reference: string) {
    const repo = new CollectionRepository(tx);
    const found = await repo.stateByReference(reference);
    const credit = found && (await repo.lockState(found.id));
    if (!credit) throw notFound();
    return credit;
  }

  // Release approvals --------------------------------------------------------------------

  /** GET /v5/credits/approvals: the releases by status (pending first by default), newest first. */
  async approvals(q: ApprovalsQuery): Promise<ApprovalList> {
    const { rows, total } = await new CollectionRepository(this.db).approvals(q.status, q.perPage, (q.page - 1) * q.perPage);
    return { data: rows.map(approvalResponse), total };
  }

  /**
   * POST /v5/credits/approvals/:id/approve|reject: approving sends RELEASE to the credit's devices
   * not released yet (as the policy, with who approved in the reason); rejecting sends nothing.
   */
  async decide(actor: AuditActor, id: number, approve: boolean): Promise<Approval> {
    const now = this.settings.now();
    return transaction(this.db, async (tx) => {
      const repo = new CollectionRepository(tx);
      const request = await repo.lockApproval(id);
      if (!request) throw new AppError(404, 'APPROVAL_NOT_FOUND', M.collection.approvalNotFound);
      if (request.status !== 'pending') throw new AppError(409, 'APPROVAL_DECIDED', M.collection.approvalDecided);
      await repo.decide(id, approve ? 'approved' : 'rejected', now, actor.email);
      if (approve) {
        const reason = `liberación aprobada por ${actor.email ?? 'un administrador'}`;
        const devices = await new DeviceRepository(tx).rowsByCreditReference(request.reference, 100);
        const sent: number[] = [];
        const skipped: { id: number; reason: string }[] = [];
        const results = await this.actions.applyIn(
          tx,
          COLLECTION_ACTOR,
          devices.map((d) => ({ deviceId: d.id, payload: { action: DEVICE_ACTION.RELEASE }, detail: reason })),
        );
        for (const [i, d] of devices.entries()) {
          const result = results[i]!;
          if (result.ok) sent.push(d.id);
          else skipped.push({ id: d.id, reason: result.reason });
        }
        await repo.insertStep({
          creditId: request.credit_id,
          installment: 0,
          key: `0:release_approved:${id}`,
          kind: 'release',
          outcome: 'done',
          action: DEVICE_ACTION.RELEASE,
          deviceIds: sent,
          skippedDevices: skipped,
          reason,
          at: now,
        });
      }
      await record(tx, {
        actor,
        entity: 'credit',
        entityId: request.reference,
        action: approve ? 'approve_release' : 'reject_release',
        after: { approval: id },
      });
      return approvalResponse((await repo.lockApproval(id))!);
    });
  }
}
