/**
 * The server's own clock on the device side: temporary unlocks whose date has passed are locked
 * again even when the device never reports it (TEMPORARY_ACTIVE → bloqueado), and the devices
 * that went quiet are counted for the dashboards (their offline snapshot). Every replica runs
 * it; the sweep locks rows with SKIP LOCKED, so replicas share the work without waiting, and the
 * snapshot is counted by one replica per period.
 */
import type { DashboardService } from '../api/dashboard/dashboardService';
import type { Logger } from '../logger';
import { PeriodicSweep } from '../periodicSweep';
import type { AgentService } from './agentService';

export const AGENT_CLOCK_MS = 30_000;

export class AgentClock {
  private readonly sweep: PeriodicSweep;

  constructor(
    private readonly service: Pick<AgentService, 'expireTemporaryUnlocks'>,
    private readonly logger: Logger,
    intervalMs = AGENT_CLOCK_MS,
    private readonly dashboard?: Pick<DashboardService, 'refreshOffline'>,
  ) {
    this.sweep = new PeriodicSweep(() => this.tick(), intervalMs, logger, {
      done: (n) => [{ devices: n }, 'temporary unlocks expired: devices locked again'],
      failed: 'temporary unlock sweep failed; retrying at the next tick',
    });
  }

  /** One sweep: batches until no expired temporary unlock is left, then the offline snapshot. Returns the devices locked again. */
  async tick(): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await this.service.expireTemporaryUnlocks();
      total += n;
      if (n === 0) break;
    }
    try {
      await this.dashboard?.refreshOffline();
    } catch (err) {
      // The dashboards count for themselves while the snapshot is old; the next tick tries again.
      this.logger.warn({ err }, 'offline snapshot not refreshed; retrying at the next tick');
    }
    return total;
  }

  start(): void {
    this.sweep.start();
  }

  async stop(): Promise<void> {
    await this.sweep.stop();
  }
}
