/**
 * The collection policy's engine: on every tick of the server's clock (every replica ticks), it
 * claims the credits whose `next_step_at` has passed, through the partial index credits_next_step,
 * in batches locked FOR UPDATE SKIP LOCKED, so replicas share the work and never take the same
 * credit at once. For each it asks shared/credits `planCollection` what is due under the effective
 * policy of the credit's devices' group, applies it through DeviceActionsService as the actor
 * *Política de cobranza* (the same rules, commands, history and audit as a person), records each
 * once-only step in credit_steps in the same transaction (its unique key: never twice, whatever
 * retries), and sets the credit's next `next_step_at`. A batch is read and written set-based (a
 * statement per table, not per credit). A payment, a reversal, a new schedule or a pause re-plans
 * its credit at once, in its own transaction.
 */
import type { WebhookEventType } from '../../shared/constants/integration';
import { COLLECTION_POLICY_ACTOR, COLLECTION_TEXTS as T, shortDate, type CollectionStepKind } from '../../shared/constants/creditLabels';
import { DEVICE_ACTION } from '../../shared/constants/deviceActions';
import { DEVICE_STATUS } from '../../shared/constants/domain';
import type { CollectionStepEvent, CreditOverdueEvent, NextStep } from '../../shared/contracts/credits';
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
import {
  CommandRepository,
  DeviceRepository,
  toDevice,
  type DeviceActionsService,
  type InventorySettings,
  type ListedDeviceRow,
  type ServerAction,
} from '../devices';
import type { Logger } from '../logger';
import { WebhooksRepository } from '../webhooks/webhooksRepository';
import { CollectionRepository, type CollectionState, type NewStep } from './collectionRepository';
import { CreditRepository } from './creditRepository';
import { MESSAGE_MAX, NOTIFICATION_TITLE_MAX } from '../../shared/constants/limits';

/** The actor of everything the policy does. */
export const COLLECTION_ACTOR: AuditActor = { adminId: null, email: COLLECTION_POLICY_ACTOR, ip: null, requestId: null };
/**
 * Credits per claimed batch (one transaction), chosen with `npm run bench:credits`: smaller
 * batches pay each statement for fewer credits, larger ones hold the cores long enough for the
 * devices list to feel it.
 */
