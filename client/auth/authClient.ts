import {
  AuthenticationDetails,
  CognitoAccessToken,
  CognitoUser,
  CognitoUserPool,
  type CognitoUserSession,
  type ICognitoStorage,
} from 'amazon-cognito-identity-js';
import { TOKEN_REFRESH_THRESHOLD_SECONDS } from '../../shared/constants/business';
import type { PublicConfig } from '../../shared/contracts/publicConfig';
import { SessionUnreadableError } from './sessionErrors';

/** What the API calls carry (reference §7) and who is signed in. */
export interface SessionTokens {
  username: string;
  email: string;
  accessToken: string;
  idToken: string;
  refreshToken: string;
}

export type SignInResult =
  { status: 'signedIn'; tokens: SessionTokens } | { status: 'newPasswordRequired'; complete(newPassword: string): Promise<SessionTokens> };

/** An error of the identity service, as the client library reports it. */
export interface AuthError extends Error {
  code?: string;
}

/** The stored session cannot be used and there is no way to renew it: sign in again. */
export class SessionExpiredError extends Error {
  constructor(message = 'session expired') {
    super(message);
    this.name = 'SessionExpiredError';
  }
}

function tokensOf(user: CognitoUser, session: CognitoUserSession): SessionTokens {
  const id = session.getIdToken();
  return {
    username: user.getUsername(),
    email: String(id.decodePayload().email ?? ''),
    accessToken: session.getAccessToken().getJwtToken(),
    idToken: id.getJwtToken(),
    refreshToken: session.getRefreshToken().getToken(),
  };
}

/**
 * The browser's side of sign-in, built on the unmodified amazon-cognito-identity-js (SRP).
 * The same code talks to a real Cognito pool or to the portal's embedded endpoint.
 */
export class AuthClient {
  private readonly pool: CognitoUserPool;
  private refreshing?: Promise<SessionTokens>;

  constructor(
    config: PublicConfig['cognito'],
    private readonly storage: ICognitoStorage,
    origin: string,
    private readonly nowSeconds: () => number = () => Math.floor(Date.now() / 1000),
  ) {
    this.pool = new CognitoUserPool({
      UserPoolId: config.userPoolId,
      ClientId: config.clientId,
      ...(config.endpoint ? { endpoint: new URL(config.endpoint, origin).href } : {}),
      Storage: storage,
    });
  }

  private user(username: string): CognitoUser {
    return new CognitoUser({ Username: username, Pool: this.pool, Storage: this.storage });
  }

  signIn(email: string, password: string): Promise<SignInResult> {
    const user = this.user(email.trim());
    return new Promise((resolve, reject) => {
      user.authenticateUser(new AuthenticationDetails({ Username: email.trim(), Password: password }), {
        onSuccess: (session) => resolve({ status: 'signedIn', tokens: tokensOf(user, session) }),
        onFailure: reject,
        newPasswordRequired: () =>
          resolve({
            status: 'newPasswordRequired',
            complete: (newPassword: string) =>
              new Promise<SessionTokens>((res, rej) =>
                user.completeNewPasswordChallenge(
                  newPassword,
                  {},
                  {
                    onSuccess: (session) => res(tokensOf(user, session)),
                    onFailure: rej,
                  },
                ),
              ),
          }),
      });
    });
  }

  /** True when a signed-in user is remembered in storage (no network). */
  hasStoredSession(): boolean {
    return this.pool.getCurrentUser() !== null;
  }

  /**
   * The current tokens, refreshed first when the access token has TOKEN_REFRESH_THRESHOLD_SECONDS
   * or less to live. Null when nobody is signed in; SessionExpiredError when the refresh fails.
   */
  async getTokens(): Promise<SessionTokens | null> {
    const user = this.pool.getCurrentUser();
    if (!user) return null;
    this.assertReadable(user.getUsername());
    let session: CognitoUserSession;
    try {
      session = await new Promise<CognitoUserSession>((resolve, reject) =>
        user.getSession((err: Error | null, s: CognitoUserSession | null) => (err || !s ? reject(err ?? new Error('no session')) : resolve(s))),
      );
    } catch (err) {
      throw new SessionExpiredError((err as Error | undefined)?.message);
    }
    // Local clock minus server clock, as the library computes it (its type declarations omit it).
    const drift = (session as unknown as { getClockDrift(): number }).getClockDrift();
    const expiresIn = session.getAccessToken().getExpiration() - (this.nowSeconds() - drift);
    if (expiresIn > TOKEN_REFRESH_THRESHOLD_SECONDS) return tokensOf(user, session);
    this.refreshing ??= this.refresh(user, session).finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  /** Stored tokens that do not decode to a JWT with an expiry make the session unreadable. */
  private assertReadable(username: string): void {
    const prefix = `CognitoIdentityServiceProvider.${this.pool.getClientId()}.${username}`;
    for (const key of ['idToken', 'accessToken']) {
      const stored = this.storage.getItem(`${prefix}.${key}`);
      if (stored === null) continue;
      if (!new CognitoAccessToken({ AccessToken: stored }).getExpiration()) throw new SessionUnreadableError(key);
    }
  }

  private refresh(user: CognitoUser, session: CognitoUserSession): Promise<SessionTokens> {
    return new Promise((resolve, reject) =>
      user.refreshSession(session.getRefreshToken(), (err: Error | null, fresh: CognitoUserSession | null) =>
        err || !fresh ? reject(new SessionExpiredError(err?.message)) : resolve(tokensOf(user, fresh)),
      ),
    );
  }

  /** Ends the session at the identity service (revokes the refresh token) and locally. */
  async signOut(): Promise<void> {
    const user = this.pool.getCurrentUser();
    if (!user) return;
    await new Promise<void>((resolve) => {
      try {
        user.signOut(() => resolve());
      } catch {
        user.signOut();
        resolve();
      }
    });
  }

  /** Forgets the session locally only (the refresh token may already be invalid). */
  signOutLocally(): void {
    this.pool.getCurrentUser()?.signOut();
  }

  async changePassword(previous: string, proposed: string): Promise<void> {
    const user = this.pool.getCurrentUser();
    if (!user) throw new SessionExpiredError();
    await new Promise<void>((resolve, reject) =>
      user.getSession((err: Error | null) => {
        if (err) return reject(new SessionExpiredError(err.message));
        user.changePassword(previous, proposed, (e?: Error) => (e ? reject(e) : resolve()));
      }),
    );
  }

  forgotPassword(email: string): Promise<void> {
    const user = this.user(email.trim());
    return new Promise((resolve, reject) =>
      user.forgotPassword({ onSuccess: () => resolve(), onFailure: reject, inputVerificationCode: () => resolve() }),
    );
  }

  confirmForgotPassword(email: string, code: string, password: string): Promise<void> {
    const user = this.user(email.trim());
    return new Promise((resolve, reject) => user.confirmPassword(code.trim(), password, { onSuccess: () => resolve(), onFailure: reject }));
  }
}
