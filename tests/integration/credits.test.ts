/**
 * Credits: the lender's PUT of a credit and its schedule, payments (oldest installment first,
 * idempotent by external id, reversible exactly), the company's day boundary, the portfolio's
 * list, summary and export on the portal API, the grants (the page, the role action 100) and the
 * webhook events, on both engines with the app's controllable clock.
 */
import fc from 'fast-check';
import Papa from 'papaparse';
import request from 'supertest';
import { GRANTABLE_PATHS, MENU, PATHS } from '../../shared/constants/routes';
import { ROLE_ACTION } from '../../shared/constants/roleActions';
import { apiKeyActor } from '../../shared/constants/integration';
import { CREDIT_MESSAGES } from '../../shared/areaMessages/credit';
import {
  creditBody,
  creditDetailResponse,
  creditListResponse,
  creditSummaryResponse,
  deviceCreditResponse,
  integrationCreditResponse,
  paymentBody,
  paymentResultResponse,
  type CreditList,
  type CreditRow,
  type CreditSummary,
  type IntegrationCredit,
} from '../../shared/contracts/credits';
import { INTEGRATION_BASE } from '../../shared/constants/apiPaths';
import type { ApiKeyCreated } from '../../shared/contracts/apiKeys';
import { addDays, parseAmount, todayIn } from '../../shared/credits';
import { adminApi, type AdminApi } from '../helpers/adminApi';
import { insertDevices, insertGroup, testImei } from '../helpers/inventoryFixtures';
import { asSent, sendJson } from '../helpers/randomBodies';
import { createTestDb, testEngines, type TestDb } from '../helpers/testDb';
import { migrate } from '../../server/db/migrate';
import { migrations } from '../../server/db/migrations/index';
import { CREDIT_SORTS } from '../../shared/constants/limits';

const ZONE = 'America/Mexico_City';
/** 12:00 in Mexico City (UTC−6 all year since 2022): the company's date is 2026-11-20. */
const NOON = Date.parse('2026-11-20T18:00:00Z');
const TODAY = '2026-11-20';
const day = (n: number) => addDays(TODAY, n);

let imeis = 0;
const nextImei = () => testImei(510_000 + ++imeis, '35');

/** A schedule of `count` installments of `amount`, the first due `firstDay` days from today, every `every` days. */
const schedule = (firstDay: number, count: number, amount = '1000.00', every = 7) =>
  Array.from({ length: count }, (_, i) => ({ number: i + 1, dueDate: day(firstDay + i * every), amount }));

