import request from 'supertest';
import { PATHS } from '../../shared/constants/routes';
import {
  webhookCreatedResponse,
  webhookDeliveryListResponse,
  webhookDeliveryResponse,
  webhookListResponse,
  webhookResponse,
  type Webhook,
} from '../../shared/contracts/webhooks';
import { adminApi, type AdminApi } from '../helpers/adminApi';
import { insertDevices } from '../helpers/inventoryFixtures';
import { createTestDb, testEngines, type TestDb } from '../helpers/testDb';

const URL_OK = 'https://hooks.acreedor.example/macrolock';

describe.each(testEngines())('webhooks API on %s', (engine) => {
  let t: TestDb;
  let api: AdminApi;
  let strict: AdminApi;
  let admin: Record<string, string>;
  let strictAdmin: Record<string, string>;
  let nobody: Record<string, string>;

  const app = () => api.ta.app;
  const lastAudit = async () => (await t.db.query<Record<string, unknown>>('SELECT * FROM audit_log ORDER BY id DESC LIMIT 1')).rows[0]!;
  const state = async () => [
    (
      await t.db.query(
        'SELECT id, name, url, events, secret, enabled, disabled_reason, failing_since, updated_at FROM webhook_subscriptions ORDER BY id',
      )
    ).rows,
    (await t.db.query('SELECT id, status, next_attempt_at, attempts FROM webhook_deliveries ORDER BY id')).rows,
    await api.count('audit_log'),
  ];
  const create = (body: Record<string, unknown>, who = admin) =>
    request(who === strictAdmin ? strict.ta.app : app())
      .post('/api/v5/webhooks')
      .set(who)
      .send(body);

  beforeAll(async () => {
    t = await createTestDb(engine);
    // Local and unresolvable targets allowed (WEBHOOK_ALLOW_PRIVATE_TARGETS=true, as in the demo).
    api = await adminApi(t.db, { env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
    // The default rule for targets, production's (https, public addresses), on the same database:
    // no WEBHOOK_ALLOW_PRIVATE_TARGETS, outside production.
    strict = await adminApi(t.db);
    admin = await api.headersOf('admin@demo.local');
    strictAdmin = await strict.headersOf('admin@demo.local');
    await api.addAdmin('integra@demo.local', await api.addProfile('Sin webhooks', ['/admin-settings', PATHS.apiKeys], []));
    nobody = await api.headersOf('integra@demo.local');
  }, 60_000);
  afterAll(async () => {
    await t?.dispose();
  });

  test('create: 201 with the subscription and its secret (once); audited without the secret', async () => {
    const res = await create({
      name: '  Acreedor principal ',
      url: URL_OK,
      events: ['job.finished', 'device.status_changed', 'job.finished'],
    }).expect(201);
    const body = webhookCreatedResponse.parse(res.body);
    expect(body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(body.webhook).toMatchObject({
      name: 'Acreedor principal',
      url: URL_OK,
      // In the catalogue's order, without repeats.
      events: ['device.status_changed', 'job.finished'],
      enabled: true,
      disabledReason: null,
      failingSince: null,
      createdBy: 'admin@demo.local',
      pending: 0,
      lastDeliveryAt: null,
    });
    const stored = await t.db.query<{ secret: string }>('SELECT secret FROM webhook_subscriptions WHERE id = $1', [body.webhook.id]);
    expect(stored.rows[0]!.secret).toBe(body.secret);
    const audit = await lastAudit();
    expect(audit).toMatchObject({
      entity: 'webhook',
      entity_id: String(body.webhook.id),
      action: 'create',
      actor_email: 'admin@demo.local',
      after: { id: body.webhook.id, name: 'Acreedor principal', url: URL_OK, events: ['device.status_changed', 'job.finished'], enabled: true },
    });
    expect(JSON.stringify(audit)).not.toContain(body.secret.slice(6));
    // The list never shows the secret.
    const list = await request(app()).get('/api/v5/webhooks').set(admin).expect(200);
    expect(webhookListResponse.parse(list.body).total).toBe(1);
    expect(JSON.stringify(list.body)).not.toContain('whsec_');
  });

  test('bad input: 400 in Spanish naming the field, nothing changed', async () => {
    const before = await state();
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ url: URL_OK, events: ['job.finished'] }, 'name', /Nombre/],
      [{ name: 'X', url: 'ftp://x.example/', events: ['job.finished'] }, 'url', /URL/],
      [{ name: 'X', url: 'no es una url', events: ['job.finished'] }, 'url', /URL/],
      [{ name: 'X', url: 'https://user:pw@x.example/', events: ['job.finished'] }, 'url', /URL/],
      [{ name: 'X', url: URL_OK, events: [] }, 'events', /Eventos/],
      [{ name: 'X', url: URL_OK, events: ['device.exploded'] }, 'events.0', /Eventos/],
      [{ name: 'X', url: URL_OK, events: ['job.finished'], enabled: 'sí' }, 'enabled', /Activa/],
    ];
    for (const [body, field, message] of cases) {
      const res = await create(body).expect(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION', field });
      expect(res.body.message).toMatch(message);
    }
    const id = (await api.db.query<{ id: number }>('SELECT min(id) AS id FROM webhook_subscriptions')).rows[0]!.id;
    await request(app())
      .put(`/api/v5/webhooks/${id}`)
      .set(admin)
      .send({ name: '', url: URL_OK, events: ['job.finished'] })
      .expect(400);
    await request(app()).get(`/api/v5/webhooks/${id}/deliveries?status=perdido`).set(admin).expect(400);
    await request(app()).get('/api/v5/webhooks/abc/deliveries').set(admin).expect(400);
    expect(await state()).toEqual(before);
  });

  test('production rule: https only, and never a host that is or resolves to a local or private address (WEBHOOK_URL_REFUSED)', async () => {
    // The default outside production too: a staging deployment is not open to private targets.
    expect(strict.ta.config.webhooks.allowPrivateTargets).toBe(false);
    const before = await state();
    for (const url of [
      'https://127.0.0.1/hook',
      'https://localhost:8443/hook',
      'https://10.0.0.8/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/hook',
      'https://[::ffff:192.168.1.10]/hook',
      'https://[fd00::1]/hook',
      'https://0.0.0.0/',
      // IPv4-compatible (::/96), NAT64 and 6to4 forms of the metadata service and loopback
      'https://[::a9fe:a9fe]/latest/meta-data',
      'https://[::169.254.169.254]/',
      'https://[::127.0.0.1]/hook',
      'https://[64:ff9b::a9fe:a9fe]/',
      'https://[2002:a9fe:a9fe::1]/',
      // other special-purpose ranges
      'https://100.64.0.1/',
      'https://192.0.2.10/',
      'https://198.18.0.1/',
      'https://[2001:db8::1]/',
      'https://[fe80::1]/',
    ]) {
      const res = await create({ name: 'Interna', url, events: ['job.finished'] }, strictAdmin).expect(400);
      expect(res.body).toEqual({
        code: 'WEBHOOK_URL_REFUSED',
        field: 'url',
        message: 'La URL apunta a una dirección local o privada: no se permite en producción',
      });
    }
    const http = await create({ name: 'Sin TLS', url: 'http://93.184.216.34/hook', events: ['job.finished'] }, strictAdmin).expect(400);
    expect(http.body).toEqual({ code: 'WEBHOOK_URL_REFUSED', field: 'url', message: 'El campo URL debe ser una URL https válida' });
    const unresolved = await create({ name: 'Nadie', url: 'https://hooks.invalid/x', events: ['job.finished'] }, strictAdmin).expect(400);
    expect(unresolved.body).toMatchObject({ code: 'WEBHOOK_URL_REFUSED', field: 'url' });
    expect(unresolved.body.message).toContain('hooks.invalid');
    expect(await state()).toEqual(before);
    // A public address literal needs no resolution and is accepted.
    await create({ name: 'Pública', url: 'https://93.184.216.34/hook', events: ['job.finished'] }, strictAdmin).expect(201);
    // With WEBHOOK_ALLOW_PRIVATE_TARGETS=true (outside production only), loopback and http are allowed.
    await create({ name: 'Local', url: 'http://127.0.0.1:9/hook', events: ['job.finished'] }).expect(201);
  });

  test('update: audited before/after; re-enabling a subscription the server disabled clears why and since when; 404', async () => {
    const id = (await create({ name: 'Para editar', url: URL_OK, events: ['job.finished'] }).expect(201)).body.webhook.id as number;
    await t.db.query(
      `UPDATE webhook_subscriptions SET enabled = false, disabled_reason = 'failing', disabled_at = now(), failing_since = now() - interval '25 hours' WHERE id = $1`,
      [id],
    );
    const listed = (await request(app()).get('/api/v5/webhooks').set(admin).expect(200)).body as { data: Webhook[] };
    expect(listed.data.find((w) => w.id === id)).toMatchObject({ enabled: false, disabledReason: 'failing', failingSince: expect.any(String) });
    const res = await request(app())
      .put(`/api/v5/webhooks/${id}`)
      .set(admin)
      .send({ name: 'Editada', url: `${URL_OK}/v2`, events: ['device.enrolled'], enabled: true })
      .expect(200);
    expect(webhookResponse.parse(res.body)).toMatchObject({
      id,
      name: 'Editada',
      url: `${URL_OK}/v2`,
      events: ['device.enrolled'],
      enabled: true,
      disabledReason: null,
      disabledAt: null,
      failingSince: null,
    });
    expect(await lastAudit()).toMatchObject({
      entity: 'webhook',
      entity_id: String(id),
      action: 'update',
      before: { name: 'Para editar', enabled: false, disabledReason: 'failing', events: ['job.finished'] },
      after: { name: 'Editada', enabled: true, events: ['device.enrolled'] },
    });
    // Disabled by an administrator: no reason.
    const off = await request(app())
      .put(`/api/v5/webhooks/${id}`)
      .set(admin)
      .send({ name: 'Editada', url: `${URL_OK}/v2`, events: ['device.enrolled'], enabled: false })
      .expect(200);
    expect(off.body).toMatchObject({ enabled: false, disabledReason: null, disabledAt: expect.any(String) });
    const missing = await request(app())
      .put('/api/v5/webhooks/999999')
      .set(admin)
      .send({ name: 'X', url: URL_OK, events: ['job.finished'] })
      .expect(404);
    expect(missing.body).toEqual({ code: 'WEBHOOK_NOT_FOUND', message: 'Suscripción de webhook no encontrada' });
  });

  test('deliveries: newest first, paged, by status; resend makes one pending and due now, audited', async () => {
    const id = (await create({ name: 'Con entregas', url: URL_OK, events: ['device.status_changed'] }).expect(201)).body.webhook.id as number;
    const devices = await insertDevices(t.db, [{}, {}, {}]);
    await t.db.query(`UPDATE devices SET lock_state = 'locked', lock_type = 'PorCredito' WHERE id = ANY ($1::bigint[])`, [devices]);
    const rows = (await t.db.query<{ id: number }>('SELECT id FROM webhook_deliveries WHERE subscription_id = $1 ORDER BY id', [id])).rows;
    expect(rows).toHaveLength(3);
    await t.db.query(
      `UPDATE webhook_deliveries SET status = 'failed', attempts = 9, error = 'HTTP 500', response_status = 500, last_attempt_at = now()
        WHERE id = $1`,
      [rows[0]!.id],
    );
    const page1 = webhookDeliveryListResponse.parse(
      (await request(app()).get(`/api/v5/webhooks/${id}/deliveries?perPage=2`).set(admin).expect(200)).body,
    );
    expect(page1.total).toBe(3);
    expect(page1.data.map((d) => d.id)).toEqual([Number(rows[2]!.id), Number(rows[1]!.id)]);
    expect(page1.data[0]).toMatchObject({
      eventType: 'device.status_changed',
      status: 'pending',
      attempts: 0,
      nextAttemptAt: expect.any(String),
      payload: { type: 'device.status_changed', data: { status: 3, previousStatus: 5 } },
    });
    const page2 = (await request(app()).get(`/api/v5/webhooks/${id}/deliveries?perPage=2&page=2`).set(admin).expect(200)).body;
    expect(page2.data.map((d: { id: number }) => d.id)).toEqual([Number(rows[0]!.id)]);
    const failed = (await request(app()).get(`/api/v5/webhooks/${id}/deliveries?status=failed`).set(admin).expect(200)).body;
    expect(failed).toMatchObject({ total: 1, data: [{ id: Number(rows[0]!.id), status: 'failed', error: 'HTTP 500', nextAttemptAt: null }] });

    const resent = await request(app()).post(`/api/v5/webhooks/${id}/deliveries/${rows[0]!.id}/resend`).set(admin).expect(200);
    const d = webhookDeliveryResponse.parse(resent.body);
    expect(d).toMatchObject({ id: Number(rows[0]!.id), status: 'pending', attempts: 9 });
    expect(Math.abs(new Date(d.nextAttemptAt!).getTime() - Date.now())).toBeLessThan(5_000);
    expect(await lastAudit()).toMatchObject({
      entity: 'webhook',
      entity_id: String(id),
      action: 'resend',
      before: { deliveryId: Number(rows[0]!.id), status: 'failed' },
      after: { deliveryId: Number(rows[0]!.id), status: 'pending' },
    });
    const listed = ((await request(app()).get('/api/v5/webhooks').set(admin).expect(200)).body as { data: Webhook[] }).data;
    expect(listed.find((w) => w.id === id)).toMatchObject({ pending: 3 });
    // Another subscription's delivery, or none: 404.
    const other = (await t.db.query<{ id: number }>('SELECT min(id) AS id FROM webhook_subscriptions')).rows[0]!.id;
    const wrong = await request(app()).post(`/api/v5/webhooks/${other}/deliveries/${rows[0]!.id}/resend`).set(admin).expect(404);
    expect(wrong.body).toEqual({ code: 'WEBHOOK_DELIVERY_NOT_FOUND', message: 'Entrega de webhook no encontrada' });
    await request(app()).get('/api/v5/webhooks/999999/deliveries').set(admin).expect(404);
  });

  test('every route needs the webhooks page (403, nothing changed)', async () => {
    const id = (await t.db.query<{ id: number }>('SELECT min(id) AS id FROM webhook_subscriptions')).rows[0]!.id;
    const delivery = (await t.db.query<{ id: number }>('SELECT min(id) AS id FROM webhook_deliveries')).rows[0]!.id;
    const before = await state();
    const body = { name: 'X', url: URL_OK, events: ['job.finished'] };
    for (const res of [
      await request(app()).get('/api/v5/webhooks').set(nobody),
      await request(app()).post('/api/v5/webhooks').set(nobody).send(body),
      await request(app()).put(`/api/v5/webhooks/${id}`).set(nobody).send(body),
      await request(app()).delete(`/api/v5/webhooks/${id}`).set(nobody),
      await request(app()).get(`/api/v5/webhooks/${id}/deliveries`).set(nobody),
      await request(app()).post(`/api/v5/webhooks/${id}/deliveries/${delivery}/resend`).set(nobody),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: 'No Autorizado', code: 'FORBIDDEN' });
    }
    await request(app()).get('/api/v5/webhooks').expect(401);
    expect(await state()).toEqual(before);
  });

  test('delete: 204 with its deliveries, audited; 404 after', async () => {
    const id = (await create({ name: 'Para borrar', url: URL_OK, events: ['device.status_changed'] }).expect(201)).body.webhook.id as number;
    const [device] = await insertDevices(t.db, [{}]);
    await t.db.query(`UPDATE devices SET lock_state = 'locked', lock_type = 'PorCredito' WHERE id = $1`, [device]);
    await request(app()).delete(`/api/v5/webhooks/${id}`).set(admin).expect(204);
    expect((await t.db.query('SELECT 1 FROM webhook_deliveries WHERE subscription_id = $1', [id])).rowCount).toBe(0);
    expect(await lastAudit()).toMatchObject({
      entity: 'webhook',
      entity_id: String(id),
      action: 'delete',
      before: { name: 'Para borrar' },
      after: null,
    });
    await request(app()).delete(`/api/v5/webhooks/${id}`).set(admin).expect(404);
  });
});
