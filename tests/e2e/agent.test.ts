/**
 * The device side as an administrator sees it, in Chromium: the QR code of a group, an agent (in
 * this test process, over HTTP like a real one) that enrolls with the code shown, and a lock
 * requested from the row menu that turns from 'Bloqueando' into 'Bloqueado' with no reload,
 * because the agent received the command on its waiting check-in and acknowledged it; and a
 * release that says it is scheduled (not waiting for the device) until *Entregar ahora* sends it.
 */
import { DEVICE_DETAIL_LABELS as D } from '../../shared/constants/deviceDetailLabels';
import { ENROLLMENT_LABELS as E } from '../../shared/constants/enrollmentLabels';
import { INVENTORY_LABELS as L } from '../../shared/constants/inventoryLabels';
import { PATHS } from '../../shared/constants/routes';
import { enrollmentTokenBody } from '../../shared/contracts/enrollment';
import { EnrollmentTokensService } from '../../server/api/enrollment/enrollmentTokensService';
import { seriousViolations } from '../helpers/axe';
import { enrollAgent, runAgent } from '../helpers/httpAgent';
import { collectProblems, describeWithBrowser, waitForHydration } from '../helpers/browser';
import { insertDevices, insertGroup, testImei } from '../helpers/inventoryFixtures';
import { ADMIN_EMAIL, signIn, toast, usePortalBrowser, waitForLayout } from '../helpers/portalSession';

const GROUP = 'Sucursal QR Centro';
const SYSTEM = { adminId: null, email: 'admin@demo.local', ip: null, requestId: null };

