import request from 'supertest';
import { DEVICE_ACTION } from '../../shared/constants/deviceActions';
import type { DeviceList } from '../../shared/contracts/devices';
import { adminApi, type AdminApi } from '../helpers/adminApi';
import { insertDevices, removeDevices, testImei } from '../helpers/inventoryFixtures';
import { createTestDb, testEngines, type TestDb } from '../helpers/testDb';

/**
 * The searched text lives in device_search (migration 0016), apart from the device row: these
 * tests go through the real paths (registration, edit, CSV import, bulk action, deletion) and
 * check that the search answers what the device holds now, and that status writes leave the
 * search rows alone.
 */
describe.each(testEngines())('device search table on %s', (engine) => {
  let t: TestDb;
  let api: AdminApi;
  let admin: Record<string, string>;

  const app = () => api.ta.app;
  const found = async (search: string) =>
    ((await request(app()).get('/api/v5/devices').query({ search, perPage: '100' }).set(admin).expect(200)).body as DeviceList).data
      .map((d) => d.id)
      .sort((a, b) => a - b);
  const searchRow = async (id: number) =>
    (await t.db.query<{ search_text: string; xmin: string }>('SELECT search_text, xmin::text AS xmin FROM device_search WHERE device_id = $1', [id]))
      .rows[0];
  const unmatched = async () =>
    Number(
      (
        await t.db.query<{ n: number }>(
          `SELECT count(*) AS n FROM devices d FULL JOIN device_search s ON s.device_id = d.id
            WHERE d.id IS NULL OR s.device_id IS NULL
               OR s.search_text IS DISTINCT FROM device_search_text(d.serial, d.customer_name, d.credit_reference)`,
        )
      ).rows[0]!.n,
    );

  beforeAll(async () => {
    t = await createTestDb(engine);
    api = await adminApi(t.db);
    admin = await api.headersOf('admin@demo.local');
  });
  afterAll(async () => {
    await api.ta.services.jobRunner.stop();
    await t.dispose();
  });

  test('registration and edit: the search finds what the device holds now, not what it held', async () => {
    const body = {
      imei: testImei(1, '35'),
      imei2: null,
      serial: 'SN-ZAFIRO-01',
      deviceType: 1,
      brand: 'Samsung',
      model: 'Galaxy A15',
      groupId: null,
      customerName: 'Úrsula Zamudio',
      creditReference: 'CR-9911-0001',
    };
    const created = (await request(app()).post('/api/v5/devices').set(admin).send(body).expect(201)).body as { id: number };
    expect(await found('ursula zamu')).toEqual([created.id]);
    expect(await found('9911-00')).toEqual([created.id]);

    await request(app())
      .put(`/api/v5/devices/${created.id}`)
      .set(admin)
      .send({ ...body, customerName: 'Íñigo Quevedo', serial: 'SN-RUBI-02', creditReference: 'CR-7722-0002' })
      .expect(200);
    expect(await found('ursula')).toEqual([]);
    expect(await found('zafiro')).toEqual([]);
    expect(await found('9911')).toEqual([]);
    expect(await found('inigo queve')).toEqual([created.id]);
    expect(await found('igo')).toEqual([]);
    expect(await found('rubi 7722-00')).toEqual([created.id]);

    // An edit that leaves the searched columns as they are does not rewrite the search row.
    const before = await searchRow(created.id);
    await request(app())
      .put(`/api/v5/devices/${created.id}`)
      .set(admin)
      .send({ ...body, customerName: 'Íñigo Quevedo', serial: 'SN-RUBI-02', creditReference: 'CR-7722-0002', model: 'Galaxy A25 5G' })
      .expect(200);
    expect(await searchRow(created.id)).toEqual(before);
    expect(await unmatched()).toBe(0);
  });

  test('a CSV import: every imported device is searchable', async () => {
    const csv = ['imei,tipo,marca,modelo,cliente,referencia_credito'];
    for (let i = 0; i < 30; i++) csv.push(`${testImei(500 + i, '35')},Móvil,Motorola,Moto G24,Leocadia Ybarra ${i},CR-IMP-${1000 + i}`);
    await api.importCsv(admin, csv);
    expect(await found('leocadia ybar')).toHaveLength(30);
    expect(await found('imp-1017')).toHaveLength(1);
    expect(await unmatched()).toBe(0);
  });

  test('a bulk action changes the devices, never their search rows; deleted devices are not found; a removed device loses its row', async () => {
    const ids = await insertDevices(
      t.db,
      Array.from({ length: 12 }, (_, i) => ({
        customerName: `Casimira Oyarzábal ${i}`,
        serial: `SN-BULK-${i}`,
        // The first four are only registered: they can be deleted.
        ...(i < 4 ? { lifecycle: 'pre_enrolled' as const } : {}),
      })),
    );
    const rows = await Promise.all(ids.map(searchRow));
    const lock = {
      selection: { ids: ids.slice(4) },
      payload: { action: DEVICE_ACTION.LOCK, lockType: 'PorCredito' as const, message: 'Pago vencido' },
    };
    const job = await api.bulkAction(admin, lock);
    expect([job.status, job.succeeded]).toEqual(['completed', 8]);
    expect(await Promise.all(ids.map(searchRow))).toEqual(rows);
    expect(await found('casimira oyarz')).toEqual([...ids].sort((a, b) => a - b));

    const del = { selection: { ids: ids.slice(0, 4) }, payload: { action: DEVICE_ACTION.DELETE_DEVICE } };
    await api.bulkAction(admin, del);
    expect(await found('casimira')).toEqual(ids.slice(4).sort((a, b) => a - b));

    await removeDevices(t.db, ids.slice(0, 4));
    expect(await searchRow(ids[0]!)).toBeUndefined();
    expect(await unmatched()).toBe(0);
  });
});
