/**
 * The lender's integration pages in Chromium, as the administrator. 'Claves de API': a key
 * created from the page shows its secret once (gone once closed), works against the integration
 * API from outside the browser, and answers 401 after its revocation. 'Webhooks': a subscription
 * to a loopback receiver shows its signing secret once; a device's status change reaches the
 * receiver signed per Standard Webhooks (verified with the standardwebhooks package) and reads
 * 'Entregado' in the delivery log, and 'Reenviar' sends it again. Both pages fit 390 px and
 * 1366 px; every test ends without console problems; axe-core finds no serious or critical
 * violation on the pages and their dialogs.
 */
import type { Page } from 'playwright-core';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { createLogger } from '../../server/logger';
import { WebhookDispatcher } from '../../server/webhooks/webhookDispatcher';
import { FIELD_LABELS } from '../../shared/constants/fieldLabels';
import { INTEGRATION_LABELS } from '../../shared/constants/integrationLabels';
import { MENU, PATHS } from '../../shared/constants/routes';
import { INTEGRATION_BASE } from '../../shared/constants/apiPaths';
import { SPEC_TEXT } from '../../shared/messages';
import { INTEGRATION_MESSAGES as M } from '../../shared/areaMessages/integration';
import { seriousViolations } from '../helpers/axe';
import { collectProblems, describeWithBrowser, waitForHydration } from '../helpers/browser';
import { insertDevices, testImei } from '../helpers/inventoryFixtures';
import { ADMIN_EMAIL, dismissToasts, signIn, toast, usePortalBrowser, waitForLayout } from '../helpers/portalSession';
import { LogCapture } from '../helpers/testApp';
import { startReceiver, waitFor } from '../helpers/webhookReceiver';

const K = INTEGRATION_LABELS.apiKeys;
const W = INTEGRATION_LABELS.webhooks;
const C = INTEGRATION_LABELS.common;
const FK = FIELD_LABELS.apiKeys;
const FW = FIELD_LABELS.webhooks;
const titleOf = (path: string) => MENU.flatMap((m) => m.submodules).find((s) => s.path === path)!.title;
const LAPTOP = { width: 1366, height: 800 } as const;
const PHONE = { width: 390, height: 844 } as const;
const IMEI = testImei(7_001);

