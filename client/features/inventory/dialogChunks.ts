import { lazyChunk } from '../../app/lazyPage';
import type { EnrollmentQrModalProps } from './EnrollmentQrModal';
import type { GroupFormProps } from './GroupForm';

/**
 * The inventory's dialogs and dialogs' forms, each in a chunk of its own: react-hook-form and the
 * contracts' schemas load after the page has shown (useIdlePrefetch), not in its first load.
 */
export const GROUP_FORM = lazyChunk<GroupFormProps>('client/features/inventory/GroupForm.tsx', () =>
  import('./GroupForm').then((m) => ({ default: m.GroupForm })),
);
export const ENROLLMENT_QR = lazyChunk<EnrollmentQrModalProps>('client/features/inventory/EnrollmentQrModal.tsx', () =>
  import('./EnrollmentQrModal').then((m) => ({ default: m.EnrollmentQrModal })),
);
