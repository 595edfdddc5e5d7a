/**
 * The enrolled devices page in Chromium, on devices written straight into the test database:
 * the list with its paging and filters in the URL, the row menu disabled per the reference §4 table
 * (keyboard), the detail panel, a lock requested from the row menu; no console problems
 * (hydration included) and no serious or critical axe-core violations on each view.
 */
import type { Page } from 'playwright-core';
import { DEVICE_DETAIL_LABELS as D } from '../../shared/constants/deviceDetailLabels';
import { INVENTORY_LABELS as L } from '../../shared/constants/inventoryLabels';
import { seriousViolations } from '../helpers/axe';
import { collectProblems, describeWithBrowser, waitForHydration } from '../helpers/browser';
import { insertDevices, insertGroup, testImei, type DeviceFixture } from '../helpers/inventoryFixtures';
import { ADMIN_EMAIL, signIn, toast, usePortalBrowser, waitForLayout } from '../helpers/portalSession';

const PATH = '/inventory-management/devices';
const HOUR = 3_600_000;

describeWithBrowser('enrolled devices in Chromium', () => {
  const ctx = usePortalBrowser();

  beforeAll(async () => {
    const db = ctx.portal.testDb.db;
    const group = await insertGroup(db, 'Sucursal Norte');
    const fixtures: DeviceFixture[] = [
      ...Array.from({ length: 20 }, (_, i): DeviceFixture => ({
        imei: testImei(100 + i),
        customerName: `Cliente ${i}`,
        creditReference: `CR-${i}`,
        groupId: group,
      })),
      ...Array.from({ length: 5 }, (_, i): DeviceFixture => ({ imei: testImei(200 + i), lockState: 'locked', lockType: 'PorCredito' })),
      ...Array.from({ length: 3 }, (_, i): DeviceFixture => ({ imei: testImei(300 + i), lifecycle: 'released' })),
      { imei: testImei(400), lastSeenAt: new Date(Date.now() - 200 * HOUR) },
      { imei: testImei(401), failureReason: 'El agente rechazó el comando' },
    ];
    await insertDevices(db, fixtures);
  });

  async function openList(page: Page, query = ''): Promise<void> {
    await page.goto(`${ctx.portal.url}${PATH}${query}`);
    await waitForHydration(page);
    await waitForLayout(page);
    await page.getByRole('main').getByRole('heading', { level: 1, name: 'Dispositivos enrolados', exact: true }).waitFor();
    await page.getByTestId('device-row').first().waitFor();
  }

  test('list, filters in the URL, row menu per the reference §4 table by keyboard, detail, a lock; accessible throughout', async () => {
    const page = await ctx.freshPage({ bypassCSP: true });
    const problems = collectProblems(page);
    await signIn(page, ctx.portal.url, ADMIN_EMAIL);

    await openList(page);
    expect(await page.getByTestId('device-row').count()).toBe(25);
    await page.getByText('Página 1 de 2 (30 dispositivos)', { exact: true }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    // The detail's, the action dialog's and the dialog's own (AppModal) chunks are fetched once the list is idle, before any click.
    await page.waitForFunction(() =>
      ['DeviceDetail', 'ActionModal', 'AppModalDialog'].every((name) =>
        performance.getEntriesByType('resource').some((e) => new RegExp(`/${name}-\\w+\\.js$`).test(e.name)),
      ),
    );

    // The status filter writes the URL and narrows the list.
    await page.getByRole('combobox', { name: 'Estado', exact: true }).selectOption({ label: 'Liberado' });
    await page.waitForURL((u) => u.searchParams.get('status') === '9');
    await page.getByText('Página 1 de 1 (3 dispositivos)', { exact: true }).waitFor();
    const released = page.getByTestId('device-row').first();
    expect(await released.locator('.badge').innerText()).toBe('Liberado');

    // The row menu from the keyboard: Bloquear is disabled with the reference §4 reason.
    await released.getByRole('button', { name: /^Acciones del dispositivo/ }).focus();
    await page.keyboard.press('Enter');
    const menu = page.getByTestId('device-action-menu');
    await menu.waitFor();
    const lock = menu.locator('[data-action="0"]');
    expect(await lock.getAttribute('aria-disabled')).toBe('true');
    expect(await lock.innerText()).toContain('La acción Bloquear no está disponible para dispositivos en estado Liberado');
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'hidden' });

    // The detail panel, with device=<id> in the URL; Escape closes it.
    const imei = (await released.getAttribute('data-imei'))!;
    await released.getByRole('button', { name: L.devices.viewDetailOf(imei), exact: true }).click();
    const panel = page.getByRole('dialog', { name: D.detail.title(imei), exact: true });
    await panel.getByTestId('device-facts').waitFor();
    await panel
      .getByTestId('history-entry')
      .or(panel.getByText(D.history.empty, { exact: true }))
      .first()
      .waitFor();
    expect(new URL(page.url()).searchParams.get('device')).toMatch(/^\d+$/);
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
    expect(new URL(page.url()).searchParams.get('device')).toBeNull();

    // A lock from the row menu of an active device.
    await openList(page, '?status=5');
    const active = page.getByTestId('device-row').first();
    const activeImei = (await active.getAttribute('data-imei'))!;
    await active.getByRole('button', { name: /^Acciones del dispositivo/ }).click();
    await page.getByTestId('device-action-menu').locator('[data-action="0"]').click();
    const dialog = page.getByRole('dialog', { name: 'Bloquear', exact: true });
    await dialog.getByLabel(L.actions.lockMessage, { exact: true }).fill('Acuda a su sucursal');
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: L.common.confirm, exact: true }).click();
    await toast(page, L.actions.requested('Bloquear', activeImei)).waitFor();
    await dialog.waitFor({ state: 'detached' });
    await openList(page, `?search=${activeImei}`);
    expect(await page.getByTestId('device-row').first().locator('.badge').innerText()).toBe('Bloqueando');

    expect(problems).toEqual([]);
  });
});
