/**
 * The agent settings API end to end through the real app, on both engines: each section's global
 * values and group overrides (versions, history, audit, optimistic concurrency, validation on the
 * merged values), lock-screen logos, business apps, lock-app versions, the overview, the page
 * permissions, and what reaches the agents: the check-in's settingsVersion, GET /agent/v1/settings
 * with its ETag, the server's own enrollment and SIM rules, and a simulated agent refetching.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import fc from 'fast-check';
import request from 'supertest';
import {
  defaultsOf,
  fieldsOf,
  LOGO_MAX_BYTES,
  sectionsOf,
  type SettingsSectionKey,
  type SettingsValues,
  settingField,
} from '../../shared/agentSettings';
import { agentSettingsResponse, type AgentSettingsAnswer, type CheckinResponse, type EnrollResponse } from '../../shared/contracts/agent';
import {
  businessAppListResponse,
  businessAppResponse,
  lockAppListResponse,
  lockAppResponse,
  logoResponse,
  settingsBody,
  settingsOverviewResponse,
  settingsSectionResponse,
  type BusinessApp,
  type LockAppVersion,
  type SettingsSectionAnswer,
} from '../../shared/contracts/agentSettings';
import type { Device } from '../../shared/contracts/devices';
import type { EnrollmentTokenCreated } from '../../shared/contracts/enrollment';
import { DEVICE_STATUS, type DeviceTypeCode } from '../../shared/constants/domain';
import { PATHS } from '../../shared/constants/routes';
import { AGENT_SETTINGS_MESSAGES as M } from '../../shared/areaMessages/agentSettings';
import { AGENT_MESSAGES } from '../../shared/areaMessages/agent';
import { newAgentKeys } from '../../server/agent/requestSignature';
import { SimulatedAgent } from '../../tools/simulator/simulatedAgent';
import { agentClient, enrollAgent, type AgentIdentity } from '../helpers/agentFixtures';
import { adminApi, type AdminApi } from '../helpers/adminApi';
import { testImei } from '../helpers/inventoryFixtures';
import { asSent, sendJson } from '../helpers/randomBodies';
import { createTestDb, testEngines, type TestDb } from '../helpers/testDb';

type Slug = 'smartphone' | 'tv';
const SLUG: Record<DeviceTypeCode, Slug> = { 1: 'smartphone', 2: 'tv' };
const SECTION_SLUG: Record<SettingsSectionKey, string> = {
  enrollment: 'restrictions-enrollment',
  lock: 'restrictions-lock',
  release: 'restrictions-release',
  screen: 'screen-design',
};
const BASE = '/api/v5/agent-settings';
const SIM = { iccid: '8952020012345678901', carrier: 'Telcel' };
const OTHER_SIM = { iccid: '8952030098765432109', carrier: 'AT&T' };
const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const HEX_UPPER = sha('macrolock').toUpperCase();

// Real small images -----------------------------------------------------------------------

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}
/** A valid RGBA PNG of one colour (signature, IHDR, IDAT, IEND); `size` pads it with a text chunk to exactly that many bytes. */
function png(width: number, height: number, rgba: [number, number, number, number], size?: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8); // 8 bits, RGBA, deflate, no filter method, no interlace
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgba).flat())]);
  const idat = zlib.deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  const parts = [Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), pngChunk('IHDR', ihdr), pngChunk('IDAT', idat)];
  const end = pngChunk('IEND', Buffer.alloc(0));
  if (size !== undefined) {
    const used = parts.reduce((n, p) => n + p.length, 0) + end.length + 12;
    parts.push(pngChunk('tEXt', Buffer.concat([Buffer.from('Comment\0', 'latin1'), Buffer.alloc(size - used - 8, 0x61)])));
  }
  return Buffer.concat([...parts, end]);
}
/** A valid baseline JPEG: 8×8 grey (one DC and one AC Huffman code, every coefficient zero). */
function jpeg(): Buffer {
  const seg = (marker: number, body: Buffer) => Buffer.concat([Buffer.from([0xff, marker, (body.length + 2) >> 8, (body.length + 2) & 0xff]), body]);
  const oneCode = (tableClass: number) =>
    Buffer.concat([Buffer.from([tableClass]), Buffer.from([1, ...Array<number>(15).fill(0)]), Buffer.from([0])]);
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    seg(0xe0, Buffer.from([0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0])),
    seg(0xdb, Buffer.concat([Buffer.from([0]), Buffer.alloc(64, 1)])),
    seg(0xc0, Buffer.from([8, 0, 8, 0, 8, 1, 1, 0x11, 0])),
    seg(0xc4, oneCode(0x00)),
    seg(0xc4, oneCode(0x10)),
    seg(0xda, Buffer.from([1, 1, 0x00, 0, 63, 0])),
    Buffer.from([0x3f]),
    Buffer.from([0xff, 0xd9]),
  ]);
}
/** supertest's parser for a binary answer: the raw bytes. */
const binary = (res: unknown, cb: (err: Error | null, body: unknown) => void) => {
  const stream = res as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  stream.on('end', () => cb(null, Buffer.concat(chunks)));
};

const pick = (values: SettingsValues, keys: readonly string[]): SettingsValues => Object.fromEntries(keys.map((k) => [k, values[k]!]));
const keysOf = (t: DeviceTypeCode, s: SettingsSectionKey) => fieldsOf(t, s).map((f) => f.key);

/** The response, after checking its status. */
function expectStatus(res: request.Response, status: number): request.Response {
  expect(res.status).toBe(status);
  return res;
}

