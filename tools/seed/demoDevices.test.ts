import { DEVICE_STATUS, DEVICE_STATUSES, LOCK_TYPES } from '../../shared/constants/domain';
import { deviceBody, luhnValid } from '../../shared/contracts/devices';
import { deviceStatus, offlineCutoff, statusSql } from '../../shared/deviceStatus';
import { createTestDb, testEngines, type TestDb } from '../../tests/helpers/testDb';
import { DEMO_GROUPS, demoDeviceRows, seedDemoDevices, type DemoDeviceRow } from './demoDevices';

const NOW = new Date('2026-03-02T15:00:00Z');
const cutoff = offlineCutoff(NOW, 72);
const statusOf = (r: DemoDeviceRow) =>
  deviceStatus(
    {
      lifecycle: r.lifecycle,
      lockState: r.lockState,
      pendingAction: r.pendingAction,
      pendingUntil: r.pendingUntil,
      failureReason: r.failureReason,
      lastSeenAt: r.lastSeenAt,
    },
    cutoff,
  );

describe('demoDeviceRows', () => {
  const rows = [...demoDeviceRows(20_000, 7, NOW, 5_000)];
  const all = rows.flat();

  test('batches of the requested size; the same seed gives the same fleet, another seed another', () => {
    expect(rows.map((b) => b.length)).toEqual([5_000, 5_000, 5_000, 5_000]);
    expect([...demoDeviceRows(3, 7, NOW)].flat()).toEqual(all.slice(0, 3));
    expect([...demoDeviceRows(3, 8, NOW)].flat()).not.toEqual(all.slice(0, 3));
  });

  test('IMEIs (and second IMEIs) are valid and unique; registry fields pass the shared schema', () => {
    const imeis = all.flatMap((r) => (r.imei2 ? [r.imei, r.imei2] : [r.imei]));
    expect(imeis.every((i) => /^\d{15}$/.test(i) && luhnValid(i))).toBe(true);
    expect(new Set(imeis).size).toBe(imeis.length);
    for (const r of all.slice(0, 500)) {
      const parsed = deviceBody.safeParse({ ...r, groupId: null });
      expect(parsed.success).toBe(true);
    }
  });

  test('a realistic mix: ≈80 % smartphones, ≈12 % locked with every lock type, ≈8 % offline, every status present', () => {
    const share = (f: (r: DemoDeviceRow) => boolean) => all.filter(f).length / all.length;
    expect(share((r) => r.deviceType === 1)).toBeCloseTo(0.8, 1);
    const locked = all.filter((r) => statusOf(r) === DEVICE_STATUS.bloqueado);
    expect(locked.length / all.length).toBeGreaterThan(0.09);
    expect(locked.length / all.length).toBeLessThan(0.15);
    expect(new Set(locked.map((r) => r.lockType))).toEqual(new Set(LOCK_TYPES.map((l) => l.key)));
    const offline = share((r) => statusOf(r) === DEVICE_STATUS.sin_conexion);
    expect(offline).toBeGreaterThan(0.06);
    expect(offline).toBeLessThan(0.1);
    expect(share((r) => statusOf(r) === DEVICE_STATUS.activo)).toBeGreaterThan(0.5);
    // Every status a device can be in (the spec's 'desbloqueado' is a history entry, not a state).
    const present = new Set(all.map(statusOf));
    expect(DEVICE_STATUSES.map((s) => s.code).filter((c) => !present.has(c))).toEqual([DEVICE_STATUS.desbloqueado]);
    // Online devices were seen within the last 24 h; offline ones 4 to 30 days ago.
    const seen = all.filter((r) => r.lastSeenAt && statusOf(r) === DEVICE_STATUS.activo).map((r) => NOW.getTime() - r.lastSeenAt!.getTime());
    expect(Math.max(...seen)).toBeLessThanOrEqual(86_400_000);
    const off = all.filter((r) => statusOf(r) === DEVICE_STATUS.sin_conexion).map((r) => (NOW.getTime() - r.lastSeenAt!.getTime()) / 86_400_000);
    expect(Math.min(...off)).toBeGreaterThanOrEqual(4);
    expect(Math.max(...off)).toBeLessThanOrEqual(30);
    expect(new Set(all.filter((r) => r.deviceType === 1 && r.agentVersion).map((r) => r.agentVersion))).toEqual(new Set(['3.4.1', '3.3.0']));
    expect(new Set(all.filter((r) => r.deviceType === 2 && r.agentVersion).map((r) => r.agentVersion))).toEqual(new Set(['1.8.0']));
    expect(all.every((r) => r.creditReference === null || /^CR-\d{4}-\d{6}$/.test(r.creditReference))).toBe(true);
  });
});

describe.each(testEngines())('seedDemoDevices on %s', (engine) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(engine);
  }, 60_000);
  afterAll(async () => {
    await t?.dispose();
  });

  test('5,000 devices and the demo groups, once, with the counters and pending commands consistent', async () => {
    const started = performance.now();
    expect(await seedDemoDevices(t.db, 5_000, NOW)).toBe(5_000);
    const ms = performance.now() - started;
    process.stdout.write(`[${engine}] demo seed of 5000 devices: ${Math.round(ms)} ms\n`);

    const groups = await t.db.query<{ name: string; n: number }>(
      'SELECT g.name, count(d.id) AS n FROM device_groups g LEFT JOIN devices d ON d.group_id = g.id GROUP BY g.name ORDER BY g.name',
    );
    expect(groups.rows.map((g) => g.name).sort()).toEqual(DEMO_GROUPS.map((g) => g.name).sort());
    expect(groups.rows.every((g) => Number(g.n) > 0)).toBe(true);
    const counted = await t.db.query<{ n: number }>('SELECT sum(n)::bigint AS n FROM device_counts');
    expect(Number(counted.rows[0]!.n)).toBe(5_000);
    const statuses = await t.db.query<{ s: number }>(`SELECT DISTINCT ${statusSql('$1')} AS s FROM devices`, [offlineCutoff(NOW, 72)]);
    expect(statuses.rows.length).toBe(DEVICE_STATUSES.length - 1);
    // Every device with a command in flight points at a pending command of that action.
    const orphans = await t.db.query(
      `SELECT d.id FROM devices d LEFT JOIN device_commands c ON c.id = d.pending_command_id
        WHERE d.pending_action IS NOT NULL AND (c.id IS NULL OR c.status <> 'pending' OR c.action <> d.pending_action OR c.device_id <> d.id)`,
    );
    expect(orphans.rows).toEqual([]);
    expect(Number((await t.db.query<{ n: number }>('SELECT count(*) AS n FROM device_commands')).rows[0]!.n)).toBeGreaterThan(0);
    const secrets = await t.db.query<{ n: number }>('SELECT count(DISTINCT secret) AS n FROM devices WHERE length(secret) = 32');
    expect(Number(secrets.rows[0]!.n)).toBe(5_000);

    expect(await seedDemoDevices(t.db, 5_000, NOW)).toBe(0);
    expect(Number((await t.db.query<{ n: number }>('SELECT count(*) AS n FROM devices')).rows[0]!.n)).toBe(5_000);
  });
});
