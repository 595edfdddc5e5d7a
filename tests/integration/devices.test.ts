import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import Papa from 'papaparse';
import request from 'supertest';
import { DEVICE_ACTION } from '../../shared/constants/deviceActions';
import { DEVICE_STATUS, STATUS_FILTERS } from '../../shared/constants/domain';
import { FIELD_LABELS } from '../../shared/constants/fieldLabels';
import { EXPORT_COLUMNS, EXPORT_DATE_TIME_COLUMNS } from '../../shared/contracts/deviceImport';
import { deviceBody, type Device, type DeviceList } from '../../shared/contracts/devices';
import { adminApi, type AdminApi } from '../helpers/adminApi';
import { insertDevices, insertGroup, testImei, type DeviceFixture } from '../helpers/inventoryFixtures';
import { asSent, sendJson } from '../helpers/randomBodies';
import { createTestDb, testEngines, type TestDb } from '../helpers/testDb';
import { DeviceRepository } from '../../server/devices/deviceRepository';
import { EXACT_COUNT_CAP, SEARCH_GATHER_MAX } from '../../server/devices/devicesService';
import { DEVICE_SORTS } from '../../shared/constants/limits';

const DAY = 86_400_000;
const NOW = new Date();
const ago = (ms: number) => new Date(NOW.getTime() - ms);

/** The export's header: the date-time columns name the zone they are written in. */
const exportHeader = (zone: string) => EXPORT_COLUMNS.map((c) => (EXPORT_DATE_TIME_COLUMNS.includes(c) ? `${c} (${zone})` : c));

/** Parses an export: checks the BOM and header (dates in `zone`), answers the rows as objects keyed by the bare column names. */
function parseExport(text: string, zone = 'UTC'): Record<string, string>[] {
  expect(text.startsWith('\uFEFF')).toBe(true);
  const header = Papa.parse<string[]>(text.slice(1), { preview: 1 }).data[0];
  expect(header).toEqual(exportHeader(zone));
  const parsed = Papa.parse<Record<string, string>>(text.slice(1), {
    header: true,
    skipEmptyLines: true,
    transformHeader: (h) => h.replace(` (${zone})`, ''),
  });
  expect(parsed.meta.fields).toEqual([...EXPORT_COLUMNS]);
  return parsed.data;
}

/** supertest: the body of a CSV answer as text. */
const asText = (res: request.Response, cb: (err: Error | null, body: string) => void) => {
  let text = '';
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => (text += chunk));
  res.on('end', () => cb(null, text));
};

