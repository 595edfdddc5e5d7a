/**
 * The integration API's reference in Chromium, under the portal's CSP (no bypass): the page
 * loads the public OpenAPI document, lists the operations (createCommand with its path), opens
 * the request body of createCommand with the keyboard, links from its contents to an operation;
 * no console problems (CSP violations included); then, with the CSP bypassed so that axe-core can
 * be injected, no serious or critical axe-core violations and no horizontal scrolling at 375 px; /api/integration/v1/openapi.json answers the document without
 * a key.
 */
import type { Page } from 'playwright-core';
import { API_REFERENCE_LABELS as L } from '../../shared/constants/apiReferenceLabels';
import { PATHS } from '../../shared/constants/routes';
import { seriousViolations } from '../helpers/axe';
import { collectProblems, describeWithBrowser } from '../helpers/browser';
import { ADMIN_EMAIL, NARROW, WIDE, signIn, usePortalBrowser, waitForLayout } from '../helpers/portalSession';

describeWithBrowser('the API reference page in Chromium', () => {
  const ctx = usePortalBrowser();

  async function openReference(page: Page): Promise<void> {
    await signIn(page, ctx.portal.url, ADMIN_EMAIL);
    await page.goto(`${ctx.portal.url}${PATHS.apiReference}`);
    await waitForLayout(page);
    await page.getByTestId('api-operation').first().waitFor({ timeout: 15_000 });
  }

  test('the document is public JSON: OpenAPI 3.1.0 with the integration routes', async () => {
    const res = await fetch(`${ctx.portal.url}/api/integration/v1/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const doc = (await res.json()) as { openapi: string; paths: Record<string, unknown>; servers: { url: string }[] };
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toContain('/commands');
    expect(doc.servers[0]!.url).toBe(`${ctx.portal.url}/api/integration/v1`);
  });

  test('under the CSP: operations, createCommand and its request body, in-page links; no CSP or console problems', async () => {
    const page = await ctx.freshPage();
    const problems = collectProblems(page);
    await openReference(page);

    const command = page.locator('[data-testid="api-operation"][data-operation="createCommand"]');
    await command.getByRole('heading', { name: 'Actuar sobre un dispositivo' }).waitFor();
    expect(await command.locator('code', { hasText: /^\/commands$/ }).count()).toBe(1);
    expect(await page.getByTestId('api-base-url').innerText()).toBe(`${ctx.portal.url}/api/integration/v1`);

    // The contents link to the operation.
    await page
      .getByRole('navigation', { name: L.contents })
      .getByRole('link', { name: /Actuar sobre un dispositivo/ })
      .click();
    await page.waitForURL((u) => u.hash === '#op-createCommand');

    // The request body, opened with the keyboard.
    const toggle = command.getByRole('button', { name: L.showRequestBody });
    await toggle.focus();
    await page.keyboard.press('Enter');
    const body = command.getByTestId('request-body');
    await body.waitFor();
    expect(await command.getByRole('button', { name: L.hideRequestBody }).getAttribute('aria-expanded')).toBe('true');
    const fields = await body.getByTestId('schema-field').evaluateAll((els) => els.map((e) => e.getAttribute('data-field')));
    expect(fields).toEqual(expect.arrayContaining(['device', 'imei', 'creditReference', 'payload', 'action', 'lockType']));
    expect(await body.getByText('0 — Bloquear').count()).toBe(1);

    // The webhook events and how to verify their signature.
    expect(await page.getByTestId('api-webhook').count()).toBeGreaterThan(0);
    await page.getByRole('heading', { name: L.verifyTitle }).waitFor();
    expect(problems).toEqual([]);
  });

  for (const [name, viewport] of [
    ['wide', WIDE],
    ['375 px wide', NARROW],
  ] as const) {
    test(`${name}: no serious axe-core violations with the request body open, no horizontal scrolling`, async () => {
      const page = await ctx.freshPage({ viewport, bypassCSP: true });
      const problems = collectProblems(page);
      await openReference(page);
      const command = page.locator('[data-testid="api-operation"][data-operation="createCommand"]');
      await command.getByRole('button', { name: L.showRequestBody }).click();
      await command.getByTestId('request-body').waitFor();
      const overflow = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: document.documentElement.clientWidth }));
      expect({ fits: overflow.scroll <= overflow.width, ...overflow }).toEqual({ fits: true, ...overflow });
      expect(await seriousViolations(page)).toEqual([]);
      expect(problems).toEqual([]);
    });
  }
});
