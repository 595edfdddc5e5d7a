/**
 * The device side: enrollment, check-ins (with instant delivery through long polls),
 * acknowledgements and rejections, events the agent reports, the settings it applies, and the
 * server's own clock (temporary unlocks that run out). Every change of a device goes through the
 * state machine (shared/deviceStateMachine.ts) inside the transaction that records it, with its
 * audit row; the commands table is the history.
 */
import { randomBytes } from 'node:crypto';
import DataLoader from 'dataloader';
import type {
  AgentCommand,
  AgentEvent,
  AgentSettingsAnswer,
  CheckinBody,
  CheckinResponse,
  CommandOutcome,
  EnrollBody,
  EnrollResponse,
  EventResponse,
  AgentLock,
  EnrollRefusal as EnrollRefusalCode,
} from '../../shared/contracts/agent';
import { CHECKIN_INTERVAL_SECONDS, ENROLL_REFUSALS, enrollRefusalMessage } from '../../shared/contracts/agent';
import { FIELD_LABELS } from '../../shared/constants/fieldLabels';
import { forAgents } from '../../shared/contracts/agentSettings';
import { DEVICE_TYPE, type DeviceTypeCode, type LockType } from '../../shared/constants/domain';
import { effectiveSettings, mergeSettings, type AgentSettings, logoUrl } from '../../shared/agentSettings';
import * as machine from '../../shared/deviceStateMachine';
import { deviceStatus, offlineCutoff } from '../../shared/deviceStatus';
import { AGENT_MESSAGES as A } from '../../shared/areaMessages/agent';
import { INVENTORY_MESSAGES as M } from '../../shared/areaMessages/inventory';
import type { AuditAction } from '../../shared/constants/audit';
import { record, type AuditActor } from '../audit/auditRepository';
import type { Db, Queryable } from '../db/Db';
import { transaction } from '../db/transactionScope';
import { AppError } from '../errors';
import {
  CHECKIN_READ_BATCH,
  CommandRepository,
  CredentialRepository,
  DeviceRepository,
  factsOf,
  OFFLINE_NONCE_WINDOW,
  verifyOfflineCode,
  type CheckinKey,
  type CheckinRow,
  type CommandRow,
  type DeviceRow,
  type InventorySettings,
  type Reported,
} from '../devices';
import { isUniqueViolation } from '../db/pgErrors';
import { AgentSettingsRepository } from '../api/agentSettings/agentSettingsRepository';
import type { AgentMetrics } from './agentMetrics';

import type { CommandWaiters } from './commandWaiters';
import type { PresenceWriter } from './presenceWriter';
import { newDeviceToken, tokenHash } from './agentTokens';
import { publicKeyPoint, SignatureVerifier, type RequestProof } from './requestSignature';

/**
 * A check-in writes the device's last-seen time at most this often when nothing else changed
 * (5 minutes; a quarter of the offline threshold when that is shorter, as in a demo): most
 * check-ins are then a single read.
 */
export const LAST_SEEN_WRITE_SECONDS = 300;
export const lastSeenWriteMs = (offlineAfterHours: number): number => Math.min(LAST_SEEN_WRITE_SECONDS * 1000, (offlineAfterHours * 3600_000) / 4);

/** The repositories the agent side writes through, on one connection or transaction. */
interface AgentRepos {
  devices: DeviceRepository;
  commands: CommandRepository;
  credentials: CredentialRepository;
  settings: AgentSettingsRepository;
}
const reposOf = (q: Queryable): AgentRepos => ({
  devices: new DeviceRepository(q),
  commands: new CommandRepository(q),
  credentials: new CredentialRepository(q),
  settings: new AgentSettingsRepository(q),
});

const unauthorized = () => new AppError(401, 'DEVICE_TOKEN_INVALID', A.auth.invalidToken);

/** What authenticates a request after enrollment: the device token and the request's signature by the agent's key. */
export interface AgentCredentials {
  token: string;
  proof: RequestProof;
}

/** Codes a late report of an offline code may carry (the device's clock may be this far ahead of the server's). */
const REDEMPTION_CLOCK_SKEW_MS = 5 * 60_000;
/** How long after its use an offline code's redemption is still accepted (a device that stayed offline). */
export const REDEMPTION_REPORT_DAYS = 7;

