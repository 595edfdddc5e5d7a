import fc from 'fast-check';
import { addDays } from './calendarDate';
import { planCollection, stepKey, type CollectionPolicy, type Plan, type PlanCredit } from './collectionPlan';
import { formatMoney } from './money';
import { instantAt, todayIn } from './timeZone';
import { isWorkingDay, mexicanHolidays } from './workingDays';

const TZ = 'America/Mexico_City';
const mx = (date: string, time: string) => instantAt(date, time, TZ);
const format = { money: formatMoney, date: (d: string) => d };

const POLICY: CollectionPolicy = {
  reminders: [
    { offsetDays: -3, message: 'Hola {nombre}, tu pago de {monto} vence el {fecha} ({referencia}).', barcode: false },
    { offsetDays: 0, message: 'Hoy vence tu pago de {monto}.', barcode: true },
  ],
  ladder: [
    { daysOverdue: 1, kind: 'notification', message: 'Tu pago de {monto} está vencido.' },
    { daysOverdue: 3, kind: 'persistent_notification', message: 'Paga {monto} para evitar el bloqueo.' },
    { daysOverdue: 5, kind: 'restrictions', message: '' },
  ],
  lock: { enabled: true, daysOverdue: 7, message: 'Equipo bloqueado por falta de pago de {monto}.' },
  hours: { from: '08:00', to: '20:00' },
  calendar: { nonWorkingWeekdays: [0], holidays: [...mexicanHolidays(2026), ...mexicanHolidays(2027)] },
  shiftDueDates: false,
  unlockThresholdCents: 0,
  release: 'approval',
  manualUnlockHoldHours: 24,
};

/** Four weekly installments of 1,000.00 from Thursday 10 December 2026. */
const credit = (over: Partial<PlanCredit> = {}): PlanCredit => ({
  reference: 'CR-1',
  customerName: 'Ana López',
  currency: 'MXN',
  installments: [0, 1, 2, 3].map((k) => ({ number: k + 1, dueDate: addDays('2026-12-10', 7 * k), amountCents: 100_000 })),
  paidCents: 0,
  cancelled: false,
  pausedUntil: null,
  holdUntil: null,
  done: new Set(),
  restricted: false,
  devices: { lockable: 1, lockedByCredit: 0, unreleased: 1 },
  ...over,
});

const plan = (now: Date, over: Partial<PlanCredit> = {}, policy: CollectionPolicy = POLICY) => planCollection(policy, credit(over), now, TZ, format);
const keys = (p: Plan) => p.steps.map((s) => s.key);
/** Every reminder of installment 1 already taken (to look at the ladder alone). */
const remindersDone = (...installments: number[]) => installments.flatMap((n) => POLICY.reminders.map((r) => stepKey.reminder(n, r.offsetDays)));

