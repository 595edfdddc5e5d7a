import type { Request, Response } from 'express';
import type { AuditActor } from './auditRepository';

/** The audit actor of an API request: the guarded caller, the client IP and the request id. */
export function actorOf(req: Request, res: Response): AuditActor {
  return {
    adminId: res.locals.grants?.adminId ?? null,
    email: res.locals.auth?.email ?? null,
    ip: req.ip ?? null,
    requestId: req.id === undefined ? null : String(req.id),
  };
}
