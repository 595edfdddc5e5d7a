import { Webhook } from 'standardwebhooks';
import type { Config } from '../../server/config';
import { createLogger } from '../../server/logger';
import { WebhookDispatcher, type DispatcherOptions } from '../../server/webhooks/webhookDispatcher';
import { sendWebhook } from '../../server/webhooks/webhookSender';
import { WebhooksRepository } from '../../server/webhooks/webhooksRepository';
import { WebhooksService } from '../../server/webhooks/webhooksService';
import type { WebhookEventType } from '../../shared/constants/integration';
import { insertDevices } from '../helpers/inventoryFixtures';
import { LogCapture } from '../helpers/testApp';
import { createTestDb, testEngines, type TestDb } from '../helpers/testDb';
import { startReceiver, waitFor, type Receiver } from '../helpers/webhookReceiver';

const actor = { adminId: null, email: 'admin@demo.local', ip: null, requestId: null };
const BASE: Config['webhooks'] = { timeoutMs: 1_000, maxResponseBytes: 4_096, concurrency: 4, allowPrivateTargets: true };

interface DeliveryRow {
  id: number;
  event_id: number;
  status: string;
  attempts: number;
  response_status: number | null;
  error: string | null;
  next_attempt_at: Date;
  delivered_at: Date | null;
  duration_ms: number | null;
  order_key: number;
}

