import { mergeSettings, settingField } from '../../shared/agentSettings';
import type { ActionPayload, ActionResult, Command, History, HistoryQuery, LockDefaults } from '../../shared/contracts/deviceActions';
import type { Device } from '../../shared/contracts/devices';
import type { BulkBody, BulkPreview } from '../../shared/contracts/jobs';
import { DEVICE_ACTION } from '../../shared/constants/deviceActions';
import { ACTION_ORIGIN, LOCK_TYPES, type DeviceTypeCode, type LockType } from '../../shared/constants/domain';
import { actionLabel, refusal } from '../../shared/deviceActionRules';
import { STATEFUL_ACTIONS, offlineCutoff } from '../../shared/deviceStatus';
import * as machine from '../../shared/deviceStateMachine';
import { AGENT_MESSAGES as A } from '../../shared/areaMessages/agent';
import { INVENTORY_MESSAGES as M } from '../../shared/areaMessages/inventory';
import { AuditRepository, record, recordEach, type AuditActor, type AuditRow } from '../audit/auditRepository';
import {
  ENROLLMENT_TOKEN_KINDS,
  type EnrollmentAttempt,
  type EnrollmentAttempts,
  type EnrollmentAttemptsQuery,
} from '../../shared/contracts/enrollment';
import type { Db, Queryable } from '../db/Db';
import { transaction } from '../db/transactionScope';
import { AppError } from '../errors';
import { auditActionName, commandPayload, pendingUntil, summarize } from './commandRules';
import { CommandRepository, isCancellable, toCommand, type CommandRow, type NewCommand } from './commandRepository';
import { CredentialRepository } from './credentialRepository';
import { DeviceRepository } from './deviceRepository';
import { AgentSettingsRepository, type AgentSettingsRow } from '../api/agentSettings/agentSettingsRepository';
import { machineFactsOf, toDevice, type InventorySettings, type ListedDeviceRow } from './deviceQueries';
import { idempotent, type Answer, type IdempotencyRequest } from '../middleware/idempotency';
import { OFFLINE_ACTIONS, issuedCode, offlineExpiry } from './offlineCodes';
import { RELEASE_CANCEL_HOURS } from '../../shared/constants/limits';

const notFound = () => new AppError(404, 'DEVICE_NOT_FOUND', M.devices.notFound);

/**
 * Soft-deletes devices: their commands still waiting for the agent are cancelled (not dropped
 * silently) and their agents' tokens revoked (the agent can no longer call). A device action and
 * a bulk job both delete this way.
 */
export async function deleteDevices(tx: Queryable, ids: readonly number[], now: Date): Promise<void> {
  await new DeviceRepository(tx).softDelete(ids, now);
  await new CommandRepository(tx).cancelPendingOf(ids);
  await new CredentialRepository(tx).revokeAgentTokens(ids, now);
}

/** What the audit log keeps of a device: its facts (never its secret). */
export function deviceFacts(d: Device) {
  return {
    id: d.id,
    imei: d.imei,
    status: d.status,
    lockType: d.lockType,
    lockMessage: d.lockMessage,
    temporaryUntil: d.temporaryUntil,
    pendingCommand: d.pendingCommand ? { id: d.pendingCommand.id, action: d.pendingCommand.action } : null,
    failureReason: d.failureReason,
    groupId: d.groupId,
  };
}

const DEFAULT_LOCK_TYPE = 'default_lock_type';

/**
 * The lock type the portal proposes for a device type (the setting's default, the global row,
 * then a group's row merged over it). A stored value that is no lock type falls back to the
 * setting's default.
 */
function lockTypeOf(deviceType: DeviceTypeCode, ...layers: (Record<string, unknown> | undefined)[]): LockType {
  const value = mergeSettings(deviceType, ...layers)[DEFAULT_LOCK_TYPE];
  const known = LOCK_TYPES.find((t) => t.key === value);
  return known ? known.key : (settingField(DEFAULT_LOCK_TYPE)!.defaults[deviceType] as LockType);
}

