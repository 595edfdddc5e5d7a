import { INVENTORY_LABELS } from '../../../shared/constants/inventoryLabels';
import type { Device, PendingCommand } from '../../../shared/contracts/devices';
import { actionLabel } from '../../../shared/deviceActionRules';
import { ConfirmModal } from '../../components/ConfirmModal';
import { toastSuccess } from '../../components/toast';
import { useCancelCommandMutation } from './inventoryApi';

const L = INVENTORY_LABELS.actions;

/** One cancellation to confirm: the device and its pending command. */
export interface CancelCommandRequest {
  device: Pick<Device, 'id' | 'imei'>;
  command: Pick<PendingCommand, 'id' | 'action'>;
}

/**
 * The confirmation of cancelling a command the device has not received yet, naming the action
 * and the IMEI. A refusal (403: the profile lacks the action; 409: the device received it
 * meanwhile) is toasted by the API layer and also shown here, next to the buttons.
 */
export function CancelCommandModal({ request, onClose }: { request: CancelCommandRequest; onClose: () => void }) {
  const [cancel, cancelState] = useCancelCommandMutation();
  const { device, command } = request;
  const onConfirm = async () => {
    const res = await cancel({ id: device.id, commandId: command.id });
    if ('error' in res) return res;
    toastSuccess(L.commandCancelled);
    onClose();
  };
  return (
    <ConfirmModal
      show
      title={L.cancelPending}
      message={L.confirmCancelPending(actionLabel(command.action), device.imei)}
      confirmLabel={INVENTORY_LABELS.common.confirm}
      loading={cancelState.isLoading}
      onClose={onClose}
      onConfirm={onConfirm}
      errorTestId="cancel-command-error"
    />
  );
}
