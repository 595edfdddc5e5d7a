/**
 * The devices list filters the dashboards link to (inFlight, agentVersion, agentVersionNot): the
 * rows and the total of the list, the CSV export and a bulk selection by filter agree.
 */
import Papa from 'papaparse';
import request from 'supertest';
import { DEVICE_ACTION } from '../../shared/constants/deviceActions';
import { DEVICE_STATUS } from '../../shared/constants/domain';
import { FIELD_LABELS } from '../../shared/constants/fieldLabels';
import { deviceFilter, type Device, type DeviceList } from '../../shared/contracts/devices';
import type { BulkPreview } from '../../shared/contracts/jobs';
import { DeviceRepository } from '../../server/devices/deviceRepository';
import { EXACT_COUNT_CAP } from '../../server/devices/devicesService';
import { adminApi, type AdminApi } from '../helpers/adminApi';
import { insertDevices, insertGroup, insertManyDevices, setPendingCommand, type DeviceFixture } from '../helpers/inventoryFixtures';
import { sendJson } from '../helpers/randomBodies';
import { createTestDb, testEngines, type TestDb } from '../helpers/testDb';

const DAY = 86_400_000;
const ago = (ms: number) => new Date(Date.now() - ms);
const Q = FIELD_LABELS.deviceFilter;

interface Fixture extends DeviceFixture {
  /** The command in flight, if any (UNLOCK with `until` is TEMPORARY_UNLOCKING). */
  pending?: { action: number; until?: Date };
  deleted?: boolean;
  /** The derived status the list must answer. */
  status: number;
}

/** Every kind of device the three filters must tell apart (names are the test's own). */
const FIXTURES: Record<string, Fixture> = {
  current: { agentVersion: '3.4.1', status: DEVICE_STATUS.activo },
  previous: { agentVersion: '3.3.0', status: DEVICE_STATUS.activo },
  // A longer version that starts like the current one: equality, never a prefix.
  longer: { agentVersion: '3.4.10', status: DEVICE_STATUS.activo },
  neverReported: { agentVersion: null, status: DEVICE_STATUS.activo },
  offlineLocked: { agentVersion: '3.3.0', lockState: 'locked', lastSeenAt: ago(10 * DAY), status: DEVICE_STATUS.sin_conexion },
  // Not seen for days, yet its status stays 'Bloqueando': a command in flight is never overlaid.
  locking: { agentVersion: '3.4.1', lastSeenAt: ago(10 * DAY), pending: { action: DEVICE_ACTION.LOCK }, status: DEVICE_STATUS.bloqueando },
  unlocking: { agentVersion: '3.3.0', lockState: 'locked', pending: { action: DEVICE_ACTION.UNLOCK }, status: DEVICE_STATUS.desbloqueando },
  unlockingUntil: {
    agentVersion: null,
    lockState: 'locked',
    pending: { action: DEVICE_ACTION.UNLOCK, until: new Date(Date.now() + DAY) },
    status: DEVICE_STATUS.TEMPORARY_UNLOCKING,
  },
  releasing: { agentVersion: '3.4.1', pending: { action: DEVICE_ACTION.RELEASE }, status: DEVICE_STATUS.liberando },
  configuring: { agentVersion: '3.4.1', pending: { action: DEVICE_ACTION.RESTRICTIONS }, status: DEVICE_STATUS.configurando },
  tv: { deviceType: 2, agentVersion: '1.8.0', status: DEVICE_STATUS.activo },
  tvLocking: { deviceType: 2, agentVersion: '1.8.0', pending: { action: DEVICE_ACTION.LOCK }, status: DEVICE_STATUS.bloqueando },
  failed: { agentVersion: '3.4.1', failureReason: 'rechazado', status: DEVICE_STATUS.fallido },
  // Released devices no longer run the agent: neither filter of the agent version lists them.
  released: { agentVersion: '3.3.0', lifecycle: 'released', lastSeenAt: ago(20 * DAY), status: DEVICE_STATUS.liberado },
  releasedCurrent: { agentVersion: '3.4.1', lifecycle: 'released', lastSeenAt: ago(20 * DAY), status: DEVICE_STATUS.liberado },
  preEnrolled: { lifecycle: 'pre_enrolled', status: DEVICE_STATUS.PRE_ENROLLED },
  deletedCurrent: { agentVersion: '3.4.1', deleted: true, status: DEVICE_STATUS.activo },
  deletedLocking: { agentVersion: '3.3.0', deleted: true, pending: { action: DEVICE_ACTION.LOCK }, status: DEVICE_STATUS.bloqueando },
};
type Name = keyof typeof FIXTURES;
const NAMES = Object.keys(FIXTURES) as Name[];

