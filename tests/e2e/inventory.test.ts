/**
 * The inventory module in Chromium, beyond the enrolled devices list (tests/e2e/devices.test.ts):
 * /inventory-management's redirect per profile, the debounced search and the CSV export of the
 * devices page, a bulk lock through its dry run, progress and results CSV, the registration of
 * one device and of a CSV file (preview, then commit), the pre-enrolled devices' edit, group
 * assignment and deletion, and the groups' create, rename and delete (moving the devices).
 * Every test ends without console problems (hydration included); axe-core finds no serious or
 * critical violation on the forms, previews and modals on the way.
 */
import fs from 'node:fs';
import iconv from 'iconv-lite';
import Papa from 'papaparse';
import type { Download, Locator, Page } from 'playwright-core';
import { JOB_RESULT_COLUMNS } from '../../server/api/jobs/jobsService';
import { SEARCH_DEBOUNCE_MS } from '../../shared/constants/business';
import { DEVICE_ACTION } from '../../shared/constants/deviceActions';
import { DEVICE_STATUS, deviceStatusLabel } from '../../shared/constants/domain';
import { ADD_DEVICE_LABELS } from '../../shared/constants/addDeviceLabels';
import { GROUP_LABELS } from '../../shared/constants/groupLabels';
import { INVENTORY_LABELS as L } from '../../shared/constants/inventoryLabels';
import { MENU } from '../../shared/constants/routes';
import { EXPORT_COLUMNS, EXPORT_DATE_TIME_COLUMNS, IMPORT_COLUMNS } from '../../shared/contracts/deviceImport';
import { FIELD_LABELS } from '../../shared/constants/fieldLabels';
import { actionLabel } from '../../shared/deviceActionRules';
import { SPEC_TEXT } from '../../shared/messages';
import { INVENTORY_MESSAGES as M } from '../../shared/areaMessages/inventory';
import { seriousViolations } from '../helpers/axe';
import { collectProblems, describeWithBrowser, waitForHydration } from '../helpers/browser';
import { insertDevices, insertGroup, insertManyDevices, testImei } from '../helpers/inventoryFixtures';
import {
  ADMIN_EMAIL,
  DEMO_PROFILE_PATHS,
  dismissToasts,
  SOPORTE_EMAIL,
  signIn,
  signOut,
  toast,
  usePortalBrowser,
  waitForLayout,
} from '../helpers/portalSession';

const INVENTORY = MENU.find((m) => m.path === '/inventory-management')!;
/** An inventory page: its path and its title (the menu's, which is also the page's heading). */
const pageOf = (path: string) => INVENTORY.submodules.find((s) => s.path === path)!;
const ADD_DEVICE = pageOf('/inventory-management/add-device');
const DEVICES = pageOf('/inventory-management/devices');
const PRE_ENROLLED = pageOf('/inventory-management/devices-pre-enrolled');
const GROUPS = pageOf('/inventory-management/devices-group');

const LOCK = actionLabel(DEVICE_ACTION.LOCK);
const RELEASED = deviceStatusLabel(DEVICE_STATUS.liberado)!;
const ACTIVE = deviceStatusLabel(DEVICE_STATUS.activo)!;
const LOCKING = deviceStatusLabel(DEVICE_STATUS.bloqueando)!;
const BOM = '\uFEFF';

/** The first of the inventory pages a demo account's profile grants, in the menu's order. */
const firstInventoryPage = (email: string) => INVENTORY.submodules.find((s) => DEMO_PROFILE_PATHS[email]!.includes(s.path))!.path;

/** A CSV file's text (BOM checked and removed) parsed into its header and its rows of cells. */
function parseCsv(text: string): { header: string[]; rows: Record<string, string>[] } {
  expect(text.startsWith(BOM)).toBe(true);
  const parsed = Papa.parse<Record<string, string>>(text.slice(1), { header: true, skipEmptyLines: true });
  expect(parsed.errors).toEqual([]);
  return { header: parsed.meta.fields ?? [], rows: parsed.data };
}

/** Clicks `button` and answers the file it downloads, as text. */
async function downloadOf(page: Page, button: Locator): Promise<{ download: Download; text: string }> {
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  const file = await download.path();
  return { download, text: fs.readFileSync(file, 'utf8') };
}

/** The text of each cell of each row of a table body. */
function cellTexts(rows: Locator): Promise<string[][]> {
  return rows.evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('th, td')).map((c) => (c as HTMLElement).innerText.trim())));
}

