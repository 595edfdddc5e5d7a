/**
 * The dashboards in Chromium on a known fleet (devices written into the test database, two locks
 * requested through the API, one command stuck for 30 h): the cards show those numbers and each
 * opens the devices list whose total is the card's; the charts draw and their tables show the
 * same numbers; the stuck command links to its device; the credit figures (credits without
 * devices) open the portfolio filtered the same way; /dashboard opens the general page; no
 * horizontal overflow at 375 px; no serious or critical axe-core violations; no console problems.
 */
import type { Page } from 'playwright-core';
import { DASHBOARD_LABELS } from '../../shared/constants/dashboardLabels';
import { CREDIT_PAGE_LABELS } from '../../shared/constants/creditPageLabels';
import { DEVICE_ACTION } from '../../shared/constants/deviceActions';
import { DEVICE_DETAIL_LABELS } from '../../shared/constants/deviceDetailLabels';
import { INVENTORY_LABELS } from '../../shared/constants/inventoryLabels';
import { PATHS } from '../../shared/constants/routes';
import { addDays, todayIn } from '../../shared/credits';
import { CreditsService } from '../../server/credits';
import { seriousViolations } from '../helpers/axe';
import { collectProblems, describeWithBrowser, waitForHydration } from '../helpers/browser';
import { insertDevices, insertGroup, setPendingCommand, testImei, type DeviceFixture } from '../helpers/inventoryFixtures';
import { ADMIN_EMAIL, NARROW, signIn, storedSession, usePortalBrowser, waitForLayout } from '../helpers/portalSession';

const C = DASHBOARD_LABELS.common;
const G = DASHBOARD_LABELS.general;
const A = DASHBOARD_LABELS.android;
const HOUR = 3_600_000;
const STUCK_IMEI = testImei(5_100);

