import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { ApiErrorBody } from '../shared/contracts/apiError';
import { MESSAGES } from '../shared/messages';
import { isConnectionError } from './db/connectionErrors';

/** Seconds a client is asked to wait when the database is unreachable (about how long a recovery takes). */
export const DB_UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/**
 * The one error type the API throws: an HTTP status, a stable code, a Spanish message and,
 * when the error is about one input, that input's path (`field`, e.g. 'imei'), which a form
 * uses to show the message under the field.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

/** Unknown API paths: a JSON 404, never the HTML shell. */
export const apiNotFound: RequestHandler = (req, _res, next) => {
  next(new AppError(404, 'NOT_FOUND', MESSAGES.api.notFound));
};

interface HttpishError {
  status?: number;
  statusCode?: number;
  type?: string;
}

/** Answers every error as `{ message, code, field? }` (reference §8); 500s are logged, never detailed. */
export const errorHandler: ErrorRequestHandler = (err, req, res, _next) => {
  if (err instanceof AppError) {
    const body: ApiErrorBody = { message: err.message, code: err.code, ...(err.field !== undefined && { field: err.field }) };
    res.status(err.status).json(body);
    return;
  }
  const e = err as HttpishError;
  const status = e.status ?? e.statusCode ?? 500;
  if (e.type === 'entity.parse.failed') {
    res.status(400).json({ message: MESSAGES.api.invalidJson, code: 'INVALID_JSON' });
    return;
  }
  if (e.type === 'entity.too.large') {
    res.status(413).json({ message: MESSAGES.api.tooLarge, code: 'PAYLOAD_TOO_LARGE' });
    return;
  }
  // The database went away (outage, failover, restart): the request may succeed shortly.
  if (isConnectionError(err)) {
    req.log?.warn({ err }, 'database unavailable');
    res.set('Retry-After', String(DB_UNAVAILABLE_RETRY_AFTER_SECONDS));
    res.status(503).json({ message: MESSAGES.api.serviceUnavailable, code: 'SERVICE_UNAVAILABLE' });
    return;
  }
  if (status >= 400 && status < 500) {
    const notFound = status === 404;
    res.status(status).json({
      message: notFound ? MESSAGES.api.notFound : MESSAGES.api.badRequest,
      code: notFound ? 'NOT_FOUND' : 'BAD_REQUEST',
    });
    return;
  }
  req.log?.error({ err }, 'unhandled error');
  res.status(500).json({ message: MESSAGES.api.internal, code: 'INTERNAL' });
};
