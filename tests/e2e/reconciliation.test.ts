/**
 * Conciliación in Chromium: a contradiction made through the real APIs (an agent enrolled over
 * HTTP; the lender's PUT of a credit up to date and its lock Por Crédito through the integration
 * API, acknowledged by the agent) shows on /credits/reconciliation as *Al corriente pero
 * bloqueado*; one click on its Desbloquear opens the device's Desbloquear dialog on Dispositivos
 * enrolados, the confirmation sends the unlock, the agent acknowledges it, and the row is gone from
 * Conciliación. axe-core finds no serious or critical violation on the page; no console problem.
 */
import { DEVICE_ACTION } from '../../shared/constants/deviceActions';
import { RECONCILIATION_LABELS } from '../../shared/constants/creditLabels';
import { CREDIT_PAGE_LABELS } from '../../shared/constants/creditPageLabels';
import { PATHS } from '../../shared/constants/routes';
import { apiKeyBody } from '../../shared/contracts/apiKeys';
import type { CheckinResponse } from '../../shared/contracts/agent';
import { enrollmentTokenBody } from '../../shared/contracts/enrollment';
import { INTEGRATION_BASE } from '../../shared/constants/apiPaths';
import { addDays, todayIn } from '../../shared/credits';
import { EnrollmentTokensService } from '../../server/api/enrollment/enrollmentTokensService';
import { ApiKeysService } from '../../server/integration/apiKeysService';
import { seriousViolations } from '../helpers/axe';
import { collectProblems, describeWithBrowser, waitForHydration } from '../helpers/browser';
import { agentPost, enrollAgent, runAgent, type HttpAgent } from '../helpers/httpAgent';
import { waitFor } from '../helpers/webhookReceiver';
import { insertDevices, insertGroup, testImei } from '../helpers/inventoryFixtures';
import { ADMIN_EMAIL, signIn, toast, usePortalBrowser } from '../helpers/portalSession';

const L = CREDIT_PAGE_LABELS.reconciliation;
const REFERENCE = 'E2E-REC-1';
const SYSTEM = { adminId: null, email: 'lender@demo.local', ip: null, requestId: null };

