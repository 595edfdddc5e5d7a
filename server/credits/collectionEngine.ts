/**
 * The collection policy's engine: on every tick of the server's clock (every replica ticks), it
 * claims the credits whose `next_step_at` has passed, through the partial index credits_next_step,
 * in batches locked FOR UPDATE SKIP LOCKED, so replicas share the work and never take the same
 * credit at once. For each it asks shared/credits `planCollection` what is due under the effective
 * policy of the credit's devices' group, applies it through DeviceActionsService as the actor
 * *Política de cobranza* (the same rules, commands, history and audit as a person), records each
 * once-only step in credit_steps in the same transaction (its unique key: never twice, whatever
 * retries), and sets the credit's next `next_step_at`. A payment, a reversal, a new schedule or a
 * pause re-plans its credit at once, in its own transaction.
 */
import { COLLECTION_POLICY_ACTOR, COLLECTION_TEXTS as T, shortDate, type CollectionStepKind } from '../../shared/constants/creditLabels';
import { DEVICE_ACTION } from '../../shared/constants/deviceActions';
import { DEVICE_STATUS } from '../../shared/constants/domain';
import type { CollectionStepEvent, CreditOverdueEvent, NextStep } from '../../shared/contracts/credits';
import { MESSAGE_MAX, NOTIFICATION_TITLE_MAX } from '../../shared/contracts/deviceActions';
import type { ActionPayload } from '../../shared/contracts/deviceActions';
import {
  addDays,
  effectiveSettings,
  formatAmount,
  formatMoney,
  instantAt,
  isWorkingDay,
  planCollection,
  resolvePolicy,
  todayIn,
  type CollectionPolicy,
  type CollectionPolicySettings,
  type Plan,
  type PlanCredit,
} from '../../shared/credits';
import { offlineCutoff } from '../../shared/deviceStatus';
import type { AuditActor } from '../audit/auditRepository';
import type { Db, Queryable } from '../db/Db';
import { transaction } from '../db/transactionScope';
import { CommandRepository, DeviceRepository, toDevice, type DeviceActionsService, type InventorySettings, type ListedDeviceRow } from '../devices';
import type { Logger } from '../logger';
import { WebhooksRepository } from '../webhooks/webhooksRepository';
import { CollectionRepository, type CollectionState } from './collectionRepository';
import { CreditRepository } from './creditRepository';

/** The actor of everything the policy does. */
export const COLLECTION_ACTOR: AuditActor = { adminId: null, email: COLLECTION_POLICY_ACTOR, ip: null, requestId: null };
/** Credits per claimed batch (one transaction). */
export const COLLECTION_BATCH = 100;
/**
 * The batch on PGlite: its one connection is held for a whole batch (~12 ms a credit there), so
 * small batches keep the demo's pages answering while a sweep plans thousands of credits.
 */
export const COLLECTION_BATCH_PGLITE = 10;
/** A credit whose step could not be applied now (a command in flight) is looked at again after this. */
export const COLLECTION_RETRY_MS = 60_000;
/** How often the clock ticks. */
export const COLLECTION_CLOCK_MS = 30_000;
/** The instants ahead `nextStep` looks at for the next thing the policy does. */
const NEXT_STEP_HOPS = 4;
/** Devices of one credit the policy acts on at most (as many as a credit's answers list). */
const DEVICES_MAX = 100;
/** A credit's webhook events are ordered with its other events (CREDIT_ORDER_KEY_BASE of creditsService). */
const ORDER_KEY_BASE = 2 ** 40;

export interface CollectionSettings {
  timeZone: string;
  inventory: InventorySettings;
}

/** The effective policy of a group: its settings, what the plan reads, and its name in reasons ('Global v7'). */
export interface EffectivePolicy {
  settings: CollectionPolicySettings;
  policy: CollectionPolicy;
  label: string;
}

