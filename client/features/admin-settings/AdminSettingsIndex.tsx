import { Navigate } from 'react-router';
import { MENU } from '../../../shared/constants/routes';
import type { PageProps } from '../../app/lazyPage';
import { useCurrentUser } from '../../auth/CurrentUserContext';

const CHILDREN = MENU.find((m) => m.path === '/admin-settings')?.submodules.map((s) => s.path) ?? [];

/** /admin-settings: the first of its pages the profile allows. */
export default function AdminSettingsIndex({ path }: PageProps) {
  const { allowed } = useCurrentUser();
  const target = CHILDREN.find((p) => allowed.has(p));
  return <Navigate replace to={target ?? `${path}/admins`} />;
}
