/**
 * Importar CSV of Cartera de créditos in Chromium: a schedules file saved the way Excel in Mexico
 * saves «CSV (delimitado por comas)» (Windows-1252, so the accents of the customer's name are
 * single bytes, with DD/MM/YYYY dates and "$1,250.00" amounts) is previewed, changes nothing until
 * Aplicar el archivo, then creates the credit, which the portfolio lists with the name intact.
 * axe-core finds no serious or critical violation in the dialog; no console problem on the way.
 */
import iconv from 'iconv-lite';
import type { Page } from 'playwright-core';
import { CREDIT_PAGE_LABELS as L } from '../../shared/constants/creditPageLabels';
import { addDays, todayIn } from '../../shared/credits';
import { seriousViolations } from '../helpers/axe';
import { collectProblems, describeWithBrowser } from '../helpers/browser';
import { ADMIN_EMAIL, signIn, toast, usePortalBrowser } from '../helpers/portalSession';
import { CSV_IMPORT_LABELS } from '../../shared/constants/csvImportLabels';

const PORTFOLIO = '/credits/portfolio';
const REFERENCE = 'E2E-IMP-1';
const CUSTOMER = 'José Muñoz Peña';

/** DD/MM/YYYY, as Mexican spreadsheets write dates. */
const mx = (date: string) => `${date.slice(8, 10)}/${date.slice(5, 7)}/${date.slice(0, 4)}`;

async function axeAt(page: Page, where: string) {
  expect({ where, violations: await seriousViolations(page) }).toEqual({ where, violations: [] });
}

describeWithBrowser('credit CSV import', () => {
  const ctx = usePortalBrowser();

  test('a Windows-1252 schedules file with an accented customer: preview, apply, listed', async () => {
    const { db } = ctx.portal.testDb;
    const today = todayIn(ctx.portal.config.companyTimeZone, new Date());
    const page = await ctx.freshPage({ bypassCSP: true });
    const problems = collectProblems(page);
    await signIn(page, ctx.portal.url, ADMIN_EMAIL);
    await page.goto(`${ctx.portal.url}${PORTFOLIO}`);
    await page.getByRole('main').getByRole('heading', { level: 1, name: 'Cartera de créditos', exact: true }).waitFor();

    await page.getByRole('button', { name: L.csvImport.open, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: L.csvImport.title });
    await dialog.waitFor();
    expect(await dialog.getByRole('radio', { name: L.csvImport.kinds.schedules }).isChecked()).toBe(true);

    const file = [
      'referencia,cliente,telefono,moneda,imeis,numero,vencimiento,monto',
      `${REFERENCE},${CUSTOMER},55 1234 5678,MXN,,1,${mx(addDays(today, 10))},"$1,250.00"`,
      `${REFERENCE},,,,,2,${mx(addDays(today, 40))},"$1,250.00"`,
    ].join('\r\n');
    const bytes = iconv.encode(file, 'windows1252');
    expect(bytes.includes(0xf1)).toBe(true); // ñ as one Windows-1252 byte
    await dialog.getByLabel(CSV_IMPORT_LABELS.file, { exact: true }).setInputFiles({ name: 'calendarios.csv', mimeType: 'text/csv', buffer: bytes });

    const preview = dialog.getByTestId('credit-import-preview');
    await preview.waitFor();
    expect(await preview.getByTestId('csv-counts').innerText()).toContain('Windows-1252');
    const credits = preview.getByTestId('credit-import-schedules');
    expect(await credits.locator('tbody tr').innerText()).toContain(CUSTOMER);
    expect(await credits.locator('tbody tr').innerText()).toContain('2,500.00 MXN');
    await axeAt(page, 'Importar CSV: vista previa');
    // The preview changed nothing.
    expect((await db.query('SELECT 1 FROM credits WHERE reference = $1', [REFERENCE])).rows).toHaveLength(0);

    await preview.getByRole('button', { name: L.csvImport.apply, exact: true }).click();
    const applied = L.csvImport.appliedSchedules(1, 0);
    await dialog.getByTestId('csv-result').getByText(applied, { exact: true }).waitFor();
    await toast(page, applied).waitFor();
    const stored = await db.query<{ customer_name: string }>('SELECT customer_name FROM credits WHERE reference = $1', [REFERENCE]);
    expect(stored.rows.map((r) => r.customer_name)).toEqual([CUSTOMER]);

    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    const row = page.getByTestId(`credit-row-${REFERENCE}`);
    await page.getByRole('searchbox', { name: L.portfolio.search }).fill(REFERENCE);
    await row.waitFor();
    expect(await row.innerText()).toContain(CUSTOMER);

    expect(problems).toEqual([]);
  }, 120_000);
});
