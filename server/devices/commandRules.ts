/**
 * The action rules applied to many devices at once: `refusal` (shared/deviceActionRules.ts) is
 * evaluated once per combination of what it looks at (derived status, lock type, command in
 * flight), never once per device, so a dry run or a batch of thousands costs a handful of calls.
 */
import type { ActionPayload } from '../../shared/contracts/deviceActions';
import type { BulkPreview } from '../../shared/contracts/jobs';
import { DEVICE_ACTION, DEVICE_ACTIONS } from '../../shared/constants/deviceActions';
import type { DeviceActionCode, DeviceStatusCode, LockType } from '../../shared/constants/domain';
import { deviceAuditAction, type DeviceAuditAction } from '../../shared/constants/audit';
import { refusal, type Refusal } from '../../shared/deviceActionRules';
import type { SelectionGroup } from './deviceRepository';
import { BULK_MAX_DEVICES } from '../../shared/constants/limits';

export interface RuleFacts {
  status: number;
  lock_type: LockType | null;
  pending_action: number | null;
}

/** `refusal` for one action, memoised per (status, lock type, command in flight). */
export function refusalMemo(action: number): (f: RuleFacts) => Refusal | null {
  const memo = new Map<string, Refusal | null>();
  return (f) => {
    const key = `${f.status}|${f.lock_type ?? ''}|${f.pending_action ?? ''}`;
    let r = memo.get(key);
    if (r === undefined) {
      r = refusal({ status: f.status, lockType: f.lock_type, pendingAction: f.pending_action }, action);
      memo.set(key, r);
    }
    return r;
  };
}

/** The dry run of a bulk action from the selection's groups (see CommandRepository.selectionGroups). */
export function summarize(groups: readonly SelectionGroup[], action: number): BulkPreview {
  const refused = refusalMemo(action);
  const byStatus = new Map<number, number>();
  const skipped = new Map<string, number>();
  let total = 0;
  let eligible = 0;
  let offline = 0;
  for (const g of groups) {
    total += g.n;
    byStatus.set(g.status, (byStatus.get(g.status) ?? 0) + g.n);
    const r = refused(g);
    if (r) skipped.set(r.reason, (skipped.get(r.reason) ?? 0) + g.n);
    else {
      eligible += g.n;
      offline += g.offline;
    }
  }
  return {
    total,
    eligible,
    byStatus: [...byStatus].sort(([a], [b]) => a - b).map(([status, count]) => ({ status: status as DeviceStatusCode, count })),
    skipped: [...skipped].sort(([, a], [, b]) => b - a).map(([reason, count]) => ({ reason, count })),
    offline,
    overLimit: total > BULK_MAX_DEVICES,
  };
}

/** The payload a command stores: the action's fields without the code. */
export function commandPayload(p: ActionPayload): Record<string, unknown> {
  const { action: _action, ...rest } = p;
  return rest;
}

/** The audit log's name of an action, e.g. 'lock', 'send_notification' (one of the AuditAction union). */
export function auditActionName(action: DeviceActionCode): DeviceAuditAction {
  const entry = DEVICE_ACTIONS.find((a) => a.code === action);
  if (!entry) throw new Error(`Unknown device action ${action}`);
  return deviceAuditAction(entry.key);
}

/** UNLOCK's date (TEMPORARY_UNLOCKING), if any. */
export function pendingUntil(p: ActionPayload): Date | null {
  return p.action === DEVICE_ACTION.UNLOCK && p.until ? new Date(p.until) : null;
}
