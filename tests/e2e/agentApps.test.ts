/**
 * The business-apps page and the lock-app pages (smartphone and TV) in Chromium, as the
 * administrator: a business app created for a device group, edited and deleted after its
 * confirmation, the Spanish message of a bad package name under its field; a new smartphone
 * version of the lock app marked as current, the sidebar footer following it without a reload,
 * the current one not deletable; the TV page listing the TV versions only. Every test ends
 * without console problems; axe-core finds no serious or critical violation on the pages and
 * their modals.
 */
import type { Locator, Page } from 'playwright-core';
import { AGENT_APPS_LABELS } from '../../shared/constants/agentAppsLabels';
import { FIELD_LABELS } from '../../shared/constants/fieldLabels';
import { MENU, PATHS } from '../../shared/constants/routes';
import { SPEC_TEXT } from '../../shared/messages';
import { AGENT_SETTINGS_MESSAGES as M } from '../../shared/areaMessages/agentSettings';
import { seriousViolations } from '../helpers/axe';
import { collectProblems, describeWithBrowser, waitForHydration } from '../helpers/browser';
import { insertGroup } from '../helpers/inventoryFixtures';
import { ADMIN_EMAIL, dismissToasts, signIn, toast, usePortalBrowser, waitForLayout } from '../helpers/portalSession';
import { LABELS } from '../../shared/constants/labels';
import { RELEASE_NOTES_MAX } from '../../shared/contracts/agentSettings';

const BA = AGENT_APPS_LABELS.businessApps;
const LA = AGENT_APPS_LABELS.lockApp;
const C = AGENT_APPS_LABELS.common;
const FB = FIELD_LABELS.businessApps;
const FL = FIELD_LABELS.lockApp;
const titleOf = (path: string) => MENU.flatMap((m) => m.submodules).find((s) => s.path === path)!.title;
const SHA = '9f'.repeat(32);
const LAPTOP = { width: 1366, height: 800 } as const;
const PHONE = { width: 390, height: 844 } as const;

/** What must fit the window: the page's width, the table's content in its box, each row and its actions. */
interface Fit {
  pageWidth: number;
  table: { scrollWidth: number; clientWidth: number; right: number };
  rows: { display: string; right: number; actionsRight: number }[];
  dialogRight: number | null;
}

function measure(page: Page): Promise<Fit> {
  return page.evaluate(() => {
    const container = document.querySelector<HTMLElement>('main .portal-data-table')!;
    const rows = [...container.querySelectorAll<HTMLElement>('tbody > tr')];
    const dialog = document.querySelector('.modal.show .modal-content');
    return {
      pageWidth: document.documentElement.scrollWidth,
      table: { scrollWidth: container.scrollWidth, clientWidth: container.clientWidth, right: container.getBoundingClientRect().right },
      rows: rows.map((r) => ({
        display: getComputedStyle(r).display,
        right: r.getBoundingClientRect().right,
        actionsRight: r.lastElementChild!.getBoundingClientRect().right,
      })),
      dialogRight: dialog ? dialog.getBoundingClientRect().right : null,
    };
  });
}

/** The page, the table and every row (cards on a phone) inside the window. */
function expectFits(what: string, fit: Fit, viewport: { width: number }, display: string): void {
  const over = (name: string, value: number, max: number) => (value > max + 0.5 ? [`${what}: ${name} ${value} > ${max}`] : []);
  const problems = [
    ...over('page width', fit.pageWidth, viewport.width),
    ...over('table content width', fit.table.scrollWidth, fit.table.clientWidth),
    ...fit.rows.flatMap((r, i) => [
      ...(r.display === display ? [] : [`${what}: row ${i} displayed as ${r.display}`]),
      ...over(`row ${i} right edge`, r.right, viewport.width),
      ...over(`actions of row ${i} right edge`, r.actionsRight, Math.min(viewport.width, fit.table.right)),
    ]),
  ];
  expect(fit.rows.length).toBeGreaterThan(0);
  expect(problems).toEqual([]);
}

