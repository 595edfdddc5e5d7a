import type { Config } from '../config';
import type { Db } from '../db/Db';
import type { Logger } from '../logger';
import { createTokenVerifiers, type TokenVerifiers } from '../auth/tokenVerifier';
import { record } from '../audit/auditRepository';
import { joinTransactions } from '../db/transactionScope';
import type { IdentityDirectory } from './IdentityDirectory';
import { cognitoDirectory } from './cognitoDirectory';
import { embeddedDirectory } from './embeddedDirectory';
import { IdentityService } from './identityService';

export interface IdentityRuntime {
  identity?: IdentityService;
  verifiers: TokenVerifiers;
  /** Administrator operations on the identity users of the configured mode. */
  directory: IdentityDirectory;
}

/**
 * Embedded mode: the identity endpoint with its keys (created on first start, from the
 * database afterwards) and verifiers holding those keys. Cognito mode: verifiers that fetch
 * the real pool's JWKS over HTTPS; no endpoint.
 */
export async function createIdentity(config: Config, db: Db, logger: Logger, now?: () => number): Promise<IdentityRuntime> {
  const { mode, region, userPoolId, clientId } = config.identity;
  if (mode === 'cognito') {
    return { verifiers: createTokenVerifiers({ userPoolId, clientId }), directory: cognitoDirectory({ region, userPoolId }) };
  }
  if (config.env === 'production') {
    logger.warn('IDENTITY_MODE=embedded in production: the built-in identity endpoint serves sign-in instead of Cognito');
  }
  // Its statements join the portal's transaction when called from one (transactionScope): an
  // administrator and their identity user are created, changed and deleted together.
  const identity = await IdentityService.create(joinTransactions(db), {
    region,
    userPoolId,
    clientId,
    accessTokenTtlSeconds: config.tokens.accessTtlSeconds,
    refreshTokenTtlSeconds: config.tokens.refreshTtlSeconds,
    logger,
    now,
    // The forgotten-password code goes to the log only outside production.
    logResetCodes: config.env !== 'production',
    // Sign-ins are audited (with the typed name; never the password).
    onSignIn: (e) =>
      record(db, {
        actor: { adminId: null, email: e.username || null, ip: e.ip ?? null, requestId: e.requestId ?? null },
        entity: 'session',
        action: 'sign_in',
        outcome: e.outcome,
        detail: e.reason ?? null,
      }),
  });
  return { identity, verifiers: identity.verifiers, directory: embeddedDirectory(identity) };
}
