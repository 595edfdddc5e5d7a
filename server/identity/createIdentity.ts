import type { Config } from '../config';
import type { Db } from '../db/Db';
import type { Logger } from '../logger';
import { createTokenVerifiers, type TokenVerifiers } from '../auth/tokenVerifier';
import { IdentityService } from './identityService';

export interface IdentityRuntime {
  identity?: IdentityService;
  verifiers: TokenVerifiers;
}

/**
 * Embedded mode: the identity endpoint with its keys (created on first start, from the
 * database afterwards) and verifiers holding those keys. Cognito mode: verifiers that fetch
 * the real pool's JWKS over HTTPS; no endpoint.
 */
export async function createIdentity(config: Config, db: Db, logger: Logger, now?: () => number): Promise<IdentityRuntime> {
  const { mode, region, userPoolId, clientId } = config.identity;
  if (mode === 'cognito') return { verifiers: createTokenVerifiers({ userPoolId, clientId }) };
  if (config.env === 'production') {
    logger.warn('IDENTITY_MODE=embedded in production: the built-in identity endpoint serves sign-in instead of Cognito');
  }
  const identity = await IdentityService.create(db, {
    region,
    userPoolId,
    clientId,
    accessTokenTtlSeconds: config.tokens.accessTtlSeconds,
    refreshTokenTtlSeconds: config.tokens.refreshTtlSeconds,
    logger,
    now,
  });
  return { identity, verifiers: identity.verifiers };
}