describeWithBrowser('dashboards in Chromium', () => {
  const ctx = usePortalBrowser();
  /** Active devices whose lock the first test requests through the API (a smartphone and a TV). */
  let toLock: number[] = [];

  beforeAll(async () => {
    const db = ctx.portal.testDb.db;
    const group = await insertGroup(db, 'Sucursal Tablero');
    const phone = (f: DeviceFixture): DeviceFixture => ({
      deviceType: 1,
      brand: 'Samsung',
      model: 'Galaxy A15',
      osVersion: '14',
      simCarrier: 'Telcel',
      ...f,
    });
    const tv = (f: DeviceFixture): DeviceFixture => ({
      deviceType: 2,
      brand: 'Hisense',
      model: '55A6',
      osVersion: '11',
      agentVersion: '1.0.0',
      ...f,
    });
    const active = await insertDevices(db, [
      ...Array.from({ length: 5 }, (_, i) => phone({ imei: testImei(5_000 + i), groupId: group, agentVersion: '5.3.0' })),
      ...Array.from({ length: 3 }, (_, i) => tv({ imei: testImei(5_010 + i) })),
    ]);
    await insertDevices(db, [
      ...Array.from({ length: 2 }, (_, i) => phone({ imei: testImei(5_020 + i), lockState: 'locked', agentVersion: '5.2.0' })),
      phone({ imei: testImei(5_030), lastSeenAt: new Date(Date.now() - 200 * HOUR) }),
      phone({ imei: testImei(5_040), lifecycle: 'released', agentVersion: '5.3.0' }),
      ...Array.from({ length: 2 }, (_, i) => phone({ imei: testImei(5_050 + i), lifecycle: 'pre_enrolled' })),
    ]);
    // A command the device has not answered for 30 hours: the stuck-command board lists it.
    const [stuckDevice] = await insertDevices(db, [tv({ imei: STUCK_IMEI })]);
    const command = await setPendingCommand(db, stuckDevice!, DEVICE_ACTION.UPDATE_APP_MACRO);
    await db.query(
      `UPDATE device_commands SET requested_at = now() - interval '30 hours', deliver_after = now() - interval '30 hours' WHERE id = $1`,
      [command],
    );
    toLock = [active[0]!, active[5]!];
    // Credits without devices (the policy has nothing to lock): two overdue 8 to 30 days, one 31 or more, one up to date.
    const zone = ctx.portal.config.companyTimeZone;
    const credits = new CreditsService(db, {
      timeZone: zone,
      inventory: { offlineAfterHours: ctx.portal.config.deviceOfflineAfterHours, now: () => new Date() },
    });
    const today = todayIn(zone, new Date());
    const system = { adminId: null, email: 'prueba', ip: null, requestId: null };
    for (const [reference, days] of [
      ['E2E-DASH-1', -10],
      ['E2E-DASH-2', -20],
      ['E2E-DASH-3', -40],
      ['E2E-DASH-4', 5],
    ] as const) {
      await credits.put(system, reference, {
        customerName: 'Ana Pérez',
        customerPhone: null,
        currency: 'MXN',
        cancelled: false,
        imeis: [],
        installments: [{ number: 1, dueDate: addDays(today, days), amount: 100_000 }],
      });
    }
  });

  /** The numbers of the general dashboard's cards, as shown. */
  async function cardValues(page: Page): Promise<Record<string, string>> {
    const keys = ['devices', 'smartphones', 'tvs', 'locked', 'offline', 'in-flight', 'released'];
    return Object.fromEntries(await Promise.all(keys.map(async (k) => [k, await page.getByTestId(`kpi-${k}-value`).innerText()])));
  }

  /** Waits for the devices list to say it holds `total` devices. */
  async function listTotal(page: Page, total: number): Promise<void> {
    await waitForLayout(page);
    const expected = INVENTORY_LABELS.devices.pageOf(1, 1, total, false);
    await page
      .getByText(expected, { exact: true })
      .waitFor({ timeout: 10_000 })
      .catch(async (err: unknown) => {
        // Say what the list shows instead.
        const shown = await page.getByText(/^Página \d/).allInnerTexts();
        throw new Error(`${page.url()}: expected '${expected}', the list shows ${JSON.stringify(shown)}`, { cause: err });
      });
  }

  async function openDashboard(page: Page, path: string): Promise<void> {
    await page.goto(`${ctx.portal.url}${path}`);
    await waitForHydration(page);
    await waitForLayout(page);
  }

  test('general: the seeded numbers, each card opens the list with as many devices, charts and their tables, the stuck command; accessible', async () => {
    const page = await ctx.freshPage({ bypassCSP: true });
    const problems = collectProblems(page);
    await signIn(page, ctx.portal.url, ADMIN_EMAIL, undefined, { landing: PATHS.dashboardGeneral });

    // Two locks requested through the API, as the portal requests them.
    const session = await storedSession(page, ctx.portal.clientId);
    for (const id of toLock) {
      const res = await fetch(`${ctx.portal.url}/api/v5/devices/${id}/actions`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', AccessToken: session.accessToken!, IdToken: session.idToken!, username: session.username! },
        body: JSON.stringify({ action: DEVICE_ACTION.LOCK, lockType: 'PorCredito' }),
      });
      expect(res.status).toBeLessThan(300);
    }

    await openDashboard(page, PATHS.dashboard);
    await page.waitForURL((u) => u.pathname === PATHS.dashboardGeneral);
    await page.getByTestId('kpi-devices-value').waitFor();
    // Locked: the two locked devices and the two being locked.
    expect(await cardValues(page)).toEqual({ devices: '13', smartphones: '9', tvs: '4', locked: '4', offline: '1', 'in-flight': '3', released: '1' });
    expect(await page.getByTestId('kpi-devices').innerText()).toContain(G.preEnrolled(2));
    expect(await page.getByTestId('kpi-in-flight').innerText()).toContain(G.pendingCommands(3));
    expect(await page.getByTestId('kpi-released').innerText()).toContain(G.releasedTotal(1));
    expect(await page.getByTestId('dashboard-updated').innerText()).toMatch(/^Actualizado: /);

    // The charts draw (a canvas named by its numbers); axe over the whole page.
    const byStatus = page.getByTestId('chart-by-status');
    const canvas = byStatus.locator('canvas[role="img"]');
    await canvas.waitFor();
    expect(await canvas.getAttribute('aria-label')).toContain('Bloqueado 2');
    expect(await canvas.evaluate((c) => (c as HTMLCanvasElement).width > 0)).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);

    // The same numbers as a table.
    const toTable = byStatus.getByRole('button', { name: C.showTable, exact: true });
    await toTable.click();
    expect(await toTable.getAttribute('aria-pressed')).toBe('true');
    const statusRows = await byStatus
      .getByTestId('chart-by-status-table')
      .locator('tbody tr')
      .evaluateAll((rows) => rows.map((r) => Array.from(r.querySelectorAll('td')).map((td) => td.textContent?.trim())));
    expect(statusRows).toEqual(
      expect.arrayContaining([
        ['Bloqueado', '2'],
        ['Bloqueando', '2'],
        ['Sin conexión', '1'],
        ['Liberado', '1'],
      ]),
    );
    expect(await seriousViolations(page)).toEqual([]);
    await byStatus.getByRole('button', { name: C.showChart, exact: true }).click();
    await canvas.waitFor();

    // The stuck command: its device's detail opens from the board.
    const board = page.getByTestId('stuck-commands');
    expect(await board.getByTestId('stuck-commands-total').innerText()).toBe('1');
    await board.getByRole('link', { name: G.stuck.deviceLink(STUCK_IMEI), exact: true }).click();
    await page.getByRole('dialog', { name: DEVICE_DETAIL_LABELS.detail.title(STUCK_IMEI), exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe(PATHS.devices);

    expect(problems).toEqual([]);
  }, 90_000);

  // After the first test's two locks (the tests of a file run in order).
  test('each card opens the devices list it counts: the list holds as many devices as the card says', async () => {
    const page = await ctx.freshPage();
    const problems = collectProblems(page);
    await signIn(page, ctx.portal.url, ADMIN_EMAIL, undefined, { landing: PATHS.dashboardGeneral });
    const cards: [string, number, Record<string, unknown>][] = [
      ['kpi-devices', 13, {}],
      ['kpi-smartphones', 9, { deviceType: '1' }],
      ['kpi-tvs', 4, { deviceType: '2' }],
      // Every locked state: Bloqueado and Bloqueando (the card says so).
      ['kpi-locked', 4, { locked: 'true' }],
      ['kpi-in-flight', 3, { inFlight: 'true' }],
      // This month's releases: released since the month's first instant (the answer's monthStart).
      ['kpi-released', 1, { status: '9', releasedFrom: expect.stringMatching(/^\d{4}-\d{2}-01T/) }],
      ['kpi-offline', 1, { status: '20' }],
    ];
    for (const [card, total, query] of cards) {
      await openDashboard(page, PATHS.dashboardGeneral);
      await page.getByTestId(card).getByRole('link').first().click();
      await page.waitForURL((u) => u.pathname === PATHS.devices);
      expect({ card, query: Object.fromEntries(new URL(page.url()).searchParams) }).toEqual({ card, query });
      await listTotal(page, total);
    }
    expect(problems).toEqual([]);
  }, 90_000);

  test('credits: the overdue count and a bucket of the chart open the portfolio filtered the same way, with as many credits', async () => {
    const page = await ctx.freshPage();
    const problems = collectProblems(page);
    await signIn(page, ctx.portal.url, ADMIN_EMAIL, undefined, { landing: PATHS.dashboardGeneral });
    const portfolioTotal = async (query: Record<string, string>, total: number) => {
      await page.waitForURL((u) => u.pathname === PATHS.creditPortfolio);
      expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual(query);
      await page.getByText(CREDIT_PAGE_LABELS.portfolio.pageOf(1, 1, total), { exact: true }).waitFor({ timeout: 10_000 });
    };

    await openDashboard(page, PATHS.dashboardGeneral);
    expect(await page.getByTestId('kpi-credits-overdue-value').innerText()).toBe('3');
    await page.getByTestId('kpi-credits-overdue').getByRole('link').click();
    await portfolioTotal({ state: 'overdue' }, 3);

    await openDashboard(page, PATHS.dashboardGeneral);
    await page.getByTestId('overdue-bucket-8-30').click();
    await portfolioTotal({ overdue: '8-30' }, 2);
    expect(problems).toEqual([]);
  }, 90_000);

  test('android: versions, models, agent versions with links to the devices they count; tables; accessible', async () => {
    const page = await ctx.freshPage({ bypassCSP: true });
    const problems = collectProblems(page);
    await signIn(page, ctx.portal.url, ADMIN_EMAIL, undefined, { landing: PATHS.dashboardGeneral });
    await openDashboard(page, PATHS.dashboardAndroid);
    const os = page.getByTestId('chart-os-versions');
    await os.locator('canvas[role="img"]').waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await os.getByRole('button', { name: C.showTable, exact: true }).click();
    const osRows = await os
      .locator('tbody tr')
      .evaluateAll((rows) => rows.map((r) => Array.from(r.querySelectorAll('td')).map((td) => td.textContent?.trim())));
    // Live devices running the agent (released and pre-enrolled ones are not): 8 smartphones on 14, 4 TVs on 11.
    expect(osRows).toEqual([
      ['14', '8', '0', '8'],
      ['11', '0', '4', '4'],
    ]);

    const phones = page.getByTestId('agent-versions-1');
    const versionRows = await phones
      .locator('tbody tr')
      .evaluateAll((rows) => rows.map((r) => Array.from(r.querySelectorAll('td')).map((td) => td.textContent?.trim())));
    expect(versionRows).toEqual(
      expect.arrayContaining([
        [expect.stringMatching(/^5\.3\.0/), '5'],
        [expect.stringMatching(/^5\.2\.0/), '2'],
        [C.noData, '1'],
      ]),
    );
    expect(await seriousViolations(page)).toEqual([]);

    await phones.getByRole('link', { name: A.versionLink('5.2.0'), exact: true }).click();
    await page.waitForURL((u) => u.pathname === PATHS.devices);
    expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({ deviceType: '1', agentVersion: '5.2.0' });
    await listTotal(page, 2);
    expect(problems).toEqual([]);
  });

  test('375 px wide: cards and charts fit, no horizontal scrolling, on both dashboards', async () => {
    const page = await ctx.freshPage({ viewport: NARROW, bypassCSP: true });
    const problems = collectProblems(page);
    await signIn(page, ctx.portal.url, ADMIN_EMAIL, undefined, { landing: PATHS.dashboardGeneral });
    for (const path of [PATHS.dashboardGeneral, PATHS.dashboardAndroid]) {
      await openDashboard(page, path);
      await page.locator('canvas[role="img"]').first().waitFor();
      // Charts resize on their container's size: give them a frame.
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const overflow = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: document.documentElement.clientWidth }));
      expect({ path, fits: overflow.scroll <= overflow.width, ...overflow }).toEqual({ path, fits: true, ...overflow });
      expect(await seriousViolations(page)).toEqual([]);
    }
    expect(problems).toEqual([]);
  });
});
