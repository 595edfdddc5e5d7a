/**
 * Check-in reports written in batches (server/agent/presenceWriter.ts): a check-in that only
 * reports (last seen, versions, battery) answers before its report is written; the replica's next
 * batch writes every device's report in one statement, within AGENT_PRESENCE_FLUSH_MS, with the
 * counters kept exact; a batch never moves a last-seen time back, keeps what a device did not
 * report, skips deleted devices and (PostgreSQL) rows another transaction holds, without waiting,
 * while the check-in of a device shown Sin conexión writes at once and waits for a held row;
 * the database being away keeps the reports for the next batch; stopping writes what is left.
 */
import request from 'supertest';
import type { Device } from '../../shared/contracts/devices';
import type { CheckinResponse } from '../../shared/contracts/agent';
import { DEVICE_STATUS } from '../../shared/constants/domain';
import { DeviceRepository } from '../../server/devices';
import { PRESENCE_BATCH_MAX, PresenceWriter, type PresenceOutcome } from '../../server/agent/presenceWriter';
import type { Db } from '../../server/db/Db';
import { createLogger } from '../../server/logger';
import { agentClient, enrollDevice, type AgentIdentity, type EnrolledDevice } from '../helpers/agentFixtures';
import { adminApi, type AdminApi } from '../helpers/adminApi';
import { deviceCounts, deviceCountsRecount, factCounts, factCountsRecount } from '../helpers/counterRecounts';
import { testImei } from '../helpers/inventoryFixtures';
import { LogCapture } from '../helpers/testApp';
import { createTestDb, testEngines, type TestDb } from '../helpers/testDb';