/** What the device must show, from its facts: what a new agent learns at enrollment and every check-in. */
export function lockOf(f: machine.MachineFacts): AgentLock {
  const locked = f.lockState === 'locked';
  const temporary = f.lockState === 'temporary_active';
  return {
    locked,
    lockType: locked || temporary ? f.lockType : null,
    message: locked ? f.lockMessage : null,
    temporaryUntil: temporary && f.temporaryUntil ? iso(f.temporaryUntil) : null,
  };
}

/** Where a request to the agent API came from, for the audit log. */
export interface AgentRequest {
  ip: string | null;
  requestId: string | null;
}

/** The audit actor of the device side: the device itself (no administrator). */
const deviceActor = (imei: string, req: AgentRequest): AuditActor => ({ adminId: null, email: `dispositivo ${imei}`, ...req });
/** The server's own clock (temporary unlocks that run out). */
const SYSTEM_ACTOR: AuditActor = { adminId: null, email: 'sistema', ip: null, requestId: null };

const iso = (d: Date | string): string => new Date(d).toISOString();

const sameFacts = (a: machine.MachineFacts, b: machine.MachineFacts): boolean => JSON.stringify(a) === JSON.stringify(b);

/** What the audit log keeps of a device's facts on the device side. */
const auditFacts = (f: machine.MachineFacts) => ({
  lifecycle: f.lifecycle,
  lockState: f.lockState,
  lockType: f.lockType,
  temporaryUntil: f.temporaryUntil?.toISOString() ?? null,
  pendingCommandId: f.pendingCommandId,
  failureReason: f.failureReason,
  heldLifecycle: f.heldLifecycle,
});

type EnrollOutcome = { ok: true; answer: EnrollResponse } | { ok: false; error: AppError };
/** The refusals the enrollment decides (IMEI_TAKEN comes from the database). */
type EnrollRefusal = Exclude<EnrollRefusalCode, 'IMEI_TAKEN'>;

export class AgentService {
  /**
   * The check-in's read, batched: the check-ins whose requests arrived in one turn of the event
   * loop are read in one statement (each with its own instant), so that under load a check-in
   * costs a share of a statement's round trip rather than one of its own. Nothing is cached.
   */
  private readonly checkins: DataLoader<CheckinKey, CheckinRow | undefined>;
  private readonly signatures = new SignatureVerifier();
  /** The repositories on the pool (reads and single statements outside a transaction). */
  private readonly repos: AgentRepos;

  constructor(
    private readonly db: Db,
    private readonly settings: InventorySettings,
    private readonly waiters: CommandWaiters,
    private readonly metrics: AgentMetrics,
    private readonly presence: PresenceWriter,
  ) {
    this.repos = reposOf(db);
    this.checkins = new DataLoader((keys) => new DeviceRepository(this.db).checkinByTokens(keys), {
      cache: false,
      maxBatchSize: CHECKIN_READ_BATCH,
      // After the I/O callbacks of this turn (every request that arrived with this one), not after
      // this request's own promise jobs only (DataLoader's default).
      batchScheduleFn: (read) => setImmediate(read),
    });
  }

  /** The server's clock (the signatures' timestamps are checked against it). */
  now(): Date {
    return this.settings.now();
  }

  /** The request was signed by the key the device enrolled with (401 otherwise). */
  private prove(publicKey: Uint8Array | null, proof: RequestProof): void {
    if (!publicKey) throw new AppError(401, 'AGENT_KEY_MISSING', A.auth.noKey);
    if (!this.signatures.verify(publicKey, proof)) throw new AppError(401, 'AGENT_SIGNATURE_INVALID', A.auth.signatureInvalid);
  }

  private cutoff(now: Date): Date {
    return offlineCutoff(now, this.settings.offlineAfterHours);
  }

  private statusOf(row: Pick<DeviceRow, 'last_seen_at'>, f: machine.MachineFacts, now: Date, seen = row.last_seen_at): number {
    return deviceStatus({ ...f, lastSeenAt: seen }, this.cutoff(now));
  }

  private async settingsFor(db: Queryable, deviceType: number, groupId: number | null): Promise<{ settings: AgentSettings; version: number }> {
    const rows = await new AgentSettingsRepository(db).settingsRows(deviceType, groupId);
    return { settings: effectiveSettings(deviceType as DeviceTypeCode, rows.global, rows.group), version: rows.version };
  }

