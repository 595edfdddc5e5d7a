import { retryWhileUnreachable } from './startupRetry';

const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

/** A clock that only moves when the retry sleeps. */
function fakeClock() {
  let t = 0;
  const waits: number[] = [];
  return {
    waits,
    now: () => t,
    sleep: async (ms: number) => {
      waits.push(ms);
      t += ms;
    },
  };
}

const OPTS = { firstDelayMs: 500, maxDelayMs: 5_000, giveUpAfterMs: 60_000 };

describe('retryWhileUnreachable', () => {
  test('connection errors are retried with doubling waits capped at the maximum, and the result returned once the database answers', async () => {
    const clock = fakeClock();
    const retries: number[] = [];
    let calls = 0;
    const result = await retryWhileUnreachable(
      async () => {
        calls++;
        if (calls < 7) throw refused();
        return 'migrado';
      },
      { ...OPTS, ...clock, onRetry: (i) => retries.push(i.attempt) },
    );
    expect(result).toBe('migrado');
    expect(clock.waits).toEqual([500, 1000, 2000, 4000, 5000, 5000]);
    expect(retries).toEqual([1, 2, 3, 4, 5, 6]);
  });

  test('bounded: after giveUpAfterMs the last connection error is thrown', async () => {
    const clock = fakeClock();
    let calls = 0;
    const err = await retryWhileUnreachable(
      async () => {
        calls++;
        throw refused();
      },
      { ...OPTS, ...clock },
    ).catch((e: unknown) => e);
    expect((err as { code?: string }).code).toBe('ECONNREFUSED');
    expect(clock.waits.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(60_000);
    expect(clock.now()).toBeGreaterThanOrEqual(55_000);
    expect(calls).toBe(clock.waits.length + 1);
  });

  test('any other error (wrong password, failing migration) is thrown at once, without waiting', async () => {
    const clock = fakeClock();
    const wrongPassword = Object.assign(new Error('password authentication failed'), { code: '28P01' });
    await expect(
      retryWhileUnreachable(
        async () => {
          throw wrongPassword;
        },
        { ...OPTS, ...clock },
      ),
    ).rejects.toBe(wrongPassword);
    expect(clock.waits).toEqual([]);
  });
});
