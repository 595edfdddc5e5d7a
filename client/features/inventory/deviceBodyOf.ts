import type { Device, DeviceBody } from '../../../shared/contracts/devices';

/** A device's body for PUT /v5/devices/:id (its current facts), optionally with some changed. */
export function deviceBodyOf(device: Device, changes: Partial<DeviceBody> = {}): DeviceBody {
  return {
    imei: device.imei,
    imei2: device.imei2,
    serial: device.serial,
    deviceType: device.deviceType,
    brand: device.brand,
    model: device.model,
    groupId: device.groupId,
    customerName: device.customerName,
    creditReference: device.creditReference,
    ...changes,
  };
}