  // Enrollment --------------------------------------------------------------------------

  /**
   * POST /agent/v1/enroll. A device that awaits enrollment (registered, or refused before it
   * completed) enrolls with its group's token, the no-group token or, where the settings allow,
   * none; any other device only with a token an administrator issued for that one device
   * (Autorizar reenrolamiento). Every refusal carries a stable code (ENROLL_REFUSALS); for a known
   * IMEI it is recorded on the device (audit log, the detail's enrollment attempts), and it marks
   * Fallido only a device awaiting enrollment. Every enrollment issues a new device token bound
   * to the agent's public key and a new offline secret: the previous token and the codes derived
   * from the previous secret stop working. Lock, pending commands and settings are the server's
   * and survive it.
   */
  async enroll(body: EnrollBody, req: AgentRequest): Promise<EnrollResponse> {
    const publicKey = await publicKeyPoint(body.publicKey);
    if (!publicKey) throw new AppError(400, 'VALIDATION', A.field.publicKey(FIELD_LABELS.agent.publicKey), 'publicKey');
    const outcome = await transaction(this.db, (tx) => this.enrollIn(tx, body, publicKey, req)).catch((err: unknown) => {
      // The same unregistered device enrolling twice at once: the second finds the IMEI taken.
      if (isUniqueViolation(err)) throw new AppError(409, 'IMEI_TAKEN', M.devices.imeiTaken(body.imei), 'imei');
      throw err;
    });
    if (!outcome.ok) throw outcome.error;
    return outcome.answer;
  }