describe.each(testEngines())('webhook delivery on %s', (engine) => {
  let t: TestDb;
  let receiver: Receiver;
  let service: WebhooksService;
  const dispatchers: WebhookDispatcher[] = [];
  let logs: LogCapture;
  /** The dispatchers' clock: real time plus an offset a test moves forward. */
  let offsetMs = 0;
  const clock = () => new Date(Date.now() + offsetMs);

  beforeAll(async () => {
    t = await createTestDb(engine);
    service = new WebhooksService(t.db, BASE);
  });
  afterAll(async () => {
    await t?.dispose();
  });
  beforeEach(async () => {
    offsetMs = 0;
    receiver = await startReceiver();
    logs = new LogCapture();
    // Each test starts with no subscription: earlier tests' deliveries do not go to its receiver.
    await t.db.query('DELETE FROM webhook_subscriptions');
  });
  afterEach(async () => {
    await Promise.all(dispatchers.splice(0).map((d) => d.stop()));
    await receiver.close();
  });

  function dispatcher(config: Partial<Config['webhooks']> = {}, opts: DispatcherOptions = {}): WebhookDispatcher {
    const d = new WebhookDispatcher(t.db, { ...BASE, ...config }, createLogger('info', logs, []), { now: clock, pollMs: 50, ...opts });
    dispatchers.push(d);
    return d;
  }
  async function subscribe(events: WebhookEventType[] = ['device.status_changed'], path = '/hook') {
    return service.create(actor, { name: `Receptor ${Math.random()}`, url: `${receiver.url}${path}`, events, enabled: true });
  }
  /** Locks the devices (one device.status_changed event each) in one statement. */
  const lock = (ids: number[]) =>
    t.db.query(`UPDATE devices SET lock_state = 'locked', lock_type = 'PorCredito' WHERE id = ANY ($1::bigint[])`, [ids]);
  const unlock = (ids: number[]) => t.db.query(`UPDATE devices SET lock_state = 'active', lock_type = NULL WHERE id = ANY ($1::bigint[])`, [ids]);
  const deliveries = async (subscriptionId: number) =>
    (await t.db.query<DeliveryRow>('SELECT * FROM webhook_deliveries WHERE subscription_id = $1 ORDER BY id', [subscriptionId])).rows;
  const statusOf = async (id: number) => (await t.db.query<DeliveryRow>('SELECT * FROM webhook_deliveries WHERE id = $1', [id])).rows[0]!;

  test("housekeeping deletes old finished deliveries and the events nobody waits for, a deleted subscription's included", async () => {
    await t.db.query('DELETE FROM webhook_events');
    const [id] = await insertDevices(t.db, [{}]);
    const eventIds = async () => (await t.db.query<{ id: number }>('SELECT id FROM webhook_events ORDER BY id')).rows.map((r) => Number(r.id));
    // E1: only for a subscription deleted since (its deliveries went with it).
    const gone = await subscribe();
    await lock([id!]);
    await t.db.query('DELETE FROM webhook_subscriptions WHERE id = $1', [gone.webhook.id]);
    // E2 waits for the kept subscription; E3 was delivered to it long ago.
    const kept = await subscribe();
    await unlock([id!]);
    await lock([id!]);
    const [e1, e2, e3] = await eventIds();
    const [, delivered] = await deliveries(kept.webhook.id);
    await t.db.query("UPDATE webhook_deliveries SET status = 'delivered', delivered_at = now() - interval '40 days' WHERE id = $1", [delivered!.id]);
    await t.db.query("UPDATE webhook_events SET occurred_at = now() - interval '40 days'");
    expect(await new WebhooksRepository(t.db).prune(new Date(), 30, 100)).toBe(1);
    expect([e1, e3]).not.toContain(e2);
    expect(await eventIds()).toEqual([e2]);
  });

  test('a delivery is POSTed as signed JSON (Standard Webhooks), recorded as delivered; webhook-id is the event', async () => {
    const { webhook, secret } = await subscribe();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const [id] = await insertDevices(t.db, [{ serial: 'SN-1', creditReference: 'CR-1' }]);
    await lock([id!]);
    const sender = dispatcher();
    sender.start();
    await waitFor(() => receiver.delivered().length === 1, 'una entrega');
    const r = receiver.received[0]!;
    expect(r.path).toBe('/hook');
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.headers['user-agent']).toBe('Macrolock-Webhooks/1');
    const [row] = await deliveries(webhook.id);
    expect(r.id).toBe(`msg_${row!.event_id}`);
    // The lender's side: any Standard Webhooks library verifies it with the secret.
    const verified = new Webhook(secret).verify(r.body, r.headers as Record<string, string>);
    expect(verified).toMatchObject({
      type: 'device.status_changed',
      data: { deviceId: id, serial: 'SN-1', creditReference: 'CR-1', previousStatus: 5, status: 3, lockType: 'PorCredito', deleted: false },
    });
    expect(new Date(r.json.timestamp).toISOString()).toBe(r.json.timestamp);
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(r.body, r.headers as Record<string, string>)).toThrow();
    await waitFor(async () => (await statusOf(row!.id)).status === 'delivered', 'registrada como entregada');
    expect(await statusOf(row!.id)).toMatchObject({
      attempts: 1,
      response_status: 200,
      error: null,
      claimed_until: null,
      claimed_by: sender.runnerId,
    });
    expect((await statusOf(row!.id)).delivered_at).not.toBeNull();
  });

  test('a 500 is retried after the backoff (5 s ± 20 %) with the same webhook-id; then delivered, and the subscription is not failing', async () => {
    const { webhook } = await subscribe();
    const [id] = await insertDevices(t.db, [{}]);
    let calls = 0;
    receiver.answer = () => ({ status: ++calls === 1 ? 500 : 204 });
    await lock([id!]);
    const d = dispatcher();
    d.start();
    const [row] = await deliveries(webhook.id);
    await waitFor(async () => (await statusOf(row!.id)).attempts === 1, 'el primer intento');
    const failed = await statusOf(row!.id);
    expect(failed).toMatchObject({ status: 'pending', attempts: 1, response_status: 500, error: 'HTTP 500' });
    const wait = new Date(failed.next_attempt_at).getTime() - clock().getTime();
    expect(wait).toBeGreaterThan(3_500);
    expect(wait).toBeLessThanOrEqual(6_000);
    expect((await service.list()).data[0]).toMatchObject({ pending: 1, failingSince: expect.any(String) });
    expect(logs.lines.some((l) => l.level === 40 && l.msg === 'webhook delivery failed: will retry' && l.error === 'HTTP 500')).toBe(true);
    expect(logs.raw.join('\n')).not.toContain('whsec_');
    await new Promise((r) => setTimeout(r, 200));
    expect(receiver.received).toHaveLength(1);
    offsetMs += 6_000;
    await waitFor(() => receiver.delivered().length === 1, 'el reintento');
    expect(receiver.received.map((r) => r.id)).toEqual([receiver.received[0]!.id, receiver.received[0]!.id]);
    await waitFor(async () => (await statusOf(row!.id)).status === 'delivered', 'entregada');
    expect(await statusOf(row!.id)).toMatchObject({ attempts: 2, response_status: 204, error: null });
    expect((await service.list()).data[0]).toMatchObject({ pending: 0, failingSince: null, lastDeliveryAt: expect.any(String) });
  });

  test('an answer slower than the timeout is a failure ("Tiempo de espera agotado"), retried later', async () => {
    const { webhook } = await subscribe();
    const [id] = await insertDevices(t.db, [{}]);
    let calls = 0;
    receiver.answer = () => (++calls === 1 ? { delayMs: 2_000 } : { status: 200 });
    await lock([id!]);
    dispatcher({ timeoutMs: 300 }).start();
    const [row] = await deliveries(webhook.id);
    await waitFor(async () => (await statusOf(row!.id)).attempts === 1, 'el intento que agota el tiempo');
    const failed = await statusOf(row!.id);
    expect(failed).toMatchObject({ status: 'pending', response_status: null, error: 'Tiempo de espera agotado (300 ms)' });
    expect(failed.duration_ms).toBeGreaterThanOrEqual(290);
    expect(failed.duration_ms).toBeLessThan(1_500);
    offsetMs += 6_000;
    await waitFor(async () => (await statusOf(row!.id)).status === 'delivered', 'el reintento');
  });

  test("a device's events go out in order: a failing first event holds that device's next one; other devices proceed", async () => {
    const { webhook } = await subscribe();
    const [a, b] = await insertDevices(t.db, [{}, {}]);
    await lock([a!, b!]);
    await unlock([a!, b!]);
    const rows = await deliveries(webhook.id);
    const aRows = rows.filter((r) => Number(r.order_key) === a);
    const bRows = rows.filter((r) => Number(r.order_key) === b);
    expect(aRows).toHaveLength(2);
    expect(bRows).toHaveLength(2);
    const firstA = `msg_${aRows[0]!.event_id}`;
    let failedOnce = false;
    receiver.answer = (r) => {
      if (r.id === firstA && !failedOnce) {
        failedOnce = true;
        return { status: 500 };
      }
      return { status: 200 };
    };
    dispatcher().start();
    await waitFor(async () => (await statusOf(bRows[1]!.id)).status === 'delivered', 'los dos eventos de B');
    await new Promise((r) => setTimeout(r, 300));
    expect(await statusOf(aRows[0]!.id)).toMatchObject({ status: 'pending', attempts: 1 });
    expect(await statusOf(aRows[1]!.id)).toMatchObject({ status: 'pending', attempts: 0 });
    const sentIds = () => receiver.received.map((r) => r.id);
    expect(sentIds()).not.toContain(`msg_${aRows[1]!.event_id}`);
    // B's two events in order.
    expect(sentIds().filter((x) => x !== firstA)).toEqual([`msg_${bRows[0]!.event_id}`, `msg_${bRows[1]!.event_id}`]);
    offsetMs += 6_000;
    await waitFor(async () => (await statusOf(aRows[1]!.id)).status === 'delivered', 'los eventos de A');
    const aDelivered = receiver
      .delivered()
      .filter((r) => r.json.data.deviceId === a)
      .map((r) => [r.id, r.json.data.status]);
    expect(aDelivered).toEqual([
      [firstA, 3],
      [`msg_${aRows[1]!.event_id}`, 5],
    ]);
  });

  test('two dispatchers on one database never send the same delivery at once, and every one exactly once', async () => {
    const { webhook } = await subscribe();
    const ids = await insertDevices(
      t.db,
      Array.from({ length: 20 }, () => ({})),
    );
    receiver.answer = () => ({ status: 200, delayMs: 5 + Math.floor(Math.random() * 30) });
    const one = dispatcher({ concurrency: 4 }, { runnerId: 'replica-a' });
    const two = dispatcher({ concurrency: 4 }, { runnerId: 'replica-b' });
    one.start();
    two.start();
    // Three events per device, in separate transactions, while both dispatchers run.
    await lock(ids);
    await unlock(ids);
    await lock(ids);
    const total = ids.length * 3;
    await waitFor(async () => (await deliveries(webhook.id)).every((r) => r.status === 'delivered'), 'todas entregadas', 30_000);
    expect(receiver.maxConcurrentPerId).toBe(1);
    const sent = receiver.received.map((r) => r.id);
    expect(sent).toHaveLength(total);
    expect(new Set(sent).size).toBe(total);
    // Each device's events arrived in the order they happened.
    for (const id of ids) {
      const statuses = receiver.received.filter((r) => r.json.data.deviceId === id).map((r) => r.json.data.status);
      expect(statuses).toEqual([3, 5, 3]);
    }
  });

  test('failing for 24 hours disables the subscription; its deliveries wait; enabling it again sends them', async () => {
    const { webhook } = await subscribe();
    const [id] = await insertDevices(t.db, [{}]);
    receiver.answer = () => ({ status: 503 });
    await t.db.query(`UPDATE webhook_subscriptions SET failing_since = now() - interval '23 hours' WHERE id = $1`, [webhook.id]);
    await lock([id!]);
    dispatcher().start();
    const [row] = await deliveries(webhook.id);
    await waitFor(async () => (await statusOf(row!.id)).attempts === 1, 'el primer intento');
    // 23 h of failures: still enabled.
    expect((await service.list()).data[0]).toMatchObject({ enabled: true, disabledReason: null });
    offsetMs += 2 * 3_600_000;
    await waitFor(async () => (await statusOf(row!.id)).attempts === 2, 'el intento a las 25 h');
    const sub = (await service.list()).data[0]!;
    expect(sub).toMatchObject({ enabled: false, disabledReason: 'failing', disabledAt: expect.any(String), pending: 1 });
    expect(await statusOf(row!.id)).toMatchObject({ status: 'pending', error: 'HTTP 503' });
    expect(logs.lines.some((l) => l.msg === 'webhook subscription disabled: failing for 24 h')).toBe(true);
    // Disabled: nothing is sent, and new changes write no event for it.
    offsetMs += 3_600_000;
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.received).toHaveLength(2);
    await unlock([id!]);
    expect(await deliveries(webhook.id)).toHaveLength(1);
    receiver.answer = () => ({ status: 200 });
    await service.update(actor, webhook.id, { name: sub.name, url: sub.url, events: sub.events, enabled: true });
    expect((await service.list()).data[0]).toMatchObject({ enabled: true, disabledReason: null, disabledAt: null, failingSince: null });
    await waitFor(async () => (await statusOf(row!.id)).status === 'delivered', 'entregada al reactivar');
  });

  test('a delivery still failing 24 hours after its event is given up ("failed")', async () => {
    const { webhook } = await subscribe();
    const [id] = await insertDevices(t.db, [{}]);
    receiver.answer = () => ({ status: 500 });
    await lock([id!]);
    const [row] = await deliveries(webhook.id);
    await t.db.query(`UPDATE webhook_events SET occurred_at = now() - interval '25 hours' WHERE id = $1`, [row!.event_id]);
    dispatcher().start();
    await waitFor(async () => (await statusOf(row!.id)).status === 'failed', 'fallida');
    expect(await statusOf(row!.id)).toMatchObject({ attempts: 1, error: 'HTTP 500', response_status: 500 });
    expect(logs.lines.some((l) => l.msg === 'webhook delivery failed: gave up after 24 h')).toBe(true);
  });

  test('at most maxResponseBytes of the answer are read; redirects are not followed', async () => {
    const { webhook } = await subscribe(['device.status_changed'], '/big');
    const [id] = await insertDevices(t.db, [{}]);
    receiver.answer = (r) =>
      r.path === '/big' ? { status: 200, streamBytes: 50 * 1024 * 1024 } : { status: 302, headers: { location: `${receiver.url}/elsewhere` } };
    await lock([id!]);
    dispatcher({ maxResponseBytes: 4_096, timeoutMs: 5_000 }).start();
    const [row] = await deliveries(webhook.id);
    await waitFor(async () => (await statusOf(row!.id)).status === 'delivered', 'entregada');
    // The receiver could write only what the sockets' buffers hold: the client hung up long before 50 MiB.
    await waitFor(() => receiver.streamed.length === 1, 'el envío grande');
    await new Promise((r) => setTimeout(r, 200));
    expect(receiver.streamed[0]!).toBeLessThan(20 * 1024 * 1024);

    await service.update(actor, webhook.id, { name: 'Redirige', url: `${receiver.url}/moved`, events: ['device.status_changed'], enabled: true });
    await unlock([id!]);
    const second = (await deliveries(webhook.id))[1]!;
    await waitFor(async () => (await statusOf(second.id)).attempts === 1, 'el intento redirigido');
    expect(await statusOf(second.id)).toMatchObject({ status: 'pending', response_status: 302, error: 'HTTP 302 (no se siguen redirecciones)' });
    expect(receiver.received.map((r) => r.path)).toEqual(['/big', '/moved']);
  });

  test('without private targets allowed, a loopback URL is never called (the attempt fails with the reason)', async () => {
    const { webhook } = await subscribe();
    const [id] = await insertDevices(t.db, [{}]);
    await lock([id!]);
    dispatcher({ allowPrivateTargets: false }).start();
    const [row] = await deliveries(webhook.id);
    await waitFor(async () => (await statusOf(row!.id)).attempts === 1, 'el intento rechazado');
    expect(await statusOf(row!.id)).toMatchObject({ status: 'pending', response_status: null, error: 'Destino no permitido: 127.0.0.1 (loopback)' });
    expect(receiver.received).toHaveLength(0);
  });
});

