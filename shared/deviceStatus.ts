/**
 * The device status of reference §4, derived from facts. A device stores what is true
 * of it (its lifecycle, its lock state, the command in flight, the last failure, when it was
 * last seen); the status code is never stored by hand. One rule list below gives both the
 * TypeScript function (API answers, badges) and the SQL expression of the stored
 * `devices.base_status` column (filters, sorts, counters), so they cannot disagree.
 */
import { DEVICE_ACTION } from './constants/deviceActions';
import { DEVICE_STATUS, type DeviceStatusCode } from './constants/domain';

export const LIFECYCLES = ['pre_enrolled', 'enrolling', 'enrolled', 'configured', 'operating', 'reconfigured', 'released', 'suspended'] as const;
export type Lifecycle = (typeof LIFECYCLES)[number];

/** `unlocked`: the agent removed a lock ('Desbloqueado'); the next check-in makes the device 'Activo'. */
export const LOCK_STATES = ['active', 'locked', 'unlocked', 'unlocked_offline', 'temporary_active'] as const;
export type LockState = (typeof LOCK_STATES)[number];

/** The stored facts the status depends on. */
export interface DeviceFacts {
  lifecycle: Lifecycle;
  lockState: LockState;
  /** Action code of the command in flight, if any. */
  pendingAction: number | null;
  /** An UNLOCK in flight that only lasts until a date (TEMPORARY_UNLOCKING). */
  pendingUntil: string | Date | null;
  /** Reason of the last command the agent rejected; cleared by the next acknowledgement. */
  failureReason: string | null;
  lastSeenAt: string | Date | null;
}

/** Action codes whose command puts the device in 'configurando' while it is in flight. */
export const CONFIGURING_ACTIONS: readonly number[] = [
  DEVICE_ACTION.UPDATE_APP_MACRO,
  DEVICE_ACTION.UPDATE_APP_BUSINESS,
  DEVICE_ACTION.RESTRICTIONS,
  DEVICE_ACTION.SIM_CARD_SETTING,
];

/** Commands that change the device's state while in flight (one at a time per device). */
export const STATEFUL_ACTIONS: readonly number[] = [DEVICE_ACTION.LOCK, DEVICE_ACTION.UNLOCK, DEVICE_ACTION.RELEASE, ...CONFIGURING_ACTIONS];

type Condition =
  | { fact: 'lifecycle'; equals: Lifecycle }
  | { fact: 'lockState'; equals: LockState }
  | { fact: 'pendingAction'; in: readonly number[] }
  | { fact: 'pendingUntil'; present: boolean }
  | { fact: 'failureReason'; present: boolean };

interface Rule {
  when: readonly Condition[];
  status: DeviceStatusCode;
}

const lifecycle = (equals: Lifecycle): Condition => ({ fact: 'lifecycle', equals });
const lockState = (equals: LockState): Condition => ({ fact: 'lockState', equals });
const pending = (...codes: number[]): Condition => ({ fact: 'pendingAction', in: codes });

/** First matching rule wins. The offline overlay is applied on top (see `deviceStatus`). */
export const STATUS_RULES: readonly Rule[] = [
  { when: [lifecycle('pre_enrolled')], status: DEVICE_STATUS.PRE_ENROLLED },
  { when: [lifecycle('released')], status: DEVICE_STATUS.liberado },
  { when: [lifecycle('suspended')], status: DEVICE_STATUS.SUSPENDED },
  { when: [pending(DEVICE_ACTION.LOCK)], status: DEVICE_STATUS.bloqueando },
  { when: [pending(DEVICE_ACTION.UNLOCK), { fact: 'pendingUntil', present: true }], status: DEVICE_STATUS.TEMPORARY_UNLOCKING },
  { when: [pending(DEVICE_ACTION.UNLOCK)], status: DEVICE_STATUS.desbloqueando },
  { when: [pending(DEVICE_ACTION.RELEASE)], status: DEVICE_STATUS.liberando },
  { when: [pending(...CONFIGURING_ACTIONS)], status: DEVICE_STATUS.configurando },
  { when: [{ fact: 'failureReason', present: true }], status: DEVICE_STATUS.fallido },
  { when: [lifecycle('enrolling')], status: DEVICE_STATUS.enrolando },
  { when: [lifecycle('enrolled')], status: DEVICE_STATUS.enrolado },
  { when: [lifecycle('configured')], status: DEVICE_STATUS.configurado },
  { when: [lifecycle('reconfigured'), lockState('locked')], status: DEVICE_STATUS.configurado_bloqueado },
  { when: [lifecycle('reconfigured')], status: DEVICE_STATUS.configurado_activo },
  { when: [lockState('locked')], status: DEVICE_STATUS.bloqueado },
  { when: [lockState('unlocked')], status: DEVICE_STATUS.desbloqueado },
  { when: [lockState('unlocked_offline')], status: DEVICE_STATUS.desbloqueado_offline },
  { when: [lockState('temporary_active')], status: DEVICE_STATUS.TEMPORARY_ACTIVE },
  { when: [], status: DEVICE_STATUS.activo },
];

/**
 * Statuses that turn into 'sin_conexion' when the device has not been seen within the
 * threshold. A command in flight keeps its in-flight status (the administrator sees what is
 * pending), and pre-enrolled, released, suspended and failed devices keep theirs.
 */