/** One device type's proposed lock types: the global one and the groups whose own differs. */
function lockDefaultsOf(deviceType: DeviceTypeCode, rows: readonly AgentSettingsRow[]): LockDefaults['byType'][DeviceTypeCode] {
  const own = rows.filter((r) => r.device_type === deviceType);
  const globalRow = own.find((r) => r.group_id === null)?.settings;
  const global = lockTypeOf(deviceType, globalRow);
  const groups: Record<string, LockType> = {};
  for (const r of own) {
    if (r.group_id === null) continue;
    const lockType = lockTypeOf(deviceType, globalRow, r.settings);
    if (lockType !== global) groups[String(r.group_id)] = lockType;
  }
  return { global, groups };
}

/** What the audit log keeps of a command (an offline code's nonce and expiry, never the code). */
const commandFacts = (c: CommandRow) => ({
  id: Number(c.id),
  action: c.action,
  status: c.status,
  origin: c.origin,
  payload: c.payload,
  deliverAfter: new Date(c.deliver_after).toISOString(),
  ...(c.nonce !== null ? { nonce: c.nonce } : {}),
  ...(c.expires_at !== null ? { expiresAt: new Date(c.expires_at).toISOString() } : {}),
});

/** What an idempotency key stores of an action's answer: the offline code is not stored (its nonce is). */
interface StoredResult extends Omit<ActionResult, 'offlineCode'> {
  offlineCode?: { expiresAt: string; nonce: number };
}

/** An action's answer and, for an offline code, the nonce it was derived with. */
interface Acted {
  result: ActionResult;
  nonce?: number;
}

/** The command an action inserts: waiting for the agent; a RELEASE only after its cancel window. */
function newCommand(deviceId: number, p: ActionPayload, actor: AuditActor, now: Date): NewCommand {
  return {
    deviceId,
    action: p.action,
    payload: commandPayload(p),
    origin: p.action === DEVICE_ACTION.LOCK && p.stolen ? ACTION_ORIGIN.LOCK_BY_STOLEN : null,
    status: 'pending',
    requestedAt: now,
    requestedByAdminId: actor.adminId,
    requestedBy: actor.email,
    deliverAfter: p.action === DEVICE_ACTION.RELEASE ? new Date(now.getTime() + RELEASE_CANCEL_HOURS * 3600_000) : now,
  };
}

/** An action the server takes itself on a device, with the reason its audit row gives. */
export interface ServerAction {
  deviceId: number;
  payload: ActionPayload;
  detail: string;
  /** The index of an earlier action this one goes with: taken only when that one was (a reminder's bar code). */
  with?: number;
}

export type ServerActionResult = { ok: true; command: Command } | { ok: false; reason: string };

/** The unlock-kind actions: after a person's, the collection policy holds its lock off for a while. */
const UNLOCK_ACTIONS: readonly number[] = [DEVICE_ACTION.UNLOCK, DEVICE_ACTION.UNLOCK_OFFLINE, DEVICE_ACTION.UNLOCK_OFFLINE_WITH_DATE];

/** What other domains learn of a device action, in its transaction. */
export interface DeviceActionHooks {
  /** An unlock-kind action was requested for a device carrying a credit reference. */
  unlocked?: (tx: Queryable, actor: AuditActor, creditReference: string, now: Date) => Promise<void>;
}

/** Actions on one device: commands, offline codes, release cancellation; bulk previews. */
export class DeviceActionsService {
  constructor(
    private readonly db: Db,
    private readonly settings: InventorySettings,
    private readonly hooks: DeviceActionHooks = {},
  ) {}