/** A credit as the engine sees it at an instant: its state, its devices, its policy and the plan. */
interface Loaded {
  state: CollectionState;
  rows: ListedDeviceRow[];
  policy: EffectivePolicy;
  credit: PlanCredit;
  plan: Plan;
}

const isReleased = (r: ListedDeviceRow, status: number) =>
  r.lifecycle === 'released' || status === DEVICE_STATUS.liberado || status === DEVICE_STATUS.liberando || r.pending_action === DEVICE_ACTION.RELEASE;
const isLockedByCredit = (r: ListedDeviceRow) =>
  (r.lock_state === 'locked' && r.lock_type === 'PorCredito' && r.pending_action === null) ||
  (r.pending_action === DEVICE_ACTION.LOCK && r.pending_payload?.lockType === 'PorCredito');
const isLocked = (r: ListedDeviceRow) => r.lock_state === 'locked' || r.pending_action === DEVICE_ACTION.LOCK;

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
const format = { money: formatMoney, date: shortDate };

export class CollectionEngine {
  constructor(
    private readonly db: Db,
    private readonly actions: Pick<DeviceActionsService, 'applyIn'>,
    private readonly settings: CollectionSettings,
    private readonly logger?: Pick<Logger, 'warn'>,
    private readonly batchSize = COLLECTION_BATCH,
  ) {}

  private now(): Date {
    return this.settings.inventory.now();
  }

  // The clock ---------------------------------------------------------------------------

