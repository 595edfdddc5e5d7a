import { lazyChunk } from '../../app/lazyPage';
import type { GroupFormProps } from './GroupForm';

/**
 * The inventory dialogs' forms, each in a chunk of its own: react-hook-form and the body's schema
 * load after the page has shown (useIdlePrefetch), not in its first load.
 */
export const GROUP_FORM = lazyChunk<GroupFormProps>('client/features/inventory/GroupForm.tsx', () =>
  import('./GroupForm').then((m) => ({ default: m.GroupForm })),
);
