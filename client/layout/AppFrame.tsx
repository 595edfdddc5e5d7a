import type { ReactNode } from 'react';
import { RequireAuth } from './RequireAuth';

/** The chunk of the signed-in frame (see APP_FRAME in app/pages.ts). */
export default function AppFrame({ path, children }: { path: string; children: ReactNode }) {
  return <RequireAuth path={path}>{children}</RequireAuth>;
}
