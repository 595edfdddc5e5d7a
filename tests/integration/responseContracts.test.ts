import request from 'supertest';
import { appVersionResponse, portalVersionResponse } from '../../shared/contracts/portal';
import { portalUserResponse } from '../../shared/contracts/users';
import { adminApi, type AdminApi } from '../helpers/adminApi';
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

  test('GET /portal/getVersion and /portal/getVersionApp', async () => {
    const headers = await api.headersOf('admin@demo.local');
    const version = await request(api.ta.app).get('/api/portal/getVersion').set(headers).expect(200);
    expect(portalVersionResponse.parse(version.body).version_portal).toEqual(expect.any(String));
    const app = await request(api.ta.app).get('/api/portal/getVersionApp').set(headers).expect(200);
    expect(appVersionResponse.safeParse(app.body).success).toBe(true);
  });
});
