import type { Server } from 'node:http';
import type { Logger } from './logger';
import type { Readiness } from './health/readiness';

export interface ShutdownOptions {
  server: Server;
  readiness: Readiness;
  logger: Logger;
  /** Keep serving this long after the signal so load balancers see the 503 first. */
  delayMs: number;
  /** In-flight requests get this long to finish once the listener is closed. */
  timeoutMs: number;
  /** Closes pools and other resources after the last request. */
  close: () => Promise<void>;
}

/**
 * The drain sequence: readiness 503 at once → keep serving for `delayMs` → stop accepting
 * and close idle keep-alive connections → wait for in-flight requests (up to `timeoutMs`,
 * then cut what remains) → close resources. Resolves with the exit code.
 */
export async function drain(opts: ShutdownOptions): Promise<number> {
  const { server, readiness, logger } = opts;
  readiness.markShuttingDown();
  logger.info({ delayMs: opts.delayMs }, 'shutdown: readiness is now 503');
  await new Promise((r) => setTimeout(r, opts.delayMs));

  logger.info('shutdown: no longer accepting connections');
  let forced = false;
  await new Promise<void>((resolve) => {
    const deadline = setTimeout(() => {
      forced = true;
      logger.warn({ timeoutMs: opts.timeoutMs }, 'shutdown: deadline reached, closing remaining connections');
      server.closeAllConnections();
      resolve();
    }, opts.timeoutMs);
    server.close(() => {
      clearTimeout(deadline);
      resolve();
    });
    server.closeIdleConnections();
  });

  try {
    await opts.close();
  } catch (err) {
    logger.error({ err }, 'shutdown: closing resources failed');
    return 1;
  }
  logger.info({ forced }, 'shutdown: complete');
  return 0;
}

/** Runs `drain` on the first SIGTERM or SIGINT, then exits with its code. */
export function installSignalHandlers(opts: ShutdownOptions, exit: (code: number) => void = process.exit): void {
  let started = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (started) return;
    started = true;
    opts.logger.info({ signal }, 'shutdown: signal received');
    void drain(opts).then(exit);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