describe.each(testEngines())('check-in reports written in batches on %s', (engine) => {
  let t: TestDb;
  let api: AdminApi;
  let admin: Record<string, string>;
  let groupId: number;
  let serial = 0;

  const app = () => api.ta.app;
  const portal = (method: 'get' | 'post' | 'delete', path: string) => request(app())[method](`/api/v5${path}`).set(admin);
  const checkin = (agent: AgentIdentity, body: Record<string, unknown> = {}) => agentClient(app, agent).checkin(body);
  /** Makes the device's next check-in report (its last-seen time is older than the write interval). */
  const stale = (id: number) => t.db.query(`UPDATE devices SET last_seen_at = now() - interval '10 minutes' WHERE id = $1`, [id]);
  const stored = async (id: number) =>
    (
      await t.db.query<{
        last_seen_at: Date;
        battery_level: number | null;
        os_version: string | null;
        agent_version: string | null;
        sim_carrier: string | null;
      }>('SELECT last_seen_at, battery_level, os_version, agent_version, sim_carrier FROM devices WHERE id = $1', [id])
    ).rows[0]!;
  const reported = async (outcome: PresenceOutcome) => {
    const metric = await api.ta.metrics.registry.getSingleMetric('agent_presence_reports_total')!.get();
    return metric.values.find((v) => v.labels.outcome === outcome)?.value ?? 0;
  };

  /** An enrolled device whose first check-in (enrolado, its SIM: facts, written in that check-in's transaction) is done. */
  async function enrolledDevice(): Promise<EnrolledDevice & { iccid: string }> {
    const iccid = `89520200123456${String(++serial).padStart(5, '0')}`;
    const device = await enrollDevice(app(), admin, { imei: testImei(8600 + serial), groupId });
    expect((await checkin(device, { sim: { iccid, carrier: 'Telcel' } })).status).toBe(200);
    return { ...device, iccid };
  }

  /** Holds the device's row in a transaction of its own (as a bulk action does) until released. */
  async function holdRow(id: number): Promise<{ release: () => Promise<void> }> {
    let release: () => void = () => undefined;
    const released = new Promise<void>((r) => (release = r));
    let locked: () => void = () => undefined;
    const isLocked = new Promise<void>((r) => (locked = r));
    const holder = t.db.transaction(async (tx) => {
      await tx.query('SELECT id FROM devices WHERE id = $1 FOR UPDATE', [id]);
      locked();
      await released;
    });
    await isLocked;
    return {
      release: async () => {
        release();
        await holder;
      },
    };
  }

  beforeAll(async () => {
    t = await createTestDb(engine);
    // A batch the test never waits for by accident: it flushes when it means to.
    api = await adminApi(t.db, { env: { AGENT_PRESENCE_FLUSH_MS: '10000' } });
    admin = await api.headersOf('admin@demo.local');
    groupId = ((await portal('post', '/groups').send({ name: 'Sucursal Presencia' })).body as { id: number }).id;
  }, 60_000);
  afterAll(async () => {
    await api?.ta.services.jobRunner.stop();
    await api?.ta.services.agent.stop();
    await t?.dispose();
  });

  test('a check-in that only reports answers before the write; the batch writes every device in one statement and the counters follow', async () => {
    const a = await enrolledDevice();
    const b = await enrolledDevice();
    await stale(a.id);
    await stale(b.id);
    const before = { a: await stored(a.id), b: await stored(b.id) };
    const written = await reported('written');

    const answer = await checkin(a, { batteryLevel: 40, osVersion: '15' });
    expect(answer.status).toBe(200);
    expect((answer.body as CheckinResponse).status).toBe((await portal('get', `/devices/${a.id}`)).body.status);
    expect((await checkin(b, { batteryLevel: 41, sim: { iccid: b.iccid, carrier: 'AT&T' } })).status).toBe(200);
    // A later report of the same device before the batch: merged (its battery, the OS of the first).
    expect((await checkin(a, { batteryLevel: 39 })).status).toBe(200);
    expect(api.ta.services.agent.presence.size).toBe(2);
    expect(await stored(a.id)).toEqual(before.a);
    expect(await stored(b.id)).toEqual(before.b);

    await api.ta.services.agent.presence.flush();
    expect(api.ta.services.agent.presence.size).toBe(0);
    const after = { a: await stored(a.id), b: await stored(b.id) };
    expect(after.a).toMatchObject({ battery_level: 39, os_version: '15', agent_version: '2.4.1', sim_carrier: 'Telcel' });
    expect(after.b).toMatchObject({ battery_level: 41, os_version: '14', agent_version: '2.4.1', sim_carrier: 'AT&T' });
    expect(after.a.last_seen_at.getTime()).toBeGreaterThan(before.a.last_seen_at.getTime());
    expect(after.b.last_seen_at.getTime()).toBeGreaterThan(before.b.last_seen_at.getTime());
    expect(await reported('written')).toBe(written + 2);
    expect(await factCounts(t.db)).toEqual(await factCountsRecount(t.db));
    expect(await deviceCounts(t.db)).toEqual(await deviceCountsRecount(t.db));
    // Written: the next check-in reads a fresh last-seen time and reports nothing.
    expect((await checkin(a, { batteryLevel: 39 })).status).toBe(200);
    expect(api.ta.services.agent.presence.size).toBe(0);
  });

  test('a batch never moves a last-seen time back, keeps what a device did not report and skips deleted devices', async () => {
    const a = await enrolledDevice();
    const repo = new DeviceRepository(t.db);
    const now = (await stored(a.id)).last_seen_at.getTime();
    expect(await repo.refreshMany([[a.id, { lastSeenAt: new Date(now + 60_000), batteryLevel: 80, agentLockState: 'unlocked' }]])).toBe(1);
    // Older than what is stored (a check-in that moved facts, or another replica, wrote later): skipped.
    expect(await repo.refreshMany([[a.id, { lastSeenAt: new Date(now + 30_000), batteryLevel: 10, osVersion: '9' }]])).toBe(0);
    expect(await stored(a.id)).toMatchObject({ last_seen_at: new Date(now + 60_000), battery_level: 80, os_version: '14' });
    // Only what was reported moves.
    expect(await repo.refreshMany([[a.id, { lastSeenAt: new Date(now + 90_000), sim: { iccid: a.iccid, carrier: 'Movistar' } }]])).toBe(1);
    expect(await stored(a.id)).toMatchObject({ battery_level: 80, os_version: '14', agent_version: '2.4.1', sim_carrier: 'Movistar' });
    expect((await t.db.query('SELECT agent_lock_state FROM devices WHERE id = $1', [a.id])).rows).toEqual([{ agent_lock_state: 'unlocked' }]);

    // A deleted device (registered, never enrolled, deleted through the portal): skipped.
    const gone = await portal('post', '/devices').send({ imei: testImei(8600 + ++serial), deviceType: 1, groupId });
    expect(gone.status).toBe(201);
    const goneId = (gone.body as Device).id;
    expect((await portal('delete', `/devices/${goneId}`)).status).toBe(204);
    const deleted = await stored(goneId);
    expect(await repo.refreshMany([[goneId, { lastSeenAt: new Date(now + 60_000), batteryLevel: 5 }]])).toBe(0);
    expect(await stored(goneId)).toEqual(deleted);
    expect(await factCounts(t.db)).toEqual(await factCountsRecount(t.db));
  });

  test('the writer: a batch of its own after its interval, full batches at once, the database away kept for the next batch, stop writes the rest', async () => {
    const devices = [await enrolledDevice(), await enrolledDevice()];
    const logs = new LogCapture();
    const counted: [PresenceOutcome, number][] = [];
    let away = false;
    // The real database, but for the batches the test makes fail as a lost connection does.
    const db: Db = {
      ...t.db,
      query: (sql, params, options) => (away ? Promise.reject(new Error('Connection terminated unexpectedly')) : t.db.query(sql, params, options)),
    };
    const writer = new PresenceWriter(db, createLogger('info', logs), 50, (outcome, n) => counted.push([outcome, n]));
    const base = (await stored(devices[0]!.id)).last_seen_at.getTime();

    writer.add(devices[0]!.id, { lastSeenAt: new Date(base + 1000), batteryLevel: 61 });
    for (let i = 0; i < 100 && (await stored(devices[0]!.id)).battery_level !== 61; i++) await new Promise((r) => setTimeout(r, 20));
    expect((await stored(devices[0]!.id)).battery_level).toBe(61);
    expect(counted).toEqual([
      ['written', 1],
      ['skipped', 0],
    ]);

    away = true;
    writer.add(devices[1]!.id, { lastSeenAt: new Date(base + 2000), batteryLevel: 62 });
    await writer.flush();
    expect(counted.at(-1)).toEqual(['failed', 1]);
    expect(writer.size).toBe(1);
    expect(logs.lines.at(-1)).toMatchObject({ msg: 'presence not written; retrying with the next batch', devices: 1 });
    away = false;
    await writer.stop();
    expect(writer.size).toBe(0);
    expect((await stored(devices[1]!.id)).battery_level).toBe(62);

    // A full batch is written without waiting for the interval (here: after stop, each report at once).
    const many = new PresenceWriter(t.db, createLogger('info', logs), 60_000, (outcome, n) => counted.push([outcome, n]));
    counted.length = 0;
    for (let i = 0; i < PRESENCE_BATCH_MAX - 1; i++) many.add(1_000_000_000 + i, { lastSeenAt: new Date() });
    expect(many.size).toBe(PRESENCE_BATCH_MAX - 1);
    many.add(devices[0]!.id, { lastSeenAt: new Date(base + 3000), batteryLevel: 63 });
    expect(many.size).toBe(0);
    await many.flush();
    expect((await stored(devices[0]!.id)).battery_level).toBe(63);
    expect(counted).toEqual([
      ['written', 1],
      ['skipped', PRESENCE_BATCH_MAX - 1],
    ]);
  });

  if (engine === 'postgres') {
    test('a row another transaction holds is skipped at once, not waited for; the others are written', async () => {
      const held = await enrolledDevice();
      const free = await enrolledDevice();
      const base = (await stored(free.id)).last_seen_at.getTime();
      const holder = await holdRow(held.id);
      try {
        // Waiting for the held row would never end: the holder lets go only after this answers.
        const n = await new DeviceRepository(t.db).refreshMany([
          [held.id, { lastSeenAt: new Date(base + 1000), batteryLevel: 70 }],
          [free.id, { lastSeenAt: new Date(base + 1000), batteryLevel: 71 }],
        ]);
        expect(n).toBe(1);
      } finally {
        await holder.release();
      }
      expect((await stored(free.id)).battery_level).toBe(71);
      expect((await stored(held.id)).battery_level).toBeNull();
    });
  }

  if (engine === 'postgres') {
    test('a device shown Sin conexión is written in its check-in even while a bulk action holds its row: the check-in waits for it', async () => {
      const device = await enrolledDevice();
      // Not seen for longer than DEVICE_OFFLINE_AFTER_HOURS: the portal shows it Sin conexión.
      await t.db.query(`UPDATE devices SET last_seen_at = now() - interval '30 days' WHERE id = $1`, [device.id]);
      const status = async () => ((await portal('get', `/devices/${device.id}`)).body as Device).status;
      expect(await status()).toBe(DEVICE_STATUS.sin_conexion);
      const holder = await holdRow(device.id);
      let answered = false;
      const answer = checkin(device, { batteryLevel: 64 }).then((res) => {
        answered = true;
        return res;
      });
      try {
        // Still waiting for the row while it is held.
        await new Promise((r) => setTimeout(r, 300));
        expect(answered).toBe(false);
      } finally {
        await holder.release();
      }
      const res = await answer;
      expect(res.status).toBe(200);
      expect(api.ta.services.agent.presence.size).toBe(0);
      const row = await stored(device.id);
      expect(row.battery_level).toBe(64);
      expect(Date.now() - row.last_seen_at.getTime()).toBeLessThan(60_000);
      expect(await status()).not.toBe(DEVICE_STATUS.sin_conexion);
    });
  }

  // Last: it stops the app's agent side, as a shutdown does.
  test('stopping (shutdown) writes the reports recorded so far; a check-in answered while stopping is written at once', async () => {
    const a = await enrolledDevice();
    const b = await enrolledDevice();
    await stale(a.id);
    await stale(b.id);
    expect((await checkin(a, { batteryLevel: 51 })).status).toBe(200);
    expect(api.ta.services.agent.presence.size).toBe(1);
    await api.ta.services.agent.stop();
    expect(api.ta.services.agent.presence.size).toBe(0);
    expect((await stored(a.id)).battery_level).toBe(51);
    expect((await checkin(b, { batteryLevel: 52 })).status).toBe(200);
    await api.ta.services.agent.presence.flush(); // what server/index.ts awaits before closing the database
    expect((await stored(b.id)).battery_level).toBe(52);
  });
});