describe.each(testEngines())('credits on %s', (engine) => {
  let t: TestDb;
  let api: AdminApi;
  let admin: Record<string, string>;
  let key: string;
  let clock = NOON;

  beforeAll(async () => {
    t = await createTestDb(engine);
    api = await adminApi(t.db, { deps: { now: () => new Date(clock) } });
    admin = await api.headersOf('admin@demo.local');
    const profileId = (await t.db.query<{ id: number }>("SELECT id FROM profiles WHERE nombre = 'Administrador'")).rows[0]!.id;
    const created = await request(app()).post('/api/v5/api-keys').set(admin).send({ name: 'Cobranza', profileId }).expect(201);
    key = (created.body as ApiKeyCreated).secret;
    // A subscription that wants the credits' events: they are written into the outbox.
    await t.db.query(
      `INSERT INTO webhook_subscriptions (name, url, events, secret, created_by)
       VALUES ('Cobranza', 'https://cobranza.example.com/hooks', ARRAY['payment.applied', 'payment.reversed', 'credit.paid_off'], 'whsec_x', 'prueba')`,
    );
  });
  afterAll(async () => {
    await api?.ta.services.agent.stop();
    await t?.dispose();
  });
  afterEach(() => {
    clock = NOON;
  });

  const app = () => api.ta.app;
  const integration = (secret = key) => ({
    put: (ref: string, body: unknown) =>
      sendJson(
        request(app())
          .put(`${INTEGRATION_BASE}/credits/${encodeURIComponent(ref)}`)
          .set('Authorization', `Bearer ${secret}`),
        body,
      ),
    get: (ref: string) =>
      request(app())
        .get(`${INTEGRATION_BASE}/credits/${encodeURIComponent(ref)}`)
        .set('Authorization', `Bearer ${secret}`),
    pay: (ref: string, body: unknown) =>
      sendJson(
        request(app())
          .post(`${INTEGRATION_BASE}/credits/${encodeURIComponent(ref)}/payments`)
          .set('Authorization', `Bearer ${secret}`),
        body,
      ),
    reverse: (ref: string, externalId: string) =>
      request(app())
        .post(`${INTEGRATION_BASE}/credits/${encodeURIComponent(ref)}/payments/${encodeURIComponent(externalId)}/reversal`)
        .set('Authorization', `Bearer ${secret}`),
  });
  const count = async (sql: string, params: unknown[] = []) => Number((await t.db.query<{ n: number }>(sql, params)).rows[0]!.n);
  /** Everything a refused write must leave as it was. */
  const state = async () => ({
    credits: (await t.db.query('SELECT * FROM credits ORDER BY id')).rows,
    installments: (await t.db.query('SELECT * FROM credit_installments ORDER BY credit_id, number')).rows,
    payments: (await t.db.query('SELECT * FROM credit_payments ORDER BY id')).rows,
    devices: (await t.db.query('SELECT id, credit_reference, updated_at FROM devices ORDER BY id')).rows,
    audit: await api.count('audit_log'),
    events: await count('SELECT count(*) AS n FROM webhook_events'),
  });
  const put = async (ref: string, body: object, status = 201) => {
    const res = await integration().put(ref, body);
    expect([res.status, res.body]).toEqual([status, expect.anything()]);
    return integrationCreditResponse.parse(res.body);
  };
  const pay = async (ref: string, externalId: string, amount: string, paidAt = new Date(clock - 60_000).toISOString(), status = 201) => {
    const res = await integration().pay(ref, { externalId, amount, paidAt });
    expect([res.status, res.body.code]).toEqual([status, undefined]);
    return paymentResultResponse.parse(res.body);
  };

  describe('the integration API', () => {
    test('PUT creates (201) then replaces (200); devices are linked by reference (any case) and by IMEI', async () => {
      const [byRef] = await insertDevices(t.db, [{ imei: nextImei(), creditReference: 'cr-100' }]);
      const tvImei = nextImei();
      const [tv] = await insertDevices(t.db, [{ imei: tvImei, deviceType: 2, creditReference: 'texto libre' }]);
      const created = await put('CR-100', {
        customerName: 'María López',
        customerPhone: '55 1234 5678',
        imeis: [tvImei],
        installments: schedule(7, 3, '1250.00'),
      });
      expect(created).toMatchObject({
        reference: 'CR-100',
        customerName: 'María López',
        customerPhone: '5512345678',
        currency: 'MXN',
        state: 'current',
        daysOverdue: 0,
        amountOverdue: '0.00',
        nextDueDate: day(7),
        nextDueAmount: '1250.00',
        total: '3750.00',
        paid: '0.00',
        balance: '3750.00',
        payments: [],
      });
      expect(created.installments).toEqual(schedule(7, 3, '1250.00').map((i) => ({ ...i, paid: '0.00' })));
      expect(created.devices.map((d) => [d.id, d.deviceType])).toEqual([
        [byRef, 1],
        [tv, 2],
      ]);
      const device = (await t.db.query('SELECT credit_reference FROM devices WHERE id = $1', [tv])).rows[0];
      expect(device).toEqual({ credit_reference: 'CR-100' });
      const audits = (
        await t.db.query(
          "SELECT entity, entity_id, action, actor_email, before, after FROM audit_log WHERE entity IN ('credit', 'device') ORDER BY id DESC LIMIT 2",
        )
      ).rows;
      expect(audits).toEqual([
        expect.objectContaining({ entity: 'credit', entity_id: 'CR-100', action: 'create', actor_email: apiKeyActor('Cobranza') }),
        expect.objectContaining({
          entity: 'device',
          entity_id: String(tv),
          before: { creditReference: 'texto libre' },
          after: { creditReference: 'CR-100' },
        }),
      ]);

      // A replacement: another schedule, the same credit (the reference in another case names it).
      const replaced = await put('cr-100', { customerName: 'María López Pérez', currency: 'USD', installments: schedule(14, 2, '500.50') }, 200);
      expect(replaced).toMatchObject({
        reference: 'CR-100',
        customerName: 'María López Pérez',
        customerPhone: null,
        currency: 'USD',
        total: '1001.00',
      });
      expect(await count('SELECT count(*) AS n FROM credits WHERE lower(reference) = $1', ['cr-100'])).toBe(1);
      expect((await integration().get('CR-100').expect(200)).body).toEqual(replaced);
    });

    test('an IMEI of another credit is a 409 naming it; an unknown IMEI a 404; nothing is written', async () => {
      const imei = nextImei();
      await insertDevices(t.db, [{ imei }]);
      await put('CR-200', { customerName: 'Ana', imeis: [imei], installments: schedule(7, 1) });
      const before = await state();
      const taken = await integration().put('CR-201', { customerName: 'Luis', imeis: [nextImei(), imei], installments: schedule(7, 1) });
      expect([taken.status, taken.body.code, taken.body.field]).toEqual([404, 'DEVICE_NOT_FOUND', 'imeis.0']);
      const other = nextImei();
      await insertDevices(t.db, [{ imei: other }]);
      const conflict = await integration().put('CR-201', { customerName: 'Luis', imeis: [other, imei], installments: schedule(7, 1) });
      expect([conflict.status, conflict.body.code, conflict.body.field]).toEqual([409, 'DEVICE_OF_OTHER_CREDIT', 'imeis.1']);
      expect(conflict.body.message).toBe(`El dispositivo con IMEI ${imei} pertenece al crédito CR-200`);
      expect({ ...(await state()), devices: undefined }).toEqual({ ...before, devices: undefined });
      expect((await t.db.query('SELECT credit_reference FROM devices WHERE imei = $1', [other])).rows[0]).toEqual({ credit_reference: null });
    });

    test('payments cover the oldest installment first; a retry answers the first answer; other data is a conflict', async () => {
      await put('CR-300', { customerName: 'Rosa', installments: schedule(-14, 4, '1000.00') });
      const first = await pay('CR-300', 'pago-1', '1500.00');
      expect(first.payment).toEqual({
        externalId: 'pago-1',
        amount: '1500.00',
        paidAt: new Date(clock - 60_000).toISOString(),
        source: 'integration',
        reversedAt: null,
      });
      expect(first.credit).toEqual({
        reference: 'CR-300',
        currency: 'MXN',
        state: 'overdue',
        daysOverdue: 7,
        amountOverdue: '500.00',
        nextDueDate: TODAY,
        nextDueAmount: '1000.00',
        total: '4000.00',
        paid: '1500.00',
        balance: '2500.00',
      });
      const view = (await integration().get('CR-300').expect(200)).body as IntegrationCredit;
      expect(view.installments.map((i) => i.paid)).toEqual(['1000.00', '500.00', '0.00', '0.00']);

      const before = await state();
      const retry = await integration().pay('CR-300', { externalId: 'pago-1', amount: '1500', paidAt: new Date(clock - 60_000).toISOString() });
      expect([retry.status, retry.body]).toEqual([200, first]);
      const conflict = await integration().pay('CR-300', { externalId: 'pago-1', amount: '1500.01', paidAt: new Date(clock - 60_000).toISOString() });
      expect([conflict.status, conflict.body.code, conflict.body.field]).toEqual([409, 'PAYMENT_CONFLICT', 'externalId']);
      const future = await integration().pay('CR-300', { externalId: 'pago-2', amount: '10.00', paidAt: new Date(clock + 60_000).toISOString() });
      expect([future.status, future.body.code, future.body.field]).toEqual([400, 'VALIDATION', 'paidAt']);
      expect(future.body.message).toBe('El campo Fecha de pago no puede ser posterior a la hora actual');
      const unknown = await integration().pay('CR-999', { externalId: 'pago-2', amount: '10.00', paidAt: new Date(clock).toISOString() });
      expect([unknown.status, unknown.body.code]).toEqual([404, 'CREDIT_NOT_FOUND']);
      expect(await state()).toEqual(before);
    });

    test('a cancelled credit takes no payment (409) and shows nothing overdue', async () => {
      const cancelled = await put('CR-400', { customerName: 'Pedro', cancelled: true, installments: schedule(-30, 2) });
      expect(cancelled).toMatchObject({ state: 'cancelled', daysOverdue: 0, amountOverdue: '0.00', nextDueDate: null, balance: '2000.00' });
      const res = await integration().pay('CR-400', { externalId: 'x-1', amount: '10.00', paidAt: new Date(clock).toISOString() });
      expect([res.status, res.body.code]).toEqual([409, 'CREDIT_CANCELLED']);
    });

    test('paid off, then reversed: the credit is exactly as before; the events are in the outbox in order', async () => {
      await put('CR-500', { customerName: 'Elena', installments: schedule(-10, 3, '333.33') });
      await pay('CR-500', 'e-1', '100.00');
      const snapshot = (await integration().get('CR-500').expect(200)).body as IntegrationCredit;
      const paidOff = await pay('CR-500', 'e-2', '899.99');
      expect(paidOff.credit).toMatchObject({
        state: 'paid_off',
        balance: '0.00',
        daysOverdue: 0,
        amountOverdue: '0.00',
        nextDueDate: null,
        nextDueAmount: null,
      });
      const reversed = await integration().reverse('CR-500', 'e-2').expect(200);
      expect(reversed.body.payment).toMatchObject({ externalId: 'e-2', reversedAt: new Date(clock).toISOString() });
      const after = (await integration().get('CR-500').expect(200)).body as IntegrationCredit;
      expect({ ...after, payments: after.payments.slice(0, 1) }).toEqual(snapshot);
      expect(after.payments[1]).toMatchObject({ externalId: 'e-2', reversedAt: new Date(clock).toISOString() });
      expect(reversed.body.credit).toEqual({
        reference: 'CR-500',
        currency: 'MXN',
        state: snapshot.state,
        daysOverdue: snapshot.daysOverdue,
        amountOverdue: snapshot.amountOverdue,
        nextDueDate: snapshot.nextDueDate,
        nextDueAmount: snapshot.nextDueAmount,
        total: snapshot.total,
        paid: snapshot.paid,
        balance: snapshot.balance,
      });
      const twice = await integration().reverse('CR-500', 'e-2');
      expect([twice.status, twice.body.code, twice.body.field]).toEqual([409, 'PAYMENT_ALREADY_REVERSED', 'externalId']);
      const missing = await integration().reverse('CR-500', 'nunca');
      expect([missing.status, missing.body.code]).toEqual([404, 'PAYMENT_NOT_FOUND']);
      // Never deleted, even by hand.
      await expect(t.db.query('DELETE FROM credit_payments')).rejects.toThrow(/never deleted/);

      const events = (
        await t.db.query<{ type: string; order_key: number; data: { payment: { externalId: string }; credit: { balance: string } } }>(
          `SELECT e.type, e.order_key, e.data FROM webhook_events e WHERE e.data -> 'credit' ->> 'reference' = 'CR-500' ORDER BY e.id`,
        )
      ).rows;
      expect(events.map((e) => [e.type, e.data.payment.externalId, e.data.credit.balance])).toEqual([
        ['payment.applied', 'e-1', '899.99'],
        ['payment.applied', 'e-2', '0.00'],
        ['credit.paid_off', 'e-2', '0.00'],
        ['payment.reversed', 'e-2', '899.99'],
      ]);
      expect(new Set(events.map((e) => Number(e.order_key))).size).toBe(1);
      expect(
        await count('SELECT count(*) AS n FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id WHERE e.type = $1', [
          'credit.paid_off',
        ]),
      ).toBe(1);
      expect(
        (await t.db.query("SELECT action FROM audit_log WHERE entity = 'credit' AND entity_id = 'CR-500' ORDER BY id")).rows.map((r) => r.action),
      ).toEqual(['create', 'register_payment', 'lookup', 'register_payment', 'reverse_payment', 'lookup']);
    });

    test("the company's day: at 23:30 in Mexico City an installment due that day is not overdue, though UTC is already the next day", async () => {
      await put('CR-600', { customerName: 'Jorge', installments: [{ number: 1, dueDate: TODAY, amount: '200.00' }] });
      clock = Date.parse(`${TODAY}T23:30:00-06:00`);
      expect(new Date(clock).toISOString().slice(0, 10)).toBe(day(1));
      expect(todayIn(ZONE, new Date(clock))).toBe(TODAY);
      expect(((await integration().get('CR-600').expect(200)).body as IntegrationCredit).state).toBe('current');
      const summaryAt = async () => creditSummaryResponse.parse((await request(app()).get('/api/v5/credits/summary').set(admin).expect(200)).body);
      const late = await summaryAt();
      expect(late.today).toBe(TODAY);
      // A payment at 23:29 in Mexico City (05:29 UTC the next day) is a payment of that day.
      const paidAt = `${TODAY}T23:29:00-06:00`;
      const before = late.paymentsToday.count;
      await pay('CR-600', 'noche-1', '50.00', paidAt);
      expect((await summaryAt()).paymentsToday.count).toBe(before + 1);
      // Half past midnight: the next day, one day overdue; the payment is yesterday's.
      clock = Date.parse(`${day(1)}T00:30:00-06:00`);
      const next = (await integration().get('CR-600').expect(200)).body as IntegrationCredit;
      expect(next).toMatchObject({ state: 'overdue', daysOverdue: 1, amountOverdue: '150.00' });
      expect((await summaryAt()).today).toBe(day(1));
    });

    test('bad credit bodies: a 400 naming the field, nothing written', async () => {
      const good = { customerName: 'Válido', installments: schedule(7, 2) };
      const cases: [unknown, string][] = [
        [{ ...good, customerName: '' }, 'customerName'],
        [{ ...good, customerName: undefined }, 'customerName'],
        [{ ...good, customerPhone: '123' }, 'customerPhone'],
        [{ ...good, currency: 'pesos' }, 'currency'],
        [{ ...good, installments: [] }, 'installments'],
        [{ ...good, installments: 'cuotas' }, 'installments'],
        [{ ...good, installments: [{ number: 1, dueDate: day(7), amount: '0.00' }] }, 'installments.0.amount'],
        [{ ...good, installments: [{ number: 1, dueDate: day(7), amount: 1250 }] }, 'installments.0.amount'],
        [{ ...good, installments: [{ number: 1, dueDate: day(7), amount: '12.345' }] }, 'installments.0.amount'],
        [{ ...good, installments: [{ number: 1, dueDate: '2026-02-30', amount: '1.00' }] }, 'installments.0.dueDate'],
        [{ ...good, installments: [{ number: 1, dueDate: '1999-12-31', amount: '1.00' }] }, 'installments.0.dueDate'],
        [{ ...good, installments: [schedule(7, 2)[1], schedule(7, 2)[0]] }, 'installments.0.number'],
        [{ ...good, installments: [schedule(7, 2)[0], { ...schedule(7, 2)[1], dueDate: day(7) }] }, 'installments.1.dueDate'],
        [{ ...good, installments: schedule(7, 1001) }, 'installments'],
        [{ ...good, imeis: ['123'] }, 'imeis.0'],
        [{ ...good, imeis: 'x' }, 'imeis'],
        [{ ...good, cancelled: 'si' }, 'cancelled'],
      ];
      const before = await state();
      for (const [body, field] of cases) {
        const res = await integration().put('CR-BAD', body);
        expect([JSON.stringify(body).slice(0, 80), res.status, res.body.code, res.body.field]).toEqual([
          JSON.stringify(body).slice(0, 80),
          400,
          'VALIDATION',
          field,
        ]);
        expect(res.body.message).toMatch(/^El (campo|parámetro) \p{Lu}/u);
      }
      const longRef = await integration().put('R'.repeat(65), good);
      expect([longRef.status, longRef.body.field]).toEqual([400, 'reference']);
      expect(await state()).toEqual(before);
    });

    test('bad payments: a 400 naming the field, nothing written', async () => {
      await put('CR-700', { customerName: 'Sofía', installments: schedule(7, 2) });
      const now = new Date(clock).toISOString();
      const cases: [unknown, string][] = [
        [{ amount: '10.00', paidAt: now }, 'externalId'],
        [{ externalId: 'con espacio', amount: '10.00', paidAt: now }, 'externalId'],
        [{ externalId: 'x'.repeat(101), amount: '10.00', paidAt: now }, 'externalId'],
        [{ externalId: 'p', amount: 10, paidAt: now }, 'amount'],
        [{ externalId: 'p', amount: '-10.00', paidAt: now }, 'amount'],
        [{ externalId: 'p', amount: '0', paidAt: now }, 'amount'],
        [{ externalId: 'p', amount: '10.00', paidAt: '20/11/2026' }, 'paidAt'],
        [{ externalId: 'p', amount: '10.00', paidAt: '2026-11-20T10:00:00' }, 'paidAt'],
        [{ externalId: 'p', amount: '10.00' }, 'paidAt'],
      ];
      const before = await state();
      for (const [body, field] of cases) {
        const res = await integration().pay('CR-700', body);
        expect([JSON.stringify(body), res.status, res.body.field]).toEqual([JSON.stringify(body), 400, field]);
      }
      expect(await state()).toEqual(before);
    });

    test('random bodies on the write routes: only 400s, nothing changed', async () => {
      await put('CR-800', { customerName: 'Aleatorio', installments: schedule(7, 2) });
      const before = await state();
      const fields = ['customerName', 'customerPhone', 'currency', 'cancelled', 'imeis', 'installments'];
      const invalidCredit = fc
        .oneof(
          fc.anything(),
          fc.dictionary(fc.constantFrom(...fields), fc.anything()),
          fc.record({
            customerName: fc.oneof(fc.string(), fc.anything()),
            installments: fc.array(
              fc.record({ number: fc.anything(), dueDate: fc.oneof(fc.string(), fc.date().map(String)), amount: fc.oneof(fc.string(), fc.double()) }),
            ),
          }),
        )
        .filter((b) => !creditBody.safeParse(asSent(b)).success);
      await fc.assert(
        fc.asyncProperty(invalidCredit, async (body) => {
          const res = await integration().put('CR-800', body);
          expect(res.status).toBe(400);
          expect(typeof res.body.message).toBe('string');
        }),
        { numRuns: 60 },
      );
      const invalidPayment = fc
        .oneof(
          fc.anything(),
          fc.record({
            externalId: fc.oneof(fc.string(), fc.anything()),
            amount: fc.oneof(fc.string(), fc.double(), fc.anything()),
            paidAt: fc.oneof(fc.string(), fc.anything()),
          }),
        )
        .filter((b) => !paymentBody.safeParse(asSent(b)).success);
      for (const route of [
        (b: unknown) => integration().pay('CR-800', b),
        (b: unknown) => sendJson(request(app()).post('/api/v5/credits/CR-800/payments').set(admin), b),
      ]) {
        await fc.assert(
          fc.asyncProperty(invalidPayment, async (body) => {
            const res = await route(body);
            expect(res.status).toBe(400);
          }),
          { numRuns: 40 },
        );
      }
      expect(await state()).toEqual(before);
    });
  });

  describe('the portfolio (portal API)', () => {
    let north: number;
    const refs = ['P-CUR', 'P-OV3', 'P-OV10', 'P-OV40', 'P-PAID', 'P-CANC', 'P-LATER', 'P-USD'];
    beforeAll(async () => {
      north = await insertGroup(t.db, 'Norte créditos');
      await insertDevices(t.db, [
        { imei: nextImei(), creditReference: 'P-OV3', groupId: north },
        { imei: nextImei(), creditReference: 'p-ov3', deviceType: 2 },
        { imei: nextImei(), creditReference: 'P-CUR' },
      ]);
      await put('P-CUR', { customerName: 'Núñez Peña, Jesús', installments: schedule(3, 4) });
      await put('P-OV3', { customerName: 'Ana Overdue', installments: schedule(-3, 4) });
      await put('P-OV10', { customerName: 'Beto Diez', installments: schedule(-10, 3, '800.00', 30) });
      await put('P-OV40', { customerName: 'Carla Cuarenta', installments: schedule(-40, 2, '2500.00', 60) });
      await put('P-PAID', { customerName: 'Diego Pagado', installments: schedule(-5, 2, '100.00') });
      await pay('P-PAID', 'pp-1', '200.00');
      await put('P-CANC', { customerName: 'Eva Cancelada', cancelled: true, installments: schedule(-20, 2) });
      await put('P-LATER', { customerName: 'Félix Después', installments: schedule(20, 2) });
      await put('P-USD', { customerName: 'Gina Dólares', currency: 'USD', installments: schedule(-2, 2, '99.99') });
      await pay('P-USD', 'usd-1', '50.00');
    });

    const list = async (query: Record<string, string>) => {
      const all: CreditRow[] = [];
      let total = 0;
      for (let page = 1; ; page++) {
        const res = await request(app())
          .get('/api/v5/credits')
          .query({ ...query, perPage: '100', page: String(page) })
          .set(admin)
          .expect(200);
        const body = creditListResponse.parse(res.body) as CreditList;
        total = body.total;
        all.push(...body.data);
        if (body.data.length < 100) break;
      }
      expect(all).toHaveLength(total);
      return all.filter((r) => refs.includes(r.reference));
    };
    const summary = async () =>
      creditSummaryResponse.parse((await request(app()).get('/api/v5/credits/summary').set(admin).expect(200)).body) as CreditSummary;

    test('filters by state, overdue bucket, this week, group and search; rows carry the standing', async () => {
      const names = async (q: Record<string, string>) => (await list(q)).map((r) => r.reference).sort();
      expect(await names({ state: 'overdue' })).toEqual(['P-OV10', 'P-OV3', 'P-OV40', 'P-USD']);
      expect(await names({ state: 'current' })).toEqual(['P-CUR', 'P-LATER']);
      expect(await names({ state: 'paid_off' })).toEqual(['P-PAID']);
      expect(await names({ state: 'cancelled' })).toEqual(['P-CANC']);
      expect(await names({ overdue: '1-7' })).toEqual(['P-OV3', 'P-USD']);
      expect(await names({ overdue: '8-30' })).toEqual(['P-OV10']);
      expect(await names({ overdue: '31+' })).toEqual(['P-OV40']);
      expect(await names({ state: 'current', overdue: '1-7' })).toEqual([]);
      // This week: P-CUR's first installment, P-OV3's next one (it is overdue too), P-USD's second.
      expect(await names({ dueThisWeek: 'true' })).toEqual(['P-CUR', 'P-OV3', 'P-USD']);
      expect(await names({ dueThisWeek: 'false', state: 'overdue' })).toEqual(['P-OV10', 'P-OV40']);
      expect(await names({ groupId: String(north) })).toEqual(['P-OV3']);
      expect(await names({ groupId: 'none' })).toEqual(['P-CUR', 'P-OV3']);
      expect(await names({ search: 'nunez pea' })).toEqual(['P-CUR']);
      expect(await names({ search: 'JESÚS' })).toEqual(['P-CUR']);
      expect(await names({ search: 'p-ov1' })).toEqual(['P-OV10']);
      const [ov3] = await list({ search: 'P-OV3' });
      expect(ov3).toEqual({
        reference: 'P-OV3',
        customerName: 'Ana Overdue',
        currency: 'MXN',
        state: 'overdue',
        daysOverdue: 3,
        amountOverdue: '1000.00',
        nextDueDate: day(4),
        nextDueAmount: '1000.00',
        total: '4000.00',
        paid: '0.00',
        balance: '4000.00',
        deviceCount: 2,
      });
      const bad = await request(app()).get('/api/v5/credits').query({ overdue: '2-3' }).set(admin).expect(400);
      expect(bad.body.field).toBe('overdue');
    });

    test('paid today: the credits with a payment that stands dated on the company day; the export keeps the filter', async () => {
      const names = async (q: Record<string, string>) => (await list(q)).map((r) => r.reference).sort();
      // Outside the refs the other tests read: paid at 23:59 of yesterday (company zone), and today but reversed.
      await put('X-PAID-Y', { customerName: 'Hugo Ayer', installments: schedule(10, 2) });
      await pay('X-PAID-Y', 'y-1', '100.00', new Date(`${day(-1)}T23:59:00-06:00`).toISOString());
      await put('X-PAID-R', { customerName: 'Irma Revertido', installments: schedule(10, 2) });
      await pay('X-PAID-R', 'r-1', '100.00');
      await request(app()).post('/api/v5/credits/X-PAID-R/payments/r-1/reversal').set(admin).expect(200);
      const ids = async (q: Record<string, string>) =>
        (
          creditListResponse.parse(
            (
              await request(app())
                .get('/api/v5/credits')
                .query({ ...q, perPage: '100' })
                .set(admin)
                .expect(200)
            ).body,
          ) as CreditList
        ).data
          .map((r) => r.reference)
          .sort();
      // Every credit with a payment standing today (earlier tests paid some too), and only those.
      const paidToday = (
        await t.db.query<{ reference: string }>(
          `SELECT DISTINCT c.reference FROM credit_payments p JOIN credits c ON c.id = p.credit_id
            WHERE p.reversed_at IS NULL AND p.paid_at >= $1 AND p.paid_at < $2 ORDER BY 1`,
          [new Date(`${TODAY}T00:00:00-06:00`), new Date(`${day(1)}T00:00:00-06:00`)],
        )
      ).rows.map((r) => r.reference);
      expect(paidToday).toEqual(expect.arrayContaining(['P-PAID', 'P-USD']));
      expect(paidToday).not.toContain('X-PAID-Y');
      expect(paidToday).not.toContain('X-PAID-R');
      expect(await ids({ paidToday: 'true' })).toEqual([...paidToday].sort());
      expect(await ids({ paidToday: 'false', search: 'X-PAID' })).toEqual(['X-PAID-R', 'X-PAID-Y']);
      expect(await names({ paidToday: 'false', state: 'overdue' })).toEqual(['P-OV10', 'P-OV3', 'P-OV40']);
      const csv = await request(app()).get('/api/v5/credits/export').query({ paidToday: 'true' }).set(admin).buffer(true).parse(asText).expect(200);
      const exported = Papa.parse<Record<string, string>>((csv.body as string).slice(1), { header: true, skipEmptyLines: true }).data;
      expect(exported.map((r) => r.referencia).sort()).toEqual([...paidToday].sort());
      const bad = await request(app()).get('/api/v5/credits').query({ paidToday: 'yes' }).set(admin).expect(400);
      expect(bad.body.field).toBe('paidToday');
    });

    test('sorts: every sort in both directions orders the rows by its key', async () => {
      const keyOf: Record<(typeof CREDIT_SORTS)[number], (r: CreditRow) => string | number> = {
        dueDate: (r) => (r.state === 'paid_off' || r.state === 'cancelled' ? 'z' : r.state === 'overdue' ? day(-r.daysOverdue) : r.nextDueDate!),
        reference: (r) => r.reference.toLowerCase(),
        customerName: (r) => r.customerName.toLowerCase(),
        balance: (r) => parseAmount(r.balance)!,
        createdAt: (r) => refs.indexOf(r.reference),
      };
      for (const sort of CREDIT_SORTS) {
        const rows = await list({ sort, order: 'asc' });
        const keys = rows.filter((r) => sort !== 'dueDate' || r.state !== 'cancelled').map(keyOf[sort]);
        expect([sort, keys]).toEqual([sort, [...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))]);
        const desc = (await list({ sort, order: 'desc' })).map((r) => r.reference);
        expect(desc).toEqual(rows.map((r) => r.reference).reverse());
      }
    });

    test('the summary: every figure equals the total of the list filtered the matching way', async () => {
      const s = await summary();
      expect(s.today).toBe(TODAY);
      expect(s.timeZone).toBe(ZONE);
      const total = async (query: Record<string, string>) =>
        creditListResponse.parse(
          (
            await request(app())
              .get('/api/v5/credits')
              .query({ ...query, perPage: '1' })
              .set(admin)
              .expect(200)
          ).body,
        ).total;
      expect(s.total).toBe(await total({}));
      for (const [state, n] of Object.entries(s.byState)) expect([state, n]).toEqual([state, await total({ state })]);
      for (const [bucket, n] of Object.entries(s.overdueBuckets)) expect([bucket, n]).toEqual([bucket, await total({ overdue: bucket })]);
      expect(s.dueThisWeek).toBe(await total({ dueThisWeek: 'true' }));
      // The amount overdue per currency: the sum of the rows' amounts of the overdue list.
      const overdue = (await request(app()).get('/api/v5/credits').query({ state: 'overdue', perPage: '100' }).set(admin).expect(200))
        .body as CreditList;
      const sums = new Map<string, number>();
      for (const r of overdue.data) sums.set(r.currency, (sums.get(r.currency) ?? 0) + parseAmount(r.amountOverdue)!);
      expect(s.amountOverdue).toEqual([...sums.entries()].sort().map(([currency, cents]) => ({ currency, amount: (cents / 100).toFixed(2) })));
      expect(s.amountOverdue.find((a) => a.currency === 'USD')).toEqual({ currency: 'USD', amount: '49.99' });
      // Today's payments that stand, per currency.
      const payments = (
        await t.db.query<{ currency: string; n: number; cents: number }>(
          `SELECT c.currency, count(*) AS n, sum(p.amount_cents) AS cents FROM credit_payments p JOIN credits c ON c.id = p.credit_id
            WHERE p.reversed_at IS NULL AND p.paid_at >= $1 AND p.paid_at < $2 GROUP BY c.currency ORDER BY c.currency`,
          [new Date(`${TODAY}T00:00:00-06:00`), new Date(`${day(1)}T00:00:00-06:00`)],
        )
      ).rows;
      expect(s.paymentsToday).toEqual({
        count: payments.reduce((sum, p) => sum + Number(p.n), 0),
        amounts: payments.map((p) => ({ currency: p.currency, amount: (Number(p.cents) / 100).toFixed(2) })),
      });
      // The counters equal a recount of the credits.
      const counters = (await t.db.query('SELECT due::text AS due, cancelled, n FROM credit_due_counts WHERE n <> 0 ORDER BY 1, 2')).rows;
      const recount = (
        await t.db.query(
          `SELECT coalesce(first_unpaid_due, 'infinity')::text AS due, cancelled_at IS NOT NULL AS cancelled, count(*) AS n FROM credits GROUP BY 1, 2 ORDER BY 1, 2`,
        )
      ).rows;
      expect(counters.map((r) => ({ ...r, n: Number(r.n) }))).toEqual(recount.map((r) => ({ ...r, n: Number(r.n) })));
      // What is unpaid per due date and currency equals a recount: payments cover the oldest installments first.
      const unpaid = (await t.db.query('SELECT due::text AS due, currency, cents FROM credit_unpaid_by_due WHERE cents <> 0 ORDER BY 1, 2')).rows;
      const unpaidRecount = (
        await t.db.query(
          `SELECT due, currency, sum(least(amount_cents, greatest(0, due_up_to - paid_cents))) AS cents
             FROM (SELECT i.due_date::text AS due, c.currency, i.amount_cents, c.paid_cents,
                          sum(i.amount_cents) OVER (PARTITION BY c.id ORDER BY i.number) AS due_up_to
                     FROM credits c JOIN credit_installments i ON i.credit_id = c.id WHERE c.cancelled_at IS NULL) x
            GROUP BY 1, 2 HAVING sum(least(amount_cents, greatest(0, due_up_to - paid_cents))) <> 0 ORDER BY 1, 2`,
        )
      ).rows;
      expect(unpaid.map((r) => ({ ...r, cents: Number(r.cents) }))).toEqual(unpaidRecount.map((r) => ({ ...r, cents: Number(r.cents) })));
      expect(unpaid.length).toBeGreaterThan(5);
    });

    test('the export: the filtered set as CSV, dates in the zone asked for; audited', async () => {
      const res = await request(app())
        .get('/api/v5/credits/export')
        .query({ state: 'overdue', tz: ZONE })
        .set(admin)
        .buffer(true)
        .parse(asText)
        .expect(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toBe(`attachment; filename="creditos-${TODAY}.csv"`);
      const text = res.body as string;
      expect(text.startsWith('\uFEFF')).toBe(true);
      const parsed = Papa.parse<Record<string, string>>(text.slice(1), { header: true, skipEmptyLines: true });
      expect(parsed.meta.fields).toEqual(CREDIT_MESSAGES.credits.csvColumns.map((c) => (c === 'alta' ? `alta (${ZONE})` : c)));
      expect(parsed.meta.fields).toContain('importe_vencido');
      const rows = parsed.data.filter((r) => refs.includes(r.referencia!));
      expect(rows.map((r) => r.referencia).sort()).toEqual(['P-OV10', 'P-OV3', 'P-OV40', 'P-USD']);
      expect(rows.find((r) => r.referencia === 'P-OV3')).toMatchObject({
        estado: 'Vencido',
        dias_atraso: '3',
        importe_vencido: '1000.00',
        dispositivos: '2',
      });
      expect(rows[0]![`alta (${ZONE})`]).toMatch(/-06:00$/);
      expect(parsed.data).toHaveLength((await list({ state: 'overdue' })).length + (parsed.data.length - rows.length));
      const audit = (await t.db.query("SELECT action, detail FROM audit_log WHERE entity = 'credit' ORDER BY id DESC LIMIT 1")).rows[0];
      expect(audit).toEqual({ action: 'export', detail: JSON.stringify({ state: 'overdue' }) });
    });

    test("a credit's detail: installment states, who recorded each payment; the portal registers and reverses", async () => {
      const detail = creditDetailResponse.parse((await request(app()).get('/api/v5/credits/p-ov3').set(admin).expect(200)).body);
      expect(detail.installments.map((i) => i.state)).toEqual(['overdue', 'pending', 'pending', 'pending']);
      const externalId = 'portal-5f0e8a4e-4a55-4a1e-9d43-0c2b9e6e1f00';
      const body = { externalId, amount: '1500.00', paidAt: new Date(clock - 1000).toISOString() };
      const first = await request(app()).post('/api/v5/credits/P-OV3/payments').set(admin).send(body).expect(201);
      expect(first.body.payment.source).toBe('portal');
      const retried = await request(app()).post('/api/v5/credits/P-OV3/payments').set(admin).send(body).expect(200);
      expect(retried.body).toEqual(first.body);
      const after = creditDetailResponse.parse((await request(app()).get('/api/v5/credits/P-OV3').set(admin).expect(200)).body);
      expect(after.installments.map((i) => i.state)).toEqual(['paid', 'partial', 'pending', 'pending']);
      expect(after.payments).toEqual([
        expect.objectContaining({ externalId, source: 'portal', recordedBy: 'admin@demo.local', reversedAt: null, reversedBy: null }),
      ]);
      await request(app()).post(`/api/v5/credits/P-OV3/payments/${externalId}/reversal`).set(admin).expect(200);
      const reversed = creditDetailResponse.parse((await request(app()).get('/api/v5/credits/P-OV3').set(admin).expect(200)).body);
      expect(reversed.payments[0]).toMatchObject({ reversedBy: 'admin@demo.local' });
      expect(reversed.installments).toEqual(detail.installments);
      await request(app()).get('/api/v5/credits/NADA').set(admin).expect(404);
    });

    test("a device's credit panel: the credit its reference names, or null", async () => {
      const [withCredit] = (await t.db.query<{ id: number }>("SELECT id FROM devices WHERE credit_reference = 'P-CUR'")).rows;
      const panel = deviceCreditResponse.parse((await request(app()).get(`/api/v5/devices/${withCredit!.id}/credit`).set(admin).expect(200)).body);
      expect(panel).toMatchObject({ reference: 'P-CUR', state: 'current', nextDueDate: day(3), nextDueAmount: '1000.00', deviceCount: 1 });
      const [free] = await insertDevices(t.db, [{ imei: nextImei(), creditReference: 'SIN-CREDITO' }]);
      expect((await request(app()).get(`/api/v5/devices/${free}/credit`).set(admin).expect(200)).body).toBeNull();
      await request(app()).get('/api/v5/devices/999999/credit').set(admin).expect(404);
    });

    test('grants: the page reads, payments also need the action 100; the devices page alone reads only the panel', async () => {
      const reader = await api.addProfile('Lectura de cartera', [PATHS.credits, PATHS.creditPortfolio], []);
      await api.addAdmin('cartera@demo.local', reader);
      const readerHeaders = await api.headersOf('cartera@demo.local');
      await request(app()).get('/api/v5/credits').set(readerHeaders).expect(200);
      await request(app()).get('/api/v5/credits/summary').set(readerHeaders).expect(200);
      const body = { externalId: 'r-1', amount: '1.00', paidAt: new Date(clock).toISOString() };
      const refused = await request(app()).post('/api/v5/credits/P-CUR/payments').set(readerHeaders).send(body).expect(403);
      expect(refused.body.code).toBe('FORBIDDEN');
      await request(app()).post('/api/v5/credits/P-CUR/payments/x/reversal').set(readerHeaders).expect(403);

      const collector = await api.addProfile('Cobrador', [PATHS.credits, PATHS.creditPortfolio], [ROLE_ACTION.REGISTER_PAYMENTS]);
      await api.addAdmin('cobrador@demo.local', collector);
      await request(app())
        .post('/api/v5/credits/P-CUR/payments')
        .set(await api.headersOf('cobrador@demo.local'))
        .send(body)
        .expect(201);

      // An API key whose role lacks the action: it reads and writes credits, not payments.
      const created = await request(app()).post('/api/v5/api-keys').set(admin).send({ name: 'Solo lectura', profileId: reader }).expect(201);
      const readerKey = (created.body as ApiKeyCreated).secret;
      await integration(readerKey).get('P-CUR').expect(200);
      const keyRefused = await integration(readerKey).pay('P-CUR', { ...body, externalId: 'k-1' });
      expect([keyRefused.status, keyRefused.body.code]).toEqual([403, 'FORBIDDEN']);
      expect((await integration(readerKey).reverse('P-CUR', 'r-1')).status).toBe(403);

      const devicesOnly = await api.addProfile('Solo dispositivos', [PATHS.inventory, PATHS.devices], []);
      await api.addAdmin('dispositivos@demo.local', devicesOnly);
      const devicesHeaders = await api.headersOf('dispositivos@demo.local');
      const [device] = (await t.db.query<{ id: number }>("SELECT id FROM devices WHERE credit_reference = 'P-CUR'")).rows;
      await request(app()).get(`/api/v5/devices/${device!.id}/credit`).set(devicesHeaders).expect(200);
      await request(app()).get('/api/v5/credits').set(devicesHeaders).expect(403);
      await request(app()).get('/api/v5/credits/P-CUR').set(devicesHeaders).expect(403);
      await request(app()).get(`/api/v5/devices/${device!.id}/credit`).set(readerHeaders).expect(403);
    });
  });
});

