/**
 * Política de cobranza in Chromium: reached from the Créditos menu, the global policy's values
 * load; a device group overrides the lock day (its marker says 'Personalizado para este grupo'
 * with the global value, the other keys stay 'Heredado de Global'), the save survives a reload,
 * Global lists the group among its overrides, and 'Usar valor global' inherits the value again.
 * axe-core finds no serious or critical violation on the global and the group's forms; no
 * console problem on the way.
 */
import type { Locator, Page } from 'playwright-core';
import { AGENT_SETTINGS_LABELS } from '../../shared/constants/agentSettingsLabels';
import { COLLECTION_POLICY_LABELS } from '../../shared/constants/collectionPolicyLabels';
import { FIELD_LABELS } from '../../shared/constants/fieldLabels';
import { PATHS } from '../../shared/constants/routes';
import { SPEC_TEXT } from '../../shared/messages';
import { seriousViolations } from '../helpers/axe';
import { collectProblems, describeWithBrowser, waitForHydration } from '../helpers/browser';
import { insertGroup } from '../helpers/inventoryFixtures';
import { ADMIN_EMAIL, dismissToasts, sidebar, signIn, toast, usePortalBrowser, waitForLayout } from '../helpers/portalSession';

const F = AGENT_SETTINGS_LABELS.form;
const P = COLLECTION_POLICY_LABELS;
const CP = FIELD_LABELS.collectionPolicy;
const TITLE = 'Política de cobranza';

describeWithBrowser('collection policy page in Chromium', () => {
  const ctx = usePortalBrowser();

  async function settled(page: Page): Promise<Locator> {
    await waitForHydration(page);
    await waitForLayout(page);
    const main = page.getByRole('main');
    await main.getByRole('heading', { level: 1, name: TITLE, exact: true }).waitFor();
    await main.getByTestId('settings-form').waitFor();
    return main;
  }

  async function axeProblems(page: Page): Promise<string[]> {
    await dismissToasts(page);
    return seriousViolations(page);
  }

  const scopeState = (main: Locator, key: string) => main.getByTestId(`scope-state-${key}`);
  const lockDays = (main: Locator) => main.getByTestId('policy-lock').getByRole('spinbutton', { name: CP.lockDays, exact: true });

  test('a group overrides the lock day, keeps it across a reload, then inherits it again; axe on both scopes', async () => {
    const groupId = await insertGroup(ctx.portal.testDb.db, 'Grupo E2E Cobranza');
    const page = await ctx.freshPage({ bypassCSP: true });
    const problems = collectProblems(page);
    await signIn(page, ctx.portal.url, ADMIN_EMAIL);
    await waitForLayout(page);
    // From the menu: Créditos › Política de cobranza.
    await sidebar(page).getByRole('link', { name: TITLE, exact: true }).click();
    await page.waitForURL((u) => u.pathname === PATHS.collectionPolicy);
    let main = await settled(page);
    expect(await lockDays(main).inputValue()).toBe('7');
    expect(await main.getByTestId('policy-release').getByRole('combobox', { name: CP.release, exact: true }).inputValue()).toBe('approval');
    expect(await axeProblems(page)).toEqual([]);

    await main.getByLabel(AGENT_SETTINGS_LABELS.scope.label, { exact: true }).selectOption({ label: 'Grupo E2E Cobranza' });
    await page.waitForURL((u) => u.search === `?groupId=${groupId}`);
    await scopeState(main, 'lock').getByText(F.inherited, { exact: true }).waitFor();
    // Later than the ladder's last rung (day 5): the server refuses a lock before a rung.
    await lockDays(main).fill('10');
    await scopeState(main, 'lock').getByText(F.overridden, { exact: true }).waitFor();
    expect(await scopeState(main, 'lock').innerText()).toContain(F.inheritedValue(P.lockAt(P.days(7))));
    expect(await scopeState(main, 'reminders').innerText()).toBe(F.inherited);
    expect(await axeProblems(page)).toEqual([]);
    await main.getByRole('button', { name: SPEC_TEXT.save, exact: true }).click();
    await toast(page, P.saved).waitFor();
    await dismissToasts(page);

    await page.reload();
    main = await settled(page);
    expect(new URL(page.url()).search).toBe(`?groupId=${groupId}`);
    await scopeState(main, 'lock').getByText(F.overridden, { exact: true }).waitFor();
    expect(await lockDays(main).inputValue()).toBe('10');
    expect(await scopeState(main, 'hours').innerText()).toBe(F.inherited);
    expect(await main.getByTestId('group-override-count').innerText()).toBe(F.overriddenCount(1));

    // Global keeps its own value and lists the group among its overrides, a link to its scope.
    await main.getByLabel(AGENT_SETTINGS_LABELS.scope.label, { exact: true }).selectOption({ label: AGENT_SETTINGS_LABELS.scope.global });
    await page.waitForURL((u) => u.search === '');
    await main.getByTestId('settings-overrides').getByRole('link', { name: 'Grupo E2E Cobranza', exact: true }).waitFor();
    expect(await lockDays(main).inputValue()).toBe('7');
    await main.getByTestId('settings-overrides').getByRole('link', { name: 'Grupo E2E Cobranza', exact: true }).click();
    await page.waitForURL((u) => u.search === `?groupId=${groupId}`);
    await scopeState(main, 'lock').getByText(F.overridden, { exact: true }).waitFor();

    // 'Usar valor global' inherits the lock again; saved, the group overrides nothing.
    await scopeState(main, 'lock')
      .getByRole('button', { name: F.backToGlobalOf(CP.lock), exact: true })
      .click();
    await scopeState(main, 'lock').getByText(F.inherited, { exact: true }).waitFor();
    expect(await lockDays(main).inputValue()).toBe('7');
    await main.getByRole('button', { name: SPEC_TEXT.save, exact: true }).click();
    await toast(page, P.saved).waitFor();
    expect(await main.getByTestId('group-override-count').innerText()).toBe(F.noOverrideYet);
    expect(problems).toEqual([]);
  }, 120_000);
});
