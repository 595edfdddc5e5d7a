/**
 * A payment unlocks a device in Chromium: a device enrolled by an agent (in this test process,
 * over HTTP like a real one) and locked Por Crédito through the device actions service, its credit
 * ten days overdue; Registrar pago on the credit's page clears what is overdue, the collection
 * policy sends the unlock at once, the agent receives it on its waiting check-in and acknowledges
 * it, and the credit's page turns the device from Bloqueado to Desbloqueando to unlocked
 * (Desbloqueado, or Activo after the next check-in) without a reload, listing the policy's
 * Desbloqueo among its steps.
 */
import type { CheckinResponse } from '../../shared/contracts/agent';
import { COLLECTION_STEP_KINDS, CREDIT_LABELS } from '../../shared/constants/creditLabels';
import { CREDIT_PAGE_LABELS as L } from '../../shared/constants/creditPageLabels';
import { DEVICE_ACTION } from '../../shared/constants/deviceActions';
import { FIELD_LABELS } from '../../shared/constants/fieldLabels';
import { PATHS } from '../../shared/constants/routes';
import { enrollmentTokenBody } from '../../shared/contracts/enrollment';
import { addDays, todayIn } from '../../shared/credits';
import { EnrollmentTokensService } from '../../server/api/enrollment/enrollmentTokensService';
import { CreditsService } from '../../server/credits';
import { DeviceActionsService } from '../../server/devices/deviceActionsService';
import { agentPost, enrollAgent, runAgent, type HttpAgent } from '../helpers/httpAgent';
import { collectProblems, describeWithBrowser, waitForHydration } from '../helpers/browser';
import { insertDevices, insertGroup, testImei } from '../helpers/inventoryFixtures';
import { ADMIN_EMAIL, signIn, toast, usePortalBrowser } from '../helpers/portalSession';

const REFERENCE = 'E2E-CR-UNLOCK';
const SYSTEM = { adminId: null, email: 'lender@demo.local', ip: null, requestId: null };

describeWithBrowser('a payment unlocks a device locked Por Crédito', () => {
  const ctx = usePortalBrowser();
  const imei = testImei(41, '35');
  let identity: HttpAgent;
  let deviceId: number;

  beforeAll(async () => {
    const { db } = ctx.portal.testDb;
    const inventory = { offlineAfterHours: ctx.portal.config.deviceOfflineAfterHours, now: () => new Date() };
    const group = await insertGroup(db, 'Sucursal Cobranza');
    [deviceId] = (await insertDevices(db, [
      { imei, lifecycle: 'pre_enrolled', groupId: group, customerName: 'Marta Ruiz', creditReference: REFERENCE },
    ])) as [number];

    // The agent enrolls with a QR code of its group and checks in.
    const enrollment = new EnrollmentTokensService(db, inventory, undefined);
    const token = await enrollment.create(SYSTEM, enrollmentTokenBody.parse({ groupId: group }), new Set([PATHS.groups]), ctx.portal.url);
    identity = await enrollAgent(ctx.portal.url, token.shortCode, imei);

    // Ten days overdue: 1,000.00 MXN; the next installment far enough ahead for no reminder today.
    const today = todayIn(ctx.portal.config.companyTimeZone, new Date());
    await new CreditsService(db, { timeZone: ctx.portal.config.companyTimeZone, inventory }).put(SYSTEM, REFERENCE, {
      customerName: 'Marta Ruiz',
      customerPhone: null,
      currency: 'MXN',
      cancelled: false,
      imeis: [imei],
      installments: [
        { number: 1, dueDate: addDays(today, -10), amount: 100_000 },
        { number: 2, dueDate: addDays(today, 20), amount: 100_000 },
      ],
    });

    // Locked Por Crédito by a person, through the same service as the portal's action menu.
    const locked = await new DeviceActionsService(db, inventory).act(SYSTEM, deviceId, {
      action: DEVICE_ACTION.LOCK,
      lockType: 'PorCredito',
      message: 'Equipo bloqueado por falta de pago',
      stolen: false,
    });
    expect(locked.status).toBe(201);
    const checkin = (await (await agentPost(ctx.portal.url, identity, '/agent/v1/checkin', '{}')).json()) as CheckinResponse;
    const lock = checkin.commands!.find((c) => c.action === DEVICE_ACTION.LOCK)!;
    expect((await agentPost(ctx.portal.url, identity, `/agent/v1/commands/${lock.id}/ack`, '{}')).status).toBe(200);
  });

  test("Registrar pago on the credit's page: the policy's unlock reaches the agent, the device shows unlocked without a reload", async () => {
    const page = await ctx.freshPage({ bypassCSP: true });
    const problems = collectProblems(page);
    await signIn(page, ctx.portal.url, ADMIN_EMAIL);
    // Acknowledged 1.5 s after it arrives, so the page can be seen saying 'Desbloqueando' first.
    const agent = runAgent(ctx.portal.url, identity, 1_500);
    try {
      await page.goto(`${ctx.portal.url}/credits/portfolio?credit=${REFERENCE}`);
      await waitForHydration(page);
      const detail = page.getByTestId('credit-detail');
      await detail.getByTestId('credit-state').filter({ hasText: CREDIT_LABELS.states.overdue }).waitFor();
      const device = page.getByTestId('credit-devices').locator('tbody tr', { hasText: imei });
      await device.locator('.badge', { hasText: /^Bloqueado$/ }).waitFor();
      // A marker the page would lose on a reload.
      await page.evaluate(() => ((window as unknown as { marker: number }).marker = 7));

      await page.getByRole('button', { name: L.detail.register }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel(FIELD_LABELS.payments.amount).fill('1000');
      await dialog.getByRole('button', { name: 'Guardar', exact: true }).click();
      await dialog.waitFor({ state: 'detached' });
      await toast(page, L.payment.registered('1,000.00 MXN', REFERENCE)).waitFor();
      await detail.getByTestId('credit-state').filter({ hasText: CREDIT_LABELS.states.current }).waitFor();

      await device.locator('.badge', { hasText: /^Desbloqueando$/ }).waitFor();
      // Acknowledged: Desbloqueado, which the agent's next check-in turns into Activo.
      await device.locator('.badge', { hasText: /^(Desbloqueado|Activo)$/ }).waitFor({ timeout: 15_000 });
      expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(7);
      expect(agent.received.map((c) => c.action)).toEqual([DEVICE_ACTION.UNLOCK]);
      const unlockStep = page.getByTestId('credit-steps').locator('tbody tr', { hasText: COLLECTION_STEP_KINDS.unlock });
      expect(await unlockStep.innerText()).toContain(L.detail.stepDone);
      expect(problems).toEqual([]);
    } finally {
      await agent.stop();
    }
  }, 120_000);
});
