/**
 * The general dashboard's credit figures, with real credits written through CreditsService and the
 * collection policy acting on them, on the app's controllable clock: the repository's reads (the
 * policy's locks and unlocks of the company's day, the devices unlocked within 7 days of a lock Por
 * Crédito, at their bounds), and the API's `credits` section, present for a role holding the
 * portfolio and left out (never a 403) for a role without it.
 */
import request from 'supertest';
import { DEVICE_ACTION } from '../../shared/constants/deviceActions';
import { creditBody, paymentBody } from '../../shared/contracts/credits';
import { generalDashboardResponse } from '../../shared/contracts/dashboard';
import { addDays } from '../../shared/credits';
import { DashboardRepository } from '../../server/api/dashboard/dashboardRepository';
import type { Queryable } from '../../server/db/Db';
import { adminApi, type AdminApi } from '../helpers/adminApi';
import { planNodes, planWith } from '../helpers/queryPlans';
import { insertDevices, testImei } from '../helpers/inventoryFixtures';
import { createTestDb, testEngines, type TestDb } from '../helpers/testDb';

/** Friday 2026-11-20 in Mexico City (the company's zone, UTC−6 all year). */
const TODAY = '2026-11-20';
const local = (date: string, time: string) => Date.parse(`${date}T${time}:00-06:00`);
const day = (n: number) => addDays(TODAY, n);
const SYSTEM = { adminId: null, email: 'prueba', ip: null, requestId: null };
const HOUR = 3600_000;
const DAY = 24 * HOUR;

let imeis = 0;
const nextImei = () => testImei(720_000 + ++imeis, '35');