  private async enrollIn(tx: Queryable, body: EnrollBody, publicKey: Buffer, req: AgentRequest): Promise<EnrollOutcome> {
    const now = this.settings.now();
    const repo = reposOf(tx);
    const token = body.enrollmentToken ? await repo.credentials.lockEnrollmentToken(tokenHash(body.enrollmentToken)) : undefined;
    let device = await repo.devices.lockDeviceByImei(body.imei);
    const attempt = {
      enrollmentTokenId: token?.id ?? null,
      token: !body.enrollmentToken
        ? 'none'
        : !token
          ? 'unknown'
          : token.device_id !== null
            ? 'device'
            : token.group_id !== null
              ? 'group'
              : 'no_group',
      deviceType: body.deviceType,
      agentVersion: body.agentVersion,
    };

    /** A refusal; on a known device, recorded (and Fallido for a broken restriction while it awaits enrollment). */
    const refused = async (code: EnrollRefusal, restriction = false): Promise<EnrollOutcome> => {
      const message = enrollRefusalMessage(code);
      if (device) {
        const before = factsOf(device);
        const failed = restriction ? machine.enrollmentRefused(before, message) : undefined;
        if (failed?.ok) await repo.devices.write(device.id, failed.facts, now);
        await record(tx, {
          actor: deviceActor(body.imei, req),
          entity: 'device',
          entityId: device.id,
          action: 'enroll_refused',
          before: auditFacts(before),
          after: { ...auditFacts(failed?.ok ? failed.facts : before), code, ...attempt },
          outcome: 'failure',
          detail: message,
        });
      }
      return { ok: false, error: new AppError(ENROLL_REFUSALS[code], code, message) };
    };

    if (body.enrollmentToken) {
      if (!token) return refused('ENROLLMENT_TOKEN_INVALID');
      if (token.used_at !== null) return refused('ENROLLMENT_TOKEN_USED');
      if (token.revoked_at !== null) return refused('ENROLLMENT_TOKEN_REVOKED');
      if (new Date(token.expires_at) <= now) return refused('ENROLLMENT_TOKEN_EXPIRED');
    }
    if (device?.lifecycle === 'released') return refused('DEVICE_RELEASED');
    const groupId = token?.group_id ?? device?.group_id ?? null;
    const { settings } = await this.settingsFor(tx, device?.device_type ?? body.deviceType, groupId);
    if (!token && settings.require_QR_validation) return refused('ENROLLMENT_TOKEN_REQUIRED');
    if (token?.device_id != null && token.device_id !== device?.id) return refused('ENROLLMENT_OTHER_DEVICE');
    // A token issued for this one device is the portal's authorisation; nothing else re-enrolls an enrolled device.
    const authorised = token?.device_id != null;
    if (device && !authorised && !machine.awaitsEnrollment(factsOf(device))) return refused('ALREADY_ENROLLED');

    if (!device) {
      if (!token || token.group_id === null || !settings.allow_unregistered_enrollment) return refused('NOT_REGISTERED');
      device = await repo.devices.insertEnrolled({ ...body, groupId: token.group_id, secret: randomBytes(32), now });
      await record(tx, {
        actor: deviceActor(body.imei, req),
        entity: 'device',
        entityId: device.id,
        action: 'create',
        after: { imei: body.imei, groupId: token.group_id },
      });
    }
    const before = factsOf(device);
    const actor = deviceActor(device.imei, req);

    // Valid credentials from here on: a broken restriction is recorded on the device.
    // A group's token enrolls that group's devices (and those with no group, which join it); the
    // no-group token only devices with no group; a device's token only that device (checked above).
    const otherGroup = token
      ? token.group_id !== null
        ? device.group_id !== null && device.group_id !== token.group_id
        : token.device_id === null && device.group_id !== null
      : false;
    const restriction: EnrollRefusal | null = otherGroup
      ? 'ENROLLMENT_OTHER_GROUP'
      : device.device_type !== body.deviceType
        ? 'ENROLLMENT_TYPE_MISMATCH'
        : settings.require_sim_for_enroll && !body.sim
          ? 'ENROLLMENT_SIM_REQUIRED'
          : null;
    if (restriction) return refused(restriction, true);

    const t = machine.enroll(before, { authorised });
    if (!t.ok) return refused(t.code === 'RELEASED' ? 'DEVICE_RELEASED' : 'ALREADY_ENROLLED');
    const reported: Reported = { lastSeenAt: now, osVersion: body.osVersion, agentVersion: body.agentVersion, sim: body.sim };
    await repo.devices.write(device.id, t.facts, now, reported);
    await repo.devices.writeEnrollment(device.id, {
      imei2: body.imei2,
      serial: body.serial,
      brand: body.brand,
      model: body.model,
      groupId: token?.group_id ?? null,
      now,
    });
    // New credentials, each handed out in this answer only.
    const secret = randomBytes(32);
    await repo.commands.cancelIssuedCodes(device.id, A.enroll.codesVoided, now);
    const offlineNonce = await repo.devices.replaceSecret(device.id, secret);
    const credential = newDeviceToken();
    await repo.credentials.replaceAgentToken(device.id, credential.hash, publicKey, now);
    if (token) await repo.credentials.countEnrollmentUse(token.id, now);
    await repo.credentials.spendDeviceTokens(device.id, authorised ? token!.id : null, now);
    await record(tx, {
      actor,
      entity: 'device',
      entityId: device.id,
      action: 'enroll',
      before: auditFacts(before),
      after: {
        ...auditFacts(t.facts),
        ...attempt,
        reenrolled: !machine.awaitsEnrollment(before),
        osVersion: body.osVersion,
        sim: body.sim,
      },
    });
    return {
      ok: true,
      answer: {
        deviceId: device.id,
        deviceToken: credential.token,
        offlineSecret: secret.toString('base64url'),
        offlineNonce,
        status: this.statusOf(device, t.facts, now, now),
        lock: lockOf(t.facts),
        serverTime: now.toISOString(),
      },
    };
  }

  // Check-in ----------------------------------------------------------------------------

