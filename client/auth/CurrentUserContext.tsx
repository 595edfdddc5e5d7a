import { createContext, useContext } from 'react';
import type { PortalUser } from '../api/portalApi';

export interface CurrentUser {
  user: PortalUser;
  /** Paths the profile grants (reference §3). */
  allowed: Set<string>;
}

const CurrentUserContext = createContext<CurrentUser | null>(null);

export const CurrentUserProvider = CurrentUserContext.Provider;

/** The signed-in administrator and their grants; only inside RequireAuth. */
export function useCurrentUser(): CurrentUser {
  const value = useContext(CurrentUserContext);
  if (!value) throw new Error('useCurrentUser outside RequireAuth');
  return value;
}
