import type { ComponentProps } from 'react';
import { lazyChunk } from '../../app/lazyPage';
import type { ActionModal } from './ActionModal';
import type { BulkActionModal } from './BulkActionModal';
import type { CancelCommandModal } from './CancelCommandModal';
import type { DeliverReleaseModal } from './DeliverReleaseModal';
import type { DeviceDetail } from './DeviceDetail';
import type { DeviceFormProps } from './DeviceForm';
import type { EnrollmentQrModalProps } from './EnrollmentQrModal';
import type { GroupFormProps } from './GroupForm';
import type { OfflineCodeModal } from './OfflineCodeModal';
import type { ReenrollmentModal } from './ReenrollmentModal';

/**
 * The inventory's dialogs and dialogs' forms, each in a chunk of its own: react-hook-form and the
 * contracts' schemas load after the page has shown (useIdlePrefetch), not in its first load.
 */
export const GROUP_FORM = lazyChunk<GroupFormProps>('client/features/inventory/GroupForm.tsx', () =>
  import('./GroupForm').then((m) => ({ default: m.GroupForm })),
);
/** The pre-enrolled list's edit dialog (Agregar dispositivo renders the same form as its page). */
export const DEVICE_FORM = lazyChunk<DeviceFormProps>('client/features/inventory/DeviceForm.tsx', () =>
  import('./DeviceForm').then((m) => ({ default: m.DeviceForm })),
);
export const ENROLLMENT_QR = lazyChunk<EnrollmentQrModalProps>('client/features/inventory/EnrollmentQrModal.tsx', () =>
  import('./EnrollmentQrModal').then((m) => ({ default: m.EnrollmentQrModal })),
);

/**
 * The devices list's detail and its overlays (actions, offline codes, bulk actions…), fetched once
 * the list is idle. Not in DIALOGS, which the server loads before its first render: the detail
 * opens from the URL (`?device=`), and a detail rendered by the server would need its chunk in
 * the browser before hydration.
 */
export const DEVICE_DETAIL = lazyChunk<ComponentProps<typeof DeviceDetail>>('client/features/inventory/DeviceDetail.tsx', () =>
  import('./DeviceDetail').then((m) => ({ default: m.DeviceDetail })),
);
export const ACTION_MODAL = lazyChunk<ComponentProps<typeof ActionModal>>('client/features/inventory/ActionModal.tsx', () =>
  import('./ActionModal').then((m) => ({ default: m.ActionModal })),
);
export const OFFLINE_CODE_MODAL = lazyChunk<ComponentProps<typeof OfflineCodeModal>>('client/features/inventory/OfflineCodeModal.tsx', () =>
  import('./OfflineCodeModal').then((m) => ({ default: m.OfflineCodeModal })),
);
export const REENROLLMENT_MODAL = lazyChunk<ComponentProps<typeof ReenrollmentModal>>('client/features/inventory/ReenrollmentModal.tsx', () =>
  import('./ReenrollmentModal').then((m) => ({ default: m.ReenrollmentModal })),
);
export const BULK_ACTION_MODAL = lazyChunk<ComponentProps<typeof BulkActionModal>>('client/features/inventory/BulkActionModal.tsx', () =>
  import('./BulkActionModal').then((m) => ({ default: m.BulkActionModal })),
);
export const DELIVER_RELEASE_MODAL = lazyChunk<ComponentProps<typeof DeliverReleaseModal>>('client/features/inventory/DeliverReleaseModal.tsx', () =>
  import('./DeliverReleaseModal').then((m) => ({ default: m.DeliverReleaseModal })),
);
export const CANCEL_COMMAND_MODAL = lazyChunk<ComponentProps<typeof CancelCommandModal>>('client/features/inventory/CancelCommandModal.tsx', () =>
  import('./CancelCommandModal').then((m) => ({ default: m.CancelCommandModal })),
);
/** What the devices list fetches once it is idle: a click on a row opens its detail at once. */
export const DEVICE_OVERLAYS = [
  DEVICE_DETAIL,
  ACTION_MODAL,
  OFFLINE_CODE_MODAL,
  REENROLLMENT_MODAL,
  BULK_ACTION_MODAL,
  DELIVER_RELEASE_MODAL,
  CANCEL_COMMAND_MODAL,
] as const;
