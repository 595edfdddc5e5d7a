import { isConnectionError } from './connectionErrors';

export interface StartupRetryOptions {
  /** Wait before the second attempt; doubled after each failure. */
  firstDelayMs: number;
  /** Longest wait between two attempts. */
  maxDelayMs: number;
  /** No new attempt starts after this long since the first: the last error is thrown. */
  giveUpAfterMs: number;
  /** Told before each wait (the caller logs it). */
  onRetry?: (info: { attempt: number; delayMs: number; elapsedMs: number; err: unknown }) => void;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

/**
 * Start-up with the database not reachable yet (its pod still starting): 0.5 s, 1 s, 2 s, 4 s,
 * then every 5 s, for up to 60 s, before the process gives up and exits.
 */
export const DATABASE_STARTUP_RETRY: Pick<StartupRetryOptions, 'firstDelayMs' | 'maxDelayMs' | 'giveUpAfterMs'> = {
  firstDelayMs: 500,
  maxDelayMs: 5_000,
  giveUpAfterMs: 60_000,
};

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs `fn` until it resolves, retrying with exponential backoff while it fails with a
 * connection-class error (refused, reset, terminated, SQLSTATE 08 / 57P). Any other error (a
 * wrong password, a missing database, a failing migration) is thrown at once, as is the last
 * connection error once `giveUpAfterMs` has passed.
 */
export async function retryWhileUnreachable<T>(fn: () => Promise<T>, opts: StartupRetryOptions): Promise<T> {
  const sleep = opts.sleep ?? realSleep;
  const now = opts.now ?? Date.now;
  const started = now();
  let delayMs = opts.firstDelayMs;
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (!isConnectionError(err)) throw err;
      const elapsedMs = now() - started;
      if (elapsedMs + delayMs > opts.giveUpAfterMs) throw err;
      opts.onRetry?.({ attempt, delayMs, elapsedMs, err });
      await sleep(delayMs);
      delayMs = Math.min(delayMs * 2, opts.maxDelayMs);
    }
  }
}