  /**
   * POST /agent/v1/checkin: records what the device reports (last seen, versions, SIM, battery,
   * what it shows), applies what a check-in moves (enrolado, activo after desbloqueado, a
   * temporary unlock past its date, a SIM change lock), and answers the commands it may receive
   * now, oldest first. With `wait`, an answer without commands is held until one is created (on
   * any replica) or the wait ends.
   */
  async checkin(
    { token, proof }: AgentCredentials,
    body: CheckinBody,
    req: AgentRequest,
    signal?: AbortSignal,
  ): Promise<{ deviceId: number; answer: CheckinResponse }> {
    if (body.wait > 0) await this.waiters.ready();
    const hash = tokenHash(token);
    let now = this.settings.now();
    const repo = this.repos;
    const row = await this.checkins.load({ hash, now });
    if (!row) throw unauthorized();
    this.prove(row.public_key, proof);
    let facts = factsOf(row);
    let seen = row.last_seen_at;
    const writes = this.checkinWrites(row, body, now);
    if (writes === 'facts') {
      const written = await transaction(this.db, (tx) => this.checkinIn(tx, row.id, body, now, req));
      if (!written) throw unauthorized();
      facts = written;
      seen = now;
    } else if (writes === 'reported') {
      // Nothing the state machine looks at changed: written with other devices' reports, within a
      // second, without holding the answer (presenceWriter.ts says why that is safe). A device the
      // portal shows Sin conexión is written now, waiting for its row if a bulk action holds it:
      // its status there changes with this check-in.
      const reported = this.reportedOf(body, now);
      if (!row.last_seen_at || new Date(row.last_seen_at) < this.cutoff(now)) await repo.devices.refreshMany([[row.id, reported]], { wait: true });
      else this.presence.add(row.id, reported);
      seen = now;
    }
    let commands = row.has_commands ? await this.deliver(row.id, now) : [];
    const deadline = Date.now() + body.wait * 1000;
    while (commands.length === 0 && body.wait > 0 && !signal?.aborted && !this.waiters.isStopped && Date.now() < deadline) {
      // Armed before looking: a command created between the look and the wait still wakes it.
      const waiting = this.waiters.arm(row.id, deadline - Date.now(), signal);
      now = this.settings.now();
      commands = await this.deliver(row.id, now);
      if (commands.length > 0) {
        waiting.cancel();
        break;
      }
      await waiting.done;
      if (signal?.aborted) break;
      now = this.settings.now();
      commands = await this.deliver(row.id, now);
    }
    if (commands.length > 0) {
      // The commands may have moved the device's facts (bloqueando…): answer its status now.
      const current = await this.checkins.load({ hash, now });
      if (current) facts = factsOf(current);
    }
    this.metrics.checkin(commands.length > 0 ? 'commands' : 'empty');
    return {
      deviceId: row.id,
      answer: {
        commands,
        settingsVersion: row.settings_version,
        status: this.statusOf(row, facts, now, seen),
        lock: lockOf(facts),
        nextCheckinSeconds: CHECKIN_INTERVAL_SECONDS,
        serverTime: now.toISOString(),
      },
    };
  }

  /**
   * What this check-in writes: nothing (most: the read alone answers them), what the agent
   * reported (last seen, versions, carrier, what it shows), or facts the state machine moves
   * (the first check-in, Desbloqueado → Activo, a temporary unlock past its date, a new SIM).
   */
  private checkinWrites(row: DeviceRow, b: CheckinBody, now: Date): 'none' | 'reported' | 'facts' {
    if (
      row.lifecycle === 'enrolling' ||
      row.lock_state === 'unlocked' ||
      (row.lock_state === 'temporary_active' && row.temporary_until !== null && new Date(row.temporary_until) <= now) ||
      (b.sim !== undefined && (b.sim?.iccid ?? null) !== row.sim_iccid)
    ) {
      return 'facts';
    }
    const stale = !row.last_seen_at || now.getTime() - new Date(row.last_seen_at).getTime() >= lastSeenWriteMs(this.settings.offlineAfterHours);
    const changed = (reported: string | null | undefined, stored: string | null) => reported !== undefined && reported !== stored;
    return stale ||
      changed(b.osVersion, row.os_version) ||
      changed(b.agentVersion, row.agent_version) ||
      (b.sim != null && b.sim.carrier !== row.sim_carrier) ||
      (b.lockState !== undefined && b.lockState !== row.agent_lock_state)
      ? 'reported'
      : 'none';
  }

  private reportedOf(b: CheckinBody, now: Date): Reported {
    return {
      lastSeenAt: now,
      osVersion: b.osVersion,
      agentVersion: b.agentVersion,
      sim: b.sim,
      batteryLevel: b.batteryLevel,
      agentLockState: b.lockState,
    };
  }

