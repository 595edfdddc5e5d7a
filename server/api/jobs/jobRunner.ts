import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { JobsService } from './jobsService';

/** How often a started runner looks for work (queued jobs, or jobs whose runner died). */
export const JOB_POLL_MS = 2_000;
/**
 * How often a runner working on a job tells the database it is alive, on a timer of its own
 * (not only when a batch commits). A job whose heartbeat is older than JOB_STALE_SECONDS (10 s,
 * five missed beats) is taken over by the next poll of another runner: within about 12 s.
 */
export const JOB_HEARTBEAT_MS = 2_000;

/**
 * Runs queued bulk-action jobs in batches, in the background of this process. `kick()` looks
 * for work now; `start()` also polls (and resumes the jobs of a replica that died); `stop()`
 * lets the current batch finish; `idle()` resolves when nothing is running (tests).
 *
 * One job at a time per process. Several replicas share the queue: a job is claimed atomically
 * (see JobsRepository.claim) and every batch checks that this runner still owns it.
 */
/** What a runner needs of the jobs service: be told of new jobs, claim one, run it, beat. */
export type RunnerJobs = Pick<JobsService, 'onQueued' | 'claim' | 'run' | 'heartbeat'>;

export class JobRunner<J extends RunnerJobs = JobsService> {
  /** This runner's name in `jobs.runner`. */
  readonly id = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private work: Promise<void> | null = null;
  private again = false;
  private stopping = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(readonly jobs: J) {
    jobs.onQueued(() => this.kick());
  }

  /** Works the queue now, in the background (a no-op while stopped; rechecks if already working). */
  kick(): void {
    if (this.stopping) return;
    if (this.work) {
      this.again = true;
      return;
    }
    this.work = this.drain().finally(() => {
      this.work = null;
      // A kick that arrived while the queue was being left: look again.
      if (this.again) this.kick();
    });
  }

  private async drain(): Promise<void> {
    do {
      this.again = false;
      for (;;) {
        if (this.stopping) return;
        let job;
        try {
          job = await this.jobs.claim(this.id);
        } catch {
          // The database is unavailable (or closing): the next poll tries again.
          return;
        }
        if (!job) break;
        const beating = this.beat(job.id);
        try {
          await this.jobs.run(job, this.id, () => this.stopping);
        } catch {
          // The database went away mid-job: the job stays this runner's; the next poll resumes it.
          return;
        } finally {
          clearInterval(beating);
        }
      }
    } while (this.again && !this.stopping);
  }

  /** Beats every JOB_HEARTBEAT_MS while `jobId` runs; one beat at a time, failures ignored (the next one retries). */
  private beat(jobId: number): NodeJS.Timeout {
    let inFlight = false;
    const timer = setInterval(() => {
      if (inFlight) return;
      inFlight = true;
      this.jobs
        .heartbeat(jobId, this.id)
        .catch(() => false)
        .finally(() => {
          inFlight = false;
        });
    }, JOB_HEARTBEAT_MS);
    timer.unref();
    return timer;
  }

  /** Polls every 2 s (and works at once): queued jobs, and jobs left behind by a runner that died. */
  start(): void {
    this.stopping = false;
    if (!this.timer) {
      this.timer = setInterval(() => this.kick(), JOB_POLL_MS);
      this.timer.unref();
    }
    this.kick();
  }

  /** Stops polling and waits for the batch in flight; an unfinished job goes back to the queue. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.idle();
  }

  /** Resolves when no work is in flight. */
  async idle(): Promise<void> {
    while (this.work) await this.work;
  }
}
