import { JOB_HEARTBEAT_MS, JobRunner, type RunnerJobs } from './jobRunner';
import type { JobRow } from './jobsRepository';

/** A jobs service whose one job runs until the test ends it, recording the runner's calls. */
function fakeJobs() {
  const job = { id: 41 } as JobRow;
  let claimed = false;
  let finish!: () => void;
  const beats: [number, string][] = [];
  const jobs: RunnerJobs = {
    onQueued: () => undefined,
    claim: async () => {
      if (claimed) return undefined;
      claimed = true;
      return job;
    },
    run: () => new Promise<void>((resolve) => (finish = resolve)),
    heartbeat: async (id: number, runner: string) => {
      beats.push([id, runner]);
      return true;
    },
  };
  return { jobs, beats, finish: () => finish() };
}

describe('JobRunner heartbeat', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  test('while a job runs, the runner beats on a timer of its own (not only when a batch commits), and stops when the job ends', async () => {
    const f = fakeJobs();
    const runner = new JobRunner(f.jobs);
    runner.kick();
    await jest.advanceTimersByTimeAsync(0);
    expect(f.beats).toEqual([]);

    // A batch that takes 5 beats' time: the job stays fresh all along.
    await jest.advanceTimersByTimeAsync(JOB_HEARTBEAT_MS * 5);
    expect(f.beats).toEqual(Array.from({ length: 5 }, () => [41, runner.id]));

    f.finish();
    await runner.idle();
    await jest.advanceTimersByTimeAsync(JOB_HEARTBEAT_MS * 5);
    expect(f.beats).toHaveLength(5);
  });

  test('a failing beat (database away) does not stop the runner; the next beat tries again', async () => {
    const f = fakeJobs();
    let fail = true;
    const calls: boolean[] = [];
    f.jobs.heartbeat = async () => {
      calls.push(fail);
      if (fail) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
      return true;
    };
    const runner = new JobRunner(f.jobs);
    runner.kick();
    await jest.advanceTimersByTimeAsync(JOB_HEARTBEAT_MS * 2);
    fail = false;
    await jest.advanceTimersByTimeAsync(JOB_HEARTBEAT_MS);
    expect(calls).toEqual([true, true, false]);
    f.finish();
    await runner.idle();
  });

  test('a run cut short by the database going away ends the drain quietly: the next poll resumes the job', async () => {
    const f = fakeJobs();
    const jobs = f.jobs;
    let claims = 0;
    jobs.claim = async () => (++claims === 1 ? ({ id: 41 } as JobRow) : undefined);
    jobs.run = async () => {
      throw new Error('Connection terminated unexpectedly');
    };
    const runner = new JobRunner(f.jobs);
    runner.kick();
    await runner.idle();
    // No retry storm: the drain stopped after the failure instead of claiming again at once.
    expect(claims).toBe(1);
  });
});