describeWithBrowser('the device side in Chromium', () => {
  const ctx = usePortalBrowser();
  const imei = testImei(7_700);
  const released = testImei(7_701);
  let group: number;

  beforeAll(async () => {
    const db = ctx.portal.testDb.db;
    group = await insertGroup(db, GROUP);
    await insertDevices(db, [
      { imei, lifecycle: 'pre_enrolled', groupId: group, customerName: 'Rosa Peña', brand: 'Motorola', model: 'Moto G24' },
      { imei: released, lifecycle: 'pre_enrolled', groupId: group, customerName: 'Iván Soto', brand: 'Samsung', model: 'A15' },
    ]);
  });

  test("a group's QR code enrolls an agent; a lock from the row menu turns Bloqueando → Bloqueado without a reload", async () => {
    const page = await ctx.freshPage({ bypassCSP: true });
    const problems = collectProblems(page);
    await signIn(page, ctx.portal.url, ADMIN_EMAIL);

    // The group's QR code: generated, shown once, with the code a TV would type.
    await page.goto(`${ctx.portal.url}/inventory-management/devices-group`);
    await waitForHydration(page);
    await waitForLayout(page);
    await page.getByRole('button', { name: E.actionOfGroup(GROUP), exact: true }).click();
    const dialog = page.getByRole('dialog', { name: E.titleGroup(GROUP), exact: true });
    await dialog.getByText(E.liveEmpty, { exact: true }).waitFor();
    await dialog.getByRole('button', { name: E.generate, exact: true }).click();
    const qr = dialog.getByRole('img', { name: E.qrAlt, exact: true });
    await qr.waitFor();
    expect(await qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(await qr.evaluate((img) => (img as HTMLImageElement).naturalWidth > 0)).toBe(true);
    const shortCode = (await dialog.getByTestId('enrollment-short-code').innerText()).match(/[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}/)![0];
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    // The device's agent enrolls with the code and the public half of the key it signs with, and checks in.
    const identity = await enrollAgent(ctx.portal.url, shortCode, imei);
    // It acknowledges after 1.5 s, so the page can be seen saying 'Bloqueando' first.
    const agent = runAgent(ctx.portal.url, identity, 1_500);
    try {
      await page.goto(`${ctx.portal.url}/inventory-management/devices?search=${imei}`);
      await waitForHydration(page);
      await waitForLayout(page);
      const row = page.locator(`[data-testid="device-row"][data-imei="${imei}"]`);
      await row.locator('.badge', { hasText: 'Enrolado' }).waitFor();
      // A marker the page would lose on a reload.
      await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));

      await row.getByRole('button', { name: /^Acciones del dispositivo/ }).click();
      await page.getByTestId('device-action-menu').locator('[data-action="0"]').click();
      const lock = page.getByRole('dialog', { name: 'Bloquear', exact: true });
      await lock.getByLabel(L.actions.lockMessage, { exact: true }).fill('Acuda a su sucursal');
      await lock.getByRole('button', { name: L.common.confirm, exact: true }).click();
      await toast(page, L.actions.requested('Bloquear', imei)).waitFor();
      await row.locator('.badge', { hasText: /^Bloqueando$/ }).waitFor();
      await row.locator('.badge', { hasText: /^Bloqueado$/ }).waitFor({ timeout: 10_000 });
      expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42);
      expect(agent.received).toHaveLength(1);
      expect(problems).toEqual([]);
    } finally {
      await agent.stop();
    }
  });

  test("a release says it is scheduled, with its date, until 'Entregar ahora' (confirmed, naming IMEI and customer) sends it", async () => {
    const page = await ctx.freshPage({ bypassCSP: true });
    const problems = collectProblems(page);
    await signIn(page, ctx.portal.url, ADMIN_EMAIL);
    // The device's agent enrolls with a code of its group (the first test shows the page that makes one).
    const { db } = ctx.portal.testDb;
    const inventory = { offlineAfterHours: ctx.portal.config.deviceOfflineAfterHours, now: () => new Date() };
    const token = await new EnrollmentTokensService(db, inventory, undefined).create(
      SYSTEM,
      enrollmentTokenBody.parse({ groupId: group }),
      new Set([PATHS.groups]),
      ctx.portal.url,
    );
    const shortCode = token.shortCode;
    const agent = runAgent(ctx.portal.url, await enrollAgent(ctx.portal.url, shortCode, released), 0);
    try {
      await page.goto(`${ctx.portal.url}/inventory-management/devices?search=${released}`);
      await waitForHydration(page);
      await waitForLayout(page);
      const row = page.locator(`[data-testid="device-row"][data-imei="${released}"]`);
      await row.locator('.badge', { hasText: 'Enrolado' }).waitFor();
      await row.getByRole('button', { name: /^Acciones del dispositivo/ }).click();
      await page.getByTestId('device-action-menu').locator('[data-action="2"]').click();
      await page.getByRole('dialog', { name: 'Liberar', exact: true }).getByRole('button', { name: L.common.confirm, exact: true }).click();
      await toast(page, L.actions.requested('Liberar', released)).waitFor();

      // Scheduled: the list says from when, the detail says so rather than "waiting for the device".
      await row.locator('.badge', { hasText: /^Liberando$/ }).waitFor();
      expect(await row.getByTestId('release-from').innerText()).toMatch(/\d/);
      await row.getByRole('button', { name: L.devices.viewDetailOf(released), exact: true }).click();
      const panel = page.getByTestId('device-detail');
      const scheduled = panel.getByTestId('release-scheduled');
      await scheduled.waitFor();
      expect(await scheduled.innerText()).toContain(D.detail.releaseScheduled);
      expect(await panel.innerText()).not.toContain(D.detail.waitingDelivery);
      // Held for the cancel window: the agent, checking in all along, has received nothing.
      await new Promise((r) => setTimeout(r, 1_000));
      expect(agent.received).toEqual([]);

      await panel.getByTestId('deliver-release-now').click();
      const confirm = page.getByRole('dialog', { name: L.actions.deliverNowTitle, exact: true });
      expect(await confirm.innerText()).toContain(L.actions.confirmDeliverNow(released, 'Iván Soto'));
      await confirm.getByRole('button', { name: L.actions.deliverNow, exact: true }).click();
      await toast(page, L.actions.deliverNowDone(released)).waitFor();
      // Received at once on the waiting check-in, acknowledged: Liberado without a reload.
      await page.keyboard.press('Escape');
      await row.locator('.badge', { hasText: /^Liberado$/ }).waitFor({ timeout: 10_000 });
      expect(agent.received.map((c) => c.action)).toEqual([2]);
      expect(problems).toEqual([]);
    } finally {
      await agent.stop();
    }
  });
});
