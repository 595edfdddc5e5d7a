import type { Logger } from './logger';

/**
 * A sweep the server's clock runs on every replica at start and then at an interval (the agent
 * clock, the collection policy's clock): one run at a time per process, a tick that finds the previous run
 * still going is skipped, a failure is logged and retried at the next tick, and `stop` waits for
 * the run in progress so a shutdown never cuts a transaction short. A sweep made of batches takes
 * the signal `stop` aborts and ends after its batch in flight, so a shutdown does not wait for a
 * whole sweep (the demo's first plans thousands of credits).
 */
export class PeriodicSweep {
  private first: NodeJS.Timeout | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private readonly stopping = new AbortController();

  constructor(
    private readonly sweep: (signal: AbortSignal) => Promise<number>,
    private readonly intervalMs: number,
    private readonly logger: Pick<Logger, 'info' | 'warn'>,
    private readonly messages: { done: (n: number) => [Record<string, unknown>, string]; failed: string },
  ) {}

  /** Runs at once (a restart never delays what fell due while no replica ran), then every interval. */
  start(): void {
    this.first = setTimeout(() => this.run(), 0);
    this.first.unref();
    this.timer = setInterval(() => this.run(), this.intervalMs);
    this.timer.unref();
  }

  private run(): void {
    if (this.running || this.stopping.signal.aborted) return;
    this.running = this.sweep(this.stopping.signal)
      .then((n) => {
        if (n > 0) this.logger.info(...this.messages.done(n));
      })
      .catch((err: unknown) => this.logger.warn({ err }, this.messages.failed))
      .finally(() => {
        this.running = undefined;
      });
  }

  async stop(): Promise<void> {
    clearTimeout(this.first);
    if (this.timer) clearInterval(this.timer);
    this.stopping.abort();
    await this.running;
  }
}