  private async checkinIn(tx: Queryable, deviceId: number, b: CheckinBody, now: Date, req: AgentRequest): Promise<machine.MachineFacts | undefined> {
    const repo = reposOf(tx);
    const row = await repo.devices.lockLive(deviceId);
    if (!row) return undefined;
    const before = factsOf(row);
    const simChanged = b.sim !== undefined && row.sim_iccid !== null && (b.sim?.iccid ?? null) !== row.sim_iccid;
    const { settings } = simChanged ? await this.settingsFor(tx, row.device_type, row.group_id) : { settings: undefined };
    const t = machine.checkin(before, { now, simChanged, lockOnSimChange: settings?.lock_sim_change ?? false });
    if (!t.ok) return undefined;
    await repo.devices.write(deviceId, t.facts, now, this.reportedOf(b, now));
    const actor = deviceActor(row.imei, req);
    const audit = (action: AuditAction, detail?: string) =>
      record(tx, {
        actor,
        entity: 'device',
        entityId: deviceId,
        action,
        before: auditFacts(before),
        after: auditFacts(t.facts),
        detail: detail ?? null,
      });
    if (t.facts.lockType === 'PorCambioSIM' && before.lockState !== 'locked' && t.facts.lockState === 'locked' && simChanged) {
      await audit('sim_change_lock', `${row.sim_iccid} → ${b.sim?.iccid ?? '-'}`);
    } else if (before.lockState === 'temporary_active' && t.facts.lockState === 'locked') {
      await audit('temporary_expired');
    }
    return t.facts;
  }

  /** The commands the device may receive now; first deliveries are stamped (and measured). */
  private async deliver(deviceId: number, now: Date): Promise<AgentCommand[]> {
    const repo = this.repos;
    const rows = await repo.commands.deliverable(deviceId, now);
    if (rows.length === 0) return [];
    const first = rows.filter((r) => r.delivered_at === null).map((r) => r.id);
    const marked = first.length > 0 ? await repo.commands.markDelivered(first, now) : new Set<number>();
    const sent = rows.filter((r) => r.delivered_at !== null || marked.has(r.id));
    for (const r of sent) {
      if (marked.has(r.id)) this.metrics.latency('delivered', r.action, (now.getTime() - new Date(r.requested_at).getTime()) / 1000);
    }
    return sent.map((r) => ({ id: r.id, action: r.action, payload: r.payload ?? {}, requestedAt: iso(r.requested_at) }));
  }

  /** One transaction on the device behind a live token, its row locked (401 for an unknown or revoked token). */
  private async inDevice<T>(
    { token, proof }: AgentCredentials,
    fn: (d: { tx: Queryable; repo: AgentRepos; row: DeviceRow; now: Date }) => Promise<T>,
  ): Promise<T> {
    const owner = await new CredentialRepository(this.db).tokenOwner(tokenHash(token));
    if (!owner) throw unauthorized();
    this.prove(owner.publicKey, proof);
    return transaction(this.db, async (tx) => {
      const repo = reposOf(tx);
      const row = await repo.devices.lockLive(owner.deviceId);
      if (!row) throw unauthorized();
      return fn({ tx, repo, row, now: this.settings.now() });
    });
  }

  // Acknowledgements --------------------------------------------------------------------

  /**
   * POST /agent/v1/commands/:id/ack and /reject: completes the device's own command and moves its
   * facts (state machine), history and audit in one transaction. A repeated answer returns the
   * first result, whatever it was; another device's command is a 403.
   */
  async complete(
    credentials: AgentCredentials,
    commandId: number,
    outcome: { rejected: false } | { rejected: true; reason: string },
    req: AgentRequest,
  ): Promise<CommandOutcome> {
    return this.inDevice(credentials, async ({ tx, repo, row, now }) => {
      const deviceId = row.id;
      const command = await repo.commands.lockCommand(commandId);
      if (!command || command.status === 'issued' || command.status === 'redeemed') throw new AppError(404, 'COMMAND_NOT_FOUND', A.commands.notFound);
      if (command.device_id !== deviceId) throw new AppError(403, 'OTHER_DEVICE', A.auth.otherDevice);
      if (command.status !== 'pending') return this.outcomeOf(command, row, factsOf(row), now);
      if (new Date(command.deliver_after) > now) throw new AppError(409, 'COMMAND_NOT_DELIVERABLE', A.commands.notPending);

      const before = factsOf(row);
      const mc = { id: command.id, action: command.action, payload: command.payload ?? {} };
      const t = outcome.rejected ? machine.rejected(before, mc, outcome.reason) : machine.acknowledged(before, mc);
      if (!t.ok) throw new AppError(409, 'COMMAND_NOT_APPLICABLE', A.commands.notPending);
      const done = await repo.commands.completeCommand(
        command.id,
        outcome.rejected ? 'rejected' : 'acknowledged',
        outcome.rejected ? outcome.reason : null,
        now,
      );
      await repo.devices.write(deviceId, t.facts, now, { lastSeenAt: now });
      if (t.revokeToken) await repo.credentials.revokeAgentTokens([deviceId], now);
      await record(tx, {
        actor: deviceActor(row.imei, req),
        entity: 'device',
        entityId: deviceId,
        action: outcome.rejected ? 'reject' : 'acknowledge',
        before: auditFacts(before),
        after: { ...auditFacts(t.facts), command: { id: command.id, action: command.action, status: done.status, result: done.result } },
        outcome: outcome.rejected ? 'failure' : 'success',
        detail: outcome.rejected ? outcome.reason : null,
      });
      this.metrics.latency(
        outcome.rejected ? 'rejected' : 'acknowledged',
        command.action,
        (now.getTime() - new Date(command.requested_at).getTime()) / 1000,
      );
      return this.outcomeOf(done, row, t.facts, now, now);
    });
  }

