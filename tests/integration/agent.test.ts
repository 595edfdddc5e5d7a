/**
 * The device side end to end through the real app: a registered device enrolls with the token of
 * its group's QR code, checks in, receives a LOCK requested in the portal on a waiting long poll,
 * acknowledges it and shows 'Bloqueado'; rejections, repeated acknowledgements, other devices'
 * commands, revoked tokens, offline codes, cancellation before delivery, holds, bad bodies; on
 * PostgreSQL, a second replica wakes the long poll the first one holds.
 */
import request from 'supertest';
import type { CheckinResponse, CommandOutcome, EnrollResponse, EventResponse } from '../../shared/contracts/agent';
import type { ActionResult, History } from '../../shared/contracts/deviceActions';
import type { Device } from '../../shared/contracts/devices';
import type { EnrollmentTokenCreated } from '../../shared/contracts/enrollment';
import { DEVICE_STATUS } from '../../shared/constants/domain';
import { AGENT_MESSAGES as A } from '../../shared/areaMessages/agent';
import { agentClient, enrollAgent, enrollDevice, type AgentIdentity } from '../helpers/agentFixtures';
import { adminApi, type AdminApi } from '../helpers/adminApi';
import { testImei } from '../helpers/inventoryFixtures';
import { buildTestApp } from '../helpers/testApp';
import { createTestDb, testEngines, type TestDb } from '../helpers/testDb';

const SIM = { iccid: '8952020012345678901', carrier: 'Telcel' };

