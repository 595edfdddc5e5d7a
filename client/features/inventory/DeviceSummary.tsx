import { deviceTypeLabel } from '../../../shared/constants/domain';
import type { Device } from '../../../shared/contracts/devices';

/** 'Samsung Galaxy A15' (brand and model, either may be missing); '' when neither is known. */
export const brandModel = (d: Pick<Device, 'brand' | 'model'>) => [d.brand, d.model].filter(Boolean).join(' ');

/**
 * The type and brand / model under a device's IMEI, e.g. 'Móvil · Samsung Galaxy A15': their own
 * columns give way below 1400 px (and in the cards of narrow screens), and this line shows instead.
 */
export function DeviceSummary({ device }: { device: Pick<Device, 'deviceType' | 'brand' | 'model'> }) {
  return (
    <small className="d-block d-xxl-none fw-normal text-body-secondary" data-testid="device-summary">
      {[deviceTypeLabel(device.deviceType), brandModel(device)].filter(Boolean).join(' · ')}
    </small>
  );
}
