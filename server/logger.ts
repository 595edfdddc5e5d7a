import pino, { type Logger } from 'pino';

/** Header names whose values never reach a log line (lower case, as Node stores them). */
export const REDACTED_HEADERS = ['accesstoken', 'idtoken', 'refreshtoken', 'authorization', 'cookie'] as const;

export const REDACT_PATHS = [
  ...REDACTED_HEADERS.map((h) => `req.headers.${h}`),
  'res.headers["set-cookie"]',
];

/** JSON logs to stdout (or to `destination` in tests), with the auth headers redacted. */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'portal' },
      redact: { paths: REDACT_PATHS, censor: '[REDACTED]' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination,
  );
}

export type { Logger };
