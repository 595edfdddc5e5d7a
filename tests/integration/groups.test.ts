import fc from 'fast-check';
import request from 'supertest';
import { deleteGroupQuery, groupBody, type Group, type GroupList } from '../../shared/contracts/groups';
import { adminApi, type AdminApi } from '../helpers/adminApi';
import { insertDevices, insertGroup } from '../helpers/inventoryFixtures';
import { asSent, sendJson } from '../helpers/randomBodies';
import { createTestDb, testEngines, type TestDb } from '../helpers/testDb';

describe.each(testEngines())('device groups API on %s', (engine) => {
  let t: TestDb;
  let api: AdminApi;
  let admin: Record<string, string>;
  let soporte: Record<string, string>;
  let registrar: Record<string, string>;
  let nobody: Record<string, string>;
  let collector: Record<string, string>;

  const app = () => api.ta.app;
  const lastAudit = async () => (await t.db.query<Record<string, unknown>>('SELECT * FROM audit_log ORDER BY id DESC LIMIT 1')).rows[0]!;
  const groups = async () => ((await request(app()).get('/api/v5/groups').set(admin).expect(200)).body as GroupList).data;
  const byName = async (name: string) => (await groups()).find((g) => g.name === name)!;
  const tableState = async () => [
    (await t.db.query('SELECT id, name, description, updated_at FROM device_groups ORDER BY id')).rows,
    (await t.db.query('SELECT id, group_id FROM devices ORDER BY id')).rows,
    await api.count('audit_log'),
  ];

  beforeAll(async () => {
    t = await createTestDb(engine);
    api = await adminApi(t.db);
    admin = await api.headersOf('admin@demo.local');
    soporte = await api.headersOf('soporte@demo.local');
    await api.addAdmin('registro@demo.local', await api.addProfile('Registro', ['/inventory-management', '/inventory-management/add-device'], []));
    registrar = await api.headersOf('registro@demo.local');
    await api.addAdmin('tablero@demo.local', await api.addProfile('Solo tablero', ['/dashboard', '/dashboard/general'], []));
    nobody = await api.headersOf('tablero@demo.local');
    await api.addAdmin('cobranza@demo.local', await api.addProfile('Cobranza', ['/credits', '/credits/portfolio'], []));
    collector = await api.headersOf('cobranza@demo.local');
  }, 60_000);
  afterAll(async () => {
    await t?.dispose();
  });

  test('create: trimmed, audited; the name is unique whatever the case (409)', async () => {
    const res = await request(app())
      .post('/api/v5/groups')
      .set(admin)
      .send({ name: '  Sucursal Centro CDMX ', description: 'Av. 5 de Mayo' })
      .expect(201);
    expect(res.body).toMatchObject({ name: 'Sucursal Centro CDMX', description: 'Av. 5 de Mayo', deviceCount: 0 });
    expect(await lastAudit()).toMatchObject({
      entity: 'group',
      entity_id: String(res.body.id),
      action: 'create',
      actor_email: 'admin@demo.local',
      after: { id: res.body.id, name: 'Sucursal Centro CDMX', description: 'Av. 5 de Mayo' },
    });
    const before = await tableState();
    const dup = await request(app()).post('/api/v5/groups').set(admin).send({ name: 'SUCURSAL CENTRO cdmx' }).expect(409);
    expect(dup.body).toEqual({ message: 'Ya existe un grupo con ese nombre', code: 'GROUP_NAME_TAKEN', field: 'name' });
    expect(await tableState()).toEqual(before);
    await request(app()).post('/api/v5/groups').set(admin).send({ name: 'Sucursal Monterrey' }).expect(201);
    await request(app()).post('/api/v5/groups').set(admin).send({ name: 'distribuidor Jalisco', description: '' }).expect(201);
  });

  test('list: every group by name with its live devices counted (deleted devices not counted)', async () => {
    const centro = await byName('Sucursal Centro CDMX');
    const mty = await byName('Sucursal Monterrey');
    const ids = await insertDevices(t.db, [
      { groupId: centro.id },
      { groupId: centro.id, lockState: 'locked' },
      { groupId: centro.id, lifecycle: 'pre_enrolled' },
      { groupId: mty.id, deviceType: 2 },
      { groupId: mty.id },
      {},
      { lifecycle: 'pre_enrolled' },
      { lifecycle: 'pre_enrolled' },
    ]);
    await t.db.query('UPDATE devices SET deleted_at = now() WHERE id = $1', [ids[4]]);
    const res = await request(app()).get('/api/v5/groups').set(admin).expect(200);
    const body = res.body as GroupList;
    expect(body.total).toBe(3);
    expect(body.data.map((g) => [g.name, g.deviceCount, g.enrolledCount, g.preEnrolledCount])).toEqual([
      ['distribuidor Jalisco', 0, 0, 0],
      ['Sucursal Centro CDMX', 3, 2, 1],
      ['Sucursal Monterrey', 1, 1, 0],
    ]);
    expect(body.ungrouped).toEqual({ enrolledCount: 1, preEnrolledCount: 2 });
    expect(body.data[0]).toMatchObject({ description: null });
    expect(Object.keys(body.data[0]!).sort()).toEqual(
      ['createdAt', 'deviceCount', 'description', 'enrolledCount', 'id', 'name', 'preEnrolledCount', 'updatedAt'].sort(),
    );
    // Each number is the total of the list its link opens: the enrolled page and the pre-enrolled page, by group or without one.
    const total = async (query: string) =>
      ((await request(app()).get(`/api/v5/devices?perPage=1&${query}`).set(admin).expect(200)).body as { total: number }).total;
    for (const g of body.data) {
      expect(await total(`stage=enrolled&groupId=${g.id}`)).toBe(g.enrolledCount);
      expect(await total(`stage=preEnrolled&groupId=${g.id}`)).toBe(g.preEnrolledCount);
    }
    expect(await total('stage=enrolled&groupId=none')).toBe(body.ungrouped.enrolledCount);
    expect(await total('stage=preEnrolled&groupId=none')).toBe(body.ungrouped.preEnrolledCount);
  });

  test('every inventory page (and the credit portfolio, for its filter) may read the groups; managing them needs the groups page', async () => {
    for (const who of [soporte, registrar, collector]) await request(app()).get('/api/v5/groups').set(who).expect(200);
    await request(app()).get('/api/v5/groups').set(nobody).expect(403);
    const centro = await byName('Sucursal Centro CDMX');
    const before = await tableState();
    for (const who of [soporte, registrar, collector, nobody]) {
      await request(app()).post('/api/v5/groups').set(who).send({ name: 'Nuevo' }).expect(403);
      await request(app()).put(`/api/v5/groups/${centro.id}`).set(who).send({ name: 'Nuevo' }).expect(403);
      const res = await request(app()).delete(`/api/v5/groups/${centro.id}`).set(who).expect(403);
      expect(res.body).toEqual({ message: 'No Autorizado', code: 'FORBIDDEN' });
    }
    expect(await tableState()).toEqual(before);
  });

  test('rename: audited before/after, unique name (409), 404 for a missing group, unchanged writes nothing', async () => {
    const jal = await byName('distribuidor Jalisco');
    const res = await request(app())
      .put(`/api/v5/groups/${jal.id}`)
      .set(admin)
      .send({ name: 'Distribuidor Jalisco', description: 'Zapopan' })
      .expect(200);
    expect(res.body).toMatchObject({ id: jal.id, name: 'Distribuidor Jalisco', description: 'Zapopan', deviceCount: 0 });
    expect(await lastAudit()).toMatchObject({
      entity: 'group',
      entity_id: String(jal.id),
      action: 'update',
      before: { name: 'distribuidor Jalisco', description: null },
      after: { name: 'Distribuidor Jalisco', description: 'Zapopan' },
    });
    const before = await tableState();
    await request(app()).put(`/api/v5/groups/${jal.id}`).set(admin).send({ name: 'Distribuidor Jalisco', description: 'Zapopan' }).expect(200);
    const dup = await request(app()).put(`/api/v5/groups/${jal.id}`).set(admin).send({ name: 'sucursal monterrey' }).expect(409);
    expect(dup.body.message).toBe('Ya existe un grupo con ese nombre');
    const missing = await request(app()).put('/api/v5/groups/999999').set(admin).send({ name: 'Otro' }).expect(404);
    expect(missing.body).toEqual({ message: 'Grupo no encontrado', code: 'GROUP_NOT_FOUND' });
    expect(await tableState()).toEqual(before);
    // Renaming to a different case of its own name is allowed.
    await request(app()).put(`/api/v5/groups/${jal.id}`).set(admin).send({ name: 'DISTRIBUIDOR JALISCO', description: 'Zapopan' }).expect(200);
  });

  test('bad bodies and ids: 400 naming the field', async () => {
    const jal = await byName('DISTRIBUIDOR JALISCO');
    const before = await tableState();
    const cases: [unknown, string][] = [
      [{}, 'El campo Nombre es obligatorio'],
      [{ name: '   ' }, 'El campo Nombre no puede estar vacío'],
      [{ name: 'x'.repeat(81) }, 'El campo Nombre admite como máximo 80 caracteres'],
      [{ name: 'a\u0000b' }, 'El campo Nombre contiene caracteres no permitidos'],
      [{ name: 7 }, 'El campo Nombre debe ser un texto'],
      [{ name: 'Ok', description: 'x'.repeat(301) }, 'El campo Descripción admite como máximo 300 caracteres'],
      [[], 'El cuerpo de la solicitud debe ser un objeto JSON'],
    ];
    for (const [body, message] of cases) {
      for (const call of [request(app()).post('/api/v5/groups'), request(app()).put(`/api/v5/groups/${jal.id}`)]) {
        const res = await sendJson(call.set(admin), body).expect(400);
        expect(res.body.message).toBe(message);
      }
    }
    for (const id of ['abc', '0', '1.5', '99999999999']) {
      await request(app()).put(`/api/v5/groups/${id}`).set(admin).send({ name: 'Ok' }).expect(400);
      await request(app()).delete(`/api/v5/groups/${id}`).set(admin).expect(400);
    }
    for (const moveTo of ['abc', '0', '-1', '']) {
      const res = await request(app()).delete(`/api/v5/groups/${jal.id}`).query({ moveTo }).set(admin).expect(400);
      expect(res.body).toMatchObject({ message: expect.stringMatching(/^El parámetro Grupo destino /), field: 'moveTo' });
    }
    expect(await tableState()).toEqual(before);
  });

  test('delete: refused while live devices remain (409 with the count); moveTo moves them in one transaction', async () => {
    const centro = await byName('Sucursal Centro CDMX');
    const mty = await byName('Sucursal Monterrey');
    const before = await tableState();
    const refused = await request(app()).delete(`/api/v5/groups/${centro.id}`).set(admin).expect(409);
    expect(refused.body).toEqual({ message: 'El grupo tiene 3 dispositivos; muévalos a otro grupo antes de eliminarlo', code: 'GROUP_NOT_EMPTY' });
    const self = await request(app())
      .delete(`/api/v5/groups/${centro.id}`)
      .query({ moveTo: String(centro.id) })
      .set(admin)
      .expect(400);
    expect(self.body.message).toBe('El grupo destino debe ser otro grupo');
    const unknown = await request(app()).delete(`/api/v5/groups/${centro.id}`).query({ moveTo: '999999' }).set(admin).expect(400);
    expect(unknown.body.message).toBe('El parámetro Grupo destino no corresponde a un grupo existente');
    const missing = await request(app()).delete('/api/v5/groups/999999').set(admin).expect(404);
    expect(missing.body.message).toBe('Grupo no encontrado');
    expect(await tableState()).toEqual(before);

    await request(app())
      .delete(`/api/v5/groups/${centro.id}`)
      .query({ moveTo: String(mty.id) })
      .set(admin)
      .expect(204);
    expect((await groups()).map((g) => [g.name, g.deviceCount])).toEqual([
      ['DISTRIBUIDOR JALISCO', 0],
      ['Sucursal Monterrey', 4],
    ]);
    expect(await lastAudit()).toMatchObject({
      entity: 'group',
      entity_id: String(centro.id),
      action: 'delete',
      before: { id: centro.id, name: 'Sucursal Centro CDMX', deviceCount: 3 },
      after: { movedTo: mty.id, moved: 3 },
    });
    const devices = await request(app())
      .get('/api/v5/devices')
      .query({ groupId: String(mty.id) })
      .set(admin)
      .expect(200);
    expect(devices.body.total).toBe(4);
    expect(devices.body.data.every((d: { groupName: string }) => d.groupName === 'Sucursal Monterrey')).toBe(true);
  });

  test('an empty group is deleted; its deleted devices let go of it', async () => {
    const mty = await byName('Sucursal Monterrey');
    const solo = await insertGroup(t.db, 'Temporal');
    const [gone] = await insertDevices(t.db, [{ groupId: solo }]);
    await t.db.query('UPDATE devices SET deleted_at = now() WHERE id = $1', [gone]);
    expect((await byName('Temporal')).deviceCount).toBe(0);
    await request(app()).delete(`/api/v5/groups/${solo}`).set(admin).expect(204);
    expect(await lastAudit()).toMatchObject({ entity: 'group', action: 'delete', before: { name: 'Temporal', deviceCount: 0 }, after: null });
    expect((await t.db.query<{ group_id: number | null }>('SELECT group_id FROM devices WHERE id = $1', [gone])).rows[0]!.group_id).toBeNull();
    await request(app()).delete(`/api/v5/groups/${solo}`).set(admin).expect(404);
    // moveTo into an empty group: allowed, nothing to move.
    const empty = await insertGroup(t.db, 'Vacío');
    await request(app())
      .delete(`/api/v5/groups/${empty}`)
      .query({ moveTo: String(mty.id) })
      .set(admin)
      .expect(204);
    expect((await byName('Sucursal Monterrey')).deviceCount).toBe(4);
  });

  test('random bodies and queries on every write route: only 400s, nothing changed', async () => {
    const target: Group = await byName('Sucursal Monterrey');
    const before = await tableState();
    const invalid = fc
      .oneof(fc.anything(), fc.object(), fc.record({ name: fc.anything(), description: fc.anything() }, { requiredKeys: [] }))
      .filter((b) => !groupBody.safeParse(asSent(b)).success);
    for (const route of [() => request(app()).post('/api/v5/groups'), () => request(app()).put(`/api/v5/groups/${target.id}`)]) {
      await fc.assert(
        fc.asyncProperty(invalid, async (body) => {
          const res = await sendJson(route().set(admin), body);
          expect(res.status).toBe(400);
          expect(typeof res.body.message).toBe('string');
        }),
        { numRuns: 50 },
      );
    }
    const badMoveTo = fc
      .oneof(fc.string(), fc.array(fc.string(), { minLength: 2, maxLength: 3 }))
      .filter((moveTo) => !deleteGroupQuery.safeParse({ moveTo }).success);
    await fc.assert(
      fc.asyncProperty(badMoveTo, async (moveTo) => {
        const res = await request(app()).delete(`/api/v5/groups/${target.id}`).query({ moveTo }).set(admin);
        expect(res.status).toBe(400);
      }),
      { numRuns: 50 },
    );
    expect(await tableState()).toEqual(before);
  });
});
