import { CognitoJwtVerifier } from 'aws-jwt-verify';
import { SimpleJwksCache } from 'aws-jwt-verify/jwk';
import type { CognitoAccessTokenPayload, CognitoIdTokenPayload } from 'aws-jwt-verify/jwt-model';

export interface TokenVerifiers {
  /** RS256, issuer, `token_use=access`, `client_id`, expiry. */
  verifyAccess(token: string): Promise<CognitoAccessTokenPayload>;
  /** RS256, issuer, `token_use=id`, `aud` = client id, expiry. */
  verifyId(token: string): Promise<CognitoIdTokenPayload>;
  /** Loads the pool's keys (JWKS) ahead of the first request; immediate for the embedded keys. */
  hydrate(): Promise<void>;
}

export interface VerifierOptions {
  userPoolId: string;
  clientId: string;
  /** The embedded endpoint's keys, loaded in-process; absent for a real pool (JWKS over HTTPS). */
  jwks?: { keys: object[] };
}

const rs256Only = ({ header }: { header: { alg?: string } }) => {
  if (header.alg !== 'RS256') throw new Error('Only RS256 tokens are accepted');
};

/**
 * The one verifier code for both identity modes: aws-jwt-verify's CognitoJwtVerifier. With
 * the embedded endpoint its keys are cached up front and nothing is ever fetched.
 */
export function createTokenVerifiers(opts: VerifierOptions): TokenVerifiers {
  const jwksCache = opts.jwks
    ? new SimpleJwksCache({
        fetcher: {
          fetch: () => Promise.reject(new Error('The embedded identity keys are loaded in-process')),
        },
      })
    : undefined;
  const common = { userPoolId: opts.userPoolId, clientId: opts.clientId, customJwtCheck: rs256Only };
  const access = CognitoJwtVerifier.create({ ...common, tokenUse: 'access' as const }, jwksCache ? { jwksCache } : undefined);
  const id = CognitoJwtVerifier.create({ ...common, tokenUse: 'id' as const }, jwksCache ? { jwksCache } : undefined);
  if (opts.jwks) {
    access.cacheJwks(opts.jwks as never);
    id.cacheJwks(opts.jwks as never);
  }
  return {
    verifyAccess: (token) => access.verify(token) as Promise<CognitoAccessTokenPayload>,
    verifyId: (token) => id.verify(token) as Promise<CognitoIdTokenPayload>,
    hydrate: () => (opts.jwks ? Promise.resolve() : access.hydrate()),
  };
}
