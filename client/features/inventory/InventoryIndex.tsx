import { Navigate } from 'react-router-dom';
import { MENU, PATHS } from '../../../shared/constants/routes';
import type { PageProps } from '../../app/lazyPage';
import { useCurrentUser } from '../../auth/CurrentUserContext';

const CHILDREN = MENU.find((m) => m.path === PATHS.inventory)?.submodules.map((s) => s.path) ?? [];

/** /inventory-management: the first of its pages the profile allows. */
export default function InventoryIndex({ path }: PageProps) {
  const { allowed } = useCurrentUser();
  const target = CHILDREN.find((p) => allowed.has(p));
  return <Navigate replace to={target ?? `${path}/devices`} />;
}