  /**
   * Actions inside the caller's transaction, for the server's own actors (the collection policy):
   * the same rules, commands, history and audit as a person's action, with each one's `detail`
   * (the reason) in its audit row, written set-based (a policy batch sends hundreds at once). Taken
   * in the order given, as one by one: an action on a device sees the command an earlier one left
   * it waiting for. A device the rules refuse is answered with the reason, nothing written for it.
   * Offline codes and deletion are a person's actions, not taken here.
   */
  async applyIn(tx: Queryable, actor: AuditActor, items: readonly ServerAction[]): Promise<ServerActionResult[]> {
    if (items.length === 0) return [];
    const { now, cutoff } = this.clock();
    const devices = new DeviceRepository(tx);
    const commands = new CommandRepository(tx);
    const rows = new Map((await devices.lockForActions(items.map((i) => i.deviceId))).map((r) => [r.id, r]));
    const ids = await commands.reserveIds(items.length);
    // Each item's refusal, or the index of its command in `planned`.
    const outcomes: (string | number)[] = [];
    const planned: {
      row: ListedDeviceRow;
      before: Device;
      after: Device;
      command: NewCommand & { id: number };
      payload: ActionPayload;
      detail: string;
    }[] = [];
    const pending: { deviceId: number; commandId: number; action: number; until: Date | null }[] = [];
    for (const [i, { deviceId, payload: p, detail, with: along }] of items.entries()) {
      if ((OFFLINE_ACTIONS as readonly number[]).includes(p.action) || p.action === DEVICE_ACTION.DELETE_DEVICE)
        throw new Error(`action ${p.action} is not a server action`);
      const leader = along === undefined ? undefined : outcomes[along];
      if (typeof leader === 'string') {
        outcomes.push(leader);
        continue;
      }
      const row = rows.get(deviceId);
      if (!row || row.deleted_at !== null) {
        outcomes.push(M.devices.notFound);
        continue;
      }
      const before = toDevice(row, cutoff);
      const refused = refusal({ status: before.status, lockType: before.lockType, pendingAction: row.pending_action }, p.action);
      if (refused) {
        outcomes.push(refused.reason);
        continue;
      }
      const command = { ...newCommand(deviceId, p, actor, now), id: ids[i]! };
      let next = row;
      if (STATEFUL_ACTIONS.includes(p.action)) {
        const until = pendingUntil(p);
        pending.push({ deviceId, commandId: command.id, action: p.action, until });
        // The row as setPending leaves it, for the next action on this device and the audit.
        next = {
          ...row,
          pending_command_id: command.id,
          pending_action: p.action,
          pending_until: until,
          updated_at: now,
          pending_requested_at: now,
          pending_requested_by: actor.email,
          pending_deliver_after: command.deliverAfter,
          pending_payload: command.payload,
          pending_delivered_at: null,
        };
        rows.set(deviceId, next);
      }
      outcomes.push(planned.length);
      planned.push({ row, before, after: toDevice(next, cutoff), command, payload: p, detail });
    }
    const inserted = await commands.insertWithIds(planned.map((x) => x.command));
    await devices.setPendingEach(pending, now);
    await recordEach(
      tx,
      planned.map((x, k) => ({
        actor,
        entity: 'device' as const,
        entityId: x.row.id,
        action: auditActionName(x.payload.action),
        before: deviceFacts(x.before),
        after: { ...deviceFacts(x.after), command: commandFacts(inserted[k]!) },
        detail: x.detail,
      })),
    );
    for (const x of planned)
      if (UNLOCK_ACTIONS.includes(x.command.action) && x.row.credit_reference !== null)
        await this.hooks.unlocked?.(tx, actor, x.row.credit_reference, now);
    return outcomes.map((o) => (typeof o === 'string' ? { ok: false, reason: o } : { ok: true, command: toCommand(inserted[o]!) }));
  }

  private clock() {
    const now = this.settings.now();
    return { now, cutoff: offlineCutoff(now, this.settings.offlineAfterHours) };
  }

  /** The device locked for a change: 404 when unknown or deleted. */
  private async lock(devices: DeviceRepository, id: number): Promise<ListedDeviceRow> {
    const row = await devices.lockForAction(id);
    if (!row || row.deleted_at !== null) throw notFound();
    return row;
  }

