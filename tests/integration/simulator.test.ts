/**
 * The fleet simulator against the real app listening on a port: it signs in through the embedded
 * identity endpoint (SRP), registers devices, creates the enrollment tokens, runs the agents and
 * plays the scenario; the portal API then shows every device in its role's status, every status
 * of reference §4 but 'Sin conexión' (which needs DEVICE_OFFLINE_AFTER_HOURS to pass), and
 * the history of commands the agents answered once each.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { DEVICE_STATUSES, DEVICE_STATUS } from '../../shared/constants/domain';
import type { History } from '../../shared/contracts/deviceActions';
import type { Device } from '../../shared/contracts/devices';
import { runFleet, type FleetSummary } from '../../tools/simulator/fleet';
import { discoverPortal, httpPortalApi, signInPortal } from '../../tools/simulator/portalApi';
import { ROLES, ROLE_GOALS } from '../../tools/simulator/scenario';
import { adminApi, DEMO_PASSWORD, type AdminApi } from '../helpers/adminApi';
import { testImei } from '../helpers/inventoryFixtures';
import { createTestDb, testEngines, type TestDb } from '../helpers/testDb';

describe.each(testEngines())('fleet simulator (%s)', (engine) => {
  let testDb: TestDb;
  let api: AdminApi;
  let server: http.Server;
  let url: string;
  let admin: Record<string, string>;

  beforeAll(async () => {
    testDb = await createTestDb(engine);
    // One client IP enrolls the whole fleet here.
    api = await adminApi(testDb.db, { env: { AGENT_ENROLL_RATE_LIMIT_PER_MINUTE: '1000' } });
    admin = await api.headersOf('admin@demo.local');
    server = http.createServer(api.ta.app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await api.ta.services.agent.stop();
    await testDb.dispose();
  });

  const device = async (id: number) => (await request(api.ta.app).get(`/api/v5/devices/${id}`).set(admin)).body as Device;

  async function portalOf() {
    const where = await discoverPortal(url);
    const session = await signInPortal(where, 'admin@demo.local', DEMO_PASSWORD);
    return httpPortalApi({ apiUrl: where.apiUrl, headers: () => session.headers() });
  }

  test('one device per role: each ends in its status and the fleet shows every status but Sin conexión', async () => {
    const portal = await portalOf();
    const summary: FleetSummary = await runFleet({
      baseUrl: url,
      devices: ROLES.length,
      durationMs: 15_000,
      seed: 11,
      portal,
      rampUpMs: 500,
      behaviour: { wait: 5, commandDelayMs: [10, 60] },
    });

    expect(summary.roles).toHaveLength(ROLES.length);
    expect(new Set(summary.roles.map((r) => r.role))).toEqual(new Set(ROLES));
    expect(summary.roles.filter((r) => r.incomplete !== null)).toEqual([]);
    expect(summary.errors).toBe(0);

    // What the portal shows, read apart from the simulator.
    const reached = new Set<number>();
    for (const r of summary.roles) {
      const d = await device(r.deviceId);
      reached.add(d.status);
      expect({ role: r.role, status: d.status }).toEqual({ role: r.role, status: ROLE_GOALS[r.role].status });
      const lockType = ROLE_GOALS[r.role].lockType;
      if (lockType) expect({ role: r.role, lockType: d.lockType }).toEqual({ role: r.role, lockType });
      expect(summary.devices).toContainEqual({ imei: d.imei, status: d.status });
    }
    const expected = DEVICE_STATUSES.map((s) => s.code).filter((c) => c !== DEVICE_STATUS.sin_conexion);
    expect([...reached].sort((a, b) => a - b)).toEqual([...expected].sort((a, b) => a - b));
    // The in-flight statuses were seen on the way too (bloqueando before bloqueado…).
    expect(summary.statusesSeen).toEqual(expect.arrayContaining(expected));

    // The agent answered each command once: the history has no command left pending but the ones
    // whose agent went quiet, and the rejecting device's LOCK was rejected with a Spanish reason.
    const failed = summary.roles.find((r) => r.role === 'failed')!;
    const history = (await request(api.ta.app).get(`/api/v5/devices/${failed.deviceId}/history`).set(admin)).body as History;
    const rejected = history.data.filter((c) => c.status === 'rejected');
    expect(rejected).toHaveLength(1);
    expect(rejected[0]!.result).toMatch(/[a-záéíóúñ ]{10,}/i);
    const active = summary.roles.find((r) => r.role === 'active')!;
    const activeHistory = (await request(api.ta.app).get(`/api/v5/devices/${active.deviceId}/history`).set(admin)).body as History;
    expect(activeHistory.data.filter((c) => c.status === 'acknowledged').map((c) => c.action)).toEqual(expect.arrayContaining([0, 1, 5]));
    // The agents' counts are the server's: every acknowledgement they counted is in a history.
    let acknowledged = 0;
    for (const r of summary.roles) {
      const h = (await request(api.ta.app).get(`/api/v5/devices/${r.deviceId}/history?perPage=100`).set(admin)).body as History;
      acknowledged += h.data.filter((c) => c.status === 'acknowledged').length;
    }
    expect(summary.acknowledged).toBe(acknowledged);
    expect(summary.rejected).toBe(1);
  }, 120_000);

  test('--existing takes the PRE_ENROLLED devices already registered and enrolls them', async () => {
    const imeis = [testImei(77_001), testImei(77_002), testImei(77_003)];
    for (const imei of imeis) {
      const created = await request(api.ta.app)
        .post('/api/v5/devices')
        .set(admin)
        .send({ imei, deviceType: 1, brand: 'Motorola', model: 'Moto G24' });
      expect(created.status).toBe(201);
    }
    // Only the devices of this test are still PRE_ENROLLED (the first test's one is kept by its role): take all of them.
    const pre = (await request(api.ta.app).get('/api/v5/devices?stage=preEnrolled&perPage=100').set(admin)).body as { data: Device[] };
    const portal = await portalOf();
    const summary = await runFleet({
      baseUrl: url,
      devices: pre.data.length,
      durationMs: 6_000,
      seed: 3,
      portal,
      existing: true,
      rampUpMs: 200,
      behaviour: { wait: 2, commandDelayMs: [10, 30] },
    });
    expect(summary.devices.map((d) => d.imei)).toEqual(expect.arrayContaining(imeis));
    // The roles come in ROLES order: the first stays pre-enrolled, the others enroll and move on.
    for (const r of summary.roles) {
      expect({ imei: r.imei, status: (await device(r.deviceId)).status }).toEqual({ imei: r.imei, status: ROLE_GOALS[r.role].status });
    }
    expect(summary.roles.some((r) => r.goal !== DEVICE_STATUS.PRE_ENROLLED)).toBe(true);
  }, 60_000);
});
