/**
 * A customer must not be able to free a financed device. Tried as an attacker would: the store's
 * QR token (or the no-group token, or none) plus the IMEI never re-enroll an enrolled device nor
 * hand out its offline secret; only the portal's one-device authorisation does, once, and it
 * rotates every credential; a refused attempt changes nothing on an enrolled device and is
 * recorded; every refusal has a stable code; an offline code is judged at the instant it was typed;
 * every agent request after enrollment is signed by the key the device enrolled with, and each
 * one replayed changes nothing.
 */
import request from 'supertest';
import { type CheckinResponse, type EnrollResponse, enrollRefusalMessage, type EnrollRefusal } from '../../shared/contracts/agent';
import type { ActionResult, History } from '../../shared/contracts/deviceActions';
import type { Device } from '../../shared/contracts/devices';
import { enrollmentAttemptsResponse, enrollmentTokenCreatedResponse, type EnrollmentTokenCreated } from '../../shared/contracts/enrollment';
import { DEVICE_STATUS } from '../../shared/constants/domain';
import { AGENT_MESSAGES as A } from '../../shared/areaMessages/agent';
import { FIELD_LABELS } from '../../shared/constants/fieldLabels';
import { newAgentKeys, signRequest } from '../../server/agent/requestSignature';
import { issuedCode } from '../../server/devices/offlineCodes';
import { agentClient, enrollAgent, enrollDevice, type AgentIdentity, type EnrolledDevice } from '../helpers/agentFixtures';
import { adminApi, type AdminApi } from '../helpers/adminApi';
import { testImei } from '../helpers/inventoryFixtures';
import { createTestDb, testEngines, type TestDb } from '../helpers/testDb';

const SIM = { iccid: '8952020012345678901', carrier: 'Telcel' };
const HOUR = 3600_000;