  /** POST /devices/:id/actions: one action, in one transaction, once per Idempotency-Key. */
  async act(actor: AuditActor, id: number, payload: ActionPayload, idem?: IdempotencyRequest): Promise<Answer<ActionResult>> {
    const answer = await idempotent<Acted>(this.db, idem, 201, (tx) => this.actIn(tx, actor, id, payload), {
      // The offline code is shown once and never stored: a replay derives it again from its nonce.
      toStored: ({ result, nonce }): StoredResult => {
        const { offlineCode, ...rest } = result;
        return offlineCode && nonce !== undefined ? { ...rest, offlineCode: { expiresAt: offlineCode.expiresAt, nonce } } : rest;
      },
      fromStored: async (tx, stored) => {
        const { offlineCode, ...rest } = stored as StoredResult;
        if (!offlineCode || !rest.command) return { result: rest };
        const { secret } = await new DeviceRepository(tx).secretOf(rest.command.deviceId);
        const code = issuedCode(secret, rest.command.action, offlineCode.nonce, new Date(offlineCode.expiresAt));
        return { result: { ...rest, offlineCode: { code, expiresAt: offlineCode.expiresAt } } };
      },
    });
    return { ...answer, body: answer.body.result };
  }

  private async actIn(tx: Queryable, actor: AuditActor, id: number, p: ActionPayload, detail?: string): Promise<Acted> {
    const { now, cutoff } = this.clock();
    const devices = new DeviceRepository(tx);
    const commands = new CommandRepository(tx);
    const row = await this.lock(devices, id);
    const before = toDevice(row, cutoff);
    const refused = refusal({ status: before.status, lockType: before.lockType, pendingAction: row.pending_action }, p.action);
    if (refused) throw new AppError(refused.status, refused.code, refused.reason);

    if (p.action === DEVICE_ACTION.DELETE_DEVICE) {
      const command = await this.deleteIn(tx, actor, before, now);
      return { result: { device: null, command: toCommand(command) } };
    }

    let command: CommandRow;
    let offline: { code: string; expiresAt: string; nonce: number } | undefined;
    if ((OFFLINE_ACTIONS as readonly number[]).includes(p.action)) {
      const { nonce, secret } = await devices.nextOfflineNonce(id, now);
      const expiresAt = offlineExpiry(p.action, now, p.action === DEVICE_ACTION.UNLOCK_OFFLINE_WITH_DATE ? new Date(p.until) : null);
      command = await commands.insertCommand({ ...newCommand(id, p, actor, now), status: 'issued', deliverAfter: now, nonce, expiresAt });
      offline = { code: issuedCode(secret, p.action, nonce, expiresAt), expiresAt: expiresAt.toISOString(), nonce };
    } else {
      command = await commands.insertCommand(newCommand(id, p, actor, now));
      if (STATEFUL_ACTIONS.includes(p.action)) await devices.setPending(id, command.id, p.action, pendingUntil(p), now);
    }
    const after = toDevice((await devices.findRow(id))!, cutoff);
    await record(tx, {
      actor,
      entity: 'device',
      entityId: id,
      action: auditActionName(p.action),
      before: deviceFacts(before),
      after: { ...deviceFacts(after), command: commandFacts(command) },
      detail,
    });
    if (UNLOCK_ACTIONS.includes(p.action) && row.credit_reference !== null) await this.hooks.unlocked?.(tx, actor, row.credit_reference, now);
    const result: ActionResult = { device: after, command: toCommand(command) };
    if (!offline) return { result };
    return { result: { ...result, offlineCode: { code: offline.code, expiresAt: offline.expiresAt } }, nonce: offline.nonce };
  }

