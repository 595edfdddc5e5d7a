import fc from 'fast-check';
import Papa from 'papaparse';
import request from 'supertest';
import { IMPORT_COLUMNS, type ImportResult } from '../../shared/contracts/deviceImport';
import { INVENTORY_MESSAGES as M } from '../../shared/areaMessages/inventory';
import { adminApi, type AdminApi } from '../helpers/adminApi';
import { insertDevices, insertGroup, testImei } from '../helpers/inventoryFixtures';
import { createTestDb, testEngines, type TestDb } from '../helpers/testDb';
import { IMPORT_MAX_ROWS } from '../../shared/constants/limits';

const IMPORT = '/api/v5/devices/import';

/** An IMEI whose check digit is wrong. */
const badCheckDigit = (imei: string) => `${imei.slice(0, 14)}${(Number(imei[14]) + 1) % 10}`;
/** The IMEI of a live device registered before the imports. */
const takenImei = testImei(5000, '35');

describe.each(testEngines())('CSV registration on %s', (engine) => {
  let t: TestDb;
  let api: AdminApi;
  let admin: Record<string, string>;
  let registrar: Record<string, string>;
  let centro: number;

  const app = () => api.ta.app;
  const deviceCount = async () => Number((await t.db.query<{ n: number }>('SELECT count(*) AS n FROM devices')).rows[0]!.n);
  const state = async () => [
    await deviceCount(),
    await api.count('audit_log'),
    (await t.db.query('SELECT * FROM device_counts ORDER BY 1, 2, 3, 4')).rows,
  ];
  const post = (csv: string, mode: 'preview' | 'commit', who = admin, type = 'text/csv; charset=utf-8') =>
    request(app()).post(IMPORT).query({ mode }).set(who).set('Content-Type', type).send(csv);

  beforeAll(async () => {
    t = await createTestDb(engine);
    api = await adminApi(t.db);
    admin = await api.headersOf('admin@demo.local');
    await api.addAdmin('registro@demo.local', await api.addProfile('Registro', ['/inventory-management', '/inventory-management/add-device'], []));
    registrar = await api.headersOf('registro@demo.local');
    centro = await insertGroup(t.db, 'Sucursal Centro CDMX');
    await insertGroup(t.db, 'TVs Guadalajara');
    await insertDevices(t.db, [{ imei: takenImei }]);
    // A deleted device's IMEI is free again.
    const [deleted] = await insertDevices(t.db, [{ imei: testImei(5001, '35') }]);
    await t.db.query('UPDATE devices SET deleted_at = now() WHERE id = $1', [deleted]);
  }, 60_000);
  afterAll(async () => {
    await t?.dispose();
  });

  test('the template: BOM, the import header and an example row that imports cleanly', async () => {
    const res = await request(app()).get('/api/v5/devices/import/template').set(registrar).buffer(true).expect(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="plantilla-dispositivos.csv"');
    const text = res.text;
    expect(text.startsWith(`\uFEFF${IMPORT_COLUMNS.join(',')}\r\n`)).toBe(true);
    const preview = await post(text, 'preview', registrar).expect(200);
    expect(preview.body).toMatchObject({ mode: 'preview', rows: 1, valid: 1, invalid: [], imported: 0 });
  });

  const MIXED = [
    '\uFEFFimei;imei2;serie;tipo;marca;modelo;grupo;cliente;referencia_credito',
    `${testImei(6001)};;R58N1;Móvil;Samsung;Galaxy A15;sucursal centro cdmx;"Pérez; Juan";CR-2026-000001`,
    `${testImei(6002)};${testImei(6102)};;TV;Hisense;55U6K;TVs Guadalajara;Raúl Núñez;`,
    `${badCheckDigit(testImei(6003))};;;1;;;;;`,
    `${testImei(6004)};;;3;;;Norte;;`,
    '',
    `${testImei(6001)};;;2;;;;;`,
    `${takenImei};;;1;;;;;`,
    `${testImei(5001)};;;movil;Motorola;"Moto G24";;"Ana ""La Güera"" López";`,
    `;;;;;;;Sin IMEI;`,
  ].join('\r\n');

  test('preview: every row validated, errors listed per line and column, nothing written', async () => {
    const before = await state();
    const res = await post(MIXED, 'preview', registrar, 'application/vnd.ms-excel').expect(200);
    const body = res.body as ImportResult;
    expect(body).toMatchObject({ mode: 'preview', rows: 8, valid: 3, imported: 0 });
    expect(body.invalid).toEqual([
      {
        line: 4,
        imei: badCheckDigit(testImei(6003)),
        errors: [{ field: 'imei', message: 'El campo IMEI no es un IMEI válido (dígito verificador incorrecto)' }],
      },
      {
        line: 5,
        imei: testImei(6004),
        errors: [
          { field: 'grupo', message: 'El grupo "Norte" no existe' },
          { field: 'tipo', message: 'El campo Tipo debe ser 1 (Móvil) o 2 (TV)' },
        ],
      },
      { line: 7, imei: testImei(6001), errors: [{ field: 'imei', message: 'IMEI repetido en el archivo (fila 2)' }] },
      { line: 8, imei: takenImei, errors: [{ field: 'imei', message: 'Ya existe un dispositivo con este IMEI' }] },
      {
        line: 10,
        imei: '',
        errors: [
          { field: 'imei', message: 'El campo IMEI es obligatorio' },
          { field: 'tipo', message: 'El campo Tipo es obligatorio' },
        ],
      },
    ]);
    expect(body.sample).toEqual([
      {
        imei: testImei(6001),
        imei2: null,
        serial: 'R58N1',
        deviceType: 1,
        brand: 'Samsung',
        model: 'Galaxy A15',
        groupId: centro,
        customerName: 'Pérez; Juan',
        creditReference: 'CR-2026-000001',
      },
      expect.objectContaining({
        imei: testImei(6002),
        imei2: testImei(6102),
        deviceType: 2,
        groupId: expect.any(Number),
        customerName: 'Raúl Núñez',
        serial: null,
      }),
      expect.objectContaining({ imei: testImei(5001), deviceType: 1, model: 'Moto G24', customerName: 'Ana "La Güera" López', groupId: null }),
    ]);
    expect(await state()).toEqual(before);
  });

  test('commit: only the valid rows, pre-enrolled with their own secrets, in one transaction with one audit row', async () => {
    const devices = await deviceCount();
    const res = await post(MIXED, 'commit', registrar).expect(200);
    expect(res.body).toMatchObject({ mode: 'commit', rows: 8, valid: 3, imported: 3 });
    expect(res.body.invalid).toHaveLength(5);
    expect(await deviceCount()).toBe(devices + 3);
    const rows = (
      await t.db.query<{ imei: string; lifecycle: string; base_status: number; group_id: number | null; secret: Uint8Array; customer_name: string }>(
        'SELECT imei, lifecycle, base_status, group_id, secret, customer_name FROM devices WHERE imei = ANY($1::text[]) AND deleted_at IS NULL ORDER BY id',
        [[testImei(6001), testImei(6002), testImei(5001)]],
      )
    ).rows;
    expect(rows.map((r) => [r.imei, r.lifecycle, r.base_status])).toEqual([
      [testImei(6001), 'pre_enrolled', 25],
      [testImei(6002), 'pre_enrolled', 25],
      [testImei(5001), 'pre_enrolled', 25],
    ]);
    expect(rows[0]!.group_id).toBe(centro);
    expect(rows[0]!.customer_name).toBe('Pérez; Juan');
    expect(rows.every((r) => r.secret.length === 32)).toBe(true);
    expect(new Set(rows.map((r) => Buffer.from(r.secret).toString('hex'))).size).toBe(3);
    const audit = (await t.db.query<Record<string, unknown>>('SELECT * FROM audit_log ORDER BY id DESC LIMIT 1')).rows[0]!;
    expect(audit).toMatchObject({ entity: 'device', action: 'import', actor_email: 'registro@demo.local', after: { count: 3 }, outcome: 'success' });
    // The counters follow: the new devices are in the pre-enrolled list and the group count.
    const pre = await request(app()).get('/api/v5/devices').query({ stage: 'preEnrolled' }).set(admin).expect(200);
    expect(pre.body.total).toBe(3);
    const groups = await request(app()).get('/api/v5/groups').set(admin).expect(200);
    expect(groups.body.data.map((g: { name: string; deviceCount: number }) => [g.name, g.deviceCount])).toEqual([
      ['Sucursal Centro CDMX', 1],
      ['TVs Guadalajara', 1],
    ]);

    // The same file again: every row is now a duplicate; nothing imported, nothing audited.
    const again = await state();
    const second = await post(MIXED, 'commit').expect(200);
    expect(second.body).toMatchObject({ valid: 0, imported: 0 });
    expect(await state()).toEqual(again);
  });

  test('refusals of the file itself: 415 not CSV, 413 too large, 400 too many rows / empty / missing columns / bad mode', async () => {
    const before = await state();
    const json = await request(app())
      .post(IMPORT)
      .set(admin)
      .send({ imei: testImei(7001), tipo: 1 })
      .expect(415);
    expect(json.body).toEqual({ message: 'El archivo debe ser un CSV (text/csv) en UTF-8 o Windows-1252', code: 'CSV_NOT_CSV' });
    await request(app()).post(IMPORT).set(admin).expect(415);
    await request(app()).post(IMPORT).set(admin).set('Content-Type', 'image/png').send(Buffer.from('imei,tipo\n')).expect(415);
    await request(app()).post(IMPORT).set(admin).set('Content-Type', 'text/csv; charset=klingon').send('imei,tipo\n').expect(415);

    const big = `imei,tipo,cliente\n${`${testImei(7002)},1,${'x'.repeat(100)}\n`.repeat(21_000)}`;
    expect(Buffer.byteLength(big)).toBeGreaterThan(2 * 1024 * 1024);
    const tooLarge = await post(big, 'preview').expect(413);
    expect(tooLarge.body).toEqual({ message: 'El archivo CSV admite como máximo 2 MB', code: 'CSV_TOO_LARGE' });

    const lines = (n: number) => ['imei,tipo', ...Array.from({ length: n }, (_, i) => `${testImei(100_000 + i, '01')},1`)].join('\n');
    const tooMany = await post(lines(IMPORT_MAX_ROWS + 1), 'commit').expect(400);
    expect(tooMany.body).toEqual({ message: 'El archivo CSV admite como máximo 10,000 filas', code: 'CSV_TOO_MANY_ROWS' });
    for (const empty of ['', '\uFEFFimei,tipo\r\n', 'imei,tipo\n\n\n']) {
      const res = await post(empty, 'commit').expect(400);
      expect(res.body.message).toBe('El archivo CSV no tiene filas de datos');
    }
    const missing = await post(`serie,marca\nA,B\n`, 'commit').expect(400);
    expect(missing.body.message).toBe('Faltan columnas en el encabezado: imei, tipo');
    const mode = await request(app()).post(IMPORT).query({ mode: 'todo' }).set(admin).set('Content-Type', 'text/csv').send('imei,tipo\n').expect(400);
    expect(mode.body).toMatchObject({ message: 'El parámetro Modo debe ser uno de: preview, commit', field: 'mode' });
    expect(await state()).toEqual(before);
  });

  test('encodings: Windows-1252 stored correctly and named in the preview; UTF-8 with or without BOM; UTF-16 and undecodable bytes refused', async () => {
    const file = (imei: string, cliente: string) => `imei,tipo,cliente,Vendedor\r\n${imei},Móvil,${cliente},Ana\r\n`;
    const send = (bytes: Buffer, mode: 'preview' | 'commit') =>
      request(app()).post(IMPORT).query({ mode }).set(admin).set('Content-Type', 'text/csv').send(bytes);
    const stored = async (imei: string) =>
      (await t.db.query<{ customer_name: string }>('SELECT customer_name FROM devices WHERE imei = $1 AND deleted_at IS NULL', [imei])).rows[0]
        ?.customer_name;

    const ansi = Buffer.from(file(testImei(8001), 'Peña Núñez'), 'latin1');
    const preview = await send(ansi, 'preview').expect(200);
    expect(preview.body).toMatchObject({ encoding: 'Windows-1252', ignoredColumns: ['Vendedor'], valid: 1 });
    expect(preview.body.sample[0].customerName).toBe('Peña Núñez');
    expect((await send(ansi, 'commit').expect(200)).body).toMatchObject({ encoding: 'Windows-1252', imported: 1 });
    expect(await stored(testImei(8001))).toBe('Peña Núñez');

    for (const [n, bom] of [
      [8002, '\uFEFF'],
      [8003, ''],
    ] as const) {
      const res = await send(Buffer.from(bom + file(testImei(n), 'Peña Núñez'), 'utf8'), 'commit').expect(200);
      expect(res.body).toMatchObject({ encoding: 'UTF-8', ignoredColumns: ['Vendedor'], imported: 1 });
      expect(await stored(testImei(n))).toBe('Peña Núñez');
    }

    const before = await state();
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(file(testImei(8004), 'Peña'), 'utf16le')]);
    expect((await send(utf16, 'commit').expect(415)).body).toEqual({ code: 'CSV_ENCODING', message: M.csv.utf16 });
    const undecodable = Buffer.concat([Buffer.from(`imei,tipo,cliente\n${testImei(8005)},1,Pe`), Buffer.from([0x81, 0x8d]), Buffer.from('\n')]);
    expect((await send(undecodable, 'commit').expect(415)).body).toEqual({ code: 'CSV_ENCODING', message: M.csv.badEncoding });
    const damaged = Buffer.from(file(testImei(8006), 'Pe\uFFFDa'), 'utf8');
    expect((await send(damaged, 'commit').expect(415)).body).toEqual({ code: 'CSV_ENCODING', message: M.csv.badEncoding });
    expect(await state()).toEqual(before);
    const count = await t.db.query<{ n: number }>("SELECT count(*) AS n FROM devices WHERE customer_name LIKE '%\uFFFD%'");
    expect(Number(count.rows[0]!.n)).toBe(0);
  });

  test(`${IMPORT_MAX_ROWS.toLocaleString('en')} rows are committed in one go`, async () => {
    const devices = await deviceCount();
    const csv = [
      'imei,tipo,marca,modelo,grupo,cliente,referencia_credito',
      ...Array.from(
        { length: IMPORT_MAX_ROWS },
        (_, i) =>
          `${testImei(200_000 + i, '35')},${i % 5 ? 'Móvil' : 'TV'},Samsung,Galaxy A15,Sucursal Centro CDMX,Cliente ${i},CR-2026-${String(i).padStart(6, '0')}`,
      ),
    ].join('\r\n');
    const started = performance.now();
    const res = await post(csv, 'commit').expect(200);
    const ms = performance.now() - started;
    expect(res.body).toMatchObject({ rows: IMPORT_MAX_ROWS, valid: IMPORT_MAX_ROWS, imported: IMPORT_MAX_ROWS, invalid: [] });
    expect(res.body.sample).toHaveLength(100);
    expect(await deviceCount()).toBe(devices + IMPORT_MAX_ROWS);
    // A measurement for the benchmarks document, not a timed assertion.
    process.stdout.write(`[${engine}] import of ${IMPORT_MAX_ROWS} rows (commit): ${Math.round(ms)} ms\n`);
  });

  test('random CSV bodies: 200 or 400, never 500, and nothing imported', async () => {
    const before = await state();
    const cell = fc.string({ maxLength: 20 }).filter((s) => !/^\d{15}$/.test(s.replace(/[\s-]/g, '')));
    const csv = fc.oneof(
      fc.string(),
      fc
        .array(fc.array(cell, { minLength: 1, maxLength: 10 }), { maxLength: 20 })
        .map((rows) => Papa.unparse([['imei', 'tipo', 'grupo', 'cliente'], ...rows])),
      fc
        .array(fc.array(fc.oneof(cell, fc.constantFrom('imei', 'tipo', ';', ',', '"', '\n', '\t')), { maxLength: 6 }), { maxLength: 10 })
        .map((rows) => rows.map((r) => r.join(',')).join('\n')),
    );
    await fc.assert(
      fc.asyncProperty(csv, fc.constantFrom('preview', 'commit') as fc.Arbitrary<'preview' | 'commit'>, async (text, mode) => {
        const res = await post(text, mode);
        expect([200, 400]).toContain(res.status);
        if (res.status === 200) expect(res.body.imported).toBe(0);
        else expect(typeof res.body.message).toBe('string');
      }),
      { numRuns: 60 },
    );
    expect(await state()).toEqual(before);
  });
});