const IN_FLIGHT: Name[] = ['locking', 'unlocking', 'unlockingUntil', 'releasing', 'configuring', 'tvLocking'];
/** The live devices past pre-enrolment (the devices page's `stage=enrolled`). */
const ENROLLED = NAMES.filter((n) => !FIXTURES[n]!.deleted && n !== 'preEnrolled');
/** Of them, the devices that run the agent (the Android dashboard's and the lock-app page's count). */
const RUNNING = ENROLLED.filter((n) => FIXTURES[n]!.status !== DEVICE_STATUS.liberado);

describe.each(testEngines())('devices list filters for the dashboards on %s', (engine) => {
  let t: TestDb;
  let api: AdminApi;
  let admin: Record<string, string>;
  let groupId: number;
  const ids = {} as Record<Name, number>;
  const nameOf = new Map<number, Name>();

  const app = () => api.ta.app;

  beforeAll(async () => {
    t = await createTestDb(engine);
    api = await adminApi(t.db);
    admin = await api.headersOf('admin@demo.local');
    groupId = await insertGroup(t.db, 'Filtros del tablero');
    const created = await insertDevices(
      t.db,
      NAMES.map((n) => ({ ...FIXTURES[n], groupId })),
    );
    NAMES.forEach((n, i) => {
      ids[n] = created[i]!;
      nameOf.set(created[i]!, n);
    });
    for (const n of NAMES) {
      const f = FIXTURES[n]!;
      if (f.pending) await setPendingCommand(t.db, ids[n]!, f.pending.action, { until: f.pending.until ?? null });
      if (f.deleted) await t.db.query('UPDATE devices SET deleted_at = now() WHERE id = $1', [ids[n]]);
    }
  }, 60_000);
  afterAll(async () => {
    jest.restoreAllMocks();
    await t?.dispose();
  });

  /** Every page of the list (perPage 100): the names of its rows, its total, and whether the total was exact. */
  async function listAll(query: Record<string, string>): Promise<{ names: Name[]; total: number; rows: Device[] }> {
    const rows: Device[] = [];
    let total = 0;
    for (let page = 1; ; page++) {
      const res = await request(app())
        .get('/api/v5/devices')
        .query({ stage: 'enrolled', groupId: String(groupId), ...query, perPage: '100', page: String(page) })
        .set(admin)
        .expect(200);
      const body = res.body as DeviceList;
      expect(body.totalIsEstimate).toBe(false);
      total = body.total;
      rows.push(...body.data);
      if (body.data.length < 100) break;
    }
    expect(rows).toHaveLength(total);
    return { names: rows.map((d) => nameOf.get(d.id)!).sort(), total, rows };
  }

  const sorted = (names: Name[]) => [...names].sort();

  test('inFlight=true: exactly the devices with a command in flight (the offline one included), total exact', async () => {
    const { names, total, rows } = await listAll({ inFlight: 'true' });
    expect(names).toEqual(sorted(IN_FLIGHT));
    expect(total).toBe(IN_FLIGHT.length);
    for (const d of rows) expect(d.status).toBe(FIXTURES[nameOf.get(d.id)!]!.status);
    expect(new Set(rows.map((d) => d.status))).toEqual(
      new Set([
        DEVICE_STATUS.bloqueando,
        DEVICE_STATUS.desbloqueando,
        DEVICE_STATUS.TEMPORARY_UNLOCKING,
        DEVICE_STATUS.liberando,
        DEVICE_STATUS.configurando,
      ]),
    );
    // Combined with the other filters: the TVs with a command in flight.
    expect((await listAll({ inFlight: 'true', deviceType: '2' })).names).toEqual(['tvLocking']);
    expect((await listAll({ inFlight: 'true', status: String(DEVICE_STATUS.liberando) })).names).toEqual(['releasing']);
  });

  test('inFlight=false: every other enrolled device', async () => {
    const { names, total } = await listAll({ inFlight: 'false' });
    expect(names).toEqual(sorted(ENROLLED.filter((n) => !IN_FLIGHT.includes(n))));
    expect(total).toBe(ENROLLED.length - IN_FLIGHT.length);
  });

  test('agentVersion: the devices reporting exactly that version (not a longer one that starts alike, not a released one)', async () => {
    const current = RUNNING.filter((n) => FIXTURES[n]!.agentVersion === '3.4.1');
    expect(current).toEqual(expect.arrayContaining(['current', 'locking', 'releasing', 'configuring', 'failed']));
    const { names, total } = await listAll({ agentVersion: '3.4.1' });
    expect(names).toEqual(sorted(current));
    expect(total).toBe(current.length);
    expect(names).not.toContain('releasedCurrent');
    expect((await listAll({ agentVersion: ' 3.4.1 ' })).names).toEqual(sorted(current));
    expect((await listAll({ agentVersion: '3.4' })).total).toBe(0);
    expect((await listAll({ agentVersion: '3.4.1', inFlight: 'true' })).names).toEqual(sorted(['locking', 'releasing', 'configuring']));
    expect((await listAll({ agentVersion: '1.8.0', deviceType: '2' })).names).toEqual(sorted(['tv', 'tvLocking']));
  });

  test('agentVersionNot: the devices reporting another version; those that never reported one are left out', async () => {
    const outdated = RUNNING.filter((n) => {
      const v = FIXTURES[n]!.agentVersion;
      return v !== undefined && v !== null && v !== '3.4.1';
    });
    expect(outdated).toEqual(expect.arrayContaining(['previous', 'longer', 'tv']));
    const { names, total } = await listAll({ agentVersionNot: '3.4.1' });
    expect(names).toEqual(sorted(outdated));
    expect(total).toBe(outdated.length);
    expect(names).not.toContain('neverReported');
    expect(names).not.toContain('unlockingUntil');
    expect(names).not.toContain('released');
    // The smartphones' row of the dashboard: another version than the smartphones' current one.
    expect((await listAll({ agentVersionNot: '3.4.1', deviceType: '1' })).names).toEqual(
      sorted(['previous', 'longer', 'offlineLocked', 'unlocking']),
    );
  });

  test('invalid values: 400 naming the parameter by its Spanish label', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ inFlight: 'yes' }, `El parámetro ${Q.inFlight} debe ser uno de: true, false`],
      [{ agentVersion: 'v'.repeat(41) }, `El parámetro ${Q.agentVersion} debe ser un texto de como máximo 40 caracteres`],
      [{ agentVersionNot: 'v'.repeat(41) }, `El parámetro ${Q.agentVersionNot} debe ser un texto de como máximo 40 caracteres`],
      [{ agentVersionNot: '3.4\u00011' }, `El parámetro ${Q.agentVersionNot} contiene caracteres no permitidos`],
    ];
    for (const [query, message] of cases) {
      const res = await request(app()).get('/api/v5/devices').query(query).set(admin).expect(400);
      expect(res.body).toMatchObject({ message, field: Object.keys(query)[0] });
    }
  });

  test('the CSV export holds the same devices as the list; the audit keeps the filter', async () => {
    const asText = (res: request.Response, cb: (err: Error | null, body: string) => void) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => cb(null, text));
    };
    const cases: [Record<string, string>, object][] = [
      [{ inFlight: 'true' }, { inFlight: true }],
      [{ agentVersion: '3.4.1' }, { agentVersion: '3.4.1' }],
      [
        { agentVersionNot: '3.4.1', deviceType: '1' },
        { agentVersionNot: '3.4.1', deviceType: 1 },
      ],
    ];
    for (const [query, audited] of cases) {
      const full = { stage: 'enrolled', groupId: String(groupId), ...query };
      const res = await request(app()).get('/api/v5/devices/export').query(full).set(admin).buffer(true).parse(asText).expect(200);
      const rows = Papa.parse<Record<string, string>>((res.body as string).slice(1), { header: true, skipEmptyLines: true }).data;
      expect(rows.map((r) => nameOf.get(Number(r.id))!).sort()).toEqual((await listAll(query)).names);
      const audit = (await t.db.query<{ detail: string }>("SELECT detail FROM audit_log WHERE action = 'export' ORDER BY id DESC LIMIT 1")).rows[0]!;
      expect(JSON.parse(audit.detail)).toEqual(JSON.parse(JSON.stringify(deviceFilter.parse(full))));
      expect(JSON.parse(audit.detail)).toMatchObject(audited);
    }
  });

  test('a bulk selection by filter matches the same devices (dry run)', async () => {
    const preview = async (filter: Record<string, string>) => {
      const res = await sendJson(request(app()).post('/api/v5/devices/bulk-actions/preview').set(admin), {
        selection: { filter: { stage: 'enrolled', groupId: String(groupId), ...filter } },
        payload: { action: DEVICE_ACTION.SEND_NOTIFICATION, title: 'Aviso', message: 'Actualice la aplicación' },
      }).expect(200);
      return res.body as BulkPreview;
    };
    const inFlight = await preview({ inFlight: 'true' });
    expect(inFlight.total).toBe(IN_FLIGHT.length);
    expect(inFlight.byStatus.reduce((sum, s) => sum + s.count, 0)).toBe(IN_FLIGHT.length);
    expect((await preview({ agentVersion: '3.4.1' })).total).toBe((await listAll({ agentVersion: '3.4.1' })).total);
    expect((await preview({ agentVersionNot: '3.4.1' })).total).toBe((await listAll({ agentVersionNot: '3.4.1' })).total);
    const bad = await sendJson(request(app()).post('/api/v5/devices/bulk-actions/preview').set(admin), {
      selection: { filter: { inFlight: 'sí' } },
      payload: { action: DEVICE_ACTION.SEND_NOTIFICATION, title: 'Aviso', message: 'Hola' },
    }).expect(400);
    expect(bad.body.message).toBe(`El parámetro ${Q.inFlight} debe ser uno de: true, false`);
  });

  test('inFlight is counted by the maintained counters: exact beyond the exact-count cap, no scan of the devices', async () => {
    const many = await insertGroup(t.db, 'Muchos en curso');
    const created = await insertManyDevices(t.db, EXACT_COUNT_CAP + 5, { groupId: many });
    await t.db.query('UPDATE devices SET pending_action = $2 WHERE id = ANY($1::bigint[])', [created, DEVICE_ACTION.LOCK]);
    await insertManyDevices(t.db, 7, { groupId: many, lastSeenAt: ago(10 * DAY) });
    const countUpTo = jest.spyOn(DeviceRepository.prototype, 'countUpTo');
    const res = await request(app())
      .get('/api/v5/devices')
      .query({ stage: 'enrolled', groupId: String(many), inFlight: 'true' })
      .set(admin)
      .expect(200);
    expect(res.body).toMatchObject({ total: EXACT_COUNT_CAP + 5, totalIsEstimate: false });
    expect(countUpTo).not.toHaveBeenCalled();
    const rest = await request(app())
      .get('/api/v5/devices')
      .query({ stage: 'enrolled', groupId: String(many), inFlight: 'false' })
      .set(admin)
      .expect(200);
    expect(rest.body).toMatchObject({ total: 7, totalIsEstimate: false });
    expect(countUpTo).not.toHaveBeenCalled();
    // The agent version is not in the counters: counted on the devices.
    await request(app())
      .get('/api/v5/devices')
      .query({ stage: 'enrolled', groupId: String(many), agentVersion: '3.4.1' })
      .set(admin)
      .expect(200);
    expect(countUpTo).toHaveBeenCalledTimes(1);
    countUpTo.mockRestore();
  });
});
