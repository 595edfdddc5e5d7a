import type { ReactNode } from 'react';
import type { RoutePath } from '../../shared/constants/routes';
import { RequireAuth } from './RequireAuth';

/** The chunk of the signed-in frame (see APP_FRAME in app/pages.ts). */
export default function AppFrame({ path, children }: { path: RoutePath; children: ReactNode }) {
  return <RequireAuth path={path}>{children}</RequireAuth>;
}
