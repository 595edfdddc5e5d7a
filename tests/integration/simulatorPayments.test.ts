/**
 * The simulator's customers (`npm run simulate -- --payments`) against the real app listening on
 * a port: they read the portfolio through the portal API and pay through the integration API with
 * an API key; on-time customers pay what is overdue and what falls due today, late ones what is
 * overdue, the others nothing. A second run pays nothing more, and a payment posted again answers
 * its first result.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import type { ApiKeyCreated } from '../../shared/contracts/apiKeys';
import type { IntegrationCredit } from '../../shared/contracts/credits';
import { INTEGRATION_BASE } from '../../shared/constants/apiPaths';
import { DEFAULT_TIME_ZONE, addDays, todayIn } from '../../shared/credits';
import { behaviourOf, httpIntegrationPayments, portalCreditSource, runPayments, type PaymentRates } from '../../tools/simulator/payments';
import { portalCaller } from '../../tools/simulator/portalApi';
import { adminApi, type AdminApi } from '../helpers/adminApi';
import { createTestDb, testEngines, type TestDb } from '../helpers/testDb';

const RATES: PaymentRates = { onTime: 0.5, late: 0.3, never: 0.2 };
const SEED = 5;
const REFERENCES = Array.from({ length: 24 }, (_, i) => `CR-SIM-${String(i + 1).padStart(3, '0')}`);

describe.each(testEngines())('simulated customers paying (%s)', (engine) => {
  let testDb: TestDb;
  let api: AdminApi;
  let server: http.Server;
  let url: string;
  let admin: Record<string, string>;
  let key: string;

  beforeAll(async () => {
    testDb = await createTestDb(engine);
    api = await adminApi(testDb.db);
    admin = await api.headersOf('admin@demo.local');
    const profileId = (await testDb.db.query<{ id: number }>("SELECT id FROM profiles WHERE nombre = 'Administrador'")).rows[0]!.id;
    key = ((await request(api.ta.app).post('/api/v5/api-keys').set(admin).send({ name: 'Simulador', profileId }).expect(201)).body as ApiKeyCreated)
      .secret;
    server = http.createServer(api.ta.app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // Each credit: 100.00 overdue for ten days, 100.00 due today, 100.00 next week.
    const today = todayIn(DEFAULT_TIME_ZONE, new Date());
    for (const reference of REFERENCES) {
      await request(api.ta.app)
        .put(`${INTEGRATION_BASE}/credits/${reference}`)
        .set('Authorization', `Bearer ${key}`)
        .send({
          customerName: 'Cliente de prueba',
          installments: [-10, 0, 7].map((d, i) => ({ number: i + 1, dueDate: addDays(today, d), amount: '100.00' })),
        })
        .expect(201);
    }
  }, 60_000);
  afterAll(async () => {
    if (server) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    await api?.ta.services.agent.stop();
    await testDb?.dispose();
  });

  const credit = async (reference: string) =>
    (await request(api.ta.app).get(`${INTEGRATION_BASE}/credits/${reference}`).set('Authorization', `Bearer ${key}`).expect(200))
      .body as IntegrationCredit;
  const run = (durationMs: number, lines: string[] = []) =>
    runPayments({
      credits: portalCreditSource(portalCaller({ apiUrl: `${url}/api`, headers: async () => admin })),
      api: httpIntegrationPayments({ baseUrl: url, apiKey: key }),
      rates: RATES,
      durationMs,
      seed: SEED,
      scanEveryMs: 500,
      onProgress: (line) => lines.push(line),
    });

  test('on-time customers pay what is due today, late ones what is overdue, the rest nothing; once', async () => {
    const behaviours = REFERENCES.map((r) => behaviourOf(r, RATES, SEED));
    const count = (b: string) => behaviours.filter((x) => x === b).length;
    // The draw gives every behaviour at least one customer here (else this test would prove less).
    expect([count('onTime'), count('late'), count('never')].every((n) => n > 0)).toBe(true);

    const lines: string[] = [];
    const stats = await run(4_000, lines);
    expect(stats.errors).toBe(0);
    expect(stats.refused).toEqual({});
    expect(stats.customers).toEqual({ onTime: count('onTime'), late: count('late'), never: count('never') });
    expect(stats.applied).toEqual({ onTime: count('onTime'), late: count('late') });
    expect(stats.appliedCents).toBe(count('onTime') * 20_000 + count('late') * 10_000);
    expect(lines.at(-1)).toMatch(/^Pagos: \d+ aplicados \(\d+ puntuales, \d+ tardíos\) por [\d.]+ · 0 por pagar/);

    for (const [i, reference] of REFERENCES.entries()) {
      const c = await credit(reference);
      const expected = { onTime: ['200.00', 'current', 1], late: ['100.00', 'current', 1], never: ['0.00', 'overdue', 0] }[behaviours[i]!];
      expect({ reference, paid: c.paid, state: c.state, payments: c.payments.length }).toEqual({
        reference,
        paid: expected[0],
        state: expected[1],
        payments: expected[2],
      });
      if (c.payments.length) expect(c.payments[0]).toMatchObject({ externalId: `sim-${reference}-0`, source: 'integration' });
    }

    // Nothing is left for these customers to pay today: a second run applies nothing.
    const again = await run(1_200);
    expect(again.applied).toEqual({ onTime: 0, late: 0 });
    expect(again.errors).toBe(0);
    const rows = await testDb.db.query<{ n: number }>('SELECT count(*) AS n FROM credit_payments');
    expect(Number(rows.rows[0]!.n)).toBe(count('onTime') + count('late'));
  }, 60_000);

  test('a payment posted again answers its first result; the same externalId with another amount is refused', async () => {
    const reference = REFERENCES.find((r) => behaviourOf(r, RATES, SEED) === 'never')!;
    const payments = httpIntegrationPayments({ baseUrl: url, apiKey: key });
    const body = { externalId: `sim-${reference}-0`, amount: '100.00', paidAt: new Date(Date.now() - 5_000).toISOString() };
    const first = await payments.pay(reference, body);
    expect(first.kind).toBe('applied');
    expect(await payments.pay(reference, body)).toEqual({ ...first, kind: 'replayed' });
    expect(await payments.pay(reference, { ...body, amount: '50.00' })).toMatchObject({ kind: 'refused', status: 409, code: 'PAYMENT_CONFLICT' });
    expect((await credit(reference)).paid).toBe('100.00');
    const denied = httpIntegrationPayments({ baseUrl: url, apiKey: 'mlk_nadie_x' });
    expect(await denied.pay(reference, body)).toMatchObject({ kind: 'refused', status: 401 });
  });
});
