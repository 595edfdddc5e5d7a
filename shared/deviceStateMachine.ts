/**
 * The device state machine: how a device's stored facts change when something happens to it
 * (a command is requested, delivered and acknowledged or rejected; the agent enrolls, checks in,
 * redeems an offline code or locks the device itself; an administrator holds or resumes it).
 * Pure functions of the facts: the server applies them inside the transaction that records the
 * event, the tests walk every transition and every refusal. The status code (reference §4) is
 * never set here; it stays derived from the facts (shared/deviceStatus.ts). docs/device-states.md
 * draws the table.
 */
import { DEVICE_ACTION } from './constants/deviceActions';
import type { LockType } from './constants/domain';
import { CONFIGURING_ACTIONS, STATEFUL_ACTIONS, type Lifecycle, type LockState } from './deviceStatus';

/** Every fact a transition reads or writes (the columns of `devices` of the same names). */
export interface MachineFacts {
  lifecycle: Lifecycle;
  lockState: LockState;
  lockType: LockType | null;
  lockMessage: string | null;
  /** TEMPORARY_ACTIVE: until when the device stays unlocked. */
  temporaryUntil: Date | null;
  pendingCommandId: number | null;
  pendingAction: number | null;
  pendingUntil: Date | null;
  failureReason: string | null;
  /** SUSPENDED: the lifecycle the device returns to when the hold ends. */
  heldLifecycle: Lifecycle | null;
}

/** A command as the machine sees it. */
export interface MachineCommand {
  id: number;
  action: number;
  payload: Record<string, unknown>;
}

export type RefusalCode =
  'RELEASED' | 'NOT_ENROLLED' | 'ALREADY_ENROLLED' | 'NOT_TEMPORARY' | 'ALREADY_SUSPENDED' | 'NOT_SUSPENDED' | 'NOT_AN_OFFLINE_CODE';

export type Transition = { ok: true; facts: MachineFacts; revokeToken: boolean } | { ok: false; code: RefusalCode };

const ok = (facts: MachineFacts, revokeToken = false): Transition => ({ ok: true, facts, revokeToken });
const refuse = (code: RefusalCode): Transition => ({ ok: false, code });

/** Lifecycles of a device that has an agent in contact with the server. */
const SETTLED: readonly Lifecycle[] = ['enrolled', 'configured', 'operating', 'reconfigured'];
/** Lifecycles before the agent's first successful check-in. */
const NOT_YET: readonly Lifecycle[] = ['pre_enrolled', 'enrolling'];

/** The lifecycle a change applies to: a suspended device keeps its hold and changes the one it returns to. */
function setLifecycle(f: MachineFacts, next: Lifecycle): MachineFacts {
  return f.lifecycle === 'suspended' ? { ...f, heldLifecycle: next } : { ...f, lifecycle: next };
}
/** The lifecycle the device has underneath a hold. */
const effectiveLifecycle = (f: MachineFacts): Lifecycle => (f.lifecycle === 'suspended' ? (f.heldLifecycle ?? 'operating') : f.lifecycle);

/** A lock or unlock puts a device that was enrolled or configured into normal operation. */
const operating = (f: MachineFacts): MachineFacts => setLifecycle(f, 'operating');

const locked = (f: MachineFacts, lockType: LockType, message: string | null = f.lockMessage): MachineFacts =>
  operating({ ...f, lockState: 'locked', lockType, lockMessage: message, temporaryUntil: null });

const clearPending = (f: MachineFacts, commandId: number): MachineFacts =>
  f.pendingCommandId === commandId ? { ...f, pendingCommandId: null, pendingAction: null, pendingUntil: null } : f;

const asDate = (v: unknown): Date | null => (typeof v === 'string' || v instanceof Date ? new Date(v) : null);
const asLockType = (v: unknown): LockType => (v === 'PorNoConexion' || v === 'PorCambioSIM' || v === 'SinKiosko' ? v : 'PorCredito');

// Enrollment ----------------------------------------------------------------------------

/**
 * Whether a device may be enrolled by a group's (or the no-group) token: it was registered and
 * never enrolled, or its enrollment was refused before it completed (Fallido while enrolling).
 * Any other device re-enrolls only with a token an administrator issued for it.
 */
export const awaitsEnrollment = (f: Pick<MachineFacts, 'lifecycle' | 'failureReason'>): boolean =>
  f.lifecycle === 'pre_enrolled' || (f.lifecycle === 'enrolling' && f.failureReason !== null);

