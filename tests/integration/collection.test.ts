/**
 * The collection policy's engine on both engines, with the app's controllable clock: a reminder at
 * its offset (once), the lock at N days only inside the allowed hours and not on a holiday, the
 * unlock a payment brings (its command exists when the payment answers; other lock types are not
 * touched), the hold after a person's unlock, the release at payoff through the approval queue,
 * the pause, skips with their reasons, and each step once with two engines ticking at once.
 */
import request from 'supertest';
import { COLLECTION_POLICY_ACTOR } from '../../shared/constants/creditLabels';
import { DEVICE_ACTION } from '../../shared/constants/deviceActions';
import {
  approvalListResponse,
  approvalResponse,
  collectionPolicyResponse,
  creditBody,
  creditDetailResponse,
  deviceCreditResponse,
} from '../../shared/contracts/credits';
import { addDays } from '../../shared/credits';
import { CollectionEngine } from '../../server/credits';
import { adminApi, type AdminApi } from '../helpers/adminApi';
import { insertDevices, testImei } from '../helpers/inventoryFixtures';
import { createTestDb, testEngines, type TestDb } from '../helpers/testDb';
import { migrate } from '../../server/db/migrate';
import { migrations } from '../../server/db/migrations/index';

/** 12:00 in Mexico City (UTC−6 all year since 2022) on Friday 2026-11-20. */
const TODAY = '2026-11-20';
/** The instant a local time of a day of Mexico City is (UTC−6). */
const local = (date: string, time: string) => Date.parse(`${date}T${time}:00-06:00`);
const day = (n: number) => addDays(TODAY, n);
const SYSTEM = { adminId: null, email: 'prueba', ip: null, requestId: null };

let imeis = 0;
const nextImei = () => testImei(610_000 + ++imeis, '35');
let refs = 0;
const nextRef = () => `CB-${++refs}`;
/** The fields a device's PUT takes, from its GET. */
const pick = (d: Record<string, unknown>) =>
  Object.fromEntries(['imei', 'imei2', 'serial', 'deviceType', 'brand', 'model', 'groupId', 'customerName', 'creditReference'].map((k) => [k, d[k]]));