  /** Soft delete with its history row (origin DELETE_DEVICE), audited. The rules were checked. */
  private async deleteIn(tx: Queryable, actor: AuditActor, before: Device, now: Date): Promise<CommandRow> {
    await deleteDevices(tx, [before.id], now);
    const command = await new CommandRepository(tx).insertCommand({
      deviceId: before.id,
      action: DEVICE_ACTION.DELETE_DEVICE,
      payload: {},
      origin: ACTION_ORIGIN.DELETE_DEVICE,
      status: 'acknowledged',
      requestedAt: now,
      requestedByAdminId: actor.adminId,
      requestedBy: actor.email,
      deliverAfter: now,
      acknowledgedAt: now,
    });
    await record(tx, {
      actor,
      entity: 'device',
      entityId: before.id,
      action: auditActionName(DEVICE_ACTION.DELETE_DEVICE),
      before: deviceFacts(before),
      after: { id: before.id, imei: before.imei, deletedAt: now.toISOString(), command: commandFacts(command) },
    });
    return command;
  }

  /** DELETE /devices/:id: the DELETE_DEVICE action. */
  async remove(actor: AuditActor, id: number): Promise<void> {
    await this.act(actor, id, { action: DEVICE_ACTION.DELETE_DEVICE });
  }

  /**
   * Cancels a command the device has not received yet (a RELEASE inside its window included): the
   * command is cancelled and the device waits for nothing. `granted` must hold the command's
   * action. A check-in delivering it at the same moment and this cancellation are serialised on
   * the command row: exactly one of them wins.
   */
  cancel(actor: AuditActor, id: number, commandId: number, granted: ReadonlySet<number>): Promise<Command> {
    return transaction(this.db, async (tx) => {
      const { now, cutoff } = this.clock();
      const devices = new DeviceRepository(tx);
      const repo = new CommandRepository(tx);
      const row = await devices.lockForAction(id);
      const command = row ? await repo.findCommand(id, commandId) : undefined;
      if (!row || !command) throw new AppError(404, 'COMMAND_NOT_FOUND', M.actions.commandNotFound);
      if (!granted.has(command.action)) throw new AppError(403, 'ACTION_NOT_GRANTED', M.actions.notGranted(actionLabel(command.action)));
      const cancelled = row.deleted_at === null && isCancellable(command) ? await repo.cancelUndelivered(commandId) : undefined;
      if (!cancelled) throw new AppError(409, 'NOT_CANCELLABLE', M.actions.notCancellable);
      const before = toDevice(row, cutoff);
      if (row.pending_command_id === commandId) await devices.clearPending(id, now);
      const after = toDevice((await devices.findRow(id))!, cutoff);
      await record(tx, {
        actor,
        entity: 'device',
        entityId: id,
        action: command.action === DEVICE_ACTION.RELEASE ? 'cancel_release' : 'cancel_command',
        before: deviceFacts(before),
        after: { ...deviceFacts(after), command: commandFacts(cancelled) },
      });
      return toCommand(cancelled);
    });
  }

  /**
   * Entregar ahora: a RELEASE waiting in its cancel window is made deliverable at once, so the
   * device's next check-in receives it (it can no longer be cancelled once received). Audited;
   * 409 when the device has no scheduled release. The caller checked the RELEASE grant.
   */
  deliverReleaseNow(actor: AuditActor, id: number): Promise<Command> {
    return transaction(this.db, async (tx) => {
      const { now, cutoff } = this.clock();
      const devices = new DeviceRepository(tx);
      const repo = new CommandRepository(tx);
      const row = await this.lock(devices, id);
      const scheduled = row.pending_action === DEVICE_ACTION.RELEASE && row.pending_command_id !== null;
      const previous = scheduled ? await repo.findCommand(id, Number(row.pending_command_id)) : undefined;
      const command = previous ? await repo.deliverNow(previous.id, now) : undefined;
      if (!previous || !command) throw new AppError(409, 'NO_SCHEDULED_RELEASE', M.actions.noScheduledRelease);
      const device = toDevice(row, cutoff);
      await record(tx, {
        actor,
        entity: 'device',
        entityId: id,
        action: 'deliver_release_now',
        before: { ...deviceFacts(device), command: commandFacts(previous) },
        after: { ...deviceFacts(device), command: commandFacts(command) },
      });
      return toCommand(command);
    });
  }