describe('reminders', () => {
  test('three days before the due date, from 08:00 of that day: not before, and skipped once its window has closed', () => {
    const early = plan(mx('2026-12-07', '07:00'));
    expect(early.steps).toEqual([]);
    expect(early.nextAt).toEqual(mx('2026-12-07', '08:00'));
    const due = plan(mx('2026-12-07', '08:00'));
    expect(keys(due)).toEqual(['1:reminder:-3']);
    expect(due.steps[0]).toMatchObject({
      kind: 'reminder',
      message: 'Hola Ana López, tu pago de 1,000.00 MXN vence el 2026-12-10 (CR-1).',
      barcode: false,
    });
    expect(due.nextAt).toEqual(mx('2026-12-07', '08:00'));
    const taken = plan(mx('2026-12-07', '08:00'), { done: new Set(['1:reminder:-3']) });
    expect(taken.steps).toEqual([]);
    expect(taken.nextAt).toEqual(mx('2026-12-10', '08:00'));
    const late = plan(mx('2026-12-07', '20:00'));
    expect(late.steps).toEqual([]);
    expect(late.skipped).toEqual([{ key: '1:reminder:-3', installment: 1, why: 'late' }]);
  });

  test('the reminder of the due date itself carries the barcode; a paid installment is not reminded', () => {
    const due = plan(mx('2026-12-10', '12:00'), { done: new Set(['1:reminder:-3']) });
    expect(due.steps).toEqual([expect.objectContaining({ key: '1:reminder:0', barcode: true, message: 'Hoy vence tu pago de 1,000.00 MXN.' })]);
    const paid = plan(mx('2026-12-10', '12:00'), { paidCents: 100_000 });
    expect(paid.steps).toEqual([]);
    // Installment 2 (17 December) is next: its reminder three days before.
    expect(paid.nextAt).toEqual(mx('2026-12-14', '08:00'));
  });

  test('a reminder day that is a Sunday or a holiday waits for the next working day', () => {
    // Due Wednesday 9 December: three days before is Sunday 6 December.
    const installments = [{ number: 1, dueDate: '2026-12-09', amountCents: 50_000 }];
    expect(plan(mx('2026-12-06', '10:00'), { installments }).nextAt).toEqual(mx('2026-12-07', '08:00'));
    expect(keys(plan(mx('2026-12-07', '09:00'), { installments }))).toEqual(['1:reminder:-3']);
    // Due Saturday 19 September: three days before is Wednesday 16 September, a holiday.
    const holiday = [{ number: 1, dueDate: '2026-09-19', amountCents: 50_000 }];
    expect(plan(mx('2026-09-16', '10:00'), { installments: holiday }).nextAt).toEqual(mx('2026-09-17', '08:00'));
  });
});

describe('the ladder', () => {
  const done = new Set(remindersDone(1));
  test('the day after the due date: the first rung, with the overdue amount', () => {
    const p = plan(mx('2026-12-11', '10:00'), { done });
    expect(p.steps).toEqual([
      expect.objectContaining({ key: '1:ladder:1:notification', kind: 'notification', message: 'Tu pago de 1,000.00 MXN está vencido.' }),
    ]);
    expect(p.standing).toMatchObject({ state: 'overdue', daysOverdue: 1, amountOverdueCents: 100_000 });
  });

  test('a credit first seen six days late takes the highest rung reached and skips the ones before it', () => {
    const p = plan(mx('2026-12-16', '10:00'), { done });
    expect(p.steps.filter((s) => s.kind !== 'reminder')).toEqual([expect.objectContaining({ key: '1:ladder:5:restrictions', kind: 'restrictions' })]);
    expect(p.skipped.filter((s) => s.key.includes('ladder'))).toEqual([
      { key: '1:ladder:1:notification', installment: 1, why: 'superseded' },
      { key: '1:ladder:3:persistent_notification', installment: 1, why: 'superseded' },
    ]);
  });

  test('outside the hours a rung waits for the next window; at night nothing reaches the customer', () => {
    const p = plan(mx('2026-12-11', '21:00'), { done });
    expect(p.steps).toEqual([]);
    expect(p.nextAt).toEqual(mx('2026-12-12', '08:00'));
  });
  test('a credit first seen at the lock day is locked; the restrictions rung due with it is superseded, not sent', () => {
    const p = plan(mx('2026-12-17', '10:00'), { done });
    expect(p.lock).not.toBeNull();
    expect(p.steps.filter((s) => s.kind !== 'reminder')).toEqual([]);
    expect(p.skipped.filter((s) => s.key.includes('ladder'))).toEqual([
      { key: '1:ladder:1:notification', installment: 1, why: 'superseded' },
      { key: '1:ladder:3:persistent_notification', installment: 1, why: 'superseded' },
      { key: '1:ladder:5:restrictions', installment: 1, why: 'superseded' },
    ]);
  });
});