describe.each(testEngines())('collection policy on %s', (engine) => {
  let t: TestDb;
  let api: AdminApi;
  let admin: Record<string, string>;
  let clock = local(TODAY, '12:00');

  beforeAll(async () => {
    t = await createTestDb(engine);
    api = await adminApi(t.db, { deps: { now: () => new Date(clock) } });
    admin = await api.headersOf('admin@demo.local');
  });
  afterAll(async () => {
    await api?.ta.services.agent.stop();
    await t?.dispose();
  });
  beforeEach(async () => {
    clock = local(TODAY, '12:00');
    // Each test states the policy it needs over the defaults.
    await t.db.query(`UPDATE collection_policy SET settings = '{}' WHERE group_id IS NULL`);
  });

  const app = () => api.ta.app;
  const services = () => api.ta.services;
  const setPolicy = (settings: object) =>
    t.db.query('UPDATE collection_policy SET settings = $1::jsonb WHERE group_id IS NULL', [JSON.stringify(settings)]);
  const put = (reference: string, installments: { number: number; dueDate: string; amount: string }[]) =>
    services().credits.put(SYSTEM, reference, creditBody.parse({ customerName: 'Ana Ruiz', installments }));
  const device = async (reference: string, over: Parameters<typeof insertDevices>[1][number] = {}) =>
    (await insertDevices(t.db, [{ imei: nextImei(), creditReference: reference, lastSeenAt: new Date(clock), ...over }]))[0]!;
  const commands = async (deviceId: number) =>
    (
      await t.db.query<{ action: number; requested_by: string; payload: Record<string, unknown>; status: string }>(
        'SELECT action, requested_by, payload, status FROM device_commands WHERE device_id = $1 ORDER BY id',
        [deviceId],
      )
    ).rows;
  const steps = async (reference: string) =>
    (
      await t.db.query<{ step_key: string; outcome: string; reason: string; skipped_devices: { id: number; reason: string }[] }>(
        'SELECT s.step_key, s.outcome, s.reason, s.skipped_devices FROM credit_steps s JOIN credits c ON c.id = s.credit_id WHERE c.reference = $1 ORDER BY s.id',
        [reference],
      )
    ).rows;
  const nextStepAt = async (reference: string) =>
    (await t.db.query<{ next_step_at: Date | null }>('SELECT next_step_at FROM credits WHERE reference = $1', [reference])).rows[0]!.next_step_at;
  const tick = async (at: number) => {
    clock = at;
    return services().collection.tick();
  };
  /** What the agent does when it carries out the command in flight (its check-in), written directly. */
  const acknowledge = (deviceId: number, lockState: 'locked' | 'active', lockType: string | null = null) =>
    t.db.query(
      'UPDATE devices SET lock_state = $2, lock_type = $3, pending_action = NULL, pending_command_id = NULL, pending_until = NULL WHERE id = $1',
      [deviceId, lockState, lockType],
    );

  test('a reminder goes at its offset inside the allowed hours, once, as the policy with its reason', async () => {
    await setPolicy({ ladder: [], lock: { enabled: false, daysOverdue: 7, message: 'x' } });
    const ref = nextRef();
    const id = await device(ref);
    clock = local(TODAY, '06:00');
    // Due Monday: the reminder 3 days before is today's, from 08:00.
    await put(ref, [{ number: 1, dueDate: day(3), amount: '1250.00' }]);
    expect(await commands(id)).toEqual([]);
    expect(await nextStepAt(ref)).toEqual(new Date(local(TODAY, '08:00')));

    await tick(local(TODAY, '07:59'));
    expect(await commands(id)).toEqual([]);
    await tick(local(TODAY, '08:00'));
    await tick(local(TODAY, '08:01'));
    const sent = await commands(id);
    expect(sent).toEqual([
      {
        action: DEVICE_ACTION.SEND_NOTIFICATION,
        requested_by: COLLECTION_POLICY_ACTOR,
        status: 'pending',
        payload: { title: 'Recordatorio de pago', message: `Hola Ana Ruiz: tu pago de 1,250.00 MXN del crédito ${ref} vence el 23 nov..` },
      },
    ]);
    expect(await steps(ref)).toEqual([
      { step_key: '1:reminder:-3', outcome: 'done', reason: 'vence en 3 días (23 nov.), 1,250.00 MXN, política Global v1', skipped_devices: [] },
    ]);
    const audit = await t.db.query<{ actor_email: string; detail: string }>(
      "SELECT actor_email, detail FROM audit_log WHERE entity = 'device' AND entity_id = $1 AND action = 'send_notification'",
      [String(id)],
    );
    expect(audit.rows).toEqual([{ actor_email: COLLECTION_POLICY_ACTOR, detail: 'vence en 3 días (23 nov.), 1,250.00 MXN, política Global v1' }]);
    // Next: the reminder on the due date, with the payment barcode.
    expect(await nextStepAt(ref)).toEqual(new Date(local(day(3), '08:00')));
    await tick(local(day(3), '09:00'));
    expect((await commands(id)).slice(1).map((c) => [c.action, c.payload])).toEqual([
      [DEVICE_ACTION.SEND_NOTIFICATION, expect.objectContaining({ title: 'Recordatorio de pago' })],
      [DEVICE_ACTION.CODE_BAR, { reference: ref }],
    ]);
  });

  test('the lock comes at N days overdue only inside the allowed hours and never on a holiday', async () => {
    // Today (the 7th day overdue) is a company holiday; tomorrow, Saturday, is a working day.
    await setPolicy({ reminders: [], ladder: [], holidays: [TODAY] });
    const ref = nextRef();
    const id = await device(ref);
    await put(ref, [{ number: 1, dueDate: day(-7), amount: '1250.00' }]);
    expect(await commands(id)).toEqual([]);
    expect(await nextStepAt(ref)).toEqual(new Date(local(day(1), '08:00')));
    await tick(local(TODAY, '23:00'));
    await tick(local(day(1), '07:59'));
    expect(await commands(id)).toEqual([]);

    await tick(local(day(1), '08:00'));
    const [lock] = await commands(id);
    expect(lock).toMatchObject({
      action: DEVICE_ACTION.LOCK,
      requested_by: COLLECTION_POLICY_ACTOR,
      payload: { lockType: 'PorCredito', stolen: false, message: `Equipo bloqueado por falta de pago. Adeudo: 1,250.00 MXN. Referencia: ${ref}.` },
    });
    expect((await steps(ref)).map((s) => [s.step_key.replace(/:lock:.*/, ':lock'), s.outcome, s.reason])).toEqual([
      [`1:lock_deferred:${TODAY}`, 'skipped', 'bloqueo aplazado: día no laborable'],
      ['1:lock', 'done', 'vencido 8 días, 1,250.00 MXN, política Global v1'],
    ]);
    // Locked: nothing more until a payment or a person.
    await acknowledge(id, 'locked', 'PorCredito');
    await tick(local(day(1), '12:00'));
    expect(await commands(id)).toHaveLength(1);
  });

  test('a lock due at night waits for the morning, recorded once as passed over with the hours', async () => {
    await setPolicy({ reminders: [], ladder: [] });
    const ref = nextRef();
    const id = await device(ref);
    clock = local(TODAY, '21:30');
    await put(ref, [{ number: 1, dueDate: day(-7), amount: '200.00' }]);
    await tick(local(TODAY, '22:00'));
    expect(await commands(id)).toEqual([]);
    expect((await steps(ref)).map((s) => [s.step_key, s.outcome, s.reason])).toEqual([
      [`1:lock_deferred:${TODAY}`, 'skipped', 'bloqueo aplazado: fuera del horario permitido (08:00–20:00)'],
    ]);
    await tick(local(day(1), '08:00'));
    expect((await commands(id)).map((c) => c.action)).toEqual([DEVICE_ACTION.LOCK]);
  });

  test('a payment unlocks the devices locked Por Crédito before it answers; other locks are left alone', async () => {
    await setPolicy({ reminders: [], ladder: [] });
    const ref = nextRef();
    const byCredit = await device(ref, { lockState: 'locked', lockType: 'PorCredito' });
    const bySim = await device(ref, { lockState: 'locked', lockType: 'PorCambioSIM' });
    await put(ref, [
      { number: 1, dueDate: day(-10), amount: '1000.00' },
      { number: 2, dueDate: day(20), amount: '1000.00' },
    ]);
    const res = await request(app())
      .post(`/api/v5/credits/${ref}/payments`)
      .set(admin)
      .send({ externalId: 'portal-1', amount: '1000.00', paidAt: new Date(clock - 60_000).toISOString() })
      .expect(201);
    expect(res.body.credit.state).toBe('current');
    expect((await commands(byCredit)).map((c) => [c.action, c.requested_by, c.status])).toEqual([
      [DEVICE_ACTION.UNLOCK, COLLECTION_POLICY_ACTOR, 'pending'],
    ]);
    expect(await commands(bySim)).toEqual([]);
    const [unlock] = await steps(ref);
    expect(unlock).toMatchObject({
      outcome: 'done',
      reason: 'sin adeudo vencido, política Global v1',
      skipped_devices: [{ id: bySim, reason: 'bloqueado por otro motivo: la política no lo toca' }],
    });
    expect(unlock!.step_key).toMatch(/^0:unlock:/);
  });

  test('the restrictions rung adds the collection restrictions; paid, they are lifted (retried while the device is busy)', async () => {
    await setPolicy({ reminders: [], ladder: [{ daysOverdue: 5, kind: 'restrictions', message: '' }] });
    const ref = nextRef();
    const id = await device(ref);
    await put(ref, [
      { number: 1, dueDate: day(-6), amount: '800.00' },
      { number: 2, dueDate: day(20), amount: '800.00' },
    ]);
    expect((await commands(id)).map((c) => [c.action, c.payload])).toEqual([[DEVICE_ACTION.RESTRICTIONS, { collection: true }]]);
    const restricted = async () =>
      (await t.db.query<{ restricted: boolean }>('SELECT restricted FROM credits WHERE reference = $1', [ref])).rows[0]!.restricted;
    expect(await restricted()).toBe(true);

    // While the device is busy with the restrictions, a payment cannot lift them yet: retried shortly.
    await request(app())
      .post(`/api/v5/credits/${ref}/payments`)
      .set(admin)
      .send({ externalId: 'lift-1', amount: '800.00', paidAt: new Date(clock - 60_000).toISOString() })
      .expect(201);
    expect(await commands(id)).toHaveLength(1);
    expect(await restricted()).toBe(true);
    expect((await nextStepAt(ref))!.getTime()).toBe(clock + 60_000);

    await acknowledge(id, 'active');
    await tick(clock + 60_000);
    expect((await commands(id)).map((c) => [c.action, c.requested_by, c.payload])).toEqual([
      [DEVICE_ACTION.RESTRICTIONS, COLLECTION_POLICY_ACTOR, { collection: true }],
      [DEVICE_ACTION.RESTRICTIONS, COLLECTION_POLICY_ACTOR, { collection: false }],
    ]);
    expect(await restricted()).toBe(false);
    const lift = (await steps(ref)).find((s) => s.step_key.startsWith('0:lift_restrictions:'));
    expect(lift).toMatchObject({ outcome: 'done', reason: 'sin adeudo vencido, política Global v1' });
    // Lifted once: the next ticks have nothing to lift.
    await tick(clock + 120_000);
    expect(await commands(id)).toHaveLength(2);
  });

  test('the persistent notice waits for the customer to confirm it, without holding back the lock', async () => {
    await setPolicy({ reminders: [], ladder: [{ daysOverdue: 3, kind: 'persistent_notification', message: 'Debe {monto}' }] });
    const ref = nextRef();
    const id = await device(ref);
    await put(ref, [{ number: 1, dueDate: day(-3), amount: '300.00' }]);
    const [notice] = await commands(id);
    expect(notice).toMatchObject({
      action: DEVICE_ACTION.SEND_NOTIFICATION,
      status: 'pending',
      payload: { title: 'Aviso importante de pago', message: 'Debe 300.00 MXN', persistent: true },
    });
    // Not confirmed four days later: the lock at 7 days goes anyway.
    await tick(local(day(4), '12:00'));
    expect((await commands(id)).map((c) => [c.action, c.status])).toEqual([
      [DEVICE_ACTION.SEND_NOTIFICATION, 'pending'],
      [DEVICE_ACTION.LOCK, 'pending'],
    ]);
  });

  test('a manual unlock holds the policy off for the configured hours, then the lock comes back', async () => {
    await setPolicy({ reminders: [], ladder: [], manualUnlockHoldHours: 24 });
    const ref = nextRef();
    const id = await device(ref, { lockState: 'locked', lockType: 'PorCredito' });
    await put(ref, [{ number: 1, dueDate: day(-10), amount: '1000.00' }]);
    expect(await commands(id)).toEqual([]);
    await request(app()).post(`/api/v5/devices/${id}/actions`).set(admin).send({ action: DEVICE_ACTION.UNLOCK }).expect(201);
    await acknowledge(id, 'active');
    expect((await t.db.query<{ hold_until: Date }>('SELECT hold_until FROM credits WHERE reference = $1', [ref])).rows[0]!.hold_until).toEqual(
      new Date(clock + 24 * 3600_000),
    );
    // The hold is read from the unlock command too: the hook passes over a credit the engine holds.
    await t.db.query('UPDATE credits SET hold_until = NULL WHERE reference = $1', [ref]);
    await tick(local(TODAY, '13:00'));
    await tick(local(day(1), '11:59'));
    expect((await commands(id)).map((c) => c.action)).toEqual([DEVICE_ACTION.UNLOCK]);
    await tick(local(day(1), '12:00'));
    expect((await commands(id)).map((c) => [c.action, c.requested_by])).toEqual([
      [DEVICE_ACTION.UNLOCK, 'admin@demo.local'],
      [DEVICE_ACTION.LOCK, COLLECTION_POLICY_ACTOR],
    ]);
  });

  test('steps passed over are recorded with their reason; a released device is skipped with its own', async () => {
    await setPolicy({ reminders: [], lock: { enabled: false, daysOverdue: 7, message: 'x' } });
    const ref = nextRef();
    const live = await device(ref);
    const released = await device(ref, { lifecycle: 'released' });
    // First seen 6 days overdue: the rungs of days 1 and 3 are superseded by the one of day 5.
    await put(ref, [{ number: 1, dueDate: day(-6), amount: '500.00' }]);
    const recorded = await steps(ref);
    expect(recorded.map((s) => [s.step_key, s.outcome, s.reason])).toEqual([
      ['1:ladder:1:notification', 'skipped', 'superado por un paso posterior'],
      ['1:ladder:3:persistent_notification', 'skipped', 'superado por un paso posterior'],
      ['1:ladder:5:restrictions', 'done', 'vencido 6 días, 500.00 MXN, política Global v1'],
    ]);
    expect(recorded[2]!.skipped_devices).toEqual([{ id: released, reason: 'dispositivo liberado' }]);
    expect((await commands(live)).map((c) => c.action)).toEqual([DEVICE_ACTION.RESTRICTIONS]);
    expect(await commands(released)).toEqual([]);
  });

  test('each step happens once with two engines ticking at once on one database', async () => {
    await setPolicy({ ladder: [], lock: { enabled: false, daysOverdue: 7, message: 'x' } });
    clock = local(TODAY, '06:00');
    const created: { ref: string; id: number }[] = [];
    for (let i = 0; i < 12; i++) {
      const ref = nextRef();
      created.push({ ref, id: await device(ref) });
      await put(ref, [{ number: 1, dueDate: day(3), amount: '100.00' }]);
    }
    clock = local(TODAY, '09:00');
    const settings = { timeZone: 'America/Mexico_City', inventory: services().inventory };
    const engines = [0, 1].map(() => new CollectionEngine(t.db, services().deviceActions, settings, undefined, 3));
    await Promise.all([...engines.map((e) => e.tick()), ...engines.map((e) => e.tick())]);
    for (const { ref, id } of created) {
      expect((await commands(id)).map((c) => c.action)).toEqual([DEVICE_ACTION.SEND_NOTIFICATION]);
      expect((await steps(ref)).map((s) => s.step_key)).toEqual(['1:reminder:-3']);
    }
  });

  test('the detail and the device panel tell the next step in Spanish, and the past ones', async () => {
    await setPolicy({ reminders: [], ladder: [] });
    const ref = nextRef();
    const id = await device(ref);
    await put(ref, [{ number: 1, dueDate: day(-3), amount: '800.00' }]);
    const detail = creditDetailResponse.parse((await request(app()).get(`/api/v5/credits/${ref}`).set(admin).expect(200)).body);
    // Overdue since 3 days: the lock at 7 days is Tuesday 2026-11-24 at 08:00.
    expect(detail.nextStep).toEqual({
      kind: 'lock',
      at: new Date(local(day(4), '08:00')).toISOString(),
      text: 'Se bloqueará el 24 nov., 08:00, si no se registra el pago',
    });
    expect(detail.steps).toEqual([]);
    const panel = deviceCreditResponse.parse((await request(app()).get(`/api/v5/devices/${id}/credit`).set(admin).expect(200)).body);
    expect(panel!.nextStep).toEqual(detail.nextStep);
    await tick(local(day(4), '08:00'));
    const after = creditDetailResponse.parse((await request(app()).get(`/api/v5/credits/${ref}`).set(admin).expect(200)).body);
    expect(after.steps).toEqual([expect.objectContaining({ kind: 'lock', outcome: 'done', action: DEVICE_ACTION.LOCK, devices: [id] })]);
  });
  test('a pause (Promesa de pago) stops the steps until the end of its date, then the lock comes', async () => {
    await setPolicy({ reminders: [], ladder: [] });
    const ref = nextRef();
    const id = await device(ref);
    clock = local(TODAY, '06:00');
    await put(ref, [{ number: 1, dueDate: day(-9), amount: '700.00' }]);
    const bad = await request(app())
      .post(`/api/v5/credits/${ref}/pause`)
      .set(admin)
      .send({ until: '2026-02-30', reason: 'Pagará el lunes' })
      .expect(400);
    expect(bad.body).toMatchObject({ code: 'VALIDATION', field: 'until', message: expect.stringContaining('Pausar hasta') });
    const paused = creditDetailResponse.parse(
      (
        await request(app())
          .post(`/api/v5/credits/${ref}/pause`)
          .set(admin)
          .send({ until: day(1), reason: 'Pagará el sábado' })
          .expect(200)
      ).body,
    );
    expect(paused.pause).toEqual({ until: new Date(local(day(2), '00:00')).toISOString(), by: 'admin@demo.local', reason: 'Pagará el sábado' });
    // Sunday 22 is not a working day by default: the lock waits for Monday 23.
    expect(paused.nextStep).toMatchObject({ kind: 'lock', text: 'Se bloqueará el 23 nov., 08:00, si no se registra el pago' });
    await tick(local(TODAY, '12:00'));
    await tick(local(day(1), '19:00'));
    expect(await commands(id)).toEqual([]);
    await tick(local(day(3), '08:00'));
    expect((await commands(id)).map((c) => c.action)).toEqual([DEVICE_ACTION.LOCK]);
  });

  test('payoff queues the release for approval; approving sends RELEASE as the policy, once', async () => {
    await setPolicy({ reminders: [], ladder: [] });
    const ref = nextRef();
    const id = await device(ref);
    await put(ref, [{ number: 1, dueDate: day(10), amount: '300.00' }]);
    await request(app())
      .post(`/api/v5/credits/${ref}/payments`)
      .set(admin)
      .send({ externalId: 'portal-payoff', amount: '300.00', paidAt: new Date(clock - 60_000).toISOString() })
      .expect(201);
    expect(await commands(id)).toEqual([]);
    const queue = approvalListResponse.parse((await request(app()).get('/api/v5/credits/approvals').set(admin).expect(200)).body);
    const mine = queue.data.find((a) => a.reference === ref)!;
    expect(mine).toMatchObject({ status: 'pending', customerName: 'Ana Ruiz' });
    const detail = creditDetailResponse.parse((await request(app()).get(`/api/v5/credits/${ref}`).set(admin).expect(200)).body);
    expect(detail.nextStep).toEqual({ kind: 'release_request', at: null, text: 'La liberación espera la aprobación de un administrador' });
    // The clock does not queue it twice.
    await tick(local(day(1), '12:00'));
    expect(
      (await t.db.query('SELECT a.id FROM credit_release_approvals a JOIN credits c ON c.id = a.credit_id WHERE c.reference = $1', [ref])).rowCount,
    ).toBe(1);

    const approved = approvalResponse.parse((await request(app()).post(`/api/v5/credits/approvals/${mine.id}/approve`).set(admin).expect(200)).body);
    expect(approved).toMatchObject({ status: 'approved', decidedBy: 'admin@demo.local' });
    expect((await commands(id)).map((c) => [c.action, c.requested_by])).toEqual([[DEVICE_ACTION.RELEASE, COLLECTION_POLICY_ACTOR]]);
    const again = await request(app()).post(`/api/v5/credits/approvals/${mine.id}/approve`).set(admin).expect(409);
    expect(again.body.code).toBe('APPROVAL_DECIDED');
    expect(await commands(id)).toHaveLength(1);
  });

  test("the policy of the devices' group applies, named with its version in the reason", async () => {
    await setPolicy({ reminders: [], ladder: [] });
    const group = (await t.db.query<{ id: number }>("INSERT INTO device_groups (name) VALUES ('Sur') RETURNING id")).rows[0]!.id;
    const version = (
      await t.db.query<{ version: string }>(
        `INSERT INTO collection_policy (group_id, settings) VALUES ($1, '{"lock": {"enabled": true, "daysOverdue": 3, "message": "Pague {monto}"}}') RETURNING version`,
        [group],
      )
    ).rows[0]!.version;
    const ref = nextRef();
    const inGroup = await device(ref, { groupId: group });
    const other = nextRef();
    const outside = await device(other);
    await put(ref, [{ number: 1, dueDate: day(-4), amount: '900.00' }]);
    await put(other, [{ number: 1, dueDate: day(-4), amount: '900.00' }]);
    expect((await commands(inGroup)).map((c) => [c.action, c.payload.message])).toEqual([[DEVICE_ACTION.LOCK, 'Pague 900.00 MXN']]);
    expect((await steps(ref)).map((s) => s.reason)).toEqual([`vencido 4 días, 900.00 MXN, política Sur v${version}`]);
    // The global policy locks at 7 days.
    expect(await commands(outside)).toEqual([]);
  });

  test("a device's new credit reference or group puts its credits first in the queue; the next tick acts on them", async () => {
    await setPolicy({ reminders: [], ladder: [] });
    const group = (await t.db.query<{ id: number }>("INSERT INTO device_groups (name) VALUES ('Oriente') RETURNING id")).rows[0]!.id;
    await t.db.query(
      `INSERT INTO collection_policy (group_id, settings) VALUES ($1, '{"lock": {"enabled": true, "daysOverdue": 3, "message": "Pague {monto}"}}')`,
      [group],
    );
    // Overdue 4 days: past the group's lock day (3), not yet the global one (7).
    const ref = nextRef();
    await put(ref, [{ number: 1, dueDate: day(-4), amount: '700.00' }]);
    const id = await device('OTRA-REF');
    const epoch = new Date(0);
    expect(await nextStepAt(ref)).not.toEqual(epoch);

    // An administrator writes the credit's reference on the device.
    const before = (await request(app()).get(`/api/v5/devices/${id}`).set(admin).expect(200)).body as Record<string, unknown>;
    const edit = { ...pick(before), creditReference: ref };
    await request(app()).put(`/api/v5/devices/${id}`).set(admin).send(edit).expect(200);
    expect(await nextStepAt(ref)).toEqual(epoch);
    await tick(local(TODAY, '12:01'));
    expect(await commands(id)).toEqual([]);
    expect(await nextStepAt(ref)).not.toEqual(epoch);

    // Then moves the device to the group that locks at 3 days: the next tick locks it.
    await request(app())
      .put(`/api/v5/devices/${id}`)
      .set(admin)
      .send({ ...edit, groupId: group })
      .expect(200);
    expect(await nextStepAt(ref)).toEqual(epoch);
    await tick(local(TODAY, '12:02'));
    expect((await commands(id)).map((c) => [c.action, c.payload.message])).toEqual([[DEVICE_ACTION.LOCK, 'Pague 700.00 MXN']]);
  });

  test('webhooks: credit.overdue once each time a credit becomes overdue, collection.step for each step with its reason', async () => {
    await t.db.query(
      `INSERT INTO webhook_subscriptions (name, url, events, secret, created_by)
       VALUES ('Cobranza', 'https://cobranza.example.com/hooks', ARRAY['credit.overdue', 'collection.step'], 'whsec_x', 'prueba')`,
    );
    await setPolicy({ reminders: [], ladder: [] });
    const ref = nextRef();
    const id = await device(ref);
    const events = async () =>
      (
        await t.db.query<{ type: string; data: Record<string, unknown> }>(
          "SELECT type, data FROM webhook_events WHERE data->>'reference' = $1 AND type IN ('credit.overdue', 'collection.step') ORDER BY id",
          [ref],
        )
      ).rows;
    await put(ref, [
      { number: 1, dueDate: day(-8), amount: '400.00' },
      { number: 2, dueDate: day(2), amount: '400.00' },
    ]);
    await tick(local(TODAY, '13:00'));
    expect(await events()).toEqual([
      {
        type: 'credit.overdue',
        data: { reference: ref, currency: 'MXN', daysOverdue: 8, amountOverdue: '400.00', oldestUnpaidDue: day(-8) },
      },
      {
        type: 'collection.step',
        data: expect.objectContaining({
          kind: 'lock',
          outcome: 'done',
          action: DEVICE_ACTION.LOCK,
          devices: [id],
          reason: 'vencido 8 días, 400.00 MXN, política Global v1',
        }),
      },
    ]);
    // Paid up, then overdue again four days later: a second credit.overdue.
    await acknowledge(id, 'locked', 'PorCredito');
    await request(app())
      .post(`/api/v5/credits/${ref}/payments`)
      .set(admin)
      .send({ externalId: 'portal-w1', amount: '400.00', paidAt: new Date(clock - 60_000).toISOString() })
      .expect(201);
    await tick(local(day(4), '09:00'));
    expect((await events()).map((e) => [e.type, e.data.kind ?? e.data.daysOverdue])).toEqual([
      ['credit.overdue', 8],
      ['collection.step', 'lock'],
      ['collection.step', 'unlock'],
      ['credit.overdue', 2],
    ]);
  });

  test('with the automatic release, payoff sends RELEASE before the payment answers', async () => {
    await setPolicy({ reminders: [], ladder: [], release: 'automatic' });
    const ref = nextRef();
    const id = await device(ref);
    await put(ref, [{ number: 1, dueDate: day(10), amount: '250.00' }]);
    await request(app())
      .post(`/api/v5/credits/${ref}/payments`)
      .set(admin)
      .send({ externalId: 'portal-auto', amount: '250.00', paidAt: new Date(clock - 60_000).toISOString() })
      .expect(201);
    expect((await commands(id)).map((c) => [c.action, c.requested_by])).toEqual([[DEVICE_ACTION.RELEASE, COLLECTION_POLICY_ACTOR]]);
    expect((await steps(ref)).map((s) => [s.step_key, s.outcome, s.reason])).toEqual([
      ['0:release', 'done', 'crédito liquidado, política Global v1'],
    ]);
    expect(
      (await t.db.query('SELECT 1 FROM credit_release_approvals a JOIN credits c ON c.id = a.credit_id WHERE c.reference = $1', [ref])).rowCount,
    ).toBe(0);
    await tick(local(day(1), '12:00'));
    expect(await commands(id)).toHaveLength(1);
  });

  test('the policy API: versions and history, 409 on a stale save, 400 naming the field, group overrides', async () => {
    const url = '/api/v5/collection-policy';
    const loaded = collectionPolicyResponse.parse((await request(app()).get(url).set(admin).expect(200)).body);
    expect(loaded).toMatchObject({
      groupId: null,
      overridden: [],
      values: expect.objectContaining({ release: 'approval', manualUnlockHoldHours: 24 }),
    });
    const saved = collectionPolicyResponse.parse(
      (
        await request(app())
          .put(url)
          .set(admin)
          .send({ version: loaded.version, values: { lock: { enabled: true, daysOverdue: 10, message: 'Bloqueado: {referencia}' }, ladder: [] } })
          .expect(200)
      ).body,
    );
    expect(saved.version).toBeGreaterThan(loaded.version!);
    expect(saved.values.lock).toEqual({ enabled: true, daysOverdue: 10, message: 'Bloqueado: {referencia}' });
    expect(saved.history[0]).toMatchObject({
      version: saved.version,
      changedBy: 'admin@demo.local',
      changes: [expect.objectContaining({ key: 'ladder' }), expect.objectContaining({ key: 'lock' })],
    });

    const stale = await request(app()).put(url).set(admin).send({ version: loaded.version, values: {} }).expect(409);
    expect(stale.body).toMatchObject({ code: 'POLICY_VERSION_CONFLICT', field: 'version' });
    const hours = await request(app())
      .put(url)
      .set(admin)
      .send({ version: saved.version, values: { hours: { from: '20:00', to: '08:00' } } })
      .expect(400);
    expect(hours.body).toEqual({
      code: 'VALIDATION',
      field: 'values.hours.to',
      message: 'El campo Hora de fin debe ser posterior al campo Hora de inicio',
    });
    const days = await request(app())
      .put(url)
      .set(admin)
      .send({ version: saved.version, values: { ladder: [{ daysOverdue: 'tres', kind: 'notification', message: 'x' }] } })
      .expect(400);
    expect(days.body).toMatchObject({
      code: 'VALIDATION',
      field: 'values.ladder.0.daysOverdue',
      message: expect.stringContaining('Días de atraso del escalón'),
    });
    // Across keys: a rung on or after the lock's day (7) would never act.
    const late = await request(app())
      .put(url)
      .set(admin)
      .send({
        version: saved.version,
        values: {
          ladder: [
            { daysOverdue: 2, kind: 'notification', message: 'x' },
            { daysOverdue: 9, kind: 'restrictions', message: '' },
          ],
        },
      })
      .expect(400);
    expect(late.body).toEqual({
      code: 'VALIDATION',
      field: 'values.ladder.1.daysOverdue',
      message: 'El campo Días de atraso del escalón debe ser un número entero entre 1 y 6',
    });
    expect(collectionPolicyResponse.parse((await request(app()).get(url).set(admin).expect(200)).body).version).toBe(saved.version);

    // A group overrides one key; the rest is inherited.
    const group = (await t.db.query<{ id: number }>("INSERT INTO device_groups (name) VALUES ('Norte') RETURNING id")).rows[0]!.id;
    const first = collectionPolicyResponse.parse((await request(app()).get(`${url}?groupId=${group}`).set(admin).expect(200)).body);
    expect(first).toMatchObject({ version: null, groupName: 'Norte', overridden: [] });
    const own = collectionPolicyResponse.parse(
      (
        await request(app())
          .put(`${url}?groupId=${group}`)
          .set(admin)
          .send({ version: null, values: { release: 'automatic' } })
          .expect(200)
      ).body,
    );
    expect(own).toMatchObject({ overridden: ['release'], values: expect.objectContaining({ release: 'automatic', lock: saved.values.lock }) });
    await request(app()).put(`${url}?groupId=${group}`).set(admin).send({ version: null, values: {} }).expect(409);
  });
});

