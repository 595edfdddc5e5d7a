import { todayIn } from '../../shared/credits';
import { createTestDb, type TestDb } from '../../tests/helpers/testDb';
import { planDemoCredits, seedDemoCredits, type CreditDevice } from './demoCredits';
import { demoDeviceRows, insertDemoBatch, seedDemoDevices } from './demoDevices';

const NOW = new Date('2026-03-02T15:00:00Z');
const ZONE = 'America/Mexico_City';
const TODAY = todayIn(ZONE, NOW);

/** The generator's devices as the plan reads them, numbered from 1. */
function devices(count: number, seed = 7): CreditDevice[] {
  return [...demoDeviceRows(count, seed, NOW)]
    .flat()
    .map((r, i) => ({ ...r, id: i + 1 }))
    .filter((r) => r.creditReference !== null)
    .map((r) => ({
      id: r.id,
      deviceType: r.deviceType,
      creditReference: r.creditReference!,
      customerName: r.customerName,
      createdAt: r.createdAt,
      lifecycle: r.lifecycle,
      lockState: r.lockState,
      lockType: r.lockType,
      pendingAction: r.pendingAction,
    }));
}

describe('planDemoCredits', () => {
  const fleet = devices(4_000);
  const plan = planDemoCredits(fleet, NOW, ZONE, 7);

  test('the same devices and seed give the same plan; another seed another', () => {
    expect(planDemoCredits(fleet, NOW, ZONE, 7)).toEqual(plan);
    expect(planDemoCredits(fleet, NOW, ZONE, 8).credits.map((c) => c.payments.length)).not.toEqual(plan.credits.map((c) => c.payments.length));
  });

  test('a TV moved onto a credit takes the reference and customer of a phone of that credit', () => {
    expect(plan.moved.length).toBeGreaterThan(0);
    const byId = new Map(fleet.map((d) => [d.id, d]));
    for (const m of plan.moved) {
      expect(byId.get(m.id)!.deviceType).toBe(2);
      const phone = fleet.find((d) => d.deviceType === 1 && d.creditReference === m.creditReference)!;
      expect(phone.customerName).toBe(m.customerName);
    }
    const references = new Set(fleet.map((d) => d.creditReference.toLowerCase()));
    for (const m of plan.moved) references.delete(byId.get(m.id)!.creditReference.toLowerCase());
    for (const m of plan.moved) references.add(m.creditReference.toLowerCase());
    expect(new Set(plan.credits.map((c) => c.reference.toLowerCase()))).toEqual(references);
  });

  test('payments add up to at most the schedule, in order, in the past, with unique external ids', () => {
    for (const c of plan.credits) {
      const total = c.installments.reduce((sum, i) => sum + i.amountCents, 0);
      const paid = c.payments.reduce((sum, p) => sum + p.amountCents, 0);
      expect(paid).toBeLessThanOrEqual(total);
      if (c.standing === 'paid_off') expect(paid).toBe(total);
      const times = c.payments.map((p) => p.paidAt.getTime());
      expect(times).toEqual([...times].sort((a, b) => a - b));
      expect(c.payments.every((p) => p.paidAt <= NOW && p.recordedAt >= p.paidAt && p.recordedAt <= NOW && p.amountCents > 0)).toBe(true);
      expect(c.payments.every((p) => p.paidAt >= c.createdAt)).toBe(true);
      expect(new Set(c.payments.map((p) => p.externalId)).size).toBe(c.payments.length);
    }
  });

  test('a credit is overdue exactly when its plan says so, in the bucket it says', () => {
    for (const c of plan.credits) {
      const paid = c.payments.reduce((sum, p) => sum + p.amountCents, 0);
      let upto = 0;
      const firstUnpaid = c.installments.find((i) => (upto += i.amountCents) > paid);
      const late = firstUnpaid && firstUnpaid.dueDate < TODAY ? Math.round((Date.parse(TODAY) - Date.parse(firstUnpaid.dueDate)) / 86_400_000) : 0;
      const bucket = late === 0 ? null : late <= 7 ? '1-7' : late <= 30 ? '8-30' : '31+';
      if (c.standing === '1-7' || c.standing === '8-30' || c.standing === '31+') expect(bucket).toBe(c.standing);
      else expect(bucket).toBeNull();
    }
  });
});

describe('seedDemoCredits on a demo seeded before credits existed', () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb('pglite');
  }, 60_000);
  afterAll(async () => {
    await t?.dispose();
  });

  test('the devices get their credits once, at the next start', async () => {
    await t.db.transaction(async (tx) => {
      for (const batch of demoDeviceRows(300, 5, NOW)) await insertDemoBatch(tx, batch, [], NOW);
    });
    const count = async () => Number((await t.db.query<{ n: number }>('SELECT count(*) AS n FROM credits')).rows[0]!.n);
    expect(await count()).toBe(0);
    expect(await seedDemoDevices(t.db, 300, { now: NOW, seed: 5 })).toBe(0);
    const seeded = await count();
    expect(seeded).toBe(Number((await t.db.query<{ n: number }>('SELECT count(DISTINCT lower(credit_reference)) AS n FROM devices')).rows[0]!.n));
    expect(await seedDemoDevices(t.db, 300, { now: NOW, seed: 5 })).toBe(0);
    await t.db.transaction(async (tx) => expect(await seedDemoCredits(tx, NOW, ZONE, 5)).toBe(0));
    expect(await count()).toBe(seeded);
  }, 60_000);

  test('a fleet larger than twice the demo size is left without credits', async () => {
    const other = await createTestDb('pglite');
    try {
      await other.db.transaction(async (tx) => {
        for (const batch of demoDeviceRows(50, 5, NOW)) await insertDemoBatch(tx, batch, [], NOW);
      });
      expect(await seedDemoDevices(other.db, 10, { now: NOW })).toBe(0);
      expect(Number((await other.db.query<{ n: number }>('SELECT count(*) AS n FROM credits')).rows[0]!.n)).toBe(0);
    } finally {
      await other.dispose();
    }
  }, 60_000);
});