  /**
   * Administrative hold (POST/DELETE /devices/:id/hold): SUSPENDED until resumed; commands keep
   * flowing (reference §4 disables no action for Suspendido). Audited.
   */
  setHold(actor: AuditActor, id: number, on: boolean): Promise<Device> {
    return transaction(this.db, async (tx) => {
      const { now, cutoff } = this.clock();
      const devices = new DeviceRepository(tx);
      const row = await this.lock(devices, id);
      const before = toDevice(row, cutoff);
      const facts = { ...machineFactsOf(row), heldLifecycle: row.held_lifecycle };
      const t = on ? machine.hold(facts) : machine.resume(facts);
      if (!t.ok) throw new AppError(409, on ? 'CANNOT_HOLD' : 'NOT_SUSPENDED', on ? A.holds.cannotHold : A.holds.notHeld);
      await devices.setHold(id, t.facts.lifecycle, t.facts.heldLifecycle, now);
      const after = toDevice((await devices.findRow(id))!, cutoff);
      await record(tx, {
        actor,
        entity: 'device',
        entityId: id,
        action: on ? 'hold' : 'resume',
        before: deviceFacts(before),
        after: deviceFacts(after),
      });
      return after;
    });
  }

  /** GET /devices/:id/history: every command, newest first (deleted devices too). */
  async history(id: number, q: HistoryQuery): Promise<History> {
    const repo = new CommandRepository(this.db);
    if (!(await new DeviceRepository(this.db).deviceExists(id))) throw notFound();
    const [rows, total] = await Promise.all([repo.history(id, { offset: (q.page - 1) * q.perPage, limit: q.perPage }), repo.countHistory(id)]);
    return { data: rows.map((r) => toCommand(r)), total };
  }

  /** GET /devices/:id/enrollments: its enrollments, refused attempts and authorisations, newest first (from the audit log). */
  async enrollments(id: number, q: EnrollmentAttemptsQuery): Promise<EnrollmentAttempts> {
    if (!(await new DeviceRepository(this.db).deviceExists(id))) throw notFound();
    const audit = new AuditRepository(this.db);
    const [rows, total] = await Promise.all([
      audit.deviceEnrollments(id, { offset: (q.page - 1) * q.perPage, limit: q.perPage }),
      audit.countDeviceEnrollments(id),
    ]);
    return { data: rows.map(toEnrollmentAttempt), total };
  }

  /**
   * GET /devices/lock-defaults: the lock type the lock dialog starts on, per device type (the
   * agent setting `default_lock_type`, its group overrides merged over the global value).
   */
  async lockDefaults(): Promise<LockDefaults> {
    const rows = await new AgentSettingsRepository(this.db).allRows();
    return { byType: { 1: lockDefaultsOf(1, rows), 2: lockDefaultsOf(2, rows) } };
  }

  /** POST /devices/bulk-actions/preview: the dry run, set-based (one grouped query). */
  async preview(body: BulkBody): Promise<BulkPreview> {
    const { cutoff } = this.clock();
    const groups = await new DeviceRepository(this.db).selectionGroups(body.selection, cutoff);
    return summarize(groups, body.payload.action);
  }
}

/** An enrollment entry of the audit log as the device detail lists it. */
function toEnrollmentAttempt(r: AuditRow): EnrollmentAttempt {
  const after = (r.after ?? {}) as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  const token = ENROLLMENT_TOKEN_KINDS.find((k) => k === after.token) ?? null;
  return {
    id: r.id,
    at: r.at,
    kind: r.action === 'enroll' ? 'enrolled' : r.action === 'enroll_refused' ? 'refused' : 'authorized',
    code: r.action === 'enroll_refused' ? text(after.code) : null,
    message: r.action === 'enroll_refused' ? r.detail : null,
    token,
    reenrolled: after.reenrolled === true,
    by: r.actorEmail,
    ip: r.ip,
    expiresAt: r.action === 'authorize_reenroll' ? text(after.expiresAt) : null,
  };
}
