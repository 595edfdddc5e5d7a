import type { RequestHandler } from 'express';
import { MESSAGES } from '../../shared/messages';
import type { TokenVerifiers } from '../auth/tokenVerifier';
import { AppError } from '../errors';

/** Who is calling, from verified tokens (never from what the client merely says). */
export interface AuthContext {
  username: string;
  sub: string;
  email: string;
  /** The sign-in the tokens come from (Cognito's `origin_jti`; kept through refreshes). */
  originJti?: string;
  /** When that sign-in happened (epoch seconds). */
  authTime: number;
  /** When the access token was issued (epoch seconds). */
  issuedAt: number;
  /** The key id of the access token (which identity service signed it). */
  kid?: string;
}

declare module 'express-serve-static-core' {
  interface Locals {
    auth?: AuthContext;
  }
}

/** The `kid` of a verified token's header. */
function kidOf(token: string): string | undefined {
  try {
    const header = JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString('utf8')) as { kid?: unknown };
    return typeof header.kid === 'string' ? header.kid : undefined;
  } catch {
    return undefined;
  }
}

const unauthorized = () => new AppError(401, 'UNAUTHORIZED', MESSAGES.api.unauthorized);

/**
 * Verifies the `AccessToken` and `IdToken` headers (reference §7) and that the `username`
 * header names the token's user. `RefreshToken` is never read. Any failure is a 401.
 */
export function authenticate(verifiers: TokenVerifiers): RequestHandler {
  return async (req, res, next) => {
    const accessToken = req.get('AccessToken');
    const idToken = req.get('IdToken');
    const username = req.get('username');
    if (!accessToken || !idToken || !username) throw unauthorized();
    let access, id;
    try {
      [access, id] = await Promise.all([verifiers.verifyAccess(accessToken), verifiers.verifyId(idToken)]);
    } catch {
      throw unauthorized();
    }
    if (id.sub !== access.sub || access.username !== username || typeof id.email !== 'string') throw unauthorized();
    res.locals.auth = {
      username: access.username,
      sub: access.sub,
      email: id.email,
      ...(typeof access.origin_jti === 'string' ? { originJti: access.origin_jti } : {}),
      authTime: typeof access.auth_time === 'number' ? access.auth_time : access.iat,
      issuedAt: access.iat,
      ...(kidOf(accessToken) ? { kid: kidOf(accessToken) } : {}),
    };
    next();
  };
}