describe.each(testEngines())('migration 0025 on %s', (engine) => {
  test('an existing installation: the roles holding the action 100 get 101 and 102, the others nothing', async () => {
    const t = await createTestDb(engine, { migrate: false });
    try {
      await migrate(
        t.db,
        migrations.filter((m) => m.id < '0025'),
      );
      await t.db.query(
        `INSERT INTO profiles (nombre, paths, actions) VALUES ('Administrador', '{/credits}', '{0,5,100}'), ('Cobranza', '{/credits}', '{100}'), ('Soporte', '{/dashboard}', '{7}')`,
      );
      await migrate(t.db, migrations);
      const rows = (await t.db.query<{ nombre: string; actions: number[] }>('SELECT nombre, actions FROM profiles ORDER BY id')).rows;
      expect(rows).toEqual([
        { nombre: 'Administrador', actions: [0, 5, 100, 101, 102] },
        { nombre: 'Cobranza', actions: [100, 101, 102] },
        { nombre: 'Soporte', actions: [7] },
      ]);
    } finally {
      await t.dispose();
    }
  });
});

describe.each(testEngines())('migration 0026 on %s', (engine) => {
  test('an existing installation: the roles holding the portfolio get the policy page, in menu order; the others nothing', async () => {
    const t = await createTestDb(engine, { migrate: false });
    try {
      await migrate(
        t.db,
        migrations.filter((m) => m.id < '0026'),
      );
      await t.db.query(
        `INSERT INTO profiles (nombre, paths, actions) VALUES
           ('Cobranza', '{/credits,/credits/portfolio,/admin-settings,/admin-settings/audit}', '{100}'),
           ('Soporte', '{/dashboard,/credits}', '{7}')`,
      );
      // Up to 0026 (0029 adds Conciliación: tests/integration/reconciliation.test.ts).
      await migrate(
        t.db,
        migrations.filter((m) => m.id <= '0026_collection_policy_page'),
      );
      const rows = (
        await t.db.query<{ nombre: string; paths: string[] }>(
          `SELECT nombre, paths FROM profiles WHERE nombre IN ('Cobranza', 'Soporte') ORDER BY id`,
        )
      ).rows;
      expect(rows).toEqual([
        { nombre: 'Cobranza', paths: ['/credits', '/credits/portfolio', '/credits/collection-policy', '/admin-settings', '/admin-settings/audit'] },
        { nombre: 'Soporte', paths: ['/dashboard', '/credits'] },
      ]);
    } finally {
      await t.dispose();
    }
  });
});
