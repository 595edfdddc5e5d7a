import request from 'supertest';
import { adminListResponse, adminResponse, createdAdminResponse, resetPasswordResponse } from '../../shared/contracts/admins';
import { auditListResponse } from '../../shared/contracts/audit';
import { actionResultResponse, historyResponse, lockDefaultsResponse } from '../../shared/contracts/deviceActions';
import { IMPORT_COLUMNS, importResultResponse } from '../../shared/contracts/deviceImport';
import { deviceListResponse, deviceResponse, luhnCheckDigit } from '../../shared/contracts/devices';
import { groupListResponse, groupResponse } from '../../shared/contracts/groups';
import { bulkPreviewResponse, jobResponse, jobResultListResponse } from '../../shared/contracts/jobs';
import { appVersionResponse, portalVersionResponse } from '../../shared/contracts/portal';
import { roleListResponse } from '../../shared/contracts/roles';
import { portalUserResponse } from '../../shared/contracts/users';
import { adminApi, type AdminApi } from '../helpers/adminApi';
import { insertDevices, setPendingCommand } from '../helpers/inventoryFixtures';
import { createTestDb, testEngines, type TestDb } from '../helpers/testDb';

describe.each(testEngines())('responses answer their shared contracts (%s)', (engine) => {
  let t: TestDb;
  let api: AdminApi;
  beforeAll(async () => {
    t = await createTestDb(engine);
    api = await adminApi(t.db);
  });
  afterAll(async () => {
    await t.dispose();
  });

  test('POST /v5/users/getUserByEmail: the portal user record, exactly (no field the contract does not name)', async () => {
    const res = await request(api.ta.app)
      .post('/api/v5/users/getUserByEmail')
      .set(await api.headersOf('soporte@demo.local'))
      .send({ correo: 'soporte@demo.local' })
      .expect(200);
    const user = portalUserResponse.parse(res.body);
    expect(user.correo).toBe('soporte@demo.local');
    expect(user.profile?.details.length).toBeGreaterThan(0);
  });

  test('devices and groups: the list, one device (with a command in flight) and a created group, exactly as contracted', async () => {
    const headers = await api.headersOf('admin@demo.local');
    const group = await request(api.ta.app)
      .post('/api/v5/groups')
      .set(headers)
      .send({ name: 'Contrato', description: 'Grupo de prueba' })
      .expect(201);
    expect(groupResponse.parse(group.body).name).toBe('Contrato');
    const [plain, pending] = await insertDevices(t.db, [{ groupId: group.body.id, customerName: 'Ana' }, { lifecycle: 'enrolled' }]);
    await setPendingCommand(t.db, pending!, 0);
    const list = await request(api.ta.app).get('/api/v5/devices').set(headers).expect(200);
    expect(deviceListResponse.parse(list.body).data.length).toBeGreaterThanOrEqual(2);
    expect(deviceResponse.parse((await request(api.ta.app).get(`/api/v5/devices/${plain}`).set(headers).expect(200)).body).groupName).toBe(
      'Contrato',
    );
    const withCommand = deviceResponse.parse((await request(api.ta.app).get(`/api/v5/devices/${pending}`).set(headers).expect(200)).body);
    expect(withCommand.pendingCommand).not.toBeNull();
    const groups = await request(api.ta.app).get('/api/v5/groups').set(headers).expect(200);
    expect(groupListResponse.parse(groups.body).data.map((g) => g.name)).toContain('Contrato');
  });

  test('actions, history, the proposed lock types, bulk preview, jobs and their results, exactly as contracted', async () => {
    const headers = await api.headersOf('admin@demo.local');
    const [a, b] = await insertDevices(t.db, [{ lifecycle: 'enrolled' }, { lifecycle: 'enrolled' }]);
    const acted = await request(api.ta.app)
      .post(`/api/v5/devices/${a}/actions`)
      .set(headers)
      .send({ action: 5, title: 'Aviso', message: 'Hola' })
      .expect(201);
    expect(actionResultResponse.parse(acted.body).command?.action).toBe(5);
    const history = await request(api.ta.app).get(`/api/v5/devices/${a}/history`).set(headers).expect(200);
    expect(historyResponse.parse(history.body).data.length).toBeGreaterThan(0);
    const lockDefaults = await request(api.ta.app).get('/api/v5/devices/lock-defaults').set(headers).expect(200);
    expect(Object.keys(lockDefaultsResponse.parse(lockDefaults.body).byType)).toEqual(['1', '2']);
    const bulk = { selection: { ids: [a, b] }, payload: { action: 5, title: 'Aviso', message: 'Hola' } };
    const preview = await request(api.ta.app).post('/api/v5/devices/bulk-actions/preview').set(headers).send(bulk).expect(200);
    expect(bulkPreviewResponse.parse(preview.body).total).toBe(2);
    const job = jobResponse.parse((await request(api.ta.app).post('/api/v5/devices/bulk-actions').set(headers).send(bulk).expect(202)).body);
    expect(jobResponse.parse((await request(api.ta.app).get(`/api/v5/jobs/${job.id}`).set(headers).expect(200)).body).id).toBe(job.id);
    jobResultListResponse.parse((await request(api.ta.app).get(`/api/v5/jobs/${job.id}/results`).set(headers).expect(200)).body);
  });

  test('CSV import preview: valid rows (normalised sample) and invalid rows with their fields, exactly as contracted', async () => {
    const headers = await api.headersOf('admin@demo.local');
    const imei = `35209900176${String(Date.now()).slice(-3)}`;
    const csv = [IMPORT_COLUMNS.join(','), `${imei}${luhnCheckDigit(imei)},,,1,Marca,Modelo,,Ana,`, 'no-es-imei,,,9,,,,,'].join('\n');
    const res = await request(api.ta.app)
      .post('/api/v5/devices/import?mode=preview')
      .set(headers)
      .set('Content-Type', 'text/csv')
      .send(csv)
      .expect(200);
    const result = importResultResponse.parse(res.body);
    expect([result.valid, result.invalid.length]).toEqual([1, 1]);
    expect(result.sample[0]).toMatchObject({ deviceType: 1, customerName: 'Ana', serial: null });
  });

  test('GET /portal/getVersion and /portal/getVersionApp', async () => {
    const headers = await api.headersOf('admin@demo.local');
    const version = await request(api.ta.app).get('/api/portal/getVersion').set(headers).expect(200);
    expect(portalVersionResponse.parse(version.body).version_portal).toEqual(expect.any(String));
    const app = await request(api.ta.app).get('/api/portal/getVersionApp').set(headers).expect(200);
    expect(appVersionResponse.safeParse(app.body).success).toBe(true);
  });

  test('administrators (list, one, created with its temporary password, password reset), roles and the audit log, exactly as contracted', async () => {
    const headers = await api.headersOf('admin@demo.local');
    const roles = roleListResponse.parse((await request(api.ta.app).get('/api/v5/roles').set(headers).expect(200)).body);
    const role = roles.data.find((r) => r.adminCount > 0)!;
    expect(role.paths.length).toBeGreaterThan(0);
    const created = createdAdminResponse.parse(
      (
        await request(api.ta.app)
          .post('/api/v5/admins')
          .set(headers)
          .send({ correo: 'contrato@demo.local', nombres: 'Contrato', apellidos: 'Prueba', profileId: role.id })
          .expect(201)
      ).body,
    );
    expect(created.temporaryPassword).toEqual(expect.any(String));
    const one = adminResponse.parse((await request(api.ta.app).get(`/api/v5/admins/${created.id}`).set(headers).expect(200)).body);
    expect(one).toEqual({ ...created, temporaryPassword: undefined, updatedAt: one.updatedAt });
    const list = adminListResponse.parse((await request(api.ta.app).get('/api/v5/admins').set(headers).expect(200)).body);
    expect(list.data.map((a) => a.correo)).toContain('contrato@demo.local');
    const reset = await request(api.ta.app).post(`/api/v5/admins/${created.id}/reset-password`).set(headers).expect(200);
    expect(resetPasswordResponse.parse(reset.body).temporaryPassword).not.toBe(created.temporaryPassword);
    const audit = auditListResponse.parse((await request(api.ta.app).get('/api/v5/audit?entity=admin').set(headers).expect(200)).body);
    expect(audit.data.map((e) => e.action)).toEqual(expect.arrayContaining(['create', 'reset_password']));
  });
});
