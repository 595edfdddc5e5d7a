import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import { INVENTORY_LABELS } from '../../../shared/constants/inventoryLabels';
import type { Device, PendingCommand } from '../../../shared/contracts/devices';
import { actionLabel } from '../../../shared/deviceActionRules';
import { errorMessage } from '../../api/apiErrors';
import type { ApiError } from '../../api/axiosBaseQuery';
import { AppModal } from '../../components/AppModal';
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
  const [error, setError] = useState<string | null>(null);
  const { device, command } = request;
  const onConfirm = async () => {
    setError(null);
    const res = await cancel({ id: device.id, commandId: command.id });
    if ('error' in res) {
      setError(errorMessage(res.error as ApiError));
      return;
    }
    toastSuccess(L.commandCancelled);
    onClose();
  };
  return (
    <AppModal
      show
      title={L.cancelPending}
      confirmLabel={INVENTORY_LABELS.common.confirm}
      confirmVariant="danger"
      loading={cancelState.isLoading}
      onClose={onClose}
      onConfirm={() => void onConfirm()}
    >
      <p className="mb-0">{L.confirmCancelPending(actionLabel(command.action), device.imei)}</p>
      {error && (
        <Alert variant="danger" className="mt-3 mb-0" role="alert" data-testid="cancel-command-error">
          {error}
        </Alert>
      )}
    </AppModal>
  );
}
