import { PeriodicSweep } from './periodicSweep';

function recorder() {
  const lines: [string, Record<string, unknown>, string][] = [];
  return {
    lines,
    logger: {
      info: (obj: Record<string, unknown>, msg: string) => lines.push(['info', obj, msg]),
      warn: (obj: Record<string, unknown>, msg: string) => lines.push(['warn', obj, msg]),
    },
  };
}
const messages = { done: (n: number): [Record<string, unknown>, string] => [{ n }, 'swept'], failed: 'sweep failed' };

describe('PeriodicSweep', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  test('a tick that finds the previous run still going is skipped; stop waits for the run in progress', async () => {
    let release: (n: number) => void = () => undefined;
    const runs: number[] = [];
    const sweep = new PeriodicSweep(
      () => {
        runs.push(runs.length);
        return new Promise<number>((resolve) => (release = resolve));
      },
      1000,
      recorder().logger as never,
      messages,
    );
    sweep.start();
    // The first run starts at once, not an interval later.
    await jest.advanceTimersByTimeAsync(0);
    expect(runs).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(3500);
    expect(runs).toHaveLength(1);

    let stopped = false;
    const stopping = sweep.stop().then(() => (stopped = true));
    await Promise.resolve();
    expect(stopped).toBe(false);
    release(0);
    await stopping;
    expect(stopped).toBe(true);
    await jest.advanceTimersByTimeAsync(5000);
    expect(runs).toHaveLength(1);
  });

  test('logs what a run did only when it did something, and a failure as a warning, then runs again', async () => {
    const { lines, logger } = recorder();
    const results: (number | Error)[] = [0, 3, new Error('down'), 2];
    const sweep = new PeriodicSweep(
      async () => {
        const r = results.shift()!;
        if (r instanceof Error) throw r;
        return r;
      },
      1000,
      logger as never,
      messages,
    );
    sweep.start();
    await jest.advanceTimersByTimeAsync(4000);
    await sweep.stop();
    expect(lines.map(([level, , msg]) => [level, msg])).toEqual([
      ['info', 'swept'],
      ['warn', 'sweep failed'],
      ['info', 'swept'],
    ]);
    expect(lines[0]![1]).toEqual({ n: 3 });
    expect((lines[1]![1] as { err: Error }).err.message).toBe('down');
  });

  test('stop aborts the signal of the run in progress: a sweep in batches ends after its batch, and no run starts after', async () => {
    const batches: number[] = [];
    let release: () => void = () => undefined;
    const sweep = new PeriodicSweep(
      async (signal) => {
        for (let i = 0; i < 1000; i++) {
          await new Promise<void>((resolve) => (release = resolve));
          batches.push(i);
          if (signal.aborted) return batches.length;
        }
        return batches.length;
      },
      1000,
      recorder().logger as never,
      messages,
    );
    sweep.start();
    await jest.advanceTimersByTimeAsync(0);
    release();
    await jest.advanceTimersByTimeAsync(0);
    expect(batches).toEqual([0]);
    const stopping = sweep.stop();
    release();
    await stopping;
    expect(batches).toEqual([0, 1]);
    await jest.advanceTimersByTimeAsync(5000);
    expect(batches).toEqual([0, 1]);
  });
});
