import type { AuthClient } from './authClient';

/**
 * The headers of every API call (specification §7) from the current, refreshed-if-needed
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
