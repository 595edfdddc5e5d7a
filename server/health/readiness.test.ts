import { READINESS_CACHE_MS, Readiness, identityKeysCheck } from './readiness';

describe('Readiness', () => {
  test('caches the answer for 2 s, then checks again', async () => {
    let now = 1_000;
    const check = jest.fn(async () => undefined);
    const r = new Readiness([{ name: 'db', check }], () => now);
    expect((await r.report()).ready).toBe(true);
    now += READINESS_CACHE_MS - 1;
    await r.report();
    expect(check).toHaveBeenCalledTimes(1);
    now += 1;
    await r.report();
    expect(check).toHaveBeenCalledTimes(2);
  });

  test('a slow check fails after the timeout with a reason', async () => {
    const r = new Readiness([{ name: 'db', check: () => new Promise<void>(() => undefined) }], Date.now, 20);
    expect(await r.report()).toEqual({ ready: false, status: 'unavailable', checks: { db: 'Tiempo de espera agotado' } });
  });

  test('every failing check is named; concurrent probes share one run', async () => {
    const slow = jest.fn(() => new Promise<void>((res) => setTimeout(res, 10)));
    const r = new Readiness([
      { name: 'database', check: slow },
      { name: 'identity', check: () => Promise.reject(new Error('claves no cargadas')) },
    ]);
    const [a, b] = await Promise.all([r.report(), r.report()]);
    expect(a).toEqual({ ready: false, status: 'unavailable', checks: { database: 'ok', identity: 'claves no cargadas' } });
    expect(b).toBe(a);
    expect(slow).toHaveBeenCalledTimes(1);
  });

  test('shutting down wins over a cached success, without running checks', async () => {
    const check = jest.fn(async () => undefined);
    const r = new Readiness([{ name: 'db', check }]);
    await r.report();
    r.markShuttingDown();
    expect((await r.report()).status).toBe('shutting_down');
    expect(check).toHaveBeenCalledTimes(1);
  });

  test('identity keys: not ready until the verifier has its keys; loaded once, then remembered', async () => {
    let attempts = 0;
    const hydrate = jest.fn(async () => {
      attempts += 1;
      if (attempts < 3) throw new Error('network');
    });
    const check = identityKeysCheck(hydrate);
    await expect(check.check()).rejects.toThrow('Las claves de identidad no están cargadas');
    await expect(check.check()).rejects.toThrow();
    await expect(check.check()).resolves.toBeUndefined();
    await check.check();
    expect(hydrate).toHaveBeenCalledTimes(3);
  });
});