describe('the outbound request', () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver.close());
  const request = (url: string, lookup: (host: string) => Promise<{ address: string; family: 4 | 6 }[]>, allowPrivateTargets: boolean) =>
    sendWebhook({ url, body: '{}', headers: {}, timeoutMs: 2_000, maxResponseBytes: 1024, allowPrivateTargets, lookup });

  test('connects to the address the guard checked (pinned), not to what the system resolver says later', async () => {
    // 'hook.invalid' does not resolve on this machine: reaching the receiver proves the checked address was used.
    const res = await request(`http://hook.invalid:${receiver.port}/pinned`, async () => [{ address: '127.0.0.1', family: 4 }], true);
    expect(res).toMatchObject({ ok: true, status: 200, error: null });
    expect(receiver.received.at(-1)!.path).toBe('/pinned');
    expect(receiver.received.at(-1)!.headers.host).toBe(`hook.invalid:${receiver.port}`);
  });

  test('a name with any private address is refused before connecting (one bad answer is enough)', async () => {
    const before = receiver.received.length;
    for (const addresses of [
      [{ address: '127.0.0.1', family: 4 as const }],
      [
        { address: '93.184.216.34', family: 4 as const },
        { address: '10.1.2.3', family: 4 as const },
      ],
      [{ address: '::ffff:169.254.169.254', family: 6 as const }],
    ]) {
      const res = await request(`http://hook.invalid:${receiver.port}/`, async () => addresses, false);
      expect(res.ok).toBe(false);
      expect(res.error).toMatch(/^Destino no permitido: /);
    }
    const unresolved = await request(
      `http://hook.invalid:${receiver.port}/`,
      async () => {
        throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
      },
      false,
    );
    expect(unresolved.error).toBe('No se pudo resolver hook.invalid (ENOTFOUND)');
    expect(receiver.received.length).toBe(before);
  });
});