describeWithBrowser('Conciliación: a credit up to date whose device is locked, fixed with one click', () => {
  const ctx = usePortalBrowser();
  const imei = testImei(52, '35');
  let identity: HttpAgent;
  let deviceId: number;
  let key: string;

  const integration = (method: string, path: string, body?: unknown) =>
    fetch(`${ctx.portal.url}${INTEGRATION_BASE}${path}`, {
      method,
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', 'Idempotency-Key': crypto.randomUUID() },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  beforeAll(async () => {
    const { db } = ctx.portal.testDb;
    const inventory = { offlineAfterHours: ctx.portal.config.deviceOfflineAfterHours, now: () => new Date() };
    const group = await insertGroup(db, 'Sucursal Conciliación');
    [deviceId] = (await insertDevices(db, [{ imei, lifecycle: 'pre_enrolled', groupId: group, customerName: 'Rosa Díaz' }])) as [number];

    // The agent enrolls with a QR code of its group and checks in.
    const enrollment = new EnrollmentTokensService(db, inventory, undefined);
    const token = await enrollment.create(SYSTEM, enrollmentTokenBody.parse({ groupId: group }), new Set([PATHS.groups]), ctx.portal.url);
    identity = await enrollAgent(ctx.portal.url, token.shortCode, imei);

    // The lender's key (the administrators' role), made as the portal's Claves de API page makes it.
    const admin = (await db.query<{ id: number }>('SELECT id FROM admins WHERE lower(correo) = lower($1)', [ADMIN_EMAIL])).rows[0]!;
    const profile = (await db.query<{ id: number }>("SELECT id FROM profiles WHERE nombre = 'Administrador'")).rows[0]!;
    key = (await new ApiKeysService(db, inventory).create(SYSTEM, admin.id, apiKeyBody.parse({ name: 'Conciliación e2e', profileId: profile.id })))
      .secret;

    // The lender's PUT: a credit up to date, its first installment due in twenty days, on this IMEI.
    const today = todayIn(ctx.portal.config.companyTimeZone, new Date());
    const put = await integration('PUT', `/credits/${REFERENCE}`, {
      customerName: 'Rosa Díaz',
      imeis: [imei],
      installments: [{ number: 1, dueDate: addDays(today, 20), amount: '1500.00' }],
    });
    expect(put.status).toBe(201);
    // Then a lock Por Crédito through the integration API, which the agent carries out.
    const lock = await integration('POST', '/commands', {
      device: { imei },
      payload: { action: DEVICE_ACTION.LOCK, lockType: 'PorCredito', message: 'Equipo bloqueado', stolen: false },
    });
    expect(lock.status).toBeLessThan(300);
    const checkin = (await (await agentPost(ctx.portal.url, identity, '/agent/v1/checkin', '{}')).json()) as CheckinResponse;
    const command = checkin.commands!.find((c) => c.action === DEVICE_ACTION.LOCK)!;
    expect((await agentPost(ctx.portal.url, identity, `/agent/v1/commands/${command.id}/ack`, '{}')).status).toBe(200);

    // The lender's API lists the contradiction too.
    const listed = (await (await integration('GET', '/reconciliation?kind=paid_locked')).json()) as { data: { deviceId: number }[] };
    expect(listed.data.map((r) => r.deviceId)).toContain(deviceId);
  });

  test('the row shows, its Desbloquear opens the device dialog, the unlock reaches the agent and the row leaves', async () => {
    const page = await ctx.freshPage({ bypassCSP: true });
    const problems = collectProblems(page);
    await signIn(page, ctx.portal.url, ADMIN_EMAIL);
    const agent = runAgent(ctx.portal.url, identity, 500);
    try {
      await page.goto(`${ctx.portal.url}${PATHS.reconciliation}?kind=paid_locked`);
      await waitForHydration(page);
      const row = page.getByTestId(`reconciliation-row-paid_locked:${deviceId}`);
      await row.filter({ hasText: RECONCILIATION_LABELS.kinds.paid_locked }).waitFor();
      expect(await row.innerText()).toContain(REFERENCE);
      expect({ where: PATHS.reconciliation, violations: await seriousViolations(page) }).toEqual({ where: PATHS.reconciliation, violations: [] });

      await row.getByRole('link', { name: L.fix('Desbloquear', imei) }).click();
      const dialog = page.getByRole('dialog', { name: 'Desbloquear', exact: true });
      await dialog.waitFor();
      expect(await dialog.innerText()).toContain(imei);
      await dialog.getByRole('button', { name: 'Confirmar', exact: true }).click();
      await toast(page, `Acción "Desbloquear" solicitada para el dispositivo ${imei}`).waitFor();
      await waitFor(() => agent.received.some((c) => c.action === DEVICE_ACTION.UNLOCK), 'the unlock at the agent', 20_000);
      expect(agent.received.map((c) => c.action)).toEqual([DEVICE_ACTION.UNLOCK]);

      // Acknowledged: the device is no longer locked, and Conciliación no longer lists it.
      await waitFor(
        async () => {
          const { rows } = await ctx.portal.testDb.db.query('SELECT 1 FROM devices WHERE id = $1 AND lock_state = $2', [deviceId, 'locked']);
          return rows.length === 0;
        },
        'the unlock acknowledged',
        20_000,
      );
      const after = (await (await integration('GET', '/reconciliation?kind=paid_locked')).json()) as { data: { deviceId: number }[] };
      expect(after.data.map((r) => r.deviceId)).not.toContain(deviceId);
      await page.goto(`${ctx.portal.url}${PATHS.reconciliation}?kind=paid_locked`);
      await waitForHydration(page);
      // Its list, loaded: the table of the other contradictions of the kind, or none left at all.
      await page.getByTestId('reconciliation-empty').or(page.locator('[data-testid="reconciliation-table"]:not([aria-busy])')).first().waitFor();
      expect(await page.getByTestId(`reconciliation-row-paid_locked:${deviceId}`).count()).toBe(0);
      expect(problems).toEqual([]);
    } finally {
      await agent.stop();
    }
  }, 120_000);
});
