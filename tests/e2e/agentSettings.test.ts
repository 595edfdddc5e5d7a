/**
 * The agent-settings pages in Chromium, as the administrator: every section page of both device
 * types keeps a saved change across a reload (the TV pages with the TV-only flags and none of
 * the phone ones); on the lock page a device group overrides a value ('Personalizado para este
 * grupo'), the overview lists the group, and the value is inherited again ('Usar valor global',
 * 'Quitar personalización del grupo'); the screen design's preview follows the title and message
 * as they are typed and shows an uploaded PNG logo; leaving a page with unsaved changes asks
 * first. Every test ends without console problems; axe-core finds no serious or critical
 * violation on each page and dialog; the pages fit a 1366 px laptop and a 390 px phone.
 */
import zlib from 'node:zlib';
import type { Locator, Page } from 'playwright-core';
import { settingField, SETTINGS_SECTIONS } from '../../shared/agentSettings';
import { AGENT_SETTINGS_LABELS } from '../../shared/constants/agentSettingsLabels';
import { AGENT_SETTINGS_OVERVIEW_LABELS } from '../../shared/constants/agentSettingsOverviewLabels';
import { UNSAVED_CHANGES_LABELS as U } from '../../shared/constants/labels';
import { MENU, PATHS } from '../../shared/constants/routes';
import { SPEC_TEXT } from '../../shared/messages';
import { seriousViolations } from '../helpers/axe';
import { collectProblems, describeWithBrowser, waitForHydration } from '../helpers/browser';
import { insertGroup } from '../helpers/inventoryFixtures';
import { ADMIN_EMAIL, dismissToasts, sidebar, signIn, toast, usePortalBrowser, waitForLayout } from '../helpers/portalSession';

const F = AGENT_SETTINGS_LABELS.form;
const S = AGENT_SETTINGS_LABELS.screen;
const O = AGENT_SETTINGS_OVERVIEW_LABELS;
const label = (key: string) => settingField(key)!.label;
const titleOf = (path: string) => [...MENU, ...MENU.flatMap((m) => m.submodules)].find((s) => s.path === path)!.title;
const LAPTOP = { width: 1366, height: 800 } as const;
const PHONE = { width: 390, height: 844 } as const;

