import pino, { type Logger } from 'pino';
import { maskSecrets, secretValues } from './config';

/** Header names whose values never reach a log line (lower case, as Node stores them). */
export const REDACTED_HEADERS = ['accesstoken', 'idtoken', 'refreshtoken', 'authorization', 'cookie'] as const;

export const REDACT_PATHS = [...REDACTED_HEADERS.map((h) => `req.headers.${h}`), 'res.headers["set-cookie"]'];

/**
 * JSON logs to stdout (or to `destination` in tests), with the auth headers redacted and every
 * secret masked in every line: connection-URL passwords and the values of the secret variables
 * (`secrets`, by default those of this process's environment; see SECRET_VARIABLES).
 */
export function createLogger(level: string, destination?: pino.DestinationStream, secrets: readonly string[] = secretValues(process.env)): Logger {
  return pino(
    {
      level,
      base: { service: 'portal' },
      redact: { paths: REDACT_PATHS, censor: '[REDACTED]' },
      timestamp: pino.stdTimeFunctions.isoTime,
      hooks: { streamWrite: (line) => maskSecrets(line, secrets) },
    },
    destination,
  );
}

export type { Logger };
