/**
 * The README's lender integration, as its commands run it (scripts/integration.ts against a
 * listening portal): an administrator signs in and creates a key, a local receiver subscribes,
 * a lock by credit reference with the key reaches the receiver as a signed `device.status_changed`
 * whose signature verifies with the standardwebhooks library.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { DEVICE_ACTION } from '../../shared/constants/deviceActions';
import { INTEGRATION_BASE } from '../../shared/constants/apiPaths';
import { createKey, signedInCaller, startReceiver, type Received } from '../../scripts/integration';
import { DEMO_PASSWORD, adminApi, type AdminApi } from '../helpers/adminApi';
import { insertDevices, testImei } from '../helpers/inventoryFixtures';
import { createTestDb, type TestDb } from '../helpers/testDb';

describe('the lender integration from a terminal (scripts/integration.ts)', () => {
  let t: TestDb;
  let api: AdminApi;
  let server: Server;
  let base: string;

  beforeAll(async () => {
    t = await createTestDb('pglite');
    // The receiver listens on 127.0.0.1: allowed only with private targets.
    api = await adminApi(t.db, { env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
    server = api.ta.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    api.ta.services.webhookDispatcher.start();
  });
  afterAll(async () => {
    await api?.ta.services.webhookDispatcher.stop();
    await api?.ta.services.agent.stop();
    await new Promise((resolve) => server?.close(resolve));
    await t?.dispose();
  });

  test('key, receiver, lock by credit reference, verified webhook', async () => {
    const [id] = await insertDevices(t.db, [{ imei: testImei(424_242), creditReference: 'CR-README-1' }]);
    const call = await signedInCaller(base, 'admin@demo.local', DEMO_PASSWORD);
    const secret = await createKey(call, { name: 'Cobranza', role: 'Administrador', ips: [] });
    expect(secret).toMatch(/^mlk_/);

    const received: Received[] = [];
    const receiver = await startReceiver(0, (r) => received.push(r));
    const created = await call<{ webhook: { id: number }; secret: string }>('POST', '/v5/webhooks', {
      name: 'Receptor',
      url: receiver.url,
      events: ['device.status_changed'],
    });
    receiver.setSecret(created.secret);

    const lock = await fetch(`${base}${INTEGRATION_BASE}/commands`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${secret}`, 'content-type': 'application/json', 'Idempotency-Key': 'pago-1' },
      body: JSON.stringify({ device: { creditReference: 'CR-README-1' }, payload: { action: DEVICE_ACTION.LOCK, lockType: 'PorCredito' } }),
    });
    expect(lock.status).toBe(201);

    const deadline = Date.now() + 15_000;
    while (received.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    await receiver.close();
    expect(received).toHaveLength(1);
    expect(received[0]!.id).toMatch(/^msg_/);
    expect(received[0]!.payload).toMatchObject({ type: 'device.status_changed', data: { deviceId: id, creditReference: 'CR-README-1' } });
  });
});