describe.each(testEngines())('general dashboard credit figures on %s', (engine) => {
  let t: TestDb;
  let api: AdminApi;
  let clock = local(TODAY, '12:00');

  beforeAll(async () => {
    t = await createTestDb(engine);
    api = await adminApi(t.db, { deps: { now: () => new Date(clock) } });
    // The policy locks at 7 days overdue, 08:00–20:00; no reminder or rung gets in the way.
    await t.db.query(`UPDATE collection_policy SET settings = '{"reminders": [], "ladder": []}' WHERE group_id IS NULL`);
  });
  afterAll(async () => {
    await api?.ta.services.agent.stop();
    await t?.dispose();
  });

  const services = () => api.ta.services;
  const put = (reference: string, installments: { number: number; dueDate: string; amount: string }[]) =>
    services().credits.put(SYSTEM, reference, creditBody.parse({ customerName: 'Ana Ruiz', installments }));
  const pay = (reference: string, externalId: string, amount: string, paidAt: number) =>
    services().credits.registerPayment(
      SYSTEM,
      reference,
      paymentBody.parse({ externalId, amount, paidAt: new Date(paidAt).toISOString() }),
      'portal',
    );
  const device = async (reference: string | null, over: Parameters<typeof insertDevices>[1][number] = {}) =>
    (await insertDevices(t.db, [{ imei: nextImei(), creditReference: reference, lastSeenAt: new Date(clock), ...over }]))[0]!;
  /** A command of the device's history as the agent left it (carried out, or an offline code redeemed) at `at`. */
  const command = (deviceId: number, action: number, status: string, at: number, payload: object = {}) =>
    t.db.query(
      `INSERT INTO device_commands (device_id, action, payload, status, requested_at, deliver_after, delivered_at, acknowledged_at)
       VALUES ($1, $2, $3::jsonb, $4, $5, $5, $5, CASE WHEN $4 IN ('acknowledged', 'redeemed') THEN $5::timestamptz END)`,
      [deviceId, action, JSON.stringify(payload), status, new Date(at)],
    );
  const creditLock = { lockType: 'PorCredito', message: 'x', stolen: false };
  const now = () => new Date(clock);

  test('the devices the policy locked and unlocked on the company day; the devices unlocked within 7 days of a lock', async () => {
    // Yesterday the policy locked F's device: not today's.
    clock = local(day(-1), '12:00');
    const f = await device('DC-F');
    await put('DC-F', [{ number: 1, dueDate: day(-9), amount: '400.00' }]);
    // Today: A's two devices are locked at once (the new schedule re-plans it), B's device locked Por
    // Crédito is unlocked by a payment; S's only device, locked for another reason, takes no lock.
    clock = local(TODAY, '12:00');
    await device('DC-A');
    await device('DC-A');
    await device('DC-B', { lockState: 'locked', lockType: 'PorCredito' });
    await put('DC-A', [{ number: 1, dueDate: day(-10), amount: '1000.00' }]);
    await put('DC-B', [
      { number: 1, dueDate: day(-10), amount: '700.00' },
      { number: 2, dueDate: day(20), amount: '700.00' },
    ]);
    await device('DC-S', { lockState: 'locked', lockType: 'PorCambioSIM' });
    await put('DC-S', [{ number: 1, dueDate: day(-8), amount: '100.00' }]);
    clock = local(TODAY, '12:05');
    await pay('DC-B', 'p-1', '700.00', clock - 60_000);
    const steps = await t.db.query<{ reference: string; kind: string; outcome: string; devices: number }>(
      `SELECT c.reference, s.kind, s.outcome, cardinality(s.device_ids) AS devices FROM credit_steps s JOIN credits c ON c.id = s.credit_id
        WHERE s.kind IN ('lock', 'unlock') ORDER BY s.id`,
    );
    expect(steps.rows).toEqual([
      { reference: 'DC-F', kind: 'lock', outcome: 'done', devices: 1 },
      { reference: 'DC-A', kind: 'lock', outcome: 'done', devices: 2 },
      { reference: 'DC-B', kind: 'unlock', outcome: 'done', devices: 1 },
    ]);

    // The lock measure: F's lock acknowledged yesterday and unlocked now counts; the rest are set
    // at the bounds. d1 unlocked 7 days to the minute after its lock (counts), d2 a minute later
    // (does not), d3 locked before the 30 days, d4 locked for another reason, d5 unlocked by an
    // offline code, d6 a lock never carried out, d7 unlocked before its lock only.
    const lockedF = Number((await t.db.query<{ id: string }>('SELECT id FROM device_commands WHERE device_id = $1', [f])).rows[0]!.id);
    await t.db.query(`UPDATE device_commands SET status = 'acknowledged', acknowledged_at = $2 WHERE id = $1`, [
      lockedF,
      new Date(local(day(-1), '12:10')),
    ]);
    await command(f, DEVICE_ACTION.UNLOCK, 'acknowledged', local(TODAY, '09:00'));
    const [d1, d2, d3, d4, d5, d6, d7] = await insertDevices(
      t.db,
      Array.from({ length: 7 }, () => ({ imei: nextImei() })),
    );
    const start = local(day(-29), '00:00');
    await command(d1!, DEVICE_ACTION.LOCK, 'acknowledged', start, creditLock);
    await command(d1!, DEVICE_ACTION.UNLOCK, 'acknowledged', start + 7 * DAY);
    await command(d2!, DEVICE_ACTION.LOCK, 'acknowledged', local(day(-20), '10:00'), creditLock);
    await command(d2!, DEVICE_ACTION.RELEASE, 'acknowledged', local(day(-13), '10:01'));
    await command(d3!, DEVICE_ACTION.LOCK, 'acknowledged', start - 60_000, creditLock);
    await command(d3!, DEVICE_ACTION.UNLOCK, 'acknowledged', start + HOUR);
    await command(d4!, DEVICE_ACTION.LOCK, 'acknowledged', local(day(-3), '10:00'), { ...creditLock, lockType: 'PorCambioSIM' });
    await command(d4!, DEVICE_ACTION.UNLOCK, 'acknowledged', local(day(-2), '10:00'));
    await command(d5!, DEVICE_ACTION.LOCK, 'acknowledged', local(day(-2), '10:00'), creditLock);
    await command(d5!, DEVICE_ACTION.UNLOCK_OFFLINE, 'redeemed', local(day(-1), '10:00'));
    await command(d6!, DEVICE_ACTION.LOCK, 'rejected', local(day(-2), '10:00'), creditLock);
    await command(d6!, DEVICE_ACTION.UNLOCK, 'acknowledged', local(day(-1), '10:00'));
    await command(d7!, DEVICE_ACTION.UNLOCK, 'acknowledged', local(day(-5), '10:00'));
    await command(d7!, DEVICE_ACTION.LOCK, 'acknowledged', local(day(-4), '10:00'), creditLock);

    const repo = new DashboardRepository(t.db);
    expect(await repo.creditActivity(new Date(local(TODAY, '00:00')), new Date(local(day(1), '00:00')), new Date(start), now(), 7)).toEqual({
      locksToday: 2,
      unlocksToday: 1,
      locked: 5,
      unlocked: 3,
    });
    // Yesterday's figures from the same rows: F's lock; the devices locked by then.
    expect(
      await repo.creditActivity(
        new Date(local(day(-1), '00:00')),
        new Date(local(TODAY, '00:00')),
        new Date(start),
        new Date(local(day(-1), '23:00')),
        7,
      ),
    ).toEqual({ locksToday: 1, unlocksToday: 0, locked: 5, unlocked: 2 });
  });

  test('the API adds the credits section for a role holding the portfolio, each figure the portfolio summary’s', async () => {
    clock = local(TODAY, '13:00');
    // Overdue 3 days (1–7), 45 days (31+) with nothing to lock; a credit up to date paid yesterday night.
    await put('DC-E', [{ number: 1, dueDate: day(-3), amount: '300.00' }]);
    await put('DC-D', [{ number: 1, dueDate: day(-45), amount: '500.00' }]);
    await put('DC-C', [
      { number: 1, dueDate: day(-1), amount: '200.00' },
      { number: 2, dueDate: day(30), amount: '200.00' },
    ]);
    await pay('DC-C', 'p-2', '200.00', local(day(-1), '23:59'));

    const admin = await api.headersOf('admin@demo.local');
    const res = await request(api.ta.app).get('/api/v5/dashboard/general').set(admin).expect(200);
    const body = generalDashboardResponse.parse(res.body);
    expect(body.credits).toEqual({
      today: TODAY,
      timeZone: 'America/Mexico_City',
      // A (10 days), F (10 days), S (9 days): 8–30; E: 1–7; D: 31+.
      overdue: 5,
      overdueBuckets: { '1-7': 1, '8-30': 3, '31+': 1 },
      amountOverdue: [{ currency: 'MXN', amount: '2300.00' }],
      paymentsToday: { count: 1, amounts: [{ currency: 'MXN', amount: '700.00' }] },
      automaticLocksToday: 2,
      automaticUnlocksToday: 1,
      unlockedAfterLock: { locked: 5, unlocked: 3 },
    });
    const summary = await request(api.ta.app).get('/api/v5/credits/summary').set(admin).expect(200);
    expect(body.credits!.overdue).toBe(summary.body.byState.overdue);
    expect(body.credits!.overdueBuckets).toEqual(summary.body.overdueBuckets);
    // Each count is the total of the portfolio filtered the way its link opens it.
    for (const [query, n] of [
      ['state=overdue', 5],
      ['overdue=1-7', 1],
      ['overdue=8-30', 3],
      ['overdue=31%2B', 1],
    ] as const) {
      expect((await request(api.ta.app).get(`/api/v5/credits?${query}`).set(admin).expect(200)).body.total).toBe(n);
    }
  });

  test('the reads are index ranges of migration 0027 (the plan asked with sequential scans and bitmaps priced out)', async () => {
    const sent: { sql: string; params: unknown[] }[] = [];
    const recorder = {
      query: (sql: string, params: unknown[] = []) => {
        sent.push({ sql, params });
        return Promise.resolve({ rows: [{ locks_today: 0, unlocks_today: 0, locked: 0, unlocked: 0 }] });
      },
    } as unknown as Queryable;
    await new DashboardRepository(recorder).creditActivity(
      new Date(local(TODAY, '00:00')),
      new Date(local(day(1), '00:00')),
      new Date(local(day(-29), '00:00')),
      now(),
      7,
    );
    const plan = await planWith(t.db, sent[0]!.sql, sent[0]!.params, { enable_seqscan: 'off', enable_bitmapscan: 'off' });
    const indexes = new Set(planNodes(plan).map((n) => n['Index Name']));
    for (const index of ['credit_steps_acted', 'device_commands_credit_locks', 'device_commands_unlocks']) expect(indexes).toContain(index);
  });

  test('a role without the portfolio gets the dashboard without the credits section, not a 403', async () => {
    const profile = await api.addProfile('Tablero sin cartera', ['/dashboard', '/dashboard/general'], []);
    await api.addAdmin('tablero@demo.local', profile);
    const headers = await api.headersOf('tablero@demo.local');
    const res = await request(api.ta.app).get('/api/v5/dashboard/general').set(headers).expect(200);
    expect(res.body).not.toHaveProperty('credits');
    expect(generalDashboardResponse.parse(res.body).totals.devices).toBeGreaterThan(0);
    // The portfolio itself stays closed to that role.
    await request(api.ta.app).get('/api/v5/credits/summary').set(headers).expect(403);
  });
});
