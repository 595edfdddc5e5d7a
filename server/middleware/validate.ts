import type { RequestHandler } from 'express';
import type * as z from 'zod';
import { AppError } from '../errors';

/** Validates `req.body` with a shared schema; a 400 names the first bad field in Spanish. */
export function validateBody(schema: z.ZodType): RequestHandler {
  return (req, _res, next) => {
    const result = schema.safeParse(req.body ?? {});
    if (!result.success) {
      const issue = result.error.issues[0]!;
      const field = issue.path.join('.') || 'cuerpo';
      const message = issue.code === 'invalid_type' && issue.input === undefined ? `El campo ${field} es obligatorio` : issue.message;
      throw new AppError(400, 'VALIDATION', message);
    }
    req.body = result.data;
    next();
  };
}