describe.each(testEngines())('device registry API on %s', (engine) => {
  let t: TestDb;
  let api: AdminApi;
  let admin: Record<string, string>;
  let soporte: Record<string, string>;
  let nobody: Record<string, string>;
  let north: number;
  let south: number;
  /** Named fixtures → ids. */
  const ids: Record<string, number> = {};

  const app = () => api.ta.app;
  const count = async (sql: string, params: unknown[] = []) => Number((await t.db.query<{ n: number }>(sql, params)).rows[0]!.n);
  const lastAudit = async () => (await t.db.query<Record<string, unknown>>('SELECT * FROM audit_log ORDER BY id DESC LIMIT 1')).rows[0]!;

  /** Every page of a list query (perPage 100), checking that the pages agree with the total. */
  async function listAll(query: Record<string, string>): Promise<{ data: Device[]; total: number }> {
    const data: Device[] = [];
    let total = 0;
    for (let page = 1; ; page++) {
      const res = await request(app())
        .get('/api/v5/devices')
        .query({ ...query, perPage: '100', page: String(page) })
        .set(admin)
        .expect(200);
      const body = res.body as DeviceList;
      total = body.total;
      expect(body.totalIsEstimate).toBe(false);
      data.push(...body.data);
      if (body.data.length < 100) break;
    }
    expect(data).toHaveLength(total);
    return { data, total };
  }

  beforeAll(async () => {
    t = await createTestDb(engine);
    api = await adminApi(t.db, { deps: { now: () => NOW } });
    admin = await api.headersOf('admin@demo.local');
    soporte = await api.headersOf('soporte@demo.local');
    await api.addAdmin('tablero@demo.local', await api.addProfile('Solo tablero', ['/dashboard', '/dashboard/general'], []));
    nobody = await api.headersOf('tablero@demo.local');
    north = await insertGroup(t.db, 'Sucursal Norte');
    south = await insertGroup(t.db, 'Sucursal Sur');

    const fixtures: [string, DeviceFixture][] = [
      ['active1', { brand: 'Samsung', groupId: north, createdAt: ago(10 * DAY), serial: 'SN-ALFA-001', customerName: 'Begoña Ibáñez' }],
      ['active2', { brand: 'Motorola', groupId: south, createdAt: ago(9 * DAY), creditReference: 'CR-2026-004512', lastSeenAt: ago(2 * 3600_000) }],
      ['activeTv', { deviceType: 2, brand: 'Hisense', model: '55U6K', createdAt: ago(8 * DAY), customerName: 'Raúl Núñez' }],
      ['activeNoBrand', { brand: null, createdAt: ago(7 * DAY), lastSeenAt: ago(3600_000) }],
      ['lockedCredit', { lockState: 'locked', lockType: 'PorCredito', groupId: north, createdAt: ago(6 * DAY) }],
      ['lockedConn', { lockState: 'locked', lockType: 'PorNoConexion', deviceType: 2, brand: 'TCL', createdAt: ago(6 * DAY - 1000) }],
      ['lockedSim', { lockState: 'locked', lockType: 'PorCambioSIM', brand: 'Xiaomi', createdAt: ago(5 * DAY) }],
      ['lockedKiosk', { lockState: 'locked', lockType: 'SinKiosko', groupId: south, createdAt: ago(5 * DAY - 1000) }],
      ['lockedOffline', { lockState: 'locked', lockType: 'PorCredito', lastSeenAt: ago(10 * DAY), createdAt: ago(40 * DAY) }],
      ['activeOffline', { lastSeenAt: ago(5 * DAY), brand: 'Honor', createdAt: ago(30 * DAY) }],
      ['enrolled', { lifecycle: 'enrolled', createdAt: ago(4 * DAY) }],
      ['enrolling', { lifecycle: 'enrolling', lastSeenAt: null, createdAt: ago(4 * DAY - 1000) }],
      ['released', { lifecycle: 'released', lastSeenAt: ago(20 * DAY), createdAt: ago(60 * DAY) }],
      ['suspended', { lifecycle: 'suspended', groupId: north, createdAt: ago(3 * DAY) }],
      ['failed', { failureReason: 'rechazado', createdAt: ago(3 * DAY - 1000) }],
      ['unlockedOffline', { lockState: 'unlocked_offline', createdAt: ago(2 * DAY) }],
      ['temporary', { lockState: 'temporary_active', createdAt: ago(2 * DAY - 1000) }],
      ['configured', { lifecycle: 'configured', createdAt: ago(2 * DAY - 2000) }],
      ['reconfLocked', { lifecycle: 'reconfigured', lockState: 'locked', lockType: 'PorCredito', createdAt: ago(2 * DAY - 3000) }],
      ['pendingLock', { createdAt: ago(DAY) }],
      ['pendingUnlock', { lockState: 'locked', lockType: 'PorCredito', createdAt: ago(DAY - 1000) }],
      ['pendingTemporary', { lockState: 'locked', lockType: 'PorCredito', createdAt: ago(DAY - 2000) }],
      ['pendingRelease', { createdAt: ago(DAY - 3000) }],
      ['pendingConfig', { createdAt: ago(DAY - 4000) }],
      ['pre1', { lifecycle: 'pre_enrolled', groupId: north, createdAt: ago(3600_000), customerName: 'Ximena Peña' }],
      ['pre2', { lifecycle: 'pre_enrolled', deviceType: 2, brand: 'TCL', createdAt: ago(1800_000) }],
      ['pre3', { lifecycle: 'pre_enrolled', createdAt: ago(600_000), creditReference: 'CR-2026-000777' }],
      ['deleted', { createdAt: ago(DAY), customerName: 'Begoña Borrada' }],
    ];
    const created = await insertDevices(
      t.db,
      fixtures.map(([, f]) => f),
    );
    fixtures.forEach(([name], i) => (ids[name] = created[i]!));
    const pending = async (name: string, action: number, until: Date | null = null) =>
      t.db.query('UPDATE devices SET pending_action = $2, pending_until = $3 WHERE id = $1', [ids[name], action, until]);
    await pending('pendingLock', DEVICE_ACTION.LOCK);
    await pending('pendingUnlock', DEVICE_ACTION.UNLOCK);
    await pending('pendingTemporary', DEVICE_ACTION.UNLOCK, new Date(NOW.getTime() + DAY));
    await pending('pendingRelease', DEVICE_ACTION.RELEASE);
    await pending('pendingConfig', DEVICE_ACTION.RESTRICTIONS);
    await t.db.query('UPDATE devices SET deleted_at = now() WHERE id = $1', [ids.deleted]);
  }, 60_000);
  afterAll(async () => {
    await t?.dispose();
  });

  describe('list', () => {
    let all: Device[];
    beforeAll(async () => {
      all = (await listAll({})).data;
    });

    test('every live device once, the status derived; deleted devices never listed', () => {
      expect(all.map((d) => d.id).sort((a, b) => a - b)).toEqual(
        Object.entries(ids)
          .filter(([n]) => n !== 'deleted')
          .map(([, id]) => id)
          .sort((a, b) => a - b),
      );
      const status = (name: string) => all.find((d) => d.id === ids[name])!.status;
      expect(status('active1')).toBe(DEVICE_STATUS.activo);
      expect(status('lockedOffline')).toBe(DEVICE_STATUS.sin_conexion);
      expect(status('activeOffline')).toBe(DEVICE_STATUS.sin_conexion);
      expect(status('pendingTemporary')).toBe(DEVICE_STATUS.TEMPORARY_UNLOCKING);
      expect(status('pre1')).toBe(DEVICE_STATUS.PRE_ENROLLED);
      const one = all.find((d) => d.id === ids.active1)!;
      expect(one).toMatchObject({ groupId: north, groupName: 'Sucursal Norte', serial: 'SN-ALFA-001', deviceType: 1, pendingCommand: null });
      expect(one).not.toHaveProperty('secret');
    });

    test('each entry of the status filter list (including Bloqueado <tipo>) selects exactly the devices in that status', async () => {
      const nonEmpty: string[] = [];
      for (const entry of STATUS_FILTERS) {
        const expected = all.filter((d) => d.status === entry.status && (!entry.lockType || d.lockType === entry.lockType)).map((d) => d.id);
        const got = (await listAll({ status: entry.value })).data.map((d) => d.id);
        expect([entry.value, got.sort((a, b) => a - b)]).toEqual([entry.value, expected.sort((a, b) => a - b)]);
        if (expected.length) nonEmpty.push(entry.value);
      }
      // Every entry but 'desbloqueado' (a status no fact combination gives) is exercised by the set.
      expect(nonEmpty).toEqual(STATUS_FILTERS.map((f) => f.value).filter((v) => v !== String(DEVICE_STATUS.desbloqueado)));
      expect((await listAll({ status: '3:PorCredito' })).data.map((d) => d.id).sort()).toEqual([ids.lockedCredit].sort());
      expect((await listAll({ status: '3' })).data.map((d) => d.id).sort()).toEqual(
        [ids.lockedCredit, ids.lockedConn, ids.lockedSim, ids.lockedKiosk].sort(),
      );
    });

    test('stage, device type and group filters (group "none" included), combined', async () => {
      const idsOf = async (q: Record<string, string>) => (await listAll(q)).data.map((d) => d.id).sort((a, b) => a - b);
      const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
      expect(await idsOf({ stage: 'preEnrolled' })).toEqual(sorted([ids.pre1!, ids.pre2!, ids.pre3!]));
      expect(await idsOf({ stage: 'enrolled' })).toEqual(sorted(all.filter((d) => d.status !== DEVICE_STATUS.PRE_ENROLLED).map((d) => d.id)));
      expect(await idsOf({ deviceType: '2' })).toEqual(sorted(all.filter((d) => d.deviceType === 2).map((d) => d.id)));
      expect(await idsOf({ groupId: String(north) })).toEqual(sorted([ids.active1!, ids.lockedCredit!, ids.suspended!, ids.pre1!]));
      expect(await idsOf({ groupId: 'none' })).toEqual(sorted(all.filter((d) => d.groupId === null).map((d) => d.id)));
      expect(await idsOf({ groupId: String(north), stage: 'enrolled', status: '3' })).toEqual([ids.lockedCredit]);
      expect(await idsOf({ deviceType: '2', stage: 'preEnrolled' })).toEqual([ids.pre2]);
      expect(await idsOf({ groupId: '999999' })).toEqual([]);
    });

    test('search: IMEI prefix (either IMEI), serial, customer and credit reference; case and wildcards', async () => {
      const idsOf = async (search: string, extra: Record<string, string> = {}) =>
        (await listAll({ search, ...extra })).data.map((d) => d.id).sort((a, b) => a - b);
      const device = all.find((d) => d.id === ids.activeTv)!;
      expect(await idsOf(device.imei.slice(0, 12))).toEqual(
        all
          .filter((d) => d.imei.startsWith(device.imei.slice(0, 12)))
          .map((d) => d.id)
          .sort((a, b) => a - b),
      );
      expect(await idsOf(device.imei)).toEqual([ids.activeTv]);
      await t.db.query('UPDATE devices SET imei2 = $2 WHERE id = $1', [ids.active2, testImei(424242, '01')]);
      expect(await idsOf(testImei(424242, '01').slice(0, 10))).toEqual([ids.active2]);
      expect(await idsOf('sn-alfa')).toEqual([ids.active1]);
      expect(await idsOf('begoña')).toEqual([ids.active1]); // the deleted Begoña is not found
      expect(await idsOf('IBÁÑEZ')).toEqual([ids.active1]);
      // The reference §5 input removes ñ as it is typed: 'Begoña' arrives as 'Begoa', 'Ibáñez' as 'Ibáez'.
      // Accents and case are folded, and a name with ñ is found spelled with n as well.
      expect(await idsOf('Begoa')).toEqual([ids.active1]);
      expect(await idsOf('ibaez')).toEqual([ids.active1]);
      expect(await idsOf('Ibanez')).toEqual([ids.active1]);
      expect(await idsOf('begona ibanez')).toEqual([ids.active1]);
      expect(await idsOf('BEGOÑA')).toEqual([ids.active1]);
      expect(await idsOf('CR-2026-004512')).toEqual([ids.active2]);
      expect(await idsOf('cr-2026', { stage: 'preEnrolled' })).toEqual([ids.pre3]);
      expect(await idsOf('%')).toEqual([]);
      expect(await idsOf('_')).toEqual([]);
      expect(await idsOf('no existe')).toEqual([]);
    });

    test('search: every word must be found; a word of letters begins a word, a word with a digit is a substring', async () => {
      const idsOf = async (search: string) => (await listAll({ search })).data.map((d) => d.id).sort((a, b) => a - b);
      // Words of letters: the beginning of a word of the serial, customer name or credit reference,
      // accents, case and ñ folded (ñ typed, removed, or as n), in any order.
      expect(await idsOf('Bego')).toEqual([ids.active1]);
      expect(await idsOf('iba')).toEqual([ids.active1]);
      expect(await idsOf('ibáñ')).toEqual([ids.active1]);
      expect(await idsOf('ibanez begoa')).toEqual([ids.active1]);
      expect(await idsOf('NÚÑ ra')).toEqual([ids.activeTv]);
      expect(await idsOf('Pea')).toEqual([ids.pre1]);
      expect(await idsOf('ximena pena')).toEqual([ids.pre1]);
      // Inside a word it is not found; every word must be found in the same device.
      expect(await idsOf('egoa')).toEqual([]);
      expect(await idsOf('ez')).toEqual([]);
      expect(await idsOf('begona pea')).toEqual([]);
      // The serial's runs of letters are words too ('SN-ALFA-001': sn, alfa).
      expect(await idsOf('alfa')).toEqual([ids.active1]);
      expect(await idsOf('SN-ALF')).toEqual([ids.active1]);
      // A word with a digit is a substring, anywhere, alone or with words of letters.
      expect(await idsOf('2026-0045')).toEqual([ids.active2]);
      expect(await idsOf('lfa-00')).toEqual([ids.active1]);
      expect(await idsOf('begona lfa-00')).toEqual([ids.active1]);
      expect(await idsOf('raul lfa-00')).toEqual([]);
      expect(await idsOf('CR-2026 00077')).toEqual([ids.pre3]);
    });

    test('every sort, both directions, id breaking ties in the same direction', async () => {
      for (const sort of DEVICE_SORTS) {
        for (const order of ['asc', 'desc'] as const) {
          const got = (await listAll({ sort, order })).data;
          expect(got).toHaveLength(all.length);
          const key = (d: Device): (string | number | null)[] => {
            switch (sort) {
              case 'createdAt':
                return [d.createdAt];
              case 'imei':
                return [d.imei];
              case 'lastSeenAt':
                return [d.lastSeenAt];
            }
          };
          // A device never seen comes last in both orders; the id breaks ties in the sort's direction.
          const dir = order === 'asc' ? 1 : -1;
          const cmp = (a: string | number | null, b: string | number | null) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -dir : dir);
          const compare = (a: Device, b: Device) => {
            const ka = [...key(a), a.id];
            const kb = [...key(b), b.id];
            for (let i = 0; i < ka.length; i++) {
              const c = cmp(ka[i]!, kb[i]!);
              if (c) return c;
            }
            return 0;
          };
          if (sort === 'lastSeenAt') expect(got.some((d) => d.lastSeenAt === null) && got.some((d) => d.lastSeenAt !== null)).toBe(true);
          const expected = [...got].sort(compare);
          expect([sort, order, got.map((d) => d.id)]).toEqual([sort, order, expected.map((d) => d.id)]);
        }
      }
      const newest = await request(app()).get('/api/v5/devices').query({ perPage: '1' }).set(admin).expect(200);
      expect(newest.body.data[0].id).toBe(ids.pre3); // default: createdAt desc
    });

    test('paging: pages partition the set; total is exact below the cap', async () => {
      const seen: number[] = [];
      for (let page = 1; page <= 6; page++) {
        const res = await request(app())
          .get('/api/v5/devices')
          .query({ perPage: '5', page: String(page), sort: 'imei', order: 'asc' })
          .set(admin)
          .expect(200);
        expect(res.body).toMatchObject({ total: all.length, totalIsEstimate: false });
        expect(res.body.data.length).toBe(Math.max(0, Math.min(5, all.length - (page - 1) * 5)));
        seen.push(...res.body.data.map((d: Device) => d.id));
      }
      expect(seen.sort((a, b) => a - b)).toEqual(all.map((d) => d.id).sort((a, b) => a - b));
      const far = await request(app()).get('/api/v5/devices').query({ page: '999' }).set(admin).expect(200);
      expect(far.body).toEqual({ data: [], total: all.length, totalIsEstimate: false });
    });

    test('bad query parameters: 400 naming the parameter by its label, its name in `field`', async () => {
      const cases: [Record<string, string>, string][] = [
        [{ perPage: '101' }, 'Resultados por página'],
        [{ page: '0' }, 'Página'],
        [{ sort: 'secret' }, 'Orden'],
        [{ order: 'up' }, 'Sentido del orden'],
        [{ status: '99' }, 'Estado'],
        [{ status: '3:Otro' }, 'Estado'],
        [{ deviceType: '3' }, 'Tipo'],
        [{ groupId: 'abc' }, 'Grupo'],
        [{ stage: 'x' }, 'Etapa'],
        [{ search: 'x'.repeat(65) }, 'Búsqueda'],
      ];
      for (const [query, label] of cases) {
        const res = await request(app()).get('/api/v5/devices').query(query).set(admin).expect(400);
        expect(res.body.message.startsWith(`El parámetro ${label} `)).toBe(true);
        expect(res.body.field).toBe(Object.keys(query)[0]);
      }
    });
  });

  describe('one device', () => {
    test('GET /:id: the device; 404 when missing or deleted; 400 for a bad id', async () => {
      const res = await request(app()).get(`/api/v5/devices/${ids.lockedCredit}`).set(admin).expect(200);
      expect(res.body).toMatchObject({ id: ids.lockedCredit, status: DEVICE_STATUS.bloqueado, lockType: 'PorCredito', groupName: 'Sucursal Norte' });
      for (const id of [ids.deleted, 987654]) {
        const missing = await request(app()).get(`/api/v5/devices/${id}`).set(admin).expect(404);
        expect(missing.body).toEqual({ message: 'Dispositivo no encontrado', code: 'DEVICE_NOT_FOUND' });
      }
      for (const id of ['abc', '0', '1.5', '99999999999']) await request(app()).get(`/api/v5/devices/${id}`).set(admin).expect(400);
    });

    test('POST registers a pre-enrolled device with its own secret; audited without the secret', async () => {
      const imei = testImei(1001, '35');
      const res = await request(app())
        .post('/api/v5/devices')
        .set(admin)
        .send({
          imei: `${imei.slice(0, 5)} ${imei.slice(5)}`,
          deviceType: 1,
          brand: ' Samsung ',
          model: 'Galaxy A15',
          groupId: south,
          customerName: 'Ana',
          creditReference: '',
        })
        .expect(201);
      expect(res.body).toMatchObject({
        imei,
        imei2: null,
        deviceType: 1,
        brand: 'Samsung',
        groupId: south,
        groupName: 'Sucursal Sur',
        customerName: 'Ana',
        creditReference: null,
        status: DEVICE_STATUS.PRE_ENROLLED,
        lastSeenAt: null,
        enrolledAt: null,
      });
      const row = (await t.db.query<{ lifecycle: string; secret: Uint8Array }>('SELECT lifecycle, secret FROM devices WHERE id = $1', [res.body.id]))
        .rows[0]!;
      expect(row.lifecycle).toBe('pre_enrolled');
      expect(row.secret).toHaveLength(32);
      const other = (await t.db.query<{ secret: Uint8Array }>('SELECT secret FROM devices WHERE id = $1', [ids.active1])).rows[0]!;
      expect(Buffer.from(row.secret).equals(Buffer.from(other.secret))).toBe(false);
      const audit = await lastAudit();
      expect(audit).toMatchObject({
        entity: 'device',
        entity_id: String(res.body.id),
        action: 'create',
        actor_email: 'admin@demo.local',
        before: null,
      });
      expect(audit.after).toEqual({
        id: res.body.id,
        imei,
        imei2: null,
        serial: null,
        deviceType: 1,
        brand: 'Samsung',
        model: 'Galaxy A15',
        groupId: south,
        customerName: 'Ana',
        creditReference: null,
      });
      expect(JSON.stringify(audit)).not.toMatch(/secret/);
    });

    test('POST refusals: live IMEI taken (409), unknown group (400), bad fields (400); nothing written', async () => {
      const audits = await api.count('audit_log');
      const rows = await count('SELECT count(*) AS n FROM devices');
      const taken = (await request(app()).get(`/api/v5/devices/${ids.active1}`).set(admin)).body.imei as string;
      const dup = await request(app()).post('/api/v5/devices').set(admin).send({ imei: taken, deviceType: 1 }).expect(409);
      expect(dup.body).toEqual({ message: `Ya existe un dispositivo con el IMEI ${taken}`, code: 'IMEI_TAKEN', field: 'imei' });
      const group = await request(app())
        .post('/api/v5/devices')
        .set(admin)
        .send({ imei: testImei(1002), deviceType: 1, groupId: 999999 })
        .expect(400);
      expect(group.body).toEqual({ message: 'El campo Grupo no corresponde a un grupo existente', code: 'GROUP_NOT_FOUND', field: 'groupId' });
      const cases: [object, string][] = [
        [{ deviceType: 1 }, 'El campo IMEI es obligatorio'],
        [{ imei: '12345', deviceType: 1 }, 'El campo IMEI debe tener 15 dígitos'],
        [
          { imei: `${testImei(1003).slice(0, 14)}${(Number(testImei(1003)[14]) + 1) % 10}`, deviceType: 1 },
          'El campo IMEI no es un IMEI válido (dígito verificador incorrecto)',
        ],
        [{ imei: testImei(1003), deviceType: 3 }, 'El campo Tipo debe ser 1 (Móvil) o 2 (TV)'],
        [{ imei: testImei(1003) }, 'El campo Tipo es obligatorio'],
        [{ imei: 351234567890123, deviceType: 1 }, 'El campo IMEI debe tener 15 dígitos'],
        [[], 'El cuerpo de la solicitud debe ser un objeto JSON'],
        [{ imei: testImei(1003), deviceType: 1, brand: 'x'.repeat(61) }, 'El campo Marca admite como máximo 60 caracteres'],
        [{ imei: testImei(1003), deviceType: 1, groupId: 0 }, 'El campo Grupo debe ser un número entero positivo'],
        [{ imei: testImei(1003), deviceType: 1, imei2: '1' }, 'El campo IMEI 2 debe tener 15 dígitos'],
      ];
      for (const [body, message] of cases) {
        const res = await request(app()).post('/api/v5/devices').set(admin).send(body).expect(400);
        expect(res.body.message).toBe(message);
      }
      await request(app()).post('/api/v5/devices').set(admin).set('Content-Type', 'application/json').send('{"imei":').expect(400);
      expect(await count('SELECT count(*) AS n FROM devices')).toBe(rows);
      expect(await api.count('audit_log')).toBe(audits);
    });

    test("a deleted device's IMEI can be registered again", async () => {
      const deletedImei = (await t.db.query<{ imei: string }>('SELECT imei FROM devices WHERE id = $1', [ids.deleted])).rows[0]!.imei;
      const res = await request(app()).post('/api/v5/devices').set(admin).send({ imei: deletedImei, deviceType: 1 }).expect(201);
      expect(res.body.id).not.toBe(ids.deleted);
      ids.reRegistered = res.body.id;
    });

    test('PUT edits the registry fields, audited before/after; an unchanged edit writes nothing', async () => {
      const before = (await request(app()).get(`/api/v5/devices/${ids.active2}`).set(admin)).body as Device;
      const { imei, imei2, serial, deviceType, brand, model } = before;
      const body = { imei, imei2, serial, deviceType, brand, model, groupId: north, customerName: 'Luis Ruiz', creditReference: 'CR-2026-000001' };
      const res = await request(app()).put(`/api/v5/devices/${ids.active2}`).set(admin).send(body).expect(200);
      expect(res.body).toMatchObject({ ...body, groupName: 'Sucursal Norte', status: DEVICE_STATUS.activo, imei2: testImei(424242, '01') });
      const audit = await lastAudit();
      expect(audit).toMatchObject({ entity: 'device', entity_id: String(ids.active2), action: 'update' });
      expect(audit.before).toMatchObject({ groupId: south, creditReference: 'CR-2026-004512' });
      expect(audit.after).toMatchObject({ groupId: north, customerName: 'Luis Ruiz', creditReference: 'CR-2026-000001' });
      const audits = await api.count('audit_log');
      await request(app()).put(`/api/v5/devices/${ids.active2}`).set(admin).send(body).expect(200);
      expect(await api.count('audit_log')).toBe(audits);
    });

    test('PUT needs the pre-enrolled page; an enrolled device never changes identity; its customer, credit and group need the enrolled-devices page too', async () => {
      const bodyOf = (d: Device) => ({
        imei: d.imei,
        imei2: d.imei2,
        serial: d.serial,
        deviceType: d.deviceType,
        brand: d.brand,
        model: d.model,
        groupId: d.groupId,
        customerName: d.customerName,
        creditReference: d.creditReference,
      });
      const get = async (name: string) => (await request(app()).get(`/api/v5/devices/${ids[name]}`).set(admin).expect(200)).body as Device;
      const active = await get('active1');
      const pre = await get('pre2');
      const audits = await api.count('audit_log');
      // Support: the enrolled-devices page with HISTORY and SEND_NOTIFICATION, no pre-enrolled page.
      for (const [id, body] of [
        [ids.active1, { ...bodyOf(active), customerName: 'Otra Persona' }],
        [ids.active1, { ...bodyOf(active), creditReference: 'CR-OTRO-1' }],
        [ids.active1, { ...bodyOf(active), groupId: south }],
        [ids.pre2, { ...bodyOf(pre), imei: testImei(2101) }],
      ] as const) {
        const res = await request(app()).put(`/api/v5/devices/${id}`).set(soporte).send(body).expect(403);
        expect(res.body).toEqual({ message: 'No Autorizado', code: 'FORBIDDEN' });
      }
      expect(await get('active1')).toEqual(active);
      expect(await get('pre2')).toEqual(pre);
      expect(await api.count('audit_log')).toBe(audits);

      // Identity fields of an enrolled device: never, whoever asks.
      for (const [field, value] of [
        ['imei2', testImei(2102)],
        ['serial', 'SN-OTRO'],
        ['deviceType', 2],
        ['brand', 'Otra'],
        ['model', 'Otro'],
      ] as const) {
        const res = await request(app())
          .put(`/api/v5/devices/${ids.active1}`)
          .set(admin)
          .send({ ...bodyOf(active), [field]: value })
          .expect(409);
        expect(res.body).toEqual({
          message: `El campo ${FIELD_LABELS.devices[field]} no se puede cambiar en un dispositivo enrolado`,
          code: 'IDENTITY_NOT_EDITABLE',
          field,
        });
      }

      // The pre-enrolled page alone: every field of a pre-enrolled device; not the credit of an enrolled one.
      await api.addAdmin(
        'registro@demo.local',
        await api.addProfile('Registro', ['/inventory-management', '/inventory-management/devices-pre-enrolled'], []),
      );
      const registro = await api.headersOf('registro@demo.local');
      await request(app())
        .put(`/api/v5/devices/${ids.pre2}`)
        .set(registro)
        .send({ ...bodyOf(pre), brand: 'Hisense', customerName: 'Ana Pérez' })
        .expect(200);
      const refused = await request(app())
        .put(`/api/v5/devices/${ids.active1}`)
        .set(registro)
        .send({ ...bodyOf(active), customerName: 'Otra Persona' })
        .expect(403);
      expect(refused.body).toEqual({
        message: 'Tu perfil no permite cambiar el cliente, la referencia de crédito ni el grupo de un dispositivo enrolado',
        code: 'ASSIGNMENT_NOT_GRANTED',
      });
      expect(await get('active1')).toEqual(active);
      // Both pages: the customer, credit reference and group of an enrolled device.
      const moved = await request(app())
        .put(`/api/v5/devices/${ids.active1}`)
        .set(admin)
        .send({ ...bodyOf(active), customerName: 'Otra Persona', groupId: south })
        .expect(200);
      expect(moved.body).toMatchObject({ customerName: 'Otra Persona', groupId: south, imei: active.imei });
      await request(app()).put(`/api/v5/devices/${ids.active1}`).set(admin).send(bodyOf(active)).expect(200);
    });

    test('PUT: the IMEI changes only while pre-enrolled, and stays unique; group must exist; 404 for deleted', async () => {
      const enrolled = (await request(app()).get(`/api/v5/devices/${ids.enrolled}`).set(admin)).body as Device;
      const refused = await request(app())
        .put(`/api/v5/devices/${ids.enrolled}`)
        .set(admin)
        .send({ imei: testImei(2001), deviceType: enrolled.deviceType })
        .expect(409);
      expect(refused.body).toEqual({
        message: 'El IMEI solo se puede cambiar mientras el dispositivo está pre-enrolado',
        code: 'IMEI_NOT_EDITABLE',
        field: 'imei',
      });
      const pre = (await request(app()).get(`/api/v5/devices/${ids.pre3}`).set(admin)).body as Device;
      const taken = await request(app()).put(`/api/v5/devices/${ids.pre3}`).set(admin).send({ imei: enrolled.imei, deviceType: 1 }).expect(409);
      expect(taken.body.message).toBe(`Ya existe un dispositivo con el IMEI ${enrolled.imei}`);
      const badGroup = await request(app())
        .put(`/api/v5/devices/${ids.pre3}`)
        .set(admin)
        .send({ imei: pre.imei, deviceType: 1, groupId: 999999 })
        .expect(400);
      expect(badGroup.body.message).toBe('El campo Grupo no corresponde a un grupo existente');
      const moved = await request(app())
        .put(`/api/v5/devices/${ids.pre3}`)
        .set(admin)
        .send({ imei: testImei(2002), deviceType: 2, creditReference: 'CR-2026-000777' })
        .expect(200);
      expect(moved.body).toMatchObject({ imei: testImei(2002), deviceType: 2, status: DEVICE_STATUS.PRE_ENROLLED });
      await request(app())
        .put(`/api/v5/devices/${ids.deleted}`)
        .set(admin)
        .send({ imei: testImei(2003), deviceType: 1 })
        .expect(404);
      await request(app())
        .put('/api/v5/devices/987654')
        .set(admin)
        .send({ imei: testImei(2003), deviceType: 1 })
        .expect(404);
    });
  });

  describe('export', () => {
    async function exportOf(query: Record<string, string>, zone = 'UTC') {
      const res = await request(app()).get('/api/v5/devices/export').query(query).set(admin).buffer(true).parse(asText).expect(200);
      return { res, rows: parseExport(res.body as string, zone) };
    }

    test('the CSV holds exactly the filtered list (all pages), with Spanish labels; the export is audited', async () => {
      const queries: Record<string, string>[] = [
        {},
        { status: '3' },
        { stage: 'preEnrolled' },
        { groupId: String(north), sort: 'imei' },
        { search: 'cr-2026' },
        { deviceType: '2', perPage: '1', page: '3' },
      ];
      for (const query of queries) {
        const { rows } = await exportOf(query);
        const { perPage: _p, page: _g, ...filter } = query;
        const listed = (await listAll(filter)).data.map((d) => d.id).sort((a, b) => a - b);
        expect(rows.map((r) => Number(r.id))).toEqual(listed);
      }
      const { res, rows } = await exportOf({});
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toBe(`attachment; filename="dispositivos-${NOW.toISOString().slice(0, 10)}.csv"`);
      const row = (name: string) => rows.find((r) => Number(r.id) === ids[name])!;
      expect(row('lockedConn')).toMatchObject({ tipo: 'TV', estado: 'Bloqueado', tipo_bloqueo: 'Por No Conexión', marca: 'TCL' });
      expect(row('lockedOffline')).toMatchObject({ estado: 'Sin conexión', tipo_bloqueo: 'Por Crédito' });
      expect(row('active1')).toMatchObject({
        tipo: 'Móvil',
        estado: 'Activo',
        grupo: 'Sucursal Norte',
        cliente: 'Begoña Ibáñez',
        serie: 'SN-ALFA-001',
      });
      expect(row('pre1')).toMatchObject({ estado: 'Pre-enrolado', ultima_conexion: '', enrolado: '' });
      expect(new Date(row('active1').creado!).toISOString()).toBe(row('active1').creado);
      const audit = await lastAudit();
      expect(audit).toMatchObject({ entity: 'device', action: 'export', actor_email: 'admin@demo.local', detail: '{}' });
      await exportOf({ status: '3:PorCredito', groupId: 'none' });
      expect((await lastAudit()).detail).toBe(JSON.stringify({ status: '3:PorCredito', groupId: 'none' }));
    });

    test('formula cells are neutralised', async () => {
      await t.db.query('UPDATE devices SET customer_name = \'=HYPERLINK("http://x")\' WHERE id = $1', [ids.enrolling]);
      const { rows } = await exportOf({ search: 'hyperlink' });
      expect(rows.map((r) => r.cliente)).toEqual(['\'=HYPERLINK("http://x")']);
    });

    test('bad filters: 400, nothing audited', async () => {
      const audits = await api.count('audit_log');
      await request(app()).get('/api/v5/devices/export').query({ status: 'x' }).set(admin).expect(400);
      expect(await api.count('audit_log')).toBe(audits);
    });

    test("tz: the dates are the same instants written in the browser's zone, with its offset; the header names the zone", async () => {
      const utc = await exportOf({});
      const mx = await exportOf({ tz: 'America/Mexico_City' }, 'America/Mexico_City');
      expect(mx.rows.map((r) => r.id)).toEqual(utc.rows.map((r) => r.id));
      const byId = new Map(utc.rows.map((r) => [r.id, r]));
      let dates = 0;
      for (const row of mx.rows) {
        const before = byId.get(row.id)!;
        for (const column of EXPORT_DATE_TIME_COLUMNS) {
          if (before[column] === '') {
            expect(row[column]).toBe('');
            continue;
          }
          // Mexico City keeps -06:00 all year; the UTC file writes Z.
          expect(before[column]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
          expect(row[column]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}-06:00$/);
          expect(new Date(row[column]!).toISOString()).toBe(before[column]);
          dates++;
        }
      }
      expect(dates).toBeGreaterThan(mx.rows.length);
      // A zone named in any case is written as Intl names it.
      await exportOf({ tz: 'america/mexico_city' }, 'America/Mexico_City');
    });

    test('tz that is no time zone: 400 naming the parameter by its label, nothing audited', async () => {
      const audits = await api.count('audit_log');
      for (const tz of ['Mars/Olympus', 'x'.repeat(101), 'America/Mexico_City\u0000']) {
        const res = await request(app()).get('/api/v5/devices/export').query({ tz }).set(admin).expect(400);
        expect(res.body).toEqual({
          message: 'El parámetro Zona horaria debe ser una zona horaria IANA válida, por ejemplo America/Mexico_City',
          code: 'VALIDATION',
          field: 'tz',
        });
      }
      expect(await api.count('audit_log')).toBe(audits);
    });
  });

  describe('permissions', () => {
    test('a profile with the devices page reads, edits and exports, but cannot register (403)', async () => {
      await request(app()).get('/api/v5/devices').set(soporte).expect(200);
      await request(app()).get(`/api/v5/devices/${ids.active1}`).set(soporte).expect(200);
      await request(app()).get('/api/v5/devices/export').set(soporte).expect(200);
      const denied = await request(app())
        .post('/api/v5/devices')
        .set(soporte)
        .send({ imei: testImei(3001), deviceType: 1 })
        .expect(403);
      expect(denied.body).toEqual({ message: 'No Autorizado', code: 'FORBIDDEN' });
      await request(app()).get('/api/v5/devices/import/template').set(soporte).expect(403);
      await request(app()).post('/api/v5/devices/import').set(soporte).set('Content-Type', 'text/csv').send('imei,tipo\n').expect(403);
    });

    test('a profile without any inventory page gets 403 everywhere, and no data', async () => {
      for (const call of [
        request(app()).get('/api/v5/devices'),
        request(app()).get('/api/v5/devices/export'),
        request(app()).get(`/api/v5/devices/${ids.active1}`),
        request(app())
          .put(`/api/v5/devices/${ids.active1}`)
          .send({ imei: testImei(3002), deviceType: 1 }),
        request(app())
          .post('/api/v5/devices')
          .send({ imei: testImei(3002), deviceType: 1 }),
      ]) {
        const res = await call.set(nobody).expect(403);
        expect(res.body).toEqual({ message: 'No Autorizado', code: 'FORBIDDEN' });
      }
      await request(app()).get('/api/v5/devices').expect(401);
    });
  });

  test('random bodies on POST and PUT: only 400s, nothing changed', async () => {
    const state = async () => [
      await count('SELECT count(*) AS n FROM devices'),
      await api.count('audit_log'),
      (await t.db.query('SELECT * FROM devices WHERE id = $1', [ids.active1])).rows[0],
    ];
    const before = await state();
    const fields = ['imei', 'imei2', 'serial', 'deviceType', 'brand', 'model', 'groupId', 'customerName', 'creditReference'];
    const invalid = fc
      .oneof(
        fc.anything(),
        fc.object(),
        fc.dictionary(fc.constantFrom(...fields), fc.anything()),
        fc.record({
          imei: fc.oneof(fc.string(), fc.stringMatching(/^\d{15}$/)),
          deviceType: fc.anything(),
          groupId: fc.anything(),
          brand: fc.anything(),
        }),
      )
      .filter((b) => !deviceBody.safeParse(asSent(b)).success);
    for (const route of [() => request(app()).post('/api/v5/devices'), () => request(app()).put(`/api/v5/devices/${ids.active1}`)]) {
      await fc.assert(
        fc.asyncProperty(invalid, async (body) => {
          const res = await sendJson(route().set(admin), body);
          expect(res.status).toBe(400);
          expect(typeof res.body.message).toBe('string');
        }),
        { numRuns: 50 },
      );
    }
    expect(await state()).toEqual(before);
  });

  describe('large sets: the total without a full count', () => {
    let bulk: number;
    beforeAll(async () => {
      bulk = await insertGroup(t.db, 'Masivo');
      // 10,200 active and 10,200 suspended devices, set-based.
      await t.db.query(
        `INSERT INTO devices (imei, device_type, lifecycle, last_seen_at, group_id, brand, customer_name, secret, created_at)
         SELECT '77' || lpad(g::text, 13, '0'), 1 + (g % 5 = 0)::int, CASE WHEN g % 2 = 0 THEN 'operating' ELSE 'suspended' END,
                now(), $1, 'Genérica', 'Cliente Genérico ' || g, decode(md5(g::text) || md5(g::text || 'x'), 'hex'), now() - g * interval '1 second'
           FROM generate_series(1, 20400) g`,
        [bulk],
      );
      if (engine === 'postgres') await t.db.exec('ANALYZE devices, device_search');
    }, 60_000);

    test('above 10,000 matches (far above the bounded count) the counters give the exact total when they can', async () => {
      const get = async (q: Record<string, string>) =>
        (await request(app()).get('/api/v5/devices').query(q).set(admin).expect(200)).body as DeviceList;
      const exact = async (where: string) => count(`SELECT count(*) AS n FROM devices WHERE deleted_at IS NULL AND ${where}`);
      let list = await get({ groupId: String(bulk) });
      expect([list.total, list.totalIsEstimate, list.data.length]).toEqual([20_400, false, 25]);
      list = await get({ groupId: String(bulk), status: String(DEVICE_STATUS.SUSPENDED) });
      expect([list.total, list.totalIsEstimate]).toEqual([10_200, false]);
      list = await get({ stage: 'enrolled' });
      expect([list.total, list.totalIsEstimate]).toEqual([await exact('base_status <> 25'), false]);
      list = await get({ deviceType: '1' });
      expect([list.total, list.totalIsEstimate]).toEqual([await exact('device_type = 1'), false]);
      list = await get({});
      expect([list.total, list.totalIsEstimate]).toEqual([await exact('true'), false]);
    });

    test('a search of words: the page is the same whether its matches are gathered and sorted or read in the order of the sort', async () => {
      const repo = new DeviceRepository(t.db);
      const cutoff = new Date(NOW.getTime() - 72 * 3600_000);
      for (const search of ['genérico', 'cliente GEN', 'generico 12', 'begoña']) {
        for (const sort of DEVICE_SORTS) {
          for (const order of ['asc', 'desc'] as const) {
            for (const offset of [0, 50]) {
              const read = await repo.list({ search }, cutoff, sort, order, 25, offset);
              const gathered = (await repo.listGathered({ search }, cutoff, sort, order, 25, offset)).data;
              expect(gathered.map((d) => d.id)).toEqual(read.map((d) => d.id));
              expect(gathered).toEqual(read);
            }
          }
        }
      }
      expect((await repo.listGathered({ search: 'genérico' }, cutoff, 'imei', 'asc', 25, 0)).data.map((d) => d.imei)).toEqual(
        Array.from({ length: 25 }, (_, i) => `77${String(i + 1).padStart(13, '0')}`),
      );
      if (engine === 'postgres') {
        // The words' statistics (migration 0014) give the planner the size of a search of words:
        // above SEARCH_GATHER_MAX the page is read in the order of the sort, below it gathered.
        expect(await repo.estimate({ search: 'generico' }, cutoff)).toBeGreaterThan(SEARCH_GATHER_MAX);
        expect(await repo.estimate({ search: 'begona' }, cutoff)).toBeLessThan(SEARCH_GATHER_MAX / 10);
      }
    });

    test('a search or a clock-dependent status above the cap answers an estimate, flagged, never below the cap', async () => {
      for (const q of [{ search: '77' }, { status: String(DEVICE_STATUS.activo) }, { search: 'genérico', groupId: String(bulk) }]) {
        const res = await request(app()).get('/api/v5/devices').query(q).set(admin).expect(200);
        expect(res.body.totalIsEstimate).toBe(true);
        expect(res.body.total).toBeGreaterThanOrEqual(EXACT_COUNT_CAP + 1);
        expect(res.body.data).toHaveLength(25);
      }
      // Below the cap the same kinds of filter are exact.
      const small = await request(app()).get('/api/v5/devices').query({ search: '77000000000001' }).set(admin).expect(200);
      expect([small.body.total, small.body.totalIsEstimate]).toEqual([10, false]);
    });

    test('the export streams every matching device across batches, in id order', async () => {
      const res = await request(app())
        .get('/api/v5/devices/export')
        .query({ groupId: String(bulk) })
        .set(admin)
        .buffer(true)
        .parse(asText)
        .expect(200);
      const rows = parseExport(res.body as string);
      expect(rows).toHaveLength(20_400);
      const got = rows.map((r) => Number(r.id));
      expect(got).toEqual([...got].sort((a, b) => a - b));
      expect(new Set(got).size).toBe(20_400);
      expect(rows.filter((r) => r.estado === 'Suspendido')).toHaveLength(10_200);
    });

    test('a client that goes away mid-export stops it; the server keeps answering', async () => {
      const server = app().listen(0, '127.0.0.1');
      await once(server, 'listening');
      const { port } = server.address() as AddressInfo;
      try {
        const firstChunk = await new Promise<string>((resolve, reject) => {
          const req = http.get(
            { host: '127.0.0.1', port, path: `/api/v5/devices/export?groupId=${bulk}`, headers: { ...admin, 'Accept-Encoding': 'identity' } },
            (res) => {
              res.once('data', (chunk: Buffer) => {
                req.destroy();
                resolve(chunk.toString('utf8'));
              });
            },
          );
          req.on('error', (err) => (err.message === 'socket hang up' ? undefined : reject(err)));
        });
        expect(firstChunk.startsWith(`\uFEFF${exportHeader('UTC').join(',')}`)).toBe(true);
        const res = await request(app()).get('/api/v5/devices').query({ perPage: '1' }).set(admin).expect(200);
        expect(res.body.data).toHaveLength(1);
      } finally {
        server.close();
      }
    });
  });
});
