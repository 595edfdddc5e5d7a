/**
 * Errors that mean "the database is not reachable right now" rather than "this request is
 * wrong": the API answers them with 503 and Retry-After, the job runner leaves the job to be
 * resumed, and start-up waits and tries again.
 */

/** Socket and name-resolution failures of the connection to the database. */
const NETWORK_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** What `pg` and `pg-pool` throw when a connection ends, cannot be made in time or was lost. */
const DRIVER_MESSAGES: readonly RegExp[] = [
  /^Connection terminated/,
  /connection error and is not queryable/,
  /^Client was closed and is not queryable/,
  /timeout exceeded when trying to connect/,
  /^Cannot use a pool after calling end on the pool/,
];

interface ErrorLike {
  code?: unknown;
  message?: unknown;
  cause?: unknown;
  errors?: unknown;
}

/**
 * True for connection-class failures: connection refused, reset or timed out, the connection
 * terminated, SQLSTATE class 08 (connection exception) and 57P (operator intervention: the
 * server is shutting down, crashed, not yet accepting connections, or the database was dropped).
 * Looks through `cause` and the errors of an AggregateError (both IPv4 and IPv6 refused).
 */
export function isConnectionError(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 5) return false;
  const e = err as ErrorLike;
  if (typeof e.code === 'string') {
    if (NETWORK_CODES.has(e.code)) return true;
    if (/^08[0-9A-Z]{3}$/.test(e.code) || /^57P[0-9A-Z]{2}$/.test(e.code)) return true;
  }
  if (typeof e.message === 'string' && DRIVER_MESSAGES.some((re) => re.test(e.message as string))) return true;
  if (Array.isArray(e.errors) && e.errors.some((x) => isConnectionError(x, depth + 1))) return true;
  return isConnectionError(e.cause, depth + 1);
}
