/**
 * The outbox's triggers (migration 0015) through the real code paths: the portal's action API,
 * the agent API (enroll, check-in, ack, reject, offline code) and a bulk job. Every event is
 * written in the transaction of its change, only while an enabled subscription wants its type,
 * with one delivery per such subscription.
 */
import request from 'supertest';
import type { ActionResult } from '../../shared/contracts/deviceActions';
import type { Job } from '../../shared/contracts/jobs';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../shared/constants/integration';
import { agentClient, enrollDevice, type AgentIdentity } from '../helpers/agentFixtures';
import { adminApi, type AdminApi } from '../helpers/adminApi';
import { insertDevices, testImei } from '../helpers/inventoryFixtures';
import { createTestDb, testEngines, type TestDb } from '../helpers/testDb';

interface EventRow {
  id: number;
  type: WebhookEventType;
  order_key: number;
  data: Record<string, unknown>;
  occurred_at: Date;
}

describe.each(testEngines())('webhook events (outbox triggers) on %s', (engine) => {
  let t: TestDb;
  let api: AdminApi;
  let admin: Record<string, string>;
  let groupId: number;
  let serial = 0;

  const app = () => api.ta.app;
  const portal = (method: 'get' | 'post' | 'put', path: string) => request(app())[method](`/api/v5${path}`).set(admin);
  /** The device's signed calls to the agent API, each expected to be answered 200. */
  const agent = (device: AgentIdentity) => {
    const client = agentClient(app, device);
    const ok = async (sent: Promise<request.Response>) => {
      const res = await sent;
      expect({ status: res.status, body: res.body as unknown }).toEqual({ status: 200, body: expect.anything() });
      return res;
    };
    return {
      checkin: () => ok(client.checkin({})),
      ack: (id: number) => ok(client.ack(id)),
      reject: (id: number, reason: string) => ok(client.reject(id, reason)),
      event: (body: Record<string, unknown>) => ok(client.event(body)),
    };
  };
  const act = (id: number, body: Record<string, unknown>) => portal('post', `/devices/${id}/actions`).send(body);
  let seen = 0;
  /** The events written since the last call. */
  async function newEvents(): Promise<EventRow[]> {
    const rows = (await t.db.query<EventRow>('SELECT * FROM webhook_events WHERE id > $1 ORDER BY id', [seen])).rows;
    if (rows.length) seen = Number(rows.at(-1)!.id);
    return rows.map((r) => ({ ...r, id: Number(r.id), order_key: Number(r.order_key) }));
  }
  const deliveriesOf = async (eventIds: number[]) =>
    (
      await t.db.query<{ event_id: number; subscription_id: number; status: string; order_key: number }>(
        'SELECT event_id, subscription_id, status, order_key FROM webhook_deliveries WHERE event_id = ANY ($1::bigint[]) ORDER BY event_id, subscription_id',
        [eventIds],
      )
    ).rows.map((r) => [Number(r.event_id), r.subscription_id, r.status, Number(r.order_key)]);
  async function subscribe(events: readonly WebhookEventType[], enabled = true): Promise<number> {
    const res = await portal('post', '/webhooks').send({ name: `Suscripción ${++serial}`, url: 'https://hooks.acreedor.example/x', events, enabled });
    expect(res.status).toBe(201);
    return (res.body as { webhook: { id: number } }).webhook.id;
  }

  const enrolledDevice = () => enrollDevice(app(), admin, { imei: testImei(7000 + ++serial), groupId });

  beforeAll(async () => {
    t = await createTestDb(engine);
    // Subscriptions to a name that does not resolve: allowed only with private targets.
    api = await adminApi(t.db, { env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
    admin = await api.headersOf('admin@demo.local');
    groupId = ((await portal('post', '/groups').send({ name: 'Sucursal Webhooks' })).body as { id: number }).id;
  }, 60_000);
  beforeEach(async () => {
    await t.db.query('DELETE FROM webhook_subscriptions');
  });
  afterAll(async () => {
    await api.ta.services.jobRunner.stop();
    await api.ta.services.agent.stop();
    await t?.dispose();
  });

  test('no subscription: changes write no event', async () => {
    await newEvents();
    const device = await enrolledDevice();
    const { id } = device;
    await agent(device).checkin();
    const lock = (await act(id, { action: 0, lockType: 'PorCredito' })).body as ActionResult;
    await agent(device).checkin();
    await agent(device).ack(lock.command!.id);
    expect(await newEvents()).toEqual([]);
  });

  test('enroll, lock, check-in, ack, reject, offline code: each event with its data, one delivery per subscription', async () => {
    const all = await subscribe(WEBHOOK_EVENT_TYPES);
    const statusOnly = await subscribe(['device.status_changed']);
    const off = await subscribe(WEBHOOK_EVENT_TYPES, false);
    await newEvents();

    const device = await enrolledDevice();
    const { id } = device;
    await agent(device).checkin();
    const enrolled = await newEvents();
    expect(enrolled.map((e) => e.type)).toContain('device.enrolled');
    const e1 = enrolled.find((e) => e.type === 'device.enrolled')!;
    expect(e1).toMatchObject({ order_key: id, data: { deviceId: id, deviceType: 1, groupId, enrolledAt: expect.any(String) } });
    // Registered (pre-enrolled 25) → enrolling (2) → enrolled (1): the status changes too.
    expect(enrolled.filter((e) => e.type === 'device.status_changed').map((e) => [e.data.previousStatus, e.data.status])).toEqual([
      [25, 2],
      [2, 1],
    ]);

    // The portal locks: status 4 (a LOCK pending), one event for both wanting subscriptions.
    const lock = (await act(id, { action: 0, lockType: 'PorCredito' })).body as ActionResult;
    const locking = await newEvents();
    expect(locking.map((e) => [e.type, e.data.previousStatus, e.data.status])).toEqual([['device.status_changed', 1, 4]]);
    expect(await deliveriesOf(locking.map((e) => e.id))).toEqual([
      [locking[0]!.id, all, 'pending', id],
      [locking[0]!.id, statusOnly, 'pending', id],
    ]);
    expect(await deliveriesOf(locking.map((e) => e.id))).not.toContainEqual(expect.arrayContaining([off]));

    // The agent receives it, then acknowledges it.
    await agent(device).checkin();
    const delivered = await newEvents();
    expect(delivered.map((e) => e.type)).toEqual(['command.delivered']);
    expect(delivered[0]).toMatchObject({
      order_key: id,
      data: { deviceId: id, commandId: lock.command!.id, action: 0, status: 'pending', deliveredAt: expect.any(String) },
    });
    expect(await deliveriesOf([delivered[0]!.id])).toEqual([[delivered[0]!.id, all, 'pending', id]]);
    await agent(device).ack(lock.command!.id);
    const acked = await newEvents();
    expect(acked.map((e) => e.type).sort()).toEqual(['command.acknowledged', 'device.status_changed']);
    expect(acked.find((e) => e.type === 'command.acknowledged')).toMatchObject({ data: { commandId: lock.command!.id, status: 'acknowledged' } });
    expect(acked.find((e) => e.type === 'device.status_changed')).toMatchObject({ data: { previousStatus: 4, status: 3, lockType: 'PorCredito' } });

    // A rejected command.
    const note = (await act(id, { action: 5, title: 'Aviso', message: 'Su cuota vence mañana' })).body as ActionResult;
    await agent(device).checkin();
    await newEvents();
    await agent(device).reject(note.command!.id, 'sin pantalla');
    const rejected = await newEvents();
    expect(rejected.find((e) => e.type === 'command.rejected')).toMatchObject({
      data: { commandId: note.command!.id, status: 'rejected', result: expect.any(String) },
    });

    // An offline code redeemed on the device: no 'command.delivered' for it (it was never sent).
    const issued = (await act(id, { action: 9 })).body as ActionResult;
    await newEvents();
    expect((await agent(device).event({ type: 'offline_code', code: issued.offlineCode!.code, redeemedAt: new Date().toISOString() })).status).toBe(
      200,
    );
    const redeemed = await newEvents();
    // (The stored status does not change here: the rejected command left a failure reason, which shows first.)
    expect(redeemed.map((e) => e.type)).toEqual(['offline_code.redeemed']);
    expect(redeemed.find((e) => e.type === 'offline_code.redeemed')).toMatchObject({ data: { action: 9, status: 'redeemed' } });
  });

  test('a rolled-back change leaves no event and no delivery; a disabled subscription gets nothing', async () => {
    const sub = await subscribe(['device.status_changed']);
    const [id] = await insertDevices(t.db, [{}]);
    await newEvents();
    await expect(
      t.db.transaction(async (tx) => {
        await tx.query(`UPDATE devices SET lock_state = 'locked', lock_type = 'PorCredito' WHERE id = $1`, [id]);
        expect((await tx.query('SELECT 1 FROM webhook_events WHERE order_key = $1', [id])).rowCount).toBe(1);
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    expect(await newEvents()).toEqual([]);
    expect((await t.db.query('SELECT 1 FROM webhook_deliveries WHERE order_key = $1', [id])).rowCount).toBe(0);
    await portal('put', `/webhooks/${sub}`)
      .send({ name: 'Apagada', url: 'https://hooks.acreedor.example/x', events: ['device.status_changed'], enabled: false })
      .expect(200);
    await t.db.query(`UPDATE devices SET lock_state = 'locked', lock_type = 'PorCredito' WHERE id = $1`, [id]);
    expect(await newEvents()).toEqual([]);
  });

  test('a bulk job: one status change per device in its batch, and job.finished with its counts (order key: minus the job id)', async () => {
    const sub = await subscribe(['job.finished', 'device.status_changed']);
    const ids = await insertDevices(t.db, [{}, {}, {}, { lifecycle: 'released' }]);
    await newEvents();
    const res = await request(app())
      .post('/api/v5/devices/bulk-actions')
      .set(admin)
      .send({ selection: { ids }, payload: { action: 0, lockType: 'PorCredito' } })
      .expect(202);
    const job = res.body as Job;
    await api.ta.services.jobRunner.idle();
    const events = await newEvents();
    const changed = events.filter((e) => e.type === 'device.status_changed');
    expect(changed.map((e) => e.order_key).sort()).toEqual(ids.slice(0, 3).sort());
    const finished = events.filter((e) => e.type === 'job.finished');
    expect(finished).toHaveLength(1);
    expect(finished[0]).toMatchObject({
      order_key: -job.id,
      data: { jobId: job.id, action: 0, status: 'completed', total: 4, succeeded: 3, skipped: 1, failed: 0, finishedAt: expect.any(String) },
    });
    expect(await deliveriesOf([finished[0]!.id])).toEqual([[finished[0]!.id, sub, 'pending', -job.id]]);
  });
});
