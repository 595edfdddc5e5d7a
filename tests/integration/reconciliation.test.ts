/**
 * Conciliación: the six kinds of contradiction between a device and its credit (the lock day of
 * the device's group's policy), the kind filter, paging, the CSV, the grants (403 without the
 * page, 400 naming the field), the integration API's route, and the daily reconciliation.summary
 * sent once at 07:00 company time whatever the replicas, on both engines with the app's clock.
 */
import Papa from 'papaparse';
import request from 'supertest';
import { RECONCILIATION_KINDS } from '../../shared/constants/creditLabels';
import { DEVICE_ACTION } from '../../shared/constants/deviceActions';
import { PATHS } from '../../shared/constants/routes';
import type { ApiKeyCreated } from '../../shared/contracts/apiKeys';
import {
  reconciliationListResponse,
  reconciliationSummaryEvent,
  type ReconciliationCounts,
  type ReconciliationList,
} from '../../shared/contracts/credits';
import { INTEGRATION_BASE } from '../../shared/constants/apiPaths';
import { addDays } from '../../shared/credits';
import { ReconciliationService } from '../../server/credits';
import { reconciliationPageSql, reconciliationParams } from '../../server/credits/reconciliationRepository';
import { planNodes, planWith } from '../helpers/queryPlans';
import { adminApi, type AdminApi } from '../helpers/adminApi';
import { insertDevices, insertGroup, testImei } from '../helpers/inventoryFixtures';
import { sendJson } from '../helpers/randomBodies';
import { createTestDb, testEngines, type TestDb } from '../helpers/testDb';
import { migrate } from '../../server/db/migrate';
import { migrations } from '../../server/db/migrations/index';

const ZONE = 'America/Mexico_City';
/** 12:00 in Mexico City (UTC−6): the company's date is 2026-11-20. */
const NOON = Date.parse('2026-11-20T18:00:00Z');
const TODAY = '2026-11-20';
const day = (n: number) => addDays(TODAY, n);
const imei = (n: number) => testImei(620_000 + n, '35');

const schedule = (firstDay: number, count: number, amount = '1000.00', every = 7) =>
  Array.from({ length: count }, (_, i) => ({ number: i + 1, dueDate: day(firstDay + i * every), amount }));

