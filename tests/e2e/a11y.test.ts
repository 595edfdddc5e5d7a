/**
 * Accessibility in Chromium with axe-core: the sign-in page, the signed-in layout, the account
 * page and Conciliación have no violation of impact 'serious' or 'critical'.
 */
import { MESSAGES } from '../../shared/messages';
import { seriousViolations } from '../helpers/axe';
import { describeWithBrowser, waitForHydration } from '../helpers/browser';
import { ADMIN_EMAIL, signIn, usePortalBrowser, waitForLayout } from '../helpers/portalSession';

describeWithBrowser('accessibility (axe-core)', () => {
  const ctx = usePortalBrowser();
  // The portal's CSP allows same-origin and nonce-carrying scripts only; axe-core is injected
  // as an inline script, so these contexts bypass the CSP. The pages themselves are unchanged.
  const axePage = () => ctx.freshPage({ bypassCSP: true });

  test('/login', async () => {
    const page = await axePage();
    await page.goto(`${ctx.portal.url}/login`);
    await waitForHydration(page);
    await page.getByRole('button', { name: MESSAGES.loginSubmit, exact: true }).waitFor();
    expect({ where: '/login', violations: await seriousViolations(page) }).toEqual({ where: '/login', violations: [] });
  });

  test('the signed-in layout (/dashboard/general)', async () => {
    const page = await axePage();
    await signIn(page, ctx.portal.url, ADMIN_EMAIL, undefined, { landing: '/dashboard/general' });
    await page.getByTestId('app-version').filter({ hasText: 'Macrolock (3.4.1)' }).waitFor();
    await page.getByTestId('portal-version').filter({ hasText: ctx.portal.portalVersion }).waitFor();
    expect({ where: '/dashboard/general', violations: await seriousViolations(page) }).toEqual({ where: '/dashboard/general', violations: [] });
  });

  test('/account', async () => {
    const page = await axePage();
    await signIn(page, ctx.portal.url, ADMIN_EMAIL);
    await page.goto(`${ctx.portal.url}/account`);
    await waitForLayout(page);
    await page.getByRole('main').getByRole('heading', { level: 1, name: 'Mi Perfil', exact: true }).waitFor();
    await page.getByTestId('account-modules').waitFor();
    expect({ where: '/account', violations: await seriousViolations(page) }).toEqual({ where: '/account', violations: [] });
  });

  test('/credits/reconciliation', async () => {
    const page = await axePage();
    await signIn(page, ctx.portal.url, ADMIN_EMAIL);
    await page.goto(`${ctx.portal.url}/credits/reconciliation`);
    await waitForLayout(page);
    await page.getByRole('main').getByRole('heading', { level: 1, name: 'Conciliación', exact: true }).waitFor();
    // The list answered: its rows, or its empty state.
    await page.locator('[data-testid^="reconciliation-row-"], [data-testid="reconciliation-empty"]').first().waitFor();
    expect({ where: '/credits/reconciliation', violations: await seriousViolations(page) }).toEqual({
      where: '/credits/reconciliation',
      violations: [],
    });
  });
});