  private outcomeOf(c: CommandRow, row: DeviceRow, f: machine.MachineFacts, now: Date, seen = row.last_seen_at): CommandOutcome {
    return {
      id: c.id,
      action: c.action,
      status: c.status as CommandOutcome['status'],
      acknowledgedAt: c.acknowledged_at === null ? null : iso(c.acknowledged_at),
      result: c.result,
      deviceStatus: this.statusOf(row, f, now, seen),
    };
  }

  // Events ------------------------------------------------------------------------------

  /**
   * POST /agent/v1/events. An offline code is checked again here (verifyOfflineCode with the
   * device's secret) and redeemed once: the same report again answers `applied: false`; a code
   * that was never issued, expired, or is another device's is refused (409).
   */
  async event(credentials: AgentCredentials, e: AgentEvent, req: AgentRequest): Promise<EventResponse> {
    return this.inDevice(credentials, async ({ tx, repo, row, now }) => {
      const deviceId = row.id;
      const before = factsOf(row);
      const actor = deviceActor(row.imei, req);
      const answer = (applied: boolean, f: machine.MachineFacts, extra: Partial<EventResponse> = {}): EventResponse => ({
        applied,
        status: this.statusOf(row, f, now, now),
        ...extra,
      });
      const apply = async (t: machine.Transition, action: AuditAction, detail: string | null, extra: Record<string, unknown> = {}) => {
        // An event that changes nothing (the same report again, a replayed request) is answered, not applied.
        if (!t.ok || (sameFacts(before, t.facts) && !t.revokeToken)) return answer(false, before);
        await repo.devices.write(deviceId, t.facts, now, { lastSeenAt: now });
        if (t.revokeToken) await repo.credentials.revokeAgentTokens([deviceId], now);
        await record(tx, {
          actor,
          entity: 'device',
          entityId: deviceId,
          action,
          before: auditFacts(before),
          after: { ...auditFacts(t.facts), ...extra },
          detail,
        });
        return answer(true, t.facts);
      };

      switch (e.type) {
        case 'offline_code': {
          // Judged at the instant it was typed on the device: a device that was offline reports
          // it later, within REDEMPTION_REPORT_DAYS.
          const redeemedAt = e.redeemedAt;
          if (redeemedAt.getTime() > now.getTime() + REDEMPTION_CLOCK_SKEW_MS) {
            throw new AppError(400, 'VALIDATION', A.events.redeemedInFuture, 'redeemedAt');
          }
          if (now.getTime() - redeemedAt.getTime() > REDEMPTION_REPORT_DAYS * 86_400_000) {
            throw new AppError(409, 'OFFLINE_CODE_REPORT_TOO_LATE', A.events.reportTooLate(REDEMPTION_REPORT_DAYS));
          }
          const { secret, offlineCounter } = await repo.devices.secretOf(deviceId);
          const lastNonce = Math.max(0, offlineCounter - OFFLINE_NONCE_WINDOW);
          const verified = verifyOfflineCode(secret, e.code, { lastNonce, now: redeemedAt });
          const issued = verified ? await repo.commands.lockOfflineCode(deviceId, verified.nonce) : undefined;
          if (!verified || !issued || issued.action !== verified.action) {
            throw new AppError(409, 'OFFLINE_CODE_REJECTED', A.events.codeRejected);
          }
          if (issued.status === 'redeemed') return answer(false, before, { action: issued.action });
          if (issued.expires_at !== null && redeemedAt > new Date(issued.expires_at)) {
            throw new AppError(409, 'OFFLINE_CODE_EXPIRED', A.events.codeExpired);
          }
          if (redeemedAt.getTime() < new Date(issued.requested_at).getTime() - REDEMPTION_CLOCK_SKEW_MS) {
            throw new AppError(409, 'OFFLINE_CODE_REJECTED', A.events.codeRejected);
          }
          const until = issued.expires_at === null ? null : new Date(issued.expires_at);
          const t = machine.offlineRedeemed(before, issued.action, until);
          if (!t.ok) return answer(false, before, { action: issued.action });
          await repo.commands.redeemOfflineCode(issued.id, redeemedAt);
          const applied = await apply(t, 'redeem_offline_code', null, {
            command: { id: issued.id, action: issued.action, nonce: issued.nonce, redeemedAt: redeemedAt.toISOString() },
          });
          return { ...applied, action: issued.action };
        }
        case 'offline_lock':
          return apply(machine.agentLocked(before, 'PorNoConexion'), 'agent_lock', 'offline_lock');
        case 'tamper_lock':
          return apply(machine.agentLocked(before, e.lockType as LockType), 'agent_lock', e.detail ?? 'tamper_lock');
        case 'sim_removed': {
          const { settings } = await this.settingsFor(tx, row.device_type, row.group_id);
          if (!settings.enabled_lock_for_remove_sim) return answer(false, before);
          return apply(machine.agentLocked(before, 'PorCambioSIM'), 'agent_lock', 'sim_removed');
        }
        case 'temporary_expired':
          return apply(machine.temporaryExpired(before), 'temporary_expired', null);
      }
    });
  }