describeWithBrowser('business apps and lock-app pages in Chromium', () => {
  const ctx = usePortalBrowser();
  const db = () => ctx.portal.testDb.db;

  /** Opens a signed-in page (the CSP bypassed for axe) and waits for its heading and its list. */
  async function openPage(path: string): Promise<{ page: Page; problems: string[] }> {
    const page = await ctx.freshPage({ bypassCSP: true });
    const problems = collectProblems(page);
    await signIn(page, ctx.portal.url, ADMIN_EMAIL);
    await page.goto(`${ctx.portal.url}${path}`);
    await waitForHydration(page);
    await waitForLayout(page);
    await page
      .getByRole('main')
      .getByRole('heading', { level: 1, name: titleOf(path), exact: true })
      .waitFor();
    await page.getByRole('main').locator('[aria-busy="true"], .placeholder-glow').first().waitFor({ state: 'detached' });
    return { page, problems };
  }

  /** axe-core's serious and critical violations, the toasts closed first. */
  async function axeProblems(page: Page): Promise<string[]> {
    await dismissToasts(page);
    return seriousViolations(page);
  }

  /** The message shown under a field (aria-invalid and its aria-describedby). */
  async function messageUnder(field: Locator): Promise<string> {
    await field.and(field.page().locator('[aria-invalid="true"]')).waitFor();
    const ids = ((await field.getAttribute('aria-describedby')) ?? '').split(' ').filter(Boolean);
    return (await field.page().locator(`[id="${ids[0]}"]`).innerText()).trim();
  }

  test('business app: a bad package name is refused under its field; create for a group, edit, delete after the confirmation', async () => {
    await insertGroup(db(), 'Sucursal Centro');
    await insertGroup(db(), 'Sucursal Norte');
    const { page, problems } = await openPage(PATHS.businessApp);
    const main = page.getByRole('main');
    // The demo's own business app is listed (the seed makes it through the same repository).
    const seeded = main.getByTestId('business-app-row-mx.financierademo.pagos');
    await seeded.waitFor();
    expect(await main.innerText()).toContain(`«${BA.pushNote.action}»`);
    expect(await axeProblems(page)).toEqual([]);

    await main.getByRole('button', { name: BA.create, exact: true }).first().click();
    const dialog = page.getByRole('dialog', { name: BA.createTitle, exact: true });
    await dialog.waitFor();
    await dialog.getByLabel(FB.name, { exact: true }).fill('Tienda E2E');
    await dialog.getByLabel(FB.packageName, { exact: true }).fill('tienda e2e');
    await dialog.getByLabel(FB.versionName, { exact: true }).fill('1.0.0');
    await dialog.getByLabel(FB.versionCode, { exact: true }).fill('100');
    await dialog.getByLabel(FB.appType, { exact: true }).selectOption({ label: 'Downloader' });
    await dialog.getByLabel(FB.downloadUrl, { exact: true }).fill('https://cdn.example.com/tienda-100.apk');
    await dialog.getByLabel(FB.sha256, { exact: true }).fill(SHA);
    await dialog.getByRole('button', { name: SPEC_TEXT.save, exact: true }).click();
    const pkg = dialog.getByLabel(FB.packageName, { exact: true });
    expect(await messageUnder(pkg)).toBe(M.field.packageName(FB.packageName));
    expect(await axeProblems(page)).toEqual([]);

    await pkg.fill('com.e2e.tienda');
    await dialog.getByLabel('Sucursal Norte', { exact: true }).check();
    expect(await dialog.getByLabel(BA.allSmartphones, { exact: true }).isChecked()).toBe(false);
    await dialog.getByRole('button', { name: SPEC_TEXT.save, exact: true }).click();
    await toast(page, BA.createdDone('Tienda E2E')).waitFor();
    await dialog.waitFor({ state: 'detached' });
    const row = main.getByTestId('business-app-row-com.e2e.tienda');
    await row.waitFor();
    const created = await row.innerText();
    expect(created).toContain('Tienda E2E');
    expect(created).toContain('1.0.0 (100)');
    expect(created).toContain('Downloader');
    expect(created).toContain('Sucursal Norte');
    expect(created).not.toContain('Sucursal Centro');
    expect(await axeProblems(page)).toEqual([]);

    // Edit: a new version for every smartphone.
    await row.getByRole('button', { name: BA.editOf('Tienda E2E'), exact: true }).click();
    const edit = page.getByRole('dialog', { name: BA.editTitle, exact: true });
    await edit.waitFor();
    expect(await edit.getByLabel('Sucursal Norte', { exact: true }).isChecked()).toBe(true);
    await edit.getByLabel(FB.versionName, { exact: true }).fill('1.1.0');
    await edit.getByLabel(FB.versionCode, { exact: true }).fill('110');
    await edit.getByLabel(BA.allSmartphones, { exact: true }).check();
    expect(await edit.getByLabel('Sucursal Norte', { exact: true }).isChecked()).toBe(false);
    await edit.getByRole('button', { name: SPEC_TEXT.save, exact: true }).click();
    await toast(page, BA.updatedDone('Tienda E2E')).waitFor();
    await row.filter({ hasText: '1.1.0 (110)' }).waitFor();
    expect(await row.innerText()).toContain(BA.allSmartphones);

    // Delete: the confirmation names the app; Cancelar keeps it.
    await row.getByRole('button', { name: BA.deleteOf('Tienda E2E'), exact: true }).click();
    const confirm = page.getByRole('dialog', { name: BA.deleteTitle, exact: true });
    await confirm.waitFor();
    expect(await confirm.innerText()).toContain(BA.confirmDelete('Tienda E2E', 'com.e2e.tienda'));
    expect(await axeProblems(page)).toEqual([]);
    await confirm.getByRole('button', { name: SPEC_TEXT.cancel, exact: true }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(await row.count()).toBe(1);
    await row.getByRole('button', { name: BA.deleteOf('Tienda E2E'), exact: true }).click();
    await confirm.getByRole('button', { name: C.delete, exact: true }).click();
    await toast(page, BA.deletedDone('Tienda E2E')).waitFor();
    await row.waitFor({ state: 'detached' });
    expect(await seeded.count()).toBe(1);

    expect(problems).toEqual([]);
  }, 90_000);

  test('lock app: a new smartphone version marked as current becomes the sidebar footer without a reload; the current one cannot be deleted', async () => {
    const { page, problems } = await openPage(PATHS.appLock);
    const main = page.getByRole('main');
    const footer = page.getByTestId('app-version');
    const before = (await footer.innerText()).trim();
    expect(await main.innerText()).toContain(`«${LA.pushNote.action}»`);
    expect(await axeProblems(page)).toEqual([]);

    await main.getByRole('button', { name: LA.create, exact: true }).first().click();
    const dialog = page.getByRole('dialog', { name: LA.createTitle, exact: true });
    await dialog.waitFor();
    await dialog.getByLabel(FL.versionName, { exact: true }).fill('Macrolock E2E');
    await dialog.getByLabel(FL.versionApp, { exact: true }).fill('7.0.1');
    await dialog.getByLabel(FL.packageName, { exact: true }).fill('com.macrolock.e2e');
    await dialog.getByLabel(FL.downloadUrl, { exact: true }).fill('https://cdn.example.com/macrolock-7.0.1.apk');
    await dialog.getByLabel(FL.sha256, { exact: true }).fill(SHA);
    await dialog
      .getByLabel(FL.releaseNotes, { exact: true })
      .fill('Primera línea de las notas de esta versión de prueba, bastante larga.\nSegunda línea.');
    expect(await dialog.innerText()).toContain(LABELS.counter(84, RELEASE_NOTES_MAX));
    expect(await axeProblems(page)).toEqual([]);
    await dialog.getByRole('button', { name: SPEC_TEXT.save, exact: true }).click();
    await toast(page, LA.createdDone('Macrolock E2E (7.0.1)')).waitFor();
    const row = main.getByTestId('lock-app-row-Macrolock E2E (7.0.1)');
    await row.waitFor();
    expect(await row.getAttribute('data-current')).toBe('false');
    expect(await row.innerText()).not.toContain('Segunda línea');

    // The release notes read whole in their dialog.
    await row.getByRole('button', { name: LA.notesShowOf('Macrolock E2E (7.0.1)'), exact: true }).click();
    const notes = page.getByRole('dialog', { name: LA.notesTitle('Macrolock E2E (7.0.1)'), exact: true });
    await notes.waitFor();
    expect(await notes.getByTestId('lock-app-notes').innerText()).toContain('Segunda línea.');
    await notes.getByRole('button', { name: 'Cerrar', exact: true }).last().click();
    await notes.waitFor({ state: 'detached' });

    // Marked current: the footer follows in the same document.
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
    await row.getByRole('button', { name: LA.markCurrentOf('Macrolock E2E (7.0.1)'), exact: true }).click();
    const mark = page.getByRole('dialog', { name: LA.markCurrentTitle, exact: true });
    await mark.waitFor();
    expect(await mark.innerText()).toContain(LA.markCurrentSidebar);
    expect(await axeProblems(page)).toEqual([]);
    await mark.getByRole('button', { name: LA.markCurrent, exact: true }).click();
    await toast(page, LA.markedCurrentDone('Macrolock E2E (7.0.1)')).waitFor();
    await footer.filter({ hasText: 'Macrolock E2E (7.0.1)' }).waitFor();
    expect((await footer.innerText()).trim()).toBe('Macrolock E2E (7.0.1)');
    expect(before).not.toBe('Macrolock E2E (7.0.1)');
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    await page.locator('[data-testid="lock-app-row-Macrolock E2E (7.0.1)"][data-current="true"]').waitFor();
    expect(await main.getByText(LA.current, { exact: true }).count()).toBe(1);

    // The current version cannot be deleted: the dialog says why.
    await row.getByRole('button', { name: LA.deleteOf('Macrolock E2E (7.0.1)'), exact: true }).click();
    const del = page.getByRole('dialog', { name: LA.deleteTitle, exact: true });
    await del.waitFor();
    expect((await del.getByRole('alert').innerText()).trim()).toBe(M.lockApp.currentNotDeleted);
    expect(await axeProblems(page)).toEqual([]);
    await del.getByRole('button', { name: 'Cerrar', exact: true }).last().click();
    await del.waitFor({ state: 'detached' });

    expect(problems).toEqual([]);
  }, 90_000);

  test('1366×800 and 390×844: long values fit, rows read as cards on a phone, the forms fit the window', async () => {
    await insertGroup(db(), 'Sucursal Centro Histórico de Monterrey Norte');
    const { page, problems } = await openPage(PATHS.businessApp);
    await page.setViewportSize(LAPTOP);
    const main = page.getByRole('main');
    await main.getByRole('button', { name: BA.create, exact: true }).first().click();
    const dialog = page.getByRole('dialog', { name: BA.createTitle, exact: true });
    await dialog.waitFor();
    await dialog.getByLabel(FB.name, { exact: true }).fill('Catálogo de productos y promociones de temporada');
    await dialog.getByLabel(FB.packageName, { exact: true }).fill('com.tiendas.departamentales.catalogo.promociones');
    await dialog.getByLabel(FB.versionName, { exact: true }).fill('12.4.0-beta.3');
    await dialog.getByLabel(FB.versionCode, { exact: true }).fill('1240003');
    await dialog.getByLabel(FB.appType, { exact: true }).selectOption({ label: 'Macrolock' });
    await dialog.getByLabel(FB.downloadUrl, { exact: true }).fill('https://cdn.example.com/apps/catalogo/1240003/app-release.apk');
    await dialog.getByLabel(FB.sha256, { exact: true }).fill(SHA);
    await dialog.getByLabel('Sucursal Centro Histórico de Monterrey Norte', { exact: true }).check();
    await dialog.getByRole('button', { name: SPEC_TEXT.save, exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await main.getByTestId('business-app-row-com.tiendas.departamentales.catalogo.promociones').waitFor();
    expectFits('business apps at 1366', await measure(page), LAPTOP, 'table-row');

    // A phone opens the page at its own width (the menu starts closed there).
    await page.setViewportSize(PHONE);
    await page.reload();
    await waitForLayout(page);
    await main.getByTestId('business-app-row-com.tiendas.departamentales.catalogo.promociones').waitFor();
    expectFits('business apps at 390', await measure(page), PHONE, 'flex');
    await main.getByRole('button', { name: BA.create, exact: true }).first().click();
    await dialog.waitFor();
    const form = await measure(page);
    expect(form.dialogRight).not.toBeNull();
    expect(form.dialogRight! <= PHONE.width && form.pageWidth <= PHONE.width).toBe(true);
    await dialog.getByRole('button', { name: SPEC_TEXT.cancel, exact: true }).click();
    await dialog.waitFor({ state: 'detached' });

    await page.goto(`${ctx.portal.url}${PATHS.appLock}`);
    await waitForLayout(page);
    await main.locator('[data-testid^="lock-app-row-"]').first().waitFor();
    expectFits('lock app at 390', await measure(page), PHONE, 'flex');
    await page.setViewportSize(LAPTOP);
    await page.reload();
    await waitForLayout(page);
    await main.locator('[data-testid^="lock-app-row-"]').first().waitFor();
    expectFits('lock app at 1366', await measure(page), LAPTOP, 'table-row');

    expect(problems).toEqual([]);
  }, 90_000);

  test('the TV page lists the TV versions only', async () => {
    await db().query(
      `INSERT INTO lock_app_versions (device_type, version_name, version_app, app_type, is_current) VALUES (1, 'Solo móvil', '0.0.9', 2, false), (2, 'Solo TV', '0.0.8', 5, false)`,
    );
    const expected = await db().query<{ name: string }>(
      `SELECT version_name || ' (' || version_app || ')' AS name FROM lock_app_versions WHERE device_type = 2 ORDER BY name`,
    );
    const { page, problems } = await openPage(PATHS.appLockTv);
    const main = page.getByRole('main');
    await main.getByTestId('lock-app-row-Solo TV (0.0.8)').waitFor();
    const shown = await main
      .locator('[data-testid^="lock-app-row-"]')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-testid')!.slice('lock-app-row-'.length)).sort());
    expect(shown).toEqual(expected.rows.map((r) => r.name).sort());
    expect(shown).not.toContain('Solo móvil (0.0.9)');
    expect(await main.getByTestId('lock-app-row-Solo TV (0.0.8)').innerText()).toContain('Macrolock.TV');
    expect(await axeProblems(page)).toEqual([]);

    // A TV version has no package name.
    await main.getByRole('button', { name: LA.create, exact: true }).first().click();
    const dialog = page.getByRole('dialog', { name: LA.createTitle, exact: true });
    await dialog.waitFor();
    expect(await dialog.getByLabel(FL.packageName, { exact: true }).count()).toBe(0);
    expect(await axeProblems(page)).toEqual([]);
    await dialog.getByRole('button', { name: SPEC_TEXT.cancel, exact: true }).click();
    await dialog.waitFor({ state: 'detached' });

    expect(problems).toEqual([]);
  }, 60_000);
});
