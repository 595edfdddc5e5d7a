/**
 * The collection policy's clock: every replica runs it (as the agent clock, server/agent/agentClock.ts);
 * the engine claims the due credits with SKIP LOCKED, so replicas share the work without waiting.
 */
import type { Logger } from '../logger';
import { PeriodicSweep } from '../periodicSweep';
import { COLLECTION_CLOCK_MS, type CollectionEngine } from './collectionEngine';

export class CollectionClock {
  private readonly sweep: PeriodicSweep;

  constructor(engine: Pick<CollectionEngine, 'tick'>, logger: Logger, intervalMs = COLLECTION_CLOCK_MS) {
    this.sweep = new PeriodicSweep((signal) => engine.tick(signal), intervalMs, logger, {
      done: (n) => [{ credits: n }, 'collection policy: credits processed'],
      failed: 'collection sweep failed; retrying at the next tick',
    });
  }

  start(): void {
    this.sweep.start();
  }

  async stop(): Promise<void> {
    await this.sweep.stop();
  }
}
