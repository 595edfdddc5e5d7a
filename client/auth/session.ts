import { API_PATHS } from '../../shared/constants/apiPaths';
import type { AuthClient } from './authClient';

/**
 * The headers of every API call (reference §7) from the current, refreshed-if-needed
 * session. Rejects when there is no usable session.
 */
export async function sessionHeaders(auth: AuthClient, sendRefreshToken: boolean): Promise<Record<string, string>> {
  const tokens = await auth.getTokens();
  if (!tokens) throw new Error('no session');
  return {
    username: tokens.username,
    AccessToken: tokens.accessToken,
    IdToken: tokens.idToken,
    ...(sendRefreshToken ? { RefreshToken: tokens.refreshToken } : {}),
  };
}

/** Signs out locally, clears the browser's storage and loads `to` (a fresh page, a fresh store). */
export function endSession(auth: AuthClient, to: string): void {
  auth.signOutLocally();
  window.localStorage.clear();
  window.location.assign(to);
}

/**
 * Ends the current sign-in for the API (POST /v5/users/signOut) before the browser forgets it:
 * with a Cognito pool its access token would otherwise stay valid until it expires. Best
 * effort: a session that is already over has nothing to end.
 */
export async function signOutOnServer(auth: AuthClient, apiBase: string, sendRefreshToken: boolean): Promise<void> {
  const headers = await sessionHeaders(auth, sendRefreshToken);
  const { default: axios } = await import('axios');
  await axios.post(API_PATHS.users.signOut(), null, { baseURL: apiBase, headers });
}
