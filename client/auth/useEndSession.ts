import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { apiSlice } from '../api/apiSlice';
import { useAppDispatch } from '../app/hooks';
import { usePortalConfig } from '../app/PortalConfigContext';
import { useAuthClient } from './AuthContext';
import { signOutOnServer } from './session';
import { signedOut } from './sessionSlice';

/**
 * Ends the session inside the app: optionally revokes it (for the API, then at the identity
 * service), clears the browser's storage and the API cache, and goes to `to` (replacing
 * history, so Back does not re-enter a protected page).
 */
export function useEndSession() {
  const auth = useAuthClient();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const { apiBase, apiSendRefreshToken } = usePortalConfig();
  return useCallback(
    async (to: string, opts: { revoke?: boolean } = {}) => {
      if (auth) {
        const client = await auth();
        if (opts.revoke) {
          await signOutOnServer(client, apiBase, apiSendRefreshToken).catch(() => undefined);
          await client.signOut().catch(() => client.signOutLocally());
        } else client.signOutLocally();
      }
      window.localStorage.clear();
      dispatch(signedOut());
      dispatch(apiSlice.util.resetApiState());
      navigate(to, { replace: true });
    },
    [auth, dispatch, navigate, apiBase, apiSendRefreshToken],
  );
}