export const COLLECTION_BATCH = 25;
/** How long the engine rests after a full batch, as a share of the time the batch took. */
const COLLECTION_REST = 0.5;
/**
 * The batch on PGlite: its one connection is held for a whole batch, so small batches keep the
 * demo's pages answering while a sweep plans thousands of credits.
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
      const started = performance.now();
      const n = await this.batch();
      total += n;
      if (n < this.batchSize || signal?.aborted) return total;
      // After a full batch the engine rests half as long as it took: a sweep of thousands of
      // credits leaves a third of the time to people's pages, which then keep answering.
      await new Promise((resolve) => setTimeout(resolve, (performance.now() - started) * COLLECTION_REST));
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
        await this.evaluateIn(tx, ids, now, new Map());
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
            await transaction(this.db, (inner) => this.evaluateIn(inner, [id], now));
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

  // Credits -------------------------------------------------------------------------------

  /** The effective policy of a group (null: the global one) on the company's date `today`. */
  async policyFor(q: Queryable, groupId: number | null, today: string): Promise<EffectivePolicy> {
    const { global, group } = await new CollectionRepository(q).policyRows(groupId);
    const settings = effectiveSettings(global.settings, group?.settings);
    const label = group ? T.policy(group.group_name, group.version) : T.policy(null, global.version);
    return { settings, policy: resolvePolicy(settings, today), label };
  }

  /**
   * Credits as the engine sees them at `now`: one statement per table for the whole batch, one
   * after the other (`q` is often a transaction, one connection).
   */
  private async load(
    q: Queryable,
    states: readonly CollectionState[],
    now: Date,
    policies = new Map<string, Promise<EffectivePolicy>>(),
  ): Promise<Loaded[]> {
    if (states.length === 0) return [];
    const cutoff = offlineCutoff(now, this.settings.inventory.offlineAfterHours);
    const ids = states.map((s) => s.id);
    const installments = await new CreditRepository(q).installments(ids);
    const rowsOf = await new DeviceRepository(q).rowsByCreditReferences(
      states.map((s) => s.reference),
      DEVICES_MAX,
    );
    const doneOf = await new CollectionRepository(q).doneKeys(ids);
    const today = todayIn(this.settings.timeZone, now);
    const policyOf = new Map<number, EffectivePolicy>();
    for (const state of states) {
      const groupId = rowsOf.get(state.reference)!.find((r) => r.group_id !== null)?.group_id ?? null;
      const key = `${groupId ?? ''}:${today}`;
      let cached = policies.get(key);
      if (!cached) {
        cached = this.policyFor(q, groupId, today);
        policies.set(key, cached);
      }
      policyOf.set(state.id, await cached);
    }
    // A person's unlock holds the lock off, read from the commands themselves: the hook that also
    // writes hold_until passes over a credit the engine holds (no lock-order deadlock), and this
    // read still sees the unlock. Read over the longest hold of the batch, each credit's own after.
    const holdMs = (id: number) => policyOf.get(id)!.settings.manualUnlockHoldHours * 3600_000;
    const longest = Math.max(...ids.map(holdMs));
    const unlocks = await new CommandRepository(q).lastUnlockRequests(
      states.flatMap((s) => rowsOf.get(s.reference)!.map((r) => r.id)),
      new Date(now.getTime() - longest),
      COLLECTION_POLICY_ACTOR,
    );
    return states.map((state) => {
      const rows = rowsOf.get(state.reference)!;
      const policy = policyOf.get(state.id)!;
      const hold = holdMs(state.id);
      const since = now.getTime() - hold;
      const unlocked = Math.max(-Infinity, ...rows.map((r) => unlocks.get(r.id)?.getTime() ?? -Infinity).filter((t) => t > since));
      const holds = [state.hold_until && new Date(state.hold_until), Number.isFinite(unlocked) ? new Date(unlocked + hold) : null].filter(
        (d): d is Date => d !== null,
      );
      const holdUntil = holds.length ? new Date(Math.max(...holds.map((d) => d.getTime()))) : null;
      const credit: PlanCredit = {
        reference: state.reference,
        customerName: state.customer_name,
        currency: state.currency,
        installments: installments.get(state.id)!,
        paidCents: state.paid_cents,
        cancelled: state.cancelled_at !== null,
        pausedUntil: state.paused_until && new Date(state.paused_until),
        holdUntil,
        done: doneOf.get(state.id)!,
        restricted: state.restricted,
        devices: devicesOf(rows, cutoff),
      };
      const plan = planCollection(policy.policy, credit, now, this.settings.timeZone, format);
      return { state, rows, policy, credit, plan };
    });
  }

  /**
   * The plans again after a batch's writes, for the credits that recorded steps: only what the
   * writes changed is read again (the credits' flags and their devices' rows); their schedules,
   * policies and holds stand, and their steps are the ones read plus those just recorded.
   */
  private async replan(q: Queryable, loaded: readonly Loaded[], recorded: ReadonlyMap<number, readonly string[]>, now: Date): Promise<Plan[]> {
    if (loaded.length === 0) return [];
    const cutoff = offlineCutoff(now, this.settings.inventory.offlineAfterHours);
    const states = new Map((await new CollectionRepository(q).lockStates(loaded.map((l) => l.state.id))).map((s) => [s.id, s]));
    const rowsOf = await new DeviceRepository(q).rowsByCreditReferences(
      loaded.map((l) => l.state.reference),
      DEVICES_MAX,
    );
    return loaded.map((l) => {
      const credit: PlanCredit = {
        ...l.credit,
        restricted: states.get(l.state.id)!.restricted,
        done: new Set([...l.credit.done, ...(recorded.get(l.state.id) ?? [])]),
        devices: devicesOf(rowsOf.get(l.state.reference)!, cutoff),
      };
      return planCollection(l.policy.policy, credit, now, this.settings.timeZone, format);
    });
  }

  /**
   * Applies what is due for credits at `now` in the caller's transaction (their rows are locked
   * here if the caller did not), then sets each one's next `next_step_at`. What the plans do is
   * gathered credit by credit, in the order one by one would do it, then written set-based.
   */
  async evaluateIn(tx: Queryable, creditIds: readonly number[], now: Date, policies = new Map<string, Promise<EffectivePolicy>>()): Promise<void> {
    if (creditIds.length === 0) return;
    const repo = new CollectionRepository(tx);
    const loaded = await this.load(tx, await repo.lockStates(creditIds), now, policies);
    const batch = new Effects();
    for (const l of loaded) {
      await this.overdueEvent(tx, batch, l, now);
      this.apply(batch, l, now);
    }
    const recorded = await batch.write(tx, this.actions, now);
    // The plans again with what was just done: each one's next instant, or a retry when something
    // due could not be applied now (a command in flight on a device).
    const acted = loaded.filter((l) => recorded.has(l.state.id));
    const plans = await this.replan(tx, acted, recorded, now);
    const again = new Map(acted.map((l, i) => [l.state.id, plans[i]!]));
    await repo.setNextSteps(
      loaded.map((l) => {
        const after = again.get(l.state.id) ?? l.plan;
        const planned = after.nextAt && after.nextAt <= now ? new Date(now.getTime() + COLLECTION_RETRY_MS) : after.nextAt;
        // The midnight a credit up to date becomes overdue is looked at too: credit.overdue is sent then.
        const s = after.standing;
        const overdueAt = s.state === 'current' && s.nextDueDate ? instantAt(addDays(s.nextDueDate, 1), '00:00', this.settings.timeZone) : null;
        return { id: l.state.id, at: planned && overdueAt ? (planned < overdueAt ? planned : overdueAt) : (planned ?? overdueAt) };
      }),
    );
  }

  /** credit.overdue once each time a credit becomes overdue. */
  private async overdueEvent(tx: Queryable, batch: Effects, { state, plan }: Loaded, now: Date): Promise<void> {
    const s = plan.standing;
    const repo = new CollectionRepository(tx);
    if (s.state === 'overdue' && state.overdue_since === null) {
      await repo.setOverdueSince(state.id, s.oldestUnpaidDue);
      batch.event({
        type: 'credit.overdue',
        orderKey: ORDER_KEY_BASE + state.id,
        data: {
          reference: state.reference,
          currency: state.currency,
          daysOverdue: s.daysOverdue,
          amountOverdue: formatAmount(s.amountOverdueCents),
          oldestUnpaidDue: s.oldestUnpaidDue,
        } satisfies CreditOverdueEvent,
        occurredAt: now,
      });
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

  /** Gathers what the plan does into the batch. */
  private apply(batch: Effects, l: Loaded, now: Date): void {
    const { plan, state } = l;

    for (const skip of plan.skipped) {
      // The key says the kind: '<n>:reminder:<offset>' or '<n>:ladder:<days>:<kind>'.
      const [, family, , rung] = skip.key.split(':');
      const kind = family === 'ladder' && rung ? rung : 'reminder';
      this.record(batch, l, now, {
        key: skip.key,
        installment: skip.installment,
        kind,
        action: null,
        reason: T.skipped[skip.why],
        outcome: 'skipped',
      });
    }

    for (const step of plan.steps) {
      const reason = this.reason(l);
      switch (step.kind) {
        case 'release_request':
          if (this.record(batch, l, now, { key: step.key, installment: 0, kind: 'release_request', action: null, reason }))
            batch.then((tx) => new CollectionRepository(tx).requestRelease(state.id, now));
          break;
        case 'release':
          this.act(batch, l, now, { key: step.key, installment: 0, kind: 'release', reason }, () => ({ action: DEVICE_ACTION.RELEASE }));
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
          this.act(batch, l, now, { key: step.key, installment: step.installment, kind: 'reminder', reason: why }, () => payload, barcode);
          break;
        }
        case 'restrictions': {
          const done = this.act(batch, l, now, { key: step.key, installment: step.installment, kind: 'restrictions', reason }, () => ({
            action: DEVICE_ACTION.RESTRICTIONS,
            collection: true,
          }));
          if (done) batch.then((tx) => new CollectionRepository(tx).setRestricted(state.id, true));
          break;
        }
        default: {
          const payload: ActionPayload = {
            action: DEVICE_ACTION.SEND_NOTIFICATION,
            title: clip(T.titles[step.kind], NOTIFICATION_TITLE_MAX),
            message: clip(step.message, MESSAGE_MAX),
            ...(step.kind === 'persistent_notification' && { persistent: true }),
          };
          this.act(batch, l, now, { key: step.key, installment: step.installment, kind: step.kind, reason }, () => payload);
        }
      }
    }

    const oldest = installmentOf(l);
    if (plan.lock) {
      const message = clip(plan.lock.message, MESSAGE_MAX);
      this.act(batch, l, now, { key: `${oldest}:lock:${now.toISOString()}`, installment: oldest, kind: 'lock', reason: this.reason(l) }, (r) =>
        isLocked(r)
          ? T.device.alreadyLocked
          : r.pending_action !== null
            ? undefined
            : { action: DEVICE_ACTION.LOCK, lockType: 'PorCredito', message, stolen: false },
      );
    }
    this.recordDeferral(batch, l, now, oldest);
    if (plan.unlock) {
      this.act(batch, l, now, { key: `0:unlock:${now.toISOString()}`, installment: 0, kind: 'unlock', reason: this.reason(l) }, (r) =>
        isLockedByCredit(r)
          ? r.pending_action !== null
            ? undefined
            : { action: DEVICE_ACTION.UNLOCK, until: null }
          : isLocked(r)
            ? T.device.otherLock
            : T.device.notLocked,
      );
    }
    if (plan.liftRestrictions) {
      // The restriction set again without the collection restrictions, at any hour; a device
      // busy with another command is retried shortly, the flag cleared once the step is done.
      const lifted = this.act(
        batch,
        l,
        now,
        { key: `0:lift_restrictions:${now.toISOString()}`, installment: 0, kind: 'lift_restrictions', reason: this.reason(l) },
        (r) => (r.pending_action !== null ? undefined : { action: DEVICE_ACTION.RESTRICTIONS, collection: false }),
      );
      if (lifted) batch.then((tx) => new CollectionRepository(tx).setRestricted(state.id, false));
    }
  }

  /**
   * A lock due by the days overdue but held back by the clock (outside the allowed hours, or a
   * non-working day) is recorded as passed over, once per day, with which of the two.
   */
  private recordDeferral(batch: Effects, l: Loaded, now: Date, installment: number): void {
    const { plan, credit, policy } = l;
    const s = plan.standing;
    const blocked = (until: Date | null) => until !== null && until > now;
    if (plan.lock || !policy.settings.lock.enabled || credit.devices.lockable === 0 || blocked(credit.pausedUntil) || blocked(credit.holdUntil))
      return;
    if (s.state !== 'overdue' || s.amountOverdueCents <= policy.settings.unlockThresholdCents || s.daysOverdue < policy.settings.lock.daysOverdue)
      return;
    const today = todayIn(this.settings.timeZone, now);
    const reason = isWorkingDay(today, policy.policy.calendar)
      ? T.skipped.hours(policy.settings.hours.from, policy.settings.hours.to)
      : T.skipped.nonWorkingDay;
    this.record(batch, l, now, {
      key: `${installment}:lock_deferred:${today}`,
      installment,
      kind: 'lock',
      action: null,
      reason,
      outcome: 'skipped',
    });
  }

  /** Records a step without a device action; false when its key was taken already. */
  private record(
    batch: Effects,
    l: Loaded,
    now: Date,
    s: { key: string; installment: number; kind: string; action: number | null; reason: string; outcome?: 'done' | 'skipped' },
  ): boolean {
    if (!batch.claim(l, s.key)) return false;
    const outcome = s.outcome ?? 'done';
    batch.step(l, { ...s, outcome, at: now });
    return true;
  }

  /**
   * Claims a step's key, then sends its action to each device of the credit that takes it;
   * `payloadOf` answers the payload, or why the device is passed over (undefined: passed over
   * with the rules' reason). Devices released are passed over. False when the key was taken.
   */
  private act(
    batch: Effects,
    l: Loaded,
    now: Date,
    s: { key: string; installment: number; kind: CollectionStepKind; reason: string },
    payloadOf: (r: ListedDeviceRow) => ActionPayload | string | undefined,
    extra?: ActionPayload,
  ): boolean {
    const payloads = l.rows.map((r) => payloadOf(r));
    const first = payloads.find((p): p is ActionPayload => typeof p === 'object');
    // Every device busy with another command: nothing is recorded, the re-plan retries it shortly.
    if (!first && payloads.some((p) => p === undefined)) return false;
    if (!batch.claim(l, s.key)) return false;
    const cutoff = offlineCutoff(now, this.settings.inventory.offlineAfterHours);
    const devices: DeviceStep[] = l.rows.map((r) => {
      if (isReleased(r, toDevice(r, cutoff).status)) return { id: r.id, skipped: T.device.released };
      const payload = payloadOf(r);
      if (typeof payload === 'string') return { id: r.id, skipped: payload };
      if (!payload) return { id: r.id, skipped: 'comando en curso' };
      return { id: r.id, payload, extra };
    });
    batch.step(l, { ...s, outcome: 'done', action: first?.action ?? null, at: now }, devices);
    return true;
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
      await transaction(this.db, (inner) => this.evaluateIn(inner, [creditId], now));
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
    const l = (await this.load(q, [state], now))[0]!;
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

/** What the plan needs of a credit's devices: how many can take a lock, are locked by it, are not released. */
function devicesOf(rows: readonly ListedDeviceRow[], cutoff: Date): PlanCredit['devices'] {
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
  return { lockable, lockedByCredit, unreleased };
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

/** A device in a step: the action it is sent (and one that goes with it when that one is taken), or why it is passed over. */
type DeviceStep = { id: number; skipped: string } | { id: number; payload: ActionPayload; extra?: ActionPayload };

interface GatheredStep {
  l: Loaded;
  step: Omit<NewStep, 'creditId' | 'deviceIds' | 'skippedDevices'>;
  devices: readonly DeviceStep[];
}

/**
 * What a batch of plans does, gathered credit by credit in the order one by one would do it, then
 * written set-based by `write`: the device actions (through DeviceActionsService, as a person's),
 * the steps with what each sent and passed over, the credits' flags, and the webhook events in
 * each credit's order. A key is claimed against the steps read with the credit's row locked, so
 * `claim` is exact; `write` still checks every step went in, and throws (the transaction rolls
 * back, nothing sent) if another writer took one.
 */
class Effects {
  private readonly steps: GatheredStep[] = [];
  private readonly events: (WebhookEvent | GatheredStep)[] = [];
  private readonly after: ((tx: Queryable) => Promise<unknown>)[] = [];
  private readonly claimed = new Set<string>();

  /** Whether a step's key is free (not taken before, nor earlier in this batch); it is taken now. */
  claim(l: Loaded, key: string): boolean {
    const k = `${l.state.id}:${key}`;
    if (l.credit.done.has(key) || this.claimed.has(k)) return false;
    this.claimed.add(k);
    return true;
  }

  step(l: Loaded, step: GatheredStep['step'], devices: readonly DeviceStep[] = []): void {
    const gathered = { l, step, devices };
    this.steps.push(gathered);
    this.events.push(gathered);
  }

  event(e: WebhookEvent): void {
    this.events.push(e);
  }

  /** A write that waits for the steps (a flag, a release request). */
  then(write: (tx: Queryable) => Promise<unknown>): void {
    this.after.push(write);
  }

  /** Writes everything; answers the keys each credit recorded. */
  async write(tx: Queryable, actions: Pick<DeviceActionsService, 'applyIn'>, now: Date): Promise<Map<number, string[]>> {
    const items: ServerAction[] = [];
    // Each device's action's index in `items` (-1: passed over); its extra goes right after it.
    const slots = this.steps.map((g) =>
      g.devices.map((d) => {
        if (!('payload' in d)) return -1;
        const main = items.push({ deviceId: d.id, payload: d.payload, detail: g.step.reason }) - 1;
        if (d.extra) items.push({ deviceId: d.id, payload: d.extra, detail: g.step.reason, with: main });
        return main;
      }),
    );
    const results = await actions.applyIn(tx, COLLECTION_ACTOR, items);
    const rows: NewStep[] = this.steps.map((g, i) => {
      const sent: number[] = [];
      const skipped: { id: number; reason: string }[] = [];
      g.devices.forEach((d, k) => {
        if (!('payload' in d)) return skipped.push({ id: d.id, reason: d.skipped });
        const r = results[slots[i]![k]!]!;
        return r.ok ? sent.push(d.id) : skipped.push({ id: d.id, reason: r.reason });
      });
      return { ...g.step, creditId: g.l.state.id, deviceIds: sent, skippedDevices: skipped };
    });
    const inserted = await new CollectionRepository(tx).insertSteps(rows);
    if (inserted !== rows.length) throw new Error(`collection steps recorded meanwhile: ${rows.length - inserted} of ${rows.length}`);
    for (const write of this.after) await write(tx);
    const rowOf = new Map(this.steps.map((g, i) => [g, rows[i]!]));
    await new WebhooksRepository(tx).enqueueEach(
      this.events.map((e) => {
        if (!('l' in e)) return e;
        const r = rowOf.get(e)!;
        return {
          type: 'collection.step',
          orderKey: ORDER_KEY_BASE + e.l.state.id,
          data: {
            reference: e.l.state.reference,
            step: r.key,
            kind: r.kind,
            outcome: r.outcome,
            action: r.action,
            reason: r.reason,
            devices: [...r.deviceIds],
            skippedDevices: [...r.skippedDevices],
            policy: e.l.policy.label,
          } satisfies CollectionStepEvent,
          occurredAt: now,
        };
      }),
    );
    const recorded = new Map<number, string[]>();
    for (const g of this.steps) recorded.set(g.l.state.id, [...(recorded.get(g.l.state.id) ?? []), g.step.key]);
    return recorded;
  }
}

/** An event for the outbox. */
interface WebhookEvent {
  type: WebhookEventType;
  orderKey: number;
  data: unknown;
  occurredAt: Date;
}
