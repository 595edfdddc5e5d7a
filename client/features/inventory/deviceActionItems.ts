import { DEVICE_ACTION, DEVICE_ACTIONS, OFFLINE_CODE_ACTIONS } from '../../../shared/constants/deviceActions';
import { DEVICE_STATUS } from '../../../shared/constants/domain';
import type { Device, PendingCommand } from '../../../shared/contracts/devices';
import { refusal, type ActionTarget } from '../../../shared/deviceActionRules';
import { CLOCK_MARGIN_MS } from './inFlight';

/** What the action rules need of a device. */
export function actionTarget(device: Pick<Device, 'status' | 'lockType' | 'pendingCommand'>): ActionTarget {
  return { status: device.status, lockType: device.lockType, pendingAction: device.pendingCommand?.action ?? null };
}

/** The row menu: every action but HISTORY (the detail shows the history). */
export const MENU_ACTIONS = DEVICE_ACTIONS.filter((a) => a.code !== DEVICE_ACTION.HISTORY);

/** Actions a bulk job can run: not HISTORY and not the offline codes (one code per device, shown once). */
export const BULK_ACTIONS = DEVICE_ACTIONS.filter((a) => a.code !== DEVICE_ACTION.HISTORY && !OFFLINE_CODE_ACTIONS.includes(a.code));

export interface MenuItem {
  code: number;
  label: string;
  /** Why the action cannot be requested now; null when it can. */
  reason: string | null;
}

/** The row menu's sections, in order; DELETE_DEVICE comes last on its own, in red. */
export const MENU_GROUPS = [
  { key: 'lock', codes: [DEVICE_ACTION.LOCK, DEVICE_ACTION.UNLOCK, DEVICE_ACTION.RELEASE] },
  { key: 'communication', codes: [DEVICE_ACTION.SEND_NOTIFICATION, DEVICE_ACTION.CODE_BAR] },
  {
    key: 'configuration',
    codes: [DEVICE_ACTION.RESTRICTIONS, DEVICE_ACTION.UPDATE_APP_MACRO, DEVICE_ACTION.UPDATE_APP_BUSINESS, DEVICE_ACTION.SIM_CARD_SETTING],
  },
  { key: 'offlineCodes', codes: [DEVICE_ACTION.UNLOCK_OFFLINE, DEVICE_ACTION.UNLOCK_OFFLINE_WITH_DATE, DEVICE_ACTION.RELEASE_OFFLINE] },
  { key: 'delete', codes: [DEVICE_ACTION.DELETE_DEVICE] },
] as const;
export type MenuGroupKey = (typeof MENU_GROUPS)[number]['key'];

/**
 * The row menu's sections for a device and the caller's granted actions: an action the profile
 * does not grant is left out (the server refuses it anyway); one the device's status or its
 * pending command refuses stays, disabled, with the reason. Empty sections are left out.
 */
export function menuGroups(
  device: Pick<Device, 'status' | 'lockType' | 'pendingCommand'>,
  granted: ReadonlySet<number>,
): { key: MenuGroupKey; items: MenuItem[] }[] {
  const target = actionTarget(device);
  return MENU_GROUPS.map((g) => ({
    key: g.key,
    items: g.codes
      .filter((code) => granted.has(code))
      .map((code) => ({ code, label: MENU_ACTIONS.find((a) => a.code === code)!.label, reason: refusal(target, code)?.reason ?? null })),
  })).filter((g) => g.items.length > 0);
}

/**
 * The pending command the caller may cancel from the menu, or null: one the device has not
 * received yet (a RELEASE inside its window included), of an action the profile grants.
 */
export function cancellablePending(device: Pick<Device, 'pendingCommand'>, granted: ReadonlySet<number>): PendingCommand | null {
  const pending = device.pendingCommand;
  return pending && pending.deliveredAt === null && granted.has(pending.action) ? pending : null;
}

/**
 * The pending RELEASE still inside its cancel window (not received, its delivery time not come),
 * or null. `now` is the browser's clock; before it is known (server render) the request time
 * stands in, so a release just requested counts as scheduled.
 */
export function scheduledRelease(device: Pick<Device, 'pendingCommand'>, now: number | null): PendingCommand | null {
  const pending = device.pendingCommand;
  if (!pending || pending.action !== DEVICE_ACTION.RELEASE || pending.deliveredAt !== null) return null;
  // Scheduled exactly when it is not due by isInFlight's rule: beyond the clock's margin.
  return Date.parse(pending.deliverAfter) > (now ?? Date.parse(pending.requestedAt)) + CLOCK_MARGIN_MS ? pending : null;
}

/** Whether 'Entregar ahora' is offered: a scheduled release and a profile that grants RELEASE (the server checks it too). */
export function deliverableNow(device: Pick<Device, 'pendingCommand'>, granted: ReadonlySet<number>, now: number | null): boolean {
  return granted.has(DEVICE_ACTION.RELEASE) && scheduledRelease(device, now) !== null;
}

/**
 * Whether the menu offers 'Autorizar reenrolamiento': the profile grants LOCK (the server checks it
 * too) and the device has enrolled (not pre-enrolled, not released). The server refuses a device
 * whose enrollment never completed, with the reason.
 */
export function reenrollable(device: Pick<Device, 'status'>, granted: ReadonlySet<number>): boolean {
  return granted.has(DEVICE_ACTION.LOCK) && device.status !== DEVICE_STATUS.PRE_ENROLLED && device.status !== DEVICE_STATUS.liberado;
}

/** A fresh Idempotency-Key (one per user intent); works outside secure contexts too. */
export function newIdempotencyKey(): string {
  const c = globalThis.crypto;
  if (typeof c?.randomUUID === 'function') return c.randomUUID();
  const bytes = c.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
