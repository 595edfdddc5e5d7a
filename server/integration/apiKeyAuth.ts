import { timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import { rateLimit } from 'express-rate-limit';
import { apiKeyActor } from '../../shared/constants/integration';
import { INTEGRATION_MESSAGES as M } from '../../shared/areaMessages/integration';
import type { InventorySettings } from '../devices';
import { record } from '../audit/auditRepository';
import type { Db } from '../db/Db';
import { AppError } from '../errors';
import type { Logger } from '../logger';
import { ApiKeysRepository, type KeyForAuth } from './apiKeysRepository';
import { hashKey, prefixOf } from './apiKeysService';
import { ipAllowed } from './cidr';

/** The API key a request of the integration API is made with. */
export interface ApiKeyContext {
  id: number;
  name: string;
  prefix: string;
}

declare module 'express-serve-static-core' {
  interface Locals {
    apiKey?: ApiKeyContext;
  }
}

const sameHash = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** What a key may do: its role's grants, within what its creator holds now (nothing when the creator is disabled or gone). */
function effectiveGrants(k: KeyForAuth): { paths: Set<string>; actions: Set<number> } | undefined {
  if (!k.creator_enabled || !k.creator_paths || !k.creator_actions) return undefined;
  const creatorPaths = new Set(k.creator_paths);
  const creatorActions = new Set(k.creator_actions);
  return {
    paths: new Set((k.paths ?? []).filter((p) => creatorPaths.has(p))),
    actions: new Set((k.actions ?? []).filter((a) => creatorActions.has(a))),
  };
}

/** The key a request presents in `Authorization: Bearer <key>`, as written. */
const presentedKey = (req: Request): string | undefined => /^Bearer\s+(\S+)\s*$/i.exec(req.get('Authorization') ?? '')?.[1];

/**
 * Authenticates a request of the integration API by `Authorization: Bearer <key>`: the key must
 * exist with that secret (compared by its SHA-256, in constant time), not be revoked or expired,
 * be used from an allowed address, and have a creator who is still enabled. It then acts with
 * its grants: the routes' guards check them like an administrator's. A refused use of a known
 * key is audited (its name as the actor); a malformed or unknown key is a plain 401.
 */
export function apiKeyAuth(db: Db, settings: InventorySettings, logger: Logger): RequestHandler {
  return async (req, res, next) => {
    const token = presentedKey(req);
    if (!token) throw new AppError(401, 'API_KEY_MISSING', M.apiKeys.missing);
    const prefix = prefixOf(token);
    const repo = new ApiKeysRepository(db);
    const key = prefix === undefined ? undefined : await repo.forAuth(prefix);
    if (!key || !sameHash(hashKey(token), key.secret_hash)) throw new AppError(401, 'API_KEY_INVALID', M.apiKeys.invalid);
    const now = settings.now();
    const refuse = async (status: number, code: string, message: string): Promise<never> => {
      await record(db, {
        actor: { adminId: null, email: apiKeyActor(key.name), ip: req.ip ?? null, requestId: req.id === undefined ? null : String(req.id) },
        entity: 'api_key',
        entityId: key.id,
        action: 'refuse',
        outcome: 'failure',
        detail: `${code}: ${req.method} ${req.originalUrl.split('?')[0]}`,
      }).catch((err: unknown) => logger.error({ err }, 'could not audit a refused API key'));
      throw new AppError(status, code, message);
    };
    if (key.revoked_at !== null) await refuse(401, 'API_KEY_REVOKED', M.apiKeys.revoked);
    if (key.expires_at !== null && new Date(key.expires_at) <= now) await refuse(401, 'API_KEY_EXPIRED', M.apiKeys.expired);
    if (!ipAllowed(key.allowed_ips, req.ip)) await refuse(403, 'API_KEY_IP_REFUSED', M.apiKeys.ipRefused(req.ip ?? '?'));
    const grants = effectiveGrants(key);
    if (!grants) await refuse(403, 'API_KEY_CREATOR_DISABLED', M.apiKeys.creatorDisabled);
    res.locals.apiKey = { id: key.id, name: key.name, prefix: key.prefix };
    res.locals.grants = { adminId: 0, ...grants! };
    await repo.touch(key.id, req.ip ?? null, now);
    next();
  };
}

/**
 * Requests per minute and key (counted by each replica), answered 429 with Retry-After and a
 * Spanish message. It runs before the key is checked, counting by the key's public prefix (by the
 * client address when no well-formed key is presented): a revoked key, or one used from a refused
 * address, cannot fill the audit log with refusals faster than the limit.
 */
export function apiKeyRateLimit(perMinute: number): RequestHandler {
  return rateLimit({
    windowMs: 60_000,
    limit: perMinute,
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    keyGenerator: (req) => {
      const prefix = prefixOf(presentedKey(req) ?? '');
      return prefix ? `key:${prefix}` : `ip:${req.ip ?? ''}`;
    },
    validate: { xForwardedForHeader: false, keyGeneratorIpFallback: false },
    handler: (req, res) => {
      const reset = (req as { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime;
      const seconds = Math.max(1, Math.ceil(((reset?.getTime() ?? Date.now() + 60_000) - Date.now()) / 1000));
      res.setHeader('Retry-After', String(seconds));
      res.status(429).json({ code: 'RATE_LIMITED', message: M.apiKeys.rateLimited(seconds) });
    },
  });
}
