/**
 * The credit pages in Chromium: a credit put through the credits service (as the lender's PUT
 * does) shows in Cartera de créditos with its figures; the overdue filter narrows the list and its
 * CSV export; a row opens the credit's page, where Registrar pago changes the amounts at once; the
 * device it finances links to its detail, whose Crédito panel shows the credit. axe-core finds no
 * serious or critical violation on the portfolio, the credit's page, the payment dialog and the
 * panel; no console problem on the way, the credit's URL loaded afresh included.
 */
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { CREDIT_LABELS } from '../../shared/constants/creditLabels';
import { CREDIT_PAGE_LABELS as L } from '../../shared/constants/creditPageLabels';
import { FIELD_LABELS } from '../../shared/constants/fieldLabels';
import { addDays, todayIn } from '../../shared/credits';
import { CreditsService } from '../../server/credits';
import { seriousViolations } from '../helpers/axe';
import { collectProblems, describeWithBrowser } from '../helpers/browser';
import { insertDevices, testImei } from '../helpers/inventoryFixtures';
import { ADMIN_EMAIL, signIn, toast, usePortalBrowser } from '../helpers/portalSession';

const PORTFOLIO = '/credits/portfolio';
const SYSTEM = { adminId: null, email: 'lender@demo.local', ip: null, requestId: null };

/** axe-core's findings on the page, labelled with where they were found. */
async function axeAt(page: Page, where: string) {
  expect({ where, violations: await seriousViolations(page) }).toEqual({ where, violations: [] });
}

