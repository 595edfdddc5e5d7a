/**
 * The lender's integration: API keys (/api/v5/api-keys: creation with the secret answered once
 * and stored hashed, never more than the creator holds, revocation) and the integration API
 * (/api/integration/v1) they open: authentication, IP allowlist, expiry, revocation, the role's
 * scope within the creator's grants, the rate limit, lookups by IMEI and credit reference,
 * actions with the portal's rules, Idempotency-Key and audit rows (the key's name as the actor),
 * registration one by one and in batches (all or none), bulk actions by IMEIs.
 */
import { createHash } from 'node:crypto';
import request from 'supertest';
import { DEVICE_ACTION } from '../../shared/constants/deviceActions';
import { PATHS } from '../../shared/constants/routes';
import { apiKeyActor } from '../../shared/constants/integration';
import { AUTHZ_MESSAGES } from '../../shared/areaMessages/authz';
import {
  apiKeyCreatedResponse,
  apiKeyListResponse,
  apiKeyResponse,
  type ApiKey,
  type ApiKeyCreated,
  type ApiKeyRoles,
} from '../../shared/contracts/apiKeys';
import { INTEGRATION_BASE } from '../../shared/constants/apiPaths';
import { INTEGRATION_ROUTES } from '../../shared/contracts/integration';
import { actionResultResponse } from '../../shared/contracts/deviceActions';
import { describeGrant } from '../../server/api/roles/grantChecks';
import { expressPath } from '../../server/integration/integrationRouter';
import { adminApi, type AdminApi } from '../helpers/adminApi';
import { insertDevices, testImei } from '../helpers/inventoryFixtures';
import { createTestDb, testEngines, type TestDb } from '../helpers/testDb';

let serial = 0;
const nextImei = () => testImei(700_000 + ++serial, '35');