  /** One sweep: batches until no credit is due, or until `signal` aborts (a shutdown: after the batch in flight). Returns the credits looked at. */
  async tick(signal?: AbortSignal): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await this.batch();
      total += n;
      if (n < this.batchSize || signal?.aborted) return total;
      // Between batches, the requests that queued for the database go first.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /**
   * One batch in one transaction. When it fails (one credit's data the engine cannot act on), the
   * credits are taken one by one so the others go on, and the failing one waits COLLECTION_RETRY_MS.
   */
  async batch(): Promise<number> {
    const now = this.now();
    try {
      return await transaction(this.db, async (tx) => {
        const ids = await new CollectionRepository(tx).claimDue(now, this.batchSize);
        // A batch reads each group's policy once: a saved policy marks every scheduled credit due again.
        const policies = new Map<string, Promise<EffectivePolicy>>();
        for (const id of ids) await this.evaluateIn(tx, id, now, policies);
        return ids.length;
      });
    } catch (err) {
      this.logger?.warn({ err }, 'collection batch failed; its credits are taken one by one');
      let n = 0;
      for (;;) {
        const done = await transaction(this.db, async (tx) => {
          const [id] = await new CollectionRepository(tx).claimDue(now, 1);
          if (id === undefined) return false;
          try {
            await transaction(this.db, (inner) => this.evaluateIn(inner, id, now));
          } catch (e) {
            this.logger?.warn({ err: e, creditId: id }, 'collection step failed; retrying later');
            await new CollectionRepository(tx).setNextStep(id, new Date(now.getTime() + COLLECTION_RETRY_MS));
          }
          return true;
        });
        if (!done) return n;
        n++;
      }
    }
  }

  // One credit ----------------------------------------------------------------------------

  /** The effective policy of a group (null: the global one) on the company's date `today`. */
  async policyFor(q: Queryable, groupId: number | null, today: string): Promise<EffectivePolicy> {
    const { global, group } = await new CollectionRepository(q).policyRows(groupId);
    const settings = effectiveSettings(global.settings, group?.settings);
    const label = group ? T.policy(group.group_name, group.version) : T.policy(null, global.version);
    return { settings, policy: resolvePolicy(settings, today), label };
  }

  private async load(q: Queryable, state: CollectionState, now: Date, policies?: Map<string, Promise<EffectivePolicy>>): Promise<Loaded> {
    const cutoff = offlineCutoff(now, this.settings.inventory.offlineAfterHours);
    // One after the other: `q` is often a transaction, one connection.
    const installments = await new CreditRepository(q).installments([state.id]);
    const rows = await new DeviceRepository(q).rowsByCreditReference(state.reference, DEVICES_MAX);
    const done = await new CollectionRepository(q).doneKeys(state.id);
    const groupId = rows.find((r) => r.group_id !== null)?.group_id ?? null;
    const today = todayIn(this.settings.timeZone, now);
    const key = `${groupId ?? ''}:${today}`;
    let cached = policies?.get(key);
    if (!cached) {
      cached = this.policyFor(q, groupId, today);
      policies?.set(key, cached);
    }
    const policy = await cached;
    // A person's unlock holds the lock off, read from the commands themselves: the hook that also
    // writes hold_until passes over a credit the engine holds (no lock-order deadlock), and this
    // read still sees the unlock.
    const holdMs = policy.settings.manualUnlockHoldHours * 3600_000;
    const unlocked = await new CommandRepository(q).lastUnlockRequest(
      rows.map((r) => r.id),
      new Date(now.getTime() - holdMs),
      COLLECTION_POLICY_ACTOR,
    );
    const holds = [state.hold_until && new Date(state.hold_until), unlocked && new Date(unlocked.getTime() + holdMs)].filter(
      (d): d is Date => d !== null,
    );
    const holdUntil = holds.length ? new Date(Math.max(...holds.map((d) => d.getTime()))) : null;
    let lockable = 0;
    let lockedByCredit = 0;
    let unreleased = 0;
    for (const r of rows) {
      const status = toDevice(r, cutoff).status;
      if (isReleased(r, status)) continue;
      if (status !== DEVICE_STATUS.PRE_ENROLLED) unreleased++;
      if (isLockedByCredit(r)) lockedByCredit++;
      // A device with another command in flight counts: the lock waits for it (a retry), not forever.
      else if (!isLocked(r) && status !== DEVICE_STATUS.PRE_ENROLLED) lockable++;
    }
    const credit: PlanCredit = {
      reference: state.reference,
      customerName: state.customer_name,
      currency: state.currency,
      installments: installments.get(state.id)!,
      paidCents: state.paid_cents,
      cancelled: state.cancelled_at !== null,
      pausedUntil: state.paused_until && new Date(state.paused_until),
      holdUntil,
      done,
      restricted: state.restricted,
      devices: { lockable, lockedByCredit, unreleased },
    };
    const plan = planCollection(policy.policy, credit, now, this.settings.timeZone, format);
    return { state, rows, policy, credit, plan };
  }

  /**
   * Applies what is due for a credit at `now` in the caller's transaction (the credit's row is
   * locked here if the caller did not), then sets its next `next_step_at`.
   */
  async evaluateIn(tx: Queryable, creditId: number, now: Date, policies?: Map<string, Promise<EffectivePolicy>>): Promise<void> {
    const repo = new CollectionRepository(tx);
    const state = await repo.lockState(creditId);
    if (!state) return;
    const loaded = await this.load(tx, state, now, policies);
    await this.overdueEvent(tx, loaded, now);
    const acted = await this.apply(tx, loaded, now);
    // The plan again with what was just done: its next instant, or a retry when something due
    // could not be applied now (a command in flight on a device).
    const after = acted ? (await this.load(tx, (await repo.lockState(creditId))!, now, policies)).plan : loaded.plan;
    const planned = after.nextAt && after.nextAt <= now ? new Date(now.getTime() + COLLECTION_RETRY_MS) : after.nextAt;
    // The midnight a credit up to date becomes overdue is looked at too: credit.overdue is sent then.
    const s = after.standing;
    const overdueAt = s.state === 'current' && s.nextDueDate ? instantAt(addDays(s.nextDueDate, 1), '00:00', this.settings.timeZone) : null;
    const next = planned && overdueAt ? (planned < overdueAt ? planned : overdueAt) : (planned ?? overdueAt);
    await repo.setNextStep(creditId, next);
  }

  /** credit.overdue once each time a credit becomes overdue. */
  private async overdueEvent(tx: Queryable, { state, plan }: Loaded, now: Date): Promise<void> {
    const s = plan.standing;
    const repo = new CollectionRepository(tx);
    if (s.state === 'overdue' && state.overdue_since === null) {
      await repo.setOverdueSince(state.id, s.oldestUnpaidDue);
      await new WebhooksRepository(tx).enqueue(
        'credit.overdue',
        ORDER_KEY_BASE + state.id,
        {
          reference: state.reference,
          currency: state.currency,
          daysOverdue: s.daysOverdue,
          amountOverdue: formatAmount(s.amountOverdueCents),
          oldestUnpaidDue: s.oldestUnpaidDue,
        } satisfies CreditOverdueEvent,
        now,
      );
    } else if (s.state !== 'overdue' && state.overdue_since !== null) {
      await repo.setOverdueSince(state.id, null);
    }
  }

  /** The reason a step records: days and amount overdue (or the step's own), and the policy's version. */
  private reason(l: Loaded): string {
    const s = l.plan.standing;
    return s.state === 'overdue'
      ? T.overdue(s.daysOverdue, formatMoney(s.amountOverdueCents, l.state.currency), l.policy.label)
      : s.state === 'paid_off'
        ? T.paidOff(l.policy.label)
        : T.settled(l.policy.label);
  }

  /** Applies the plan; true when anything was recorded or sent. */
  private async apply(tx: Queryable, l: Loaded, now: Date): Promise<boolean> {
    const { plan, state } = l;
    const repo = new CollectionRepository(tx);
    let acted = false;

    for (const skip of plan.skipped) {
      // The key says the kind: '<n>:reminder:<offset>' or '<n>:ladder:<days>:<kind>'.
      const [, family, , rung] = skip.key.split(':');
      const kind = family === 'ladder' && rung ? rung : 'reminder';
      const inserted = await repo.insertStep({
        creditId: state.id,
        installment: skip.installment,
        key: skip.key,
        kind,
        outcome: 'skipped',
        action: null,
        deviceIds: [],
        skippedDevices: [],
        reason: T.skipped[skip.why],
        at: now,
      });
      if (inserted) await this.stepEvent(tx, l, { key: skip.key, kind, outcome: 'skipped', reason: T.skipped[skip.why], devices: [] }, now);
      acted ||= inserted;
    }

    for (const step of plan.steps) {
      const reason = this.reason(l);
      switch (step.kind) {
        case 'release_request': {
          const inserted = await this.record(tx, l, now, { key: step.key, installment: 0, kind: 'release_request', action: null, reason });
          if (inserted) await repo.requestRelease(state.id, now);
          acted ||= inserted;
          break;
        }
        case 'release':
          acted =
            (await this.act(tx, l, now, { key: step.key, installment: 0, kind: 'release', reason }, () => ({ action: DEVICE_ACTION.RELEASE }))) ||
            acted;
          break;
        case 'reminder': {
          const why =
            plan.standing.state === 'overdue'
              ? reason
              : T.reminder(step.offsetDays, installmentDue(l, step.installment), step.values.monto, l.policy.label);
          const barcode: ActionPayload | undefined =
            step.barcode && /^[A-Za-z0-9-]{1,64}$/.test(state.reference) ? { action: DEVICE_ACTION.CODE_BAR, reference: state.reference } : undefined;
          const payload: ActionPayload = {
            action: DEVICE_ACTION.SEND_NOTIFICATION,
            title: T.titles.reminder,
            message: clip(step.message, MESSAGE_MAX),
          };
          acted =
            (await this.act(tx, l, now, { key: step.key, installment: step.installment, kind: 'reminder', reason: why }, () => payload, barcode)) ||
            acted;
          break;
        }
        case 'restrictions': {
          const done = await this.act(tx, l, now, { key: step.key, installment: step.installment, kind: 'restrictions', reason }, () => ({
            action: DEVICE_ACTION.RESTRICTIONS,
            collection: true,
          }));
          if (done) await repo.setRestricted(state.id, true);
          acted ||= done;
          break;
        }
        default: {
          const payload: ActionPayload = {
            action: DEVICE_ACTION.SEND_NOTIFICATION,
            title: clip(T.titles[step.kind], NOTIFICATION_TITLE_MAX),
            message: clip(step.message, MESSAGE_MAX),
            ...(step.kind === 'persistent_notification' && { persistent: true }),
          };
          acted = (await this.act(tx, l, now, { key: step.key, installment: step.installment, kind: step.kind, reason }, () => payload)) || acted;
        }
      }
    }

    const oldest = installmentOf(l);
    if (plan.lock) {
      const message = clip(plan.lock.message, MESSAGE_MAX);
      acted =
        (await this.act(tx, l, now, { key: `${oldest}:lock:${now.toISOString()}`, installment: oldest, kind: 'lock', reason: this.reason(l) }, (r) =>
          isLocked(r)
            ? T.device.alreadyLocked
            : r.pending_action !== null
              ? undefined
              : { action: DEVICE_ACTION.LOCK, lockType: 'PorCredito', message, stolen: false },
        )) || acted;
    }
    acted = (await this.recordDeferral(tx, l, now, oldest)) || acted;
    if (plan.unlock) {
      acted =
        (await this.act(tx, l, now, { key: `0:unlock:${now.toISOString()}`, installment: 0, kind: 'unlock', reason: this.reason(l) }, (r) =>
          isLockedByCredit(r)
            ? r.pending_action !== null
              ? undefined
              : { action: DEVICE_ACTION.UNLOCK, until: null }
            : isLocked(r)
              ? T.device.otherLock
              : T.device.notLocked,
        )) || acted;
    }
    if (plan.liftRestrictions) {
      // The restriction set again without the collection restrictions, at any hour; a device
      // busy with another command is retried shortly, the flag cleared once the step is done.
      const lifted = await this.act(
        tx,
        l,
        now,
        { key: `0:lift_restrictions:${now.toISOString()}`, installment: 0, kind: 'lift_restrictions', reason: this.reason(l) },
        (r) => (r.pending_action !== null ? undefined : { action: DEVICE_ACTION.RESTRICTIONS, collection: false }),
      );
      if (lifted) await repo.setRestricted(state.id, false);
      acted ||= lifted;
    }
    return acted;
  }

  /**
   * A lock due by the days overdue but held back by the clock (outside the allowed hours, or a
   * non-working day) is recorded as passed over, once per day, with which of the two.
   */
  private async recordDeferral(tx: Queryable, l: Loaded, now: Date, installment: number): Promise<boolean> {
    const { plan, credit, policy } = l;
    const s = plan.standing;
    const blocked = (until: Date | null) => until !== null && until > now;
    if (plan.lock || !policy.settings.lock.enabled || credit.devices.lockable === 0 || blocked(credit.pausedUntil) || blocked(credit.holdUntil))
      return false;
    if (s.state !== 'overdue' || s.amountOverdueCents <= policy.settings.unlockThresholdCents || s.daysOverdue < policy.settings.lock.daysOverdue)
      return false;
    const today = todayIn(this.settings.timeZone, now);
    const reason = isWorkingDay(today, policy.policy.calendar)
      ? T.skipped.hours(policy.settings.hours.from, policy.settings.hours.to)
      : T.skipped.nonWorkingDay;
    return this.record(tx, l, now, {
      key: `${installment}:lock_deferred:${today}`,
      installment,
      kind: 'lock',
      action: null,
      reason,
      outcome: 'skipped',
    });
  }

  /** Records a step without a device action; false when its key was taken already. */
  private async record(
    tx: Queryable,
    l: Loaded,
    now: Date,
    s: { key: string; installment: number; kind: CollectionStepKind; action: number | null; reason: string; outcome?: 'done' | 'skipped' },
  ): Promise<boolean> {
    const outcome = s.outcome ?? 'done';
    const inserted = await new CollectionRepository(tx).insertStep({
      creditId: l.state.id,
      installment: s.installment,
      key: s.key,
      kind: s.kind,
      outcome,
      action: s.action,
      deviceIds: [],
      skippedDevices: [],
      reason: s.reason,
      at: now,
    });
    if (inserted) await this.stepEvent(tx, l, { key: s.key, kind: s.kind, outcome, reason: s.reason, devices: [] }, now);
    return inserted;
  }

  /**
   * Claims a step's key, then sends its action to each device of the credit that takes it;
   * `payloadOf` answers the payload, or why the device is passed over (undefined: passed over
   * with the rules' reason). Devices released are passed over. False when the key was taken.
   */
  private async act(
    tx: Queryable,
    l: Loaded,
    now: Date,
    s: { key: string; installment: number; kind: CollectionStepKind; reason: string },
    payloadOf: (r: ListedDeviceRow) => ActionPayload | string | undefined,
    extra?: ActionPayload,
  ): Promise<boolean> {
    const repo = new CollectionRepository(tx);
    const payloads = l.rows.map((r) => payloadOf(r));
    const first = payloads.find((p): p is ActionPayload => typeof p === 'object');
    // Every device busy with another command: nothing is recorded, the re-plan retries it shortly.
    if (!first && payloads.some((p) => p === undefined)) return false;
    const inserted = await repo.insertStep({
      creditId: l.state.id,
      installment: s.installment,
      key: s.key,
      kind: s.kind,
      outcome: 'done',
      action: first?.action ?? null,
      deviceIds: [],
      skippedDevices: [],
      reason: s.reason,
      at: now,
    });
    if (!inserted) return false;
    const cutoff = offlineCutoff(now, this.settings.inventory.offlineAfterHours);
    const sent: number[] = [];
    const skipped: { id: number; reason: string }[] = [];
    for (const r of l.rows) {
      if (isReleased(r, toDevice(r, cutoff).status)) {
        skipped.push({ id: r.id, reason: T.device.released });
        continue;
      }
      const payload = payloadOf(r);
      if (typeof payload === 'string') {
        skipped.push({ id: r.id, reason: payload });
        continue;
      }
      if (!payload) {
        skipped.push({ id: r.id, reason: 'comando en curso' });
        continue;
      }
      const result = await this.actions.applyIn(tx, COLLECTION_ACTOR, r.id, payload, s.reason);
      if (!result.ok) {
        skipped.push({ id: r.id, reason: result.reason });
        continue;
      }
      sent.push(r.id);
      if (extra) await this.actions.applyIn(tx, COLLECTION_ACTOR, r.id, extra, s.reason);
    }
    await repo.completeStep(l.state.id, s.key, sent, skipped);
    await this.stepEvent(
      tx,
      l,
      { key: s.key, kind: s.kind, outcome: 'done', reason: s.reason, devices: sent, skippedDevices: skipped, action: first?.action ?? null },
      now,
    );
    return true;
  }

  /** collection.step: what the policy did (or passed over) and why. */
  private async stepEvent(
    tx: Queryable,
    l: Loaded,
    e: {
      key: string;
      kind: string;
      outcome: 'done' | 'skipped';
      reason: string;
      devices: number[];
      skippedDevices?: { id: number; reason: string }[];
      action?: number | null;
    },
    now: Date,
  ): Promise<void> {
    await new WebhooksRepository(tx).enqueue(
      'collection.step',
      ORDER_KEY_BASE + l.state.id,
      {
        reference: l.state.reference,
        step: e.key,
        kind: e.kind,
        outcome: e.outcome,
        action: e.action ?? null,
        reason: e.reason,
        devices: e.devices,
        skippedDevices: e.skippedDevices ?? [],
        policy: l.policy.label,
      } satisfies CollectionStepEvent,
      now,
    );
  }

  // Other writes ---------------------------------------------------------------------------

  /**
   * Re-plans a credit at once inside the transaction that changed it (a payment, a reversal, a new
   * schedule, a pause), so an unlock's command exists when that change answers. In a savepoint: a
   * failure here leaves the change standing, and the credit marked due for the next tick.
   */
  async reevaluateIn(tx: Queryable, creditId: number, now: Date): Promise<void> {
    await new CollectionRepository(tx).markDue(creditId, now);
    try {
      await transaction(this.db, (inner) => this.evaluateIn(inner, creditId, now));
    } catch (err) {
      this.logger?.warn({ err, creditId }, 'collection re-plan failed; the next tick retries it');
    }
  }

  /** A person unlocked a device of the credit: the policy holds its lock off for the configured hours. */
  async holdAfterUnlock(tx: Queryable, actor: AuditActor, reference: string, now: Date): Promise<void> {
    if (actor.email === COLLECTION_POLICY_ACTOR) return;
    const rows = await new DeviceRepository(tx).rowsByCreditReference(reference, 1);
    const policy = await this.policyFor(tx, rows[0]?.group_id ?? null, todayIn(this.settings.timeZone, now));
    await new CollectionRepository(tx).holdUntil(reference, new Date(now.getTime() + policy.settings.manualUnlockHoldHours * 3600_000), now);
  }

  // Reads ---------------------------------------------------------------------------------

  /** What the policy does next for a credit, in Spanish; null when nothing is scheduled. */
  async nextStep(q: Queryable, reference: string): Promise<NextStep | null> {
    const now = this.now();
    const state = await new CollectionRepository(q).stateByReference(reference);
    if (!state) return null;
    const l = await this.load(q, state, now);
    if (await new CollectionRepository(q).pendingApproval(state.id)) return { kind: 'release_request', at: null, text: T.next.release_request };
    const describe = (plan: Plan, at: Date): NextStep | null => {
      const when = `${shortDate(todayIn(this.settings.timeZone, at))}, ${localTime(at, this.settings.timeZone)}`;
      if (plan.unlock) return { kind: 'unlock', at: at.toISOString(), text: T.next.unlock };
      const release = plan.steps.find((s) => s.kind === 'release' || s.kind === 'release_request');
      if (release) return { kind: release.kind, at: at.toISOString(), text: release.kind === 'release' ? T.next.release : T.next.release_request };
      if (plan.lock) return { kind: 'lock', at: at.toISOString(), text: T.next.lock(when) };
      const step = plan.steps[0];
      if (step && step.kind !== 'release' && step.kind !== 'release_request')
        return { kind: step.kind, at: at.toISOString(), text: T.next[step.kind](when) };
      return null;
    };
    const nowStep = describe(l.plan, now);
    if (nowStep) return nowStep;
    // The plan at its next instant, and after it a few more: a pause's end may itself do nothing
    // (a night, a rest day) before the step it held back.
    let at = l.plan.nextAt;
    for (let hop = 0; hop < NEXT_STEP_HOPS && at && at > now; hop++) {
      const plan = planCollection(l.policy.policy, l.credit, at, this.settings.timeZone, format);
      const found = describe(plan, at);
      if (found) return found;
      at = plan.nextAt && plan.nextAt > at ? plan.nextAt : null;
    }
    const paused = l.credit.pausedUntil;
    return paused && paused > now
      ? { kind: 'paused', at: paused.toISOString(), text: T.next.paused(shortDate(todayIn(this.settings.timeZone, new Date(paused.getTime() - 1)))) }
      : null;
  }
}

/** 'HH:MM' of an instant in a time zone. */
function localTime(at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at);
}

/** The number of the oldest installment not fully paid (0: none), what lock steps are keyed by. */
function installmentOf(l: Loaded): number {
  let left = l.credit.paidCents;
  for (const i of l.credit.installments) {
    if (left < i.amountCents) return i.number;
    left -= i.amountCents;
  }
  return 0;
}

function installmentDue(l: Loaded, number: number): string {
  return l.credit.installments.find((i) => i.number === number)?.dueDate ?? '';
}