describeWithBrowser('credit pages', () => {
  const ctx = usePortalBrowser();
  const imei = testImei(31, '35');

  beforeAll(async () => {
    const { db } = ctx.portal.testDb;
    const service = new CreditsService(db, {
      timeZone: ctx.portal.config.companyTimeZone,
      inventory: { offlineAfterHours: ctx.portal.config.deviceOfflineAfterHours, now: () => new Date() },
    });
    const today = todayIn(ctx.portal.config.companyTimeZone, new Date());
    await insertDevices(db, [{ imei, customerName: 'Ana Pérez', creditReference: 'E2E-CR-1' }]);
    // Ten days overdue (8 to 30), the next installment due this week.
    await service.put(SYSTEM, 'E2E-CR-1', {
      customerName: 'Ana Pérez',
      customerPhone: null,
      currency: 'MXN',
      cancelled: false,
      imeis: [imei],
      installments: [
        { number: 1, dueDate: addDays(today, -10), amount: 100_000 },
        { number: 2, dueDate: addDays(today, 3), amount: 100_000 },
        { number: 3, dueDate: addDays(today, 33), amount: 100_000 },
      ],
    });
    // Up to date: the first installment due in twenty days.
    await service.put(SYSTEM, 'E2E-CR-2', {
      customerName: 'Luis Gómez',
      customerPhone: null,
      currency: 'MXN',
      cancelled: false,
      imeis: [],
      installments: [{ number: 1, dueDate: addDays(today, 20), amount: 50_000 }],
    });
  });

  test('portfolio, filter and export, a credit, Registrar pago, the device and its Crédito panel', async () => {
    const page = await ctx.freshPage({ bypassCSP: true });
    const problems = collectProblems(page);
    await signIn(page, ctx.portal.url, ADMIN_EMAIL);
    await page.goto(`${ctx.portal.url}${PORTFOLIO}`);
    const main = page.getByRole('main');
    await main.getByRole('heading', { level: 1, name: 'Cartera de créditos', exact: true }).waitFor();

    const overdueRow = page.getByTestId('credit-row-E2E-CR-1');
    const currentRow = page.getByTestId('credit-row-E2E-CR-2');
    await overdueRow.waitFor();
    await currentRow.waitFor();
    expect(await overdueRow.getByTestId('credit-state').innerText()).toBe(`${CREDIT_LABELS.states.overdue} · ${L.daysOverdue(10)}`);
    expect(await overdueRow.innerText()).toContain('1,000.00 MXN');
    expect(await overdueRow.innerText()).toContain('3,000.00 MXN');
    expect(await currentRow.getByTestId('credit-state').innerText()).toBe(CREDIT_LABELS.states.current);
    await page.getByTestId(`credit-figure-${L.portfolio.overdue}`).filter({ hasText: /^1$/ }).waitFor();
    await axeAt(page, PORTFOLIO);

    // The 8-30 days bucket: the overdue credit alone, in the URL and in the export.
    await page.getByRole('combobox', { name: L.portfolio.filterOverdue }).selectOption('8-30');
    await page.waitForURL((u) => u.searchParams.get('overdue') === '8-30');
    await currentRow.waitFor({ state: 'detached' });
    await overdueRow.waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: L.portfolio.export }).click()]);
    const csv = fs.readFileSync((await download.path())!, 'utf8');
    expect(csv).toContain('E2E-CR-1');
    expect(csv).not.toContain('E2E-CR-2');
    await toast(page, L.portfolio.exported).waitFor();

    // The credit's page, from the row (its chunk fetched once the list was idle, before the click); the way back keeps the filter.
    await page.waitForFunction(() => performance.getEntriesByType('resource').some((e) => /\/CreditDetailPage-\w+\.js$/.test(e.name)));
    await overdueRow.getByRole('link', { name: L.portfolio.open('E2E-CR-1') }).click();
    await page.waitForURL((u) => u.searchParams.get('credit') === 'E2E-CR-1' && u.searchParams.get('overdue') === '8-30');
    const detail = page.getByTestId('credit-detail');
    await detail.waitFor();
    const figures = page.getByTestId('credit-figures');
    expect(await figures.innerText()).toContain('Ana Pérez');
    expect(await page.getByTestId('credit-schedule').locator('tbody tr').count()).toBe(3);
    await axeAt(page, `${PORTFOLIO}?credit=E2E-CR-1`);

    // Registrar pago: the overdue installment paid, the amounts change without a reload.
    await page.getByRole('button', { name: L.detail.register }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel(FIELD_LABELS.payments.amount).waitFor();
    await axeAt(page, 'Registrar pago');
    await dialog.getByLabel(FIELD_LABELS.payments.amount).fill('1000');
    await dialog.getByRole('button', { name: 'Guardar', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await toast(page, L.payment.registered('1,000.00 MXN', 'E2E-CR-1')).waitFor();
    await detail.getByTestId('credit-state').filter({ hasText: CREDIT_LABELS.states.current }).waitFor();
    expect(await figures.innerText()).toMatch(/Monto vencido\s*0\.00 MXN/);
    expect(await figures.innerText()).toMatch(/Saldo\s*2,000\.00 MXN/);
    const payment = page.getByTestId('credit-payments').locator('tbody tr');
    expect(await payment.count()).toBe(1);
    expect(await payment.innerText()).toContain(CREDIT_LABELS.paymentSources.portal);
    expect(await payment.innerText()).toContain('portal-');

    // The device it finances: its detail, with the Crédito panel linking back.
    await page.getByRole('link', { name: L.detail.openDevice(imei) }).click();
    await page.waitForURL((u) => u.pathname === '/inventory-management/devices' && u.searchParams.has('device'));
    const panel = page.getByTestId('device-credit-panel');
    await panel.getByTestId('device-credit').waitFor();
    expect(await panel.getByTestId('credit-state').innerText()).toBe(CREDIT_LABELS.states.current);
    expect(await panel.innerText()).toContain('1,000.00 MXN');
    await axeAt(page, 'Crédito panel');
    await panel.getByRole('link', { name: L.devicePanel.open('E2E-CR-1') }).click();
    await page.waitForURL((u) => u.pathname === PORTFOLIO && u.searchParams.get('credit') === 'E2E-CR-1');
    await page.getByTestId('credit-detail').waitFor();
    // The credit's URL loaded as it is (server render, then hydration) opens the same page.
    await page.reload();
    await page.getByTestId('credit-detail').getByTestId('credit-state').filter({ hasText: CREDIT_LABELS.states.current }).waitFor();

    expect(problems).toEqual([]);
  }, 120_000);
});