/** The dt/dd pairs of a description list. */
function termPairs(dl: Locator): Promise<[string, string][]> {
  return dl.evaluate((el) =>
    Array.from(el.querySelectorAll('dt')).map((dt) => [dt.textContent!.trim(), dt.nextElementSibling!.textContent!.trim()] as [string, string]),
  );
}

/**
 * axe-core's serious and critical violations, the toasts closed first (seriousViolations waits
 * for running animations, and a toast's auto-close bar runs for seconds).
 */
async function axeProblems(page: Page): Promise<string[]> {
  await dismissToasts(page);
  return seriousViolations(page);
}

describeWithBrowser('inventory pages in Chromium', () => {
  const ctx = usePortalBrowser();
  const db = () => ctx.portal.testDb.db;

  /** Opens a signed-in page and waits for its heading. */
  async function openPage(page: Page, path: string, heading: string): Promise<void> {
    await page.goto(`${ctx.portal.url}${path}`);
    await waitForHydration(page);
    await waitForLayout(page);
    await page.getByRole('main').getByRole('heading', { level: 1, name: heading, exact: true }).waitFor();
  }

  /** The enrolled devices list with its first rows shown. */
  async function openDevices(page: Page, query = ''): Promise<void> {
    await openPage(page, `${DEVICES.path}${query}`, DEVICES.title);
    await page.getByTestId('device-row').first().waitFor();
  }

  const pager = (page: Page, pageNo: number, pages: number, total: number) =>
    page.getByText(L.devices.pageOf(pageNo, pages, total, false), { exact: true });

  async function preEnrolledCount(): Promise<number> {
    const res = await db().query<{ n: number }>("SELECT count(*)::int AS n FROM devices WHERE lifecycle = 'pre_enrolled' AND deleted_at IS NULL");
    return res.rows[0]!.n;
  }

  test('/inventory-management opens the first inventory page the profile grants', async () => {
    const page = await ctx.freshPage();
    const problems = collectProblems(page);

    // The administrator holds every page: the first of the menu.
    expect(firstInventoryPage(ADMIN_EMAIL)).toBe(ADD_DEVICE.path);
    await signIn(page, ctx.portal.url, ADMIN_EMAIL);
    await page.goto(`${ctx.portal.url}${INVENTORY.path}`);
    await page.waitForURL((u) => u.pathname === ADD_DEVICE.path);
    await waitForLayout(page);
    await page.getByRole('main').getByRole('heading', { level: 1, name: ADD_DEVICE.title, exact: true }).waitFor();

    // Soporte holds only the enrolled devices page.
    expect(firstInventoryPage(SOPORTE_EMAIL)).toBe(DEVICES.path);
    await signOut(page);
    await signIn(page, ctx.portal.url, SOPORTE_EMAIL);
    await page.goto(`${ctx.portal.url}${INVENTORY.path}`);
    await page.waitForURL((u) => u.pathname === DEVICES.path);
    await waitForLayout(page);
    await page.getByRole('main').getByRole('heading', { level: 1, name: DEVICES.title, exact: true }).waitFor();

    expect(problems).toEqual([]);
  }, 60_000);

  test("the search narrows the list after the debounce and goes into the URL; the export holds every device of the filter, dated in the browser's zone", async () => {
    const searchImeis = [1, 2, 3].map((n) => testImei(n, '3571'));
    await insertDevices(db(), [
      { imei: searchImeis[0], customerName: 'Valentina Quintanilla', creditReference: 'CR-QV-1' },
      { imei: searchImeis[1], customerName: 'Ramiro Estrada' },
      { imei: searchImeis[2] },
    ]);
    const group = await insertGroup(db(), 'Exportación Norte');
    await insertManyDevices(db(), 27, { groupId: group });

    // The browser is in Mexico City: the export's dates are written in its zone.
    const page = await ctx.freshPage({ timezoneId: 'America/Mexico_City' });
    const problems = collectProblems(page);
    await signIn(page, ctx.portal.url, ADMIN_EMAIL);
    await openDevices(page);

    // An IMEI prefix: nothing happens until the typing has paused for 500 ms (timed in the page:
    // the last keystroke, and the history entry that first carries search=).
    await page.evaluate(() => {
      const w = window as unknown as { lastInputAt?: number; searchAt?: number };
      document.addEventListener('input', () => (w.lastInputAt = performance.now()), true);
      for (const method of ['pushState', 'replaceState'] as const) {
        const original = history[method].bind(history);
        history[method] = (...args: Parameters<History['pushState']>) => {
          original(...args);
          if (w.searchAt === undefined && new URL(location.href).searchParams.has('search')) w.searchAt = performance.now();
        };
      }
    });
    const search = page.getByRole('searchbox', { name: L.devices.search, exact: true });
    await search.pressSequentially('3571');
    await page.waitForURL((u) => u.searchParams.get('search') === '3571');
    const debounce = await page.evaluate(() => {
      const w = window as unknown as { lastInputAt?: number; searchAt?: number };
      return w.searchAt! - w.lastInputAt!;
    });
    expect(debounce).toBeGreaterThanOrEqual(SEARCH_DEBOUNCE_MS - 5);
    await pager(page, 1, 1, 3).waitFor();
    const rows = page.getByTestId('device-row');
    expect((await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-imei')))).sort()).toEqual([...searchImeis].sort());

    // A customer's name finds the device.
    await search.fill('Quintanilla');
    await page.waitForURL((u) => u.searchParams.get('search') === 'Quintanilla');
    await pager(page, 1, 1, 1).waitFor();
    expect(await rows.count()).toBe(1);
    expect(await rows.first().getAttribute('data-imei')).toBe(searchImeis[0]);
    expect(await rows.first().innerText()).toContain('Valentina Quintanilla');

    // The export of a filter larger than one page: every matching device, after the BOM.
    await openDevices(page, `?groupId=${group}`);
    await pager(page, 1, 2, 27).waitFor();
    expect(await rows.count()).toBe(25);
    const { download, text } = await downloadOf(page, page.getByRole('button', { name: L.devices.export, exact: true }));
    expect(download.suggestedFilename()).toMatch(/^dispositivos-.+\.csv$/);
    const csv = parseCsv(text);
    const zoned = (c: string) => `${c} (America/Mexico_City)`;
    expect(csv.header).toEqual(EXPORT_COLUMNS.map((c) => (EXPORT_DATE_TIME_COLUMNS.includes(c) ? zoned(c) : c)));
    expect(csv.rows).toHaveLength(27);
    const created = await db().query<{ imei: string; created_at: Date }>('SELECT imei, created_at FROM devices WHERE group_id = $1', [group]);
    for (const { imei, created_at } of created.rows) {
      const written = csv.rows.find((r) => r.imei === imei)![zoned('creado')]!;
      expect(written).toMatch(/-06:00$/);
      // The same instant (the database keeps microseconds, the file milliseconds).
      expect(Math.abs(new Date(written).getTime() - new Date(created_at).getTime())).toBeLessThanOrEqual(1);
    }
    const inGroup = await db().query<{ imei: string }>('SELECT imei FROM devices WHERE group_id = $1 ORDER BY imei', [group]);
    expect(csv.rows.map((r) => r.imei).sort()).toEqual(inGroup.rows.map((r) => r.imei));
    expect(new Set(csv.rows.map((r) => r.grupo))).toEqual(new Set(['Exportación Norte']));
    await toast(page, L.devices.exported).waitFor();

    expect(problems).toEqual([]);
  }, 60_000);

  test('a bulk lock of every device of a filter: dry run, progress, results CSV, then the list shows them locking', async () => {
    const group = await insertGroup(db(), 'Lote Bloqueo');
    await insertManyDevices(db(), 28, { groupId: group });
    const releasedImeis = [1, 2].map((n) => testImei(n, '3574'));
    await insertDevices(
      db(),
      releasedImeis.map((imei) => ({ imei, lifecycle: 'released' as const, groupId: group })),
    );
    const skipReason = M.actions.disabledForStatus(LOCK, RELEASED);

    const page = await ctx.freshPage({ bypassCSP: true });
    const problems = collectProblems(page);
    await signIn(page, ctx.portal.url, ADMIN_EMAIL);
    await openDevices(page, `?groupId=${group}`);
    await pager(page, 1, 2, 30).waitFor();

    // The page, then everything the filter matches.
    await page.getByRole('checkbox', { name: L.devices.selectPage, exact: true }).check();
    const banner = page.getByTestId('select-all-banner');
    await banner.getByText(L.bulk.pageSelected(25), { exact: false }).waitFor();
    await banner.getByRole('button', { name: L.bulk.selectAllMatching(30, false), exact: true }).click();
    await banner.getByText(L.bulk.allMatchingSelected(30, false), { exact: false }).waitFor();
    const bar = page.getByTestId('bulk-bar');
    await bar.getByText(L.bulk.selected(30), { exact: true }).waitFor();

    await bar.getByRole('combobox', { name: L.bulk.action, exact: true }).selectOption({ label: LOCK });
    await bar.getByRole('button', { name: L.bulk.apply, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: L.bulk.title(LOCK), exact: true });
    await dialog.getByText(L.bulk.selected(30), { exact: true }).waitFor();
    await dialog.getByLabel(L.actions.lockMessage, { exact: true }).fill('Acuda a su sucursal para regularizar su crédito');
    await dialog.getByRole('button', { name: L.bulk.preview, exact: true }).click();

    // The dry run: counts per status and the devices skipped with the reference §4 reason.
    const summaryDialog = page.getByRole('dialog', { name: L.bulk.previewTitle, exact: true });
    const summary = summaryDialog.getByTestId('bulk-summary');
    await summary.waitFor();
    expect(await summary.getByTestId('bulk-total').innerText()).toBe('30');
    expect(await summary.getByTestId('bulk-eligible').innerText()).toBe('28');
    expect(await summary.getByTestId('bulk-offline').innerText()).toBe('0');
    expect(await cellTexts(summary.getByTestId('bulk-by-status').locator('tbody tr'))).toEqual([
      [ACTIVE, '28'],
      [RELEASED, '2'],
    ]);
    expect(
      await summary
        .getByTestId('bulk-skipped')
        .locator('li')
        .evaluateAll((lis) => lis.map((li) => Array.from(li.children).map((c) => c.textContent))),
    ).toEqual([[skipReason, '2']]);
    expect(await axeProblems(page)).toEqual([]);

    // Confirmed: the job runs to its end.
    await summaryDialog.getByRole('button', { name: L.bulk.confirm, exact: true }).click();
    await toast(page, L.bulk.started(LOCK)).waitFor();
    const jobDialog = page.getByRole('dialog', { name: L.bulk.title(LOCK), exact: true });
    const progress = jobDialog.getByRole('progressbar', { name: L.bulk.progress, exact: true });
    await progress.waitFor();
    await jobDialog.locator('[role="progressbar"][aria-valuenow="100"]').waitFor();
    expect(await progress.getAttribute('aria-valuetext')).toBe(`100% (${L.bulk.progressText(30, 30)})`);
    await jobDialog.getByText(L.bulk.jobStatuses.completed, { exact: true }).waitFor();
    expect(await termPairs(jobDialog.getByTestId('bulk-result'))).toEqual([
      [L.bulk.succeeded, '28'],
      [L.bulk.skippedResult, '2'],
      [L.bulk.failed, '0'],
    ]);

    // The results CSV: one row per device, the skipped ones with their reason.
    const { download, text } = await downloadOf(page, jobDialog.getByRole('button', { name: L.bulk.download, exact: true }));
    expect(download.suggestedFilename()).toMatch(/^trabajo-\d+\.csv$/);
    const csv = parseCsv(text);
    expect(csv.header).toEqual([...JOB_RESULT_COLUMNS]);
    expect(csv.rows).toHaveLength(30);
    const skipped = csv.rows.filter((r) => r.resultado === M.bulk.outcome.skipped);
    expect(skipped.map((r) => r.imei).sort()).toEqual(releasedImeis);
    expect(new Set(skipped.map((r) => r.motivo))).toEqual(new Set([skipReason]));
    const done = csv.rows.filter((r) => r.resultado === M.bulk.outcome.done);
    expect(done).toHaveLength(28);
    expect(done.every((r) => /^\d+$/.test(r.id_comando ?? ''))).toBe(true);
    await toast(page, L.bulk.downloaded).waitFor();

    await jobDialog.getByRole('button', { name: L.common.close, exact: true }).last().click();
    await jobDialog.waitFor({ state: 'detached' });
    expect(await page.getByTestId('bulk-bar').count()).toBe(0);

    // The list refetched on its own: no active device left on the page; then, by status, the
    // 28 are locking and the released ones are not.
    await page.waitForFunction(
      ([locking, released]) => {
        const badges = Array.from(document.querySelectorAll('[data-testid="device-row"] .badge'), (b) => b.textContent);
        return badges.length === 25 && badges.every((b) => b === locking || b === released);
      },
      [LOCKING, RELEASED],
    );
    await page.getByRole('combobox', { name: L.devices.columns.status, exact: true }).selectOption({ label: LOCKING });
    await page.waitForURL((u) => u.searchParams.get('status') === String(DEVICE_STATUS.bloqueando));
    await pager(page, 1, 2, 28).waitFor();
    const badges = await page.getByTestId('device-row').locator('.badge').allInnerTexts();
    expect(badges).toEqual(Array.from({ length: 25 }, () => LOCKING));
    await page.getByRole('combobox', { name: L.devices.columns.status, exact: true }).selectOption({ label: RELEASED });
    await pager(page, 1, 1, 2).waitFor();

    expect(problems).toEqual([]);
  }, 90_000);

  test('registration: the one-device form checks the IMEI and registers; a CSV file is previewed, then its valid rows imported', async () => {
    const formImei = testImei(1, '3572');
    const badImei = `${formImei.slice(0, 14)}${(Number(formImei[14]) + 1) % 10}`;
    const csvValid = [2, 3, 4].map((n) => testImei(n, '3572'));
    const csvBadCheck = `${testImei(6, '3572').slice(0, 14)}${(Number(testImei(6, '3572')[14]) + 3) % 10}`;
    const csvUnknownGroup = testImei(5, '3572');
    await insertGroup(db(), 'Sucursal Centro');

    const page = await ctx.freshPage({ bypassCSP: true });
    const problems = collectProblems(page);
    await signIn(page, ctx.portal.url, ADMIN_EMAIL);
    await openPage(page, ADD_DEVICE.path, ADD_DEVICE.title);
    const one = page.getByRole('region', { name: ADD_DEVICE_LABELS.oneTitle, exact: true });
    const csvPart = page.getByRole('region', { name: ADD_DEVICE_LABELS.csvTitle, exact: true });
    await csvPart.getByLabel(ADD_DEVICE_LABELS.file, { exact: true }).waitFor();
    expect(await axeProblems(page)).toEqual([]);

    // A wrong check digit: the Luhn message under the field, nothing sent.
    const imeiInput = one.getByLabel(L.deviceForm.imei, { exact: true });
    await imeiInput.fill(badImei);
    await one.getByLabel(L.deviceForm.customerName, { exact: true }).fill('Mariana Velasco');
    await one.getByRole('button', { name: SPEC_TEXT.save, exact: true }).click();
    const imeiError = one.getByText(M.field.imeiCheckDigit(FIELD_LABELS.devices.imei), { exact: true });
    await imeiError.waitFor();
    expect(await imeiInput.getAttribute('aria-invalid')).toBe('true');
    expect(await imeiInput.getAttribute('aria-describedby')).toBe(await imeiError.getAttribute('id'));
    expect(await axeProblems(page)).toEqual([]);
    expect((await db().query('SELECT 1 FROM devices WHERE imei = $1', [badImei])).rows).toHaveLength(0);

    // The right IMEI registers it.
    await imeiInput.fill(formImei);
    await one.getByRole('button', { name: SPEC_TEXT.save, exact: true }).click();
    await toast(page, ADD_DEVICE_LABELS.created(formImei)).waitFor();
    await one.getByTestId('device-registered').getByText(ADD_DEVICE_LABELS.createdDetail(formImei), { exact: false }).waitFor();
    expect(await imeiInput.inputValue()).toBe('');

    // A CSV file with valid and invalid rows: the preview registers nothing.
    const row = (imei: string, tipo: string, grupo = '', cliente = '') => [imei, '', '', tipo, 'Samsung', 'Galaxy A25', grupo, cliente, ''].join(',');
    const file = [
      IMPORT_COLUMNS.join(','),
      row(csvValid[0]!, '1', 'Sucursal Centro', 'Lucía Ortega'),
      row(csvBadCheck, '1'),
      row(csvValid[1]!, '2'),
      row(testImei(7, '3572'), '3'),
      row(formImei, '1'),
      row(csvUnknownGroup, '1', 'Grupo inexistente'),
      row(csvValid[2]!, '1', '', 'Tomás Ibarra'),
    ].join('\r\n');
    const before = await preEnrolledCount();
    await csvPart
      .getByLabel(ADD_DEVICE_LABELS.file, { exact: true })
      // Saved the way Excel in Mexico saves «CSV (delimitado por comas)»: Windows-1252, so the
      // accents of 'Lucía Ortega' and 'Tomás Ibarra' arrive as single bytes.
      .setInputFiles({ name: 'dispositivos.csv', mimeType: 'text/csv', buffer: iconv.encode(file, 'windows1252') });
    const preview = csvPart.getByTestId('csv-preview');
    await preview.waitFor();
    expect(await termPairs(preview.getByTestId('csv-counts'))).toEqual([
      [ADD_DEVICE_LABELS.rows, '7'],
      [ADD_DEVICE_LABELS.valid, '3'],
      [ADD_DEVICE_LABELS.invalid, '4'],
      [ADD_DEVICE_LABELS.encoding, 'Windows-1252'],
    ]);
    expect(await cellTexts(preview.getByTestId('csv-invalid-rows').locator('tbody tr'))).toEqual([
      ['3', csvBadCheck, `imei: ${M.field.imeiCheckDigit(FIELD_LABELS.devices.imei)}`],
      ['5', testImei(7, '3572'), `tipo: ${M.field.deviceType(FIELD_LABELS.devices.deviceType)}`],
      ['6', formImei, `imei: ${M.csv.duplicateInDb}`],
      ['7', csvUnknownGroup, `grupo: ${M.csv.groupUnknown('Grupo inexistente')}`],
    ]);
    expect((await cellTexts(preview.getByTestId('csv-sample-rows').locator('tbody tr'))).map((r) => r[0])).toEqual(csvValid);
    expect(await axeProblems(page)).toEqual([]);
    expect(await preEnrolledCount()).toBe(before);
    expect((await db().query('SELECT 1 FROM devices WHERE imei = ANY($1)', [csvValid])).rows).toHaveLength(0);

    // Imported: the valid rows only.
    await preview.getByRole('button', { name: ADD_DEVICE_LABELS.importValid(3), exact: true }).click();
    const result = csvPart.getByTestId('csv-result');
    await result.getByText(ADD_DEVICE_LABELS.imported(3), { exact: true }).waitFor();
    await toast(page, ADD_DEVICE_LABELS.imported(3)).waitFor();
    expect(await preEnrolledCount()).toBe(before + 3);

    // The pre-enrolled page lists the four new devices.
    await result.getByRole('link', { name: ADD_DEVICE_LABELS.viewPreEnrolled, exact: true }).click();
    await page.waitForURL((u) => u.pathname === PRE_ENROLLED.path);
    await page.getByRole('main').getByRole('heading', { level: 1, name: PRE_ENROLLED.title, exact: true }).waitFor();
    for (const imei of [formImei, ...csvValid]) await page.getByTestId(`pre-enrolled-row-${imei}`).waitFor();
    const first = await cellTexts(page.getByTestId(`pre-enrolled-row-${csvValid[0]}`));
    expect(first[0]!.slice(3, 5)).toEqual(['Sucursal Centro', 'Lucía Ortega']);
    expect((await cellTexts(page.getByTestId(`pre-enrolled-row-${formImei}`)))[0]![4]).toBe('Mariana Velasco');

    expect(problems).toEqual([]);
  }, 90_000);

  test('pre-enrolled devices: edit the customer, assign a group, delete one after confirming', async () => {
    const editImei = testImei(1, '3573');
    const deleteImei = testImei(2, '3573');
    await insertDevices(db(), [
      { imei: editImei, lifecycle: 'pre_enrolled', customerName: 'Cliente Original', creditReference: 'CR-PE-1' },
      { imei: deleteImei, lifecycle: 'pre_enrolled', customerName: 'Cliente Por Borrar' },
    ]);
    await insertGroup(db(), 'Sucursal Oriente');

    const page = await ctx.freshPage({ bypassCSP: true });
    const problems = collectProblems(page);
    await signIn(page, ctx.portal.url, ADMIN_EMAIL);
    await openPage(page, PRE_ENROLLED.path, PRE_ENROLLED.title);
    const editRow = page.getByTestId(`pre-enrolled-row-${editImei}`);
    await editRow.waitFor();
    const cells = async () => (await cellTexts(editRow))[0]!;

    // Edit: the form holds the device's facts; the customer changes.
    await editRow.getByRole('button', { name: L.preEnrolled.editOf(editImei), exact: true }).click();
    const edit = page.getByRole('dialog', { name: L.preEnrolled.editTitle, exact: true });
    expect(await edit.getByLabel(L.deviceForm.imei, { exact: true }).inputValue()).toBe(editImei);
    const customer = edit.getByLabel(L.deviceForm.customerName, { exact: true });
    expect(await customer.inputValue()).toBe('Cliente Original');
    expect(await axeProblems(page)).toEqual([]);
    await customer.fill('Cliente Editado');
    await edit.getByRole('button', { name: SPEC_TEXT.save, exact: true }).click();
    await toast(page, L.preEnrolled.updated(editImei)).waitFor();
    await edit.waitFor({ state: 'detached' });
    await editRow.getByText('Cliente Editado', { exact: true }).waitFor();
    expect((await cells())[5]).toBe('CR-PE-1');

    // A group.
    await editRow.getByRole('button', { name: L.preEnrolled.assignGroupOf(editImei), exact: true }).click();
    const assign = page.getByRole('dialog', { name: L.preEnrolled.assignGroup, exact: true });
    await assign.getByLabel(L.preEnrolled.assignGroupText(editImei), { exact: true }).selectOption({ label: 'Sucursal Oriente' });
    expect(await axeProblems(page)).toEqual([]);
    await assign.getByRole('button', { name: SPEC_TEXT.save, exact: true }).click();
    await toast(page, L.preEnrolled.groupAssigned(editImei)).waitFor();
    await assign.waitFor({ state: 'detached' });
    await editRow.getByText('Sucursal Oriente', { exact: true }).waitFor();
    expect((await cells())[4]).toBe('Cliente Editado');

    // Delete, behind its confirmation.
    const deleteRow = page.getByTestId(`pre-enrolled-row-${deleteImei}`);
    await deleteRow.getByRole('button', { name: L.preEnrolled.deleteOf(deleteImei), exact: true }).click();
    const confirm = page.getByRole('dialog', { name: L.preEnrolled.deleteTitle, exact: true });
    await confirm.getByText(L.preEnrolled.confirmDelete(deleteImei), { exact: true }).waitFor();
    expect(await axeProblems(page)).toEqual([]);
    await confirm.getByRole('button', { name: L.preEnrolled.delete, exact: true }).click();
    await toast(page, L.preEnrolled.deleted(deleteImei)).waitFor();
    await deleteRow.waitFor({ state: 'detached' });
    await editRow.waitFor();

    const stored = await db().query<{ imei: string; customer_name: string; group_name: string | null; deleted: boolean }>(
      `SELECT d.imei, d.customer_name, g.name AS group_name, d.deleted_at IS NOT NULL AS deleted
         FROM devices d LEFT JOIN device_groups g ON g.id = d.group_id WHERE d.imei = ANY($1) ORDER BY d.imei`,
      [[editImei, deleteImei]],
    );
    expect(stored.rows).toEqual([
      { imei: editImei, customer_name: 'Cliente Editado', group_name: 'Sucursal Oriente', deleted: false },
      { imei: deleteImei, customer_name: 'Cliente Por Borrar', group_name: null, deleted: true },
    ]);

    expect(problems).toEqual([]);
  }, 60_000);

  test('groups: create, rename, delete one with devices (moving them to another group), delete an empty one', async () => {
    const destination = await insertGroup(db(), 'Destino Centro');
    await insertManyDevices(db(), 2, { groupId: destination });
    await insertGroup(db(), 'Grupo Vacío');

    const page = await ctx.freshPage({ bypassCSP: true });
    const problems = collectProblems(page);
    await signIn(page, ctx.portal.url, ADMIN_EMAIL);
    await openPage(page, GROUPS.path, GROUPS.title);
    await page.getByTestId('group-row-Destino Centro').waitFor();
    const countOf = async (name: string) => (await cellTexts(page.getByTestId(`group-row-${name}`)))[0]![2];

    // Create.
    await page.getByRole('button', { name: GROUP_LABELS.create, exact: true }).click();
    const create = page.getByRole('dialog', { name: GROUP_LABELS.createTitle, exact: true });
    await create.getByLabel(GROUP_LABELS.name, { exact: true }).fill('Ventas Poniente');
    await create.getByLabel(GROUP_LABELS.descriptionOptional, { exact: true }).fill('Tiendas del poniente');
    expect(await axeProblems(page)).toEqual([]);
    await create.getByRole('button', { name: SPEC_TEXT.save, exact: true }).click();
    await toast(page, GROUP_LABELS.createdDone('Ventas Poniente')).waitFor();
    await create.waitFor({ state: 'detached' });
    const created = page.getByTestId('group-row-Ventas Poniente');
    await created.waitFor();
    expect((await cellTexts(created))[0]!.slice(0, 3)).toEqual(['Ventas Poniente', 'Tiendas del poniente', '0']);

    // Rename.
    await created.getByRole('button', { name: GROUP_LABELS.renameOf('Ventas Poniente'), exact: true }).click();
    const rename = page.getByRole('dialog', { name: GROUP_LABELS.renameTitle, exact: true });
    const name = rename.getByLabel(GROUP_LABELS.name, { exact: true });
    expect(await name.inputValue()).toBe('Ventas Poniente');
    await name.fill('Ventas Poniente Norte');
    await rename.getByRole('button', { name: SPEC_TEXT.save, exact: true }).click();
    await toast(page, GROUP_LABELS.renamedDone('Ventas Poniente Norte')).waitFor();
    await rename.waitFor({ state: 'detached' });
    const renamed = page.getByTestId('group-row-Ventas Poniente Norte');
    await renamed.waitFor();
    await created.waitFor({ state: 'detached' });

    // Three devices join it; deleting it requires a destination for them.
    const groupId = (await db().query<{ id: number }>('SELECT id FROM device_groups WHERE name = $1', ['Ventas Poniente Norte'])).rows[0]!.id;
    const moved = await insertManyDevices(db(), 3, { groupId });
    await openPage(page, GROUPS.path, GROUPS.title);
    await renamed.getByRole('link', { name: GROUP_LABELS.viewEnrolled(3, GROUP_LABELS.ofGroup('Ventas Poniente Norte')), exact: true }).waitFor();
    expect(await countOf('Destino Centro')).toBe('2');
    await renamed.getByRole('button', { name: GROUP_LABELS.deleteOf('Ventas Poniente Norte'), exact: true }).click();
    const remove = page.getByRole('dialog', { name: GROUP_LABELS.deleteTitle, exact: true });
    await remove.getByText(GROUP_LABELS.confirmDelete('Ventas Poniente Norte'), { exact: true }).waitFor();
    await remove.getByText(M.groups.notEmpty(3), { exact: true }).waitFor();
    await remove.getByRole('button', { name: GROUP_LABELS.delete, exact: true }).click();
    const moveTo = remove.getByRole('combobox', { name: GROUP_LABELS.moveTo, exact: true });
    await remove.getByText(GROUP_LABELS.moveToRequired, { exact: true }).waitFor();
    expect(await moveTo.getAttribute('aria-invalid')).toBe('true');
    expect((await db().query('SELECT 1 FROM device_groups WHERE id = $1', [groupId])).rows).toHaveLength(1);
    expect(await axeProblems(page)).toEqual([]);
    const options = await moveTo.locator('option').allInnerTexts();
    expect(options[0]).toBe(GROUP_LABELS.selectGroup);
    expect(options).toEqual(expect.arrayContaining(['Destino Centro', 'Grupo Vacío']));
    expect(options).not.toContain('Ventas Poniente Norte');
    await moveTo.selectOption({ label: 'Destino Centro' });
    await remove.getByRole('button', { name: GROUP_LABELS.delete, exact: true }).click();
    await toast(page, GROUP_LABELS.deletedDone('Ventas Poniente Norte')).waitFor();
    await remove.waitFor({ state: 'detached' });
    await renamed.waitFor({ state: 'detached' });
    await page
      .getByTestId('group-row-Destino Centro')
      .getByRole('link', { name: GROUP_LABELS.viewEnrolled(5, GROUP_LABELS.ofGroup('Destino Centro')), exact: true })
      .waitFor();
    const movedTo = await db().query<{ group_id: number }>('SELECT DISTINCT group_id FROM devices WHERE id = ANY($1)', [moved]);
    expect(movedTo.rows).toEqual([{ group_id: destination }]);
    expect((await db().query('SELECT 1 FROM device_groups WHERE id = $1', [groupId])).rows).toHaveLength(0);

    // An empty group: a plain confirmation, no destination.
    const empty = page.getByTestId('group-row-Grupo Vacío');
    await empty.getByRole('button', { name: GROUP_LABELS.deleteOf('Grupo Vacío'), exact: true }).click();
    const removeEmpty = page.getByRole('dialog', { name: GROUP_LABELS.deleteTitle, exact: true });
    await removeEmpty.getByText(GROUP_LABELS.confirmDelete('Grupo Vacío'), { exact: true }).waitFor();
    expect(await removeEmpty.getByRole('combobox').count()).toBe(0);
    await removeEmpty.getByRole('button', { name: GROUP_LABELS.delete, exact: true }).click();
    await toast(page, GROUP_LABELS.deletedDone('Grupo Vacío')).waitFor();
    await empty.waitFor({ state: 'detached' });

    expect(problems).toEqual([]);
  }, 60_000);
});
