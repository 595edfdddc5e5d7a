/**
 * The CSV import of credit schedules and payments on both engines: the preview changes nothing,
 * a commit is all or nothing (one bad row applies none), payments are idempotent as the API's
 * (the same id and data are shown as already applied, other data is a row error), a payment
 * brings its unlock before the answer, Windows-1252 files, and the grant of registering payments.
 */
import iconv from 'iconv-lite';
import request from 'supertest';
import { CREDIT_MESSAGES } from '../../shared/areaMessages/credit';
import { INVENTORY_MESSAGES } from '../../shared/areaMessages/inventory';
import { COLLECTION_POLICY_ACTOR } from '../../shared/constants/creditLabels';
import { DEVICE_ACTION } from '../../shared/constants/deviceActions';
import { PATHS } from '../../shared/constants/routes';
import { ROLE_ACTION } from '../../shared/constants/roleActions';
import { creditImportResultResponse, type CreditImportResult } from '../../shared/contracts/creditImport';
import { creditBody } from '../../shared/contracts/credits';
import { addDays } from '../../shared/credits';
import { adminApi, type AdminApi } from '../helpers/adminApi';
import { insertDevices, testImei } from '../helpers/inventoryFixtures';
import { createTestDb, testEngines, type TestDb } from '../helpers/testDb';
import { IMPORT_MAX_BYTES } from '../../shared/constants/limits';

/** 12:00 in Mexico City (UTC−6 all year since 2022) on 2026-11-20. */
const TODAY = '2026-11-20';
const NOON = Date.parse('2026-11-20T18:00:00Z');
const day = (n: number) => addDays(TODAY, n);
/** DD/MM/YYYY, as Mexican spreadsheets write dates. */
const mx = (date: string) => `${date.slice(8, 10)}/${date.slice(5, 7)}/${date.slice(0, 4)}`;
const IMPORT = '/api/v5/credits/import';
const SCHEDULES = 'referencia,cliente,telefono,moneda,imeis,numero,vencimiento,monto\r\n';
const PAYMENTS = 'referencia,id_externo,monto,fecha_pago\r\n';
const M = CREDIT_MESSAGES;
const SYSTEM = { adminId: null, email: 'prueba', ip: null, requestId: null };

let imeis = 0;
const nextImei = () => testImei(710_000 + ++imeis, '35');

