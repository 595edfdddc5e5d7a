/**
 * What check-ins report when no fact moves (last seen, versions, carrier, battery, what the device
 * shows), written by each replica in batches instead of one UPDATE per check-in. That write is a
 * non-HOT update of the device row (every index whose predicate admits it gets an entry, and the
 * counters' statement triggers run), committed with a WAL flush: the dearest part of a check-in
 * that only reports, and what sets the tail of its latency under load. A batch is one statement
 * for many devices, and the check-in answers without waiting for it.
 *
 * What a deferred write changes, and why it is safe:
 * - The portal sees a report at most `flushMs` later. The stored last-seen time is already up to
 *   five minutes old by design (a check-in writes it only when it is that old, LAST_SEEN_WRITE_SECONDS),
 *   and "sin conexión" is counted in hours.
 * - Nothing here decides anything: commands, their delivery and every fact the state machine moves
 *   are written in the check-in's own transaction, as before (AgentService.checkinIn).
 * - A report that never reaches the database (the process dies, the database is away longer than
 *   the retries, the row was held by another transaction) leaves the row as it was, so the device's
 *   next check-in finds it stale or different and reports it again: presence heals itself.
 * - A newer write wins: a batch never moves a device's last-seen time back (a check-in that moved
 *   facts, or one on another replica, may have written a later one meanwhile).
 */
import { isConnectionError } from '../db/connectionErrors';
import type { Db } from '../db/Db';
import type { Logger } from '../logger';
import { DeviceRepository, type Reported } from '../devices';

/** Devices per statement: a larger batch is written in several. */
export const PRESENCE_BATCH_MAX = 500;

export type PresenceOutcome = 'written' | 'skipped' | 'failed';

/** A later report of the same device over an earlier one: the later time, each field the later one reported. */
function merge(earlier: Reported, later: Reported): Reported {
  const reported = Object.fromEntries(Object.entries(later).filter(([, value]) => value !== undefined));
  const merged: Reported = { ...earlier, ...reported };
  if (earlier.lastSeenAt > later.lastSeenAt) merged.lastSeenAt = earlier.lastSeenAt;
  return merged;
}

export class PresenceWriter {
  private pending = new Map<number, Reported>();
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    /** How long a report waits for its batch (AGENT_PRESENCE_FLUSH_MS, 1 s by default). */
    private readonly flushMs: number,
    private readonly count: (outcome: PresenceOutcome, devices: number) => void = () => undefined,
  ) {}

  /** Reports waiting for their batch (the /metrics gauge). */
  get size(): number {
    return this.pending.size;
  }

  /** Records a check-in's report: written within `flushMs`, or at once when a batch is full or the writer stopped. */
  add(deviceId: number, reported: Reported): void {
    const earlier = this.pending.get(deviceId);
    this.pending.set(deviceId, earlier ? merge(earlier, reported) : reported);
    if (this.stopped || this.pending.size >= PRESENCE_BATCH_MAX) void this.flush();
    else this.schedule();
  }

  /** Writes every report recorded so far; resolves when they are committed (or given up). Never throws. */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.size === 0) return;
    const batch = [...this.pending];
    this.pending = new Map();
    this.writing = this.write(batch).finally(() => {
      this.writing = undefined;
    });
    await this.writing;
  }

  /** Shutdown, after the server stopped taking requests: what is recorded is written now. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.flush();
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, this.flushMs);
    this.timer.unref();
  }

  private async write(batch: [number, Reported][]): Promise<void> {
    const repo = new DeviceRepository(this.db);
    for (let i = 0; i < batch.length; i += PRESENCE_BATCH_MAX) {
      const part = batch.slice(i, i + PRESENCE_BATCH_MAX);
      try {
        const written = await repo.refreshMany(part);
        this.count('written', written);
        this.count('skipped', part.length - written);
      } catch (err) {
        this.count('failed', part.length);
        if (isConnectionError(err) && !this.stopped) {
          // The database is away: kept for the next batch (under any later report of the same device).
          for (const [id, reported] of part) {
            const later = this.pending.get(id);
            this.pending.set(id, later ? merge(reported, later) : reported);
          }
          this.logger.warn({ err, devices: part.length }, 'presence not written; retrying with the next batch');
          this.schedule();
        } else {
          // Anything else would fail again: given up (each device reports again at its next check-in).
          this.logger.error({ err, devices: part.length }, 'presence not written; given up');
        }
      }
    }
  }
}
