import { MESSAGES } from '../../shared/messages';
import type { Db } from '../db/Db';

/** One dependency `/readyz` waits for; `check` rejects with a reason when not ready. */
export interface ReadinessCheck {
  name: string;
  check(): Promise<void>;
}

export interface ReadinessReport {
  ready: boolean;
  status: 'ok' | 'unavailable' | 'shutting_down';
  checks: Record<string, 'ok' | string>;
}

/** How long one check may take before it counts as failed. */
export const READINESS_TIMEOUT_MS = 1000;
/** How long an answer is reused: probes from many sources never hammer the database. */
export const READINESS_CACHE_MS = 2000;

function withTimeout(p: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((_, reject) => {
    timer = setTimeout(() => reject(new Error(MESSAGES.health.timeout)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

export function databaseCheck(db: Db): ReadinessCheck {
  return {
    name: 'database',
    async check() {
      try {
        await db.query('SELECT 1');
      } catch {
        throw new Error(MESSAGES.health.dbUnavailable);
      }
    },
  };
}

/** The token verifier's keys are loaded (first success is remembered; failures retry). */
export function identityKeysCheck(hydrate: () => Promise<void>): ReadinessCheck {
  let loaded = false;
  return {
    name: 'identity',
    async check() {
      if (loaded) return;
      try {
        await hydrate();
        loaded = true;
      } catch {
        throw new Error(MESSAGES.health.keysUnavailable);
      }
    },
  };
}

/** Readiness of this process: its checks, cached briefly, and the shutdown flag. */
export class Readiness {
  private shuttingDown = false;
  private cached?: { at: number; report: ReadinessReport };
  private inFlight?: Promise<ReadinessReport>;

  constructor(
    private readonly checks: ReadinessCheck[],
    private readonly now: () => number = Date.now,
    private readonly timeoutMs = READINESS_TIMEOUT_MS,
  ) {}

  add(check: ReadinessCheck): void {
    this.checks.push(check);
    this.cached = undefined;
  }

  /** From now on `/readyz` answers 503 at once (SIGTERM). */
  markShuttingDown(): void {
    this.shuttingDown = true;
  }

  get isShuttingDown(): boolean {
    return this.shuttingDown;
  }

  async report(): Promise<ReadinessReport> {
    if (this.shuttingDown) {
      return { ready: false, status: 'shutting_down', checks: { shutdown: MESSAGES.health.shuttingDown } };
    }
    if (this.cached && this.now() - this.cached.at < READINESS_CACHE_MS) return this.cached.report;
    this.inFlight ??= this.run().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  private async run(): Promise<ReadinessReport> {
    const results = await Promise.all(
      this.checks.map(async (c) => {
        try {
          await withTimeout(c.check(), this.timeoutMs);
          return [c.name, 'ok'] as const;
        } catch (err) {
          return [c.name, err instanceof Error ? err.message : String(err)] as const;
        }
      }),
    );
    const checks = Object.fromEntries(results);
    const ready = results.every(([, r]) => r === 'ok');
    const report: ReadinessReport = { ready, status: ready ? 'ok' : 'unavailable', checks };
    this.cached = { at: this.now(), report };
    return report;
  }
}
