import { INVENTORY_LABELS } from '../../../shared/constants/inventoryLabels';
import type { Device } from '../../../shared/contracts/devices';
import { ConfirmModal } from '../../components/ConfirmModal';
import { toastSuccess } from '../../components/toast';
import { useDeliverReleaseMutation } from './inventoryApi';

const L = INVENTORY_LABELS.actions;

/** The device whose scheduled release is to be delivered now. */
export type DeliverReleaseDevice = Pick<Device, 'id' | 'imei' | 'customerName'>;

/**
 * The confirmation of 'Entregar ahora', repeating the IMEI and the customer: the release stops
 * waiting for the end of its cancel window. A refusal (403: the profile lacks RELEASE; 409: no
 * scheduled release any more) is toasted by the API layer and also shown here, next to the buttons.
 */
export function DeliverReleaseModal({ device, onClose }: { device: DeliverReleaseDevice; onClose: () => void }) {
  const [deliver, state] = useDeliverReleaseMutation();
  const onConfirm = async () => {
    const res = await deliver({ id: device.id });
    if ('error' in res) return res;
    toastSuccess(L.deliverNowDone(device.imei));
    onClose();
  };
  return (
    <ConfirmModal
      show
      title={L.deliverNowTitle}
      message={L.confirmDeliverNow(device.imei, device.customerName ?? L.noCustomer)}
      confirmLabel={L.deliverNow}
      loading={state.isLoading}
      onClose={onClose}
      onConfirm={onConfirm}
      errorTestId="deliver-release-error"
    />
  );
}
