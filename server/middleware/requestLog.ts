import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { IncomingMessage } from 'node:http';
import type { Level } from 'pino';
import type { Logger } from '../logger';

declare module 'node:http' {
  interface IncomingMessage {
    /** The request id: the caller's valid `x-request-id`, else a new UUID (answered in the header). */
    id?: string;
    /** Logs lines that carry this request. */
    log?: RequestLogger;
  }
}

/**
 * A request's logger: the lines it writes carry the request (id, method, URL, headers, address),
 * serialised by a child logger built at its first line; a request that logs nothing builds none.
 */
export class RequestLogger {
  #child: Logger | undefined;
  constructor(
    private readonly logger: Logger,
    private readonly req: IncomingMessage & { originalUrl?: string },
  ) {}

  /** The child logger with this request, built once. */
  get child(): Logger {
    const { req } = this;
    return (this.#child ??= this.logger.child({
      req: { id: req.id, method: req.method, url: req.originalUrl ?? req.url, headers: req.headers, remoteAddress: req.socket.remoteAddress },
    }));
  }

  fatal(obj: unknown, msg?: string): void {
    this.child.fatal(obj, msg);
  }
  error(obj: unknown, msg?: string): void {
    this.child.error(obj, msg);
  }
  warn(obj: unknown, msg?: string): void {
    this.child.warn(obj, msg);
  }
  info(obj: unknown, msg?: string): void {
    this.child.info(obj, msg);
  }
  debug(obj: unknown, msg?: string): void {
    this.child.debug(obj, msg);
  }
}

const REQUEST_ID = /^[\w.:-]{1,128}$/;

export type RequestLogLevel = Exclude<Level, 'trace'> | 'silent';

export interface RequestLogOptions {
  /** The level of a finished request's line ('silent': none). */
  level(status: number, url: string): RequestLogLevel;
  /** The message of that line. */
  message: string;
}

/**
 * Request ids and request logging, for the portal's pages and APIs and for the agent's API.
 *
 * A finished request is logged at `level(status)` with the request (id, method, URL, headers,
 * address: the auth headers redacted by the logger), its status and its time, like pino-http's
 * lines. Unlike pino-http, nothing is serialised for a request that logs nothing: pino-http builds
 * a child logger with the serialised request at the start of every request, whatever the level
 * (a large share of the CPU of a cached page). Here `req.log` builds its child at its first line,
 * and the finished line is written only when its level is enabled.
 */
export function requestLog(logger: Logger, options: RequestLogOptions): RequestHandler {
  return (req, res, next) => {
    const incoming = req.headers['x-request-id'];
    const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    req.id = id;
    res.setHeader('x-request-id', id);
    const log = new RequestLogger(logger, req);
    req.log = log;
    const start = Date.now();
    // 'close' comes once per response, after 'finish' when it was sent whole, alone when the
    // client went away first.
    res.on('close', () => {
      const status = res.statusCode;
      const level = options.level(status, req.originalUrl);
      if (level === 'silent' || !logger.isLevelEnabled(level)) return;
      // Whole milliseconds, as pino-http wrote them.
      const responseTime = Date.now() - start;
      const fields = { res: { statusCode: status }, responseTime, ...(res.writableFinished ? {} : { aborted: true }) };
      log[level](status >= 500 ? { ...fields, err: new Error(`failed with status code ${status}`) } : fields, options.message);
    });
    next();
  };
}