/**
 * The agent enrolled with valid credentials. A device awaiting enrollment starts enrolling
 * (enrolado at its first check-in). Any other device re-enrolls only when `authorised` (a token
 * issued for that one device): it keeps its facts, lock and pending command included, and gets
 * new credentials; without it the enrollment is refused. A released device never enrolls again.
 */
export function enroll(f: MachineFacts, { authorised }: { authorised: boolean }): Transition {
  if (f.lifecycle === 'released') return refuse('RELEASED');
  if (awaitsEnrollment(f)) return ok({ ...f, lifecycle: 'enrolling', failureReason: null });
  if (!authorised) return refuse('ALREADY_ENROLLED');
  return ok({ ...f, failureReason: null });
}

/**
 * Valid credentials, but an enrollment restriction was broken: a device awaiting enrollment
 * becomes fallido with the reason; any other device is left as it is (a refused attempt never
 * changes an enrolled device).
 */
export function enrollmentRefused(f: MachineFacts, reason: string): Transition {
  if (f.lifecycle === 'released') return refuse('RELEASED');
  if (!awaitsEnrollment(f)) return refuse('ALREADY_ENROLLED');
  return ok({ ...f, lifecycle: 'enrolling', failureReason: reason });
}

// Check-in ------------------------------------------------------------------------------

export interface CheckinReport {
  now: Date;
  /** The device reports a SIM other than the one last seen. */
  simChanged: boolean;
  /** lock_sim_change applies to the device (its settings). */
  lockOnSimChange: boolean;
}

/**
 * A check-in: the first one completes the enrollment (enrolado); a device shown 'Desbloqueado'
 * becomes 'Activo'; a temporary unlock past its date locks again; a changed SIM locks the device
 * ('Por Cambio SIM') when lock_sim_change applies. Nothing else changes.
 */
export function checkin(f: MachineFacts, r: CheckinReport): Transition {
  if (f.lifecycle === 'pre_enrolled' || f.lifecycle === 'released') return refuse(f.lifecycle === 'released' ? 'RELEASED' : 'NOT_ENROLLED');
  let next = f;
  if (next.lifecycle === 'enrolling' && next.failureReason === null) next = { ...next, lifecycle: 'enrolled' };
  if (next.lockState === 'unlocked') next = { ...next, lockState: 'active' };
  if (next.lockState === 'temporary_active' && next.temporaryUntil !== null && next.temporaryUntil <= r.now) {
    next = locked(next, next.lockType ?? 'PorCredito');
  }
  if (r.simChanged && r.lockOnSimChange && next.lockState !== 'locked' && SETTLED.includes(effectiveLifecycle(next))) {
    next = locked(next, 'PorCambioSIM', null);
  }
  return ok(next);
}

// Commands ------------------------------------------------------------------------------

/** A stateful command was requested: the device waits for it (bloqueando, desbloqueando, liberando, configurando). */
export function requested(f: MachineFacts, command: MachineCommand): Transition {
  if (!STATEFUL_ACTIONS.includes(command.action)) return ok(f);
  const until = command.action === DEVICE_ACTION.UNLOCK ? asDate(command.payload.until) : null;
  return ok({ ...f, pendingCommandId: command.id, pendingAction: command.action, pendingUntil: until });
}

/** A command that was waiting is cancelled before delivery: the device waits for nothing. */
export function cancelled(f: MachineFacts, command: MachineCommand): Transition {
  return ok(clearPending(f, command.id));
}

/**
 * The agent acknowledged a command: LOCK → bloqueado (lock type and message kept); UNLOCK →
 * desbloqueado (activo at the next check-in), or TEMPORARY_ACTIVE until its date; RELEASE →
 * liberado (terminal; the device token is revoked); RESTRICTIONS, UPDATE_APP_* and
 * SIM_CARD_SETTING → configurado after enrollment, configurado_activo / configurado_bloqueado in
 * operation; notifications and payment references change nothing. Any acknowledgement clears the
 * previous rejection.
 */