/** A valid PNG of `size`×`size` pixels of one colour (signature, IHDR, IDAT, IEND with their CRCs). */
function png(size: number, rgb: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB, deflate, no filter, no interlace
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: size }, () => rgb).flat())]);
  const pixels = zlib.deflateSync(Buffer.concat(Array.from({ length: size }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A flag of each section page that the test flips (one each device type has). */
const FLIPS: { path: string; key: string; present?: string[]; absent?: string[] }[] = [
  { path: PATHS.restrictionsEnrollment, key: 'allow_unregistered_enrollment', present: ['require_sim_for_enroll'] },
  {
    path: PATHS.restrictionsLock,
    key: 'disable_sms',
    present: ['disable_camera', 'lock_sim_change'],
    absent: ['disable_streaming', 'disable_tv_hospitality_mode', 'disable_media_player'],
  },
  { path: PATHS.restrictionsRelease, key: 'release_uninstall_agent' },
  { path: PATHS.restrictionsEnrollmentTv, key: 'allow_unregistered_enrollment', absent: ['require_sim_for_enroll'] },
  {
    path: PATHS.restrictionsLockTv,
    key: 'disable_streaming',
    present: ['disable_tv_hospitality_mode', 'disable_media_player'],
    absent: ['disable_camera', 'disable_sms', 'lock_sim_change', 'disable_incoming_calls', 'enabled_lock_for_remove_sim'],
  },
  { path: PATHS.restrictionsReleaseTv, key: 'release_uninstall_agent' },
];

describeWithBrowser('agent settings pages in Chromium', () => {
  const ctx = usePortalBrowser();
  const db = () => ctx.portal.testDb.db;

  /** Waits for a section page's form (or an overview's cards) after a navigation. */
  async function settled(page: Page, path: string): Promise<Locator> {
    await waitForHydration(page);
    await waitForLayout(page);
    const main = page.getByRole('main');
    await main.getByRole('heading', { level: 1, name: titleOf(path), exact: true }).waitFor();
    const overview = path === PATHS.agentSettings || path === PATHS.agentSettingsTv;
    await main.getByTestId(overview ? 'overview-lock' : 'settings-form').waitFor();
    return main;
  }

  /** A signed-in page (the CSP bypassed for axe) at `path`, its form loaded. */
  async function openPage(
    path: string,
    viewport: { width: number; height: number } = LAPTOP,
  ): Promise<{ page: Page; main: Locator; problems: string[] }> {
    const page = await ctx.freshPage({ bypassCSP: true, viewport });
    const problems = collectProblems(page);
    await signIn(page, ctx.portal.url, ADMIN_EMAIL);
    await page.goto(`${ctx.portal.url}${path}`);
    return { page, main: await settled(page, path), problems };
  }

  async function reload(page: Page, path: string): Promise<Locator> {
    await page.reload();
    return settled(page, path);
  }

  async function axeProblems(page: Page): Promise<string[]> {
    await dismissToasts(page);
    return seriousViolations(page);
  }

  /** Saves the form and waits for the toast (closed again so it covers nothing). */
  async function save(page: Page, main: Locator): Promise<void> {
    await main.getByRole('button', { name: SPEC_TEXT.save, exact: true }).click();
    await toast(page, F.saved).waitFor();
    await dismissToasts(page);
  }

  /** Wider than the window: the page's scroll width over its viewport. */
  const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

  const scopeState = (main: Locator, key: string) => main.getByTestId(`scope-state-${key}`);

  test('every section page of both types keeps a saved change across a reload; TV pages show their own flags only; axe on each', async () => {
    const { page, problems } = await openPage(FLIPS[0]!.path);
    for (const flip of FLIPS) {
      await page.goto(`${ctx.portal.url}${flip.path}`);
      let main = await settled(page, flip.path);
      for (const key of flip.present ?? []) await main.getByRole('switch', { name: label(key), exact: true }).waitFor();
      for (const key of flip.absent ?? []) expect(await main.getByRole('switch', { name: label(key), exact: true }).count()).toBe(0);
      expect(await axeProblems(page)).toEqual([]);

      const before = await main.getByRole('switch', { name: label(flip.key), exact: true }).isChecked();
      await main.getByRole('switch', { name: label(flip.key), exact: true }).click();
      await save(page, main);
      main = await reload(page, flip.path);
      expect(await main.getByRole('switch', { name: label(flip.key), exact: true }).isChecked()).toBe(!before);
    }
    // The history of the last page says what changed.
    const history = page.getByTestId('settings-history');
    await history.getByRole('button', { name: /Historial de cambios/ }).click();
    // The global scope's history says the value that applied before (here the default).
    await history.getByText(`${label('release_uninstall_agent')}: Sí → No`).waitFor();
    expect(problems).toEqual([]);
  }, 180_000);

  test('lock page: a group overrides a value, the overview lists it, then it is inherited again', async () => {
    const groupId = await insertGroup(db(), 'Grupo E2E Ajustes');
    const { page, main, problems } = await openPage(PATHS.restrictionsLock);
    await main.getByLabel(AGENT_SETTINGS_LABELS.scope.label, { exact: true }).selectOption({ label: 'Grupo E2E Ajustes' });
    await page.waitForURL((u) => u.search === `?groupId=${groupId}`);
    await scopeState(main, 'disable_camera').getByText(F.inherited, { exact: true }).waitFor();
    const camera = main.getByRole('switch', { name: label('disable_camera'), exact: true });
    expect(await camera.isChecked()).toBe(true);

    await camera.click();
    await scopeState(main, 'disable_camera').getByText(F.overridden, { exact: true }).waitFor();
    expect(await scopeState(main, 'disable_camera').innerText()).toContain(F.inheritedValue('Sí'));
    expect(await axeProblems(page)).toEqual([]);
    await save(page, main);

    let again = await reload(page, PATHS.restrictionsLock);
    expect(new URL(page.url()).search).toBe(`?groupId=${groupId}`);
    await scopeState(again, 'disable_camera').getByText(F.overridden, { exact: true }).waitFor();
    expect(await again.getByRole('switch', { name: label('disable_camera'), exact: true }).isChecked()).toBe(false);
    expect(await scopeState(again, 'disable_sms').innerText()).toContain(F.inherited);
    await again.getByTestId('settings-overrides').getByRole('link', { name: 'Grupo E2E Ajustes', exact: true }).waitFor();

    // The overview: the group and how many values it overrides.
    await sidebar(page).locator(`a[href="${PATHS.agentSettings}"]`).click();
    const overview = await settled(page, PATHS.agentSettings);
    const lockCard = overview.getByTestId('overview-lock');
    await lockCard.getByRole('link', { name: 'Grupo E2E Ajustes', exact: true }).waitFor();
    expect(await lockCard.innerText()).toContain('1 valor');
    expect(await overview.getByTestId('overview-lock-app').innerText()).toContain(O.currentVersion);
    expect(await axeProblems(page)).toEqual([]);

    // Back to the group's scope from the overview; 'Usar valor global' inherits the value again.
    await lockCard.getByRole('link', { name: 'Grupo E2E Ajustes', exact: true }).click();
    again = await settled(page, PATHS.restrictionsLock);
    await again.getByRole('button', { name: F.backToGlobalOf(label('disable_camera')), exact: true }).click();
    await scopeState(again, 'disable_camera').getByText(F.inherited, { exact: true }).waitFor();
    expect(await again.getByRole('switch', { name: label('disable_camera'), exact: true }).isChecked()).toBe(true);
    // Another value of the group's own, removed with the whole override.
    await again.getByRole('switch', { name: label('disable_sms'), exact: true }).click();
    await save(page, again);
    again = await reload(page, PATHS.restrictionsLock);
    await scopeState(again, 'disable_camera').getByText(F.inherited, { exact: true }).waitFor();
    await scopeState(again, 'disable_sms').getByText(F.overridden, { exact: true }).waitFor();

    await again.getByRole('button', { name: F.removeOverride, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: F.removeOverrideTitle, exact: true });
    await dialog.waitFor();
    expect(await axeProblems(page)).toEqual([]);
    await dialog.getByRole('button', { name: F.removeOverrideConfirm, exact: true }).click();
    await toast(page, F.overrideRemoved('Grupo E2E Ajustes')).waitFor();
    await dialog.waitFor({ state: 'detached' });
    again = await reload(page, PATHS.restrictionsLock);
    await scopeState(again, 'disable_sms').getByText(F.inherited, { exact: true }).waitFor();
    expect(await again.getByTestId('group-override-count').innerText()).toBe(F.noOverrideYet);
    expect(await again.getByRole('button', { name: F.removeOverride, exact: true }).count()).toBe(0);
    expect(problems).toEqual([]);
  }, 180_000);

  test('screen design: the preview follows the title and message; a PNG logo uploads, shows and stays after saving', async () => {
    const { page, main, problems } = await openPage(PATHS.screenDesign);
    const preview = main.getByRole('figure', { name: S.preview, exact: true });
    await preview.waitFor();
    expect(await axeProblems(page)).toEqual([]);

    await main.getByLabel(label('screen_title'), { exact: true }).fill('Pago vencido');
    expect(await preview.getByTestId('preview-title').innerText()).toBe('Pago vencido');
    await main.getByLabel(label('screen_message'), { exact: true }).fill('Pague en cualquier sucursal para desbloquear su equipo.');
    expect(await preview.getByTestId('preview-message').innerText()).toBe('Pague en cualquier sucursal para desbloquear su equipo.');
    expect(await main.getByTestId('setting-screen_message').innerText()).toContain('55/350');
    await main.getByLabel(label('contact_phone'), { exact: true }).fill('+52 55 1234 5678');
    expect(await preview.getByTestId('preview-contact').innerText()).toContain('+52 55 1234 5678');

    await main
      .getByLabel(`${label('logo')}: ${S.logoUpload}`, { exact: true })
      .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: png(24, [200, 30, 40]) });
    await main.getByText(S.logoUploaded, { exact: true }).waitFor();
    const logo = preview.getByRole('img', { name: S.previewLogo, exact: true });
    await logo.waitFor();
    await page.waitForFunction(() => (document.querySelector('[data-testid="preview-logo"]') as HTMLImageElement | null)?.naturalWidth === 24);
    expect(await axeProblems(page)).toEqual([]);
    await save(page, main);

    const again = await reload(page, PATHS.screenDesign);
    const after = again.getByRole('figure', { name: S.preview, exact: true });
    expect(await after.getByTestId('preview-title').innerText()).toBe('Pago vencido');
    await after.getByRole('img', { name: S.previewLogo, exact: true }).waitFor();
    await page.waitForFunction(() => (document.querySelector('[data-testid="logo-current"]') as HTMLImageElement | null)?.naturalWidth === 24);
    expect(await again.getByLabel(label('contact_phone'), { exact: true }).inputValue()).toBe('+52 55 1234 5678');
    expect(problems).toEqual([]);
  }, 120_000);

  test('leaving a page with unsaved changes asks first: stay keeps the change, leave goes on', async () => {
    await insertGroup(db(), 'Grupo E2E Salida');
    const { page, main, problems } = await openPage(PATHS.restrictionsRelease);
    const flag = main.getByRole('switch', { name: label('release_uninstall_agent'), exact: true });
    const before = await flag.isChecked();
    await flag.click();
    // Reload or close: the browser's own question, once the page has taken the change (the
    // guard is armed by an effect after the render; fails by timeout if it never is).
    await page.waitForFunction(
      () => {
        const event = new Event('beforeunload', { cancelable: true });
        window.dispatchEvent(event);
        return event.defaultPrevented;
      },
      undefined,
      { timeout: 5_000 },
    );

    const link = sidebar(page).locator(`a[href="${PATHS.restrictionsLock}"]`);
    await link.click();
    const dialog = page.getByRole('dialog', { name: U.title, exact: true });
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain(U.question);
    expect(await axeProblems(page)).toEqual([]);
    await dialog.getByRole('button', { name: U.stay, exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toBe(PATHS.restrictionsRelease);
    expect(await flag.isChecked()).toBe(!before);

    // The scope select asks the same.
    const scope = main.getByLabel(AGENT_SETTINGS_LABELS.scope.label, { exact: true });
    await scope.selectOption({ label: 'Grupo E2E Salida' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: U.stay, exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(new URL(page.url()).search).toBe('');
    expect(await scope.inputValue()).toBe('');

    await link.click();
    await dialog.waitFor();
    await dialog.getByRole('button', { name: U.leave, exact: true }).click();
    await page.waitForURL((u) => u.pathname === PATHS.restrictionsLock);
    await settled(page, PATHS.restrictionsLock);
    expect(problems).toEqual([]);
  }, 90_000);

  test('the overviews and the pages fit a 1366 px laptop and a 390 px phone', async () => {
    const groupId = await insertGroup(db(), 'Sucursal con un nombre bastante largo para un teléfono');
    const { page, problems } = await openPage(PATHS.agentSettingsTv, PHONE);
    const pages: [string, string][] = [
      [PATHS.agentSettingsTv, ''],
      [PATHS.agentSettings, ''],
      [PATHS.restrictionsLock, ''],
      [PATHS.restrictionsLock, `?groupId=${groupId}`],
      [PATHS.screenDesign, ''],
    ];
    for (const viewport of [PHONE, LAPTOP]) {
      await page.setViewportSize(viewport);
      for (const [path, query] of pages) {
        await page.goto(`${ctx.portal.url}${path}${query}`);
        const main = await settled(page, path);
        if (query) {
          // A group's own value: the badges and 'Usar valor global' beside the field.
          await main.getByRole('switch', { name: label('disable_sms'), exact: true }).click();
          await scopeState(main, 'disable_sms').getByText(F.overridden, { exact: true }).waitFor();
        }
        expect(`${path}${query} at ${viewport.width}: ${await overflow(page)}`).toBe(`${path}${query} at ${viewport.width}: 0`);
        if (query) await main.getByRole('button', { name: SPEC_TEXT.cancel, exact: true }).click();
        if (path === PATHS.agentSettingsTv) {
          // TVs: no screen design, no business apps.
          expect(await main.getByTestId('overview-screen').count()).toBe(0);
          expect(await main.getByTestId('overview-business-apps').count()).toBe(0);
          expect(await main.getByTestId('overview-lock').innerText()).toContain(label('disable_streaming'));
          if (viewport === PHONE) expect(await axeProblems(page)).toEqual([]);
        }
      }
    }
    // Each card of the overview links to its page.
    const overview = await (async () => {
      await page.goto(`${ctx.portal.url}${PATHS.agentSettings}`);
      return settled(page, PATHS.agentSettings);
    })();
    for (const section of SETTINGS_SECTIONS)
      expect(await overview.getByRole('link', { name: O.openOf(section.title), exact: true }).getAttribute('href')).toBe(section.paths[1]);
    expect(problems).toEqual([]);
  }, 150_000);
});
