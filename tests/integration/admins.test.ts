import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { DEVICE_ACTION } from '../../shared/constants/deviceActions';
import { createAdminBody, updateAdminBody, type Admin, type CreatedAdmin } from '../../shared/contracts/admins';
import type { IdentityDirectory } from '../../server/identity/IdentityDirectory';
import { adminApi, DEMO_PASSWORD, type AdminApi } from '../helpers/adminApi';
import { randomBodies, sendJson } from '../helpers/randomBodies';
import { completeNewPassword, failure, makePool, signIn } from '../helpers/cognitoClient';
import { buildTestApp, type TestApp } from '../helpers/testApp';
import { createTestDb, testEngines, type TestDb } from '../helpers/testDb';

const MANAGER_PATHS = ['/dashboard', '/dashboard/general', '/admin-settings', '/admin-settings/roles', '/admin-settings/admins'];
/** Manages administrators but not roles. */
const STAFF_PATHS = ['/dashboard', '/dashboard/general', '/admin-settings', '/admin-settings/admins'];

function listen(app: http.RequestListener): Promise<{ server: http.Server; base: string }> {
  const server = http.createServer(app);
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve({ server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }));
  });
}

describe.each(testEngines())('administrators API on %s', (engine) => {
  let t: TestDb;
  let api: AdminApi;
  let server: http.Server;
  let base: string;
  let admin: Record<string, string>;
  let manager: Record<string, string>;
  let staff: Record<string, string>;
  /** Profiles and administrators of the set-up (Soporte's profile is the demo's third). */
  const ids = { managerProfile: 0, staffProfile: 0, gestor: 0, personal: 0, admin: 1, soporteProfile: 3 };

  beforeAll(async () => {
    t = await createTestDb(engine);
    api = await adminApi(t.db);
    ids.managerProfile = await api.addProfile('Gestor', MANAGER_PATHS, [DEVICE_ACTION.HISTORY]);
    ids.staffProfile = await api.addProfile('Personal', STAFF_PATHS, []);
    ids.gestor = await api.addAdmin('gestor@demo.local', ids.managerProfile);
    ids.personal = await api.addAdmin('personal@demo.local', ids.staffProfile);
    admin = await api.headersOf('admin@demo.local');
    manager = await api.headersOf('gestor@demo.local');
    staff = await api.headersOf('personal@demo.local');
    ({ server, base } = await listen(api.ta.app));
  }, 60_000);
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    await t.dispose();
  });

  const app = () => api.ta.app;
  const pool = () => makePool(base, api.ta.config.identity.userPoolId, api.ta.config.identity.clientId);
  const lastAudit = async () =>
    (await t.db.query<Record<string, unknown>>("SELECT * FROM audit_log WHERE entity <> 'session' ORDER BY id DESC LIMIT 1")).rows[0];
  const adminRow = async (correo: string) =>
    (await t.db.query<{ id: number; enabled: boolean; profile_id: number; nombres: string }>('SELECT * FROM admins WHERE correo = $1', [correo]))
      .rows[0];
  const snapshot = async () => ({
    admins: await api.count('admins'),
    audit: await api.count('audit_log'),
    users: await api.count('identity_users'),
    rows: (await t.db.query('SELECT id, correo, nombres, apellidos, profile_id, enabled FROM admins ORDER BY id')).rows,
  });

  describe('create', () => {
    let created: CreatedAdmin;

    test('creates the record and the identity user; the temporary password is answered once; audited without it', async () => {
      const res = await request(app())
        .post('/api/v5/admins')
        .set(admin)
        .send({ correo: '  Nuevo.Admin@Demo.local ', nombres: 'Nuevo', apellidos: 'Administrador', profileId: ids.soporteProfile });
      expect(res.status).toBe(201);
      created = res.body as CreatedAdmin;
      expect(created).toMatchObject({
        correo: 'nuevo.admin@demo.local',
        nombres: 'Nuevo',
        apellidos: 'Administrador',
        enabled: true,
        profileId: ids.soporteProfile,
        profileNombre: 'Soporte',
      });
      expect(created.temporaryPassword).toMatch(/^.{16}$/);
      const user = await api.ta.deps.identity!.admin.adminGetUser('nuevo.admin@demo.local');
      expect(user).toMatchObject({ status: 'FORCE_CHANGE_PASSWORD', enabled: true, attributes: { email: 'nuevo.admin@demo.local' } });

      const row = await lastAudit();
      expect(row).toMatchObject({ entity: 'admin', entity_id: String(created.id), action: 'create', actor_email: 'admin@demo.local', before: null });
      expect(row!.after).toEqual({
        id: created.id,
        correo: 'nuevo.admin@demo.local',
        nombres: 'Nuevo',
        apellidos: 'Administrador',
        profileId: ids.soporteProfile,
        profileNombre: 'Soporte',
        enabled: true,
      });
      expect(JSON.stringify(row)).not.toContain(created.temporaryPassword!);
      expect(api.ta.logs.raw.join('\n')).not.toContain(created.temporaryPassword!);

      const again = await request(app()).get(`/api/v5/admins/${created.id}`).set(admin).expect(200);
      expect(again.body).not.toHaveProperty('temporaryPassword');
      const { temporaryPassword: _, ...view } = created;
      expect(again.body).toEqual(view);
    });

    test('the new administrator signs in with the temporary password and must choose a new one', async () => {
      const h = pool();
      const first = await signIn(h, 'nuevo.admin@demo.local', created.temporaryPassword!);
      expect(first.kind).toBe('newPassword');
      if (first.kind !== 'newPassword') return;
      const session = await completeNewPassword(first.user, 'Propia-Clave-2026!');
      expect(session.isValid()).toBe(true);
      expect((await signIn(pool(), 'nuevo.admin@demo.local', 'Propia-Clave-2026!')).kind).toBe('session');
    });

    test('the e-mail is unique whatever the case (409); nothing changes', async () => {
      const before = await snapshot();
      const res = await request(app())
        .post('/api/v5/admins')
        .set(admin)
        .send({ correo: 'SOPORTE@demo.local', nombres: 'Otro', profileId: ids.soporteProfile })
        .expect(409);
      expect(res.body).toEqual({ message: 'Ya existe un administrador con ese correo', code: 'EMAIL_TAKEN', field: 'correo' });
      expect(await snapshot()).toEqual(before);
    });

    test('a profile holding more than the caller: 403; an unknown profile: 400', async () => {
      const before = await snapshot();
      const res = await request(app()).post('/api/v5/admins').set(manager).send({ correo: 'x1@demo.local', nombres: 'X', profileId: 1 }).expect(403);
      expect(res.body).toEqual({ message: 'No puedes asignar un rol con permisos que tu perfil no tiene', code: 'ESCALATION' });
      const unknown = await request(app())
        .post('/api/v5/admins')
        .set(admin)
        .send({ correo: 'x1@demo.local', nombres: 'X', profileId: 999999 })
        .expect(400);
      expect(unknown.body).toEqual({ message: 'El campo Perfil no corresponde a un rol existente', code: 'VALIDATION', field: 'profileId' });
      expect(await snapshot()).toEqual(before);
      await request(app())
        .post('/api/v5/admins')
        .set(manager)
        .send({ correo: 'x1@demo.local', nombres: 'X', profileId: ids.staffProfile })
        .expect(201);
    });

    test('an identity user that already exists: 409, and neither the record nor an audit row is kept', async () => {
      await api.ta.deps.identity!.admin.adminCreateUser({ username: 'huerfano@demo.local', attributes: { email: 'huerfano@demo.local' } });
      const before = await snapshot();
      const res = await request(app())
        .post('/api/v5/admins')
        .set(admin)
        .send({ correo: 'huerfano@demo.local', nombres: 'H', profileId: ids.soporteProfile })
        .expect(409);
      expect(res.body).toEqual({ message: 'Ya existe un usuario con ese correo en el servicio de identidad', code: 'IDENTITY_USER_EXISTS' });
      expect(await snapshot()).toEqual(before);
      expect(await adminRow('huerfano@demo.local')).toBeUndefined();
    });
  });

  describe('when the identity service fails, nothing changes', () => {
    let failing: TestApp;
    beforeAll(async () => {
      const real = api.ta.deps.directory;
      const boom = async () => {
        throw new Error('identity service down');
      };
      const directory: IdentityDirectory = { ...real, createUser: boom, disableUser: boom, enableUser: boom, deleteUser: boom, setPassword: boom };
      failing = await buildTestApp(t.db, { deps: { directory } });
    });

    test('create: 502; no record, no audit row, no identity user; the error is logged', async () => {
      const before = await snapshot();
      const res = await request(failing.app)
        .post('/api/v5/admins')
        .set(admin)
        .send({ correo: 'caido@demo.local', nombres: 'C', profileId: ids.soporteProfile })
        .expect(502);
      expect(res.body).toEqual({ message: 'El servicio de identidad no respondió; no se realizó ningún cambio', code: 'IDENTITY_UNAVAILABLE' });
      expect(await snapshot()).toEqual(before);
      expect(failing.logs.raw.join('\n')).toContain('identity service down');
    });

    test('disable, enable, delete, reset-password: 502 and the record as it was', async () => {
      const soporte = await adminRow('soporte@demo.local');
      const before = await snapshot();
      for (const path of ['disable', 'reset-password']) {
        await request(failing.app).post(`/api/v5/admins/${soporte!.id}/${path}`).set(admin).expect(502);
      }
      await request(failing.app).delete(`/api/v5/admins/${soporte!.id}`).set(admin).expect(502);
      expect(await snapshot()).toEqual(before);
      expect((await api.ta.deps.identity!.admin.adminGetUser('soporte@demo.local')).enabled).toBe(true);
    });
  });

  describe('list', () => {
    test('search by name or e-mail, filter by profile and state, paging and sort', async () => {
      const all = await request(app()).get('/api/v5/admins').set(admin).expect(200);
      expect(all.body.total).toBe(await api.count('admins'));
      expect((all.body.data as Admin[]).map((a) => a.nombres)).toEqual(
        [...(all.body.data as Admin[])].map((a) => a.nombres).sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())),
      );
      const byName = await request(app()).get('/api/v5/admins').query({ search: 'nuevo admin' }).set(admin).expect(200);
      expect(byName.body).toMatchObject({ total: 1, data: [{ correo: 'nuevo.admin@demo.local' }] });
      const byMail = await request(app()).get('/api/v5/admins').query({ search: 'SOPORTE@' }).set(admin).expect(200);
      expect(byMail.body).toMatchObject({ total: 1, data: [{ correo: 'soporte@demo.local' }] });
      const wildcard = await request(app()).get('/api/v5/admins').query({ search: '%' }).set(admin).expect(200);
      expect(wildcard.body.total).toBe(0);
      const byProfile = await request(app()).get('/api/v5/admins').query({ profileId: ids.soporteProfile }).set(admin).expect(200);
      expect((byProfile.body.data as Admin[]).map((a) => a.correo).sort()).toEqual(['nuevo.admin@demo.local', 'soporte@demo.local']);
      const pageTwo = await request(app()).get('/api/v5/admins').query({ sort: 'correo', order: 'desc', perPage: 2, page: 2 }).set(admin).expect(200);
      const correos = (all.body.data as Admin[])
        .map((a) => a.correo)
        .sort()
        .reverse();
      expect((pageTwo.body.data as Admin[]).map((a) => a.correo)).toEqual(correos.slice(2, 4));
      expect(pageTwo.body.total).toBe(correos.length);
    });

    test('bad query parameters: 400 naming them', async () => {
      const cases: [Record<string, string | string[]>, RegExp][] = [
        [{ page: '0' }, /^El parámetro Página /],
        [{ perPage: '101' }, /^El parámetro Resultados por página debe ser un número entero entre 1 y 100$/],
        [{ perPage: 'x' }, /^El parámetro Resultados por página /],
        [{ enabled: 'si' }, /^El parámetro Estado debe ser uno de: true, false$/],
        [{ profileId: '-3' }, /^El parámetro Perfil /],
        [{ sort: 'password' }, /^El parámetro Orden /],
        [{ order: 'up' }, /^El parámetro Sentido del orden /],
        [{ search: 'x'.repeat(101) }, /^El parámetro Búsqueda debe ser un texto/],
        [{ search: ['a', 'b'] }, /^El parámetro Búsqueda debe ser un texto/],
        [{ search: 'a\u0000' }, /^El parámetro Búsqueda contiene caracteres no permitidos$/],
      ];
      for (const [query, message] of cases) {
        const res = await request(app()).get('/api/v5/admins').query(query).set(admin).expect(400);
        expect(res.body.message).toMatch(message);
      }
    });
  });

  describe('edit', () => {
    test('names and profile, audited before/after; a no-op is not audited', async () => {
      const target = (await adminRow('x1@demo.local'))!;
      const res = await request(app())
        .put(`/api/v5/admins/${target.id}`)
        .set(admin)
        .send({ nombres: 'Equis', apellidos: 'Uno', profileId: ids.soporteProfile, correo: 'ignorado@demo.local' })
        .expect(200);
      expect(res.body).toMatchObject({ correo: 'x1@demo.local', nombres: 'Equis', apellidos: 'Uno', profileId: ids.soporteProfile });
      expect(await lastAudit()).toMatchObject({
        action: 'update',
        entity_id: String(target.id),
        before: { nombres: 'X', apellidos: '', profileId: ids.staffProfile, profileNombre: 'Personal' },
        after: { nombres: 'Equis', apellidos: 'Uno', profileId: ids.soporteProfile, profileNombre: 'Soporte' },
      });
      const audits = await api.count('audit_log');
      await request(app())
        .put(`/api/v5/admins/${target.id}`)
        .set(admin)
        .send({ nombres: 'Equis', apellidos: 'Uno', profileId: ids.soporteProfile })
        .expect(200);
      expect(await api.count('audit_log')).toBe(audits);
    });

    test("one's own names yes, one's own profile no (409)", async () => {
      await request(app())
        .put(`/api/v5/admins/${ids.gestor}`)
        .set(manager)
        .send({ nombres: 'Gestor', apellidos: 'Propio', profileId: ids.managerProfile })
        .expect(200);
      const res = await request(app())
        .put(`/api/v5/admins/${ids.gestor}`)
        .set(manager)
        .send({ nombres: 'Gestor', profileId: ids.staffProfile })
        .expect(409);
      expect(res.body).toEqual({ message: 'No puedes cambiar tu propio rol', code: 'SELF_PROTECTED' });
      expect((await adminRow('gestor@demo.local'))!.profile_id).toBe(ids.managerProfile);
    });

    test("assigning a profile beyond the caller's grants: 403", async () => {
      const target = (await adminRow('x1@demo.local'))!;
      const res = await request(app())
        .put(`/api/v5/admins/${target.id}`)
        .set(staff)
        .send({ nombres: 'Equis', profileId: ids.managerProfile })
        .expect(403);
      expect(res.body.code).toBe('ESCALATION');
      expect((await adminRow('x1@demo.local'))!.profile_id).toBe(ids.soporteProfile);
    });

    test('bad bodies: only 400s naming the field, nothing changed', async () => {
      const target = (await adminRow('x1@demo.local'))!;
      const before = await snapshot();
      // [body, message of the create route, also invalid for the edit route (which ignores correo)]
      const bodies: [unknown, RegExp, boolean][] = [
        [{}, /^El campo (Correo|Nombres) es obligatorio$/, true],
        [{ correo: 'no-es-correo', nombres: 'A', profileId: 1 }, /^El campo Correo debe ser un correo electrónico válido$/, false],
        [{ correo: 'a@demo.local', nombres: '', profileId: 1 }, /^El campo Nombres no puede estar vacío$/, true],
        [{ correo: 'a@demo.local', nombres: 'A', profileId: '1' }, /^El campo Perfil debe ser un número entero positivo$/, true],
        [{ correo: 'a@demo.local', nombres: 'A', profileId: 0 }, /^El campo Perfil /, true],
        [{ correo: 'a@demo.local', nombres: 'A', profileId: 2 ** 31 }, /^El campo Perfil /, true],
        [{ correo: 'a@demo.local', nombres: 'A', profileId: null }, /^El campo Perfil /, true],
        [{ correo: 'a@demo.local', nombres: 'A', apellidos: null, profileId: 1 }, /^El campo Apellidos debe ser un texto$/, true],
        [{ correo: 'a@demo.local', nombres: 'A\nB', profileId: 1 }, /^El campo Nombres contiene caracteres no permitidos$/, true],
        [{ correo: 'a@demo.local', nombres: 'A'.repeat(101), profileId: 1 }, /^El campo Nombres admite como máximo 100/, true],
        [{ correo: `${'a'.repeat(250)}@demo.local`, nombres: 'A', profileId: 1 }, /^El campo Correo /, false],
        [{ correo: ['a@demo.local'], nombres: 'A', profileId: 1 }, /^El campo Correo /, false],
        [{ correo: 'a@demo.local', nombres: { a: 1 }, profileId: 1 }, /^El campo Nombres debe ser un texto$/, true],
        [[1, 2], /El cuerpo de la solicitud debe ser un objeto JSON/, true],
      ];
      for (const [body, message, invalidEdit] of bodies) {
        const create = await request(app())
          .post('/api/v5/admins')
          .set(admin)
          .send(body as object);
        expect(create.status).toBe(400);
        expect(create.body.message).toMatch(message);
        if (!invalidEdit) continue;
        const edit = await request(app())
          .put(`/api/v5/admins/${target.id}`)
          .set(admin)
          .send(body as object);
        expect(edit.status).toBe(400);
        expect(edit.body.message).toMatch(/El campo|El cuerpo/);
      }
      await request(app()).post('/api/v5/admins').set(admin).set('Content-Type', 'application/json').send('{"correo":"a@demo.local",').expect(400);
      await request(app()).post('/api/v5/admins').set(admin).set('Content-Type', 'application/json').send('null').expect(400);
      for (const id of ['x', '0', '1e3', '2147483648']) {
        for (const call of [
          request(app()).get(`/api/v5/admins/${id}`),
          request(app()).put(`/api/v5/admins/${id}`).send({ nombres: 'A', profileId: 1 }),
          request(app()).delete(`/api/v5/admins/${id}`),
          request(app()).post(`/api/v5/admins/${id}/disable`),
          request(app()).post(`/api/v5/admins/${id}/enable`),
          request(app()).post(`/api/v5/admins/${id}/reset-password`),
        ]) {
          const res = await call.set(admin);
          expect(res.status).toBe(400);
          expect(res.body.message).toMatch(/^El parámetro Id /);
        }
      }
      expect(await snapshot()).toEqual(before);
    });

    test('random bodies on the write routes: only 400s, nothing changed', async () => {
      const target = (await adminRow('x1@demo.local'))!;
      const before = await snapshot();
      const routes = [
        { schema: createAdminBody, call: () => request(app()).post('/api/v5/admins') },
        { schema: updateAdminBody, call: () => request(app()).put(`/api/v5/admins/${target.id}`) },
      ];
      for (const [i, route] of routes.entries()) {
        const bodies = randomBodies(['correo', 'nombres', 'apellidos', 'profileId'], 150, 100 + i).filter((b) => !route.schema.safeParse(b).success);
        expect(bodies.length).toBeGreaterThan(50);
        for (const body of bodies) {
          const res = await sendJson(route.call().set(admin), body);
          if (res.status !== 400) throw new Error(`${res.status} for ${JSON.stringify(body)}`);
          expect(res.body.message).toMatch(/^El (campo|cuerpo)|JSON/);
        }
      }
      expect(await snapshot()).toEqual(before);
    });

    test('unknown administrators: 404', async () => {
      for (const call of [
        request(app()).get('/api/v5/admins/999999'),
        request(app()).put('/api/v5/admins/999999').send({ nombres: 'A', profileId: 1 }),
        request(app()).delete('/api/v5/admins/999999'),
        request(app()).post('/api/v5/admins/999999/disable'),
        request(app()).post('/api/v5/admins/999999/enable'),
        request(app()).post('/api/v5/admins/999999/reset-password'),
      ]) {
        const res = await call.set(admin);
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ message: 'Administrador no encontrado', code: 'ADMIN_NOT_FOUND' });
      }
    });
  });

  describe('disable and enable', () => {
    test('disabling ends the sessions and refuses sign-in; enabling restores it; both audited', async () => {
      const target = (await adminRow('nuevo.admin@demo.local'))!;
      const signedIn = await signIn(pool(), 'nuevo.admin@demo.local', 'Propia-Clave-2026!');
      expect(signedIn.kind).toBe('session');
      const res = await request(app()).post(`/api/v5/admins/${target.id}/disable`).set(admin).expect(200);
      expect(res.body).toMatchObject({ id: target.id, enabled: false });
      expect(await lastAudit()).toMatchObject({
        action: 'disable',
        entity_id: String(target.id),
        before: { enabled: true },
        after: { enabled: false },
      });
      const open = await t.db.query(
        "SELECT 1 FROM identity_refresh_tokens r JOIN identity_users u USING (sub) WHERE u.username = 'nuevo.admin@demo.local' AND r.revoked_at IS NULL",
      );
      expect(open.rowCount).toBe(0);
      expect(await failure(signIn(pool(), 'nuevo.admin@demo.local', 'Propia-Clave-2026!'))).toEqual({
        code: 'NotAuthorizedException',
        message: 'User is disabled.',
      });
      // A disabled administrator's API calls are refused too.
      await request(app())
        .post('/api/v5/users/getUserByEmail')
        .set(await api.headersOf('nuevo.admin@demo.local'))
        .send({ correo: 'nuevo.admin@demo.local' })
        .expect(403);

      const again = await request(app()).post(`/api/v5/admins/${target.id}/enable`).set(admin).expect(200);
      expect(again.body.enabled).toBe(true);
      expect(await lastAudit()).toMatchObject({ action: 'enable', before: { enabled: false }, after: { enabled: true } });
      expect((await signIn(pool(), 'nuevo.admin@demo.local', 'Propia-Clave-2026!')).kind).toBe('session');
    });

    test('nobody disables or deletes themselves (409)', async () => {
      const res = await request(app()).post(`/api/v5/admins/${ids.admin}/disable`).set(admin).expect(409);
      expect(res.body).toEqual({ message: 'No puedes deshabilitarte a ti mismo', code: 'SELF_PROTECTED' });
      const del = await request(app()).delete(`/api/v5/admins/${ids.admin}`).set(admin).expect(409);
      expect(del.body).toEqual({ message: 'No puedes eliminarte a ti mismo', code: 'SELF_PROTECTED' });
      expect((await adminRow('admin@demo.local'))!.enabled).toBe(true);
    });
  });

  describe('superiors and the Roles page', () => {
    test('one without the Roles page cannot disable, delete or move one who holds it (403); nothing changes', async () => {
      // personal@ manages administrators but not roles; gestor@ and admin@ hold Roles.
      const before = await snapshot();
      const dis = await request(app()).post(`/api/v5/admins/${ids.gestor}/disable`).set(staff).expect(403);
      expect(dis.body).toEqual({
        message: 'No puedes deshabilitar a un administrador con permisos que tu perfil no tiene: /admin-settings/roles, acción Historial',
        code: 'ESCALATION',
      });
      await request(app()).delete(`/api/v5/admins/${ids.admin}`).set(staff).expect(403);
      const move = await request(app())
        .put(`/api/v5/admins/${ids.admin}`)
        .set(staff)
        .send({ nombres: 'Administrador Demo', profileId: ids.staffProfile })
        .expect(403);
      expect(move.body.code).toBe('ESCALATION');
      expect(await snapshot()).toEqual(before);
      // One who holds everything the target holds may.
      await request(app()).post(`/api/v5/admins/${ids.gestor}/disable`).set(admin).expect(200);
      await request(app()).post(`/api/v5/admins/${ids.gestor}/enable`).set(admin).expect(200);
      // Disabling ended gestor@'s sessions: a new sign-in.
      manager = await api.headersOf('gestor@demo.local');
    });
  });

  describe('reset password', () => {
    test('answers a new temporary password once; the next sign-in asks for a new password; audited without it', async () => {
      const target = (await adminRow('nuevo.admin@demo.local'))!;
      const res = await request(app()).post(`/api/v5/admins/${target.id}/reset-password`).set(admin).expect(200);
      const { temporaryPassword } = res.body as { temporaryPassword: string };
      expect(Object.keys(res.body)).toEqual(['temporaryPassword']);
      expect(await failure(signIn(pool(), 'nuevo.admin@demo.local', 'Propia-Clave-2026!'))).toMatchObject({ code: 'NotAuthorizedException' });
      expect((await signIn(pool(), 'nuevo.admin@demo.local', temporaryPassword)).kind).toBe('newPassword');
      const row = await lastAudit();
      expect(row).toMatchObject({ entity: 'admin', action: 'reset_password', entity_id: String(target.id) });
      expect(JSON.stringify(row)).not.toContain(temporaryPassword);
    });

    test("not one's own (409), not of someone holding more than the caller (403)", async () => {
      const own = await request(app()).post(`/api/v5/admins/${ids.admin}/reset-password`).set(admin).expect(409);
      expect(own.body.code).toBe('SELF_PROTECTED');
      const up = await request(app()).post(`/api/v5/admins/${ids.admin}/reset-password`).set(staff).expect(403);
      expect(up.body).toEqual({
        message: 'No puedes restablecer la contraseña de un administrador con permisos que tu perfil no tiene',
        code: 'ESCALATION',
      });
      expect((await signIn(pool(), 'admin@demo.local', DEMO_PASSWORD)).kind).toBe('session');
    });
  });

  describe('delete', () => {
    test('removes the record and the identity user, audited with the values before', async () => {
      const target = (await adminRow('x1@demo.local'))!;
      await request(app()).delete(`/api/v5/admins/${target.id}`).set(admin).expect(204);
      expect(await adminRow('x1@demo.local')).toBeUndefined();
      await expect(api.ta.deps.identity!.admin.adminGetUser('x1@demo.local')).rejects.toMatchObject({ name: 'UserNotFoundException' });
      expect(await lastAudit()).toMatchObject({ action: 'delete', entity_id: String(target.id), before: { correo: 'x1@demo.local' }, after: null });
      await request(app()).get(`/api/v5/admins/${target.id}`).set(admin).expect(404);
    });

    test('a record whose identity user is already gone is still deleted', async () => {
      const id = await api.addAdmin('sin.usuario@demo.local', ids.soporteProfile);
      await api.ta.deps.identity!.admin.adminDeleteUser('sin.usuario@demo.local');
      await request(app()).delete(`/api/v5/admins/${id}`).set(admin).expect(204);
      expect(await adminRow('sin.usuario@demo.local')).toBeUndefined();
    });
  });

  test('without the Administradores path: 403 on every route', async () => {
    const soporte = await api.headersOf('soporte@demo.local');
    await request(app()).get('/api/v5/admins').set(soporte).expect(403);
    await request(app())
      .post('/api/v5/admins')
      .set(soporte)
      .send({ correo: 'z@demo.local', nombres: 'Z', profileId: ids.soporteProfile })
      .expect(403);
    await request(app()).post(`/api/v5/admins/${ids.admin}/reset-password`).set(soporte).expect(403);
  });

  describe('with a Cognito user pool', () => {
    let cognitoApp: TestApp;
    const calls: Parameters<IdentityDirectory['createUser']>[0][] = [];
    beforeAll(async () => {
      // What the service relies on from a pool (cognitoDirectory is tested over HTTP on its own):
      // kind 'cognito'; given no password, the pool makes one and e-mails it, answering none.
      const real = api.ta.deps.directory;
      const directory: IdentityDirectory = {
        ...real,
        kind: 'cognito',
        async createUser(p) {
          calls.push(p);
          const { user } = await real.createUser({ ...p, temporaryPassword: 'Enviada-Por-Correo-1!' });
          return { user };
        },
      };
      cognitoApp = await buildTestApp(t.db, { deps: { directory } });
    });

    test('create: no password is chosen nor answered (the pool e-mails its own)', async () => {
      const res = await request(cognitoApp.app)
        .post('/api/v5/admins')
        .set(admin)
        .send({ correo: 'remoto@demo.local', nombres: 'Remoto', profileId: ids.soporteProfile })
        .expect(201);
      expect(res.body).toMatchObject({ correo: 'remoto@demo.local', enabled: true });
      expect(res.body).not.toHaveProperty('temporaryPassword');
      expect(calls).toEqual([{ email: 'remoto@demo.local' }]);
      expect(await api.ta.deps.identity!.admin.adminGetUser('remoto@demo.local')).toMatchObject({ status: 'FORCE_CHANGE_PASSWORD' });
    });
  });

  test('two role managers disabling each other at once: one is refused, one keeps the Roles page', async () => {
    const managers = async () =>
      (
        await t.db.query(
          "SELECT a.correo FROM admins a JOIN profiles p ON p.id = a.profile_id WHERE a.enabled AND '/admin-settings/roles' = ANY (p.paths)",
        )
      ).rows;
    expect((await managers()).map((r) => r.correo).sort()).toEqual(['admin@demo.local', 'gestor@demo.local']);
    const [a, b] = await Promise.all([
      request(app()).post(`/api/v5/admins/${ids.gestor}/disable`).set(admin),
      request(app()).post(`/api/v5/admins/${ids.admin}/disable`).set(manager),
    ]);
    // The refused one was either already disabled (its session ended: 401) or acting on a superior (403).
    const [ok, refused] = [a.status, b.status].sort();
    expect(ok).toBe(200);
    expect([401, 403]).toContain(refused);
    expect(await managers()).toHaveLength(1);
  });
});