describe.each(testEngines())('reconciliation on %s', (engine) => {
  let t: TestDb;
  let api: AdminApi;
  let admin: Record<string, string>;
  let key: string;
  let clock = NOON;
  const ids: Record<string, number> = {};

  const app = () => api.ta.app;
  const list = async (query = ''): Promise<ReconciliationList> =>
    reconciliationListResponse.parse((await request(app()).get(`/api/v5/credits/reconciliation${query}`).set(admin).expect(200)).body);

  beforeAll(async () => {
    t = await createTestDb(engine);
    api = await adminApi(t.db, { deps: { now: () => new Date(clock) } });
    admin = await api.headersOf('admin@demo.local');
    const profileId = (await t.db.query<{ id: number }>("SELECT id FROM profiles WHERE nombre = 'Administrador'")).rows[0]!.id;
    key = ((await request(app()).post('/api/v5/api-keys').set(admin).send({ name: 'Conciliación', profileId }).expect(201)).body as ApiKeyCreated)
      .secret;
    const put = async (ref: string, body: object) => {
      const res = await sendJson(request(app()).put(`${INTEGRATION_BASE}/credits/${ref}`).set('Authorization', `Bearer ${key}`), body);
      expect(res.status).toBe(201);
    };
    // Credits first (their devices come after, so the collection policy has not acted on them).
    await put('R-PAID', { customerName: 'Paula Pagada', installments: schedule(-20, 1) });
    await sendJson(request(app()).post(`${INTEGRATION_BASE}/credits/R-PAID/payments`).set('Authorization', `Bearer ${key}`), {
      externalId: 'p-1',
      amount: '1000.00',
      paidAt: new Date(clock - 60_000).toISOString(),
    }).expect(201);
    await put('R-CUR', { customerName: 'Carla Corriente', installments: schedule(7, 2) });
    await put('R-LATE', { customerName: 'Luis Atrasado', installments: schedule(-10, 3) });
    await put('R-NODEV', { customerName: 'Nadia Sin Equipo', installments: schedule(7, 1) });
    await put('R-CANCEL', { customerName: 'Cancelado', cancelled: true, installments: schedule(7, 1) });

    const patient = await insertGroup(t.db, 'Paciente');
    // The group's lock rung: 15 days, so ten days overdue is not yet a contradiction there.
    await t.db.query(`INSERT INTO collection_policy (group_id, settings) VALUES ($1, '{"lock":{"enabled":true,"daysOverdue":15,"message":"x"}}')`, [
      patient,
    ]);
    const [paidLocked, paidActive, curLocked, curActive, lateActive, lateLocked, latePatient, orphan, releasedTalking, releasedQuiet] =
      (await insertDevices(t.db, [
        { imei: imei(1), lockState: 'locked', creditReference: 'R-PAID', customerName: 'Paula Pagada' },
        { imei: imei(2), creditReference: 'r-paid' },
        { imei: imei(3), lockState: 'locked', creditReference: 'R-CUR' },
        { imei: imei(4), creditReference: 'R-CUR' },
        { imei: imei(5), creditReference: 'R-LATE' },
        { imei: imei(6), lockState: 'locked', creditReference: 'R-LATE' },
        { imei: imei(7), creditReference: 'R-LATE', groupId: patient },
        { imei: imei(8), creditReference: 'NO-EXISTE', customerName: 'Óscar' },
        { imei: imei(9), lifecycle: 'released', creditReference: 'R-CANCEL', lastSeenAt: new Date(clock - 3_600_000) },
        { imei: imei(10), lifecycle: 'released', creditReference: 'R-CANCEL', lastSeenAt: new Date(clock - 3_600_000) },
      ])) as number[];
    Object.assign(ids, { paidLocked, paidActive, curLocked, curActive, lateActive, lateLocked, latePatient, orphan, releasedTalking, releasedQuiet });
    // Released an hour ago; one checked in again ten minutes ago.
    await t.db.query('UPDATE devices SET last_seen_at = $2 WHERE id = $1', [releasedTalking, new Date(clock - 600_000)]);
  });
  afterAll(async () => {
    await api?.ta.services.agent.stop();
    await t?.dispose();
  });
  afterEach(() => {
    clock = NOON;
  });

  test('lists each contradiction once, by kind, with its fix and detail', async () => {
    const all = await list();
    const rows = all.data.map((r) => [r.kind, r.creditReference, r.deviceId, r.fix]);
    expect(rows).toEqual([
      ['paid_locked', 'R-CUR', ids.curLocked, DEVICE_ACTION.UNLOCK],
      ['paid_locked', 'R-PAID', ids.paidLocked, DEVICE_ACTION.UNLOCK],
      ['overdue_active', 'R-LATE', ids.lateActive, DEVICE_ACTION.LOCK],
      ['paid_not_released', 'R-PAID', ids.paidActive, DEVICE_ACTION.RELEASE],
      ['released_reporting', 'R-CANCEL', ids.releasedTalking, null],
      ['credit_without_device', 'R-NODEV', null, null],
      ['device_without_credit', 'NO-EXISTE', ids.orphan, null],
    ]);
    expect(all.total).toBe(7);
    expect(all.counts).toEqual({
      paid_locked: 2,
      overdue_active: 1,
      paid_not_released: 1,
      released_reporting: 1,
      credit_without_device: 1,
      device_without_credit: 1,
    } satisfies ReconciliationCounts);
    const late = all.data.find((r) => r.kind === 'overdue_active')!;
    expect(late).toMatchObject({ daysOverdue: 10, lockDays: 7, imei: imei(5), customerName: 'Luis Atrasado' });
    expect(late.detail).toBe('Vencido 10 días; la política bloquea a partir de 7 días');
    const talking = all.data.find((r) => r.kind === 'released_reporting')!;
    expect(new Date(talking.lastSeenAt!).getTime()).toBeGreaterThan(new Date(talking.releasedAt!).getTime());
  });

  test('the kind filter and paging; a bad kind is a 400 naming the field', async () => {
    const paid = await list('?kind=paid_locked&perPage=1&page=2');
    expect(paid.total).toBe(2);
    expect(paid.data.map((r) => r.deviceId)).toEqual([ids.paidLocked]);
    const bad = await request(app()).get('/api/v5/credits/reconciliation?kind=todo').set(admin).expect(400);
    expect(bad.body).toMatchObject({ field: 'kind' });
    expect(bad.body.message).toContain('Tipo');
  });

  test('a device fixed leaves the list (the lock through the device actions API)', async () => {
    await request(app())
      .post(`/api/v5/devices/${ids.lateActive}/actions`)
      .set(admin)
      .set('Idempotency-Key', 'reconciliation-lock-1')
      .send({ action: DEVICE_ACTION.LOCK, lockType: 'PorCredito', message: 'Bloqueo', stolen: false })
      .expect((res) => expect(res.status).toBeLessThan(300));
    expect((await list('?kind=overdue_active')).total).toBe(0);
    await t.db.query('UPDATE devices SET pending_action = NULL, pending_command_id = NULL, pending_until = NULL WHERE id = $1', [ids.lateActive]);
  });

  test('the CSV: every row, Spanish kinds, the dates in the zone asked for', async () => {
    const res = await request(app())
      .get(`/api/v5/credits/reconciliation/export?tz=${encodeURIComponent(ZONE)}`)
      .set(admin)
      .expect(200);
    expect(res.headers['content-disposition']).toContain(`conciliacion-${TODAY}.csv`);
    const parsed = Papa.parse<string[]>(res.text.replace(/^\uFEFF/, ''), { skipEmptyLines: true }).data;
    expect(parsed[0]).toEqual([
      'tipo',
      'referencia',
      'imei',
      'cliente',
      'detalle',
      'dias_atraso',
      'dia_bloqueo',
      `liberado (${ZONE})`,
      `ultimo_reporte (${ZONE})`,
    ]);
    expect(parsed.slice(1).map((r) => r[0])).toContain('Dispositivo sin crédito');
    expect(parsed.length - 1).toBe((await list()).total);
  });

  test('grants: 403 without the page, 200 with it; the integration API answers the same rows', async () => {
    const portfolioOnly = await api.addProfile('Solo cartera R', [PATHS.credits, PATHS.creditPortfolio], []);
    await api.addAdmin('solo-cartera-r@demo.local', portfolioOnly);
    const refused = await request(app())
      .get('/api/v5/credits/reconciliation')
      .set(await api.headersOf('solo-cartera-r@demo.local'))
      .expect(403);
    expect(refused.body.code).toBe('FORBIDDEN');
    const reader = await api.addProfile('Conciliación R', [PATHS.credits, PATHS.reconciliation], []);
    await api.addAdmin('conciliacion-r@demo.local', reader);
    await request(app())
      .get('/api/v5/credits/reconciliation/export')
      .set(await api.headersOf('conciliacion-r@demo.local'))
      .expect(200);

    const viaKey = await request(app())
      .get(`${INTEGRATION_BASE}/reconciliation?kind=device_without_credit`)
      .set('Authorization', `Bearer ${key}`)
      .expect(200);
    expect(reconciliationListResponse.parse(viaKey.body).data.map((r) => r.imei)).toEqual([imei(8)]);
    const keyCreated = await request(app())
      .post('/api/v5/api-keys')
      .set(admin)
      .send({ name: 'Sin conciliación', profileId: portfolioOnly })
      .expect(201);
    await request(app())
      .get(`${INTEGRATION_BASE}/reconciliation`)
      .set('Authorization', `Bearer ${(keyCreated.body as ApiKeyCreated).secret}`)
      .expect(403);
  });

  test.each(RECONCILIATION_KINDS)('%s reads every table through an index (no sequential scan when one is priced out)', async (kind) => {
    const plan = await planWith(t.db, reconciliationPageSql([kind]), [...reconciliationParams(TODAY, new Date(NOON)), 25, 0], {
      enable_seqscan: 'off',
    });
    const scans = planNodes(plan).filter((n) => n['Node Type'] === 'Seq Scan');
    expect(scans.map((n) => (n as { 'Relation Name'?: string })['Relation Name'])).toEqual([]);
  });

  test('the daily summary: not before 07:00, then once a day whatever the replicas', async () => {
    await t.db.query(
      `INSERT INTO webhook_subscriptions (name, url, events, secret, created_by)
       VALUES ('Conciliación', 'https://conciliacion.example.com/hooks', ARRAY['reconciliation.summary'], 'whsec_x', 'prueba')`,
    );
    const summaries = async () =>
      (await t.db.query<{ data: unknown }>("SELECT data FROM webhook_events WHERE type = 'reconciliation.summary' ORDER BY id")).rows.map((r) =>
        reconciliationSummaryEvent.parse(r.data),
      );
    const service = api.ta.services.reconciliation;
    // A second replica: its own service on the same database.
    const replica = new ReconciliationService(t.db, { timeZone: ZONE, inventory: { now: () => new Date(clock) } });

    clock = Date.parse('2026-11-21T12:59:00Z'); // 06:59 on the 21st
    expect(await service.summaryTick()).toBe(0);
    clock = Date.parse('2026-11-21T13:00:00Z'); // 07:00
    expect(await Promise.all([service.summaryTick(), replica.summaryTick()])).toEqual(expect.arrayContaining([1, 0]));
    expect(await service.summaryTick()).toBe(0);
    clock = Date.parse('2026-11-22T05:00:00Z'); // 23:00, the same day
    expect(await replica.summaryTick()).toBe(0);

    const [first, ...rest] = await summaries();
    expect(rest).toEqual([]);
    expect(first!.date).toBe('2026-11-21');
    expect(Object.keys(first!.counts)).toEqual([...RECONCILIATION_KINDS]);
    expect(first!.total).toBe(Object.values(first!.counts).reduce((a, b) => a + b, 0));
    expect(first!.rows.length).toBe(Math.min(first!.total, 20));

    clock = Date.parse('2026-11-22T13:30:00Z'); // 07:30 the next day
    expect(await replica.summaryTick()).toBe(1);
    expect((await summaries()).map((s) => s.date)).toEqual(['2026-11-21', '2026-11-22']);
  });
});

