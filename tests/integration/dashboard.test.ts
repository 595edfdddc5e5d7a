/**
 * The dashboards' API: numbers against a seeded set (each KPI equal to the devices list's total
 * with the filter its card links to), the numbers moving as an agent enrolls, is locked, goes
 * offline and is released, days counted in the browser's zone, bad parameters, and the counters
 * they read staying equal to a recount (GROUP BY) after random changes through the API, the
 * agent's side and direct writes.
 */
import request from 'supertest';
import type { EnrollResponse } from '../../shared/contracts/agent';
import { DASHBOARD_DAYS, androidDashboardResponse, generalDashboardResponse, type GeneralDashboard } from '../../shared/contracts/dashboard';
import type { DeviceList } from '../../shared/contracts/devices';
import type { EnrollmentTokenCreated } from '../../shared/contracts/enrollment';
import type { Job } from '../../shared/contracts/jobs';
import { DEVICE_ACTION } from '../../shared/constants/deviceActions';
import { DEVICE_STATUS } from '../../shared/constants/domain';
import { OFFLINE_OVERLAID } from '../../shared/deviceStatus';
import { IN_FLIGHT_STATUSES } from '../../server/devices/deviceQueries';
import { DashboardRepository } from '../../server/api/dashboard/dashboardRepository';
import { lastDays } from '../../server/api/dashboard/dashboardService';
import { AGENT_CLOCK_MS, AgentClock } from '../../server/agent/agentClock';
import { createLogger } from '../../server/logger';
import { prng } from '../../tools/seed/prng';
import { adminApi, type AdminApi } from '../helpers/adminApi';
import { agentClient, enrollAgent } from '../helpers/agentFixtures';
import { activityCounts, activityRecount, factCounts, factCountsRecount, releasedCounts, releasedRecount } from '../helpers/counterRecounts';
import { insertDevices, insertGroup, setPendingCommand, testImei, type DeviceFixture } from '../helpers/inventoryFixtures';
import { createTestDb, testEngines, type TestDb } from '../helpers/testDb';

const HOUR = 3600_000;