describe('the lock', () => {
  const done = new Set([...remindersDone(1, 2), '1:ladder:1:notification', '1:ladder:3:persistent_notification', '1:ladder:5:restrictions']);
  test('seven days overdue, only from 08:00', () => {
    const before = plan(mx('2026-12-17', '07:59'), { done });
    expect(before.lock).toBeNull();
    expect(before.nextAt).toEqual(mx('2026-12-17', '08:00'));
    const at = plan(mx('2026-12-17', '08:00'), { done });
    expect(at.lock).toEqual({
      message: 'Equipo bloqueado por falta de pago de 1,000.00 MXN.',
      values: { nombre: 'Ana López', monto: '1,000.00 MXN', fecha: '2026-12-10', referencia: 'CR-1' },
    });
  });

  test('never on a holiday: a lock day of 16 September waits for the 17th', () => {
    const installments = [{ number: 1, dueDate: '2026-09-09', amountCents: 50_000 }];
    const d = new Set([...remindersDone(1), '1:ladder:1:notification', '1:ladder:3:persistent_notification', '1:ladder:5:restrictions']);
    const holiday = plan(mx('2026-09-16', '12:00'), { installments, done: d });
    expect(holiday.lock).toBeNull();
    expect(holiday.nextAt).toEqual(mx('2026-09-17', '08:00'));
    expect(plan(mx('2026-09-17', '08:00'), { installments, done: d }).lock).not.toBeNull();
  });

  test('devices already locked: nothing to lock', () => {
    expect(plan(mx('2026-12-17', '09:00'), { done, devices: { lockable: 0, lockedByCredit: 1, unreleased: 1 } }).lock).toBeNull();
  });

  test('a promise to pay pauses reminders, rungs and the lock until its date', () => {
    const pausedUntil = mx('2026-12-19', '00:00');
    const p = plan(mx('2026-12-17', '09:00'), { done, pausedUntil });
    expect(p.lock).toBeNull();
    expect(p.steps).toEqual([]);
    expect(p.nextAt).toEqual(pausedUntil);
  });

  test('after a person unlocked a device, the lock waits for the hold to end', () => {
    const holdUntil = mx('2026-12-18', '09:30');
    const p = plan(mx('2026-12-17', '09:00'), { done, holdUntil });
    expect(p.lock).toBeNull();
    expect(p.nextAt).toEqual(holdUntil);
    expect(plan(holdUntil, { done, holdUntil }).lock).not.toBeNull();
  });
});

describe('what a payment undoes, at any hour', () => {
  test('nothing overdue: unlock the devices locked Por Crédito and lift the restrictions, even at 23:00', () => {
    const p = plan(mx('2026-12-17', '23:00'), { paidCents: 100_000, restricted: true, devices: { lockable: 0, lockedByCredit: 2, unreleased: 2 } });
    expect(p).toMatchObject({ unlock: true, liftRestrictions: true, lock: null });
    expect(p.nextAt).toEqual(mx('2026-12-17', '23:00'));
  });

  test('an overdue amount at or under the threshold counts as nothing overdue', () => {
    const policy = { ...POLICY, unlockThresholdCents: 5_000 };
    const devices = { lockable: 0, lockedByCredit: 1, unreleased: 1 };
    expect(plan(mx('2026-12-16', '10:00'), { paidCents: 95_000, devices }, policy)).toMatchObject({ unlock: true, lock: null });
    expect(plan(mx('2026-12-16', '10:00'), { paidCents: 94_999, devices }, policy)).toMatchObject({ unlock: false });
  });

  test('paid off: a release request once (or the release itself when automatic); cancelled: nothing at all', () => {
    const paid = { paidCents: 400_000 };
    expect(plan(mx('2026-12-20', '03:00'), paid).steps).toEqual([{ key: '0:release', kind: 'release_request' }]);
    expect(plan(mx('2026-12-20', '03:00'), paid, { ...POLICY, release: 'automatic' }).steps).toEqual([{ key: '0:release', kind: 'release' }]);
    const after = plan(mx('2026-12-20', '03:00'), { ...paid, done: new Set(['0:release']) });
    expect(after).toMatchObject({ steps: [], nextAt: null });
    expect(plan(mx('2026-12-20', '03:00'), { cancelled: true })).toMatchObject({ steps: [], skipped: [], lock: null, unlock: false, nextAt: null });
  });
});