async function until(cond: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`tiempo agotado esperando: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.each(testEngines())('agent settings API (%s)', (engine) => {
  let t: TestDb;
  let api: AdminApi;
  let admin: Record<string, string>;
  let norte: number;
  let sur: number;
  let centro: number;
  let serial = 0;
  /** The agent version each device enrolled by this file reports (by its token). */
  const reported = new Map<string, { type: DeviceTypeCode; version: string }>();

  const app = () => api.ta.app;
  const lastAudit = async () => (await t.db.query<Record<string, unknown>>('SELECT * FROM audit_log ORDER BY id DESC LIMIT 1')).rows[0]!;
  const auditCount = async () => Number((await t.db.query<{ n: number }>('SELECT count(*) AS n FROM audit_log')).rows[0]!.n);
  const tableState = async () => [
    (await t.db.query('SELECT device_type, group_id, settings, version, updated_by FROM agent_settings ORDER BY device_type, group_id NULLS FIRST'))
      .rows,
    (await t.db.query('SELECT id, version FROM agent_settings_history ORDER BY id')).rows,
    (await t.db.query('SELECT sha256 FROM agent_logos ORDER BY sha256')).rows,
    (await t.db.query('SELECT * FROM business_apps ORDER BY id')).rows,
    (await t.db.query('SELECT * FROM business_app_groups ORDER BY app_id, group_id')).rows,
    (await t.db.query('SELECT id, device_type, version_app, version_name, is_current, sha256, release_notes FROM lock_app_versions ORDER BY id'))
      .rows,
    await auditCount(),
  ];

  const scope = (groupId?: number | null) => (groupId ? { groupId: String(groupId) } : {});
  const get = (path: string, who = admin) => request(app()).get(`${BASE}${path}`).set(who);
  const put = (type: DeviceTypeCode, s: SettingsSectionKey, body: unknown, groupId?: number | null, who = admin) =>
    request(app())
      .put(`${BASE}/${SLUG[type]}/${SECTION_SLUG[s]}`)
      .query(scope(groupId))
      .set(who)
      .send(body as object);
  async function section(type: DeviceTypeCode, s: SettingsSectionKey, groupId?: number | null, who = admin): Promise<SettingsSectionAnswer> {
    const res = await request(app()).get(`${BASE}/${SLUG[type]}/${SECTION_SLUG[s]}`).query(scope(groupId)).set(who);
    expect(res.status).toBe(200);
    return settingsSectionResponse.parse(res.body);
  }
  /** Saves exactly these values with the version loaded now (a 200 expected). */
  async function save(type: DeviceTypeCode, s: SettingsSectionKey, values: SettingsValues, groupId?: number | null): Promise<SettingsSectionAnswer> {
    const loaded = await section(type, s, groupId);
    const res = await put(type, s, { version: loaded.version, values }, groupId);
    expect({ status: res.status, body: res.body as unknown }).toEqual({ status: 200, body: expect.anything() });
    return settingsSectionResponse.parse(res.body);
  }
  /** The global values of the section as the page sends them, with `patch` changed. */
  const patchGlobal = async (type: DeviceTypeCode, s: SettingsSectionKey, patch: SettingsValues) =>
    save(type, s, { ...(await section(type, s)).values, ...patch });
  /** A group's overrides of the section with `patch` added (the other overrides kept). */
  const patchGroup = async (type: DeviceTypeCode, s: SettingsSectionKey, groupId: number, patch: SettingsValues) => {
    const loaded = await section(type, s, groupId);
    return save(type, s, { ...pick(loaded.values, loaded.overridden), ...patch }, groupId);
  };

  // Devices through the agent API ---------------------------------------------------------

  const agent = (device: AgentIdentity) => {
    const client = agentClient(app, device);
    return {
      checkin: async (body: Record<string, unknown> = {}) => {
        const res = await client.checkin(body);
        expect(res.status).toBe(200);
        return res.body as CheckinResponse;
      },
      settings: (etag?: string) => client.settings(etag === undefined ? {} : { 'If-None-Match': etag }),
    };
  };
  const version = async (device: AgentIdentity) => (await agent(device).checkin()).settingsVersion;
  const deviceOf = async (id: number) => (await request(app()).get(`/api/v5/devices/${id}`).set(admin).expect(200)).body as Device;

  /** A registered device enrolled with its group's QR code (or the no-group one) and checked in once. */
  async function enrolled(groupId: number | null, o: { deviceType?: DeviceTypeCode; agentVersion?: string } = {}) {
    const deviceType = o.deviceType ?? 1;
    const imei = testImei(61_000 + ++serial);
    const created = await request(app())
      .post('/api/v5/devices')
      .set(admin)
      .send({ imei, deviceType, brand: 'Motorola', model: 'Moto G24', ...(groupId ? { groupId } : {}) });
    expect(created.status).toBe(201);
    const qr = await request(app())
      .post('/api/v5/enrollment-tokens')
      .set(admin)
      .send(groupId ? { groupId } : {});
    expect(qr.status).toBe(201);
    const { res, keys } = await enrollAgent(app(), {
      enrollmentToken: (qr.body as EnrollmentTokenCreated).token,
      imei,
      deviceType,
      osVersion: '14',
      agentVersion: o.agentVersion ?? '3.4.1',
      ...(deviceType === 1 ? { sim: SIM } : {}),
    });
    expect(res.status).toBe(201);
    const token = (res.body as EnrollResponse).deviceToken;
    reported.set(token, { type: deviceType, version: o.agentVersion ?? '3.4.1' });
    await agent({ token, keys }).checkin(deviceType === 1 ? { sim: SIM } : {});
    return { id: (created.body as Device).id, imei, token, keys };
  }

  const newGroup = async (name: string) => {
    const res = await request(app()).post('/api/v5/groups').set(admin).send({ name });
    expect(res.status).toBe(201);
    return (res.body as { id: number }).id;
  };
  const headersWith = async (email: string, paths: string[]) => {
    await api.addAdmin(email, await api.addProfile(`Perfil ${email}`, paths, []));
    return api.headersOf(email);
  };

  beforeAll(async () => {
    t = await createTestDb(engine);
    api = await adminApi(t.db);
    admin = await api.headersOf('admin@demo.local');
    norte = await newGroup('Sucursal Norte');
    sur = await newGroup('Sucursal Sur');
    centro = await newGroup('Sucursal Centro');
  }, 60_000);
  afterAll(async () => {
    await api?.ta.services.agent.stop();
    await t?.dispose();
  });

  // Sections ----------------------------------------------------------------------------

  test('GET of every section answers the defaults for the global scope, with no override and no history', async () => {
    for (const type of [1, 2] as const) {
      for (const s of sectionsOf(type)) {
        const answer = await section(type, s.key);
        const defaults = pick(defaultsOf(type), keysOf(type, s.key));
        expect(answer).toMatchObject({
          deviceType: type,
          section: s.key,
          groupId: null,
          values: defaults,
          globalValues: defaults,
          overridden: [],
          overrides: [],
          history: [],
        });
        expect(Object.keys(answer.values).sort()).toEqual(keysOf(type, s.key).sort());
        expect(answer.version).toEqual(expect.any(Number));
      }
    }
    // A TV has no screen design.
    await get('/tv/screen-design').expect(404);
  });

  test('PUT with the loaded version saves a new version with its history entry and audit row; a save that changes nothing makes none', async () => {
    const loaded = await section(1, 'lock');
    const res = await put(1, 'lock', { version: loaded.version, values: { disable_sms: true, offline_lock_enabled: true, offline_lock_days: 30 } });
    expect(res.status).toBe(200);
    const saved = settingsSectionResponse.parse(res.body);
    expect(saved.version).toBeGreaterThan(loaded.version!);
    expect(saved).toMatchObject({
      groupId: null,
      updatedBy: 'admin@demo.local',
      values: { ...loaded.values, disable_sms: true, offline_lock_enabled: true, offline_lock_days: 30 },
      overridden: [],
    });
    expect(saved.history).toEqual([
      {
        version: saved.version,
        changedAt: expect.any(String),
        changedBy: 'admin@demo.local',
        // The global scope has no inheritance: each change says the value that applied before.
        changes: [
          { key: 'disable_sms', before: false, after: true },
          { key: 'offline_lock_enabled', before: false, after: true },
          { key: 'offline_lock_days', before: 15, after: 30 },
        ],
      },
    ]);
    expect(await lastAudit()).toMatchObject({
      entity: 'agent_settings',
      entity_id: 'smartphone/lock',
      action: 'update',
      actor_email: 'admin@demo.local',
      before: { disable_sms: false, offline_lock_enabled: false, offline_lock_days: 15 },
      after: { disable_sms: true, offline_lock_enabled: true, offline_lock_days: 30 },
    });
    expect(await section(1, 'lock')).toEqual(saved);

    // A key left out of a global save returns to its default; the history says what it was.
    const second = settingsSectionResponse.parse(
      (await put(1, 'lock', { version: saved.version, values: { offline_lock_enabled: true, offline_lock_days: 20 } }).expect(200)).body,
    );
    expect(second.version).toBeGreaterThan(saved.version!);
    expect(second.values.disable_sms).toBe(defaultsOf(1).disable_sms);
    expect(second.history.map((h) => h.version)).toEqual([second.version, saved.version]);
    expect(second.history[0]!.changes).toEqual([
      { key: 'disable_sms', before: true, after: defaultsOf(1).disable_sms },
      { key: 'offline_lock_days', before: 30, after: 20 },
    ]);
    expect(await lastAudit()).toMatchObject({
      before: { disable_sms: true, offline_lock_days: 30 },
      after: { disable_sms: defaultsOf(1).disable_sms, offline_lock_days: 20 },
    });

    // The same values again: no version, no history, no audit row.
    const before = await tableState();
    const same = await put(1, 'lock', { version: second.version, values: { offline_lock_enabled: true, offline_lock_days: 20 } }).expect(200);
    expect(settingsSectionResponse.parse(same.body)).toMatchObject({ version: second.version, history: second.history });
    expect(await tableState()).toEqual(before);

    // One row holds every section: saving the lock page keeps the enrollment page's values.
    await save(1, 'enrollment', { enrollment_notice: 'none' });
    await patchGlobal(1, 'lock', { disable_camera: false });
    const enrollment = await section(1, 'enrollment');
    expect(enrollment.values.enrollment_notice).toBe('none');
    // Each page lists its own saves only.
    expect(enrollment.history.map((h) => h.changes)).toEqual([[{ key: 'enrollment_notice', before: 'text', after: 'none' }]]);
    expect((await section(1, 'lock')).history).toHaveLength(3);
    expect((await section(1, 'lock')).values).toMatchObject({ offline_lock_days: 20, disable_camera: false });
  });

  test('a save that changes nothing makes no version for a group either (no override row created)', async () => {
    const quiet = await newGroup('Sucursal Sin Cambios');
    const before = await tableState();
    const res = await put(1, 'release', { version: null, values: {} }, quiet).expect(200);
    expect(settingsSectionResponse.parse(res.body)).toMatchObject({ groupId: quiet, version: null, overridden: [], history: [] });
    expect(await tableState()).toEqual(before);
  });

  test('saving a page as it was loaded (never saved: its defaults) makes no version, no history, no audit row', async () => {
    const loaded = await section(1, 'release');
    expect(loaded.history).toEqual([]);
    const before = await tableState();
    const res = await put(1, 'release', { version: loaded.version, values: loaded.values });
    expect(res.status).toBe(200);
    expect(settingsSectionResponse.parse(res.body)).toMatchObject({ version: loaded.version, values: loaded.values, history: [] });
    expect(await tableState()).toEqual(before);
  });

  test('an old version (another save in between) → 409 SETTINGS_VERSION_CONFLICT, nothing changed', async () => {
    const stale = await section(2, 'release');
    await save(2, 'release', { release_message: 'Gracias por su pago' });
    const before = await tableState();
    for (const v of [stale.version, null, stale.version! + 1_000]) {
      const res = await put(2, 'release', { version: v, values: { release_message: 'Otro mensaje' } });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ code: 'SETTINGS_VERSION_CONFLICT', message: M.settings.conflict, field: 'version' });
    }
    expect(await tableState()).toEqual(before);
    expect((await section(2, 'release')).values.release_message).toBe('Gracias por su pago');

    // A group's override too: the version it loaded, not another (null once it has a row).
    const first = await save(2, 'release', { release_uninstall_agent: false }, sur);
    const after = await tableState();
    for (const v of [first.version! - 1, null]) {
      const res = await put(2, 'release', { version: v, values: {} }, sur);
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ code: 'SETTINGS_VERSION_CONFLICT', field: 'version' });
    }
    expect(await tableState()).toEqual(after);
  });

  test('concurrent first overrides of the same group: exactly one wins, the others answer 409', async () => {
    const bodies = [{ disable_camera: false }, { disable_sms: true }, { disable_screen_capture: false }];
    const answers = await Promise.all(bodies.map((values) => put(1, 'lock', { version: null, values }, centro)));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    const winner = answers.findIndex((r) => r.status === 200);
    for (const r of answers.filter((x) => x.status === 409)) expect(r.body).toMatchObject({ code: 'SETTINGS_VERSION_CONFLICT' });
    const now = await section(1, 'lock', centro);
    expect(now.overridden).toEqual(Object.keys(bodies[winner]!));
    expect(now.history).toHaveLength(1);
    expect(now.version).toBe((answers[winner]!.body as SettingsSectionAnswer).version);

    // Two saves of the global scope with the same loaded version: the second waits for the first, then sees another version.
    const loaded = await section(2, 'lock');
    const both = await Promise.all(
      [{ disable_streaming: false }, { disable_media_player: false }].map((values) =>
        put(2, 'lock', { version: loaded.version, values: { ...loaded.values, ...values } }),
      ),
    );
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    const won = both.findIndex((r) => r.status === 200);
    const after = await section(2, 'lock');
    expect(after.version).toBe((both[won]!.body as SettingsSectionAnswer).version);
    expect(after.values).toEqual({ ...loaded.values, ...(won === 0 ? { disable_streaming: false } : { disable_media_player: false }) });
  });

  test('group overrides: merged over the global values, listed on the global scope, inherited keys follow the global ones, {} removes them', async () => {
    const global = await section(1, 'lock');
    const res = await put(1, 'lock', { version: null, values: { offline_lock_days: 45, disable_camera: true } }, sur);
    expect(res.status).toBe(200);
    const own = settingsSectionResponse.parse(res.body);
    expect(own).toMatchObject({
      groupId: sur,
      overridden: ['disable_camera', 'offline_lock_days'],
      values: { ...global.values, disable_camera: true, offline_lock_days: 45 },
      globalValues: global.values,
      updatedBy: 'admin@demo.local',
    });
    expect(own.version).toEqual(expect.any(Number));
    expect(own.history[0]!.changes).toEqual([
      { key: 'disable_camera', after: true },
      { key: 'offline_lock_days', after: 45 },
    ]);
    expect(await lastAudit()).toMatchObject({
      entity: 'agent_settings',
      entity_id: `smartphone/lock/grupo ${sur}`,
      action: 'update',
      before: {},
      after: { disable_camera: true, offline_lock_days: 45 },
    });
    expect((await section(1, 'lock')).overrides).toContainEqual({
      groupId: sur,
      groupName: 'Sucursal Sur',
      keys: ['disable_camera', 'offline_lock_days'],
    });
    // The global page's own values are untouched.
    expect((await section(1, 'lock')).values).toEqual(global.values);

    // A later global change shows through for the keys the group inherits, not for its own.
    await patchGlobal(1, 'lock', { disable_sms: !global.values.disable_sms, disable_camera: false, offline_lock_days: 25 });
    const inherited = await section(1, 'lock', sur);
    expect(inherited.values).toMatchObject({ disable_sms: !global.values.disable_sms, disable_camera: true, offline_lock_days: 45 });
    expect(inherited.globalValues).toMatchObject({ disable_sms: !global.values.disable_sms, disable_camera: false, offline_lock_days: 25 });

    // Another section's override of the group is kept when this one is removed.
    await save(1, 'screen', { screen_title: 'Sucursal Sur: equipo bloqueado' }, sur);
    // The version is the group's row's (every section of it): the lock page loaded before that save is stale.
    expect((await put(1, 'lock', { version: inherited.version, values: {} }, sur)).status).toBe(409);
    const reloaded = await section(1, 'lock', sur);
    expect(reloaded.overridden).toEqual(['disable_camera', 'offline_lock_days']);
    const removed = settingsSectionResponse.parse((await put(1, 'lock', { version: reloaded.version, values: {} }, sur).expect(200)).body);
    expect(removed.overridden).toEqual([]);
    expect(removed.values).toEqual(removed.globalValues);
    expect(removed.history[0]!.changes).toEqual([
      { key: 'disable_camera', before: true },
      { key: 'offline_lock_days', before: 45 },
    ]);
    expect((await section(1, 'lock')).overrides.map((o) => o.groupId)).not.toContain(sur);
    expect((await section(1, 'screen', sur)).values.screen_title).toBe('Sucursal Sur: equipo bloqueado');
    expect((await section(1, 'screen')).overrides).toEqual([{ groupId: sur, groupName: 'Sucursal Sur', keys: ['screen_title'] }]);
  });

  test('an unknown group → 404, a bad groupId → 400; nothing changed', async () => {
    const before = await tableState();
    for (const call of [get('/smartphone/restrictions-lock?groupId=999999'), put(1, 'lock', { version: null, values: {} }, 999_999)]) {
      const res = await call;
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: 'GROUP_NOT_FOUND', message: M.settings.groupNotFound, field: 'groupId' });
    }
    for (const bad of ['abc', '0', '-1']) {
      const res = await request(app()).put(`${BASE}/tv/restrictions-lock`).query({ groupId: bad }).set(admin).send({ version: null, values: {} });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION', field: 'groupId', message: expect.stringMatching(/^El parámetro Grupo /) });
    }
    expect(await tableState()).toEqual(before);
  });

  // Validation --------------------------------------------------------------------------

  test('a bad value of each kind: 400 with the Spanish message naming the field, and its path values.<key>; nothing changed', async () => {
    const PHONE_MSG = 'El campo Teléfono de contacto debe tener de 8 a 15 dígitos (puede empezar con + y llevar espacios o guiones)';
    const cases: [DeviceTypeCode, SettingsSectionKey, SettingsValues, string, string | RegExp][] = [
      [1, 'lock', { offline_lock_days: 2 }, 'offline_lock_days', 'El campo Días sin conexión debe ser un número entero entre 3 y 200'],
      [2, 'lock', { payment_reminder_minutes: 1441 }, 'payment_reminder_minutes', 'El campo Cada (minutos) debe ser un número entero entre 5 y 1440'],
      [1, 'lock', { offline_warning_days: 2.5 }, 'offline_warning_days', 'El campo Avisar antes (días) debe ser un número entero entre 0 y 199'],
      [1, 'enrollment', { enrollment_notice: 'pdf' }, 'enrollment_notice', 'El campo Aviso al enrolar debe ser uno de: none, text, url'],
      [2, 'lock', { default_lock_type: 'PorRobo' }, 'default_lock_type', /^El campo Tipo de bloqueo predeterminado debe ser uno de: PorCredito/],
      [
        2,
        'enrollment',
        { enrollment_notice: 'url', enrollment_notice_url: 'http://financiera.mx/terminos' },
        'enrollment_notice_url',
        'El campo Enlace del aviso debe ser una dirección https válida',
      ],
      [1, 'screen', { primary_color: 'azul' }, 'primary_color', 'El campo Color principal debe ser un color #RRGGBB'],
      [1, 'screen', { background_color: '#fff' }, 'background_color', 'El campo Color de fondo debe ser un color #RRGGBB'],
      [1, 'screen', { contact_email: 'no-es-correo' }, 'contact_email', 'El campo Correo de contacto debe ser un correo electrónico válido'],
      [1, 'screen', { contact_phone: '123' }, 'contact_phone', PHONE_MSG],
      [1, 'screen', { contact_phone: 5512345678 }, 'contact_phone', PHONE_MSG],
      [1, 'lock', { quiet_hours_start: '25:00' }, 'quiet_hours_start', 'El campo Horario de descanso desde debe ser una hora HH:MM'],
      [1, 'lock', { disable_sms: 'sí' }, 'disable_sms', 'El campo Bloquear SMS debe ser verdadero o falso'],
      [1, 'screen', { screen_title: '   ' }, 'screen_title', 'El campo Título no puede estar vacío'],
      [1, 'screen', { screen_title: 'Dos\nlíneas' }, 'screen_title', 'El campo Título contiene caracteres no permitidos'],
      [2, 'release', { release_message: 'x'.repeat(351) }, 'release_message', 'El campo Mensaje de liberación admite como máximo 350 caracteres'],
      [1, 'screen', { logo: 'logo.png' }, 'logo', 'El campo Logotipo debe ser un logotipo subido al portal'],
    ];
    const before = await tableState();
    const failures: unknown[] = [];
    for (const [type, s, values, key, message] of cases) {
      const loaded = await section(type, s);
      const res = await put(type, s, { version: loaded.version, values });
      const got = { status: res.status, code: res.body.code as unknown, field: res.body.field as unknown, message: res.body.message as unknown };
      const want = {
        status: 400,
        code: 'VALIDATION',
        field: `values.${key}`,
        message: typeof message === 'string' ? message : expect.stringMatching(message),
      };
      if (!matches(got, want)) failures.push({ case: { type, s, values: JSON.stringify(values).slice(0, 60) }, got });
    }
    expect(failures).toEqual([]);
    expect(await tableState()).toEqual(before);
  });

  test('an unknown key, a setting of another section or of the other device type: 400 naming it (a setting by its label), path values.<key>; nothing changed', async () => {
    const cases: [DeviceTypeCode, SettingsSectionKey, SettingsValues, string][] = [
      [1, 'lock', { color_favorito: '#ffffff' }, 'color_favorito'],
      [1, 'lock', { disable_streaming: true }, 'disable_streaming'],
      [2, 'lock', { lock_sim_change: false }, 'lock_sim_change'],
      [2, 'enrollment', { require_sim_for_enroll: true }, 'require_sim_for_enroll'],
      [1, 'release', { disable_camera: true }, 'disable_camera'],
    ];
    const before = await tableState();
    const failures: unknown[] = [];
    for (const [type, s, values, key] of cases) {
      const loaded = await section(type, s);
      const res = await put(type, s, { version: loaded.version, values });
      const got = { status: res.status, code: res.body.code as unknown, field: res.body.field as unknown, message: res.body.message as unknown };
      const named = settingField(key)?.label ?? key;
      const want = { status: 400, code: 'VALIDATION', field: `values.${key}`, message: expect.stringContaining(named) };
      if (!matches(got, want)) failures.push({ case: { type, s, key }, got });
    }
    expect(failures).toEqual([]);
    expect(await tableState()).toEqual(before);
  });

  test('bad versions and values that are not an object: 400 naming them', async () => {
    const before = await tableState();
    const loaded = await section(1, 'release');
    const cases: [unknown, string, string][] = [
      [{ values: {} }, 'version', 'El campo Versión es obligatorio'],
      [{ version: 'x', values: {} }, 'version', 'El campo Versión debe ser la versión cargada (un número entero) o null'],
      [{ version: loaded.version }, 'values', M.field.values],
      [{ version: loaded.version, values: [] }, 'values', M.field.values],
    ];
    for (const [body, field, message] of cases) {
      const res = await sendJson(request(app()).put(`${BASE}/smartphone/restrictions-release`).set(admin), body);
      expect({ status: res.status, body: res.body as unknown }).toEqual({ status: 400, body: { code: 'VALIDATION', field, message } });
    }
    const notObject = await sendJson(request(app()).put(`${BASE}/smartphone/restrictions-release`).set(admin), []);
    expect(notObject.status).toBe(400);
    expect(await tableState()).toEqual(before);
  });

  test('random bodies on a section: only 400s, nothing changed', async () => {
    const before = await tableState();
    const schema = settingsBody(1, 'lock');
    const invalid = fc
      .oneof(
        fc.anything(),
        fc.record({ version: fc.anything(), values: fc.anything() }, { requiredKeys: [] }),
        fc.record({ version: fc.constant(null), values: fc.dictionary(fc.constantFrom(...keysOf(1, 'lock'), 'foo'), fc.anything()) }),
      )
      .filter((b) => !schema.safeParse(asSent(b)).success);
    await fc.assert(
      fc.asyncProperty(invalid, async (body) => {
        const res = await sendJson(request(app()).put(`${BASE}/smartphone/restrictions-lock`).set(admin), body);
        expect(res.status).toBe(400);
        expect(typeof res.body.message).toBe('string');
      }),
      { numRuns: 60 },
    );
    expect(await tableState()).toEqual(before);
  });

  test('rules across fields: warning days ≥ offline days, a link notice without its URL, one quiet hour only; checked on the merged values of a group', async () => {
    const cases: [DeviceTypeCode, SettingsSectionKey, SettingsValues, string, string][] = [
      [
        1,
        'lock',
        { offline_lock_enabled: true, offline_lock_days: 10, offline_warning_days: 10 },
        'offline_warning_days',
        'El campo Avisar antes (días) debe ser menor que Días sin conexión (10)',
      ],
      [
        2,
        'enrollment',
        { enrollment_notice: 'url' },
        'enrollment_notice_url',
        'El campo Enlace del aviso es obligatorio cuando el aviso es un enlace',
      ],
      [
        1,
        'enrollment',
        { enrollment_notice: 'text', enrollment_notice_text: '' },
        'enrollment_notice_text',
        'El campo Texto del aviso es obligatorio cuando el aviso es un texto',
      ],
      [
        2,
        'lock',
        { payment_reminder_enabled: true, quiet_hours_start: '22:00', quiet_hours_end: '' },
        'quiet_hours_end',
        'Indique las dos horas del horario de descanso, o ninguna',
      ],
      [
        1,
        'lock',
        { payment_reminder_enabled: true, quiet_hours_start: '07:00', quiet_hours_end: '07:00' },
        'quiet_hours_end',
        'El campo Horario de descanso hasta debe ser distinto de Horario de descanso desde',
      ],
    ];
    const before = await tableState();
    for (const [type, s, values, key, message] of cases) {
      const loaded = await section(type, s);
      const res = await put(type, s, { version: loaded.version, values });
      expect({ status: res.status, body: res.body as unknown }).toEqual({
        status: 400,
        body: { code: 'VALIDATION', field: `values.${key}`, message },
      });
    }
    expect(await tableState()).toEqual(before);

    // A group's override is checked merged over the global values.
    const oeste = await newGroup('Sucursal Oeste Reglas');
    await patchGlobal(2, 'lock', { offline_lock_enabled: true, offline_lock_days: 10, offline_warning_days: 3 });
    await save(2, 'enrollment', { enrollment_notice: 'none' });
    const mid = await tableState();
    const groupCases: [SettingsSectionKey, SettingsValues, string, string][] = [
      ['lock', { offline_warning_days: 12 }, 'offline_warning_days', 'El campo Avisar antes (días) debe ser menor que Días sin conexión (10)'],
      ['lock', { offline_lock_days: 3 }, 'offline_warning_days', 'El campo Avisar antes (días) debe ser menor que Días sin conexión (3)'],
      ['enrollment', { enrollment_notice: 'url' }, 'enrollment_notice_url', 'El campo Enlace del aviso es obligatorio cuando el aviso es un enlace'],
    ];
    for (const [s, values, key, message] of groupCases) {
      const res = await put(2, s, { version: null, values }, oeste);
      expect({ status: res.status, body: res.body as unknown }).toEqual({
        status: 400,
        body: { code: 'VALIDATION', field: `values.${key}`, message },
      });
    }
    expect(await tableState()).toEqual(mid);
    // The same override is fine where the merged values are.
    expect((await save(2, 'lock', { offline_lock_days: 5 }, oeste)).values).toMatchObject({ offline_lock_days: 5, offline_warning_days: 3 });
    expect(
      (await save(2, 'enrollment', { enrollment_notice: 'url', enrollment_notice_url: 'https://financiera.mx/terminos' }, oeste)).overridden,
    ).toEqual(['enrollment_notice', 'enrollment_notice_url']);
  });

  // Logos -------------------------------------------------------------------------------

  test('logo: PNG and JPEG (by content) stored once per content and served immutable; SVG, GIF, text, empty and > 512 KB refused', async () => {
    const upload = (bytes: Buffer, type: string, who = admin) =>
      request(app()).post(`${BASE}/smartphone/screen-design/logo`).set(who).set('Content-Type', type).send(bytes);
    const logos = async (hash: string) =>
      Number((await t.db.query<{ n: number }>('SELECT count(*) AS n FROM agent_logos WHERE sha256 = $1', [hash])).rows[0]!.n);

    const image = png(4, 2, [11, 94, 215, 255]);
    const hash = createHash('sha256').update(image).digest('hex');
    const first = await upload(image, 'image/png');
    expect(first.status).toBe(201);
    expect(logoResponse.parse(first.body)).toEqual({ logo: hash, url: `/agent/v1/logos/${hash}` });
    expect((await upload(image, 'image/png')).body).toEqual(first.body);
    expect(await logos(hash)).toBe(1);

    const served = await request(app()).get(`/agent/v1/logos/${hash}`).buffer(true).parse(binary);
    expect(served.status).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(Buffer.compare(served.body as Buffer, image)).toBe(0);

    // The content decides, not the declared type.
    const photo = jpeg();
    const jpegHash = createHash('sha256').update(photo).digest('hex');
    expect((await upload(photo, 'application/octet-stream').expect(201)).body).toEqual({ logo: jpegHash, url: `/agent/v1/logos/${jpegHash}` });
    const servedJpeg = await request(app()).get(`/agent/v1/logos/${jpegHash}`).buffer(true).parse(binary).expect(200);
    expect(servedJpeg.headers['content-type']).toBe('image/jpeg');
    expect(Buffer.compare(servedJpeg.body as Buffer, photo)).toBe(0);

    // Exactly 512 KB is accepted.
    const largest = png(1, 1, [0, 0, 0, 255], LOGO_MAX_BYTES);
    expect(largest.length).toBe(LOGO_MAX_BYTES);
    await upload(largest, 'image/png').expect(201);

    const before = await tableState();
    const svg = Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"><script>alert(1)</script></svg>');
    const gif = Buffer.concat([
      Buffer.from('GIF89a'),
      Buffer.from([1, 0, 1, 0, 0x80, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 1, 0, 0x3b]),
    ]);
    const refusals: [Buffer, string, number, string, string][] = [
      // SVG is told why; any other file is just not a PNG or a JPEG (nothing said about SVG).
      [svg, 'image/svg+xml', 415, 'LOGO_NOT_AN_IMAGE', M.logo.svg],
      [svg, 'image/png', 415, 'LOGO_NOT_AN_IMAGE', M.logo.svg],
      [gif, 'image/gif', 415, 'LOGO_NOT_AN_IMAGE', M.logo.badType],
      [Buffer.from('hola, soy un logotipo'), 'text/plain', 415, 'LOGO_NOT_AN_IMAGE', M.logo.badType],
      [image.subarray(0, 20), 'image/png', 415, 'LOGO_NOT_AN_IMAGE', M.logo.badType],
      [Buffer.alloc(0), 'image/png', 400, 'LOGO_EMPTY', M.logo.empty],
      [png(1, 1, [0, 0, 0, 255], LOGO_MAX_BYTES + 1), 'image/png', 413, 'LOGO_TOO_LARGE', 'El logotipo no puede pesar más de 512 KB'],
      [Buffer.concat([photo, Buffer.alloc(2 * LOGO_MAX_BYTES)]), 'image/jpeg', 413, 'LOGO_TOO_LARGE', 'El logotipo no puede pesar más de 512 KB'],
    ];
    for (const [bytes, type, status, code, message] of refusals) {
      const res = await upload(bytes, type);
      expect({ type, size: bytes.length, status: res.status, body: res.body as unknown }).toEqual({
        type,
        size: bytes.length,
        status,
        body: { code, message, field: 'logo' },
      });
    }
    expect(await tableState()).toEqual(before);

    for (const missing of [sha('nunca subido'), hash.toUpperCase(), 'logo.png']) await request(app()).get(`/agent/v1/logos/${missing}`).expect(404);

    // A screen design names an uploaded logo only.
    const loaded = await section(1, 'screen');
    const never = await put(1, 'screen', { version: loaded.version, values: { ...loaded.values, logo: sha('nunca subido') } });
    expect({ status: never.status, body: never.body as unknown }).toEqual({
      status: 400,
      body: { code: 'VALIDATION', message: M.logo.notFound, field: 'values.logo' },
    });
    expect(await tableState()).toEqual(before);
    expect((await patchGlobal(1, 'screen', { logo: hash })).values.logo).toBe(hash);
  });

  // Business apps -----------------------------------------------------------------------

  test('business apps: create, list, update, delete; groups checked; package names unique in any case; audited; each change a new smartphone settings version', async () => {
    const phone = await enrolled(norte);
    const tv = await enrolled(norte, { deviceType: 2, agentVersion: '1.8.0' });
    const tvVersion = await version(tv);
    let v = await version(phone);
    const body = {
      name: 'Cobranza Móvil',
      packageName: 'mx.financiera.cobranza',
      versionName: '1.2.0',
      versionCode: 12,
      appType: 4,
      downloadUrl: 'https://descargas.financiera.mx/cobranza-1.2.0.apk',
      sha256: HEX_UPPER,
      groupIds: [norte, norte],
    };
    const created = await request(app()).post(`${BASE}/smartphone/business-apps`).set(admin).send(body);
    expect(created.status).toBe(201);
    const app1 = businessAppResponse.parse(created.body);
    expect(app1).toMatchObject({
      name: 'Cobranza Móvil',
      sha256: HEX_UPPER.toLowerCase(),
      groups: [{ id: norte, name: 'Sucursal Norte' }],
      updatedBy: 'admin@demo.local',
    });
    expect(await lastAudit()).toMatchObject({
      entity: 'business_app',
      entity_id: String(app1.id),
      action: 'create',
      after: { name: 'Cobranza Móvil', packageName: 'mx.financiera.cobranza', groups: ['Sucursal Norte'], sha256: HEX_UPPER.toLowerCase() },
    });
    const v1 = await version(phone);
    expect(v1).toBeGreaterThan(v);
    v = v1;

    const list = businessAppListResponse.parse((await get('/smartphone/business-apps').expect(200)).body);
    expect(list.data.map((a) => a.id)).toContain(app1.id);
    expect(list.total).toBe(list.data.length);

    // Refused: nothing changes, no new version.
    let before = await tableState();
    const dup = await request(app())
      .post(`${BASE}/smartphone/business-apps`)
      .set(admin)
      .send({ ...body, name: 'Otra', packageName: 'MX.Financiera.COBRANZA', groupIds: [] });
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual({ code: 'BUSINESS_APP_PACKAGE_TAKEN', message: M.businessApps.packageTaken, field: 'packageName' });
    const unknownGroup = await request(app())
      .post(`${BASE}/smartphone/business-apps`)
      .set(admin)
      .send({ ...body, packageName: 'mx.financiera.otra', groupIds: [norte, 999_999] });
    expect({ status: unknownGroup.status, body: unknownGroup.body as unknown }).toEqual({
      status: 400,
      body: { code: 'VALIDATION', message: M.businessApps.groupNotFound, field: 'groupIds.1' },
    });
    expect(await tableState()).toEqual(before);
    expect(await version(phone)).toBe(v);

    // Two creations of one package at once (any case): one 201, one 409.
    const race = await Promise.all(
      ['mx.financiera.carrera', 'MX.FINANCIERA.CARRERA'].map((packageName) =>
        request(app())
          .post(`${BASE}/smartphone/business-apps`)
          .set(admin)
          .send({ ...body, name: packageName, packageName, groupIds: [] }),
      ),
    );
    expect(race.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(race.find((r) => r.status === 409)!.body).toMatchObject({ code: 'BUSINESS_APP_PACKAGE_TAKEN', field: 'packageName' });
    const raced = race.find((r) => r.status === 201)!.body as BusinessApp;
    await request(app()).delete(`${BASE}/smartphone/business-apps/${raced.id}`).set(admin).expect(204);
    v = await version(phone);
    before = await tableState();
    const bad = await request(app())
      .post(`${BASE}/smartphone/business-apps`)
      .set(admin)
      .send({ ...body, packageName: 'cobranza' });
    expect(bad.body).toMatchObject({ code: 'VALIDATION', field: 'packageName' });
    expect(await tableState()).toEqual(before);
    expect(await version(phone)).toBe(v);

    // Update: every smartphone (no group), audited before/after, a new version.
    const other = businessAppResponse.parse(
      (
        await request(app())
          .post(`${BASE}/smartphone/business-apps`)
          .set(admin)
          .send({ ...body, name: 'Pagos', packageName: 'mx.financiera.pagos', groupIds: [sur] })
          .expect(201)
      ).body,
    );
    v = await version(phone);
    const updated = await request(app())
      .put(`${BASE}/smartphone/business-apps/${app1.id}`)
      .set(admin)
      .send({ ...body, versionName: '1.3.0', versionCode: 13, groupIds: [] });
    expect(updated.status).toBe(200);
    expect(businessAppResponse.parse(updated.body)).toMatchObject({ id: app1.id, versionName: '1.3.0', versionCode: 13, groups: [] });
    expect(await lastAudit()).toMatchObject({
      entity: 'business_app',
      action: 'update',
      before: { versionName: '1.2.0', versionCode: 12, groups: ['Sucursal Norte'] },
      after: { versionName: '1.3.0', versionCode: 13, groups: [] },
    });
    const v2 = await version(phone);
    expect(v2).toBeGreaterThan(v);
    // Renaming onto another app's package: 409; its own package in another case: fine.
    const taken = await request(app())
      .put(`${BASE}/smartphone/business-apps/${app1.id}`)
      .set(admin)
      .send({ ...body, packageName: 'MX.FINANCIERA.PAGOS' });
    expect(taken.status).toBe(409);
    expect(taken.body.field).toBe('packageName');
    await request(app()).put(`${BASE}/smartphone/business-apps/999999`).set(admin).send(body).expect(404);

    // Delete: audited, a new version; again: 404.
    await request(app()).delete(`${BASE}/smartphone/business-apps/${other.id}`).set(admin).expect(204);
    expect(await lastAudit()).toMatchObject({
      entity: 'business_app',
      entity_id: String(other.id),
      action: 'delete',
      before: { name: 'Pagos' },
      after: null,
    });
    expect(await version(phone)).toBeGreaterThan(v2);
    const gone = await request(app()).delete(`${BASE}/smartphone/business-apps/${other.id}`).set(admin);
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ code: 'BUSINESS_APP_NOT_FOUND', message: M.businessApps.notFound });
    // Business apps are for smartphones: a TV's settings version did not move.
    expect(await version(tv)).toBe(tvVersion);
    await get('/tv/business-apps').expect(404);
  });

  test('an unknown group of a business app is named by its position in the request (groupIds.N), nothing changed', async () => {
    const body = {
      name: 'Índices',
      packageName: 'mx.financiera.indices',
      versionName: '1.0',
      versionCode: 1,
      appType: 4,
      downloadUrl: 'https://descargas.financiera.mx/indices.apk',
      sha256: sha('indices'),
    };
    const existing = businessAppResponse.parse(
      (
        await request(app())
          .post(`${BASE}/smartphone/business-apps`)
          .set(admin)
          .send({ ...body, packageName: 'mx.financiera.indices.existente' })
          .expect(201)
      ).body,
    );
    const before = await tableState();
    const failures: unknown[] = [];
    for (const [groupIds, field] of [
      [[norte, 999_999], 'groupIds.1'],
      [[999_999, norte], 'groupIds.0'],
      [[norte, norte, 999_999], 'groupIds.2'],
      [[sur, 999_999, norte], 'groupIds.1'],
    ] as const) {
      for (const call of [
        request(app()).post(`${BASE}/smartphone/business-apps`),
        request(app()).put(`${BASE}/smartphone/business-apps/${existing.id}`),
      ]) {
        const res = await call.set(admin).send({ ...body, groupIds });
        const got = { status: res.status, field: res.body.field as unknown, message: res.body.message as unknown };
        const want = { status: 400, field, message: M.businessApps.groupNotFound };
        if (!matches(got, want)) failures.push({ method: call.method, groupIds, got });
      }
    }
    expect(failures).toEqual([]);
    expect(await tableState()).toEqual(before);
  });

  // Lock-app versions -------------------------------------------------------------------

  test('lock-app versions per type: create, list with the devices reporting each, unique versions, the current one is not deleted, set current reaches portal/getVersionApp and the agents', async () => {
    const lockApps = async (type: Slug) => lockAppListResponse.parse((await get(`/${type}/app-lock`).expect(200)).body).data;
    const byVersion = async (type: Slug, v: string) => (await lockApps(type)).find((x) => x.versionApp === v);
    const phone = await enrolled(centro, { agentVersion: '3.4.1' });
    const tv = await enrolled(centro, { deviceType: 2, agentVersion: '1.8.0' });
    const tvVersion = await version(tv);

    const seeded = (await byVersion('smartphone', '3.4.1'))!;
    expect(seeded).toMatchObject({ deviceType: 1, isCurrent: true, versionName: 'Macrolock' });
    expect(seeded.devices).toBeGreaterThanOrEqual(1);
    expect((await lockApps('tv')).every((x) => x.deviceType === 2)).toBe(true);
    expect((await lockApps('smartphone')).every((x) => x.deviceType === 1)).toBe(true);
    expect((await byVersion('tv', '1.8.0'))!.isCurrent).toBe(true);

    const body = {
      versionName: 'Macrolock',
      versionApp: '3.5.0',
      appType: 2,
      packageName: 'com.macrolock.agent',
      downloadUrl: 'https://descargas.financiera.mx/macrolock-3.5.0.apk',
      sha256: HEX_UPPER,
      releaseNotes: 'Corrige el bloqueo por cambio de SIM',
    };
    const created = await request(app()).post(`${BASE}/smartphone/app-lock`).set(admin).send(body);
    expect(created.status).toBe(201);
    const next = lockAppResponse.parse(created.body);
    expect(next).toMatchObject({
      deviceType: 1,
      versionApp: '3.5.0',
      isCurrent: false,
      devices: 0,
      sha256: HEX_UPPER.toLowerCase(),
      createdBy: 'admin@demo.local',
    });
    expect(await lastAudit()).toMatchObject({
      entity: 'lock_app_version',
      entity_id: String(next.id),
      action: 'create',
      after: { versionApp: '3.5.0' },
    });
    // The same version for TVs is another version.
    const tvNext = lockAppResponse.parse(
      (
        await request(app())
          .post(`${BASE}/tv/app-lock`)
          .set(admin)
          .send({ ...body, appType: 5 })
          .expect(201)
      ).body,
    );
    expect(tvNext.deviceType).toBe(2);
    expect((await lockApps('tv')).map((x) => x.id)).toContain(tvNext.id);
    expect((await lockApps('smartphone')).map((x) => x.id)).not.toContain(tvNext.id);

    const before = await tableState();
    const dup = await request(app()).post(`${BASE}/smartphone/app-lock`).set(admin).send(body);
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual({ code: 'LOCK_APP_VERSION_TAKEN', message: M.lockApp.versionTaken, field: 'versionApp' });
    const renamed = await request(app())
      .put(`${BASE}/smartphone/app-lock/${next.id}`)
      .set(admin)
      .send({ ...body, versionApp: '3.4.1' });
    expect(renamed.status).toBe(409);
    const current = await request(app()).delete(`${BASE}/smartphone/app-lock/${seeded.id}`).set(admin);
    expect(current.status).toBe(409);
    expect(current.body).toEqual({ code: 'LOCK_APP_CURRENT', message: M.lockApp.currentNotDeleted });
    // A TV version is not reachable through the smartphone routes.
    for (const call of [
      request(app()).put(`${BASE}/smartphone/app-lock/${tvNext.id}`).set(admin).send(body),
      request(app()).delete(`${BASE}/smartphone/app-lock/${tvNext.id}`).set(admin),
      request(app()).post(`${BASE}/smartphone/app-lock/${tvNext.id}/current`).set(admin),
    ]) {
      const res = await call;
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 'LOCK_APP_NOT_FOUND', message: M.lockApp.notFound });
    }
    const badBody = await request(app())
      .post(`${BASE}/smartphone/app-lock`)
      .set(admin)
      .send({ ...body, versionApp: '3.9.9', downloadUrl: 'http://descargas.financiera.mx/a.apk' });
    expect(badBody.body).toMatchObject({ code: 'VALIDATION', field: 'downloadUrl' });
    expect(await tableState()).toEqual(before);

    // The devices column: a device reporting 3.5.0 at its check-in moves from one row to the other.
    await agent(phone).checkin({ agentVersion: '3.5.0' });
    await api.ta.services.agent.presence.flush(); // a report: written with the replica's next batch
    reported.set(phone.token, { type: 1, version: '3.5.0' });
    expect((await byVersion('smartphone', '3.5.0'))!.devices).toBe(1);
    expect((await byVersion('smartphone', '3.4.1'))!.devices).toBe(seeded.devices - 1);

    // Set current: portal/getVersionApp, the list, the audit, a new version for smartphones only.
    const v = await version(phone);
    const set = await request(app()).post(`${BASE}/smartphone/app-lock/${next.id}/current`).set(admin);
    expect(set.status).toBe(200);
    expect(lockAppResponse.parse(set.body)).toMatchObject({ id: next.id, isCurrent: true, devices: 1 });
    expect((await request(app()).get('/api/portal/getVersionApp').set(admin).expect(200)).body).toEqual({
      version_name: 'Macrolock',
      version_app: '3.5.0',
    });
    expect((await lockApps('smartphone')).filter((x) => x.isCurrent).map((x) => x.id)).toEqual([next.id]);
    expect(await lastAudit()).toMatchObject({
      entity: 'lock_app_version',
      action: 'set_current',
      before: { actual: 'Macrolock (3.4.1)' },
      after: { actual: 'Macrolock (3.5.0)' },
    });
    const v2 = await version(phone);
    expect(v2).toBeGreaterThan(v);
    expect(await version(tv)).toBe(tvVersion);
    const delivered = agentSettingsResponse.parse(expectStatus(await agent(phone).settings(), 200).body);
    expect(delivered.lockApp).toEqual({
      versionName: 'Macrolock',
      versionApp: '3.5.0',
      appType: 2,
      packageName: 'com.macrolock.agent',
      downloadUrl: body.downloadUrl,
      sha256: HEX_UPPER.toLowerCase(),
    });
    // Marking the current one again changes nothing.
    const audits = await auditCount();
    await request(app()).post(`${BASE}/smartphone/app-lock/${next.id}/current`).set(admin).expect(200);
    expect(await auditCount()).toBe(audits);
    expect(await version(phone)).toBe(v2);

    // Editing the current version is a new settings version (the agents download it).
    const edited = await request(app())
      .put(`${BASE}/smartphone/app-lock/${next.id}`)
      .set(admin)
      .send({ ...body, releaseNotes: '' });
    expect(lockAppResponse.parse(edited.body)).toMatchObject({ releaseNotes: null, isCurrent: true });
    expect(await lastAudit()).toMatchObject({ action: 'update', before: { releaseNotes: body.releaseNotes }, after: { releaseNotes: null } });
    expect(await version(phone)).toBeGreaterThan(v2);

    // The old one is no longer current: it can go.
    await request(app()).delete(`${BASE}/smartphone/app-lock/${seeded.id}`).set(admin).expect(204);
    expect(await lastAudit()).toMatchObject({
      entity: 'lock_app_version',
      entity_id: String(seeded.id),
      action: 'delete',
      before: { versionApp: '3.4.1' },
    });
    await request(app()).delete(`${BASE}/smartphone/app-lock/${seeded.id}`).set(admin).expect(404);
    expect((await request(app()).get('/api/portal/getVersionApp').set(admin)).body).toEqual({ version_name: 'Macrolock', version_app: '3.5.0' });
  });

  // Overview ----------------------------------------------------------------------------

  test('overview per type: the global values of each section, the overrides by group name, the lock app and the business apps', async () => {
    for (const type of [1, 2] as const) {
      const o = settingsOverviewResponse.parse((await get(`/${SLUG[type]}/overview`).expect(200)).body);
      expect(o.deviceType).toBe(type);
      expect(o.sections.map((s) => s.section)).toEqual(sectionsOf(type).map((s) => s.key));
      for (const s of o.sections) {
        const page = await section(type, s.section);
        expect({ section: s.section, values: s.values, overrides: s.overrides }).toEqual({
          section: s.section,
          values: page.globalValues,
          overrides: page.overrides,
        });
      }
      const versions = lockAppListResponse.parse((await get(`/${SLUG[type]}/app-lock`).expect(200)).body).data;
      const current = versions.find((v) => v.isCurrent)!;
      expect(o.lockApp.current).toEqual(current);
      expect(o.lockApp.versions).toBe(versions.length);
      const mine = [...reported.values()].filter((d) => d.type === type);
      expect(mine.length).toBeGreaterThan(0);
      expect(o.lockApp.devices).toBe(mine.length);
      expect(o.lockApp.outdated).toBe(mine.filter((d) => d.version !== current.versionApp).length);
      expect(current.devices).toBe(mine.filter((d) => d.version === current.versionApp).length);
      if (type === 1) {
        const apps = businessAppListResponse.parse((await get('/smartphone/business-apps').expect(200)).body);
        expect(o.businessApps).toEqual({ total: apps.total });
      } else {
        expect(o.businessApps).toBeNull();
      }
    }
    const phone = settingsOverviewResponse.parse((await get('/smartphone/overview').expect(200)).body);
    expect(phone.sections.find((s) => s.section === 'screen')!.overrides).toEqual([
      { groupId: sur, groupName: 'Sucursal Sur', keys: ['screen_title'] },
    ]);
    expect(phone.lockApp.current!.versionApp).toBe('3.5.0');
    expect(phone.lockApp.outdated).toBeGreaterThan(0);
  });

  // Permissions -------------------------------------------------------------------------

  test("permissions: each route needs its page's path; the groups list is readable with a settings page", async () => {
    const lockOnly = await headersWith('bloqueo@demo.local', [PATHS.restrictionsLock]);
    const tvLock = await headersWith('bloqueo-tv@demo.local', [PATHS.restrictionsLockTv]);
    const screenOnly = await headersWith('diseno@demo.local', [PATHS.screenDesign]);
    const nobody = await headersWith('tablero2@demo.local', [PATHS.dashboard]);

    const mine = await section(1, 'lock', null, lockOnly);
    const saved = await put(
      1,
      'lock',
      { version: mine.version, values: { ...mine.values, disable_incoming_calls: !mine.values.disable_incoming_calls } },
      null,
      lockOnly,
    );
    expect(saved.status).toBe(200);
    expect(await lastAudit()).toMatchObject({ entity: 'agent_settings', actor_email: 'bloqueo@demo.local' });
    await section(1, 'lock', norte, lockOnly);
    await request(app()).get('/api/v5/groups').set(lockOnly).expect(200);
    await request(app()).get('/api/v5/groups').set(screenOnly).expect(200);
    await request(app()).get('/api/v5/groups').set(nobody).expect(403);
    await section(2, 'lock', null, tvLock);

    const before = await tableState();
    const forbidden: [Record<string, string>, 'get' | 'put' | 'post' | 'delete', string][] = [
      [lockOnly, 'get', '/smartphone/restrictions-enrollment'],
      [lockOnly, 'put', '/smartphone/restrictions-enrollment'],
      [lockOnly, 'get', '/smartphone/business-apps'],
      [lockOnly, 'post', '/smartphone/business-apps'],
      [lockOnly, 'get', '/smartphone/overview'],
      [lockOnly, 'get', '/smartphone/app-lock'],
      [lockOnly, 'post', '/smartphone/screen-design/logo'],
      [lockOnly, 'get', '/tv/restrictions-lock'],
      [lockOnly, 'put', '/tv/restrictions-lock'],
      [tvLock, 'get', '/smartphone/restrictions-lock'],
      [tvLock, 'put', '/smartphone/restrictions-lock'],
      [tvLock, 'get', '/smartphone/screen-design'],
      [tvLock, 'get', '/smartphone/app-lock'],
      [tvLock, 'post', '/smartphone/app-lock/1/current'],
      [tvLock, 'get', '/tv/app-lock'],
      [tvLock, 'get', '/tv/overview'],
      [tvLock, 'get', '/tv/restrictions-enrollment'],
      [screenOnly, 'put', '/smartphone/restrictions-lock'],
      [screenOnly, 'delete', '/smartphone/business-apps/1'],
      [nobody, 'get', '/smartphone/overview'],
    ];
    for (const [who, method, path] of forbidden) {
      const res = await request(app())[method](`${BASE}${path}`).set(who).send({ version: null, values: {} });
      expect({ method, path, status: res.status, body: res.body as unknown }).toEqual({
        method,
        path,
        status: 403,
        body: { message: 'No Autorizado', code: 'FORBIDDEN' },
      });
    }
    expect(await tableState()).toEqual(before);
    // The screen page may upload a logo.
    await request(app())
      .post(`${BASE}/smartphone/screen-design/logo`)
      .set(screenOnly)
      .set('Content-Type', 'image/png')
      .send(png(1, 1, [1, 2, 3, 255]))
      .expect(201);
  });

  // Delivery to the agents --------------------------------------------------------------

  test('delivery: the check-in names the settings version; GET /agent/v1/settings answers the merged values, logo, business apps and lock app with an ETag (304)', async () => {
    const phoneN = await enrolled(norte);
    const phoneS = await enrolled(sur);
    const phoneNone = await enrolled(null);
    const tvN = await enrolled(norte, { deviceType: 2, agentVersion: '1.8.0' });

    // The apps each phone installs: those with no group and those of its group.
    const newApp = async (name: string, packageName: string, groupIds: number[]) =>
      businessAppResponse.parse(
        (
          await request(app())
            .post(`${BASE}/smartphone/business-apps`)
            .set(admin)
            .send({
              name,
              packageName,
              versionName: '1.0',
              versionCode: 1,
              appType: 4,
              downloadUrl: `https://descargas.financiera.mx/${packageName}.apk`,
              sha256: sha(name),
              groupIds,
            })
            .expect(201)
        ).body,
      );
    await newApp('Entrega Norte', 'mx.entrega.norte', [norte]);
    await newApp('Entrega Sur', 'mx.entrega.sur', [sur]);
    await newApp('Entrega Norte y Sur', 'mx.entrega.ambas', [norte, sur]);
    const all = businessAppListResponse.parse((await get('/smartphone/business-apps').expect(200)).body).data;
    const expectedApps = (groupId: number | null) =>
      all
        .filter((a: BusinessApp) => a.groups.length === 0 || a.groups.some((g) => g.id === groupId))
        .map((a) => a.packageName)
        .sort();
    expect(expectedApps(norte)).toEqual(expect.arrayContaining(['mx.entrega.norte', 'mx.entrega.ambas']));
    expect(expectedApps(norte)).not.toContain('mx.entrega.sur');

    const logo = (await section(1, 'screen')).values.logo as string;
    expect(logo).toMatch(/^[0-9a-f]{64}$/);
    const lockApp = lockAppListResponse.parse((await get('/smartphone/app-lock').expect(200)).body).data.find((v: LockAppVersion) => v.isCurrent)!;

    // A group override to see the merge.
    await patchGroup(1, 'lock', norte, { disable_camera: false, offline_lock_days: 60 });
    await patchGroup(1, 'screen', norte, { primary_color: '#AA0000' });

    const fetch = async (device: AgentIdentity): Promise<{ etag: string; body: AgentSettingsAnswer }> => {
      const res = await agent(device).settings();
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('private, no-cache');
      return { etag: res.headers.etag as string, body: agentSettingsResponse.parse(res.body) };
    };
    const mergedValues = async (type: DeviceTypeCode, groupId: number | null) => {
      let values: SettingsValues = {};
      for (const s of sectionsOf(type)) values = { ...values, ...(await section(type, s.key, groupId)).values };
      return values;
    };

    for (const [device, groupId] of [
      [phoneN, norte],
      [phoneS, sur],
      [phoneNone, null],
    ] as const) {
      const v = await version(device);
      const { etag, body } = await fetch(device);
      expect(etag).toBe(`"${v}"`);
      expect(body.version).toBe(v);
      expect(body.settings).toEqual(await mergedValues(1, groupId));
      expect(body.logoUrl).toBe(`/agent/v1/logos/${logo}`);
      expect(body.businessApps.map((a) => a.packageName).sort()).toEqual(expectedApps(groupId));
      expect(body.lockApp).toMatchObject({ versionApp: lockApp.versionApp, versionName: lockApp.versionName });
    }
    const north = (await fetch(phoneN)).body;
    expect(north.settings).toMatchObject({ disable_camera: false, offline_lock_days: 60, primary_color: '#aa0000' });
    expect((await fetch(phoneS)).body.settings).toMatchObject({ primary_color: (await section(1, 'screen')).values.primary_color });
    const tvAnswer = await fetch(tvN);
    expect(tvAnswer.body.settings).toEqual(await mergedValues(2, norte));
    expect(tvAnswer.body.settings).not.toHaveProperty('disable_camera');
    expect(tvAnswer.body.settings).toHaveProperty('disable_streaming');
    expect(tvAnswer.body).toMatchObject({ businessApps: [], logoUrl: null, lockApp: { versionApp: '1.8.0' } });

    // 304 while nothing changed; 200 with the new version after the next save for its group only.
    const { etag } = await fetch(phoneN);
    for (const tag of [etag, `W/${etag}`, `"0", ${etag}`]) {
      const res = await agent(phoneN).settings(tag);
      expect(res.status).toBe(304);
      expect(res.text ?? '').toBe('');
      expect(res.headers.etag).toBe(etag);
    }
    expectStatus(await agent(phoneN).settings('"0"'), 200);
    const southVersion = await version(phoneS);
    const northVersion = await version(phoneN);
    await patchGroup(1, 'release', norte, { release_message: 'Gracias, Sucursal Norte' });
    const newNorth = await version(phoneN);
    expect(newNorth).toBeGreaterThan(northVersion);
    expect(await version(phoneS)).toBe(southVersion);
    const after = await agent(phoneN).settings(etag);
    expect(after.status).toBe(200);
    expect(after.headers.etag).toBe(`"${newNorth}"`);
    expect(agentSettingsResponse.parse(after.body).settings.release_message).toBe('Gracias, Sucursal Norte');
    expectStatus(await agent(phoneS).settings(`"${southVersion}"`), 304);

    // A global save reaches every device of the type.
    await patchGlobal(1, 'release', { release_uninstall_agent: false });
    expect(await version(phoneS)).toBeGreaterThan(southVersion);
    expect(await version(phoneNone)).toBeGreaterThan(southVersion);

    expect((await request(app()).get('/agent/v1/settings').expect(401)).body).toMatchObject({ code: 'DEVICE_TOKEN_MISSING' });
    // The device's token without a signature, and a token nobody holds signed by some key: refused.
    expect((await request(app()).get('/agent/v1/settings').set('Authorization', `Bearer ${phoneN.token}`).expect(401)).body).toMatchObject({
      code: 'AGENT_SIGNATURE_MISSING',
    });
    const unknown = expectStatus(await agentClient(app, { token: 'mld_desconocido', keys: await newAgentKeys() }).settings(), 401);
    expect(unknown.body).toMatchObject({ code: 'DEVICE_TOKEN_INVALID' });
  });

  test('the server follows the saved settings: lock_sim_change off for a group, QR not required for TVs', async () => {
    const phoneN = await enrolled(norte);
    const phoneS = await enrolled(sur);
    await patchGroup(1, 'lock', norte, { lock_sim_change: false });
    expect((await section(1, 'lock', sur)).values.lock_sim_change).toBe(true);

    const north = await agent(phoneN).checkin({ sim: OTHER_SIM });
    expect(north.status).not.toBe(DEVICE_STATUS.bloqueado);
    expect(await deviceOf(phoneN.id)).toMatchObject({ simIccid: OTHER_SIM.iccid, lockType: null });
    const south = await agent(phoneS).checkin({ sim: OTHER_SIM });
    expect(south.status).toBe(DEVICE_STATUS.bloqueado);
    expect(await deviceOf(phoneS.id)).toMatchObject({ simIccid: OTHER_SIM.iccid, lockType: 'PorCambioSIM' });

    // Enrollment without a QR code: refused while required, accepted once the TV page turns it off (for TVs only).
    const register = async (deviceType: DeviceTypeCode) => {
      const imei = testImei(62_000 + ++serial);
      await request(app()).post('/api/v5/devices').set(admin).send({ imei, deviceType, brand: 'Hisense', model: 'A6' }).expect(201);
      return imei;
    };
    const tvImei = await register(2);
    const phoneImei = await register(1);
    const enroll = async (imei: string, deviceType: DeviceTypeCode) =>
      (await enrollAgent(app(), { imei, deviceType, ...(deviceType === 1 ? { sim: SIM } : {}) })).res;
    const refused = await enroll(tvImei, 2);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'ENROLLMENT_TOKEN_REQUIRED', message: AGENT_MESSAGES.enroll.tokenRequired });
    await patchGlobal(2, 'enrollment', { require_QR_validation: false });
    expect((await enroll(tvImei, 2)).status).toBe(201);
    expect((await enroll(phoneImei, 1)).status).toBe(403);
    await patchGlobal(2, 'enrollment', { require_QR_validation: true });
  });

  // The fleet simulator -----------------------------------------------------------------

  test('a simulated agent fetches its settings once, and again at its next check-in after a save for its group', async () => {
    const oeste = await newGroup('Sucursal Oeste Simulada');
    let fetches = 0;
    const server = http.createServer((req, res) => {
      if (req.method === 'GET' && req.url?.startsWith('/agent/v1/settings')) res.on('finish', () => res.statusCode === 200 && fetches++);
      app()(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const ctl = new AbortController();
    let running: Promise<void> | undefined;
    try {
      const imei = testImei(63_000 + ++serial);
      await request(app()).post('/api/v5/devices').set(admin).send({ imei, deviceType: 1, groupId: oeste }).expect(201);
      const qr = (await request(app()).post('/api/v5/enrollment-tokens').set(admin).send({ groupId: oeste }).expect(201))
        .body as EnrollmentTokenCreated;
      const sim = new SimulatedAgent(
        { imei, deviceType: 1, brand: 'Motorola', model: 'Moto G24', osVersion: '14', agentVersion: '3.5.0', sim: SIM },
        { baseUrl: url, enrollmentToken: qr.token, behaviour: { wait: 1, commandDelayMs: [10, 20] } },
      );
      running = sim.run(ctl.signal);
      await until(() => sim.counters.checkins >= 3, 20_000, 'tres check-ins');
      expect(sim.counters.errors).toBe(0);
      expect(fetches).toBe(1);
      // A new group inherits the global value; its override will be the other one.
      const globalSms = (await section(1, 'lock')).values.disable_sms;
      expect(sim.settings?.settings.disable_sms).toBe(globalSms);

      await patchGroup(1, 'lock', oeste, { disable_sms: !globalSms });
      const atSave = sim.counters.checkins;
      await until(() => fetches >= 2, 20_000, 'la nueva lectura de los ajustes');
      // The check-in in flight at the save may still name the old version; the next one names the new.
      expect(sim.counters.checkins).toBeLessThanOrEqual(atSave + 2);
      const settled = sim.counters.checkins;
      await until(() => sim.counters.checkins >= settled + 2, 20_000, 'dos check-ins más');
      expect(fetches).toBe(2);
      // What it applies now: its group's override.
      expect(sim.settings?.settings.disable_sms).toBe(!globalSms);
    } finally {
      ctl.abort();
      await running;
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  }, 90_000);
});

/** Deep equality with asymmetric matchers, without failing the test (to collect every failing case). */
function matches(got: unknown, want: unknown): boolean {
  try {
    expect(got).toEqual(want);
    return true;
  } catch {
    return false;
  }
}