describe.each(testEngines())('dashboard API (%s)', (engine) => {
  let t: TestDb;
  let api: AdminApi;
  let admin: Record<string, string>;
  let imeiSerial = 0;

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
  const get = (path: string) => request(app()).get(`/api/v5${path}`).set(admin);
  const general = async (tz?: string) => {
    const res = await get(`/dashboard/general${tz ? `?tz=${encodeURIComponent(tz)}` : ''}`);
    expect(res.status).toBe(200);
    // The answer is exactly the contract's (strict objects: nothing missing, nothing extra).
    return generalDashboardResponse.parse(res.body);
  };
  const android = async () => {
    const res = await get('/dashboard/android');
    expect(res.status).toBe(200);
    return androidDashboardResponse.parse(res.body);
  };
  const listTotal = async (query: string) => {
    const res = await get(`/devices?stage=enrolled&perPage=1${query ? `&${query}` : ''}`);
    expect([query, res.status, res.body]).toEqual([query, 200, expect.anything()]);
    const body = res.body as DeviceList;
    expect(body.totalIsEstimate).toBe(false);
    return body.total;
  };
  const reset = async () => {
    for (const table of ['job_results', 'jobs', 'device_commands', 'agent_tokens', 'enrollment_tokens']) await t.db.query(`DELETE FROM ${table}`);
    await t.db.query('DELETE FROM devices');
    await t.db.query('DELETE FROM device_groups');
    await t.db.query('DELETE FROM activity_hourly');
    await t.db.query('DELETE FROM offline_snapshot');
  };

  test('an empty fleet answers zeros, 30 days and empty lists', async () => {
    await reset();
    const g = await general();
    expect(g.totals).toEqual({
      devices: 0,
      smartphones: 0,
      tvs: 0,
      preEnrolled: 0,
      locked: 0,
      offline: 0,
      inFlight: 0,
      pendingCommands: 0,
      released: 0,
      releasedThisMonth: 0,
    });
    expect(g.byStatus).toEqual([]);
    expect(g.days).toHaveLength(30);
    expect(g.commandsPerDay).toEqual([]);
    expect(g.topGroups).toEqual([]);
    expect(g.stuckCommands).toEqual({ total: 0, rows: [] });
    const a = await android();
    expect(a.osVersions).toEqual([]);
    expect(a.agentVersions.smartphone).toEqual({ current: '3.4.1', currentCount: 0, outdatedCount: 0, unknownCount: 0, rows: [] });
  });

  test('a seeded fleet: each KPI equals the devices list total its card links to', async () => {
    await reset();
    const north = await insertGroup(t.db, 'Norte');
    const south = await insertGroup(t.db, 'Sur');
    const old = new Date(Date.now() - 30 * 24 * HOUR);
    const phone = (f: DeviceFixture = {}): DeviceFixture => ({ deviceType: 1, brand: 'Motorola', model: 'Moto G24', osVersion: '14', ...f });
    const tv = (f: DeviceFixture = {}): DeviceFixture => ({ deviceType: 2, brand: 'Hisense', model: 'A6', osVersion: '11', ...f });
    const ids = await insertDevices(t.db, [
      phone({ groupId: north, agentVersion: '3.4.1', simCarrier: 'Telcel' }),
      phone({ groupId: north, agentVersion: '3.4.1', simCarrier: 'Telcel', lockState: 'locked' }),
      phone({ groupId: north, agentVersion: '3.3.0', simCarrier: 'AT&T', lockState: 'locked' }),
      // Locked but not seen for 30 days: 'Sin conexión', not 'Bloqueado'.
      phone({ groupId: south, agentVersion: '3.3.0', simCarrier: 'Movistar', lockState: 'locked', lastSeenAt: old }),
      phone({ groupId: south, agentVersion: '3.4.1', lastSeenAt: old }),
      phone({ lifecycle: 'released', agentVersion: '3.3.0', brand: 'Samsung', model: 'Galaxy A15' }),
      // Released at its last contact, 45 days ago: not this month.
      phone({ lifecycle: 'released', lastSeenAt: new Date(Date.now() - 45 * 24 * HOUR) }),
      // Reconfigured while locked: 'Configurado bloqueado', locked too.
      phone({ brand: 'Samsung', model: 'Galaxy A15', osVersion: '13', lifecycle: 'reconfigured', lockState: 'locked' }),
      tv({ groupId: south, agentVersion: '1.8.0' }),
      tv({ groupId: south, agentVersion: '1.7.2' }),
      tv({ brand: 'Samsung', model: 'Crystal UHD', osVersion: null }),
      phone({ lifecycle: 'pre_enrolled', brand: 'Xiaomi', model: 'Redmi 13C' }),
      tv({ lifecycle: 'pre_enrolled' }),
    ]);
    // One LOCK in flight (requested 30 hours ago: stuck), one UNLOCK just requested.
    const stuck = await setPendingCommand(t.db, ids[0]!, DEVICE_ACTION.LOCK);
    await t.db.query(
      `UPDATE device_commands SET requested_at = now() - interval '30 hours', deliver_after = now() - interval '30 hours' WHERE id = $1`,
      [stuck],
    );
    await setPendingCommand(t.db, ids[1]!, DEVICE_ACTION.UNLOCK);
    // The current lock-app versions are the bootstrap's: 3.4.1 for phones, 1.8.0 for TVs.

    const g = await general();
    expect(g.totals).toEqual({
      devices: 11,
      smartphones: 8,
      tvs: 3,
      preEnrolled: 2,
      // Bloqueando (the lock in flight), Bloqueado, Configurado bloqueado.
      locked: 3,
      offline: 2,
      inFlight: 2,
      pendingCommands: 2,
      released: 2,
      releasedThisMonth: 1,
    });
    // Each card's number is the list's total with the card's filter.
    expect(await listTotal('')).toBe(g.totals.devices);
    expect(await listTotal('deviceType=1')).toBe(g.totals.smartphones);
    expect(await listTotal('deviceType=2')).toBe(g.totals.tvs);
    expect(await listTotal('locked=true')).toBe(g.totals.locked);
    // The card counts every locked state: each of them as the status filter lists it.
    const lockedStatuses = [DEVICE_STATUS.bloqueado, DEVICE_STATUS.configurado_bloqueado, DEVICE_STATUS.bloqueando];
    const perStatus = await Promise.all(lockedStatuses.map((s) => listTotal(`status=${s}`)));
    expect(perStatus).toEqual([1, 1, 1]);
    expect(perStatus.reduce((n, c) => n + c, 0)).toBe(g.totals.locked);
    expect(await listTotal('locked=false')).toBe(g.totals.devices - g.totals.locked);
    expect(await listTotal(`status=${DEVICE_STATUS.sin_conexion}`)).toBe(g.totals.offline);
    expect(await listTotal(`status=${DEVICE_STATUS.liberado}`)).toBe(g.totals.released);
    expect(await listTotal(`status=${DEVICE_STATUS.liberado}&releasedFrom=${encodeURIComponent(g.monthStart)}`)).toBe(g.totals.releasedThisMonth);
    const monthStart = new Date(g.monthStart);
    expect([monthStart.getUTCDate(), monthStart.getUTCHours()]).toEqual([1, 0]);
    const bad = await get('/devices?releasedFrom=ayer');
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('Liberado desde');
    expect(await listTotal('inFlight=true')).toBe(g.totals.inFlight);
    const pre = await get('/devices?stage=preEnrolled&perPage=1');
    expect((pre.body as DeviceList).total).toBe(g.totals.preEnrolled);
    // Every status slice equals its filter, and they sum to the devices.
    for (const s of g.byStatus) expect([s.status, await listTotal(`status=${s.status}`)]).toEqual([s.status, s.count]);
    expect(g.byStatus.reduce((n, s) => n + s.count, 0)).toBe(g.totals.devices);
    expect(g.topGroups).toEqual([
      { groupId: south, name: 'Sur', count: 4 },
      { groupId: null, name: null, count: 4 },
      { groupId: north, name: 'Norte', count: 3 },
    ]);
    expect(g.stuckCommands.total).toBe(1);
    const stuckRow = (
      await t.db.query<{ requested_at: Date; imei: string; last_seen_at: Date }>(
        'SELECT c.requested_at, d.imei, d.last_seen_at FROM device_commands c JOIN devices d ON d.id = c.device_id WHERE c.id = $1',
        [stuck],
      )
    ).rows[0]!;
    expect(g.stuckCommands.rows).toEqual([
      {
        commandId: stuck,
        deviceId: ids[0],
        imei: stuckRow.imei,
        deviceType: 1,
        action: DEVICE_ACTION.LOCK,
        requestedAt: new Date(stuckRow.requested_at).toISOString(),
        deliveredAt: null,
        lastSeenAt: new Date(stuckRow.last_seen_at).toISOString(),
      },
    ]);
    const today = g.days[g.days.length - 1]!;
    expect(g.enrollmentsPerDay).toEqual([
      { deviceType: 1, counts: g.days.map((d) => (d === today ? 8 : 0)) },
      { deviceType: 2, counts: g.days.map((d) => (d === today ? 3 : 0)) },
    ]);
    expect(g.commandsPerDay.find((s) => s.action === DEVICE_ACTION.UNLOCK)?.counts.at(-1)).toBe(1);

    const a = await android();
    expect(a.osVersions).toEqual([
      { value: '14', smartphones: 5, tvs: 0 },
      { value: '11', smartphones: 0, tvs: 2 },
      { value: '13', smartphones: 1, tvs: 0 },
      { value: null, smartphones: 0, tvs: 1 },
    ]);
    expect(a.models.slice(0, 2)).toEqual([
      { value: 'Moto G24', brand: 'Motorola', smartphones: 5, tvs: 0 },
      { value: 'A6', brand: 'Hisense', smartphones: 0, tvs: 2 },
    ]);
    expect(a.otherModels).toEqual({ smartphones: 0, tvs: 0 });
    expect(a.agentVersions.smartphone).toEqual({
      current: '3.4.1',
      currentCount: 3,
      outdatedCount: 2,
      unknownCount: 1,
      rows: [
        { value: '3.4.1', count: 3, current: true },
        { value: '3.3.0', count: 2, current: false },
        { value: null, count: 1, current: false },
      ],
    });
    expect(a.agentVersions.tv).toMatchObject({ current: '1.8.0', currentCount: 1, outdatedCount: 1, unknownCount: 1 });
    // The agent-version links: the list's totals agree (released devices no longer run the agent: neither counts them).
    expect(await listTotal('deviceType=1&agentVersion=3.4.1')).toBe(3);
    expect(await listTotal('deviceType=1&agentVersionNot=3.4.1')).toBe(2);
    expect(a.carriers).toEqual([
      { value: 'Telcel', count: 2 },
      { value: 'AT&T', count: 1 },
      { value: 'Movistar', count: 1 },
      { value: null, count: 2 },
    ]);
    expect(a.brands).toEqual([
      { value: 'Motorola', smartphones: 5, tvs: 0 },
      { value: 'Hisense', smartphones: 0, tvs: 2 },
      { value: 'Samsung', smartphones: 1, tvs: 1 },
    ]);
  });

  test('the numbers move as an agent enrolls, is locked, goes offline and is released', async () => {
    await reset();
    const groupId = await insertGroup(t.db, 'Agentes');
    const imei = testImei(7700 + ++imeiSerial);
    const created = await request(app())
      .post('/api/v5/devices')
      .set(admin)
      .send({ imei, deviceType: 1, brand: 'Motorola', model: 'Moto G24', groupId });
    expect(created.status).toBe(201);
    const id = (created.body as { id: number }).id;
    let g = await general();
    expect(g.totals).toMatchObject({ devices: 0, preEnrolled: 1 });

    const qr = await request(app()).post('/api/v5/enrollment-tokens').set(admin).send({ groupId });
    const { res: enrolled, keys } = await enrollAgent(app(), {
      enrollmentToken: (qr.body as EnrollmentTokenCreated).shortCode,
      imei,
      deviceType: 1,
      osVersion: '14',
      agentVersion: '3.4.1',
      sim: { iccid: '8952020012345678901', carrier: 'Telcel' },
    });
    expect(enrolled.status).toBe(201);
    const client = agentClient(app, { token: (enrolled.body as EnrollResponse).deviceToken, keys });
    const agent = (path: string, body: Record<string, unknown> = {}) => client.send('POST', `/agent/v1${path}`, body);
    expect((await agent('/checkin')).status).toBe(200);
    g = await general();
    expect(g.totals).toMatchObject({ devices: 1, preEnrolled: 0, inFlight: 0 });
    expect(g.enrollmentsPerDay).toEqual([{ deviceType: 1, counts: g.days.map((_, i) => (i === g.days.length - 1 ? 1 : 0)) }]);
    let a = await android();
    expect(a.osVersions).toEqual([{ value: '14', smartphones: 1, tvs: 0 }]);
    expect(a.carriers).toEqual([{ value: 'Telcel', count: 1 }]);
    expect(a.agentVersions.smartphone.rows).toEqual([{ value: '3.4.1', count: 1, current: true }]);

    // Locked from the portal: in flight until the agent acknowledges, then 'Bloqueado'.
    const lock = await request(app()).post(`/api/v5/devices/${id}/actions`).set(admin).send({ action: DEVICE_ACTION.LOCK, lockType: 'PorCredito' });
    expect(lock.status).toBe(201);
    g = await general();
    // Being locked counts as locked (the card's Bloqueando).
    expect(g.totals).toMatchObject({ inFlight: 1, pendingCommands: 1, locked: 1 });
    expect(g.commandsPerDay).toEqual([{ action: DEVICE_ACTION.LOCK, counts: g.days.map((_, i) => (i === g.days.length - 1 ? 1 : 0)) }]);
    const commandId = (lock.body as { command: { id: number } }).command.id;
    expect((await agent('/checkin')).status).toBe(200);
    expect((await agent(`/commands/${commandId}/ack`)).status).toBe(200);
    g = await general();
    expect(g.totals).toMatchObject({ inFlight: 0, pendingCommands: 0, locked: 1, offline: 0 });

    // Not seen for longer than the threshold: 'Sin conexión' instead of 'Bloqueado' once the
    // server's clock has counted the offline devices again (it ticks every 30 s).
    await t.db.query(`UPDATE devices SET last_seen_at = now() - interval '30 days' WHERE id = $1`, [id]);
    g = await general();
    expect(g.totals).toMatchObject({ locked: 1, offline: 0 });
    const clock = new AgentClock(api.ta.services.agent.service, createLogger('silent'), AGENT_CLOCK_MS, api.ta.services.dashboard);
    await t.db.query(`UPDATE offline_snapshot SET computed_at = now() - interval '26 seconds'`);
    await clock.tick();
    g = await general();
    expect(g.totals).toMatchObject({ locked: 0, offline: 1 });
    expect(g.byStatus).toEqual([{ status: DEVICE_STATUS.sin_conexion, count: 1 }]);

    // Back in contact: a request finding the snapshot older than a minute counts again itself.
    expect((await agent('/checkin')).status).toBe(200);
    await t.db.query(`UPDATE offline_snapshot SET computed_at = now() - interval '61 seconds'`);
    g = await general();
    expect(g.totals).toMatchObject({ locked: 1, offline: 0 });

    // The agent reports a new version; then the device is released.
    expect((await agent('/checkin', { agentVersion: '3.5.0' })).status).toBe(200);
    await api.ta.services.agent.presence.flush(); // a report: written with the replica's next batch
    a = await android();
    expect(a.agentVersions.smartphone.rows).toEqual([{ value: '3.5.0', count: 1, current: false }]);
    const release = await request(app()).post(`/api/v5/devices/${id}/actions`).set(admin).send({ action: DEVICE_ACTION.RELEASE });
    expect(release.status).toBe(201);
    const releaseId = (release.body as { command: { id: number } }).command.id;
    await t.db.query('UPDATE device_commands SET deliver_after = now() WHERE id = $1', [releaseId]);
    expect((await agent('/checkin')).status).toBe(200);
    expect((await agent(`/commands/${releaseId}/ack`)).status).toBe(200);
    g = await general();
    expect(g.totals).toMatchObject({ released: 1, releasedThisMonth: 1, locked: 0, offline: 0 });
  });

  test('the in-flight indexes, and the list indexes that leave those devices out, name exactly the statuses of a command in flight (shared/deviceStatus.ts)', async () => {
    const defs = (
      await t.db.query<{ indexname: string; indexdef: string }>(
        `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'devices' AND indexdef LIKE '%ARRAY[%'
          ORDER BY indexname`,
      )
    ).rows;
    // Six hold only devices in flight (0013, 0021, 0022), twelve leave them out (0021).
    expect(defs.filter((d) => d.indexdef.includes('= ANY (ARRAY[')).map((d) => d.indexname)).toEqual([
      'devices_in_flight_created',
      'devices_in_flight_group_imei',
      'devices_in_flight_imei',
      'devices_in_flight_last_seen',
      'devices_in_flight_type_imei',
      'devices_in_flight_version_imei',
    ]);
    expect(defs.filter((d) => d.indexdef.includes('<> ALL (ARRAY[')).length).toBe(12);
    expect(defs).toHaveLength(18);
    for (const { indexdef } of defs) {
      const codes = /ARRAY\[([^\]]+)\]/
        .exec(indexdef)?.[1]
        ?.split(',')
        .map((c) => Number(c.trim()));
      expect([...(codes ?? [])].sort((a, b) => a - b)).toEqual([...IN_FLIGHT_STATUSES].sort((a, b) => a - b));
    }
  });

  test('days are counted in the zone asked for; a bad zone is a Spanish 400 naming the field', async () => {
    await reset();
    const [id] = await insertDevices(t.db, [{}]);
    // 03:30 UTC yesterday is still the day before in Mexico City (UTC-6).
    const today = new Date();
    const at = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - 1, 3, 30));
    await t.db.query(`INSERT INTO device_commands (device_id, action, status, requested_at) VALUES ($1, $2, 'acknowledged', $3)`, [
      id,
      DEVICE_ACTION.SEND_NOTIFICATION,
      at,
    ]);
    const utc = await general('UTC');
    const mx = await general('America/Mexico_City');
    const dayOf = (g: GeneralDashboard) => g.days[g.commandsPerDay.find((s) => s.action === DEVICE_ACTION.SEND_NOTIFICATION)!.counts.indexOf(1)];
    expect(dayOf(utc)).toBe(at.toISOString().slice(0, 10));
    expect(dayOf(mx)).toBe(new Date(at.getTime() - 6 * HOUR).toISOString().slice(0, 10));
    expect(mx.timeZone).toBe('America/Mexico_City');

    const bad = await get('/dashboard/general?tz=Marte/Olympus');
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('Zona horaria');
  });

  test('an hour counts on the day its first instant falls on in the zone, across summer-time changes and zones off whole hours', async () => {
    await reset();
    // Around the 2026 changes: Havana leaves summer time at 01:00 (midnight comes twice) and
    // enters it at midnight (no midnight), Santiago at midnight, New York at 02:00; Kolkata is
    // UTC+5:30, Lord Howe changes by 30 minutes.
    const cases: [zone: string, now: string][] = [
      ['UTC', '2026-11-15T12:00:00Z'],
      ['America/Mexico_City', '2026-11-15T05:59:00Z'],
      ['America/Havana', '2026-11-20T04:30:00Z'],
      ['America/Havana', '2026-03-20T12:00:00Z'],
      ['America/Santiago', '2026-04-20T03:00:00Z'],
      ['America/Santiago', '2026-09-20T12:00:00Z'],
      ['America/New_York', '2026-11-10T04:59:00Z'],
      ['Asia/Kolkata', '2026-11-15T18:29:00Z'],
      ['Australia/Lord_Howe', '2026-04-20T12:00:00Z'],
    ];
    // Every UTC hour from February to late November (each case's 30 days and more), two kinds,
    // a count that names the hour.
    await t.db.query(
      `INSERT INTO activity_hourly (hour, kind, key, n)
       SELECT h, k, (extract(epoch FROM h)::bigint / 3600) % 3, (extract(epoch FROM h)::bigint / 3600) % 97 + 1
         FROM generate_series(timestamptz '2026-02-10T00:00:00Z', timestamptz '2026-11-25T00:00:00Z', interval '1 hour') h, (VALUES (1), (2)) k(k)`,
    );
    const repo = new DashboardRepository(t.db);
    for (const [zone, at] of cases) {
      const now = new Date(at);
      const days = lastDays(now, zone, DASHBOARD_DAYS);
      const { activity } = await repo.general(now, zone, 5, now, engine === 'pglite');
      // The definition, row by row: the day of the hour's first instant in the zone.
      const expected = (
        await t.db.query<{ day: string; kind: number; key: number; n: number }>(
          `SELECT day, kind, key, sum(n)::int AS n
             FROM (SELECT to_char(hour AT TIME ZONE $2, 'YYYY-MM-DD') AS day, kind, key, n FROM activity_hourly WHERE hour <= $1) r
            WHERE day = ANY($3) GROUP BY 1, 2, 3`,
          [now, zone, days],
        )
      ).rows;
      const sorted = (rows: { day: string; kind: number; key: number; n: number }[]) => rows.map((r) => `${r.day} ${r.kind} ${r.key} ${r.n}`).sort();
      expect([zone, at, sorted(activity)]).toEqual([zone, at, sorted(expected)]);
      expect([zone, at, new Set(activity.map((r) => r.day)).size]).toEqual([zone, at, DASHBOARD_DAYS]);
    }
  });

  test("this month's releases in a zone whose offset is not whole hours: the hour that straddles the month's start counted exactly", async () => {
    await reset();
    // Kolkata is UTC+5:30: its month starts at hh:30 UTC, inside a UTC hour of released_hourly.
    const zone = 'Asia/Kolkata';
    const monthStart = (await t.db.query<{ at: Date }>(`SELECT date_trunc('month', now() AT TIME ZONE $1) AT TIME ZONE $1 AS at`, [zone])).rows[0]!
      .at;
    expect(monthStart.getUTCMinutes()).toBe(30);
    const at = (minutes: number) => new Date(monthStart.getTime() + minutes * 60_000);
    // Released at their last contact (the fixture inserts them released): 20 and 1 minutes before
    // the month's start (the same UTC hour as the next two), 0 and 20 minutes after, 2 hours after,
    // and 40 days before.
    const ids = await insertDevices(
      t.db,
      [-20, -1, 0, 20, 120, -40 * 24 * 60].map((m): DeviceFixture => ({ lifecycle: 'released', lastSeenAt: at(m) })),
    );
    const releasedFrom = `status=${DEVICE_STATUS.liberado}&releasedFrom=${encodeURIComponent(monthStart.toISOString())}`;
    const expectReleased = async (n: number) => {
      expect((await general(zone)).totals.releasedThisMonth).toBe(n);
      expect(await listTotal(releasedFrom)).toBe(n);
      expect(await releasedCounts(t.db)).toEqual(await releasedRecount(t.db));
    };
    await expectReleased(3);
    // Counted out: soft-deleted (the one at the start), hard-deleted (20 minutes after), back in
    // operation (2 hours after); the one a minute before, released again now: counted in.
    await request(app()).delete(`/api/v5/devices/${ids[2]}`).set(admin).expect(204);
    await t.db.query('DELETE FROM devices WHERE id = $1', [ids[3]]);
    await t.db.query(`UPDATE devices SET lifecycle = 'operating' WHERE id = $1`, [ids[4]]);
    await expectReleased(0);
    await t.db.query(`UPDATE devices SET lifecycle = 'operating' WHERE id = $1`, [ids[1]]);
    await t.db.query(`UPDATE devices SET lifecycle = 'released' WHERE id = $1`, [ids[1]]);
    await expectReleased(1);
  });

  test('the counters equal a recount after random changes (API, agent side, direct writes)', async () => {
    await reset();
    const rnd = prng(2026);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
    const groups = [await insertGroup(t.db, 'Uno'), await insertGroup(t.db, 'Dos')];
    const brands = ['Motorola', 'Samsung', null] as const;
    const versions = ['3.3.0', '3.4.1', null] as const;
    const carriers = ['Telcel', 'AT&T', null] as const;
    const live = async () =>
      (await t.db.query<{ id: number }>('SELECT id FROM devices WHERE deleted_at IS NULL ORDER BY id')).rows.map((r) => Number(r.id));

    const ops: ((step: number) => Promise<void>)[] = [
      // Fixtures of any lifecycle and facts (several rows in one statement through the fixture loop).
      async () => {
        await insertDevices(
          t.db,
          Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => ({
            deviceType: pick([1, 2] as const),
            lifecycle: pick(['operating', 'enrolled', 'pre_enrolled', 'released'] as const),
            brand: pick(brands),
            model: pick(['A', 'B', null]),
            osVersion: pick(['13', '14', null]),
            agentVersion: pick(versions),
            simCarrier: pick(carriers),
            groupId: pick([...groups, null]),
          })),
        );
      },
      // Registration through the API (pre-enrolled: not counted until enrolled).
      async (step) => {
        const res = await request(app())
          .post('/api/v5/devices')
          .set(admin)
          .send({ imei: testImei(50_000 + step), deviceType: pick([1, 2]), brand: pick(['Motorola', 'Samsung']), model: 'X' });
        expect(res.status).toBe(201);
      },
      // Edits through the API change counted facts (type, brand, model).
      async () => {
        const ids = await live();
        if (!ids.length) return;
        const id = pick(ids);
        const current = (await get(`/devices/${id}`)).body as { imei: string; lifecycle?: string };
        await request(app())
          .put(`/api/v5/devices/${id}`)
          .set(admin)
          .send({ imei: current.imei, deviceType: pick([1, 2]), brand: pick(['LG', 'Samsung']), model: pick(['Q', 'R']) });
      },
      // The agent's side: reported facts move (one row), or none move (a check-in's last_seen_at).
      async () => {
        const ids = await live();
        if (!ids.length) return;
        await t.db.query('UPDATE devices SET os_version = $2, agent_version = $3, sim_carrier = $4 WHERE id = $1', [
          pick(ids),
          pick(['14', '15']),
          pick(versions),
          pick(carriers),
        ]);
        await t.db.query('UPDATE devices SET last_seen_at = now() WHERE id = $1', [pick(ids)]);
      },
      // Enrollment of the pre-enrolled (many rows in one statement).
      async () => {
        await t.db.query(
          `UPDATE devices SET lifecycle = 'enrolled', enrolled_at = now(), last_seen_at = now() WHERE lifecycle = 'pre_enrolled' AND id % 2 = 0`,
        );
      },
      // Release (the trigger stamps released_at).
      async () => {
        const ids = await live();
        if (!ids.length) return;
        await t.db.query(`UPDATE devices SET lifecycle = 'released' WHERE id = $1 AND lifecycle NOT IN ('pre_enrolled', 'released')`, [pick(ids)]);
      },
      // A lock through the API (a command row), and a bulk lock of a group (one statement per batch).
      async () => {
        const ids = await live();
        if (!ids.length) return;
        await request(app())
          .post(`/api/v5/devices/${pick(ids)}/actions`)
          .set(admin)
          .send({ action: DEVICE_ACTION.LOCK, lockType: 'PorCredito' });
      },
      async () => {
        api.ta.services.jobRunner.jobs.batchSize = 3;
        const job = await request(app())
          .post('/api/v5/devices/bulk-actions')
          .set(admin)
          .send({
            selection: { filter: { groupId: String(pick(groups)) } },
            payload: { action: DEVICE_ACTION.SEND_NOTIFICATION, title: 'Aviso', message: 'Pago' },
          });
        if (job.status === 202) {
          await api.ta.services.jobRunner.idle();
          expect(((await get(`/jobs/${(job.body as Job).id}`)).body as Job).status).toBe('completed');
        }
      },
      // Soft delete through the API, and a hard delete of a pre-enrolled device (no history).
      async () => {
        const ids = await live();
        if (ids.length)
          await request(app())
            .delete(`/api/v5/devices/${pick(ids)}`)
            .set(admin);
        const pre = (
          await t.db.query<{ id: number }>(
            `SELECT id FROM devices WHERE lifecycle = 'pre_enrolled' AND id NOT IN (SELECT device_id FROM device_commands) LIMIT 1`,
          )
        ).rows;
        if (pre.length) await t.db.query('DELETE FROM devices WHERE id = $1', [pre[0]!.id]);
      },
    ];

    const offline = async () => (await t.db.query<{ counts: Record<string, number> }>('SELECT counts FROM offline_snapshot')).rows[0]!.counts;
    const offlineRecount = async () =>
      Object.fromEntries(
        (
          await t.db.query<{ s: string; n: number }>(
            `SELECT base_status::text AS s, count(*)::int AS n FROM devices
              WHERE deleted_at IS NULL AND base_status IN (${OFFLINE_OVERLAID.join(', ')}) AND last_seen_at < now() - interval '72 hours' GROUP BY 1`,
          )
        ).rows.map((r) => [r.s, r.n]),
      );

    const pending = async () => (await t.db.query(`SELECT action, n::int AS n FROM pending_command_counts WHERE n <> 0 ORDER BY 1`)).rows;
    const pendingRecount = async () =>
      (await t.db.query(`SELECT action, count(*)::int AS n FROM device_commands WHERE status = 'pending' GROUP BY 1 ORDER BY 1`)).rows;

    for (let step = 0; step < 60; step++) {
      await pick(ops)(step);
      expect([step, await factCounts(t.db)]).toEqual([step, await factCountsRecount(t.db)]);
      expect([step, await pending()]).toEqual([step, await pendingRecount()]);
      expect([step, await activityCounts(t.db)]).toEqual([step, await activityRecount(t.db)]);
      expect([step, await releasedCounts(t.db)]).toEqual([step, await releasedRecount(t.db)]);
      if (step % 10 === 9) {
        // Some devices go quiet, then the clock counts them.
        await t.db.query(`UPDATE devices SET last_seen_at = now() - interval '5 days' WHERE id % 3 = $1 AND last_seen_at IS NOT NULL`, [step % 3]);
        await api.ta.services.dashboard.refreshOffline(0);
        expect([step, await offline()]).toEqual([step, await offlineRecount()]);
      }
    }
    // The answer sums the counters it reads.
    const g = await general();
    const devices = (
      await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM devices WHERE deleted_at IS NULL AND lifecycle <> 'pre_enrolled'`)
    ).rows[0]!.n;
    expect(g.totals.devices).toBe(devices);
    expect(g.byStatus.reduce((n, s) => n + s.count, 0)).toBe(devices);
  });
});