describe.each(testEngines())('migration 0029 on %s', (engine) => {
  test('an existing installation: the roles holding the portfolio get Conciliación, in menu order; the others nothing', async () => {
    const t = await createTestDb(engine, { migrate: false });
    try {
      await migrate(
        t.db,
        migrations.filter((m) => m.id < '0029'),
      );
      await t.db.query(
        `INSERT INTO profiles (nombre, paths, actions) VALUES
           ('Cobranza', '{/credits,/credits/portfolio,/credits/collection-policy,/admin-settings,/admin-settings/audit}', '{100}'),
           ('Soporte', '{/dashboard,/credits}', '{7}')`,
      );
      await migrate(t.db, migrations);
      const rows = (
        await t.db.query<{ nombre: string; paths: string[] }>(
          `SELECT nombre, paths FROM profiles WHERE nombre IN ('Cobranza', 'Soporte') ORDER BY id`,
        )
      ).rows;
      expect(rows).toEqual([
        {
          nombre: 'Cobranza',
          paths: [
            '/credits',
            '/credits/portfolio',
            '/credits/collection-policy',
            '/credits/reconciliation',
            '/admin-settings',
            '/admin-settings/audit',
          ],
        },
        { nombre: 'Soporte', paths: ['/dashboard', '/credits'] },
      ]);
    } finally {
      await t.dispose();
    }
  });
});
