/**
 * The device side as an administrator sees it, in Chromium: the QR code of a group, an agent (in
 * this test process, over HTTP like a real one) that enrolls with the code shown, and a lock
 * requested from the row menu that turns from 'Bloqueando' into 'Bloqueado' with no reload,
 * because the agent received the command on its waiting check-in and acknowledged it.
 */
import { INVENTORY_LABELS as L } from '../../shared/constants/inventoryLabels';
import { seriousViolations } from '../helpers/axe';
import { enrollAgent, runAgent } from '../helpers/httpAgent';
import { collectProblems, describeWithBrowser, waitForHydration } from '../helpers/browser';
import { insertDevices, insertGroup, testImei } from '../helpers/inventoryFixtures';
import { ADMIN_EMAIL, signIn, toast, usePortalBrowser, waitForLayout } from '../helpers/portalSession';

const GROUP = 'Sucursal QR Centro';

describeWithBrowser('the device side in Chromium', () => {
  const ctx = usePortalBrowser();
  const imei = testImei(7_700);

  beforeAll(async () => {
    const db = ctx.portal.testDb.db;
    const group = await insertGroup(db, GROUP);
    await insertDevices(db, [{ imei, lifecycle: 'pre_enrolled', groupId: group, customerName: 'Rosa Peña', brand: 'Motorola', model: 'Moto G24' }]);
  });

  test("a group's QR code enrolls an agent; a lock from the row menu turns Bloqueando → Bloqueado without a reload", async () => {
    const page = await ctx.freshPage({ bypassCSP: true });
    const problems = collectProblems(page);
    await signIn(page, ctx.portal.url, ADMIN_EMAIL);

    // The group's QR code: generated, shown once, with the code a TV would type.
    await page.goto(`${ctx.portal.url}/inventory-management/devices-group`);
    await waitForHydration(page);
    await waitForLayout(page);
    await page.getByRole('button', { name: L.enrollment.actionOfGroup(GROUP), exact: true }).click();
    const dialog = page.getByRole('dialog', { name: L.enrollment.titleGroup(GROUP), exact: true });
    await dialog.getByText(L.enrollment.liveEmpty, { exact: true }).waitFor();
    await dialog.getByRole('button', { name: L.enrollment.generate, exact: true }).click();
    const qr = dialog.getByRole('img', { name: L.enrollment.qrAlt, exact: true });
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
});
