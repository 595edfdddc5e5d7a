/**
 * Whether an action may be requested for a device now: the reference §4 table (disabled
 * actions per status), the command in flight, the device's lifecycle and the caller's profile.
 * The API refuses with the reason (409 or 403), the row menus disable with it as the tooltip,
 * and the bulk dry run groups skipped devices by it.
 */
import { COLLECTION_RESTRICTION_LABELS, DEVICE_ACTION, DEVICE_ACTIONS } from './constants/deviceActions';
import { DEVICE_STATUS, deviceStatusLabel, disabledActionsForStatus, type LockType } from './constants/domain';
import { STATEFUL_ACTIONS } from './deviceStatus';
import { DEVICE_ACTION_MESSAGES } from './areaMessages/deviceActions';

export const actionLabel = (code: number): string => DEVICE_ACTIONS.find((a) => a.code === code)?.label ?? String(code);

/**
 * A command's name in the history and the detail: its action's, except a RESTRICTIONS whose
 * `collection` flag says it applies or lifts the collection restrictions (the same action code).
 */
export const commandLabel = (code: number, payload: Readonly<Record<string, unknown>>): string =>
  code === DEVICE_ACTION.RESTRICTIONS && typeof payload['collection'] === 'boolean'
    ? payload['collection']
      ? COLLECTION_RESTRICTION_LABELS.apply
      : COLLECTION_RESTRICTION_LABELS.lift
    : actionLabel(code);

/** What the rules need to know of a device. */
export interface ActionTarget {
  /** The derived status code (offline overlay included). */
  status: number;
  lockType: LockType | null;
  /** Action code of the command in flight, if any. */
  pendingAction: number | null;
}

export type Refusal = { status: 403 | 409; code: string; reason: string };

/** Actions a not-yet-enrolled device admits (no agent to receive anything). */
const PRE_ENROLLED_ACTIONS: readonly number[] = [DEVICE_ACTION.DELETE_DEVICE, DEVICE_ACTION.HISTORY];

/**
 * Why `action` cannot be requested for `device`, or null when it can. `granted` is the
 * caller's action codes (omit to check the device rules only).
 */
export function refusal(device: ActionTarget, action: number, granted?: ReadonlySet<number> | readonly number[]): Refusal | null {
  if (granted && !(granted instanceof Set ? granted.has(action) : (granted as readonly number[]).includes(action))) {
    return { status: 403, code: 'ACTION_NOT_GRANTED', reason: DEVICE_ACTION_MESSAGES.notGranted(actionLabel(action)) };
  }
  if (disabledActionsForStatus(device.status, device.lockType).includes(action as never)) {
    return {
      status: 409,
      code: 'ACTION_DISABLED_FOR_STATUS',
      reason: DEVICE_ACTION_MESSAGES.disabledForStatus(actionLabel(action), deviceStatusLabel(device.status) ?? String(device.status)),
    };
  }
  if (device.status === DEVICE_STATUS.PRE_ENROLLED && !PRE_ENROLLED_ACTIONS.includes(action)) {
    return { status: 409, code: 'NOT_ENROLLED', reason: DEVICE_ACTION_MESSAGES.notEnrolled };
  }
  if (device.status === DEVICE_STATUS.liberado && (action === DEVICE_ACTION.RELEASE || action === DEVICE_ACTION.RELEASE_OFFLINE)) {
    return { status: 409, code: 'ALREADY_RELEASED', reason: DEVICE_ACTION_MESSAGES.alreadyReleased };
  }
  // A released device's agent left (its token is revoked): a command would wait forever.
  if (device.status === DEVICE_STATUS.liberado && !PRE_ENROLLED_ACTIONS.includes(action)) {
    return { status: 409, code: 'RELEASED_NO_AGENT', reason: DEVICE_ACTION_MESSAGES.releasedNoAgent };
  }
  if (device.pendingAction !== null && (STATEFUL_ACTIONS.includes(action) || action === DEVICE_ACTION.DELETE_DEVICE)) {
    return { status: 409, code: 'PENDING_COMMAND', reason: DEVICE_ACTION_MESSAGES.pendingConflict(actionLabel(device.pendingAction)) };
  }
  if (action === DEVICE_ACTION.DELETE_DEVICE && (device.status === DEVICE_STATUS.activo || device.status === DEVICE_STATUS.bloqueado)) {
    return { status: 409, code: 'DELETE_IN_USE', reason: DEVICE_ACTION_MESSAGES.deleteWhileInUse };
  }
  return null;
}
