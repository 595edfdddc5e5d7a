/**
 * The device export's CSV written by the database (DeviceRepository.exportCsvBatch, the SQL of
 * deviceExportSql.ts) is byte for byte what the Node writer (exportLines: papaparse with its
 * formula guard) writes for the same devices: quotes, commas, line breaks, formulas, accents,
 * empty and null cells, every label, the dates in UTC and in zones with odd offsets, the filters.
 */
import { DEVICE_STATUS } from '../../shared/constants/domain';
import type { DeviceFilter } from '../../shared/contracts/devices';
import { offlineCutoff } from '../../shared/deviceStatus';
import { exportHeader, exportLines } from '../../server/devices/deviceCsv';
import { DeviceRepository } from '../../server/devices/deviceRepository';
import { DevicesService } from '../../server/devices/devicesService';
import { csvZone } from '../../server/audit/csv';
import { insertDevices, insertGroup, testImei, type DeviceFixture } from '../helpers/inventoryFixtures';
import { createTestDb, testEngines, type TestDb } from '../helpers/testDb';

const DAY = 86_400_000;

/** Text a cell may hold, each written differently by the CSV writer (or not at all: null). */
const TRICKY: (string | null)[] = [
  'Samsung',
  'comilla "doble"',
  '"',
  'coma, y más',
  ',',
  'línea\nnueva',
  'retorno\rsolo',
  'fin de línea\r\n',
  '=SUMA(A1:A9)',
  '=',
  '+52 55 1234 5678',
  '-5',
  '-',
  '@usuario',
  '\tTabulador',
  '\rRetorno',
  '=fórmula\ncon salto',
  '+con\u2028separador',
  '-con\u2029párrafo',
  ' espacio delante',
  'espacio detrás ',
  ' ',
  '',
  'Peña Ñandú àéíóú ÁÉÍÓÚ ü',
  '\uFEFFcon BOM',
  "'apóstrofo",
  'tab\tdentro',
  'emoji 📱 y ñ',
  'a;b|c',
  null,
];

/** The zones the dates are checked in: UTC, named UTC, half and three-quarter hours, both sides of UTC, daylight saving. */
const ZONES = [undefined, 'UTC', 'America/Mexico_City', 'Asia/Kolkata', 'America/St_Johns', 'Asia/Kathmandu', 'Pacific/Chatham', 'Europe/Madrid'];

