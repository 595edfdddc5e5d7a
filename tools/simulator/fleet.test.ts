import { DEVICE_STATUS } from '../../shared/constants/domain';
import type { Device } from '../../shared/contracts/devices';
import { FleetStats, RateMeter, limitPortal, mapLimit, rampUpFor } from './fleet';
import type { PortalApi } from './portalApi';
import { SimulatedAgent } from './simulatedAgent';

test('commands per second over the window, from a running total', () => {
  const m = new RateMeter(5_000);
  expect(m.sample(0, 0)).toBe(0);
  expect(m.sample(1_000, 10)).toBe(10);
  expect(m.sample(2_000, 30)).toBe(15);
  // Samples older than the window are dropped: 6 s later only the last 5 s count.
  m.sample(6_000, 30);
  expect(m.sample(8_000, 50)).toBeCloseTo((50 - 30) / 6, 6);
});

test('the snapshot: devices per status from the last answers, idle devices, the unanswered, counters', () => {
  const stats = new FleetStats();
  const agent = (imei: string) => new SimulatedAgent({ imei, deviceType: 1 }, { baseUrl: 'http://127.0.0.1:1', counters: stats.counters });
  const a = agent('359900000000008');
  const b = agent('359900000000016');
  const c = agent('359900000000024');
  for (const x of [a, b, c]) stats.addAgent(x);
  a.status = DEVICE_STATUS.bloqueado;
  b.status = DEVICE_STATUS.bloqueado;
  stats.addIdle('359900000000032', DEVICE_STATUS.PRE_ENROLLED);
  stats.counters.acknowledged = 4;
  stats.observe(DEVICE_STATUS.bloqueando);
  const s = stats.snapshot();
  expect(s.devices).toBe(4);
  expect(s.byStatus).toEqual([
    { status: DEVICE_STATUS.bloqueado, count: 2 },
    { status: DEVICE_STATUS.PRE_ENROLLED, count: 1 },
  ]);
  expect(s.unknown).toBe(1);
  expect(s.acknowledged).toBe(4);
  expect(s.statusesSeen).toEqual([DEVICE_STATUS.bloqueando, DEVICE_STATUS.PRE_ENROLLED]);
  // What the portal confirms at the end wins over the agent's last answer.
  stats.confirm('359900000000016', DEVICE_STATUS.SUSPENDED);
  expect(stats.devices()).toContainEqual({ imei: '359900000000016', status: DEVICE_STATUS.SUSPENDED });
});

test('mapLimit keeps the order and never runs more than the limit at once', async () => {
  let running = 0;
  let most = 0;
  const out = await mapLimit([1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
    running++;
    most = Math.max(most, running);
    await new Promise((r) => setImmediate(r));
    running--;
    return n * 10;
  });
  expect(out).toEqual([10, 20, 30, 40, 50, 60, 70]);
  expect(most).toBe(3);
});

test('limitPortal queues the calls beyond the limit', async () => {
  let running = 0;
  let most = 0;
  const slow = async () => {
    running++;
    most = Math.max(most, running);
    await new Promise((r) => setImmediate(r));
    running--;
    return { id: 1, status: DEVICE_STATUS.activo } as Device;
  };
  const api = { device: slow, hold: slow } as unknown as PortalApi;
  const limited = limitPortal(api, 2);
  const answers = await Promise.all([1, 2, 3, 4, 5].map((id) => (id % 2 ? limited.device(id) : limited.hold(id))));
  expect(answers).toHaveLength(5);
  expect(most).toBe(2);
});

test('the agents start spread over 5 to 30 s depending on their number', () => {
  expect(rampUpFor(10)).toBe(5_000);
  expect(rampUpFor(1_000)).toBe(10_000);
  expect(rampUpFor(20_000)).toBe(30_000);
});