describe.each(testEngines())('integration API and API keys (%s)', (engine) => {
  let t: TestDb;
  let api: AdminApi;
  let admin: Record<string, string>;

  beforeAll(async () => {
    t = await createTestDb(engine);
    api = await adminApi(t.db);
    admin = await api.headersOf('admin@demo.local');
  });
  afterAll(async () => {
    await api?.ta.services.agent.stop();
    await t?.dispose();
  });

  const app = () => api.ta.app;
  const portal = (headers = admin) => ({
    get: (path: string) => request(app()).get(`/api/v5${path}`).set(headers),
    post: (path: string, body?: object) =>
      request(app())
        .post(`/api/v5${path}`)
        .set(headers)
        .send(body ?? {}),
  });
  const roleId = async (nombre: string) => (await t.db.query<{ id: number }>('SELECT id FROM profiles WHERE nombre = $1', [nombre])).rows[0]!.id;
  let keyNames = 0;
  const createKey = async (body: Record<string, unknown> = {}, headers = admin): Promise<ApiKeyCreated> => {
    const res = await portal(headers).post('/api-keys', { name: `Cobranza ${++keyNames}`, profileId: await roleId('Administrador'), ...body });
    expect([res.status, res.body]).toEqual([201, expect.anything()]);
    return res.body as ApiKeyCreated;
  };
  const integration = (secret: string) => ({
    get: (path: string) => request(app()).get(`${INTEGRATION_BASE}${path}`).set('Authorization', `Bearer ${secret}`),
    post: (path: string, body: object) => request(app()).post(`${INTEGRATION_BASE}${path}`).set('Authorization', `Bearer ${secret}`).send(body),
  });
  const lastAudit = async (entity: string, action: string) =>
    (
      await t.db.query<{
        actor_email: string;
        actor_admin_id: number | null;
        entity_id: string | null;
        outcome: string;
        after: unknown;
        detail: string | null;
      }>(
        'SELECT actor_email, actor_admin_id, entity_id, outcome, after, detail FROM audit_log WHERE entity = $1 AND action = $2 ORDER BY id DESC LIMIT 1',
        [entity, action],
      )
    ).rows[0];
  const device = async (f: Parameters<typeof insertDevices>[1][number] = {}) => {
    const imei = nextImei();
    const [id] = await insertDevices(t.db, [{ imei, ...f }]);
    return { id: id!, imei };
  };

  describe('API keys (portal)', () => {
    test('creation answers the secret once; only its hash is stored; the list and audit never show it', async () => {
      const { key, secret } = await createKey({ allowedIps: ['10.0.0.0/8', ' 192.168.1.7 ', ''], expiresAt: '2099-01-01T00:00:00Z' });
      expect(secret).toMatch(/^mlk_[0-9a-f]{10}_[A-Za-z0-9_-]{43}$/);
      expect(secret.startsWith(`${key.prefix}_`)).toBe(true);
      expect(key).toMatchObject({
        state: 'active',
        allowedIps: ['10.0.0.0/8', '192.168.1.7'],
        expiresAt: '2099-01-01T00:00:00.000Z',
        createdBy: 'admin@demo.local',
      });
      const stored = (await t.db.query<{ secret_hash: string }>('SELECT secret_hash FROM api_keys WHERE id = $1', [key.id])).rows[0]!;
      expect(stored.secret_hash).toBe(createHash('sha256').update(secret).digest('hex'));
      const list = await portal().get('/api-keys').expect(200);
      expect(JSON.stringify(list.body)).not.toContain(secret.slice(15));
      expect((list.body.data as ApiKey[]).map((k) => k.id)).toContain(key.id);
      const audit = await lastAudit('api_key', 'create');
      expect(audit).toMatchObject({ actor_email: 'admin@demo.local', entity_id: String(key.id), outcome: 'success' });
      expect(JSON.stringify(audit)).not.toContain(secret.slice(15));
    });

    test('bad input is a Spanish 400 naming the field, and creates nothing', async () => {
      const before = Number((await t.db.query<{ n: number }>('SELECT count(*) AS n FROM api_keys')).rows[0]!.n);
      const cases: [Record<string, unknown>, string, RegExp][] = [
        [{ name: '' }, 'name', /Nombre/],
        [{ allowedIps: ['10.0.0.0/33'] }, 'allowedIps', /IPs permitidas.*10\.0\.0\.0\/33/],
        [{ allowedIps: ['no-es-ip'] }, 'allowedIps', /IPs permitidas/],
        [{ expiresAt: '2001-01-01T00:00:00Z' }, 'expiresAt', /Vencimiento/],
        [{ profileId: 999_999 }, 'profileId', /rol no existe/i],
        [{ allowedIps: '10.0.0.0/8' }, 'allowedIps', /^El campo IPs permitidas debe ser una lista de direcciones IP o bloques CIDR$/],
      ];
      for (const [body, field, message] of cases) {
        const res = await portal().post('/api-keys', { name: 'Mala', profileId: await roleId('Administrador'), ...body });
        expect([JSON.stringify(body), res.status, res.body.field]).toEqual([JSON.stringify(body), 400, field]);
        expect(res.body.message).toMatch(message);
      }
      const taken = await createKey();
      const dup = await portal().post('/api-keys', { name: taken.key.name.toUpperCase(), profileId: await roleId('Administrador') });
      expect([dup.status, dup.body.code, dup.body.field]).toEqual([409, 'API_KEY_NAME_TAKEN', 'name']);
      expect(Number((await t.db.query<{ n: number }>('SELECT count(*) AS n FROM api_keys')).rows[0]!.n)).toBe(before + 1);
    });

    test('a key never holds more than its creator; the page is guarded by its path', async () => {
      const limited = await api.addProfile('Claves limitadas', [PATHS.apiKeys, PATHS.devices], [DEVICE_ACTION.LOCK]);
      await api.addAdmin('claves@demo.local', limited);
      const headers = await api.headersOf('claves@demo.local');
      const roles = (await portal(headers).get('/api-keys/roles').expect(200)).body as ApiKeyRoles;
      expect(roles.data.find((r) => r.name === 'Administrador')!.grantable).toBe(false);
      expect(roles.data.find((r) => r.name === 'Claves limitadas')!.grantable).toBe(true);
      const beyond = await portal(headers).post('/api-keys', { name: 'Escalada', profileId: await roleId('Administrador') });
      expect([beyond.status, beyond.body.code, beyond.body.field]).toEqual([403, 'API_KEY_BEYOND_CREATOR', 'profileId']);
      expect(beyond.body.message).toMatch(/No puede crear una clave con permisos que usted no tiene/);
      await createKey({ name: 'Propia', profileId: limited }, headers);
      const soporte = await api.headersOf('soporte@demo.local');
      expect((await portal(soporte).get('/api-keys')).status).toBe(403);
      expect((await portal(soporte).post('/api-keys', { name: 'X', profileId: limited })).status).toBe(403);
    });

    test('a key whose role holds more than the caller is theirs to see, not to revoke (403 ESCALATION, as for administrators)', async () => {
      const lesser = await api.addProfile('Claves sin bloqueo', [PATHS.apiKeys], []);
      const superiorRole = await api.addProfile('Claves con bloqueo', [PATHS.apiKeys, PATHS.devices], [DEVICE_ACTION.LOCK]);
      await api.addAdmin('claves-menor@demo.local', lesser);
      const headers = await api.headersOf('claves-menor@demo.local');
      const superior = apiKeyCreatedResponse.parse(await createKey({ profileId: superiorRole })).key;
      const own = apiKeyCreatedResponse.parse(await createKey({ profileId: lesser })).key;
      expect([superior.manageable, own.manageable]).toEqual([true, true]);

      const listed = apiKeyListResponse.parse((await portal(headers).get('/api-keys?perPage=100').expect(200)).body).data;
      expect(listed.find((k) => k.id === superior.id)!.manageable).toBe(false);
      expect(listed.find((k) => k.id === own.id)!.manageable).toBe(true);

      const audited = await api.count('audit_log');
      const refused = await portal(headers).post(`/api-keys/${superior.id}/revoke`);
      expect([refused.status, refused.body.code]).toEqual([403, 'ESCALATION']);
      expect(refused.body.message).toBe(
        AUTHZ_MESSAGES.apiKeySuperior('revocar', describeGrant({ paths: [PATHS.devices], actions: [DEVICE_ACTION.LOCK] })),
      );
      const still = (await t.db.query<{ revoked_at: Date | null }>('SELECT revoked_at FROM api_keys WHERE id = $1', [superior.id])).rows[0]!;
      expect(still.revoked_at).toBeNull();
      expect(await api.count('audit_log')).toBe(audited);

      // Within the caller's grants it is revocable; an administrator holding everything revokes the other.
      expect(apiKeyResponse.parse((await portal(headers).post(`/api-keys/${own.id}/revoke`).expect(200)).body)).toMatchObject({
        state: 'revoked',
        manageable: true,
      });
      const revoked = apiKeyResponse.parse((await portal().post(`/api-keys/${superior.id}/revoke`).expect(200)).body);
      expect(revoked).toMatchObject({ state: 'revoked', revokedBy: 'admin@demo.local', manageable: true });
    });

    test('a role used by a key that is not revoked cannot be deleted', async () => {
      const role = await api.addProfile('Rol de integración', [PATHS.devices], [DEVICE_ACTION.LOCK]);
      const { key } = await createKey({ profileId: role });
      const refused = await request(app()).delete(`/api/v5/roles/${role}`).set(admin);
      expect([refused.status, refused.body.code]).toEqual([409, 'ROLE_IN_USE_BY_KEYS']);
      await portal().post(`/api-keys/${key.id}/revoke`).expect(200);
      await request(app()).delete(`/api/v5/roles/${role}`).set(admin).expect(204);
      const after = (await portal().get('/api-keys?perPage=100').expect(200)).body.data as ApiKey[];
      expect(after.find((k) => k.id === key.id)).toMatchObject({ state: 'revoked', profileId: null, profileName: null });
    });
  });

  describe('authentication', () => {
    test('missing, malformed and wrong keys are 401 with a Spanish message', async () => {
      const { secret } = await createKey();
      const missing = await request(app()).get(`${INTEGRATION_BASE}/devices?imei=${nextImei()}`);
      expect([missing.status, missing.body.code]).toEqual([401, 'API_KEY_MISSING']);
      expect(missing.body.message).toMatch(/Authorization: Bearer/);
      for (const bad of ['mlk_nope', `${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`, 'mlk_0000000000_' + 'A'.repeat(43)]) {
        const res = await integration(bad).get(`/devices?imei=${nextImei()}`);
        expect([res.status, res.body.code]).toEqual([401, 'API_KEY_INVALID']);
      }
      // A portal session does not open the integration API.
      expect((await request(app()).get(`${INTEGRATION_BASE}/devices?imei=${nextImei()}`).set(admin)).status).toBe(401);
    });

    test('revoked and expired keys are refused and the refusal is audited with the key as actor', async () => {
      const { key, secret } = await createKey();
      await integration(secret).get(`/devices?imei=${nextImei()}`).expect(200);
      const revoke = await portal().post(`/api-keys/${key.id}/revoke`).expect(200);
      expect(revoke.body).toMatchObject({ state: 'revoked', revokedBy: 'admin@demo.local' });
      expect((await portal().post(`/api-keys/${key.id}/revoke`)).status).toBe(409);
      const res = await integration(secret).get(`/devices?imei=${nextImei()}`);
      expect([res.status, res.body.code]).toEqual([401, 'API_KEY_REVOKED']);
      expect(await lastAudit('api_key', 'refuse')).toMatchObject({
        actor_email: apiKeyActor(key.name),
        outcome: 'failure',
        entity_id: String(key.id),
      });

      const expiring = await createKey({ expiresAt: new Date(Date.now() + 3600_000).toISOString() });
      await integration(expiring.secret).get(`/devices?imei=${nextImei()}`).expect(200);
      await t.db.query("UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = $1", [expiring.key.id]);
      const expired = await integration(expiring.secret).get(`/devices?imei=${nextImei()}`);
      expect([expired.status, expired.body.code]).toEqual([401, 'API_KEY_EXPIRED']);
    });

    test('the IP allowlist admits only its blocks', async () => {
      const elsewhere = await createKey({ allowedIps: ['10.0.0.0/8', '2001:db8::/32'] });
      const refused = await integration(elsewhere.secret).get(`/devices?imei=${nextImei()}`);
      expect([refused.status, refused.body.code]).toEqual([403, 'API_KEY_IP_REFUSED']);
      expect(refused.body.message).toMatch(/127\.0\.0\.1/);
      const local = await createKey({ allowedIps: ['127.0.0.0/8'] });
      await integration(local.secret).get(`/devices?imei=${nextImei()}`).expect(200);
      const listed = (await portal().get('/api-keys?perPage=100').expect(200)).body.data as ApiKey[];
      expect(listed.find((k) => k.id === local.key.id)!.lastUsedIp).toMatch(/127\.0\.0\.1/);
      expect(listed.find((k) => k.id === local.key.id)!.lastUsedAt).not.toBeNull();
    });

    test("a key acts with its role's grants, within what its creator holds now", async () => {
      const { imei } = await device({ creditReference: 'CR-SCOPE-1' });
      const readOnly = await api.addProfile('Solo consulta', [PATHS.devices], [DEVICE_ACTION.HISTORY]);
      const reader = await createKey({ profileId: readOnly });
      await integration(reader.secret).get(`/devices?imei=${imei}`).expect(200);
      const lock = await integration(reader.secret).post('/commands', {
        device: { imei },
        payload: { action: DEVICE_ACTION.LOCK, lockType: 'PorCredito' },
      });
      expect([lock.status, lock.body.code]).toEqual([403, 'ACTION_NOT_GRANTED']);
      const register = await integration(reader.secret).post('/devices', { imei: nextImei(), deviceType: 1 });
      expect(register.status).toBe(403);

      // The creator loses the page: the key loses it too; the creator disabled: the key does nothing.
      const creatorRole = await api.addProfile('Creador', [PATHS.apiKeys, PATHS.devices], [DEVICE_ACTION.LOCK]);
      const creatorId = await api.addAdmin('creador@demo.local', creatorRole);
      const key = await createKey({ profileId: creatorRole }, await api.headersOf('creador@demo.local'));
      await integration(key.secret).get(`/devices?imei=${imei}`).expect(200);
      await t.db.query('UPDATE profiles SET paths = $2 WHERE id = $1', [creatorRole, [PATHS.apiKeys]]);
      expect((await integration(key.secret).get(`/devices?imei=${imei}`)).status).toBe(403);
      await t.db.query('UPDATE profiles SET paths = $2 WHERE id = $1', [creatorRole, [PATHS.apiKeys, PATHS.devices]]);
      await t.db.query('UPDATE admins SET enabled = false WHERE id = $1', [creatorId]);
      const disabled = await integration(key.secret).get(`/devices?imei=${imei}`);
      expect([disabled.status, disabled.body.code]).toEqual([403, 'API_KEY_CREATOR_DISABLED']);
    });

    test('requests beyond the per-key limit are 429 with Retry-After; another key is not affected', async () => {
      const limited = await adminApi(t.db, { env: { INTEGRATION_RATE_LIMIT_PER_MINUTE: '3' } });
      const one = await createKey();
      const two = await createKey();
      const call = (secret: string) =>
        request(limited.ta.app).get(`${INTEGRATION_BASE}/devices?imei=${nextImei()}`).set('Authorization', `Bearer ${secret}`);
      for (let i = 0; i < 3; i++) await call(one.secret).expect(200);
      const res = await call(one.secret);
      expect([res.status, res.body.code]).toEqual([429, 'RATE_LIMITED']);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(res.body.message).toMatch(/Demasiadas solicitudes/);
      await call(two.secret).expect(200);
      // A revoked key's refusals are counted too: no more than the limit reach the audit log.
      const revoked = await createKey();
      await portal().post(`/api-keys/${revoked.key.id}/revoke`).expect(200);
      const refusals = async () =>
        Number(
          (
            await t.db.query<{ n: number }>("SELECT count(*) AS n FROM audit_log WHERE action = 'refuse' AND entity_id = $1", [
              String(revoked.key.id),
            ])
          ).rows[0]!.n,
        );
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await call(revoked.secret)).status);
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
      expect(await refusals()).toBe(3);
      await limited.ta.services.agent.stop();
    });
  });

  describe('the integration API', () => {
    let secret: string;
    let keyName: string;
    beforeAll(async () => {
      const created = await createKey({ name: 'Sistema de cobranza' });
      secret = created.secret;
      keyName = created.key.name;
    });

    test('every route of INTEGRATION_ROUTES is served, each with a declared permission', () => {
      const served = api.ta.routes.integration.map((r) => `${r.method} ${r.path}`);
      expect(served.sort()).toEqual(INTEGRATION_ROUTES.map((r) => `${r.method.toUpperCase()} ${INTEGRATION_BASE}${expressPath(r)}`).sort());
      expect(api.ta.routes.integration.every((r) => r.permission !== undefined)).toBe(true);
    });

    test('looks devices up by either IMEI or by credit reference (any case), audited as the key', async () => {
      const imei2 = nextImei();
      const { id, imei } = await device({ creditReference: 'CR-2026-777' });
      await t.db.query('UPDATE devices SET imei2 = $2 WHERE id = $1', [id, imei2]);
      for (const query of [`imei=${imei}`, `imei=${imei2}`, 'creditReference=cr-2026-777']) {
        const res = await integration(secret).get(`/devices?${query}`).expect(200);
        expect([query, res.body.total, res.body.data[0].id]).toEqual([query, 1, id]);
      }
      expect((await integration(secret).get(`/devices?imei=${nextImei()}`).expect(200)).body).toEqual({ data: [], total: 0 });
      expect(await lastAudit('device', 'lookup')).toMatchObject({ actor_email: apiKeyActor(keyName), actor_admin_id: null });
      const both = await integration(secret).get(`/devices?imei=${imei}&creditReference=x`);
      expect([both.status, both.body.message]).toEqual([400, expect.stringMatching(/IMEI o con Referencia de crédito/)]);
      expect((await integration(secret).get('/devices?imei=123')).status).toBe(400);
    });

    test('locks by credit reference with the portal rules, once per Idempotency-Key', async () => {
      const { id } = await device({ creditReference: 'CR-LOCK-1' });
      const body = {
        device: { creditReference: 'CR-LOCK-1' },
        payload: { action: DEVICE_ACTION.LOCK, lockType: 'PorCredito', message: 'Pague su cuota' },
      };
      const first = await integration(secret).post('/commands', body).set('Idempotency-Key', 'pago-42').expect(201);
      const result = actionResultResponse.parse(first.body);
      expect(result.command).toMatchObject({ deviceId: id, action: DEVICE_ACTION.LOCK, status: 'pending', requestedBy: apiKeyActor(keyName) });
      const replay = await integration(secret).post('/commands', body).set('Idempotency-Key', 'pago-42').expect(201);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.body.command.id).toBe(result.command!.id);
      const other = await integration(secret)
        .post('/commands', { ...body, payload: { ...body.payload, message: 'Otro' } })
        .set('Idempotency-Key', 'pago-42');
      expect([other.status, other.body.code]).toEqual([409, 'IDEMPOTENCY_MISMATCH']);
      // The portal's keys are another scope: the same key string acts there.
      const portalLock = await request(app())
        .post(`/api/v5/devices/${(await device()).id}/actions`)
        .set(admin)
        .set('Idempotency-Key', 'pago-42')
        .send(body.payload);
      expect(portalLock.status).toBe(201);
      // A second stateful command while the first is pending: the portal's conflict.
      const conflict = await integration(secret).post('/commands', { ...body, payload: { action: DEVICE_ACTION.UNLOCK } });
      expect(conflict.status).toBe(409);
      expect(await lastAudit('device', 'lock')).toMatchObject({ actor_email: expect.any(String), outcome: 'success' });
      const audit = await t.db.query<{ n: number }>(
        "SELECT count(*) AS n FROM audit_log WHERE entity = 'device' AND action = 'lock' AND actor_email = $1",
        [apiKeyActor(keyName)],
      );
      expect(Number(audit.rows[0]!.n)).toBe(1);
      const command = await integration(secret).get(`/commands/${result.command!.id}`).expect(200);
      expect(command.body).toMatchObject({ id: result.command!.id, status: 'pending' });
      expect((await integration(secret).get('/commands/999999999')).status).toBe(404);
    });

    test('a credit reference naming several devices, or none, is refused', async () => {
      await device({ creditReference: 'CR-TWICE' });
      await device({ creditReference: 'cr-twice' });
      const lock = { action: DEVICE_ACTION.LOCK, lockType: 'PorCredito' };
      const ambiguous = await integration(secret).post('/commands', { device: { creditReference: 'CR-TWICE' }, payload: lock });
      expect([ambiguous.status, ambiguous.body.code]).toEqual([409, 'AMBIGUOUS_REFERENCE']);
      expect(ambiguous.body.message).toMatch(/2 dispositivos/);
      const none = await integration(secret).post('/commands', { device: { creditReference: 'CR-NADIE' }, payload: lock });
      expect([none.status, none.body.code]).toEqual([404, 'DEVICE_NOT_FOUND']);
      // A malformed Idempotency-Key is refused before the device is looked for.
      const badKey = await integration(secret)
        .post('/commands', { device: { creditReference: 'CR-NADIE' }, payload: lock })
        .set('Idempotency-Key', 'á');
      expect([badKey.status, badKey.body.code]).toEqual([400, 'IDEMPOTENCY_KEY']);
    });

    test('issues an offline code for a locked device', async () => {
      const { imei } = await device({ lockState: 'locked', lockType: 'PorCredito' });
      const res = await integration(secret)
        .post('/commands', { device: { imei }, payload: { action: DEVICE_ACTION.UNLOCK_OFFLINE } })
        .expect(201);
      expect(res.body.offlineCode.code).toMatch(/^\d+$/);
      expect(res.body.command).toMatchObject({ status: 'issued', action: DEVICE_ACTION.UNLOCK_OFFLINE });
    });

    test('registers one device, and a batch all or none', async () => {
      const single = await integration(secret).post('/devices', { imei: nextImei(), deviceType: 1, creditReference: 'CR-NEW-1' }).expect(201);
      expect(single.body).toMatchObject({ status: 25, creditReference: 'CR-NEW-1' });
      const taken = single.body.imei as string;
      const fresh = [nextImei(), nextImei()];
      const refused = await integration(secret).post('/devices/batch', {
        devices: [
          { imei: fresh[0], deviceType: 1 },
          { imei: taken, deviceType: 1 },
        ],
      });
      expect([refused.status, refused.body.code, refused.body.field]).toEqual([409, 'IMEI_TAKEN', 'devices.1.imei']);
      const badRow = await integration(secret).post('/devices/batch', {
        devices: [
          { imei: fresh[0], deviceType: 1 },
          { imei: '123', deviceType: 1 },
        ],
      });
      expect([badRow.status, badRow.body.field]).toEqual([400, 'devices.1.imei']);
      const none = await t.db.query('SELECT 1 FROM devices WHERE imei = $1', [fresh[0]]);
      expect(none.rowCount).toBe(0);
      const ok = await integration(secret)
        .post('/devices/batch', { devices: fresh.map((imei) => ({ imei, deviceType: 2 })) })
        .expect(201);
      expect((ok.body.data as { imei: string }[]).map((d) => d.imei)).toEqual(fresh);
      expect(await lastAudit('device', 'import')).toMatchObject({ actor_email: apiKeyActor(keyName), after: { count: 2, imeis: fresh } });
    });

    test('bulk actions by IMEIs run as jobs; unknown IMEIs are listed; offline actions are refused', async () => {
      const devices = [await device(), await device()];
      const unknown = nextImei();
      const res = await integration(secret)
        .post('/jobs', {
          imeis: [...devices.map((d) => d.imei), unknown],
          payload: { action: DEVICE_ACTION.SEND_NOTIFICATION, title: 'Aviso', message: 'Su pago vence' },
        })
        .expect(202);
      expect(res.body.notFound).toEqual([unknown]);
      expect(res.body.job).toMatchObject({ total: 2, action: DEVICE_ACTION.SEND_NOTIFICATION });
      const job = await integration(secret).get(`/jobs/${res.body.job.id}`).expect(200);
      expect(job.body.id).toBe(res.body.job.id);
      await integration(secret).get(`/jobs/${res.body.job.id}/results`).expect(200);
      const offline = await integration(secret).post('/jobs', { imeis: [devices[0]!.imei], payload: { action: DEVICE_ACTION.UNLOCK_OFFLINE } });
      expect([offline.status, offline.body.field]).toEqual([400, 'payload.action']);
      const both = await integration(secret).post('/jobs', {
        imeis: [unknown],
        creditReferences: ['CR-1'],
        payload: { action: DEVICE_ACTION.RELEASE },
      });
      expect([both.status, both.body.field, both.body.message]).toEqual([400, 'imeis', expect.stringMatching(/IMEIs o con Referencias de crédito/)]);
      const none = await integration(secret).post('/jobs', { imeis: [unknown], payload: { action: DEVICE_ACTION.RELEASE } });
      expect([none.status, none.body.code]).toEqual([404, 'DEVICE_NOT_FOUND']);
    });

    test('unknown routes are a JSON 404; the OpenAPI document is public', async () => {
      const res = await integration(secret).get('/nada');
      expect([res.status, res.body.code]).toEqual([404, 'NOT_FOUND']);
      const doc = await request(app()).get(`${INTEGRATION_BASE}/openapi.json`).expect(200);
      expect(doc.body.openapi).toBe('3.1.0');
    });
  });
});
