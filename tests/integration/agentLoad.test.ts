/**
 * The simulator's load mode (tools/simulator/load.ts, what `npm run bench:agent` drives): agents
 * holding device tokens check in back to back against a listening server; every check-in is
 * answered 200 and counted, each request carries the next agent's token.
 */
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import type { Device } from '../../shared/contracts/devices';
import type { EnrollmentTokenCreated } from '../../shared/contracts/enrollment';
import type { EnrollResponse } from '../../shared/contracts/agent';
import { runCheckinLoad, signCheckins } from '../../tools/simulator/load';
import { adminApi, type AdminApi } from '../helpers/adminApi';
import { enrollAgent, type AgentIdentity } from '../helpers/agentFixtures';
import { testImei } from '../helpers/inventoryFixtures';
import { createTestDb, testEngines, type TestDb } from '../helpers/testDb';

describe.each(testEngines())('the simulator load mode on %s', (engine) => {
  let t: TestDb;
  let api: AdminApi;

  beforeAll(async () => {
    t = await createTestDb(engine);
    api = await adminApi(t.db, { env: { AGENT_RATE_LIMIT_PER_MINUTE: '100000' } });
  }, 60_000);
  afterAll(async () => {
    await api?.ta.services.jobRunner.stop();
    await api?.ta.services.agent.stop();
    await t?.dispose();
  });

  test('check-ins as fast as the server answers, each with the next agent token', async () => {
    const admin = await api.headersOf('admin@demo.local');
    const groupId = ((await request(api.ta.app).post('/api/v5/groups').set(admin).send({ name: 'Sucursal Carga' })).body as { id: number }).id;
    const agents: (AgentIdentity & { id: number })[] = [];
    for (let i = 0; i < 3; i++) {
      const imei = testImei(8300 + i);
      const created = await request(api.ta.app).post('/api/v5/devices').set(admin).send({ imei, deviceType: 1, groupId });
      const qr = await request(api.ta.app).post('/api/v5/enrollment-tokens').set(admin).send({ groupId });
      const { res, keys } = await enrollAgent(api.ta.app, {
        enrollmentToken: (qr.body as EnrollmentTokenCreated).shortCode.toLowerCase(),
        imei,
        deviceType: 1,
      });
      expect(res.status).toBe(201);
      agents.push({ id: (created.body as Device).id, token: (res.body as EnrollResponse).deviceToken, keys });
    }
    const server = api.ta.app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    try {
      const { port } = server.address() as AddressInfo;
      const signed = await signCheckins(agents, () => ({ batteryLevel: 77 }));
      const result = await runCheckinLoad({
        urls: [`http://127.0.0.1:${port}`],
        connections: 2,
        durationSeconds: 1,
        nextCheckin: (i) => signed[i % signed.length]!,
      });
      expect(result.requests).toBeGreaterThan(10);
      expect(result).toMatchObject({ ok: result.requests, non2xx: 0, errors: 0, timeouts: 0 });
      expect(result.perSecond).toBeCloseTo(result.requests / result.seconds);
      expect(result.latencyMs.p99).toBeGreaterThanOrEqual(result.latencyMs.p50);
      // Every agent checked in (the first check-in enrolls: its facts and the battery it reported).
      const rows = (
        await t.db.query<{ id: number; battery_level: number; lifecycle: string }>(
          'SELECT id, battery_level, lifecycle FROM devices WHERE id = ANY($1::bigint[]) ORDER BY id',
          [agents.map((a) => a.id)],
        )
      ).rows;
      expect(rows.map((r) => [r.battery_level, r.lifecycle])).toEqual(agents.map(() => [77, 'enrolled']));
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});