  // Settings ----------------------------------------------------------------------------

  /** GET /agent/v1/settings: the defaults of the device's type, its global row, its group's row. */
  async agentSettings({ token, proof }: AgentCredentials): Promise<AgentSettingsAnswer> {
    const repo = this.repos;
    const row = await repo.devices.checkinByToken(tokenHash(token), this.settings.now());
    if (!row) throw unauthorized();
    this.prove(row.public_key, proof);
    const { settings: effective, version } = await this.settingsFor(this.db, row.device_type, row.group_id);
    const settings = mergeSettings(row.device_type as DeviceTypeCode, effective);
    const apps = new AgentSettingsRepository(this.db);
    const [businessApps, lockApps] = await Promise.all([
      row.device_type === DEVICE_TYPE.SMARTPHONE ? apps.businessAppsFor(row.group_id) : [],
      apps.currentLockApp(row.device_type as DeviceTypeCode),
    ]);
    return {
      version,
      settings,
      logoUrl: typeof settings.logo === 'string' ? logoUrl(settings.logo) : null,
      businessApps: businessApps.map(forAgents),
      lockApp: lockApps
        ? {
            versionName: lockApps.versionName,
            versionApp: lockApps.versionApp,
            appType: lockApps.appType,
            packageName: lockApps.packageName,
            downloadUrl: lockApps.downloadUrl,
            sha256: lockApps.sha256,
          }
        : null,
    };
  }

  /** An uploaded lock-screen logo (public: addressed by the SHA-256 of its bytes). */
  logo(sha256: string): Promise<{ contentType: string; bytes: Buffer } | undefined> {
    return new AgentSettingsRepository(this.db).logo(sha256);
  }

  // The server's clock ------------------------------------------------------------------

  /** Temporary unlocks whose date has passed are locked again (up to `limit` devices per call). */
  async expireTemporaryUnlocks(limit = 500): Promise<number> {
    return transaction(this.db, async (tx) => {
      const now = this.settings.now();
      const repo = reposOf(tx);
      const rows = await repo.devices.lockExpiredTemporary(now, limit);
      for (const row of rows) {
        const before = factsOf(row);
        const t = machine.temporaryExpired(before);
        if (!t.ok) continue;
        await repo.devices.write(row.id, t.facts, now);
        await record(tx, {
          actor: SYSTEM_ACTOR,
          entity: 'device',
          entityId: row.id,
          action: 'temporary_expired',
          before: auditFacts(before),
          after: auditFacts(t.facts),
        });
      }
      return rows.length;
    });
  }
}
