import request from 'supertest';
import type { EnrollResponse } from '../../shared/contracts/agent';
import { DEVICE_ACTION } from '../../shared/constants/deviceActions';
import { deviceListQuery, type DeviceList } from '../../shared/contracts/devices';
import type { EnrollmentTokenCreated } from '../../shared/contracts/enrollment';
import { DeviceRepository } from '../../server/devices/deviceRepository';
import { EXACT_COUNT_CAP } from '../../server/devices/devicesService';
import type { Queryable } from '../../server/db/Db';
import { adminApi, type AdminApi } from '../helpers/adminApi';
import { enrollAgent } from '../helpers/agentFixtures';
import { insertDevices, insertGroup, insertManyDevices, removeDevices, testImei } from '../helpers/inventoryFixtures';
import { expectPageFromIndex } from '../helpers/queryPlans';
import { createTestDb, testEngines, type TestDb } from '../helpers/testDb';

/**
 * A search of four digits reads its page from device_key_prefixes (migration 0020). These tests
 * hold its answers to what a search of the devices themselves answers (every stage, both orders,
 * page after page, the total), keep the table equal to what the devices hold through every path
 * that writes them (registration, edit, import, enrollment, bulk action, deletion), and hold the
 * page to the table's index, read in order.
 */
describe.each(testEngines())('device key prefixes on %s', (engine) => {
  let t: TestDb;
  let api: AdminApi;
  let admin: Record<string, string>;

  const app = () => api.ta.app;
  const list = async (query: Record<string, string>) =>
    (await request(app()).get('/api/v5/devices').query(query).set(admin).expect(200)).body as DeviceList;
  const found = async (search: string) => (await list({ search, perPage: '100' })).data.map((d) => d.id).sort((a, b) => a - b);
  /** Rows the table should hold and does not, or holds and should not. */
  const unmatched = async () =>
    Number(
      (
        await t.db.query<{ n: number }>(
          `WITH want AS (SELECT p AS prefix, d.created_at, d.id AS device_id, d.lifecycle = 'pre_enrolled' AS pre_enrolled
                           FROM devices d, device_key_prefixes(d.imei, d.imei2, d.serial, d.credit_reference) p
                          WHERE d.deleted_at IS NULL)
           SELECT count(*) AS n FROM want w FULL JOIN device_key_prefixes k
               ON (k.prefix, k.created_at, k.device_id, k.pre_enrolled) = (w.prefix, w.created_at, w.device_id, w.pre_enrolled)
            WHERE w.device_id IS NULL OR k.device_id IS NULL`,
        )
      ).rows[0]!.n,
    );
  const prefixRows = async (id: number) =>
    (
      await t.db.query<{ prefix: string; xmin: string }>(
        'SELECT prefix, xmin::text AS xmin FROM device_key_prefixes WHERE device_id = $1 ORDER BY prefix',
        [id],
      )
    ).rows;

  beforeAll(async () => {
    t = await createTestDb(engine);
    api = await adminApi(t.db);
    admin = await api.headersOf('admin@demo.local');
  });
  afterAll(async () => {
    await api.ta.services.jobRunner.stop();
    await t.dispose();
  });

  test('four digits: the same devices, in the same order, page after page, with the same total as a search of the devices', async () => {
    const base = Date.UTC(2026, 0, 1);
    const ids = await insertDevices(
      t.db,
      Array.from({ length: 70 }, (_, i) => ({
        // Matches by either IMEI, the serial or the credit reference; one in five only registered;
        // some registered at the same instant (the id breaks the tie).
        imei: i % 7 === 3 ? testImei(i, '86') : testImei(i, '4917'),
        serial: i % 7 === 3 ? `4917SN${i}` : i % 11 === 0 ? `SN-${i}` : null,
        creditReference: i % 13 === 5 ? `49170-${i}` : null,
        lifecycle: i % 5 === 0 ? ('pre_enrolled' as const) : ('operating' as const),
        createdAt: new Date(base + Math.floor(i / 3) * 60_000),
      })),
    );
    // Second IMEIs: one sharing the prefix (the device is found once), one that brings a device in.
    await t.db.query('UPDATE devices SET imei2 = $2 WHERE id = $1', [ids[1], testImei(501, '4917')]);
    await t.db.query('UPDATE devices SET imei2 = $2 WHERE id = $1', [ids[10], testImei(502, '4917')]);
    await t.db.query('UPDATE devices SET imei2 = $2 WHERE id = $1', [ids[17], testImei(503, '4917')]);
    // Devices that do not match: another prefix, a deleted one.
    await insertDevices(t.db, [{ imei: testImei(1, '4918') }, { imei: testImei(2, '4919') }]);
    await t.db.query('UPDATE devices SET deleted_at = now() WHERE id = $1', [ids[20]]);
    expect(await unmatched()).toBe(0);

    for (const stage of [undefined, 'enrolled', 'preEnrolled'] as const) {
      const stageSql = stage === 'enrolled' ? `AND lifecycle <> 'pre_enrolled'` : stage === 'preEnrolled' ? `AND lifecycle = 'pre_enrolled'` : '';
      for (const order of ['asc', 'desc'] as const) {
        const dir = order.toUpperCase();
        const want = (
          await t.db.query<{ id: string }>(
            `SELECT id FROM devices
              WHERE deleted_at IS NULL ${stageSql}
                AND (imei LIKE '4917%' OR imei2 LIKE '4917%' OR lower(serial) LIKE '4917%' OR lower(credit_reference) LIKE '4917%')
              ORDER BY created_at ${dir}, id ${dir}`,
          )
        ).rows.map((r) => Number(r.id));
        expect(want.length).toBeGreaterThan(stage === 'preEnrolled' ? 10 : 40);
        const got: number[] = [];
        for (let page = 1; page <= 4; page++) {
          const res = await list({ search: ' 4917 ', ...(stage ? { stage } : {}), order, page: String(page), perPage: '20' });
          expect([res.total, res.totalIsEstimate]).toEqual([want.length, false]);
          got.push(...res.data.map((d) => d.id));
        }
        expect(got).toEqual(want);
      }
    }
    // The page does come from the table: a device whose rows are taken out is not found by its
    // four digits, still by five (the search of the devices), and is again once they are back.
    await t.db.query('DELETE FROM device_key_prefixes WHERE device_id = $1', [ids[2]]);
    expect(await found('4917')).not.toContain(ids[2]);
    expect(await found('49170')).toContain(ids[2]);
    await t.db.query('UPDATE devices SET imei = imei WHERE id = $1', [ids[2]]);
    expect(await unmatched()).toBe(1);
    await t.db.query(`UPDATE devices SET serial = 'SN-VUELTA' WHERE id = $1`, [ids[2]]);
    expect(await unmatched()).toBe(0);
    expect(await found('4917')).toContain(ids[2]);
    // Another sort, or another filter, is answered by the search of the devices: the same devices.
    const byImei = await list({ search: '4917', stage: 'enrolled', sort: 'imei', perPage: '100' });
    const byType = await list({ search: '4917', stage: 'enrolled', deviceType: '1', perPage: '100' });
    const newest = await list({ search: '4917', stage: 'enrolled', perPage: '100' });
    expect(byImei.data.map((d) => d.id).sort((a, b) => a - b)).toEqual(newest.data.map((d) => d.id).sort((a, b) => a - b));
    expect(byType.data.map((d) => d.id)).toEqual(newest.data.map((d) => d.id));
  });

  test('over EXACT_COUNT_CAP matches the total is flagged as the other searches flag it', async () => {
    await insertManyDevices(t.db, EXACT_COUNT_CAP + 5);
    const res = await list({ search: '4900', stage: 'enrolled' });
    expect([res.total, res.totalIsEstimate, res.data.length]).toEqual([EXACT_COUNT_CAP + 5, true, 25]);
    expect(await unmatched()).toBe(0);
  });

  test('the rows follow registration, edit, import, enrollment, bulk actions and deletion', async () => {
    const body = {
      imei: testImei(1, '5521'),
      imei2: null,
      serial: null,
      deviceType: 1,
      brand: 'Motorola',
      model: 'Moto G24',
      groupId: null,
      customerName: 'Eulalia Ocampo',
      creditReference: null,
    };
    const created = (await request(app()).post('/api/v5/devices').set(admin).send(body).expect(201)).body as { id: number };
    expect(await found('5521')).toEqual([created.id]);
    expect((await list({ search: '5521', stage: 'preEnrolled' })).data.map((d) => d.id)).toEqual([created.id]);
    expect((await list({ search: '5521', stage: 'enrolled' })).data).toEqual([]);

    // An edit of the IMEI moves the device to its new prefix; a second IMEI adds one.
    await request(app())
      .put(`/api/v5/devices/${created.id}`)
      .set(admin)
      .send({ ...body, imei: testImei(1, '5522'), imei2: testImei(2, '5523') })
      .expect(200);
    expect(await found('5521')).toEqual([]);
    expect(await found('5522')).toEqual([created.id]);
    expect(await found('5523')).toEqual([created.id]);
    // An edit that leaves the keys as they are does not rewrite the rows.
    const rows = await prefixRows(created.id);
    await request(app())
      .put(`/api/v5/devices/${created.id}`)
      .set(admin)
      .send({ ...body, imei: testImei(1, '5522'), imei2: testImei(2, '5523'), customerName: 'Eulalia Ocampo Ruiz' })
      .expect(200);
    expect(await prefixRows(created.id)).toEqual(rows);
    expect(await unmatched()).toBe(0);

    // The enrollment: the device moves from the registered devices' page to the enrolled ones'.
    const group = await insertGroup(t.db, 'Sucursal Poniente');
    await request(app())
      .put(`/api/v5/devices/${created.id}`)
      .set(admin)
      .send({ ...body, imei: testImei(1, '5522'), imei2: testImei(2, '5523'), groupId: group })
      .expect(200);
    const qr = (await request(app()).post('/api/v5/enrollment-tokens').set(admin).send({ groupId: group }).expect(201))
      .body as EnrollmentTokenCreated;
    const { res: enrolled } = await enrollAgent(app(), {
      enrollmentToken: qr.shortCode,
      imei: testImei(1, '5522'),
      deviceType: 1,
      osVersion: '14',
      agentVersion: '2.4.1',
    });
    expect(enrolled.status).toBe(201);
    expect((enrolled.body as EnrollResponse).deviceToken).toBeTruthy();
    expect((await list({ search: '5522', stage: 'preEnrolled' })).data).toEqual([]);
    expect((await list({ search: '5522', stage: 'enrolled' })).data.map((d) => d.id)).toEqual([created.id]);
    expect(await unmatched()).toBe(0);

    // A CSV import: every imported device is found.
    const csv = ['imei,tipo,marca,modelo,cliente,referencia_credito'];
    for (let i = 0; i < 30; i++) csv.push(`${testImei(600 + i, '5524')},Móvil,Motorola,Moto G24,Leocadia Ybarra ${i},5524-${i}`);
    await api.importCsv(admin, csv);
    expect(await found('5524')).toHaveLength(30);
    expect(await unmatched()).toBe(0);

    // A bulk lock changes the devices, never their rows; a bulk deletion removes them.
    const ids = await insertDevices(
      t.db,
      Array.from({ length: 12 }, (_, i) => ({ imei: testImei(700 + i, '5525'), ...(i < 4 ? { lifecycle: 'pre_enrolled' as const } : {}) })),
    );
    const before = await Promise.all(ids.map(prefixRows));
    const lock = {
      selection: { ids: ids.slice(4) },
      payload: { action: DEVICE_ACTION.LOCK, lockType: 'PorCredito' as const, message: 'Pago vencido' },
    };
    const job = await api.bulkAction(admin, lock);
    expect([job.status, job.succeeded]).toEqual(['completed', 8]);
    expect(await Promise.all(ids.map(prefixRows))).toEqual(before);

    const del = { selection: { ids: ids.slice(0, 4) }, payload: { action: DEVICE_ACTION.DELETE_DEVICE } };
    await api.bulkAction(admin, del);
    expect(await found('5525')).toEqual(ids.slice(4).sort((a, b) => a - b));
    expect(await prefixRows(ids[0]!)).toEqual([]);
    expect(await unmatched()).toBe(0);

    // A device removed for good loses its rows.
    await removeDevices(t.db, ids.slice(4, 6));
    expect(await prefixRows(ids[4]!)).toEqual([]);
    expect(await unmatched()).toBe(0);
  });

  test.each(['asc', 'desc'] as const)('the page reads the index of the prefix in order (%s), without sorting the matches', async (order) => {
    const q = deviceListQuery.parse({ search: '4917', stage: 'enrolled', order, page: '3' });
    const sent: { sql: string; params: unknown[] }[] = [];
    const recorder = {
      query: (sql: string, params: unknown[] = []) => {
        sent.push({ sql, params });
        return Promise.resolve({ rows: sql.includes('count(*)') ? [{ n: 0 }] : [] });
      },
    } as unknown as Queryable;
    await new DeviceRepository(recorder).listByKeyPrefix(q.stage, '4917', new Date(), q.order, q.perPage, (q.page - 1) * q.perPage);
    expect(sent).toHaveLength(2);
    const { sql, params } = sent[0]!;
    await expectPageFromIndex(t.db, sql, params, 'device_key_prefixes_order');
  });
});