test('shifted due dates: a due date on Sunday is overdue from Tuesday, not Monday', () => {
  const installments = [{ number: 1, dueDate: '2026-12-06', amountCents: 10_000 }];
  const policy = { ...POLICY, shiftDueDates: true };
  const done = new Set(remindersDone(1));
  expect(plan(mx('2026-12-07', '12:00'), { installments, done }, policy).standing.state).toBe('current');
  expect(plan(mx('2026-12-08', '12:00'), { installments, done }, policy)).toMatchObject({
    standing: { state: 'overdue', daysOverdue: 1 },
    steps: [expect.objectContaining({ key: '1:ladder:1:notification' })],
  });
});

describe('the clock run (properties)', () => {
  /**
   * Runs the engine's loop on a credit nobody pays: plan, take every step and skip, lock when told,
   * then jump to the plan's nextAt. Every once-only step happens at most once, every customer-facing
   * step inside the hours of a working day, and the loop always moves forward.
   */
  function run(policy: CollectionPolicy, start: Date, end: Date, payAt: Date | null) {
    const c = credit({ devices: { lockable: 1, lockedByCredit: 0, unreleased: 1 } });
    const done = new Set<string>();
    const events: { at: Date; what: string }[] = [];
    let now = start;
    for (let i = 0; i < 500 && now < end; i++) {
      if (payAt && now >= payAt) c.paidCents = 400_000;
      const p = planCollection(policy, { ...c, done }, now, TZ, format);
      for (const s of p.steps) {
        expect(done.has(s.key)).toBe(false);
        done.add(s.key);
        events.push({ at: now, what: s.key });
      }
      for (const s of p.skipped) done.add(s.key);
      if (p.lock) {
        c.devices = { lockable: 0, lockedByCredit: 1, unreleased: 1 };
        events.push({ at: now, what: 'lock' });
      }
      if (p.unlock) {
        c.devices = { lockable: 1, lockedByCredit: 0, unreleased: 1 };
        events.push({ at: now, what: 'unlock' });
      }
      const again = planCollection(policy, { ...c, done }, now, TZ, format);
      expect(again.steps).toEqual([]);
      // A payment re-plans at once, whatever the plan's own next instant.
      const next = payAt && payAt > now && (!again.nextAt || payAt < again.nextAt) ? payAt : again.nextAt;
      if (!next) break;
      expect(next.getTime()).toBeGreaterThan(now.getTime());
      now = next;
    }
    return events;
  }

  test('unpaid: every step once, customer-facing ones inside the hours of working days, the lock on day 7', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 20 * 24 * 60 }), (minutes) => {
        const start = new Date(mx('2026-12-01', '00:00').getTime() + minutes * 60_000);
        const events = run(POLICY, start, mx('2027-01-31', '00:00'), null);
        for (const e of events) {
          const day = todayIn(TZ, e.at);
          expect(isWorkingDay(day, POLICY.calendar)).toBe(true);
          expect(e.at >= mx(day, '08:00') && e.at < mx(day, '20:00')).toBe(true);
        }
        const locks = events.filter((e) => e.what === 'lock');
        expect(locks).toHaveLength(1);
        // The first installment falls due on 10 December: seven days later is Thursday 17 December.
        expect(locks[0]!.at >= mx('2026-12-17', '08:00')).toBe(true);
      }),
      { numRuns: 40 },
    );
  });

  test('paid at any moment after the lock: unlocked at that moment, whatever the hour', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 * 24 * 60 }), (minutes) => {
        const payAt = new Date(mx('2026-12-18', '00:00').getTime() + minutes * 60_000);
        const events = run(POLICY, mx('2026-12-01', '00:00'), mx('2027-01-31', '00:00'), payAt);
        expect(events.filter((e) => e.what === 'unlock')).toEqual([{ at: payAt, what: 'unlock' }]);
        expect(events.filter((e) => e.what === 'lock')).toHaveLength(1);
        expect(events.filter((e) => e.what === '0:release')).toEqual([{ at: payAt, what: '0:release' }]);
      }),
      { numRuns: 30 },
    );
  });
});
