import { DEVICE_ACTION } from '../../../shared/constants/deviceActions';
import type { LockType } from '../../../shared/constants/domain';
import { INVENTORY_LABELS } from '../../../shared/constants/inventoryLabels';
import { OFFLINE_CODE_ACTIONS } from '../../../shared/constants/deviceActions';
import type { ActionPayloadInput } from '../../../shared/contracts/deviceActions';
import type { Device } from '../../../shared/contracts/devices';
import { actionLabel } from '../../../shared/deviceActionRules';
import { AppModal } from '../../components/AppModal';
import { ConfirmModal } from '../../components/ConfirmModal';
import { toastSuccess } from '../../components/toast';
import { ActionPayloadForm, proposedLockType } from './ActionPayloadForm';
import { useDeleteDeviceMutation, useDeviceActionMutation, useLockDefaultsQuery } from './inventoryApi';
import type { ShownOfflineCode } from './OfflineCodeModal';
import { RELEASE_CANCEL_HOURS } from '../../../shared/constants/limits';

const L = INVENTORY_LABELS.actions;

/**
 * One opening of an action's modal: the device (its type and group choose the lock type
 * proposed), the action and the Idempotency-Key of this intent.
 */
export interface ActionRequest {
  device: Pick<Device, 'id' | 'imei' | 'deviceType' | 'groupId'>;
  action: number;
  idempotencyKey: string;
  /** A LOCK's lock type to start on instead of the configured default (Conciliación's Bloquear: Por Crédito). */
  lockType?: LockType;
}

export interface ActionModalProps {
  request: ActionRequest;
  onClose: () => void;
  /** An offline action answered its code (shown once, by the caller). */
  onOfflineCode: (code: ShownOfflineCode) => void;
  /** The device was deleted. */
  onDeleted?: (id: number) => void;
}

/** Actions whose confirm button is red. */
const DESTRUCTIVE: readonly number[] = [DEVICE_ACTION.LOCK, DEVICE_ACTION.RELEASE, DEVICE_ACTION.RELEASE_OFFLINE];

/**
 * The confirmation of one action on one device, with the action's payload form (LOCK starts on
 * the configured default lock type of the device's type and group). Errors are toasted by the
 * API layer; success toasts here (or hands the offline code on).
 */
export function ActionModal({ request, onClose, onOfflineCode, onDeleted }: ActionModalProps) {
  const { device, action, idempotencyKey } = request;
  const [runAction, actionState] = useDeviceActionMutation();
  const [deleteDevice, deleteState] = useDeleteDeviceMutation();
  // LOCK starts on the lock type configured for the device's type and group.
  const isLock = action === DEVICE_ACTION.LOCK;
  const lockDefaults = useLockDefaultsQuery(undefined, { skip: !isLock });
  const label = actionLabel(action);

  if (action === DEVICE_ACTION.DELETE_DEVICE) {
    const onConfirm = async () => {
      const res = await deleteDevice(device.id);
      if ('error' in res) return res;
      toastSuccess(L.deleted(device.imei));
      onDeleted?.(device.id);
      onClose();
    };
    return (
      <ConfirmModal
        show
        title={L.deleteTitle}
        message={L.confirmDelete(device.imei)}
        confirmLabel={L.deleteConfirmLabel}
        loading={deleteState.isLoading}
        onClose={onClose}
        onConfirm={onConfirm}
      />
    );
  }

  const formId = `device-action-form-${action}`;
  const onSubmit = async (payload: ActionPayloadInput) => {
    const res = await runAction({ id: device.id, payload, idempotencyKey });
    if (!('data' in res) || !res.data) return;
    const code = res.data.offlineCode;
    if (code) onOfflineCode({ code: code.code, expiresAt: code.expiresAt, action, imei: device.imei });
    else toastSuccess(L.requested(label, device.imei));
    onClose();
  };
  const intro = (
    <>
      <p className="mb-0">{L.confirmAction(label, device.imei)}</p>
      {action === DEVICE_ACTION.RELEASE && <p className="mb-0 mt-2">{L.releaseNote(RELEASE_CANCEL_HOURS)}</p>}
      {OFFLINE_CODE_ACTIONS.includes(action) && <p className="mb-0 mt-2">{L.offlineCodeNote}</p>}
    </>
  );
  return (
    <AppModal
      show
      title={label}
      formId={formId}
      confirmLabel={INVENTORY_LABELS.common.confirm}
      confirmVariant={DESTRUCTIVE.includes(action) ? 'danger' : 'primary'}
      // Until the proposed lock type is known, confirming could lock with another one.
      loading={actionState.isLoading || (isLock && lockDefaults.isLoading)}
      onClose={onClose}
    >
      <ActionPayloadForm
        formId={formId}
        action={action}
        intro={intro}
        defaultLockType={request.lockType ?? proposedLockType(lockDefaults.data, device.deviceType, device.groupId)}
        onSubmit={(p) => void onSubmit(p)}
      />
    </AppModal>
  );
}
