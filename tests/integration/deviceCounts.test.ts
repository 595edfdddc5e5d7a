import request from 'supertest';
import type { Job } from '../../shared/contracts/jobs';
import { adminApi, type AdminApi } from '../helpers/adminApi';
import { insertDevices, insertGroup, insertManyDevices, removeDevices, testImei } from '../helpers/inventoryFixtures';
import { createTestDb, testEngines, type TestDb } from '../helpers/testDb';

/**
 * device_counts is kept by statement triggers; list totals, group counts and dashboards read
 * it instead of counting devices. After every kind of change the inventory makes (one and many
 * rows, soft delete, group moves, lock state, bulk jobs, imports) it must equal a recount.
 */
describe.each(testEngines())('device_counts stays equal to a recount on %s', (engine) => {
  let t: TestDb;
  let api: AdminApi;
  let admin: Record<string, string>;
  let north: number;
  let south: number;

  const app = () => api.ta.app;

  const counters = async () =>
    (
      await t.db.query<Record<string, unknown>>(
        `SELECT device_type, group_id, base_status, lock_type, n::bigint AS n FROM device_counts WHERE n <> 0 ORDER BY 1, 2, 3, 4`,
      )
    ).rows;
  const recount = async () =>
    (
      await t.db.query<Record<string, unknown>>(
        `SELECT device_type, coalesce(group_id, 0) AS group_id, base_status, coalesce(lock_type, '') AS lock_type, count(*)::bigint AS n
           FROM devices WHERE deleted_at IS NULL GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`,
      )
    ).rows;
  const expectConsistent = async () => expect(await counters()).toEqual(await recount());

  beforeAll(async () => {
    t = await createTestDb(engine);
    api = await adminApi(t.db);
    admin = await api.headersOf('admin@demo.local');
    north = await insertGroup(t.db, 'Norte');
    south = await insertGroup(t.db, 'Sur');
  });

  afterAll(async () => {
    await t?.dispose();
  });

  test('registration, edits, actions, soft delete, group moves and bulk jobs', async () => {
    const [a, b, c] = await insertDevices(t.db, [{ groupId: north }, { groupId: north, lockState: 'locked' }, { deviceType: 2 }]);
    await insertManyDevices(t.db, 30, { groupId: south });
    await expectConsistent();

    // One device registered, then edited into a group and out of it.
    const created = await request(app())
      .post('/api/v5/devices')
      .set(admin)
      .send({ imei: testImei(4101), deviceType: 1 })
      .expect(201);
    const id = (created.body as { id: number }).id;
    await request(app())
      .put(`/api/v5/devices/${id}`)
      .set(admin)
      .send({ imei: testImei(4101), deviceType: 2, groupId: south })
      .expect(200);
    await expectConsistent();

    // A CSV import (many rows in one statement).
    await api.importCsv(admin, ['imei,tipo,grupo', `${testImei(4102)},1,norte`, `${testImei(4103)},TV,`, `${testImei(4104)},Móvil,SUR`]);
    await expectConsistent();

    // Actions change the base status (pending command), a cancelled release changes it back.
    await request(app()).post(`/api/v5/devices/${a}/actions`).set(admin).send({ action: 0, lockType: 'SinKiosko' }).expect(201);
    const release = await request(app()).post(`/api/v5/devices/${c}/actions`).set(admin).send({ action: 2 }).expect(201);
    await expectConsistent();
    const commandId = (release.body as { command: { id: number } }).command.id;
    await request(app()).post(`/api/v5/devices/${c}/actions/${commandId}/cancel`).set(admin).expect(200);
    await expectConsistent();

    // The agent's side, written directly: the lock acknowledged (lock state and type change together).
    await t.db.query(
      "UPDATE devices SET lock_state = 'locked', lock_type = 'SinKiosko', pending_action = NULL, pending_command_id = NULL WHERE id = $1",
      [a],
    );
    await expectConsistent();

    // Soft delete of one (DELETE) counts it out once; the same row touched again changes nothing.
    await request(app()).delete(`/api/v5/devices/${id}`).set(admin).expect(204);
    await t.db.query('UPDATE devices SET updated_at = now() WHERE id = $1', [id]);
    await expectConsistent();

    // A bulk job over a whole group, in several batches (one statement per batch).
    api.ta.services.jobRunner.jobs.batchSize = 7;
    const job = await request(app())
      .post('/api/v5/devices/bulk-actions')
      .set(admin)
      .send({ selection: { filter: { groupId: String(south) } }, payload: { action: 0, lockType: 'PorCredito' } })
      .expect(202);
    await api.ta.services.jobRunner.idle();
    const done = await request(app())
      .get(`/api/v5/jobs/${(job.body as Job).id}`)
      .set(admin)
      .expect(200);
    expect(done.body).toMatchObject({ status: 'completed' });
    await expectConsistent();

    // Bulk delete of the pre-enrolled ones, then a group deleted with its devices moved.
    await request(app())
      .post('/api/v5/devices/bulk-actions')
      .set(admin)
      .send({ selection: { filter: { stage: 'preEnrolled' } }, payload: { action: 11 } })
      .expect(202);
    await api.ta.services.jobRunner.idle();
    await expectConsistent();
    await t.db.query('UPDATE devices SET deleted_at = now() WHERE id = $1', [b]);
    await request(app()).delete(`/api/v5/groups/${north}?moveTo=${south}`).set(admin).expect(204);
    await expectConsistent();

    // Hard deletes (not something the API does, but the trigger must hold).
    await removeDevices(t.db, [c!]);
    await expectConsistent();
  });
});
