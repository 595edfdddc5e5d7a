import { randomUUID } from 'node:crypto';
import express, { Router } from 'express';
import request from 'supertest';
import { DEVICE_ACTION } from '../../shared/constants/deviceActions';
import { ADMIN_PROFILE, DEMO_ACCOUNTS, bootstrap } from '../../server/db/seed/bootstrap';
import { errorHandler } from '../../server/errors';
import { signJwt } from '../../server/identity/jwt';
import { loadOrCreateKeys, type SigningKeys } from '../../server/identity/keys';
import { authenticate } from '../../server/middleware/authenticate';
import {
  assertRoutesDeclared,
  guard,
  listRoutes,
  mount,
  requireAction,
  requirePath,
  signedIn,
  type Permission,
} from '../../server/middleware/authorize';
import { buildTestApp, type TestApp } from '../helpers/testApp';
import { createTestDb, type TestDb } from '../helpers/testDb';

describe('authorization on the server', () => {
  let t: TestDb;
  let ta: TestApp;
  let keys: SigningKeys;

  beforeAll(async () => {
    t = await createTestDb('pglite');
    ta = await buildTestApp(t.db, { env: { DEMO_PASSWORD: 'Demo-Portal-2026!' } });
    await bootstrap(t.db, ta.config, ta.deps.identity);
    keys = await loadOrCreateKeys(t.db);
  }, 60_000);
  afterAll(async () => {
    await t.dispose();
  });

  /** The headers of a signed-in administrator, with tokens as the endpoint issues them. */
  async function headersOf(email: string) {
    const { sub } = await ta.deps.identity!.adminGetUser(email);
    const now = Math.floor(Date.now() / 1000);
    const issuer = ta.deps.identity!.issuer;
    const clientId = ta.config.identity.clientId;
    const common = { sub, iss: issuer, origin_jti: randomUUID(), event_id: randomUUID(), auth_time: now, iat: now, exp: now + 600, jti: randomUUID() };
    return {
      AccessToken: signJwt({ ...common, client_id: clientId, token_use: 'access', scope: 'aws.cognito.signin.user.admin', username: email }, keys.access),
      IdToken: signJwt({ ...common, email, aud: clientId, token_use: 'id', 'cognito:username': email }, keys.id),
      username: email,
    };
  }

  const PROFILES = [
    { email: 'admin@demo.local', paths: ADMIN_PROFILE.paths, actions: ADMIN_PROFILE.actions },
    ...DEMO_ACCOUNTS.map((a) => ({ email: a.correo, paths: a.profile.paths, actions: a.profile.actions })),
  ];

  test('every API route of the app declares its permission', () => {
    expect(ta.app.apiRoutes.length).toBeGreaterThanOrEqual(3);
    expect(ta.app.apiRoutes).toEqual(expect.arrayContaining([
      { method: 'GET', path: '/api/portal/getVersion', permission: signedIn() },
      { method: 'POST', path: '/api/v5/users/getUserByEmail', permission: signedIn() },
    ]));
    for (const route of ta.app.apiRoutes) expect(route.permission).toBeDefined();
  });

  test('deny by default: a route without a declared permission stops start-up', () => {
    const api = Router();
    const child = Router();
    const can = guard(t.db);
    child.get('/ok', can(requirePath('/dashboard')), (_req, res) => res.json({}));
    child.post('/olvidada', (_req, res) => res.json({}));
    const mounts = new Map<unknown, string>();
    mount(api, '/v5/cosas', child, mounts);
    const routes = listRoutes(api, '/api', mounts);
    expect(routes.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/v5/cosas/ok', 'POST /api/v5/cosas/olvidada']);
    expect(() => assertRoutesDeclared(routes)).toThrow('Rutas de la API sin permiso declarado: POST /api/v5/cosas/olvidada');
  });

  describe('the guard checks the current grants of the caller', () => {
    let app: express.Express;
    beforeAll(() => {
      app = express();
      const can = guard(t.db);
      app.use(authenticate(ta.deps.verifiers));
      app.get('/roles', can(requirePath('/admin-settings/roles')), (_req, res) => res.json({ data: 'roles' }));
      app.post('/lock', can(requireAction('/inventory-management/devices', DEVICE_ACTION.LOCK)), (_req, res) => res.json({ done: true }));
      app.post('/history', can(requireAction('/inventory-management/devices', DEVICE_ACTION.HISTORY)), (_req, res) => res.json({ done: true }));
      app.use(errorHandler);
    });

    test('path grants: 403 with the catalogue message without the path, never the data', async () => {
      await request(app).get('/roles').set(await headersOf('admin@demo.local')).expect(200);
      const denied = await request(app).get('/roles').set(await headersOf('soporte@demo.local')).expect(403);
      expect(denied.body).toEqual({ message: 'No Autorizado', code: 'FORBIDDEN' });
    });

    test('action grants: the path is not enough without the action', async () => {
      const soporte = await headersOf('soporte@demo.local');
      await request(app).post('/history').set(soporte).expect(200);
      await request(app).post('/lock').set(soporte).expect(403);
      await request(app).post('/lock').set(await headersOf('inventario@demo.local')).expect(200);
    });

    test('a profile change applies on the next request; a disabled administrator gets nothing', async () => {
      const soporte = await headersOf('soporte@demo.local');
      await t.db.query("UPDATE profiles SET paths = array_append(paths, '/admin-settings/roles') WHERE nombre = 'Soporte'");
      await request(app).get('/roles').set(soporte).expect(200);
      await t.db.query("UPDATE profiles SET paths = array_remove(paths, '/admin-settings/roles') WHERE nombre = 'Soporte'");
      await request(app).get('/roles').set(soporte).expect(403);

      const admin = await headersOf('admin@demo.local');
      await t.db.query("UPDATE admins SET enabled = false WHERE correo = 'admin@demo.local'");
      await request(app).get('/roles').set(admin).expect(403);
      await t.db.query("UPDATE admins SET enabled = true WHERE correo = 'admin@demo.local'");
      await request(app).get('/roles').set(admin).expect(200);
    });
  });

  /** Valid bodies for the routes that need one (others get `{ correo }`): allowed cells reach the handler. */
  const BODIES: Record<string, object> = {
    'POST /api/v5/roles/': { nombre: 'Matriz', paths: ['/dashboard'], actions: [] },
    'PUT /api/v5/roles/:id': { nombre: ADMIN_PROFILE.nombre, paths: ADMIN_PROFILE.paths, actions: ADMIN_PROFILE.actions },
    'POST /api/v5/admins/': { correo: 'matriz@demo.local', nombres: 'Matriz', profileId: 3 },
    'PUT /api/v5/admins/:id': { nombres: 'Administrador Demo', apellidos: '', profileId: 1 },
    'POST /api/v5/devices/:id/actions': { action: 5, title: 'Hola', message: 'Prueba' },
    'POST /api/v5/devices/bulk-actions/preview': { selection: { ids: [1] }, payload: { action: 5, title: 'x', message: 'y' } },
    'POST /api/v5/devices/bulk-actions': { selection: { ids: [1] }, payload: { action: 5, title: 'x', message: 'y' } },
    'POST /api/v5/devices/': { imei: '356938035643809', deviceType: 1 },
    'PUT /api/v5/devices/:id': { imei: '356938035643809', deviceType: 1, brand: 'Samsung' },
    'POST /api/v5/groups/': { name: 'Matriz' },
    'PUT /api/v5/groups/:id': { name: 'Matriz', description: 'Grupo de la matriz' },
  };

  /** The authorization matrix: every route × every demo profile, generated from the route list. */
  test('matrix: 403 exactly when the profile lacks the path or action', async () => {
    const allows = (p: Permission, profile: (typeof PROFILES)[number], body: object) => {
      switch (p.kind) {
        case 'signedIn':
          return true;
        case 'path':
          return p.paths.some((path) => profile.paths.includes(path));
        case 'action':
          return p.paths.some((path) => profile.paths.includes(path)) && profile.actions.includes(p.action);
        case 'bodyAction': {
          const action = (body as { action?: number; payload?: { action: number } }).action ?? (body as { payload: { action: number } }).payload.action;
          return p.paths.some((path) => profile.paths.includes(path)) && profile.actions.includes(action);
        }
      }
    };
    const cells: string[] = [];
    for (const route of ta.app.apiRoutes) {
      for (const profile of PROFILES) {
        const url = route.path.replace(/:(\w+)/g, '1');
        const call = request(ta.app)[route.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete'](url).set(await headersOf(profile.email));
        const body = BODIES[`${route.method} ${route.path}`] ?? { correo: profile.email };
        const res = await (route.method === 'GET' || route.method === 'DELETE' ? call : call.send(body));
        const expected = allows(route.permission!, profile, body);
        cells.push(`${route.method} ${route.path} × ${profile.email}: ${res.status}`);
        if (expected) expect(res.status).not.toBe(403);
        else expect(res.status).toBe(403);
        expect(res.status).toBeLessThan(500);
      }
    }
    expect(cells.length).toBe(ta.app.apiRoutes.length * PROFILES.length);
  });
});
