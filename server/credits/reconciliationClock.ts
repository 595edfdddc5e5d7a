/**
 * The reconciliation's daily summary clock: every replica runs it (as the collection policy's
 * clock); the day's row in reconciliation_summaries decides which replica sends, so it is sent once.
 */
import type { Logger } from '../logger';
import { PeriodicSweep } from '../periodicSweep';
import type { ReconciliationService } from './reconciliationService';

/** How often the clock looks whether the day's summary is due. */
export const RECONCILIATION_CLOCK_MS = 60_000;

export class ReconciliationClock {
  private readonly sweep: PeriodicSweep;

  constructor(service: Pick<ReconciliationService, 'summaryTick'>, logger: Logger, intervalMs = RECONCILIATION_CLOCK_MS) {
    this.sweep = new PeriodicSweep(() => service.summaryTick(), intervalMs, logger, {
      done: (n) => [{ summaries: n }, 'reconciliation: daily summary sent'],
      failed: 'reconciliation summary failed; retrying at the next tick',
    });
  }

  start(): void {
    this.sweep.start();
  }

  async stop(): Promise<void> {
    await this.sweep.stop();
  }
}
