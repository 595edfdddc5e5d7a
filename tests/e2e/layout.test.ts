/**
 * The portal's layout in Chromium, on long realistic values in every column: at 1366×800 with
 * the menu expanded every list page fits without horizontal scrolling (the page and the table's
 * box), the actions column in view and the search placeholder whole; a row menu stays inside the
 * window (upwards from the last row, downwards from the first, scrolling when it is taller than
 * the room); at 390×844 the header fits with the names whole and the portal version, the menu
 * toggle hides and shows the menu, and every list is a column of cards no wider than the window.
 */
import type { Locator, Page } from 'playwright-core';
import { GROUP_LABELS } from '../../shared/constants/groupLabels';
import { INVENTORY_LABELS } from '../../shared/constants/inventoryLabels';
import { PATHS, ROUTES } from '../../shared/constants/routes';
import { SPEC_TEXT } from '../../shared/messages';
import { seriousViolations } from '../helpers/axe';
import { collectProblems, describeWithBrowser, waitForHydration } from '../helpers/browser';
import { insertDevices, insertGroup, testImei, type DeviceFixture } from '../helpers/inventoryFixtures';
import { ADMIN_EMAIL, signIn, sidebar, toast, usePortalBrowser, waitForLayout } from '../helpers/portalSession';

const LAPTOP = { width: 1366, height: 800 } as const;
const PHONE = { width: 390, height: 844 } as const;
const HOUR = 3_600_000;

/** Every list page, with the test id (prefix) of its rows. */
const LIST_PAGES = [
  { path: PATHS.devices, row: 'device-row' },
  { path: PATHS.preEnrolled, row: 'pre-enrolled-row-' },
  { path: PATHS.groups, row: 'group-row-' },
  { path: PATHS.admins, row: 'admin-row-' },
  { path: PATHS.roles, row: 'role-row-' },
  { path: PATHS.audit, row: 'audit-row' },
] as const;

const titleOf = (path: string) => ROUTES.find((r) => r.path === path)!.title;

/** A long e-mail (no place to break it) and the like: the values that widen tables. */
const longEmail = (i: number) => `maria.fernanda.dominguez.castellanos${i}@financiera-del-norte-ejemplo.com.mx`;

/** `value` ≤ `max` (half a pixel of rounding allowed); the failure names what and by how much. */
function atMost(what: string, value: number, max: number): void {
  expect({ [what]: value <= max + 0.5 ? 'fits' : `${value} > ${max}` }).toEqual({ [what]: 'fits' });
}

interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

interface Layout {
  /** document.documentElement.scrollWidth */
  pageWidth: number;
  /** The table's own box: its content width and its visible width. */
  table: { scrollWidth: number; clientWidth: number; box: Box };
  /** The actions cell (the last one) of every row. */
  actions: Box[];
  /** The search inputs: the placeholder's text width and the room inside the input. */
  placeholders: { text: string; width: number; room: number }[];
  /** How every row is displayed ('table-row', or 'flex' as a card) and its box. */
  rows: { display: string; box: Box }[];
  /** The selects: the chosen option's text width and the room inside the select (its arrow left out). */
  selects: { text: string; width: number; room: number }[];
}

