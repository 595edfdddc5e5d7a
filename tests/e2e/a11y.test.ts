/**
 * Accessibility in Chromium with axe-core: the sign-in page, the signed-in layout and the
 * account page have no violation of impact 'serious' or 'critical'.
 */
import type { Page } from 'playwright-core';
import { MESSAGES } from '../../shared/messages';
import { announceNoBrowser, chromePath, waitForHydration } from '../helpers/browser';
import { ADMIN_EMAIL, signIn, usePortalBrowser, waitForLayout } from '../helpers/portalSession';

const hasBrowser = Boolean(chromePath());
if (!hasBrowser) announceNoBrowser();
const describeWithBrowser = hasBrowser ? describe : describe.skip;

const AXE_PATH = require.resolve('axe-core/axe.min.js');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  helpUrl: string;
  nodes: { target: unknown[]; failureSummary?: string; html: string }[];
}

/** Runs axe-core on the whole page; the violations of impact 'serious' or 'critical'. */
async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  await page.addScriptTag({ path: AXE_PATH });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, opts: object): Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      helpUrl: v.helpUrl,
      nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary, html: n.html.slice(0, 300) })),
    }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Fails with the violations spelled out (rule, help, the elements and why). */
function expectNoSerious(where: string, violations: AxeViolation[]): void {
  if (violations.length) {
    const text = violations
      .map((v) => `[${v.impact}] ${v.id}: ${v.help} (${v.helpUrl})\n${v.nodes.map((n) => `    ${JSON.stringify(n.target)} ${n.html}\n      ${(n.failureSummary ?? '').replace(/\n/g, '\n      ')}`).join('\n')}`)
      .join('\n');
    console.log(`axe-core on ${where}:\n${text}`);
  }
  expect({ where, violations: violations.map((v) => `${v.id}: ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`) }).toEqual({ where, violations: [] });
}

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
    expectNoSerious('/login', await seriousViolations(page));
  });

  test('the signed-in layout (/dashboard/general)', async () => {
    const page = await axePage();
    await signIn(page, ctx.portal.url, ADMIN_EMAIL, undefined, { landing: '/dashboard/general' });
    await page.getByTestId('app-version').filter({ hasText: 'Macrolock (3.4.1)' }).waitFor();
    await page.getByTestId('portal-version').filter({ hasText: ctx.portal.portalVersion }).waitFor();
    expectNoSerious('/dashboard/general', await seriousViolations(page));
  });

  test('/account', async () => {
    const page = await axePage();
    await signIn(page, ctx.portal.url, ADMIN_EMAIL);
    await page.goto(`${ctx.portal.url}/account`);
    await waitForLayout(page);
    await page.getByRole('main').getByRole('heading', { level: 1, name: 'Mi Perfil', exact: true }).waitFor();
    await page.getByTestId('account-modules').waitFor();
    expectNoSerious('/account', await seriousViolations(page));
  });
});