export function acknowledged(f: MachineFacts, c: MachineCommand): Transition {
  if (f.lifecycle === 'released') return refuse('RELEASED');
  if (f.lifecycle === 'pre_enrolled') return refuse('NOT_ENROLLED');
  let next: MachineFacts = { ...clearPending(f, c.id), failureReason: null };
  switch (c.action) {
    case DEVICE_ACTION.LOCK:
      next = locked(next, asLockType(c.payload.lockType), typeof c.payload.message === 'string' ? c.payload.message : null);
      break;
    case DEVICE_ACTION.UNLOCK: {
      const until = asDate(c.payload.until);
      next = until
        ? operating({ ...next, lockState: 'temporary_active', temporaryUntil: until })
        : operating({ ...next, lockState: 'unlocked', lockType: null, lockMessage: null, temporaryUntil: null });
      break;
    }
    case DEVICE_ACTION.RELEASE:
      return ok(released(next), true);
    default:
      if (CONFIGURING_ACTIONS.includes(c.action)) next = configured(next);
  }
  return ok(next);
}

function configured(f: MachineFacts): MachineFacts {
  const l = effectiveLifecycle(f);
  if (l === 'enrolled' || l === 'enrolling') return setLifecycle(f, 'configured');
  if (l === 'operating' && (f.lockState === 'active' || f.lockState === 'locked')) return setLifecycle(f, 'reconfigured');
  return f;
}

const released = (f: MachineFacts): MachineFacts => ({
  ...f,
  lifecycle: 'released',
  heldLifecycle: null,
  lockState: 'active',
  lockType: null,
  lockMessage: null,
  temporaryUntil: null,
  pendingCommandId: null,
  pendingAction: null,
  pendingUntil: null,
});

/** The agent rejected a command: fallido with the reason until the next acknowledgement; the other facts stay. */
export function rejected(f: MachineFacts, c: MachineCommand, reason: string): Transition {
  if (f.lifecycle === 'released') return refuse('RELEASED');
  if (f.lifecycle === 'pre_enrolled') return refuse('NOT_ENROLLED');
  return ok({ ...clearPending(f, c.id), failureReason: reason });
}

// Agent events --------------------------------------------------------------------------

/**
 * An offline code was redeemed on the device: UNLOCK_OFFLINE → desbloqueado_offline,
 * UNLOCK_OFFLINE_WITH_DATE → TEMPORARY_ACTIVE until the code's date, RELEASE_OFFLINE → liberado.
 */
export function offlineRedeemed(f: MachineFacts, action: number, until: Date | null): Transition {
  if (f.lifecycle === 'released') return refuse('RELEASED');
  if (NOT_YET.includes(f.lifecycle) && f.lifecycle !== 'enrolling') return refuse('NOT_ENROLLED');
  switch (action) {
    case DEVICE_ACTION.UNLOCK_OFFLINE:
      return ok(operating({ ...f, lockState: 'unlocked_offline', lockType: null, lockMessage: null, temporaryUntil: null }));
    case DEVICE_ACTION.UNLOCK_OFFLINE_WITH_DATE:
      return ok(operating({ ...f, lockState: 'temporary_active', temporaryUntil: until }));
    case DEVICE_ACTION.RELEASE_OFFLINE:
      return ok(released(f), true);
    default:
      return refuse('NOT_AN_OFFLINE_CODE');
  }
}

/** The agent locked the device itself: offline too long ('Por No Conexión'), tampering, or the SIM taken out. */
export function agentLocked(f: MachineFacts, lockType: LockType): Transition {
  if (f.lifecycle === 'released') return refuse('RELEASED');
  if (!SETTLED.includes(effectiveLifecycle(f))) return refuse('NOT_ENROLLED');
  return ok(locked(f, lockType, null));
}

/** A temporary unlock ran out (reported by the agent, or seen by the server's clock): bloqueado again. */
export function temporaryExpired(f: MachineFacts): Transition {
  if (f.lockState !== 'temporary_active') return refuse('NOT_TEMPORARY');
  return ok(locked(f, f.lockType ?? 'PorCredito'));
}

// Administrative hold -------------------------------------------------------------------

/** An administrator puts an enrolled device on hold: SUSPENDED until resumed; commands still flow. */
export function hold(f: MachineFacts): Transition {
  if (f.lifecycle === 'suspended') return refuse('ALREADY_SUSPENDED');
  if (f.lifecycle === 'released') return refuse('RELEASED');
  if (!SETTLED.includes(f.lifecycle)) return refuse('NOT_ENROLLED');
  return ok({ ...f, lifecycle: 'suspended', heldLifecycle: f.lifecycle });
}

/** The hold ends: the device returns to the lifecycle it had (or reached meanwhile). */
export function resume(f: MachineFacts): Transition {
  if (f.lifecycle !== 'suspended') return refuse('NOT_SUSPENDED');
  return ok({ ...f, lifecycle: f.heldLifecycle ?? 'operating', heldLifecycle: null });
}
