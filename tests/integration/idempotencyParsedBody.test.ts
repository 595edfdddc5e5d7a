import request from 'supertest';
import { adminApi, type AdminApi } from '../helpers/adminApi';
import { insertDevices } from '../helpers/inventoryFixtures';
import { createTestDb, testEngines, type TestDb } from '../helpers/testDb';

describe.each(testEngines())('Idempotency-Key identifies the validated request, not its spelling (%s)', (engine) => {
  let t: TestDb;
  let api: AdminApi;
  let admin: Record<string, string>;
  beforeAll(async () => {
    t = await createTestDb(engine);
    api = await adminApi(t.db);
    admin = await api.headersOf('admin@demo.local');
  });
  afterAll(async () => {
    await t.dispose();
  });

  const act = (id: number, body: object, key: string) =>
    request(api.ta.app).post(`/api/v5/devices/${id}/actions`).set(admin).set('Idempotency-Key', key).send(body);

  test('a retry that spells the same action differently (spaces, key order) is the same request: replayed', async () => {
    const [id] = await insertDevices(t.db, [{}]);
    const first = await act(id!, { action: 5, title: 'Aviso', message: 'Pague su cuota' }, 'same-intent').expect(201);
    const retry = await act(id!, { message: '  Pague su cuota ', title: ' Aviso', action: 5 }, 'same-intent').expect(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toEqual(first.body);
    const commands = await t.db.query('SELECT id FROM device_commands WHERE device_id = $1', [id]);
    expect(commands.rows).toHaveLength(1);
  });

  test('bulk actions: the same payload with other spacing is the same request: replayed', async () => {
    const [a, b] = await insertDevices(t.db, [{}, {}]);
    const body = { selection: { ids: [a, b] }, payload: { action: 5, title: 'Aviso', message: 'Hola' } };
    const first = await request(api.ta.app).post('/api/v5/devices/bulk-actions').set(admin).set('Idempotency-Key', 'bulk-intent').send(body);
    expect(first.status).toBe(202);
    const retry = await request(api.ta.app)
      .post('/api/v5/devices/bulk-actions')
      .set(admin)
      .set('Idempotency-Key', 'bulk-intent')
      .send({ ...body, payload: { action: 5, title: 'Aviso  ', message: ' Hola' } });
    expect(retry.status).toBe(202);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body.id).toBe(first.body.id);
  });
});
