/**
 * The embedded demo's simulated fleet: its devices are registered once in 'Agentes simulados',
 * their agents enroll over HTTP, and a LOCK an administrator requests reaches 'Bloqueado'
 * within seconds, with no reload and no hand in between; a second start reuses the devices.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import type { ActionResult } from '../../shared/contracts/deviceActions';
import type { Device, DeviceList } from '../../shared/contracts/devices';
import type { GroupList } from '../../shared/contracts/groups';
import { DEVICE_STATUS } from '../../shared/constants/domain';
import { DEMO_AGENTS_GROUP, startDemoAgents, type DemoAgents } from '../../tools/demo/demoAgents';
import { adminApi, type AdminApi } from '../helpers/adminApi';
import { createTestDb, type TestDb } from '../helpers/testDb';

const until = async <T>(what: string, read: () => Promise<T>, ok: (v: T) => boolean, ms = 15_000): Promise<T> => {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v).slice(0, 300)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
};

describe('demo agents', () => {
  let testDb: TestDb;
  let api: AdminApi;
  let server: http.Server;
  let base: string;
  let fleet: DemoAgents | undefined;

  beforeAll(async () => {
    testDb = await createTestDb('pglite');
    api = await adminApi(testDb.db);
    server = http.createServer(api.ta.app);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await fleet?.stop();
    await api.ta.services.agent.stop();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await testDb.dispose();
  });

  test('register, enroll, and a lock from the portal becomes Bloqueado by itself; a restart reuses the devices', async () => {
    const start = () =>
      startDemoAgents({
        db: testDb.db,
        inventory: api.ta.services.inventory,
        enrollment: api.ta.services.enrollment,
        baseUrl: base,
        count: 3,
        logger: api.ta.deps.logger,
      });
    fleet = await start();
    const admin = await api.headersOf('admin@demo.local');
    const groups = (await request(api.ta.app).get('/api/v5/groups').set(admin)).body as GroupList;
    const group = groups.data.find((g) => g.name === DEMO_AGENTS_GROUP.name)!;
    const list = async () => ((await request(api.ta.app).get(`/api/v5/devices?groupId=${group.id}&perPage=100`).set(admin)).body as DeviceList).data;
    const enrolled = await until('3 enrolled demo devices', list, (ds) => ds.length === 3 && ds.every((d) => d.status === DEVICE_STATUS.enrolado));

    const target = enrolled[0]!;
    const lock = (await request(api.ta.app).post(`/api/v5/devices/${target.id}/actions`).set(admin).send({ action: 0, lockType: 'PorCredito' }))
      .body as ActionResult;
    expect(lock.device!.status).toBe(DEVICE_STATUS.bloqueando);
    const get = async () => (await request(api.ta.app).get(`/api/v5/devices/${target.id}`).set(admin)).body as Device;
    await until('Bloqueado', get, (d) => d.status === DEVICE_STATUS.bloqueado, 10_000);

    await fleet.stop();
    fleet = await start();
    await until(
      'the same 3 devices enrolled again',
      list,
      (ds) => ds.length === 3 && ds.every((d) => d.status === DEVICE_STATUS.enrolado || d.status === DEVICE_STATUS.bloqueado),
    );
    expect((await get()).status).toBe(DEVICE_STATUS.bloqueado);
  }, 60_000);
});
