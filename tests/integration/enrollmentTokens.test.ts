/**
 * Enrollment tokens in the portal API: shown once and stored hashed, one live per scope
 * ('Regenerar' revokes the previous), the Android provisioning QR payload from the current
 * lock-app version, the TV short code, the scope's page grant, revocation, audit.
 */
import { createHash } from 'node:crypto';
import request from 'supertest';
import type { EnrollmentTokenCreated, EnrollmentTokenList } from '../../shared/contracts/enrollment';
import { AGENT_ADMIN_COMPONENT, PROVISIONING_EXTRAS } from '../../shared/contracts/enrollment';
import { AGENT_MESSAGES as A } from '../../shared/areaMessages/agent';
import { adminApi, type AdminApi } from '../helpers/adminApi';
import { enrollAgent } from '../helpers/agentFixtures';
import { insertDevices, insertGroup, testImei } from '../helpers/inventoryFixtures';
import { createTestDb, testEngines, type TestDb } from '../helpers/testDb';

const CHECKSUM = createHash('sha256').update('macrolock-2.5.0.apk').digest('base64url');

describe.each(testEngines())('enrollment tokens (%s)', (engine) => {
  let t: TestDb;
  let api: AdminApi;
  let admin: Record<string, string>;
  let group: number;

  beforeAll(async () => {
    t = await createTestDb(engine);
    api = await adminApi(t.db, { env: { AGENT_SERVER_URL: 'https://agentes.example.com' } });
    admin = await api.headersOf('admin@demo.local');
    group = await insertGroup(t.db, 'Sucursal Norte');
  });
  afterAll(async () => {
    await api.ta.services.agent.stop();
    await t.dispose();
  });

  const post = (body: object, headers = admin) => request(api.ta.app).post('/api/v5/enrollment-tokens').set(headers).send(body);

  test('without a downloadable lock-app version the QR code carries the extras alone and the answer says why', async () => {
    // The demo's current version has its download; a version recorded without one is what this is about.
    await t.db.query('UPDATE lock_app_versions SET download_url = NULL, package_checksum = NULL WHERE device_type = 1 AND is_current');
    const res = await post({ groupId: group, validHours: 24 });
    expect(res.status).toBe(201);
    const body = res.body as EnrollmentTokenCreated;
    expect(body.token).toMatch(/^[0-9A-HJKMNP-TV-Z]{12}$/);
    expect(body.shortCode).toBe(body.token.match(/.{4}/g)!.join('-'));
    expect(body.hint).toBe(body.token.slice(-4));
    expect(body.serverUrl).toBe('https://agentes.example.com');
    expect(body.smartphone.provisioningPayload).toBeNull();
    expect(body.smartphone.missing).toMatch(/no tiene URL de descarga ni checksum|No hay una versión actual/);
    expect(body.smartphone.qrSvg).toMatch(/^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(Date.parse(body.expiresAt) - Date.parse(body.createdAt)).toBe(24 * 3600_000);
    // Stored as its SHA-256, never in clear.
    const stored = await t.db.query<{ token_hash: Uint8Array }>('SELECT token_hash FROM enrollment_tokens WHERE id = $1', [body.id]);
    expect(Buffer.from(stored.rows[0]!.token_hash).equals(createHash('sha256').update(body.token).digest())).toBe(true);
    expect(JSON.stringify(await t.db.query('SELECT * FROM enrollment_tokens'))).not.toContain(body.token);
  });

  test("the smartphone QR code is Android's provisioning payload of the current lock-app version", async () => {
    await t.db.query('UPDATE lock_app_versions SET is_current = false WHERE device_type = 1');
    await t.db.query(
      `INSERT INTO lock_app_versions (device_type, version_name, version_app, app_type, is_current, package_name, download_url, package_checksum)
       VALUES (1, 'Macrolock', '2.5.0', 2, true, 'mx.macrolock.agent', 'https://descargas.example.com/macrolock-2.5.0.apk', $1)`,
      [CHECKSUM],
    );
    const body = (await post({ groupId: group })).body as EnrollmentTokenCreated;
    expect(body.smartphone.missing).toBeNull();
    expect(JSON.parse(body.smartphone.provisioningPayload!)).toEqual({
      'android.app.extra.PROVISIONING_DEVICE_ADMIN_COMPONENT_NAME': AGENT_ADMIN_COMPONENT,
      'android.app.extra.PROVISIONING_DEVICE_ADMIN_PACKAGE_DOWNLOAD_LOCATION': 'https://descargas.example.com/macrolock-2.5.0.apk',
      'android.app.extra.PROVISIONING_DEVICE_ADMIN_PACKAGE_CHECKSUM': CHECKSUM,
      'android.app.extra.PROVISIONING_LEAVE_ALL_SYSTEM_APPS_ENABLED': true,
      'android.app.extra.PROVISIONING_ADMIN_EXTRAS_BUNDLE': {
        [PROVISIONING_EXTRAS.serverUrl]: 'https://agentes.example.com',
        [PROVISIONING_EXTRAS.token]: body.token,
      },
    });
  });

  test('Regenerar: a new token revokes the live ones of its scope only; the list never shows a token; DELETE revokes; audited', async () => {
    const other = await insertGroup(t.db, 'Sucursal Sur');
    const keep = (await post({ groupId: other })).body as EnrollmentTokenCreated;
    const first = (await post({ groupId: group })).body as EnrollmentTokenCreated;
    const second = (await post({ groupId: group })).body as EnrollmentTokenCreated;
    const list = (await request(api.ta.app).get(`/api/v5/enrollment-tokens?groupId=${group}`).set(admin)).body as EnrollmentTokenList;
    expect(list.data.map((x) => x.id)).toEqual([second.id]);
    expect(JSON.stringify(list)).not.toContain(second.token);
    expect(
      ((await request(api.ta.app).get(`/api/v5/enrollment-tokens?groupId=${other}`).set(admin)).body as EnrollmentTokenList).data.map((x) => x.id),
    ).toEqual([keep.id]);
    // The revoked one no longer enrolls.
    const imei = testImei(5100);
    await insertDevices(t.db, [{ imei, lifecycle: 'pre_enrolled', groupId: group }]);
    const enroll = async (enrollmentToken: string) => {
      const { res } = await enrollAgent(api.ta.app, { enrollmentToken, imei, deviceType: 1 });
      return { status: res.status, code: (res.body as { code?: string }).code };
    };
    expect(await enroll(first.token)).toEqual({ status: 401, code: 'ENROLLMENT_TOKEN_REVOKED' });
    expect((await request(api.ta.app).delete(`/api/v5/enrollment-tokens/${second.id}`).set(admin)).status).toBe(204);
    expect((await request(api.ta.app).delete(`/api/v5/enrollment-tokens/${second.id}`).set(admin)).status).toBe(404);
    expect(await enroll(second.token)).toEqual({ status: 401, code: 'ENROLLMENT_TOKEN_REVOKED' });
    const audit = await t.db.query<{ action: string }>(
      "SELECT action FROM audit_log WHERE entity = 'enrollment_token' AND entity_id = $1 ORDER BY id",
      [String(second.id)],
    );
    expect(audit.rows.map((r) => r.action)).toEqual(['create', 'revoke']);
  });

  test("a device's token needs the pre-enrolled page and a device waiting to enroll; scope errors name the field", async () => {
    const [pre] = await insertDevices(t.db, [{ imei: testImei(5200), lifecycle: 'pre_enrolled' }]);
    const [active] = await insertDevices(t.db, [{ imei: testImei(5201) }]);
    expect((await post({ deviceId: pre })).status).toBe(201);
    expect((await post({ deviceId: active })).body).toMatchObject({ code: 'VALIDATION', field: 'deviceId', message: A.tokens.deviceNotFound });
    expect((await post({ groupId: 999999 })).body).toMatchObject({ code: 'VALIDATION', field: 'groupId', message: A.tokens.groupNotFound });
    expect((await post({ groupId: group, deviceId: pre })).body).toMatchObject({ code: 'VALIDATION', field: 'deviceId' });
    expect((await post({ validHours: 0 })).body).toMatchObject({ code: 'VALIDATION', field: 'validHours' });
    // Soporte holds neither page: refused whatever the scope.
    const soporte = await api.headersOf('soporte@demo.local');
    expect((await post({ groupId: group }, soporte)).status).toBe(403);
    expect((await request(api.ta.app).get('/api/v5/enrollment-tokens').set(soporte)).status).toBe(403);
    // A profile with only the groups page cannot issue a device's token.
    const profile = await api.addProfile('Solo grupos', ['/inventory-management', '/inventory-management/devices-group'], []);
    await api.addAdmin('grupos@demo.local', profile);
    const grupos = await api.headersOf('grupos@demo.local');
    expect((await post({ groupId: group }, grupos)).status).toBe(201);
    expect((await post({ deviceId: pre }, grupos)).status).toBe(403);
  });
});
