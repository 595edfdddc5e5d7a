import { createContext, useContext } from 'react';
import type { AuthClient } from './authClient';

/**
 * Loads the browser's AuthClient (amazon-cognito-identity-js) on first use, so the sign-in
 * library is not part of the first download of a page that does not need it yet.
 */
export type AuthLoader = () => Promise<AuthClient>;

const AuthContext = createContext<AuthLoader | null>(null);

export const AuthProvider = AuthContext.Provider;

/** The loader of the browser's AuthClient; null while rendering on the server. */
export function useAuthClient(): AuthLoader | null {
  return useContext(AuthContext);
}
