import request from 'supertest';
import { DEVICE_ACTION } from '../../shared/constants/deviceActions';
import { ALL_ROLE_ACTION_CODES } from '../../shared/constants/roleActions';
import { GRANTABLE_PATHS } from '../../shared/constants/routes';
import { duplicateRoleBody, roleBody, type Role } from '../../shared/contracts/roles';
import { adminApi, type AdminApi } from '../helpers/adminApi';
import { randomBodies, sendJson } from '../helpers/randomBodies';
import { createTestDb, testEngines, type TestDb } from '../helpers/testDb';

/** A profile that manages roles and administrators but holds little else. */
const MANAGER_PATHS = ['/dashboard', '/dashboard/general', '/admin-settings', '/admin-settings/roles', '/admin-settings/admins'];
const MANAGER_ACTIONS = [DEVICE_ACTION.HISTORY, DEVICE_ACTION.LOCK];

describe.each(testEngines())('roles API on %s', (engine) => {
  let t: TestDb;
  let api: AdminApi;
  let admin: Record<string, string>;
  let manager: Record<string, string>;
  let managerProfile: number;

  beforeAll(async () => {
    t = await createTestDb(engine);
    api = await adminApi(t.db);
    managerProfile = await api.addProfile('Gestor', MANAGER_PATHS, MANAGER_ACTIONS);
    await api.addAdmin('gestor@demo.local', managerProfile);
    admin = await api.headersOf('admin@demo.local');
    manager = await api.headersOf('gestor@demo.local');
  }, 60_000);
  afterAll(async () => {
    await t.dispose();
  });

  const app = () => api.ta.app;
  const lastAudit = async () => (await t.db.query<Record<string, unknown>>('SELECT * FROM audit_log ORDER BY id DESC LIMIT 1')).rows[0];
  const roleByName = async (nombre: string) =>
    (await t.db.query<{ id: number; paths: string[]; actions: number[] }>('SELECT id, paths, actions FROM profiles WHERE nombre = $1', [nombre]))
      .rows[0];

  test('lists every role with the number of administrators using it', async () => {
    const res = await request(app()).get('/api/v5/roles').set(admin).expect(200);
    const body = res.body as { data: Role[]; total: number };
    expect(body.total).toBe(body.data.length);
    const byName = Object.fromEntries(body.data.map((r) => [r.nombre, r]));
    expect(byName.Administrador).toMatchObject({ adminCount: 1, paths: [...GRANTABLE_PATHS], actions: [...ALL_ROLE_ACTION_CODES] });
    expect(byName.Soporte!.adminCount).toBe(1);
    expect(byName.Gestor!.adminCount).toBe(1);
    const one = await request(app()).get(`/api/v5/roles/${byName.Soporte!.id}`).set(admin).expect(200);
    expect(one.body).toEqual(byName.Soporte);
  });

  test('creates a role: grants stored once, in menu order; audited with the values after', async () => {
    const res = await request(app())
      .post('/api/v5/roles')
      .set(admin)
      .send({ nombre: '  Auditor  ', paths: ['/admin-settings/audit', '/admin-settings', '/admin-settings/audit'], actions: [7, 0, 7] })
      .expect(201);
    expect(res.body).toMatchObject({ nombre: 'Auditor', paths: ['/admin-settings', '/admin-settings/audit'], actions: [0, 7], adminCount: 0 });
    const row = await lastAudit();
    expect(row).toMatchObject({
      entity: 'role',
      entity_id: String(res.body.id),
      action: 'create',
      actor_email: 'admin@demo.local',
      actor_admin_id: 1,
      outcome: 'success',
      before: null,
      after: { id: res.body.id, nombre: 'Auditor', paths: ['/admin-settings', '/admin-settings/audit'], actions: [0, 7] },
    });
    expect(row!.request_id).toEqual(res.headers['x-request-id']);
    expect(row!.ip).toMatch(/127\.0\.0\.1|::1/);
  });

  test('names are unique whatever the case (409), on create, edit and duplicate', async () => {
    const before = await api.count('profiles');
    const dup = await request(app())
      .post('/api/v5/roles')
      .set(admin)
      .send({ nombre: 'SOPORTE', paths: ['/dashboard'], actions: [] })
      .expect(409);
    expect(dup.body).toEqual({ message: 'Ya existe un rol con ese nombre', code: 'ROLE_NAME_TAKEN', field: 'nombre' });
    const auditor = (await roleByName('Auditor'))!;
    await request(app())
      .put(`/api/v5/roles/${auditor.id}`)
      .set(admin)
      .send({ nombre: 'administrador', paths: ['/dashboard'], actions: [] })
      .expect(409);
    await request(app()).post(`/api/v5/roles/${auditor.id}/duplicate`).set(admin).send({ nombre: 'soporte' }).expect(409);
    expect(await api.count('profiles')).toBe(before);
  });

  test('a role without pages is refused: 400 naming paths, on create and edit, nothing changed', async () => {
    const profiles = await api.count('profiles');
    const audits = await api.count('audit_log');
    const soporte = (await roleByName('Soporte'))!;
    const expected = { message: 'El campo Páginas debe incluir al menos una página', code: 'VALIDATION', field: 'paths' };
    for (const actions of [[], [DEVICE_ACTION.HISTORY]]) {
      const created = await request(app()).post('/api/v5/roles').set(admin).send({ nombre: 'Sin páginas', paths: [], actions }).expect(400);
      expect(created.body).toEqual(expected);
      const edited = await request(app()).put(`/api/v5/roles/${soporte.id}`).set(admin).send({ nombre: 'Soporte', paths: [], actions }).expect(400);
      expect(edited.body).toEqual(expected);
    }
    expect(await api.count('profiles')).toBe(profiles);
    expect(await api.count('audit_log')).toBe(audits);
    expect(await roleByName('Soporte')).toEqual(soporte);
  });

  test('bad input: 400 naming the field in Spanish, nothing changed', async () => {
    const profiles = await api.count('profiles');
    const audits = await api.count('audit_log');
    const soporte = (await roleByName('Soporte'))!;
    const cases: [unknown, RegExp][] = [
      [{}, /^El campo Nombre es obligatorio$/],
      [{ nombre: 'X', actions: [] }, /^El campo Páginas es obligatorio$/],
      [{ nombre: 'X', paths: [], actions: [] }, /^El campo Páginas debe incluir al menos una página$/],
      [{ nombre: 'X', paths: [], actions: [0, 7] }, /^El campo Páginas debe incluir al menos una página$/],
      [{ nombre: 'X', paths: ['/dashboard'] }, /^El campo Acciones es obligatorio$/],
      [{ nombre: '   ', paths: ['/dashboard'], actions: [] }, /^El campo Nombre no puede estar vacío$/],
      [{ nombre: 'x'.repeat(81), paths: ['/dashboard'], actions: [] }, /^El campo Nombre admite como máximo 80/],
      [{ nombre: 'a\u0000b', paths: ['/dashboard'], actions: [] }, /^El campo Nombre contiene caracteres no permitidos$/],
      [{ nombre: 42, paths: ['/dashboard'], actions: [] }, /^El campo Nombre debe ser un texto$/],
      [{ nombre: 'X', paths: ['/no-existe'], actions: [] }, /^El campo Páginas contiene una ruta que no se puede otorgar: \/no-existe$/],
      [{ nombre: 'X', paths: ['/login'], actions: [] }, /^El campo Páginas contiene una ruta/],
      [{ nombre: 'X', paths: [null], actions: [] }, /^El campo Páginas contiene una ruta/],
      [{ nombre: 'X', paths: '/dashboard', actions: [] }, /^El campo Páginas debe ser una lista/],
      [{ nombre: 'X', paths: ['/dashboard'], actions: [14] }, /^El campo Acciones contiene un código de acción no válido: 14$/],
      [{ nombre: 'X', paths: ['/dashboard'], actions: [1.5] }, /^El campo Acciones contiene un código de acción no válido/],
      [{ nombre: 'X', paths: ['/dashboard'], actions: ['0'] }, /^El campo Acciones contiene un código de acción no válido/],
      [{ nombre: 'X', paths: ['/dashboard'], actions: { 0: 1 } }, /^El campo Acciones debe ser una lista/],
      [[], /El cuerpo de la solicitud debe ser un objeto JSON/],
      ['"texto"', /JSON|cuerpo/],
    ];
    for (const [body, message] of cases) {
      for (const call of [request(app()).post('/api/v5/roles').set(admin), request(app()).put(`/api/v5/roles/${soporte.id}`).set(admin)]) {
        const res = await (typeof body === 'string' ? call.set('Content-Type', 'application/json').send(body) : call.send(body as object));
        expect(res.status).toBe(400);
        expect(res.body.message).toMatch(message);
      }
    }
    for (const body of [{ nombre: '' }, { nombre: 7 }, [], { nombre: 'x'.repeat(200) }]) {
      const res = await request(app()).post(`/api/v5/roles/${soporte.id}/duplicate`).set(admin).send(body).expect(400);
      expect(res.body.message).toMatch(/^El campo Nombre|cuerpo/);
    }
    await request(app()).post('/api/v5/roles').set(admin).set('Content-Type', 'application/json').send('{"nombre":').expect(400);
    for (const id of ['abc', '0', '-1', '1.5', '99999999999']) {
      const res = await request(app()).get(`/api/v5/roles/${id}`).set(admin).expect(400);
      expect(res.body).toMatchObject({ message: expect.stringMatching(/^El parámetro Id debe ser un número entero/), field: 'id' });
      await request(app()).put(`/api/v5/roles/${id}`).set(admin).send({ nombre: 'X', paths: [], actions: [] }).expect(400);
      await request(app()).delete(`/api/v5/roles/${id}`).set(admin).expect(400);
    }
    expect(await api.count('profiles')).toBe(profiles);
    expect(await api.count('audit_log')).toBe(audits);
    expect(await roleByName('Soporte')).toEqual(soporte);
  });

  test('random bodies on every write route: only 400s, nothing changed', async () => {
    const soporte = (await roleByName('Soporte'))!;
    const before = { profiles: (await t.db.query('SELECT * FROM profiles ORDER BY id')).rows, audit: await api.count('audit_log') };
    const routes = [
      { schema: roleBody, call: () => request(app()).post('/api/v5/roles') },
      { schema: roleBody, call: () => request(app()).put(`/api/v5/roles/${soporte.id}`) },
      { schema: duplicateRoleBody, call: () => request(app()).post(`/api/v5/roles/${soporte.id}/duplicate`) },
    ];
    for (const [i, route] of routes.entries()) {
      const bodies = randomBodies(['nombre', 'paths', 'actions'], 150, i + 1).filter((b) => !route.schema.safeParse(b).success);
      expect(bodies.length).toBeGreaterThan(50);
      for (const body of bodies) {
        const res = await sendJson(route.call().set(admin), body);
        if (res.status !== 400) throw new Error(`${res.status} for ${JSON.stringify(body)}`);
        expect(res.body.message).toMatch(/^El (campo|cuerpo|parámetro)|JSON/);
      }
    }
    expect((await t.db.query('SELECT * FROM profiles ORDER BY id')).rows).toEqual(before.profiles);
    expect(await api.count('audit_log')).toBe(before.audit);
  });

  test('unknown roles: 404', async () => {
    for (const call of [
      request(app()).get('/api/v5/roles/999999').set(admin),
      request(app())
        .put('/api/v5/roles/999999')
        .set(admin)
        .send({ nombre: 'X', paths: ['/dashboard'], actions: [] }),
      request(app()).delete('/api/v5/roles/999999').set(admin),
      request(app()).post('/api/v5/roles/999999/duplicate').set(admin).send({}),
    ]) {
      const res = await call.expect(404);
      expect(res.body).toEqual({ message: 'Rol no encontrado', code: 'ROLE_NOT_FOUND' });
    }
  });

  describe('no privilege escalation', () => {
    test('a new role holds only what its creator holds (403 naming what is missing)', async () => {
      const audits = await api.count('audit_log');
      const res = await request(app())
        .post('/api/v5/roles')
        .set(manager)
        .send({ nombre: 'Inventario+', paths: ['/dashboard', '/inventory-management'], actions: [DEVICE_ACTION.HISTORY, DEVICE_ACTION.RELEASE] })
        .expect(403);
      expect(res.body).toEqual({
        message: 'No puedes otorgar permisos que tu perfil no tiene: /inventory-management, acción Liberar',
        code: 'ESCALATION',
      });
      expect(await roleByName('Inventario+')).toBeUndefined();
      expect(await api.count('audit_log')).toBe(audits);
      await request(app())
        .post('/api/v5/roles')
        .set(manager)
        .send({ nombre: 'Tablero', paths: ['/dashboard', '/dashboard/general'], actions: [DEVICE_ACTION.HISTORY] })
        .expect(201);
    });

    test('a role holding more than the editor is not edited at all, removals included (403); others only with held grants', async () => {
      const soporte = (await roleByName('Soporte'))!;
      const audits = await api.count('audit_log');
      // Soporte holds paths the manager lacks: neither renaming it nor taking them away is allowed.
      const renamed = await request(app())
        .put(`/api/v5/roles/${soporte.id}`)
        .set(manager)
        .send({ nombre: 'Soporte técnico', paths: soporte.paths, actions: soporte.actions })
        .expect(403);
      expect(renamed.body.code).toBe('ESCALATION');
      expect(renamed.body.message).toMatch(/^No puedes modificar un rol con permisos que tu perfil no tiene: .*\/inventory-management/);
      await request(app())
        .put(`/api/v5/roles/${soporte.id}`)
        .set(manager)
        .send({ nombre: 'Soporte', paths: ['/dashboard'], actions: [] })
        .expect(403);
      expect(await roleByName('Soporte')).toEqual(soporte);
      expect(await api.count('audit_log')).toBe(audits);
      // A role within the manager's grants: held grants may be added, others not.
      const tablero = (await roleByName('Tablero'))!;
      await request(app())
        .put(`/api/v5/roles/${tablero.id}`)
        .set(manager)
        .send({ nombre: 'Tablero', paths: [...tablero.paths, '/agent-settings'], actions: tablero.actions })
        .expect(403);
      await request(app())
        .put(`/api/v5/roles/${tablero.id}`)
        .set(manager)
        .send({ nombre: 'Tablero', paths: tablero.paths, actions: [...tablero.actions, DEVICE_ACTION.LOCK] })
        .expect(200);
      const own = await request(app())
        .put(`/api/v5/roles/${managerProfile}`)
        .set(manager)
        .send({ nombre: 'Gestor', paths: [...MANAGER_PATHS, '/admin-settings/audit'], actions: MANAGER_ACTIONS })
        .expect(403);
      expect(own.body.message).toBe('No puedes otorgar permisos que tu perfil no tiene: /admin-settings/audit');
      const self = await request(app())
        .put(`/api/v5/roles/${managerProfile}`)
        .set(manager)
        .send({ nombre: 'Gestor', paths: MANAGER_PATHS, actions: [...MANAGER_ACTIONS, DEVICE_ACTION.UNLOCK] })
        .expect(403);
      expect(self.body.code).toBe('ESCALATION');
      expect((await roleByName('Gestor'))!.actions.sort()).toEqual([...MANAGER_ACTIONS].sort());
    });

    test('a copy of a role holding more than the caller is refused', async () => {
      const administrador = (await roleByName('Administrador'))!;
      const res = await request(app()).post(`/api/v5/roles/${administrador.id}/duplicate`).set(manager).send({}).expect(403);
      expect(res.body.code).toBe('ESCALATION');
      const mine = await request(app()).post(`/api/v5/roles/${managerProfile}/duplicate`).set(manager).send({}).expect(201);
      expect(mine.body).toMatchObject({ nombre: 'Gestor (copia)', paths: MANAGER_PATHS, adminCount: 0 });
    });
  });

  test('nobody removes Roles from their own role (409); from another role it is allowed', async () => {
    const res = await request(app())
      .put(`/api/v5/roles/${managerProfile}`)
      .set(manager)
      .send({ nombre: 'Gestor', paths: MANAGER_PATHS.filter((p) => p !== '/admin-settings/roles'), actions: MANAGER_ACTIONS })
      .expect(409);
    expect(res.body).toEqual({ message: 'No puedes quitar el acceso a Roles de tu propio rol', code: 'SELF_LOCKOUT' });
    const administrador = (await roleByName('Administrador'))!;
    await request(app())
      .put(`/api/v5/roles/${administrador.id}`)
      .set(admin)
      .send({ nombre: 'Administrador', paths: GRANTABLE_PATHS.filter((p) => p !== '/admin-settings/roles'), actions: ALL_ROLE_ACTION_CODES })
      .expect(409);
    expect((await roleByName('Gestor'))!.paths).toContain('/admin-settings/roles');
    expect((await roleByName('Administrador'))!.paths).toContain('/admin-settings/roles');
    // The administrator may take it from the manager's role (the administrator keeps it).
    const copy = (await roleByName('Gestor (copia)'))!;
    await request(app())
      .put(`/api/v5/roles/${copy.id}`)
      .set(admin)
      .send({ nombre: 'Gestor (copia)', paths: ['/dashboard'], actions: [] })
      .expect(200);
  });

  test('edits are audited with the values before and after; an edit that changes nothing is not', async () => {
    const copy = (await roleByName('Gestor (copia)'))!;
    const audits = await api.count('audit_log');
    await request(app())
      .put(`/api/v5/roles/${copy.id}`)
      .set(admin)
      .send({ nombre: 'Gestor (copia)', paths: ['/dashboard'], actions: [] })
      .expect(200);
    expect(await api.count('audit_log')).toBe(audits);
    const res = await request(app())
      .put(`/api/v5/roles/${copy.id}`)
      .set(admin)
      .send({ nombre: 'Tablero 2', paths: ['/dashboard', '/dashboard/android'], actions: [DEVICE_ACTION.HISTORY] })
      .expect(200);
    expect(res.body).toMatchObject({ id: copy.id, nombre: 'Tablero 2', paths: ['/dashboard', '/dashboard/android'], actions: [7] });
    expect(await lastAudit()).toMatchObject({
      entity: 'role',
      entity_id: String(copy.id),
      action: 'update',
      before: { id: copy.id, nombre: 'Gestor (copia)', paths: ['/dashboard'], actions: [] },
      after: { id: copy.id, nombre: 'Tablero 2', paths: ['/dashboard', '/dashboard/android'], actions: [7] },
    });
  });

  test('duplicate: "(copia)", then "(copia 2)"; or the name given', async () => {
    const soporte = (await roleByName('Soporte'))!;
    const a = await request(app()).post(`/api/v5/roles/${soporte.id}/duplicate`).set(admin).send({}).expect(201);
    const b = await request(app()).post(`/api/v5/roles/${soporte.id}/duplicate`).set(admin).expect(201);
    const c = await request(app()).post(`/api/v5/roles/${soporte.id}/duplicate`).set(admin).send({ nombre: 'Mesa de ayuda' }).expect(201);
    expect([a.body.nombre, b.body.nombre, c.body.nombre]).toEqual(['Soporte (copia)', 'Soporte (copia 2)', 'Mesa de ayuda']);
    for (const r of [a, b, c]) expect(r.body).toMatchObject({ paths: soporte.paths, actions: soporte.actions, adminCount: 0 });
    expect(await lastAudit()).toMatchObject({
      entity: 'role',
      entity_id: String(c.body.id),
      action: 'duplicate',
      before: null,
      detail: `Soporte (${soporte.id})`,
    });
  });

  test('a role in use is not deleted (409); an unused one is, audited with its values', async () => {
    const soporte = (await roleByName('Soporte'))!;
    const res = await request(app()).delete(`/api/v5/roles/${soporte.id}`).set(admin).expect(409);
    expect(res.body).toEqual({ message: 'El rol no se puede eliminar: lo usa 1 administrador', code: 'ROLE_IN_USE' });
    expect(await roleByName('Soporte')).toBeDefined();
    const copy = (await roleByName('Mesa de ayuda'))!;
    await request(app()).delete(`/api/v5/roles/${copy.id}`).set(admin).expect(204);
    expect(await roleByName('Mesa de ayuda')).toBeUndefined();
    expect(await lastAudit()).toMatchObject({
      entity: 'role',
      entity_id: String(copy.id),
      action: 'delete',
      before: { id: copy.id, nombre: 'Mesa de ayuda', paths: copy.paths, actions: copy.actions },
      after: null,
    });
    await request(app()).get(`/api/v5/roles/${copy.id}`).set(admin).expect(404);
  });

  test('without the Roles path: 403 on every route', async () => {
    const soporte = await api.headersOf('soporte@demo.local');
    await request(app()).get('/api/v5/roles').set(soporte).expect(403);
    await request(app()).post('/api/v5/roles').set(soporte).send({ nombre: 'X', paths: [], actions: [] }).expect(403);
    await request(app()).delete('/api/v5/roles/1').set(soporte).expect(403);
  });
});