/** supertest: the body of a CSV answer as text. */
function asText(res: request.Response, cb: (err: Error | null, body: string) => void) {
  let text = '';
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => (text += chunk));
  res.on('end', () => cb(null, text));
}

describe.each(testEngines())('migration 0024 on %s', (engine) => {
  test('an existing installation: the Administrador and the roles holding the whole administrators’ menu get the pages and the action 100', async () => {
    const t = await createTestDb(engine, { migrate: false });
    try {
      await migrate(
        t.db,
        migrations.filter((m) => m.id < '0024'),
      );
      const adminMenu = MENU.find((m) => m.path === PATHS.adminSettings)!;
      const wholeMenu = [adminMenu.path, ...adminMenu.submodules.map((s) => s.path)];
      await t.db.query(
        `INSERT INTO profiles (nombre, paths, actions) VALUES
           ('Administrador', $1, '{0,5}'), ('Jefatura', $2, '{}'), ('Soporte', '{/dashboard,/admin-settings/roles}', '{7}')`,
        [
          ['/dashboard', PATHS.inventory, PATHS.devices],
          ['/dashboard', PATHS.inventory, PATHS.groups, ...wholeMenu],
        ],
      );
      // Up to 0024 itself: 0025 grants later actions (tests/integration/collection.test.ts).
      await migrate(
        t.db,
        migrations.filter((m) => m.id <= '0024_credits'),
      );
      const rows = (
        await t.db.query<{ nombre: string; paths: string[]; actions: number[] }>('SELECT nombre, paths, actions FROM profiles ORDER BY id')
      ).rows;
      expect(rows).toEqual([
        {
          nombre: 'Administrador',
          paths: ['/dashboard', PATHS.inventory, PATHS.devices, PATHS.credits, PATHS.creditPortfolio],
          actions: [0, 5, 100],
        },
        {
          nombre: 'Jefatura',
          paths: ['/dashboard', PATHS.inventory, PATHS.groups, PATHS.credits, PATHS.creditPortfolio, ...wholeMenu],
          actions: [ROLE_ACTION.REGISTER_PAYMENTS],
        },
        { nombre: 'Soporte', paths: ['/dashboard', '/admin-settings/roles'], actions: [7] },
      ]);
      // Each kept in the order the role editor stores: menu order, actions ascending.
      expect(rows[1]!.paths).toEqual(GRANTABLE_PATHS.filter((p) => rows[1]!.paths.includes(p)));
    } finally {
      await t.dispose();
    }
  });
});