describe.each(testEngines())('the CSV export written by the database, on %s', (engine) => {
  let t: TestDb;
  let repo: DeviceRepository;
  const now = new Date();
  const cutoff = offlineCutoff(now, 48);
  let groupId: number;

  /** The whole export of `filter` by the Node writer and by the database, `batch` devices per query. */
  async function bothWriters(filter: DeviceFilter, tz: string | undefined, batch = 4): Promise<{ node: string; db: string; rows: number }> {
    const zone = csvZone(tz);
    let node = '';
    let rows = 0;
    for (let after = 0; ;) {
      const records = await repo.exportBatch(filter, cutoff, after, batch);
      node += exportLines(records, zone);
      rows += records.length;
      if (records.length < batch) break;
      after = records[records.length - 1]![0];
    }
    let db = '';
    for (let after = 0; ;) {
      const b = await repo.exportCsvBatch(filter, cutoff, after, batch, tz);
      db += b.csv;
      if (b.count < batch) break;
      after = b.lastId;
    }
    return { node, db, rows };
  }

  beforeAll(async () => {
    t = await createTestDb(engine);
    repo = new DeviceRepository(t.db);
    groupId = await insertGroup(t.db, '@Grupo, "raro" ñ');
    const fixtures: DeviceFixture[] = TRICKY.map((text, i) => ({
      ...(i === 0 ? { imei: testImei(1, '35') } : {}),
      brand: text,
      model: TRICKY[(i + 1) % TRICKY.length]!,
      serial: TRICKY[(i + 2) % TRICKY.length]!,
      customerName: TRICKY[(i + 3) % TRICKY.length]!,
      creditReference: TRICKY[(i + 4) % TRICKY.length]!,
      agentVersion: TRICKY[(i + 5) % TRICKY.length]!,
      groupId: i % 3 === 0 ? groupId : null,
      deviceType: i % 2 === 0 ? 1 : 2,
      // Every kind of status and lock type label.
      ...[
        {},
        { lockState: 'locked' as const, lockType: 'PorCredito' as const },
        { lockState: 'locked' as const, lockType: 'PorNoConexion' as const },
        { lockState: 'locked' as const, lockType: 'PorCambioSIM' as const },
        { lockState: 'locked' as const, lockType: 'SinKiosko' as const },
        { lifecycle: 'pre_enrolled' as const },
        { lastSeenAt: new Date(now.getTime() - 10 * DAY) },
        { lifecycle: 'released' as const },
        { failureReason: 'rechazado' },
      ][i % 9]!,
    }));
    const ids = await insertDevices(t.db, fixtures);
    // Instants at daylight-saving changes, with microseconds (the export keeps milliseconds, truncated).
    await t.db.query(
      `UPDATE devices SET created_at = v.created, last_seen_at = coalesce(v.seen, last_seen_at)
         FROM (VALUES ($1::bigint, '2022-04-03 07:59:59.999999+00'::timestamptz, '2026-03-29 00:59:59.9995+00'::timestamptz),
                      ($2::bigint, '2022-04-03 08:00:00.000001+00', '2026-03-29 01:00:00+00'),
                      ($3::bigint, '2026-04-05 13:00:00.5+00', NULL),
                      ($4::bigint, '1999-12-31 23:59:59.999+00', '2026-09-27 13:45:00+00')) AS v(id, created, seen)
        WHERE devices.id = v.id`,
      [ids[0], ids[1], ids[2], ids[3]],
    );
  }, 60_000);
  afterAll(async () => {
    await t.dispose();
  });

  test.each(ZONES)('every cell, label and date is written as the Node writer writes it (zone %s)', async (tz) => {
    const { node, db, rows } = await bothWriters({}, tz);
    expect(rows).toBe(TRICKY.length);
    expect(db).toBe(node);
  });

  test('the tricky cells, literally: quoted, doubled quotes, the formula guard, null and empty alike', async () => {
    const { db } = await bothWriters({}, undefined, 1000);
    for (const cell of [
      ',"comilla ""doble""",',
      ',"""",',
      ',"coma, y más",',
      ',",",',
      ',"línea\nnueva",',
      ',"retorno\rsolo",',
      ',"fin de línea\r\n",',
      `,"'=SUMA(A1:A9)",`,
      `,"'=",`,
      `,"'+52 55 1234 5678",`,
      `,"'-5",`,
      `,"'-",`,
      `,"'@usuario",`,
      `,"'\tTabulador",`,
      `,"'\rRetorno",`,
      // A formula followed by a line break is only quoted (papaparse's guard stops at it).
      ',"=fórmula\ncon salto",',
      ',+con\u2028separador,',
      ',-con\u2029párrafo,',
      ',"\uFEFFcon BOM",',
      ',tab\tdentro,',
      ',Peña Ñandú àéíóú ÁÉÍÓÚ ü,',
      ',emoji 📱 y ñ,',
      `,'apóstrofo,`,
      ',a;b|c,',
      ',Samsung,',
      ',Móvil,',
      ',TV,',
      ',Bloqueado,Por Crédito,',
      ',Por No Conexión,',
      ',Sin conexión,',
      ',Pre-enrolado,',
      ',Liberado,',
      ',Fallido,',
      `,"'@Grupo, ""raro"" ñ",`,
      ',1999-12-31T23:59:59.999Z',
    ]) {
      expect(db).toContain(cell);
    }
    // Quoted when it has an edge space; an empty text and null are both an empty cell.
    expect(db).toContain(',"espacio detrás ",');
    expect(db).toContain('," espacio delante",');
    expect(db).toContain('," ",');
    expect(db.endsWith('\r\n')).toBe(true);
  });

  test.each<[string, DeviceFilter]>([
    ['search of words', { search: 'samsung' }],
    ['search of digits', { search: '35' }],
    ['group', { groupId: 0 }],
    ['no group', { groupId: 'none' }],
    ['status with lock type', { status: `${DEVICE_STATUS.bloqueado}:PorCredito` }],
    ['offline', { status: String(DEVICE_STATUS.sin_conexion) }],
    ['device type', { deviceType: 2 }],
    ['stage', { stage: 'preEnrolled' }],
    ['agent version', { agentVersionNot: 'Samsung' }],
  ])('the filters are honoured as by the Node writer: %s', async (_name, f) => {
    const filter = f.groupId === 0 ? { ...f, groupId } : f;
    const { node, db, rows } = await bothWriters(filter, 'America/Mexico_City', 2);
    expect(rows).toBeGreaterThan(0);
    expect(rows).toBeLessThan(TRICKY.length);
    expect(db).toBe(node);
  });

  test('the service sends the header and the same lines; a zone the database writes otherwise is written by Node', async () => {
    const service = new DevicesService(t.db, { offlineAfterHours: 48, now: () => now });
    const actor = { adminId: null, email: 'admin@demo.local', ip: null, requestId: null };
    const read = async (tz?: string) => {
      let text = '';
      for await (const chunk of (await service.export(actor, {}, tz)).chunks) text += chunk;
      return text;
    };
    for (const tz of [undefined, 'America/Mexico_City']) {
      const { node } = await bothWriters({}, tz);
      expect(await read(tz)).toBe(exportHeader(csvZone(tz)) + node);
    }
    const inSql = jest.spyOn(DeviceRepository.prototype, 'exportCsvBatch');
    const probes = jest.spyOn(DeviceRepository.prototype, 'instantsIn').mockResolvedValue(['otra cosa', 'otra cosa', 'otra cosa']);
    try {
      const { node } = await bothWriters({}, 'Asia/Kolkata');
      inSql.mockClear();
      expect(await read('Asia/Kolkata')).toBe(exportHeader(csvZone('Asia/Kolkata')) + node);
      expect(inSql).not.toHaveBeenCalled();
    } finally {
      probes.mockRestore();
      inSql.mockRestore();
    }
    const audit = await t.db.query<{ n: string }>("SELECT count(*) AS n FROM audit_log WHERE entity = 'device' AND action = 'export'");
    expect(Number(audit.rows[0]!.n)).toBe(3);
  });
});
