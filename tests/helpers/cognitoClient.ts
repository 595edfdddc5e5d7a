import { AuthenticationDetails, CognitoUser, CognitoUserPool, type CognitoUserSession } from 'amazon-cognito-identity-js';
import { MemoryStorage } from '../../tools/simulator/portalApi';

/** A Storage the tests can read: what the browser keeps in localStorage. */
export { MemoryStorage };

export interface PoolHandle {
  pool: CognitoUserPool;
  storage: MemoryStorage;
  clientId: string;
}

/** The unmodified client library pointed at a running server's embedded endpoint. */
export function makePool(baseUrl: string, userPoolId: string, clientId: string): PoolHandle {
  const storage = new MemoryStorage();
  const pool = new CognitoUserPool({ UserPoolId: userPoolId, ClientId: clientId, endpoint: `${baseUrl}/cognito/`, Storage: storage });
  return { pool, storage, clientId };
}

export type SignInOutcome =
  | { kind: 'session'; user: CognitoUser; session: CognitoUserSession }
  | { kind: 'newPassword'; user: CognitoUser; userAttributes: Record<string, unknown> };

export interface CognitoClientError extends Error {
  code: string;
}

/** `authenticateUser` as a promise; SRP by default, USER_PASSWORD_AUTH when asked. */
export function signIn(
  h: PoolHandle,
  username: string,
  password: string,
  flow: 'USER_SRP_AUTH' | 'USER_PASSWORD_AUTH' = 'USER_SRP_AUTH',
): Promise<SignInOutcome> {
  const user = new CognitoUser({ Username: username, Pool: h.pool, Storage: h.storage });
  user.setAuthenticationFlowType(flow);
  return new Promise((resolve, reject) => {
    user.authenticateUser(new AuthenticationDetails({ Username: username, Password: password }), {
      onSuccess: (session) => resolve({ kind: 'session', user, session }),
      onFailure: (err: CognitoClientError) => reject(err),
      newPasswordRequired: (userAttributes: Record<string, unknown>) => resolve({ kind: 'newPassword', user, userAttributes }),
    });
  });
}

export function completeNewPassword(user: CognitoUser, newPassword: string, attributes: Record<string, string> = {}): Promise<CognitoUserSession> {
  return new Promise((resolve, reject) => {
    user.completeNewPasswordChallenge(newPassword, attributes, {
      onSuccess: resolve,
      onFailure: reject,
    });
  });
}

export function getSession(user: CognitoUser): Promise<CognitoUserSession> {
  return new Promise((resolve, reject) => user.getSession((err: Error | null, s: CognitoUserSession | null) => (err ? reject(err) : resolve(s!))));
}

export function cb<T>(fn: (done: (err: Error | null | undefined, value?: T) => void) => void): Promise<T> {
  return new Promise((resolve, reject) => fn((err, value) => (err ? reject(err) : resolve(value as T))));
}

/** Rejection of a promise as the client's error (code and message). */
export async function failure(p: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await p;
  } catch (err) {
    const e = err as CognitoClientError;
    return { code: e.code, message: e.message };
  }
  throw new Error('expected a failure');
}