describeWithBrowser('API keys and webhooks pages in Chromium', () => {
  const ctx = usePortalBrowser();
  const db = () => ctx.portal.testDb.db;
  let deviceId: number;

  beforeAll(async () => {
    [deviceId] = (await insertDevices(db(), [{ imei: IMEI, creditReference: 'CR-E2E-1' }])) as [number];
  });

  /** Opens a signed-in page (the CSP bypassed for axe) and waits for its heading and its list. */
  async function openPage(path: string): Promise<{ page: Page; problems: string[] }> {
    const page = await ctx.freshPage({ bypassCSP: true, viewport: LAPTOP });
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

  async function axeProblems(page: Page): Promise<string[]> {
    await dismissToasts(page);
    return seriousViolations(page);
  }

  /** The message shown under a field (aria-invalid and its aria-describedby). */
  async function messageUnder(page: Page, label: string): Promise<string> {
    const field = page.getByRole('dialog').getByLabel(label, { exact: true });
    await field.and(page.locator('[aria-invalid="true"]')).waitFor();
    const ids = ((await field.getAttribute('aria-describedby')) ?? '').split(' ').filter(Boolean);
    return (await page.locator(`[id="${ids[0]}"]`).innerText()).trim();
  }

  /** Nothing wider than the window (at 390 px: the rows as cards, the dialogs inside). */
  async function expectFits(page: Page, width: number): Promise<void> {
    const fit = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      dialog: document.querySelector('.modal.show .modal-content')?.getBoundingClientRect().right ?? 0,
    }));
    expect(fit.page).toBeLessThanOrEqual(width);
    expect(fit.dialog).toBeLessThanOrEqual(width + 0.5);
  }

  const lookup = (secret: string) =>
    fetch(`${ctx.portal.url}${INTEGRATION_BASE}/devices?imei=${IMEI}`, { headers: { Authorization: `Bearer ${secret}` } });

  test('API key: created with its secret shown once, used from outside, revoked after the confirmation (401)', async () => {
    const { page, problems } = await openPage(PATHS.apiKeys);
    const main = page.getByRole('main');
    await main.getByTestId('api-keys-empty').filter({ hasText: K.empty }).waitFor();
    expect(await axeProblems(page)).toEqual([]);
    // The dialog's form is a chunk of its own, fetched once the page is idle: before any click.
    await page.waitForFunction(() => performance.getEntriesByType('resource').some((e) => /\/ApiKeyForm-\w+\.js$/.test(e.name)));

    await main.getByRole('button', { name: K.create, exact: true }).first().click();
    const dialog = page.getByRole('dialog', { name: K.createTitle, exact: true });
    await dialog.waitFor();
    await dialog.getByLabel(FK.name, { exact: true }).fill('ERP E2E');
    await dialog.getByLabel(FK.profileId, { exact: true }).selectOption({ label: 'Administrador' });
    await dialog.getByLabel(FK.allowedIps, { exact: true }).fill('203.0.113.10\n10.0.0.300');
    expect(await dialog.getByTestId('api-key-expires-help').innerText()).toBe(K.expiresHelpEmpty);
    await dialog.getByRole('button', { name: SPEC_TEXT.save, exact: true }).click();
    expect(await messageUnder(page, FK.allowedIps)).toBe(M.field.cidr(FK.allowedIps, '10.0.0.300'));
    expect(await axeProblems(page)).toEqual([]);
    // Any address: the test calls from 127.0.0.1.
    await dialog.getByLabel(FK.allowedIps, { exact: true }).fill('');
    await dialog.getByRole('button', { name: SPEC_TEXT.save, exact: true }).click();

    const shown = page.getByRole('dialog', { name: K.secretTitle, exact: true });
    await shown.waitFor();
    await dialog.waitFor({ state: 'detached' });
    const secret = await shown.getByTestId('api-key-secret').inputValue();
    expect(secret).toMatch(/^mlk_/);
    expect(await shown.innerText()).toContain(C.secretOnce);
    expect(await shown.getByTestId('api-key-curl').innerText()).toBe(
      `curl -H "Authorization: Bearer ${secret}" "${ctx.portal.url}${INTEGRATION_BASE}/devices?imei=..."`,
    );
    expect(await axeProblems(page)).toEqual([]);
    await shown.getByRole('button', { name: C.secretUnderstood, exact: true }).click();
    await shown.waitFor({ state: 'detached' });
    expect(await page.content()).not.toContain(secret);

    const row = main.locator('[data-testid^="api-key-row-"]', { hasText: 'ERP E2E' });
    await row.waitFor();
    const prefix = (await row.locator('code').innerText()).trim();
    expect(secret.startsWith(prefix)).toBe(true);
    expect(await row.getAttribute('data-state')).toBe('active');
    const text = await row.innerText();
    expect(text).toContain(K.states.active);
    expect(text).toContain(K.anyIp);
    expect(text).toContain(K.noExpiry);
    expect(text).toContain(K.neverUsed);
    expect(text).toContain(C.by(ADMIN_EMAIL));
    expect(await axeProblems(page)).toEqual([]);

    // The key works from outside the browser, and the list shows its use.
    const ok = await lookup(secret);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain(IMEI);
    await page.reload();
    await waitForLayout(page);
    await row.filter({ hasText: /desde \S/ }).waitFor();
    expect(await row.innerText()).not.toContain(K.neverUsed);

    // 390 px: the rows as cards, nothing wider than the window.
    await page.setViewportSize(PHONE);
    await expectFits(page, PHONE.width);
    await page.setViewportSize(LAPTOP);
    await expectFits(page, LAPTOP.width);

    // Revoke: the confirmation names it; Cancelar keeps it.
    const revoke = row.getByRole('button', { name: K.revokeOf('ERP E2E'), exact: true });
    await revoke.click();
    const confirm = page.getByRole('dialog', { name: K.revokeTitle, exact: true });
    await confirm.waitFor();
    expect(await confirm.innerText()).toContain(K.confirmRevoke('ERP E2E', prefix));
    expect(await axeProblems(page)).toEqual([]);
    await confirm.getByRole('button', { name: SPEC_TEXT.cancel, exact: true }).click();
    await confirm.waitFor({ state: 'detached' });
    expect((await lookup(secret)).status).toBe(200);
    await revoke.click();
    await confirm.getByRole('button', { name: K.revoke, exact: true }).click();
    await toast(page, K.revokedDone('ERP E2E')).waitFor();
    await main.locator('[data-state="revoked"]', { hasText: 'ERP E2E' }).waitFor();
    expect(await row.innerText()).toContain(`Revocada por ${ADMIN_EMAIL}`);
    expect(await row.getByRole('button').count()).toBe(0);

    const refused = await lookup(secret);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { message: string }).message).toBe(M.apiKeys.revoked);
    expect(await page.content()).not.toContain(secret);
    expect(problems).toEqual([]);
  }, 120_000);

  test('webhook: the secret once; a status change delivered signed, Entregado in the log; Reenviar sends it again', async () => {
    const receiver = await startReceiver();
    const dispatcher = new WebhookDispatcher(db(), ctx.portal.config.webhooks, createLogger('info', new LogCapture(), []), { pollMs: 200 });
    dispatcher.start();
    try {
      const { page, problems } = await openPage(PATHS.webhooks);
      const main = page.getByRole('main');
      await main.getByTestId('webhooks-empty').filter({ hasText: W.empty }).waitFor();
      expect(await axeProblems(page)).toEqual([]);

      await main.getByRole('button', { name: W.create, exact: true }).first().click();
      const dialog = page.getByRole('dialog', { name: W.createTitle, exact: true });
      await dialog.waitFor();
      await dialog.getByLabel(FW.name, { exact: true }).fill('Receptor E2E');
      await dialog.getByLabel(FW.url, { exact: true }).fill('ftp://127.0.0.1/hook');
      await dialog.getByRole('button', { name: SPEC_TEXT.save, exact: true }).click();
      expect(await messageUnder(page, FW.url)).toBe(M.field.url(FW.url));
      expect(await dialog.innerText()).toContain(M.field.events(FW.events));
      expect(await axeProblems(page)).toEqual([]);
      await dialog.getByLabel(FW.url, { exact: true }).fill(`${receiver.url}/hook`);
      await dialog.getByRole('checkbox', { name: /^Cambio de estado del dispositivo/ }).check();
      expect(await dialog.getByRole('switch', { name: FW.enabled, exact: true }).isChecked()).toBe(true);
      await dialog.getByRole('button', { name: SPEC_TEXT.save, exact: true }).click();

      const shown = page.getByRole('dialog', { name: W.secretTitle, exact: true });
      await shown.waitFor();
      const secret = await shown.getByTestId('webhook-secret').inputValue();
      expect(secret).toMatch(/^whsec_/);
      const note = await shown.innerText();
      expect(note).toContain(W.secretOnce);
      for (const header of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) expect(note).toContain(header);
      expect(await axeProblems(page)).toEqual([]);
      await shown.getByRole('button', { name: C.secretUnderstood, exact: true }).click();
      await shown.waitFor({ state: 'detached' });
      expect(await page.content()).not.toContain(secret);

      const row = main.locator('[data-testid^="webhook-row-"][data-name="Receptor E2E"]');
      await row.waitFor();
      expect(await row.innerText()).toContain('Cambio de estado del dispositivo');
      expect(await row.getAttribute('data-enabled')).toBe('true');

      // A status change of the device (the trigger a lock fires) reaches the receiver, signed.
      await db().query(`UPDATE devices SET lock_state = 'locked', lock_type = 'PorCredito' WHERE id = $1`, [deviceId]);
      await waitFor(() => receiver.delivered().length === 1, 'la entrega del webhook', 20_000);
      const first = receiver.delivered()[0]!;
      expect(first.path).toBe('/hook');
      const headers = Object.fromEntries(['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((h) => [h, String(first.headers[h])]));
      expect(() => new StandardWebhook(secret).verify(first.body, headers)).not.toThrow();
      expect(() => new StandardWebhook(`whsec_${Buffer.from('otro secreto').toString('base64')}`).verify(first.body, headers)).toThrow();
      expect(first.json.type).toBe('device.status_changed');
      expect(first.json.data.imei).toBe(IMEI);

      // The log: the delivery reads Entregado (the log refreshes itself).
      await row.getByRole('button', { name: W.deliveriesOf('Receptor E2E'), exact: true }).click();
      const log = page.getByRole('dialog', { name: W.deliveriesTitle('Receptor E2E'), exact: true });
      await log.waitFor();
      const delivered = log.locator('[data-testid^="webhook-delivery-row-"][data-status="delivered"]');
      await delivered.waitFor({ timeout: 20_000 });
      const deliveredText = await delivered.innerText();
      expect(deliveredText).toContain('Entregado');
      expect(deliveredText).toContain('Cambio de estado del dispositivo');
      expect(deliveredText).toContain('200');
      await delivered.getByRole('button', { name: /^Ver el contenido de la entrega/ }).click();
      expect(await log.getByTestId('webhook-payload').locator('pre').innerText()).toContain(IMEI);
      expect(await axeProblems(page)).toEqual([]);

      // Reenviar: the receiver gets the same event again (the same webhook-id).
      await delivered.getByRole('button', { name: /^Reenviar la entrega/ }).click();
      await toast(page, W.resentDone).waitFor();
      await dismissToasts(page);
      await waitFor(() => receiver.delivered().length === 2, 'el reenvío del webhook', 20_000);
      expect(receiver.delivered()[1]!.id).toBe(first.id);
      await log.locator('[data-status="delivered"]').waitFor({ timeout: 20_000 });

      // 390 px: the log fills the screen; nothing wider than the window.
      await page.setViewportSize(PHONE);
      await expectFits(page, PHONE.width);
      await log.getByRole('button', { name: W.payloadHide, exact: true }).first().click();
      await log.getByRole('button', { name: C.close, exact: true }).last().click();
      await log.waitFor({ state: 'detached' });
      await expectFits(page, PHONE.width);
      await page.setViewportSize(LAPTOP);
      await expectFits(page, LAPTOP.width);

      // Delete after the confirmation.
      await row.getByRole('button', { name: W.deleteOf('Receptor E2E'), exact: true }).click();
      const confirm = page.getByRole('dialog', { name: W.deleteTitle, exact: true });
      await confirm.waitFor();
      expect(await axeProblems(page)).toEqual([]);
      await confirm.getByRole('button', { name: W.delete, exact: true }).click();
      await toast(page, W.deletedDone('Receptor E2E')).waitFor();
      await row.waitFor({ state: 'detached' });
      expect(problems).toEqual([]);
    } finally {
      await dispatcher.stop();
      await receiver.close();
    }
  }, 120_000);
});