export const OFFLINE_OVERLAID: readonly DeviceStatusCode[] = [
  DEVICE_STATUS.enrolado,
  DEVICE_STATUS.bloqueado,
  DEVICE_STATUS.activo,
  DEVICE_STATUS.desbloqueado,
  DEVICE_STATUS.configurado,
  DEVICE_STATUS.desbloqueado_offline,
  DEVICE_STATUS.configurado_bloqueado,
  DEVICE_STATUS.configurado_activo,
  DEVICE_STATUS.TEMPORARY_ACTIVE,
];

/**
 * Lifecycles of a device that has been in contact: the database requires their last_seen_at
 * (CHECK devices_settled_seen), so the offline filters below are plain ranges.
 */
export const SETTLED_LIFECYCLES: readonly Lifecycle[] = ['enrolled', 'configured', 'operating', 'reconfigured'];

function holds(c: Condition, f: DeviceFacts): boolean {
  switch (c.fact) {
    case 'lifecycle':
      return f.lifecycle === c.equals;
    case 'lockState':
      return f.lockState === c.equals;
    case 'pendingAction':
      return f.pendingAction !== null && c.in.includes(f.pendingAction);
    case 'pendingUntil':
      return (f.pendingUntil !== null) === c.present;
    case 'failureReason':
      return (f.failureReason !== null) === c.present;
  }
}

/** The status from the facts without the offline overlay (what `devices.base_status` stores). */
export function baseStatus(f: DeviceFacts): DeviceStatusCode {
  return STATUS_RULES.find((r) => r.when.every((c) => holds(c, f)))!.status;
}

/** The moment before which a device counts as offline. */
export function offlineCutoff(now: Date, offlineAfterHours: number): Date {
  return new Date(now.getTime() - offlineAfterHours * 3600_000);
}

/**
 * Whether a status with this last-seen time shows as 'sin_conexion'. The database never holds a
 * settled device without last_seen_at (CHECK devices_settled_seen); one would count as offline.
 */
export function isOffline(base: number, lastSeenAt: string | Date | null, cutoff: Date): boolean {
  return OFFLINE_OVERLAID.includes(base as DeviceStatusCode) && (lastSeenAt === null || new Date(lastSeenAt) < cutoff);
}

/** The reference §4 status code of a device at `now`. */
export function deviceStatus(f: DeviceFacts, cutoff: Date): DeviceStatusCode {
  const base = baseStatus(f);
  return isOffline(base, f.lastSeenAt, cutoff) ? DEVICE_STATUS.sin_conexion : base;
}

// SQL ------------------------------------------------------------------------------------

const COLUMN: Record<Condition['fact'], string> = {
  lifecycle: 'lifecycle',
  lockState: 'lock_state',
  pendingAction: 'pending_action',
  pendingUntil: 'pending_until',
  failureReason: 'failure_reason',
};

function conditionSql(c: Condition): string {
  const col = COLUMN[c.fact];
  switch (c.fact) {
    case 'lifecycle':
    case 'lockState':
      return `${col} = '${c.equals}'`;
    case 'pendingAction':
      return c.in.length === 1 ? `${col} = ${c.in[0]}` : `${col} IN (${c.in.join(', ')})`;
    case 'pendingUntil':
    case 'failureReason':
      return `${col} IS ${c.present ? 'NOT ' : ''}NULL`;
  }
}

/** The CASE expression of the generated column `devices.base_status` (a migration test compares it). */
export function baseStatusSql(): string {
  const rules = STATUS_RULES.filter((r) => r.when.length > 0)
    .map((r) => `WHEN ${r.when.map(conditionSql).join(' AND ')} THEN ${r.status}`)
    .join('\n  ');
  const fallback = STATUS_RULES.find((r) => r.when.length === 0)!.status;
  return `CASE\n  ${rules}\n  ELSE ${fallback}\nEND`;
}

/**
 * A SQL condition selecting the devices whose derived status is `code`, with `$cutoff` the
 * parameter placeholder of the offline cutoff. Uses the indexed `base_status` and `last_seen_at`.
 */
export function statusFilterSql(code: number, cutoff: string, alias = ''): string {
  const a = alias ? `${alias}.` : '';
  const overlaid = OFFLINE_OVERLAID.join(', ');
  // A settled device always has a last_seen_at (a CHECK of migration 0007): plain index ranges.
  if (code === DEVICE_STATUS.sin_conexion) return `(${a}base_status IN (${overlaid}) AND ${a}last_seen_at < ${cutoff})`;
  if (OFFLINE_OVERLAID.includes(code as DeviceStatusCode)) return `(${a}base_status = ${Number(code)} AND ${a}last_seen_at >= ${cutoff})`;
  return `(${a}base_status = ${Number(code)})`;
}

/**
 * The statuses of a device locked or being locked, as the list shows them: what the dashboard's
 * *Bloqueados* card counts and the `locked` filter of the list selects.
 */
export const LOCKED_STATUSES: readonly DeviceStatusCode[] = [DEVICE_STATUS.bloqueado, DEVICE_STATUS.configurado_bloqueado, DEVICE_STATUS.bloqueando];

/** The devices in one of LOCKED_STATUSES (statusFilterSql of each: an offline device shows *Sin conexión*). */
export function lockedFilterSql(cutoff: string, alias = ''): string {
  return `(${LOCKED_STATUSES.map((code) => statusFilterSql(code, cutoff, alias)).join(' OR ')})`;
}

/** The derived status as a SQL expression (for exports and group-by counts). */
export function statusSql(cutoff: string, alias = ''): string {
  const a = alias ? `${alias}.` : '';
  return `(CASE WHEN ${a}base_status IN (${OFFLINE_OVERLAID.join(', ')}) AND ${a}last_seen_at < ${cutoff} THEN ${DEVICE_STATUS.sin_conexion} ELSE ${a}base_status END)`;
}