describe.each(testEngines())('agent API (%s)', (engine) => {
  let testDb: TestDb;
  let api: AdminApi;
  let admin: Record<string, string>;
  let groupId: number;
  let serial = 0;

  beforeAll(async () => {
    testDb = await createTestDb(engine);
    api = await adminApi(testDb.db);
    admin = await api.headersOf('admin@demo.local');
    const g = await request(api.ta.app).post('/api/v5/groups').set(admin).send({ name: 'Sucursal Agentes' });
    groupId = (g.body as { id: number }).id;
  });
  afterAll(async () => {
    await api.ta.services.agent.stop();
    await testDb.dispose();
  });

  const app = () => api.ta.app;
  const portal = (method: 'get' | 'post' | 'delete', path: string) => request(app())[method](`/api/v5${path}`).set(admin);
  const agent = (d: AgentIdentity) => agentClient(app, d);
  const device = async (id: number) => (await portal('get', `/devices/${id}`)).body as Device;
  const act = (id: number, body: Record<string, unknown>) => portal('post', `/devices/${id}/actions`).send(body);

  /** A registered device of the group, its group token, and its enrollment. */
  const enrolledDevice = () => enrollDevice(app(), admin, { imei: testImei(9000 + ++serial), groupId, sim: SIM });

  test('enroll → enrolando, first check-in → enrolado; the QR token answers a device token and the offline secret', async () => {
    const dev = await enrolledDevice();
    const { id, enrolled } = dev;
    expect(enrolled.status).toBe(DEVICE_STATUS.enrolando);
    expect(enrolled.deviceToken).toMatch(/^mld_[\w-]{43}$/);
    expect(Buffer.from(enrolled.offlineSecret, 'base64url')).toHaveLength(32);
    expect((await device(id)).status).toBe(DEVICE_STATUS.enrolando);
    const first = await agent(dev).checkin({ osVersion: '14', sim: SIM });
    expect(first.status).toBe(200);
    expect((first.body as CheckinResponse).status).toBe(DEVICE_STATUS.enrolado);
    const d = await device(id);
    expect(d).toMatchObject({
      status: DEVICE_STATUS.enrolado,
      osVersion: '14',
      agentVersion: '2.4.1',
      simIccid: SIM.iccid,
      simCarrier: 'Telcel',
      groupId,
    });
    expect(d.enrolledAt).not.toBeNull();
  });

  test('a LOCK requested in the portal wakes the waiting check-in; the acknowledgement makes the device Bloqueado', async () => {
    const dev = await enrolledDevice();
    const { id } = dev;
    await agent(dev).checkin();
    const started = Date.now();
    const poll = agent(dev)
      .checkin({ wait: 10 })
      .then((r) => r);
    await new Promise((r) => setTimeout(r, 300)); // the check-in is waiting
    const locked = await act(id, { action: 0, lockType: 'PorCredito', message: 'Pague su mensualidad' });
    expect(locked.status).toBe(201);
    expect((await device(id)).status).toBe(DEVICE_STATUS.bloqueando);
    const res = await poll;
    expect(Date.now() - started).toBeLessThan(5000);
    const answer = res.body as CheckinResponse;
    expect(answer.commands).toEqual([
      expect.objectContaining({
        id: (locked.body as ActionResult).command!.id,
        action: 0,
        payload: { lockType: 'PorCredito', message: 'Pague su mensualidad', stolen: false },
      }),
    ]);
    expect(answer.status).toBe(DEVICE_STATUS.bloqueando);
    const commandId = answer.commands[0]!.id;
    // Not acknowledged yet: delivered again, never a second command.
    expect(((await agent(dev).checkin()).body as CheckinResponse).commands.map((c) => c.id)).toEqual([commandId]);

    const ack = await agent(dev).ack(commandId);
    expect(ack.status).toBe(200);
    expect(ack.body as CommandOutcome).toMatchObject({ id: commandId, status: 'acknowledged', deviceStatus: DEVICE_STATUS.bloqueado });
    expect(await device(id)).toMatchObject({
      status: DEVICE_STATUS.bloqueado,
      lockType: 'PorCredito',
      lockMessage: 'Pague su mensualidad',
      pendingCommand: null,
    });
    const again = await agent(dev).ack(commandId);
    expect(again.body).toEqual(ack.body);
    const history = (await portal('get', `/devices/${id}/history`)).body as History;
    const entry = history.data.find((c) => c.id === commandId)!;
    expect(entry.status).toBe('acknowledged');
    expect(entry.deliveredAt).not.toBeNull();
    expect(entry.acknowledgedAt).not.toBeNull();
    expect(((await agent(dev).checkin()).body as CheckinResponse).commands).toEqual([]);
    const audit = await api.db.query<{ action: string; actor_email: string }>(
      "SELECT action, actor_email FROM audit_log WHERE entity = 'device' AND entity_id = $1 ORDER BY id",
      [String(id)],
    );
    expect(audit.rows.map((r) => r.action)).toEqual(['create', 'enroll', 'lock', 'acknowledge']);
    expect(audit.rows.at(-1)!.actor_email).toMatch(/^dispositivo \d{15}$/);
  });

  test('a RELEASE waits out its cancel window; after Entregar ahora the next check-in delivers it and the ack releases the device', async () => {
    const dev = await enrolledDevice();
    await agent(dev).checkin();
    const release = (await act(dev.id, { action: 2 }).expect(201)).body as ActionResult;
    expect(((await agent(dev).checkin()).body as CheckinResponse).commands).toEqual([]);
    await portal('post', `/devices/${dev.id}/release/deliver-now`).expect(200);
    const answer = (await agent(dev).checkin()).body as CheckinResponse;
    expect(answer.commands.map((c) => [c.id, c.action])).toEqual([[release.command!.id, 2]]);
    // Received: no longer cancellable, and nothing left to deliver early.
    await portal('post', `/devices/${dev.id}/actions/${release.command!.id}/cancel`).expect(409);
    await portal('post', `/devices/${dev.id}/release/deliver-now`).expect(409);
    expect((await agent(dev).ack(release.command!.id)).status).toBe(200);
    expect(await device(dev.id)).toMatchObject({ status: DEVICE_STATUS.liberado, pendingCommand: null });
  });

  test('unlock: desbloqueando → desbloqueado → activo at the next check-in; a rejection → fallido with the reason', async () => {
    const dev = await enrolledDevice();
    const { id } = dev;
    await agent(dev).checkin();
    const lock = (await act(id, { action: 0, lockType: 'PorCredito' })).body as ActionResult;
    await agent(dev).ack(lock.command!.id);
    const unlock = (await act(id, { action: 1 })).body as ActionResult;
    expect(unlock.device!.status).toBe(DEVICE_STATUS.desbloqueando);
    await agent(dev).checkin();
    await agent(dev).ack(unlock.command!.id);
    expect((await device(id)).status).toBe(DEVICE_STATUS.desbloqueado);
    await agent(dev).checkin();
    expect((await device(id)).status).toBe(DEVICE_STATUS.activo);

    const restrictions = (await act(id, { action: 8 })).body as ActionResult;
    expect(restrictions.device!.status).toBe(DEVICE_STATUS.configurando);
    await agent(dev).checkin();
    const rejected = await agent(dev).reject(restrictions.command!.id, 'Permiso de administrador revocado');
    expect(rejected.body as CommandOutcome).toMatchObject({
      status: 'rejected',
      result: 'Permiso de administrador revocado',
      deviceStatus: DEVICE_STATUS.fallido,
    });
    expect(await device(id)).toMatchObject({
      status: DEVICE_STATUS.fallido,
      failureReason: 'Permiso de administrador revocado',
      pendingCommand: null,
    });
    // A repeated answer is the first result, whatever it says.
    expect((await agent(dev).ack(restrictions.command!.id)).body).toMatchObject({ status: 'rejected' });
  });

  test('a device token reaches only its own commands (403), unknown or revoked tokens are 401, deletion revokes', async () => {
    const a = await enrolledDevice();
    const b = await enrolledDevice();
    await agent(a).checkin();
    const lock = (await act(a.id, { action: 0, lockType: 'PorCredito' })).body as ActionResult;
    const other = await agent(b).ack(lock.command!.id);
    expect(other.status).toBe(403);
    expect(other.body).toMatchObject({ code: 'OTHER_DEVICE', message: A.auth.otherDevice });
    expect((await device(a.id)).status).toBe(DEVICE_STATUS.bloqueando);
    expect((await agent({ ...a, token: 'mld_desconocido' }).checkin()).status).toBe(401);
    expect((await request(app()).post('/agent/v1/checkin').send({})).body).toMatchObject({ code: 'DEVICE_TOKEN_MISSING' });

    // Enrolado and activo devices cannot be deleted (reference §4): a failed one can.
    const restrictions = (await act(b.id, { action: 8 })).body as ActionResult;
    await agent(b).checkin();
    await agent(b).reject(restrictions.command!.id, 'Sin espacio');
    expect((await portal('delete', `/devices/${b.id}`)).status).toBe(204);
    const revoked = await agent(b).checkin();
    expect(revoked.status).toBe(401);
    expect(revoked.body).toMatchObject({ code: 'DEVICE_TOKEN_INVALID', message: A.auth.invalidToken });
  });

  test('a command not yet delivered can be cancelled; once delivered it cannot', async () => {
    const dev = await enrolledDevice();
    const { id } = dev;
    await agent(dev).checkin();
    const lock = (await act(id, { action: 0, lockType: 'PorCredito' })).body as ActionResult;
    expect(lock.command!.cancellable).toBe(true);
    // Soporte sees the devices page but may not lock: it may not cancel a lock either.
    const soporte = await api.headersOf('soporte@demo.local');
    const refused = await request(app()).post(`/api/v5/devices/${id}/actions/${lock.command!.id}/cancel`).set(soporte);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'ACTION_NOT_GRANTED' });
    const cancelled = await portal('post', `/devices/${id}/actions/${lock.command!.id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: 'cancelled', cancellable: false });
    expect(await device(id)).toMatchObject({ status: DEVICE_STATUS.enrolado, pendingCommand: null });
    expect(((await agent(dev).checkin()).body as CheckinResponse).commands).toEqual([]);

    const second = (await act(id, { action: 0, lockType: 'PorCredito' })).body as ActionResult;
    await agent(dev).checkin();
    const late = await portal('post', `/devices/${id}/actions/${second.command!.id}/cancel`);
    expect(late.status).toBe(409);
    expect((await device(id)).pendingCommand).toMatchObject({ id: second.command!.id });
    expect((await device(id)).pendingCommand!.deliveredAt).not.toBeNull();
  });

  test('an offline code is redeemed once: desbloqueado offline, then applied: false; a wrong code is refused', async () => {
    const dev = await enrolledDevice();
    const { id } = dev;
    await agent(dev).checkin();
    const lock = (await act(id, { action: 0, lockType: 'PorCredito' })).body as ActionResult;
    await agent(dev).ack(lock.command!.id);
    const issued = (await act(id, { action: 9 })).body as ActionResult;
    const code = issued.offlineCode!.code;
    const first = await agent(dev).event({ type: 'offline_code', code, redeemedAt: new Date().toISOString() });
    expect(first.status).toBe(200);
    expect(first.body as EventResponse).toEqual({ applied: true, status: DEVICE_STATUS.desbloqueado_offline, action: 9 });
    const again = await agent(dev).event({ type: 'offline_code', code, redeemedAt: new Date().toISOString() });
    expect(again.body as EventResponse).toMatchObject({ applied: false, action: 9 });
    const wrong = await agent(dev).event({
      type: 'offline_code',
      code: code === '00000000' ? '11111111' : '00000000',
      redeemedAt: new Date().toISOString(),
    });
    expect(wrong.status).toBe(409);
    expect(wrong.body).toMatchObject({ code: 'OFFLINE_CODE_REJECTED' });
    const history = (await portal('get', `/devices/${id}/history`)).body as History;
    expect(history.data.find((c) => c.action === 9)).toMatchObject({ status: 'redeemed' });
  });

  test('a changed SIM locks a phone Por Cambio SIM (lock_sim_change applies by default)', async () => {
    const dev = await enrolledDevice();
    const { id } = dev;
    await agent(dev).checkin({ sim: SIM });
    const res = await agent(dev).checkin({ sim: { iccid: '8952030098765432109', carrier: 'AT&T' } });
    expect((res.body as CheckinResponse).status).toBe(DEVICE_STATUS.bloqueado);
    expect(await device(id)).toMatchObject({ lockType: 'PorCambioSIM', simIccid: '8952030098765432109', simCarrier: 'AT&T' });
  });

  test('hold → Suspendido, resume → back; the portal route needs the LOCK grant', async () => {
    const dev = await enrolledDevice();
    const { id } = dev;
    await agent(dev).checkin();
    const held = await portal('post', `/devices/${id}/hold`);
    expect(held.status).toBe(200);
    expect((held.body as Device).status).toBe(DEVICE_STATUS.SUSPENDED);
    expect((await portal('post', `/devices/${id}/hold`)).status).toBe(409);
    const resumed = await portal('delete', `/devices/${id}/hold`);
    expect((resumed.body as Device).status).toBe(DEVICE_STATUS.enrolado);
    const soporte = await api.headersOf('soporte@demo.local');
    expect((await request(app()).post(`/api/v5/devices/${id}/hold`).set(soporte)).status).toBe(403);
  });

  test('enrollment is refused without changes: no token (require_QR_validation), a wrong token, an unregistered device', async () => {
    const imei = testImei(9500);
    const created = (await portal('post', '/devices').send({ imei, deviceType: 1, groupId })).body as Device;
    const none = (await enrollAgent(app(), { imei, deviceType: 1 })).res;
    expect(none.status).toBe(403);
    expect(none.body).toMatchObject({ code: 'ENROLLMENT_TOKEN_REQUIRED', message: A.enroll.tokenRequired });
    const wrong = (await enrollAgent(app(), { enrollmentToken: 'AAAA-BBBB-CCCC', imei, deviceType: 1 })).res;
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ code: 'ENROLLMENT_TOKEN_INVALID', message: A.enroll.invalidToken });
    expect((await device(created.id)).status).toBe(DEVICE_STATUS.PRE_ENROLLED);
    const qr = (await portal('post', '/enrollment-tokens').send({ groupId })).body as EnrollmentTokenCreated;
    const stranger = (await enrollAgent(app(), { enrollmentToken: qr.token, imei: testImei(9501), deviceType: 1 })).res;
    expect(stranger.status).toBe(403);
    expect(stranger.body).toMatchObject({ code: 'NOT_REGISTERED' });
    // The no-group token enrolls only devices with no group: this one is in a group.
    const noGroup = (await portal('post', '/enrollment-tokens').send({})).body as EnrollmentTokenCreated;
    const outside = (await enrollAgent(app(), { enrollmentToken: noGroup.token, imei, deviceType: 1 })).res;
    expect(outside.status).toBe(403);
    expect(outside.body).toMatchObject({ code: 'ENROLLMENT_OTHER_GROUP' });
    expect(await device(created.id)).toMatchObject({ status: DEVICE_STATUS.fallido, failureReason: A.enroll.otherGroup });
    // Valid credentials, wrong device type: the registered device shows fallido with the reason.
    const mismatch = (await enrollAgent(app(), { enrollmentToken: qr.token, imei, deviceType: 2 })).res;
    expect(mismatch.status).toBe(403);
    expect(await device(created.id)).toMatchObject({ status: DEVICE_STATUS.fallido, failureReason: A.enroll.typeMismatch });
  });

  test('bad bodies are 400 naming the field, never a 500', async () => {
    const dev = await enrolledDevice();
    const bad = await agent(dev).checkin({ wait: 90 });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'VALIDATION', field: 'wait' });
    const badSim = await agent(dev).checkin({ sim: { iccid: 'abc' } });
    expect(badSim.body).toMatchObject({ field: 'sim.iccid' });
    const badEvent = await agent(dev).event({ type: 'explode' });
    expect(badEvent.status).toBe(400);
    const badEnroll = (await enrollAgent(app(), { imei: '123', deviceType: 1 })).res;
    expect(badEnroll.body).toMatchObject({ code: 'VALIDATION', field: 'imei' });
    expect((await agent(dev).reject(1, '')).status).toBe(400);
  });

  test('/metrics counts check-ins by outcome, open long polls, pending commands by action and the command latency', async () => {
    const dev = await enrolledDevice();
    const { id } = dev;
    await agent(dev).checkin();
    await act(id, { action: 5, title: 'Aviso', message: 'Su pago vence mañana' });
    const answer = (await agent(dev).checkin()).body as CheckinResponse;
    await agent(dev).ack(answer.commands[0]!.id);
    const text = (await request(app()).get('/metrics')).text;
    expect(text).toMatch(/agent_checkins_total\{outcome="commands"\} [1-9]/);
    expect(text).toMatch(/agent_checkins_total\{outcome="empty"\} [1-9]/);
    expect(text).toContain('agent_long_polls_open 0');
    expect(text).toMatch(/agent_pending_commands\{action="0"\} \d+/);
    expect(text).toMatch(/agent_command_latency_seconds_count\{stage="delivered",action="5"\} [1-9]/);
    expect(text).toMatch(/agent_command_latency_seconds_count\{stage="acknowledged",action="5"\} [1-9]/);
  });

  test("the server's clock locks a temporary unlock again once its date has passed", async () => {
    let clock = Date.now();
    const timed = await adminApi(testDb.db, { deps: { now: () => new Date(clock) } });
    const headers = await timed.headersOf('admin@demo.local');
    const imei = testImei(9700);
    const created = (await request(timed.ta.app).post('/api/v5/devices').set(headers).send({ imei, deviceType: 1, groupId })).body as Device;
    const qr = (await request(timed.ta.app).post('/api/v5/enrollment-tokens').set(headers).send({ groupId })).body as EnrollmentTokenCreated;
    const enrolled = await enrollAgent(timed.ta.app, { enrollmentToken: qr.token, imei, deviceType: 1 });
    const timedAgent = agentClient(
      timed.ta.app,
      { token: (enrolled.res.body as EnrollResponse).deviceToken, keys: enrolled.keys },
      { now: () => clock },
    );
    const call = (path: string, body: Record<string, unknown> = {}) => timedAgent.send('POST', path, body);
    await call('/agent/v1/checkin');
    const lock = (await request(timed.ta.app).post(`/api/v5/devices/${created.id}/actions`).set(headers).send({ action: 0, lockType: 'SinKiosko' }))
      .body as ActionResult;
    await call('/agent/v1/checkin');
    await call(`/agent/v1/commands/${lock.command!.id}/ack`);
    const until = new Date(clock + 2 * 3600_000).toISOString();
    const unlock = (await request(timed.ta.app).post(`/api/v5/devices/${created.id}/actions`).set(headers).send({ action: 1, until }))
      .body as ActionResult;
    expect(unlock.device!.status).toBe(DEVICE_STATUS.TEMPORARY_UNLOCKING);
    await call('/agent/v1/checkin');
    await call(`/agent/v1/commands/${unlock.command!.id}/ack`);
    const get = async () => (await request(timed.ta.app).get(`/api/v5/devices/${created.id}`).set(headers)).body as Device;
    expect(await get()).toMatchObject({ status: DEVICE_STATUS.TEMPORARY_ACTIVE, temporaryUntil: until });
    expect(await timed.ta.services.agent.service.expireTemporaryUnlocks()).toBe(0);
    clock += 3 * 3600_000;
    expect(await timed.ta.services.agent.service.expireTemporaryUnlocks()).toBe(1);
    expect(await get()).toMatchObject({ status: DEVICE_STATUS.bloqueado, lockType: 'SinKiosko', temporaryUntil: null });
    const audit = await testDb.db.query<{ actor_email: string }>(
      "SELECT actor_email FROM audit_log WHERE entity = 'device' AND entity_id = $1 AND action = 'temporary_expired'",
      [String(created.id)],
    );
    expect(audit.rows).toEqual([{ actor_email: 'sistema' }]);
  });

  test('offline overlay: a device not seen for DEVICE_OFFLINE_AFTER_HOURS shows Sin conexión until its next check-in', async () => {
    let clock = Date.now();
    const timed = await adminApi(testDb.db, { deps: { now: () => new Date(clock) } });
    const headers = await timed.headersOf('admin@demo.local');
    const imei = testImei(9800);
    const created = (await request(timed.ta.app).post('/api/v5/devices').set(headers).send({ imei, deviceType: 2, groupId })).body as Device;
    const qr = (await request(timed.ta.app).post('/api/v5/enrollment-tokens').set(headers).send({ groupId })).body as EnrollmentTokenCreated;
    const enrolled = await enrollAgent(timed.ta.app, { enrollmentToken: qr.shortCode, imei, deviceType: 2 });
    const checkin = () =>
      agentClient(timed.ta.app, { token: (enrolled.res.body as EnrollResponse).deviceToken, keys: enrolled.keys }, { now: () => clock }).checkin();
    const get = async () => ((await request(timed.ta.app).get(`/api/v5/devices/${created.id}`).set(headers)).body as Device).status;
    await checkin();
    expect(await get()).toBe(DEVICE_STATUS.enrolado);
    clock += (timed.ta.config.deviceOfflineAfterHours + 1) * 3600_000;
    expect(await get()).toBe(DEVICE_STATUS.sin_conexion);
    expect(((await checkin()).body as CheckinResponse).status).toBe(DEVICE_STATUS.enrolado);
    expect(await get()).toBe(DEVICE_STATUS.enrolado);
  });

  test('rate limits: per device token (429 with Retry-After), enrollments per client IP (this host exempt when the setting says so)', async () => {
    const limited = await adminApi(testDb.db, {
      env: { AGENT_RATE_LIMIT_PER_MINUTE: '3', AGENT_ENROLL_RATE_LIMIT_PER_MINUTE: '2', TRUST_PROXY: '1', AGENT_ENROLL_EXEMPT_LOOPBACK: 'true' },
    });
    try {
      const dev = await enrolledDevice();
      const checkin = () => agentClient(limited.ta.app, dev).checkin();
      for (let i = 0; i < 3; i++) expect((await checkin()).status).toBe(200);
      const refused = await checkin();
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ code: 'RATE_LIMITED', message: A.auth.rateLimited });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      // Another device is not affected.
      const other = await enrolledDevice();
      expect((await agentClient(limited.ta.app, other).checkin()).status).toBe(200);

      const enroll = (ip?: string) => {
        const r = request(limited.ta.app).post('/agent/v1/enroll');
        return (ip ? r.set('X-Forwarded-For', ip) : r).send({
          enrollmentToken: 'AAAA-BBBB-CCCC',
          imei: testImei(9900),
          deviceType: 1,
          publicKey: dev.keys.publicJwk,
        });
      };
      expect((await enroll('203.0.113.7')).status).toBe(401);
      expect((await enroll('203.0.113.7')).status).toBe(401);
      expect((await enroll('203.0.113.7')).status).toBe(429);
      expect((await enroll('198.51.100.9')).status).toBe(401);
      for (let i = 0; i < 4; i++) expect((await enroll()).status).toBe(401);
    } finally {
      await limited.ta.services.agent.stop();
    }
  });

  test('stopping (shutdown) answers the waiting check-ins at once, empty, and later ones do not wait', async () => {
    const replica = await adminApi(testDb.db);
    const dev = await enrolledDevice();
    const poll = (wait: number) => agentClient(replica.ta.app, dev).checkin({ wait });
    await poll(0);
    const started = Date.now();
    const waiting = poll(20).then((r) => r);
    await new Promise((r) => setTimeout(r, 300));
    await replica.ta.services.agent.stop();
    const res = await waiting;
    expect(res.status).toBe(200);
    expect((res.body as CheckinResponse).commands).toEqual([]);
    const again = await poll(20);
    expect((again.body as CheckinResponse).commands).toEqual([]);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  if (engine === 'postgres') {
    test('a second replica on the same database wakes the long poll the first one holds', async () => {
      const dev = await enrolledDevice();
      const { id } = dev;
      const other = await buildTestApp(testDb.db, { env: { DEMO_PASSWORD: 'Demo-Portal-2026!' } });
      try {
        await agent(dev).checkin();
        const started = Date.now();
        const poll = agentClient(other.app, dev).checkin({ wait: 15 });
        await new Promise((r) => setTimeout(r, 500));
        const lock = (await act(id, { action: 0, lockType: 'PorCredito' })).body as ActionResult;
        const res = await poll;
        expect((res.body as CheckinResponse).commands.map((c) => c.id)).toEqual([lock.command!.id]);
        expect(Date.now() - started).toBeLessThan(5000);
      } finally {
        await other.services.agent.stop();
      }
    });
  }
});
