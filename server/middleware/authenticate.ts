import type { RequestHandler } from 'express';
import { MESSAGES } from '../../shared/messages';
import type { TokenVerifiers } from '../auth/tokenVerifier';
import { AppError } from '../errors';

/** Who is calling, from verified tokens (never from what the client merely says). */
export interface AuthContext {
  username: string;
  sub: string;
  email: string;
}

declare module 'express-serve-static-core' {
  interface Locals {
    auth?: AuthContext;
  }
}

const unauthorized = () => new AppError(401, 'UNAUTHORIZED', MESSAGES.api.unauthorized);

/**
 * Verifies the `AccessToken` and `IdToken` headers (specification §7) and that the `username`
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
    res.locals.auth = { username: access.username, sub: access.sub, email: id.email };
    next();
  };
}