describe.each(testEngines())('lock integrity (%s)', (engine) => {
  let t: TestDb;
  let api: AdminApi;
  let admin: Record<string, string>;
  let groupA: number;
  let groupB: number;
  let serial = 0;

  beforeAll(async () => {
    t = await createTestDb(engine);
    api = await adminApi(t.db);
    admin = await api.headersOf('admin@demo.local');
    groupA = (await request(api.ta.app).post('/api/v5/groups').set(admin).send({ name: 'Tienda Centro' })).body.id as number;
    groupB = (await request(api.ta.app).post('/api/v5/groups').set(admin).send({ name: 'Tienda Norte' })).body.id as number;
  });
  afterAll(async () => {
    await api.ta.services.agent.stop();
    await t.dispose();
  });

  const app = () => api.ta.app;
  const portal = (method: 'get' | 'post' | 'put' | 'delete', path: string, who = admin) => request(app())[method](`/api/v5${path}`).set(who);
  const agent = (d: AgentIdentity) => agentClient(app, d);
  const device = async (id: number) => (await portal('get', `/devices/${id}`)).body as Device;
  const act = async (id: number, body: Record<string, unknown>) => {
    const res = await portal('post', `/devices/${id}/actions`).send(body);
    expect(res.status).toBe(201);
    return res.body as ActionResult;
  };
  const groupToken = async (groupId: number | null) =>
    (await portal('post', '/enrollment-tokens').send(groupId === null ? {} : { groupId })).body as EnrollmentTokenCreated;
  const authorize = async (deviceId: number, who = admin) => portal('post', '/enrollment-tokens/reenrollments', who).send({ deviceId });
  const newImei = () => testImei(7000 + ++serial);

  /** What an enrollment could change: the facts, the secret, the live tokens. */
  async function snapshot(id: number) {
    const row = await t.db.query(
      `SELECT lifecycle, lock_state, lock_type, lock_message, pending_command_id, failure_reason, group_id, encode(secret, 'hex') AS secret,
              (SELECT count(*)::int FROM agent_tokens a WHERE a.device_id = d.id AND a.revoked_at IS NULL) AS live_tokens
         FROM devices d WHERE id = $1`,
      [id],
    );
    return row.rows[0];
  }
  const secretOf = async (id: number) =>
    Buffer.from((await t.db.query<{ s: string }>(`SELECT encode(secret, 'hex') AS s FROM devices WHERE id = $1`, [id])).rows[0]!.s, 'hex');

  /** An enrolled device of group A, checked in, locked by the portal with a message (acknowledged). */
  async function lockedDevice(): Promise<EnrolledDevice> {
    const dev = await enrollDevice(app(), admin, { imei: newImei(), groupId: groupA, sim: SIM });
    await agent(dev).checkin({ sim: SIM });
    const lock = await act(dev.id, { action: 0, lockType: 'PorCredito', message: 'Pague en tienda' });
    await agent(dev).checkin({ sim: SIM });
    expect((await agent(dev).ack(lock.command!.id)).status).toBe(200);
    expect((await device(dev.id)).status).toBe(DEVICE_STATUS.bloqueado);
    return dev;
  }

  const refusedWith = (res: request.Response, status: number, code: EnrollRefusal) =>
    expect({ status: res.status, body: res.body as unknown }).toEqual({
      status,
      body: { code, message: code === 'IMEI_TAKEN' ? expect.any(String) : enrollRefusalMessage(code) },
    });

  async function attempts(id: number) {
    const res = await portal('get', `/devices/${id}/enrollments?perPage=50`);
    expect(res.status).toBe(200);
    return enrollmentAttemptsResponse.parse(res.body);
  }

  async function setQrRequired(groupId: number, required: boolean) {
    const url = `/agent-settings/smartphone/restrictions-enrollment?groupId=${groupId}`;
    const loaded = (await portal('get', url)).body as { version: number; values: Record<string, unknown>; overridden: string[] };
    const values = Object.fromEntries(loaded.overridden.map((k) => [k, loaded.values[k]]));
    const saved = await portal('put', url).send({ version: loaded.version, values: { ...values, require_QR_validation: required } });
    expect(saved.status).toBe(200);
  }

  test('takeover: the group token, the no-group token and the IMEI alone never re-enroll an enrolled device', async () => {
    const victim = await lockedDevice();
    const before = await snapshot(victim.id);
    const attacker = async (body: Record<string, unknown>) => (await enrollAgent(app(), { imei: victim.imei, deviceType: 1, sim: SIM, ...body })).res;

    // The store's QR code (the group's token, printed for every buyer) with the IMEI (*#06#).
    refusedWith(await attacker({ enrollmentToken: (await groupToken(groupA)).shortCode }), 409, 'ALREADY_ENROLLED');
    // The IMEI alone, where the group does not require the QR code.
    await setQrRequired(groupA, false);
    try {
      refusedWith(await attacker({}), 409, 'ALREADY_ENROLLED');
    } finally {
      await setQrRequired(groupA, true);
    }
    // The no-group token, for a device with no group.
    const loose = await request(app()).post('/api/v5/devices').set(admin).send({ imei: newImei(), deviceType: 1 });
    const looseDevice = loose.body as Device;
    const enrolledLoose = await enrollAgent(app(), { enrollmentToken: (await groupToken(null)).token, imei: looseDevice.imei, deviceType: 1 });
    expect(enrolledLoose.res.status).toBe(201);
    const looseBefore = await snapshot(looseDevice.id);
    const again = await enrollAgent(app(), { enrollmentToken: (await groupToken(null)).token, imei: looseDevice.imei, deviceType: 1 });
    refusedWith(again.res, 409, 'ALREADY_ENROLLED');
    // Enrolando (enrolled, not checked in yet) is enrolled too.
    expect((await device(looseDevice.id)).status).toBe(DEVICE_STATUS.enrolando);
    expect(await snapshot(looseDevice.id)).toEqual(looseBefore);

    // Nothing changed: the real agent keeps its token and is still told the device is locked.
    expect(await snapshot(victim.id)).toEqual(before);
    const still = await agent(victim).checkin({ sim: SIM });
    expect(still.status).toBe(200);
    expect(still.body as CheckinResponse).toMatchObject({
      status: DEVICE_STATUS.bloqueado,
      lock: { locked: true, lockType: 'PorCredito', message: 'Pague en tienda', temporaryUntil: null },
    });
    // Every attempt is in the device's history and the audit log.
    const history = await attempts(victim.id);
    expect(history.data.filter((a) => a.kind === 'refused').map((a) => [a.code, a.message, a.token, a.by])).toEqual([
      ['ALREADY_ENROLLED', A.enroll.alreadyEnrolled, 'none', `dispositivo ${victim.imei}`],
      ['ALREADY_ENROLLED', A.enroll.alreadyEnrolled, 'group', `dispositivo ${victim.imei}`],
    ]);
    expect(history.data.at(-1)).toMatchObject({ kind: 'enrolled', token: 'group', reenrolled: false });
    const audit = await t.db.query<{ outcome: string; detail: string }>(
      `SELECT outcome, detail FROM audit_log WHERE entity = 'device' AND entity_id = $1 AND action = 'enroll_refused'`,
      [String(victim.id)],
    );
    expect(audit.rows).toEqual([
      { outcome: 'failure', detail: A.enroll.alreadyEnrolled },
      { outcome: 'failure', detail: A.enroll.alreadyEnrolled },
    ]);
  });

  test('Autorizar reenrolamiento: one device, once, within 24 h; new credentials; the lock and pending commands survive; old codes are refused', async () => {
    const dev = await lockedDevice();
    const oldSecret = await secretOf(dev.id);
    expect(oldSecret.toString('base64url')).toBe(dev.enrolled.offlineSecret);
    const oldCode = (await act(dev.id, { action: 9 })).offlineCode!.code;
    const notice = await act(dev.id, { action: 5, title: 'Aviso', message: 'Su pago vence mañana' });
    // Delivered to the old agent, never acknowledged: it goes to the new one.
    expect(((await agent(dev).checkin({ sim: SIM })).body as CheckinResponse).commands.map((c) => c.id)).toEqual([notice.command!.id]);

    // The grant: Dispositivos enrolados plus the LOCK action.
    const soporte = await api.headersOf('soporte@demo.local');
    expect((await authorize(dev.id, soporte)).status).toBe(403);
    const issued = await authorize(dev.id);
    expect(issued.status).toBe(201);
    const grant = enrollmentTokenCreatedResponse.parse(issued.body);
    expect(grant).toMatchObject({ deviceId: dev.id, groupId: null, createdBy: 'admin@demo.local' });
    expect(Date.parse(grant.expiresAt) - Date.parse(grant.createdAt)).toBe(24 * HOUR);
    const authorised = await attempts(dev.id);
    expect(authorised.data[0]).toMatchObject({ kind: 'authorized', by: 'admin@demo.local', expiresAt: grant.expiresAt });

    // Only that device: another one presenting it is refused (and left as it is).
    const other = (await portal('post', '/devices').send({ imei: newImei(), deviceType: 1, groupId: groupA })).body as Device;
    refusedWith((await enrollAgent(app(), { enrollmentToken: grant.token, imei: other.imei, deviceType: 1 })).res, 403, 'ENROLLMENT_OTHER_DEVICE');
    expect((await device(other.id)).status).toBe(DEVICE_STATUS.PRE_ENROLLED);

    // The factory-reset phone enrolls with it (typed as the short code).
    const reset = await enrollAgent(app(), { enrollmentToken: grant.shortCode, imei: dev.imei, deviceType: 1, sim: SIM });
    expect(reset.res.status).toBe(201);
    const answer = reset.res.body as EnrollResponse;
    expect(answer.deviceToken).not.toBe(dev.token);
    expect(answer.offlineSecret).not.toBe(dev.enrolled.offlineSecret);
    expect(Buffer.from(answer.offlineSecret, 'base64url')).toEqual(await secretOf(dev.id));
    expect(answer).toMatchObject({
      deviceId: dev.id,
      status: DEVICE_STATUS.bloqueado,
      lock: { locked: true, lockType: 'PorCredito', message: 'Pague en tienda', temporaryUntil: null },
    });
    const fresh: AgentIdentity = { token: answer.deviceToken, keys: reset.keys };

    // The previous token is revoked at once; the authorisation is spent.
    expect((await agent(dev).checkin()).body).toMatchObject({ code: 'DEVICE_TOKEN_INVALID' });
    refusedWith(
      (await enrollAgent(app(), { enrollmentToken: grant.token, imei: dev.imei, deviceType: 1, sim: SIM })).res,
      401,
      'ENROLLMENT_TOKEN_USED',
    );

    // The new agent's first check-in: still locked, and the command meant for the device.
    const first = (await agent(fresh).checkin({ sim: SIM })).body as CheckinResponse;
    expect(first).toMatchObject({ status: DEVICE_STATUS.bloqueado, lock: { locked: true, message: 'Pague en tienda' } });
    expect(first.commands.map((c) => c.id)).toEqual([notice.command!.id]);

    // A code derived from the previous secret is refused, and shown as voided.
    const stale = await agent(fresh).event({ type: 'offline_code', code: oldCode, redeemedAt: new Date().toISOString() });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: 'OFFLINE_CODE_REJECTED' });
    const history = (await portal('get', `/devices/${dev.id}/history`)).body as History;
    expect(history.data.find((c) => c.action === 9)).toMatchObject({ status: 'cancelled', result: A.enroll.codesVoided });
    // The next code: what the old secret would give is not it; the new secret's is, and it unlocks.
    const next = await act(dev.id, { action: 9 });
    const nonce = (await t.db.query<{ nonce: number }>('SELECT nonce FROM device_commands WHERE id = $1', [next.command!.id])).rows[0]!.nonce;
    const expires = new Date(next.offlineCode!.expiresAt);
    expect(issuedCode(oldSecret, 9, nonce, expires)).not.toBe(next.offlineCode!.code);
    expect(issuedCode(Buffer.from(answer.offlineSecret, 'base64url'), 9, nonce, expires)).toBe(next.offlineCode!.code);
    expect(answer.offlineNonce).toBe(nonce - 1);
    const redeemed = await agent(fresh).event({ type: 'offline_code', code: next.offlineCode!.code, redeemedAt: new Date().toISOString() });
    expect(redeemed.body).toMatchObject({ applied: true, status: DEVICE_STATUS.desbloqueado_offline });

    // A secret is in one enrollment answer and nowhere else.
    const leaked = await t.db.query(`SELECT id FROM audit_log WHERE coalesce(after::text, '') || coalesce(before::text, '') LIKE ANY ($1)`, [
      [dev.enrolled.offlineSecret, answer.offlineSecret].map((s) => `%${s}%`),
    ]);
    expect(leaked.rows).toEqual([]);
    expect(JSON.stringify(await device(dev.id))).not.toContain(answer.offlineSecret);
    expect((await attempts(dev.id)).data.slice(0, 3).map((a) => [a.kind, a.code, a.token, a.reenrolled])).toEqual([
      ['refused', 'ENROLLMENT_TOKEN_USED', 'device', false],
      ['enrolled', null, 'device', true],
      ['authorized', null, null, false],
    ]);
  });

  test('no griefing: a refused attempt on an enrolled device changes nothing; a device awaiting enrollment becomes Fallido', async () => {
    const dev = await lockedDevice();
    const before = await snapshot(dev.id);
    // Another group's token: refused, and the device is not Fallido.
    refusedWith(
      (await enrollAgent(app(), { enrollmentToken: (await groupToken(groupB)).token, imei: dev.imei, deviceType: 1, sim: SIM })).res,
      409,
      'ALREADY_ENROLLED',
    );
    // Even with its own authorisation, a broken restriction (a TV's type) changes nothing; the authorisation still works after.
    const grant = enrollmentTokenCreatedResponse.parse((await authorize(dev.id)).body);
    refusedWith((await enrollAgent(app(), { enrollmentToken: grant.token, imei: dev.imei, deviceType: 2 })).res, 403, 'ENROLLMENT_TYPE_MISMATCH');
    expect(await snapshot(dev.id)).toEqual(before);
    expect(await device(dev.id)).toMatchObject({ status: DEVICE_STATUS.bloqueado, failureReason: null });
    expect((await attempts(dev.id)).data.slice(0, 3).map((a) => [a.kind, a.code])).toEqual([
      ['refused', 'ENROLLMENT_TYPE_MISMATCH'],
      ['authorized', null],
      ['refused', 'ALREADY_ENROLLED'],
    ]);
    expect((await enrollAgent(app(), { enrollmentToken: grant.token, imei: dev.imei, deviceType: 1, sim: SIM })).res.status).toBe(201);

    // A registered device that never enrolled: a broken restriction marks it Fallido with the reason.
    const waiting = (await portal('post', '/devices').send({ imei: newImei(), deviceType: 1, groupId: groupA })).body as Device;
    refusedWith(
      (await enrollAgent(app(), { enrollmentToken: (await groupToken(groupB)).token, imei: waiting.imei, deviceType: 1 })).res,
      403,
      'ENROLLMENT_OTHER_GROUP',
    );
    expect(await device(waiting.id)).toMatchObject({ status: DEVICE_STATUS.fallido, failureReason: A.enroll.otherGroup });
    // … and may still enroll with its own group's token (failed before enrollment).
    expect((await enrollAgent(app(), { enrollmentToken: (await groupToken(groupA)).token, imei: waiting.imei, deviceType: 1 })).res.status).toBe(201);
  });

  test('every refusal carries a stable code and its Spanish message; a bad public key is a 400 naming the field', async () => {
    let clock = Date.now();
    const clockApp = await adminApi(t.db, { deps: { now: () => new Date(clock) } });
    try {
      const headers = await clockApp.headersOf('admin@demo.local');
      const imei = newImei();
      const created = (await request(clockApp.ta.app).post('/api/v5/devices').set(headers).send({ imei, deviceType: 1, groupId: groupA }))
        .body as Device;
      const token = async (validHours: number) =>
        (await request(clockApp.ta.app).post('/api/v5/enrollment-tokens').set(headers).send({ groupId: groupA, validHours }))
          .body as EnrollmentTokenCreated;
      const enroll = async (enrollmentToken: string | null, extra: Record<string, unknown> = {}) =>
        (await enrollAgent(clockApp.ta.app, { enrollmentToken, imei, deviceType: 1, ...extra })).res;

      refusedWith(await enroll('ZZZZ-ZZZZ-ZZZZ'), 401, 'ENROLLMENT_TOKEN_INVALID');
      const replaced = await token(24);
      await token(24); // 'Regenerar' revokes the previous one
      refusedWith(await enroll(replaced.token), 401, 'ENROLLMENT_TOKEN_REVOKED');
      const short = await token(1);
      clock += 2 * HOUR;
      refusedWith(await enroll(short.token), 401, 'ENROLLMENT_TOKEN_EXPIRED');
      refusedWith(await enroll(null), 403, 'ENROLLMENT_TOKEN_REQUIRED');
      refusedWith(
        (await enrollAgent(clockApp.ta.app, { enrollmentToken: (await token(24)).token, imei: newImei(), deviceType: 1 })).res,
        403,
        'NOT_REGISTERED',
      );
      // Recorded on the known device, each with its code; the device still awaits its enrollment.
      const listed = enrollmentAttemptsResponse.parse(
        (await request(clockApp.ta.app).get(`/api/v5/devices/${created.id}/enrollments`).set(headers)).body,
      );
      expect(listed.data.map((a) => [a.code, a.message])).toEqual(
        (['ENROLLMENT_TOKEN_REQUIRED', 'ENROLLMENT_TOKEN_EXPIRED', 'ENROLLMENT_TOKEN_REVOKED', 'ENROLLMENT_TOKEN_INVALID'] as const).map((c) => [
          c,
          enrollRefusalMessage(c),
        ]),
      );
      expect(listed.total).toBe(4);
      expect((await request(clockApp.ta.app).get(`/api/v5/devices/${created.id}`).set(headers)).body).toMatchObject({
        status: DEVICE_STATUS.PRE_ENROLLED,
      });

      // The public key: required, public, on the curve.
      const valid = await token(24);
      const noKey = await request(clockApp.ta.app).post('/agent/v1/enroll').send({ enrollmentToken: valid.token, imei, deviceType: 1 });
      expect(noKey.status).toBe(400);
      expect(noKey.body).toMatchObject({ code: 'VALIDATION', field: 'publicKey' });
      const keys = await newAgentKeys();
      const withPrivate = await enroll(valid.token, { publicKey: { ...keys.publicJwk, d: 'A'.repeat(43) } });
      expect(withPrivate.body).toEqual({ code: 'VALIDATION', field: 'publicKey', message: A.field.publicKeyPrivate(FIELD_LABELS.agent.publicKey) });
      const offCurve = await enroll(valid.token, { publicKey: { ...keys.publicJwk, y: keys.publicJwk.x } });
      expect(offCurve.body).toMatchObject({ code: 'VALIDATION', field: 'publicKey', message: A.field.publicKey(FIELD_LABELS.agent.publicKey) });
      expect((await request(clockApp.ta.app).get(`/api/v5/devices/${created.id}`).set(headers)).body).toMatchObject({
        status: DEVICE_STATUS.PRE_ENROLLED,
      });
      expect((await enroll(valid.token)).status).toBe(201);
    } finally {
      await clockApp.ta.services.agent.stop();
    }
  });

  test('an offline code is judged at the instant it was typed: a late report is accepted before expiry, refused after it', async () => {
    let clock = Date.now();
    const timed = await adminApi(t.db, { deps: { now: () => new Date(clock) } });
    try {
      const headers = await timed.headersOf('admin@demo.local');
      const portalAt = (path: string) => request(timed.ta.app).post(`/api/v5${path}`).set(headers);
      const imei = newImei();
      const created = (await portalAt('/devices').send({ imei, deviceType: 1, groupId: groupA })).body as Device;
      const qr = (await portalAt('/enrollment-tokens').send({ groupId: groupA })).body as EnrollmentTokenCreated;
      const enrolled = await enrollAgent(timed.ta.app, { enrollmentToken: qr.token, imei, deviceType: 1 });
      const me = agentClient(timed.ta.app, { token: (enrolled.res.body as EnrollResponse).deviceToken, keys: enrolled.keys }, { now: () => clock });
      await me.checkin();
      const lockAndCode = async () => {
        const lock = (await portalAt(`/devices/${created.id}/actions`).send({ action: 0, lockType: 'PorCredito' })).body as ActionResult;
        await me.checkin();
        await me.ack(lock.command!.id);
        const code = (await portalAt(`/devices/${created.id}/actions`).send({ action: 9 })).body as ActionResult;
        return { code: code.offlineCode!.code, issuedAt: clock, commandId: code.command!.id };
      };
      const redeem = (code: string, at: number) => me.event({ type: 'offline_code', code, redeemedAt: new Date(at).toISOString() });

      // Typed an hour after issue, reported 100 h later (past its 72 h): accepted, recorded at the instant typed.
      const a = await lockAndCode();
      clock = a.issuedAt + 100 * HOUR;
      expect((await redeem(a.code, a.issuedAt + HOUR)).body).toEqual({ applied: true, status: DEVICE_STATUS.desbloqueado_offline, action: 9 });
      const history = (await request(timed.ta.app).get(`/api/v5/devices/${created.id}/history`).set(headers)).body as History;
      expect(history.data.find((c) => c.id === a.commandId)).toMatchObject({
        status: 'redeemed',
        acknowledgedAt: new Date(a.issuedAt + HOUR).toISOString(),
      });

      // Typed after its expiry: refused, whenever it is reported. The code carries its expiry's
      // UTC day, so issued at 06:00 UTC its 75th hour is still that day (the device accepted it,
      // the server knows the instant: expired); a day later the code itself no longer verifies.
      clock = Date.UTC(new Date(clock).getUTCFullYear(), new Date(clock).getUTCMonth(), new Date(clock).getUTCDate() + 1, 6);
      const b = await lockAndCode();
      clock = b.issuedAt + 100 * HOUR;
      const late = await redeem(b.code, b.issuedAt + 75 * HOUR);
      expect(late.status).toBe(409);
      expect(late.body).toEqual({ code: 'OFFLINE_CODE_EXPIRED', message: A.events.codeExpired });
      const nextDay = await redeem(b.code, b.issuedAt + 90 * HOUR);
      expect(nextDay.body).toEqual({ code: 'OFFLINE_CODE_REJECTED', message: A.events.codeRejected });

      // Reported more than 7 days after it was typed: refused.
      const c = await lockAndCode();
      clock = c.issuedAt + 8 * 24 * HOUR;
      const tooLate = await redeem(c.code, c.issuedAt + HOUR);
      expect(tooLate.body).toEqual({ code: 'OFFLINE_CODE_REPORT_TOO_LATE', message: A.events.reportTooLate(7) });
      // Typed in the future by the device's clock, or without the instant: a 400 naming the field.
      const future = await redeem(c.code, clock + HOUR);
      expect(future.body).toEqual({ code: 'VALIDATION', field: 'redeemedAt', message: A.events.redeemedInFuture });
      const missing = await me.event({ type: 'offline_code', code: c.code });
      expect(missing.body).toMatchObject({ code: 'VALIDATION', field: 'redeemedAt' });
      // Still locked (shown Sin conexión: the clock ran 8 days ahead).
      expect(await snapshot(created.id)).toMatchObject({ lock_state: 'locked', lock_type: 'PorCredito' });
    } finally {
      await timed.ta.services.agent.stop();
    }
  });

  test('signed requests: unsigned, another key, stale, body or path changed are 401 with a stable code; a copied token controls nothing', async () => {
    const dev = await enrollDevice(app(), admin, { imei: newImei(), groupId: groupA });
    const body = JSON.stringify({ wait: 0 });
    const post = (path: string, headers: Record<string, string>, text = body) =>
      request(app()).post(path).set('Authorization', `Bearer ${dev.token}`).set(headers).set('Content-Type', 'application/json').send(text);
    const sign = (overrides: { path?: string; body?: string; now?: number; key?: CryptoKey } = {}) =>
      signRequest(
        overrides.key ?? dev.keys.privateKey,
        { method: 'POST', path: overrides.path ?? '/agent/v1/checkin', body: overrides.body ?? body },
        overrides.now,
      );
    const refusedAs = async (res: Promise<request.Response> | request.Test, code: string) => {
      const r = await res;
      expect({ status: r.status, code: (r.body as { code?: string }).code }).toEqual({ status: 401, code });
    };

    await refusedAs(post('/agent/v1/checkin', {}), 'AGENT_SIGNATURE_MISSING');
    await refusedAs(post('/agent/v1/checkin', { ...(await sign()), 'x-agent-signature': 'no-es-una-firma' }), 'AGENT_SIGNATURE_MALFORMED');
    await refusedAs(post('/agent/v1/checkin', await sign({ now: Date.now() - 6 * 60_000 })), 'AGENT_SIGNATURE_STALE');
    await refusedAs(post('/agent/v1/checkin', await sign({ now: Date.now() + 6 * 60_000 })), 'AGENT_SIGNATURE_STALE');
    expect((await post('/agent/v1/checkin', await sign({ now: Date.now() - 4 * 60_000 }))).status).toBe(200);
    // The token copied off the device, with a key of the thief's own.
    const thief = await newAgentKeys();
    await refusedAs(post('/agent/v1/checkin', await sign({ key: thief.privateKey })), 'AGENT_SIGNATURE_INVALID');
    // The body or the path changed after signing.
    await refusedAs(post('/agent/v1/checkin', await sign(), JSON.stringify({ wait: 0, batteryLevel: 5 })), 'AGENT_SIGNATURE_INVALID');
    await refusedAs(post('/agent/v1/events', await sign(), JSON.stringify({ type: 'offline_lock' })), 'AGENT_SIGNATURE_INVALID');
    await refusedAs(
      request(app())
        .get('/agent/v1/settings')
        .set('Authorization', `Bearer ${dev.token}`)
        .set(await sign()),
      'AGENT_SIGNATURE_INVALID',
    );
    expect((await device(dev.id)).status).toBe(DEVICE_STATUS.enrolado);
  });

  test('every agent call replayed within the window is harmless: the same answer, nothing changed', async () => {
    const dev = await enrollDevice(app(), admin, { imei: newImei(), groupId: groupA, sim: SIM });
    const me = agent(dev);
    await me.checkin({ sim: SIM });
    /** Sends a request signed once, twice: the second is a replay of the first (same headers, same bytes). */
    const twice = async (method: 'GET' | 'POST', path: string, payload?: unknown) => {
      const text = payload === undefined ? undefined : JSON.stringify(payload);
      const headers = await signRequest(dev.keys.privateKey, { method, path, body: text });
      const send = () => {
        const r = (method === 'GET' ? request(app()).get(path) : request(app()).post(path)).set('Authorization', `Bearer ${dev.token}`).set(headers);
        return text === undefined ? r : r.set('Content-Type', 'application/json').send(text);
      };
      const first = await send();
      const facts = await snapshot(dev.id);
      const audited = await api.count('audit_log');
      const second = await send();
      expect(await snapshot(dev.id)).toEqual(facts);
      expect(await api.count('audit_log')).toBe(audited);
      return { first, second };
    };
    const same = ({ first, second }: { first: request.Response; second: request.Response }, status = 200) => {
      expect(first.status).toBe(status);
      expect({ status: second.status, body: second.body as unknown }).toEqual({ status: first.status, body: first.body as unknown });
    };

    // Check-in (with a command delivered again, the same one).
    const lock = await act(dev.id, { action: 0, lockType: 'PorCredito' });
    const checkins = await twice('POST', '/agent/v1/checkin', { sim: SIM, batteryLevel: 50 });
    expect({ ...(checkins.second.body as CheckinResponse), serverTime: '' }).toEqual({ ...(checkins.first.body as CheckinResponse), serverTime: '' });
    expect((checkins.second.body as CheckinResponse).commands.map((c) => c.id)).toEqual([lock.command!.id]);
    // Acknowledgement and rejection: the first result again.
    same(await twice('POST', `/agent/v1/commands/${lock.command!.id}/ack`, {}));
    // Events: applied once, then answered without change.
    for (const event of [
      { type: 'offline_lock' },
      { type: 'tamper_lock', lockType: 'SinKiosko' },
      { type: 'sim_removed' },
      { type: 'temporary_expired' },
    ]) {
      const { second } = await twice('POST', '/agent/v1/events', event);
      expect(second.status).toBe(200);
      expect(second.body).toMatchObject({ applied: false });
    }
    const code = (await act(dev.id, { action: 9 })).offlineCode!.code;
    const redeemed = await twice('POST', '/agent/v1/events', { type: 'offline_code', code, redeemedAt: new Date().toISOString() });
    expect(redeemed.first.body).toMatchObject({ applied: true, action: 9 });
    expect(redeemed.second.body).toMatchObject({ applied: false, action: 9 });
    const notice = await act(dev.id, { action: 5, title: 'Aviso', message: 'Pago pendiente' });
    await me.checkin({ sim: SIM });
    same(await twice('POST', `/agent/v1/commands/${notice.command!.id}/reject`, { reason: 'Pantalla apagada' }));
    // Settings.
    same(await twice('GET', '/agent/v1/settings'));
  });
});
