import request from 'supertest';
import { apiErrorBody } from '../../shared/contracts/apiError';
import { luhnCheckDigit } from '../../shared/contracts/devices';
import { adminApi, type AdminApi } from '../helpers/adminApi';
import { createTestDb, testEngines, type TestDb } from '../helpers/testDb';

/** A valid IMEI from 14 digits. */
const imeiOf = (first14: string) => `${first14}${luhnCheckDigit(first14)}`;

describe.each(testEngines())('API errors name the field they are about, on %s', (engine) => {
  let t: TestDb;
  let api: AdminApi;
  let admin: Record<string, string>;
  const app = () => api.ta.app;

  beforeAll(async () => {
    t = await createTestDb(engine);
    api = await adminApi(t.db);
    admin = await api.headersOf('admin@demo.local');
  }, 60_000);
  afterAll(async () => {
    await t?.dispose();
  });

  test('a 400 of a body carries the path of the bad field next to its Spanish message, which names the field by its label', async () => {
    const bad = await request(app()).post('/api/v5/devices').set(admin).send({ imei: '123', deviceType: 1 }).expect(400);
    expect(bad.body).toEqual({ message: 'El campo IMEI debe tener 15 dígitos', code: 'VALIDATION', field: 'imei' });
    expect(apiErrorBody.strict().safeParse(bad.body).success).toBe(true);

    const missing = await request(app()).post('/api/v5/groups').set(admin).send({ description: 'Sin nombre' }).expect(400);
    expect(missing.body).toEqual({ message: 'El campo Nombre es obligatorio', code: 'VALIDATION', field: 'name' });

    const nested = await request(app())
      .post('/api/v5/roles')
      .set(admin)
      .send({ nombre: 'Con ruta mala', paths: ['/dashboard', '/nada'], actions: [] })
      .expect(400);
    expect(nested.body).toMatchObject({ code: 'VALIDATION', field: 'paths.1' });
  });

  test('a 400 of the query string names the parameter; a body that is not an object names none', async () => {
    const query = await request(app()).get('/api/v5/devices?perPage=abc').set(admin).expect(400);
    expect(query.body).toMatchObject({ code: 'VALIDATION', field: 'perPage' });

    const notAnObject = await request(app()).post('/api/v5/groups').set(admin).set('Content-Type', 'application/json').send('[1]').expect(400);
    expect(notAnObject.body.code).toBe('VALIDATION');
    expect(notAnObject.body).not.toHaveProperty('field');
  });

  test('a conflict about one field names it; an error about no field has no field', async () => {
    const imei = imeiOf('49015420323751');
    await request(app()).post('/api/v5/devices').set(admin).send({ imei, deviceType: 1 }).expect(201);
    const taken = await request(app()).post('/api/v5/devices').set(admin).send({ imei, deviceType: 1 }).expect(409);
    expect(taken.body).toEqual({ message: `Ya existe un dispositivo con el IMEI ${imei}`, code: 'IMEI_TAKEN', field: 'imei' });

    const noGroup = await request(app())
      .post('/api/v5/devices')
      .set(admin)
      .send({ imei: imeiOf('35332509111111'), deviceType: 1, groupId: 999_999 })
      .expect(400);
    expect(noGroup.body).toMatchObject({ code: 'GROUP_NOT_FOUND', field: 'groupId' });

    const notFound = await request(app()).get('/api/v5/devices/999999').set(admin).expect(404);
    expect(notFound.body).toEqual({ message: 'Dispositivo no encontrado', code: 'DEVICE_NOT_FOUND' });
  });
});