describe.each(testEngines())('credit CSV import on %s', (engine) => {
  let t: TestDb;
  let api: AdminApi;
  let admin: Record<string, string>;

  beforeAll(async () => {
    t = await createTestDb(engine);
    api = await adminApi(t.db, { deps: { now: () => new Date(NOON) } });
    admin = await api.headersOf('admin@demo.local');
    // No reminders or ladder: the only step a test sees is the unlock a payment brings.
    await t.db.query(`UPDATE collection_policy SET settings = '{"reminders": [], "ladder": []}' WHERE group_id IS NULL`);
  }, 60_000);
  afterAll(async () => {
    await api?.ta.services.agent.stop();
    await t?.dispose();
  });

  const app = () => api.ta.app;
  const send = (kind: 'schedules' | 'payments', file: string | Buffer, mode: 'preview' | 'commit', who = admin) =>
    request(app()).post(IMPORT).query({ kind, mode }).set(who).set('Content-Type', 'text/csv').send(file);
  const result = async (kind: 'schedules' | 'payments', file: string | Buffer, mode: 'preview' | 'commit'): Promise<CreditImportResult> => {
    const res = await send(kind, file, mode);
    expect([res.status, res.body.message]).toEqual([200, undefined]);
    return creditImportResultResponse.parse(res.body);
  };
  /** Everything an import that applies nothing must leave as it was. */
  const state = async () => ({
    credits: (await t.db.query('SELECT * FROM credits ORDER BY id')).rows,
    installments: (await t.db.query('SELECT * FROM credit_installments ORDER BY credit_id, number')).rows,
    payments: (await t.db.query('SELECT * FROM credit_payments ORDER BY id')).rows,
    devices: (await t.db.query('SELECT id, credit_reference FROM devices ORDER BY id')).rows,
    commands: (await t.db.query('SELECT id FROM device_commands ORDER BY id')).rows,
    audit: await api.count('audit_log'),
    events: (await t.db.query('SELECT id FROM webhook_events ORDER BY id')).rows,
  });
  const installments = async (reference: string) =>
    (
      await t.db.query<{ number: number; due_date: string; amount_cents: number }>(
        `SELECT i.number, to_char(i.due_date, 'YYYY-MM-DD') AS due_date, i.amount_cents
           FROM credit_installments i JOIN credits c ON c.id = i.credit_id WHERE c.reference = $1 ORDER BY i.number`,
        [reference],
      )
    ).rows.map((r) => [r.number, r.due_date, Number(r.amount_cents)]);

  test('schedules: the preview validates and changes nothing; the commit creates and replaces, re-validating', async () => {
    const imei = nextImei();
    await insertDevices(t.db, [{ imei }]);
    await api.ta.services.credits.put(
      SYSTEM,
      'IMP-OLD',
      creditBody.parse({ customerName: 'Antes', installments: [{ number: 1, dueDate: day(5), amount: '10.00' }] }),
    );
    const file =
      SCHEDULES +
      `IMP-NEW,Ana Pérez,55 1234 5678,,${imei},1,${mx(day(10))},"$1,250.00"\r\n` +
      `IMP-NEW,,,,,2,${day(40)},"1,250.00"\r\n` +
      `imp-old,Bruno Díaz,,,,1,${mx(day(3))},500\r\n`;
    const before = await state();
    const preview = await result('schedules', file, 'preview');
    expect(preview).toMatchObject({
      mode: 'preview',
      kind: 'schedules',
      encoding: 'UTF-8',
      rows: 3,
      invalid: [],
      created: 1,
      replaced: 1,
      applied: false,
    });
    expect(preview.schedules).toEqual([
      { reference: 'IMP-NEW', customerName: 'Ana Pérez', currency: 'MXN', installments: 2, total: '2500.00', imeis: [imei], outcome: 'create' },
      { reference: 'imp-old', customerName: 'Bruno Díaz', currency: 'MXN', installments: 1, total: '500.00', imeis: [], outcome: 'replace' },
    ]);
    expect(await state()).toEqual(before);

    const commit = await result('schedules', file, 'commit');
    expect(commit).toMatchObject({ mode: 'commit', invalid: [], created: 1, replaced: 1, applied: true });
    expect(await installments('IMP-NEW')).toEqual([
      [1, day(10), 125000],
      [2, day(40), 125000],
    ]);
    expect(await installments('IMP-OLD')).toEqual([[1, day(3), 50000]]);
    const device = await t.db.query<{ credit_reference: string }>('SELECT credit_reference FROM devices WHERE imei = $1', [imei]);
    expect(device.rows[0]!.credit_reference).toBe('IMP-NEW');
    const audit = await t.db.query("SELECT after FROM audit_log WHERE entity = 'credit' AND action = 'import' ORDER BY id DESC LIMIT 1");
    expect(audit.rows[0]!.after).toEqual({ kind: 'schedules', created: 1, replaced: 1, payments: 0 });
  });

  test('schedules: one bad row applies none, and every error names its column and line, even those only the database knows', async () => {
    const other = nextImei();
    await insertDevices(t.db, [{ imei: other, creditReference: 'IMP-OLD' }]);
    const unknown = nextImei();
    const file =
      SCHEDULES +
      `IMP-A,Carla,,,,1,${day(10)},100\r\n` + // valid
      `IMP-B,Diego,,,,1,${day(10)},"1,25"\r\n` + // line 3: amount
      `IMP-C,Elena,,,${other},1,${day(10)},100\r\n` + // line 4: the device is another credit's
      `IMP-D,Félix,,,${unknown},1,${day(10)},100\r\n`; // line 5: no such device
    const before = await state();
    for (const mode of ['preview', 'commit'] as const) {
      const res = await result('schedules', file, mode);
      expect(res).toMatchObject({ applied: false, created: 1 });
      expect(res.invalid).toEqual([
        { line: 3, reference: 'IMP-B', errors: [{ field: 'monto', message: M.csvImport.amount('monto') }] },
        { line: 4, reference: 'IMP-C', errors: [{ field: 'imeis', message: M.credits.deviceOfOtherCredit(other, 'IMP-OLD') }] },
        { line: 5, reference: 'IMP-D', errors: [{ field: 'imeis', message: M.credits.deviceNotFound(unknown) }] },
      ]);
      expect(await state()).toEqual(before);
    }
  });

  test('payments: idempotent as the API (already applied shown as such), other data a row error, all or nothing', async () => {
    const paidAt = mx(TODAY) + ' 09:15';
    const first = PAYMENTS + `IMP-NEW,PAGO-1,"$1,250.00",${paidAt}\r\n`;
    expect(await result('payments', first, 'commit')).toMatchObject({ applied: true, newPayments: 1, alreadyApplied: 0 });
    const stored = await t.db.query<{ amount_cents: number; paid_at: Date; source: string }>(
      "SELECT p.amount_cents, p.paid_at, p.source FROM credit_payments p WHERE p.external_id = 'PAGO-1'",
    );
    expect(stored.rows.map((r) => [Number(r.amount_cents), new Date(r.paid_at).toISOString(), r.source])).toEqual([
      [125000, '2026-11-20T15:15:00.000Z', 'csv'],
    ]);

    // The same file again: already applied, nothing changes.
    let before = await state();
    const again = await result('payments', first, 'preview');
    expect(again).toMatchObject({ newPayments: 0, alreadyApplied: 1, invalid: [] });
    expect(again.payments).toEqual([
      {
        line: 2,
        reference: 'IMP-NEW',
        externalId: 'PAGO-1',
        amount: '1250.00',
        currency: 'MXN',
        paidAt: '2026-11-20T15:15:00.000Z',
        outcome: 'already_applied',
      },
    ]);
    expect(await result('payments', first, 'commit')).toMatchObject({ applied: true, newPayments: 0, alreadyApplied: 1 });
    expect((await state()).payments).toEqual(before.payments);

    // A new payment beside the same id with another amount, an unknown credit and a future date: none applied.
    const mixed =
      PAYMENTS +
      `IMP-NEW,PAGO-2,100,${day(-1)}T10:00:00-06:00\r\n` +
      `IMP-NEW,PAGO-1,999,${paidAt}\r\n` +
      `NO-EXISTE,PAGO-3,100,${paidAt}\r\n` +
      `IMP-NEW,PAGO-4,100,${mx(day(1))} 10:00\r\n`;
    before = await state();
    const refused = await result('payments', mixed, 'commit');
    expect(refused).toMatchObject({ applied: false, newPayments: 1 });
    expect(refused.invalid).toEqual([
      { line: 3, reference: 'IMP-NEW', errors: [{ field: 'id_externo', message: M.credits.paymentConflict('PAGO-1') }] },
      { line: 4, reference: 'NO-EXISTE', errors: [{ field: 'referencia', message: M.credits.notFound }] },
      { line: 5, reference: 'IMP-NEW', errors: [{ field: 'fecha_pago', message: expect.stringContaining('Fecha de pago') }] },
    ]);
    expect(await state()).toEqual(before);
  });

  test('a payment applied from a file brings the unlock of a device locked Por Crédito before it answers', async () => {
    const ref = 'IMP-LOCK';
    const [id] = await insertDevices(t.db, [
      { imei: nextImei(), creditReference: ref, lockState: 'locked', lockType: 'PorCredito', lastSeenAt: new Date(NOON) },
    ]);
    await result('schedules', SCHEDULES + `${ref},Gabriela,,,,1,${day(-10)},1000\r\n${ref},,,,,2,${day(20)},1000\r\n`, 'commit');
    await result('payments', PAYMENTS + `${ref},LOCK-1,1000.00,${TODAY}T11:00:00-06:00\r\n`, 'commit');
    const commands = await t.db.query<{ action: number; requested_by: string }>(
      'SELECT action, requested_by FROM device_commands WHERE device_id = $1',
      [id],
    );
    expect(commands.rows).toEqual([{ action: DEVICE_ACTION.UNLOCK, requested_by: COLLECTION_POLICY_ACTOR }]);
  });

  test('Windows-1252: an accented customer is stored as written', async () => {
    const file = iconv.encode(`referencia;cliente;numero;vencimiento;monto\r\nIMP-Ñ;José Muñoz Peña;1;${mx(day(30))};$1,250.00\r\n`, 'windows1252');
    const preview = await result('schedules', file, 'preview');
    expect(preview).toMatchObject({ encoding: 'Windows-1252', invalid: [] });
    expect(preview.schedules[0]!.customerName).toBe('José Muñoz Peña');
    await result('schedules', file, 'commit');
    const stored = await t.db.query<{ customer_name: string }>("SELECT customer_name FROM credits WHERE reference = 'IMP-Ñ'");
    expect(stored.rows[0]!.customer_name).toBe('José Muñoz Peña');
  });

  test('the templates download and preview cleanly; a bad kind is a 400 naming the parameter', async () => {
    for (const kind of ['schedules', 'payments'] as const) {
      const res = await request(app()).get(`${IMPORT}/template`).query({ kind }).set(admin).buffer(true).expect(200);
      expect(res.headers['content-disposition']).toContain(M.csvImport.templateFileName(kind));
      expect(res.text.startsWith('\uFEFFreferencia,')).toBe(true);
    }
    const bad = await send('otro' as 'payments', PAYMENTS, 'preview').expect(400);
    expect(bad.body).toMatchObject({ field: 'kind', message: expect.stringContaining('Tipo de archivo') });
  });

  test('large and foreign files are refused as the device import refuses them, before anything is read', async () => {
    const before = await state();
    const big = await send('payments', Buffer.alloc(IMPORT_MAX_BYTES + 1, 0x41), 'preview').expect(413);
    expect(big.body).toMatchObject({ code: 'CSV_TOO_LARGE', message: INVENTORY_MESSAGES.csv.tooLarge(2) });
    const json = await request(app()).post(IMPORT).query({ kind: 'payments' }).set(admin).send({ referencia: 'x' }).expect(415);
    expect(json.body.code).toBe('CSV_NOT_CSV');
    const utf16 = await send('payments', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(PAYMENTS, 'utf16le')]), 'preview').expect(415);
    expect(utf16.body).toMatchObject({ code: 'CSV_ENCODING', message: INVENTORY_MESSAGES.csv.utf16 });
    const missing = await send('payments', 'referencia,monto\r\nIMP-NEW,100\r\n', 'preview').expect(400);
    expect(missing.body).toMatchObject({ code: 'CSV_MISSING_COLUMNS', message: INVENTORY_MESSAGES.csv.missingColumns(['id_externo', 'fecha_pago']) });
    expect(await state()).toEqual(before);
  });

  test('403 without the action of registering payments, even with the portfolio page', async () => {
    const reader = await api.addProfile('Lectura de cartera', [PATHS.credits, PATHS.creditPortfolio], []);
    await api.addAdmin('lectura.import@demo.local', reader);
    const headers = await api.headersOf('lectura.import@demo.local');
    const before = await state();
    const refused = await send('payments', PAYMENTS + `IMP-NEW,PAGO-9,100,${TODAY}T10:00:00Z\r\n`, 'commit', headers).expect(403);
    expect(refused.body.code).toBe('FORBIDDEN');
    await request(app()).get(`${IMPORT}/template`).query({ kind: 'payments' }).set(headers).expect(403);
    expect(await state()).toEqual(before);

    const collector = await api.addProfile('Cobranza import', [PATHS.credits, PATHS.creditPortfolio], [ROLE_ACTION.REGISTER_PAYMENTS]);
    await api.addAdmin('cobranza.import@demo.local', collector);
    const res = await send(
      'payments',
      PAYMENTS + `IMP-NEW,PAGO-9,100,${TODAY}T10:00:00Z\r\n`,
      'preview',
      await api.headersOf('cobranza.import@demo.local'),
    );
    expect([res.status, res.body.newPayments]).toEqual([200, 1]);
  });
});
