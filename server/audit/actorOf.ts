import type { Request, Response } from 'express';
import { apiKeyActor } from '../../shared/constants/integration';
import type { AuditActor } from './auditRepository';

/**
 * The audit actor of an API request: the guarded caller (an administrator, or an API key named
 * by its name), the client IP and the request id.
 */
export function actorOf(req: Request, res: Response): AuditActor {
  const key = res.locals.apiKey;
  if (key) return { adminId: null, email: apiKeyActor(key.name), ip: req.ip ?? null, requestId: req.id === undefined ? null : String(req.id) };
  return {
    adminId: res.locals.grants?.adminId ?? null,
    email: res.locals.auth?.email ?? null,
    ip: req.ip ?? null,
    requestId: req.id === undefined ? null : String(req.id),
  };
}
