import { useMemo } from 'react';
import { useCurrentUser } from '../../auth/CurrentUserContext';

/** The device action codes the signed-in administrator's profile grants. */
export function useGrantedActions(): ReadonlySet<number> {
  const { user } = useCurrentUser();
  const actions = user.profile?.actions;
  return useMemo(() => new Set(actions ?? []), [actions]);
}