/** Measures the list page in the browser. */
function measure(page: Page): Promise<Layout> {
  return page.evaluate(() => {
    const box = (e: Element) => {
      const r = e.getBoundingClientRect();
      return { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
    };
    const container = document.querySelector<HTMLElement>('main .portal-data-table')!;
    const rows = [...container.querySelectorAll<HTMLElement>('tbody > tr')];
    const canvas = document.createElement('canvas').getContext('2d')!;
    const placeholders = [...document.querySelectorAll<HTMLInputElement>('main input[placeholder]')].map((input) => {
      const css = getComputedStyle(input);
      canvas.font = `${css.fontStyle} ${css.fontWeight} ${css.fontSize} ${css.fontFamily}`;
      return {
        text: input.placeholder,
        width: Math.ceil(canvas.measureText(input.placeholder).width),
        room: input.clientWidth - parseFloat(css.paddingLeft) - parseFloat(css.paddingRight),
      };
    });
    const selects = [...document.querySelectorAll<HTMLSelectElement>('main select')].map((select) => {
      const css = getComputedStyle(select);
      canvas.font = `${css.fontStyle} ${css.fontWeight} ${css.fontSize} ${css.fontFamily}`;
      const text = select.selectedOptions[0]?.text ?? '';
      return {
        text: `${select.id || select.name}: ${text}`,
        width: Math.ceil(canvas.measureText(text).width),
        room: select.clientWidth - parseFloat(css.paddingLeft) - parseFloat(css.paddingRight),
      };
    });
    return {
      selects,
      pageWidth: document.documentElement.scrollWidth,
      table: { scrollWidth: container.scrollWidth, clientWidth: container.clientWidth, box: box(container) },
      actions: rows.map((r) => box(r.lastElementChild!)),
      placeholders,
      rows: rows.map((r) => ({ display: getComputedStyle(r).display, box: box(r) })),
    };
  });
}

describeWithBrowser('the layout at 1366×800 and 390×844 in Chromium', () => {
  const ctx = usePortalBrowser();

  beforeAll(async () => {
    const db = ctx.portal.testDb.db;
    const group = await insertGroup(
      db,
      'Sucursal Centro Histórico de Monterrey Norte',
      'Equipos financiados en la sucursal del centro histórico, crédito a 12 y 18 meses',
    );
    const device = (n: number, i: number): DeviceFixture => ({
      imei: testImei(n + i),
      deviceType: i % 4 === 3 ? 2 : 1,
      groupId: group,
      brand: 'Samsung',
      model: 'Galaxy A15 5G (SM-A156M)',
      serial: `R58W${10_000 + i}ABCDEF`,
      customerName: `María Guadalupe Hernández Villaseñor de la Fuente ${i}`,
      creditReference: `CR-2026-MTY-${100_000 + i}`,
      agentVersion: '3.4.1 (341)',
      lockState: i % 3 === 0 ? 'locked' : 'active',
      lockType: i % 3 === 0 ? 'PorNoConexion' : null,
      lastSeenAt: new Date(Date.now() - i * 7 * HOUR),
    });
    // One full page of enrolled devices (25), and pre-enrolled ones.
    await insertDevices(
      db,
      Array.from({ length: 25 }, (_, i) => device(700_000, i)),
    );
    await insertDevices(
      db,
      Array.from({ length: 12 }, (_, i): DeviceFixture => ({
        ...device(800_000, i),
        lifecycle: 'pre_enrolled',
        lockState: 'active',
        lockType: null,
        agentVersion: null,
      })),
    );

    const profile = await db.query<{ id: number }>(
      "INSERT INTO profiles (nombre) VALUES ('Supervisión de cobranza regional de la zona metropolitana Norte') RETURNING id",
    );
    for (let i = 0; i < 8; i++) {
      await db.query('INSERT INTO admins (correo, nombres, apellidos, profile_id) VALUES ($1, $2, $3, $4)', [
        longEmail(i),
        'María Fernanda',
        `Domínguez Castellanos de la Garza ${i}`,
        profile.rows[0]!.id,
      ]);
    }
    for (let i = 0; i < 30; i++) {
      await db.query(
        `INSERT INTO audit_log (actor_email, ip, request_id, entity, entity_id, action, outcome, detail)
         VALUES ($1, '10.20.30.40', $2, 'enrollment_token', $3, 'redeem_offline_code', $4, 'Código de desbloqueo sin conexión canjeado')`,
        [longEmail(i), `req-${'7f3a9c'.repeat(6)}-${i}`, `tok-${'b'.repeat(40)}${i}`, i % 2 ? 'success' : 'failure'],
      );
    }
  });

  /** Opens a list page and waits for its rows. */
  async function openList(page: Page, path: string, row: string): Promise<void> {
    await page.goto(`${ctx.portal.url}${path}`);
    await waitForHydration(page);
    await waitForLayout(page);
    await page
      .getByRole('main')
      .getByRole('heading', { level: 1, name: titleOf(path), exact: true })
      .waitFor();
    await page.locator(`main tbody > tr[data-testid^="${row}"]`).first().waitFor();
    await page.getByRole('main').getByRole('status').waitFor({ state: 'detached' });
  }

  /** The row menu of a device row: its toggle, and the menu once opened. */
  async function openRowMenu(row: Locator): Promise<{ toggle: Box; menu: Box; scrolls: boolean; natural: number }> {
    const button = row.getByRole('button', { name: /^Acciones del dispositivo/ });
    await button.click();
    const menu = row.getByTestId('device-action-menu');
    await menu.waitFor();
    // Popper places the menu once it shows: measured when its box holds still for a few frames.
    const measured = await menu.evaluate(async (e) => {
      const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
      let last = '';
      for (let still = 0; still < 3;) {
        await frame();
        const now = JSON.stringify(e.getBoundingClientRect());
        still = now === last ? still + 1 : 0;
        last = now;
      }
      const r = e.getBoundingClientRect();
      return {
        box: { left: r.left, right: r.right, top: r.top, bottom: r.bottom },
        scrolls: e.scrollHeight > e.clientHeight + 1,
        natural: e.scrollHeight,
      };
    });
    const toggle = await button.evaluate((e) => {
      const r = e.getBoundingClientRect();
      return { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
    });
    return { toggle, menu: measured.box, scrolls: measured.scrolls, natural: measured.natural };
  }

  function expectInside(what: string, box: Box, viewport: { width: number; height: number }): void {
    atMost(`${what}: left edge`, -box.left, 0);
    atMost(`${what}: top edge`, -box.top, 0);
    atMost(`${what}: right edge`, box.right, viewport.width);
    atMost(`${what}: bottom edge`, box.bottom, viewport.height);
  }

  test('1366×800, menu expanded: no list page scrolls sideways, the actions column is in view, the search placeholder and the selects are whole', async () => {
    const page = await ctx.freshPage({ viewport: LAPTOP });
    const problems = collectProblems(page);
    await signIn(page, ctx.portal.url, ADMIN_EMAIL);
    for (const { path, row } of LIST_PAGES) {
      await openList(page, path, row);
      expect([path, await sidebar(page).getAttribute('data-compact')]).toEqual([path, 'false']);
      const layout = await measure(page);
      // The page and the table's own box: no horizontal scrolling.
      atMost(`${path}: page width`, layout.pageWidth, LAPTOP.width);
      atMost(`${path}: table content width`, layout.table.scrollWidth, layout.table.clientWidth);
      // Every row's actions inside the table's box and the window.
      expect(layout.actions.length).toBeGreaterThan(0);
      for (const [i, actions] of layout.actions.entries()) {
        atMost(`${path}: actions of row ${i}, right edge`, actions.right, Math.min(LAPTOP.width, layout.table.box.right));
        atMost(`${path}: actions of row ${i}, left edge`, layout.table.box.left, actions.left);
      }
      for (const p of layout.placeholders) atMost(`${path}: placeholder '${p.text}'`, p.width, p.room);
      // Every filter select shows its chosen option whole (the audit's Resultado showed 'Todo' cut).
      for (const s of layout.selects) atMost(`${path}: select '${s.text}'`, s.width, s.room);
      expect(layout.rows.every((r) => r.display === 'table-row')).toBe(true);
    }
    // The devices page has the search whose placeholder was cut.
    await openList(page, PATHS.devices, 'device-row');
    expect((await measure(page)).placeholders.map((p) => p.text)).toEqual([INVENTORY_LABELS.devices.searchPlaceholder]);
    // Its type, brand / model and agent version columns gave way: type and brand / model read under the IMEI.
    const C = INVENTORY_LABELS.devices.columns;
    for (const name of [C.type, C.brandModel, C.agentVersion]) {
      expect([name, await page.getByRole('columnheader', { name, exact: true }).isVisible()]).toEqual([name, false]);
    }
    const summary = page.getByTestId('device-row').first().getByTestId('device-summary');
    expect(await summary.isVisible()).toBe(true);
    expect(await summary.innerText()).toMatch(/^(Móvil|TV) · Samsung Galaxy A15 5G \(SM-A156M\)$/);
    expect(problems).toEqual([]);
  });

  test('1366×800: the menu stays below the header with the version in view while the page scrolls; toasts sit below the header', async () => {
    const page = await ctx.freshPage({ viewport: LAPTOP });
    const problems = collectProblems(page);
    await signIn(page, ctx.portal.url, ADMIN_EMAIL);
    const frame = () =>
      page.evaluate(() => {
        const box = (e: Element) => e.getBoundingClientRect();
        const nav = document.querySelector('nav[aria-label="Menú principal"]')!;
        return {
          headerBottom: box(document.querySelector('header')!).bottom,
          nav: { top: box(nav).top, bottom: box(nav).bottom },
          version: box(document.querySelector('[data-testid="app-version"]')!).bottom,
          pageHeight: document.documentElement.scrollHeight,
          scrollY: window.scrollY,
        };
      });
    for (const { path, row } of [LIST_PAGES[0], LIST_PAGES[5]]) {
      await openList(page, path, row);
      const top = await frame();
      // The menu fills the room below the header, its version in view; the page is as tall as its content, not the menu.
      atMost(`${path}: menu top`, Math.abs(top.nav.top - top.headerBottom), 0);
      atMost(`${path}: menu bottom`, top.nav.bottom, LAPTOP.height);
      atMost(`${path}: version`, top.version, LAPTOP.height);
      // Scrolled to the end: the page moved, the header, the menu and its version did not.
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      await page.waitForFunction(() => window.scrollY > 0);
      const end = await frame();
      expect(end.scrollY).toBeGreaterThan(0);
      // (within a pixel: the sticky boxes sit on half pixels)
      atMost(`${path}: header moved by`, Math.abs(end.headerBottom - top.headerBottom), 0.5);
      atMost(`${path}: menu moved by`, Math.abs(end.nav.top - top.nav.top), 0.5);
      atMost(`${path}: version moved by`, Math.abs(end.version - top.version), 0.5);
    }
    // A toast (top right) below the header: the user menu stays clickable.
    await openList(page, PATHS.groups, 'group-row-');
    await page.getByRole('button', { name: GROUP_LABELS.create, exact: true }).click();
    const create = page.getByRole('dialog', { name: GROUP_LABELS.createTitle, exact: true });
    await create.getByLabel(GROUP_LABELS.name, { exact: true }).fill('Sucursal de prueba del aviso');
    await create.getByRole('button', { name: SPEC_TEXT.save, exact: true }).click();
    const shown = toast(page, GROUP_LABELS.createdDone('Sucursal de prueba del aviso'));
    await shown.waitFor();
    const toastTop = await shown.evaluate((e) => e.getBoundingClientRect().top);
    atMost('toast below the header', (await frame()).headerBottom, toastTop);
    expect(problems).toEqual([]);
  });

  test('1366×800: a settings page’s form cards end where the scope card ends', async () => {
    const page = await ctx.freshPage({ viewport: LAPTOP });
    const problems = collectProblems(page);
    await signIn(page, ctx.portal.url, ADMIN_EMAIL);
    for (const path of [PATHS.restrictionsLock, PATHS.restrictionsEnrollmentTv]) {
      await page.goto(`${ctx.portal.url}${path}`);
      await waitForHydration(page);
      await waitForLayout(page);
      await page.locator('main form .card').first().waitFor();
      const edges = await page.evaluate(() => ({
        scope: document.querySelector('[data-testid="settings-scope"]')!.getBoundingClientRect().right,
        cards: [...document.querySelectorAll('main form .card')].map((c) => c.getBoundingClientRect().right),
      }));
      expect(edges.cards.length).toBeGreaterThan(0);
      for (const [i, right] of edges.cards.entries()) expect([path, i, Math.round(right)]).toEqual([path, i, Math.round(edges.scope)]);
    }
    expect(problems).toEqual([]);
  });

  test('1366×800: the last row menu opens upwards inside the window; the first row menu opens downwards, scrolling when taller than the room', async () => {
    const page = await ctx.freshPage({ viewport: LAPTOP });
    await signIn(page, ctx.portal.url, ADMIN_EMAIL);
    await openList(page, PATHS.devices, 'device-row');
    const rows = page.getByTestId('device-row');
    expect(await rows.count()).toBe(25);

    // The last row at the bottom of the window (the table's box and the page scrolled, instantly:
    // Bootstrap makes the page's own scrolling smooth).
    await page.evaluate(() => {
      const box = document.querySelector('main .portal-data-table')!;
      box.scrollTop = box.scrollHeight;
      const rows = box.querySelectorAll('tbody > tr');
      const toggle = rows[rows.length - 1]!.querySelector('button[aria-haspopup], .dropdown-toggle')!;
      window.scrollBy({ top: toggle.getBoundingClientRect().bottom - (window.innerHeight - 24), behavior: 'instant' });
    });
    const last = await openRowMenu(rows.last());
    // The toggle where it was put (the click did not scroll), no room below it for the whole menu…
    atMost('room under the toggle of the last row', LAPTOP.height - last.toggle.bottom, 60);
    expect(LAPTOP.height - last.toggle.bottom).toBeLessThan(last.natural);
    // …so it opens upwards, inside the window, without covering the toggle.
    expectInside('menu of the last row', last.menu, LAPTOP);
    atMost('menu of the last row above its toggle', last.menu.bottom, last.toggle.top);
    atMost('gap between the toggle and the menu of the last row', last.toggle.top - last.menu.bottom, 8);
    atMost('toggle of the last row', last.toggle.right, LAPTOP.width);
    await page.keyboard.press('Escape');
    await rows.last().getByTestId('device-action-menu').waitFor({ state: 'hidden' });

    // The first row at the top: below it, inside the window; a menu taller than that room scrolls.
    await page.evaluate(() => {
      document.querySelector('main .portal-data-table')!.scrollTop = 0;
      window.scrollTo({ top: 0, behavior: 'instant' });
    });
    const first = await openRowMenu(rows.first());
    expectInside('menu of the first row', first.menu, LAPTOP);
    atMost('menu of the first row below its toggle', first.toggle.bottom, first.menu.top);
    atMost('gap between the toggle and the menu of the first row', first.menu.top - first.toggle.bottom, 8);
    if (first.natural > LAPTOP.height - first.toggle.bottom) expect(first.scrolls).toBe(true);
  });

  test('390×844: the header fits with the names whole and the portal version; the menu toggle hides the menu; every list is cards no wider than the window; a row menu stays inside', async () => {
    const page = await ctx.freshPage({ viewport: PHONE, bypassCSP: true });
    const problems = collectProblems(page);
    await signIn(page, ctx.portal.url, ADMIN_EMAIL);

    // The header: no element wider than the window.
    const header = await page.locator('header').evaluate((h) => ({
      scrollWidth: h.scrollWidth,
      widest: Math.max(...[h, ...h.querySelectorAll('*')].map((e) => e.getBoundingClientRect().right)),
    }));
    atMost('header content width', header.scrollWidth, PHONE.width);
    atMost('right edge of the header elements', header.widest, PHONE.width);
    // The names whole (the product's name gives way to its mark), and the portal version in the header, compactly.
    for (const id of ['user-names', 'user-profile']) {
      const names = page.getByTestId(id);
      expect(await names.isVisible()).toBe(true);
      const cut = await names.evaluate((e) => e.scrollWidth > e.clientWidth);
      expect([id, await names.innerText(), cut]).toEqual([id, expect.any(String), false]);
    }
    const version = page.getByTestId('portal-version');
    expect(await version.isVisible()).toBe(true);
    expect((await version.innerText()).replace(/\s+/g, ' ').trim()).toBe(`${SPEC_TEXT.portalVersion} ${ctx.portal.portalVersion}`);

    // The menu toggle hides the menu (the page takes the whole width) and shows it again.
    const toggle = page.getByRole('button', { name: 'Mostrar u ocultar el menú', exact: true });
    const mainLeft = () => page.locator('main').evaluate((m) => m.getBoundingClientRect().left);
    expect(await sidebar(page).isVisible()).toBe(true);
    const besideMenu = await mainLeft();
    expect(besideMenu).toBeGreaterThan(0);
    await toggle.click();
    await sidebar(page).waitFor({ state: 'hidden' });
    expect(await mainLeft()).toBe(0);
    await toggle.click();
    await sidebar(page).waitFor();
    expect(await mainLeft()).toBe(besideMenu);

    for (const { path, row } of LIST_PAGES) {
      await openList(page, path, row);
      const layout = await measure(page);
      atMost(`${path}: page width`, layout.pageWidth, PHONE.width);
      atMost(`${path}: table content width`, layout.table.scrollWidth, layout.table.clientWidth);
      // Each row a card, inside the window, its actions too.
      for (const [i, r] of layout.rows.entries()) {
        expect({ path, i, display: r.display }).toEqual({ path, i, display: 'flex' });
        atMost(`${path}: card ${i}, right edge`, r.box.right, PHONE.width);
        atMost(`${path}: actions of card ${i}, right edge`, layout.actions[i]!.right, PHONE.width);
      }
    }

    // A card reads each value under its column's name.
    await openList(page, PATHS.devices, 'device-row');
    const card = page.getByTestId('device-row').first();
    const status = card.locator('td[data-label]', { has: page.locator('.badge') });
    expect(await status.evaluate((td) => getComputedStyle(td, '::before').content)).toBe(`"${INVENTORY_LABELS.devices.columns.status}"`);
    expect(await seriousViolations(page)).toEqual([]);

    // The row menu of a card stays inside the window.
    const opened = await openRowMenu(page.getByTestId('device-row').nth(2));
    expectInside('menu of a card', opened.menu, PHONE);
    expect(opened.menu.bottom <= opened.toggle.top + 0.5 || opened.menu.top >= opened.toggle.bottom - 0.5).toBe(true);
    expect(problems).toEqual([]);
  });
});
