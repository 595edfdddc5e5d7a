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
    expect(await seedDemoDevices(t.db, 5_000, { now: NOW })).toBe(5_000);
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

    expect(await seedDemoDevices(t.db, 5_000, { now: NOW })).toBe(0);
    expect(Number((await t.db.query<{ n: number }>('SELECT count(*) AS n FROM devices')).rows[0]!.n)).toBe(5_000);
    // A bound for a machine shared by other test runs, not a target: the time is printed above.
  }, 180_000);

  const n = async (sql: string, params: unknown[] = []) => Number((await t.db.query<{ n: number | null }>(sql, params)).rows[0]!.n ?? 0);

  test('the credits of the fleet: one per reference, schedules, payments and counters that add up, once', async () => {
    const credits = await n('SELECT count(*) AS n FROM credits');
    // Every reference a device carries names exactly one credit, and every credit finances a device.
    expect(credits).toBe(await n('SELECT count(DISTINCT lower(credit_reference)) AS n FROM devices WHERE credit_reference IS NOT NULL'));
    expect(
      await n(
        'SELECT count(*) AS n FROM devices d WHERE credit_reference IS NOT NULL AND NOT EXISTS (SELECT 1 FROM credits c WHERE lower(c.reference) = lower(d.credit_reference))',
      ),
    ).toBe(0);
    // Mostly one device per credit; some a phone and a TV, with one customer.
    const pairs = await t.db.query<{ phones: number; tvs: number; customers: number }>(
      `SELECT count(*) FILTER (WHERE device_type = 1) AS phones, count(*) FILTER (WHERE device_type = 2) AS tvs,
              count(DISTINCT customer_name) AS customers
         FROM devices WHERE credit_reference IS NOT NULL GROUP BY lower(credit_reference) HAVING count(*) > 1`,
    );
    expect(pairs.rows.length).toBeGreaterThan(credits * 0.02);
    expect(pairs.rows.length).toBeLessThan(credits * 0.15);
    expect(pairs.rows.filter((p) => Number(p.phones) >= 1 && Number(p.tvs) >= 1 && Number(p.customers) === 1).length).toBeGreaterThan(
      pairs.rows.length * 0.8,
    );

    // Phones alone: weekly, 52 installments; credits with a TV: 26 biweekly or 12 monthly ones.
    const schedules = await t.db.query<{ tv: boolean; installments: number; n: number }>(
      `SELECT bool_or(d.device_type = 2) AS tv, (SELECT count(*) FROM credit_installments i WHERE i.credit_id = c.id) AS installments, c.id
         FROM credits c JOIN devices d ON lower(d.credit_reference) = lower(c.reference) GROUP BY c.id`,
    );
    expect(schedules.rows.filter((r) => !r.tv).every((r) => Number(r.installments) === 52)).toBe(true);
    expect(new Set(schedules.rows.filter((r) => r.tv).map((r) => Number(r.installments)))).toEqual(new Set([26, 12]));
    expect(
      await n(`SELECT count(*) AS n FROM (SELECT credit_id FROM credit_installments GROUP BY credit_id
                      HAVING NOT (max(due_date) - min(due_date) IN (357, 350) OR max(due_date) - min(due_date) BETWEEN 330 AND 340)) x`),
    ).toBe(0);

    // Money is conserved: each total is its schedule, each paid amount its payments, and what the
    // portfolio counts unpaid per due date is exactly total − paid.
    expect(
      await n(
        'SELECT count(*) AS n FROM credits c WHERE total_cents <> (SELECT sum(amount_cents) FROM credit_installments i WHERE i.credit_id = c.id)',
      ),
    ).toBe(0);
    expect(
      await n(`SELECT count(*) AS n FROM credits c
                     WHERE paid_cents <> coalesce((SELECT sum(amount_cents) FROM credit_payments p WHERE p.credit_id = c.id AND reversed_at IS NULL), 0)`),
    ).toBe(0);
    expect(await n('SELECT sum(cents) AS n FROM credit_unpaid_by_due')).toBe(await n('SELECT sum(total_cents - paid_cents) AS n FROM credits'));
    expect(await n('SELECT sum(n) AS n FROM credit_due_counts')).toBe(credits);
    // The first unpaid due date is the schedule's, payments covering the oldest installments first.
    expect(
      await n(`SELECT count(*) AS n FROM credits c
                WHERE first_unpaid_due IS DISTINCT FROM (
                  SELECT min(due_date) FROM (SELECT due_date, sum(amount_cents) OVER (ORDER BY number) AS upto
                                               FROM credit_installments i WHERE i.credit_id = c.id) s
                   WHERE s.upto > c.paid_cents)`),
    ).toBe(0);
    // Payments are the lender's, in the past, and the answer each one gave is the credit after it.
    expect(await n(`SELECT count(*) AS n FROM credit_payments WHERE source <> 'integration' OR paid_at > $1 OR recorded_at < paid_at`, [NOW])).toBe(
      0,
    );
    expect(await n(`SELECT count(*) AS n FROM credit_payments WHERE result->'payment'->>'externalId' <> external_id`)).toBe(0);

    // A realistic standing on the company's date (2026-03-02 in Mexico City): most current, a few
    // percent overdue by bucket, some paid off.
    const standing = await t.db.query<{ s: string; n: number }>(
      `SELECT CASE WHEN first_unpaid_due IS NULL THEN 'paid_off' WHEN first_unpaid_due >= $1::date THEN 'current'
                   WHEN first_unpaid_due >= $1::date - 7 THEN '1-7' WHEN first_unpaid_due >= $1::date - 30 THEN '8-30' ELSE '31+' END AS s,
              count(*) AS n
         FROM credits GROUP BY 1`,
      ['2026-03-02'],
    );
    const shares = new Map(standing.rows.map((r) => [r.s, Number(r.n) / credits]));
    const share = { current: 0, '1-7': 0, '8-30': 0, '31+': 0, paid_off: 0, ...Object.fromEntries(shares) };
    expect(share.current).toBeGreaterThan(0.75);
    expect(share['1-7']).toBeGreaterThan(0.02);
    expect(share['1-7']).toBeLessThan(0.08);
    expect(share['8-30']).toBeGreaterThan(0.01);
    expect(share['8-30']).toBeLessThan(share['1-7']);
    expect(share['31+']).toBeGreaterThan(0.01);
    expect(share['31+']).toBeLessThan(0.06);
    expect(share.paid_off).toBeGreaterThan(0.02);
    // Devices locked Por Crédito are on overdue credits (but those sold too recently to owe anything).
    const locked = await t.db.query<{ overdue: boolean; n: number }>(
      `SELECT c.first_unpaid_due < $1::date AS overdue, count(*) AS n FROM devices d JOIN credits c ON lower(c.reference) = lower(d.credit_reference)
        WHERE d.lock_state = 'locked' AND d.lock_type = 'PorCredito' AND d.lifecycle = 'operating' GROUP BY 1`,
      ['2026-03-02'],
    );
    const lockedOverdue = Number(locked.rows.find((r) => r.overdue)?.n ?? 0);
    expect(lockedOverdue).toBeGreaterThan(0.95 * locked.rows.reduce((sum, r) => sum + Number(r.n), 0));

    // Every credit waits for the collection policy's first tick, which plans it.
    expect(await n('SELECT count(*) AS n FROM credits WHERE next_step_at IS NULL')).toBe(0);

    // Seeding again changes nothing.
    const before = await t.db.query('SELECT id, paid_cents, first_unpaid_due FROM credits ORDER BY id');
    const payments = await n('SELECT count(*) AS n FROM credit_payments');
    expect(await seedDemoDevices(t.db, 5_000, { now: NOW })).toBe(0);
    expect((await t.db.query('SELECT id, paid_cents, first_unpaid_due FROM credits ORDER BY id')).rows).toEqual(before.rows);
    expect(await n('SELECT count(*) AS n FROM credit_payments')).toBe(payments);
  }, 120_000);
});
