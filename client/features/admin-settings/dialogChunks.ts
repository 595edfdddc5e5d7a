import { lazyChunk } from '../../app/lazyPage';
import type { AdminFormProps } from './AdminForm';
import type { RoleFormProps } from './RoleForm';

/**
 * The administrator and role dialogs' forms, each in a chunk of its own: react-hook-form and the
 * body's schema load after the page has shown (useIdlePrefetch), not in its first load.
 */
export const ADMIN_FORM = lazyChunk<AdminFormProps>('client/features/admin-settings/AdminForm.tsx', () =>
  import('./AdminForm').then((m) => ({ default: m.AdminForm })),
);
export const ROLE_FORM = lazyChunk<RoleFormProps>('client/features/admin-settings/RoleForm.tsx', () =>
  import('./RoleForm').then((m) => ({ default: m.RoleForm })),
);
