/**
 * The signed-in shell in Chromium (reference §2): sign-in, the header, the menu each demo
 * profile is allowed, NO AUTORIZADO, where / goes, the compact menu and its persisted choice,
 * and every route of the route table loading cleanly for the administrator.
 */
import { ROUTES } from '../../shared/constants/routes';
import { MESSAGES, SPEC_TEXT } from '../../shared/messages';
import { describeWithBrowser, collectProblems, waitForHydration } from '../helpers/browser';
import {
  ADMIN_EMAIL,
  DEMO_PROFILE_PATHS,
  INVENTARIO_EMAIL,
  NARROW,
  SOPORTE_EMAIL,
  WIDE,
  createPortalUser,
  expectedMenu,
  readExpandedMenu,
  sidebar,
  signIn,
  storedSession,
  submitSignIn,
  waitForLayout,
  usePortalBrowser,
} from '../helpers/portalSession';

/** The version of the lock app the demo seeds (bootstrap), as 'name (version)'. */
const DEMO_APP_VERSION = 'Macrolock (3.4.1)';

describeWithBrowser('the signed-in shell in Chromium', () => {
  const ctx = usePortalBrowser();
  const freshPage = (viewport: { width: number; height: number } = WIDE) => ctx.freshPage({ viewport });

  describe('sign-in', () => {
    test('SRP sign-in of the administrator lands on /dashboard/general with the header, the stored session and no console problems', async () => {
      const page = await freshPage();
      const problems = collectProblems(page);
      const landing = await signIn(page, ctx.portal.url, ADMIN_EMAIL);
      expect(landing).toBe('/dashboard/general');
      await page.getByRole('heading', { level: 1, name: 'General', exact: true }).waitFor();

      const version = page.getByTestId('portal-version');
      await version.filter({ hasText: ctx.portal.portalVersion }).waitFor();
      expect((await version.innerText()).trim()).toBe(`${SPEC_TEXT.portalVersion} ${ctx.portal.portalVersion}`);
      expect(ctx.portal.portalVersion).toMatch(/^\d+\.\d+\.\d+/);
      expect((await page.getByTestId('user-names').innerText()).trim()).toBe('Administrador Demo');
      expect((await page.getByTestId('user-profile').innerText()).trim()).toBe('Administrador');

      const stored = await storedSession(page, ctx.portal.clientId);
      expect(stored.username).toBe(ADMIN_EMAIL);
      for (const k of ['idToken', 'accessToken', 'refreshToken', 'clockDrift']) {
        expect(stored.keys).toContain(`${stored.prefix}.${ADMIN_EMAIL}.${k}`);
      }
      expect(stored.keys).toContain(`${stored.prefix}.LastAuthUser`);
      expect(stored.accessToken?.split('.')).toHaveLength(3);

      // The app version in the sidebar footer is the last call the layout makes.
      await page.getByTestId('app-version').filter({ hasText: DEMO_APP_VERSION }).waitFor();
      expect(problems).toEqual([]);
    });

    test('a wrong password and a disabled user get their Spanish messages', async () => {
      await createPortalUser(ctx.portal, {
        email: 'clave-mala@demo.local',
        password: 'Buena-Clave-2026!',
        nombres: 'Clave Mala',
        profile: 'Soporte',
      });
      await ctx.portal.identity.admin.adminCreateUser({
        username: 'deshabilitado@demo.local',
        attributes: { email: 'deshabilitado@demo.local' },
        temporaryPassword: 'Pausa-Clave-2026!',
      });
      await ctx.portal.identity.admin.adminSetUserPassword('deshabilitado@demo.local', 'Pausa-Clave-2026!', true);
      await ctx.portal.identity.admin.adminDisableUser('deshabilitado@demo.local');

      const page = await freshPage();
      await page.goto(`${ctx.portal.url}/login`);
      await waitForHydration(page);
      const alert = page.locator('main').getByRole('alert');

      await submitSignIn(page, 'clave-mala@demo.local', 'Otra-Clave-2026!');
      await alert.filter({ hasText: MESSAGES.auth.wrongCredentials }).waitFor();
      expect((await alert.innerText()).trim()).toBe('Correo o contraseña incorrectos');
      expect(new URL(page.url()).pathname).toBe('/login');

      await submitSignIn(page, 'deshabilitado@demo.local', 'Pausa-Clave-2026!');
      await alert.filter({ hasText: MESSAGES.auth.disabled }).waitFor();
      expect((await alert.innerText()).trim()).toBe('Tu usuario está deshabilitado. Contacta a un administrador.');
      expect(new URL(page.url()).pathname).toBe('/login');
      expect(await storedSession(page, ctx.portal.clientId)).toMatchObject({ username: null, keys: [] });
    });

    test("the submit button shows 'Cargando...' while signing in", async () => {
      const page = await freshPage();
      let delayed = 0;
      await page.route('**/cognito/', async (route) => {
        delayed += 1;
        await new Promise((r) => setTimeout(r, 700));
        await route.continue();
      });
      await page.goto(`${ctx.portal.url}/login`);
      await waitForHydration(page);
      await submitSignIn(page, INVENTARIO_EMAIL, 'Demo-Portal-2026!');
      const submit = page.locator('main form button[type="submit"]');
      await submit.filter({ hasText: SPEC_TEXT.loading }).waitFor({ timeout: 2000 });
      expect((await submit.innerText()).trim()).toBe('Cargando...');
      expect(await submit.isDisabled()).toBe(true);
      await page.waitForURL((u) => u.pathname === '/inventory-management/add-device', { timeout: 20_000 });
      expect(delayed).toBeGreaterThanOrEqual(2);
    });
  });

  describe('the menu and the pages each profile is allowed', () => {
    const LANDING: Record<string, string> = {
      [ADMIN_EMAIL]: '/dashboard/general',
      [INVENTARIO_EMAIL]: '/inventory-management/add-device',
      [SOPORTE_EMAIL]: '/dashboard/general',
    };

    test.each([ADMIN_EMAIL, INVENTARIO_EMAIL, SOPORTE_EMAIL])(
      '%s: the sidebar lists exactly the granted modules and entries; / goes to the first allowed page',
      async (email) => {
        const granted = DEMO_PROFILE_PATHS[email]!;
        const expected = expectedMenu(granted);
        expect(expected.length).toBeGreaterThan(0);
        const page = await freshPage();
        expect(await signIn(page, ctx.portal.url, email)).toBe(LANDING[email]);
        expect(await sidebar(page).getAttribute('data-compact')).toBe('false');
        expect(await readExpandedMenu(page)).toEqual(expected);

        // `/` typed directly goes to the same first allowed page.
        await page.goto(`${ctx.portal.url}/`);
        await page.waitForURL((u) => u.pathname === LANDING[email]);
        await waitForLayout(page);
        expect(await readExpandedMenu(page)).toEqual(expected);
      },
    );

    test('the demo profiles differ as the bootstrap says (the expectations above are not vacuous)', () => {
      const titles = (email: string) => expectedMenu(DEMO_PROFILE_PATHS[email]!).map((m) => [m.title, m.children.map((c) => c.title)]);
      expect(titles(INVENTARIO_EMAIL)).toEqual([
        ['Gestión de inventario', ['Registro de dispositivos', 'Dispositivos enrolados', 'Dispositivos pre-enrolados', 'Grupos de dispositivos']],
      ]);
      expect(titles(SOPORTE_EMAIL)).toEqual([
        ['Dashboard', ['General', 'Android']],
        ['Gestión de inventario', ['Dispositivos enrolados']],
      ]);
      expect(titles(ADMIN_EMAIL).map(([module]) => module)).toEqual([
        'Dashboard',
        'Configuración de agente Smartphone',
        'Configuración de agente TV',
        'Gestión de inventario',
        'Créditos',
        'Configuración de administradores',
      ]);
      expect(titles(ADMIN_EMAIL).find(([module]) => module === 'Créditos')).toEqual([
        'Créditos',
        ['Cartera de créditos', 'Política de cobranza', 'Conciliación'],
      ]);
    });

    test('a page outside the profile typed directly shows NO AUTORIZADO; an allowed one does not', async () => {
      const page = await freshPage();
      await signIn(page, ctx.portal.url, SOPORTE_EMAIL);
      const main = page.getByRole('main');

      await page.goto(`${ctx.portal.url}/admin-settings/roles`);
      await waitForLayout(page);
      const denied = main.getByRole('alert');
      await denied.waitFor();
      expect((await denied.innerText()).trim()).toBe(SPEC_TEXT.notAuthorized);
      expect(SPEC_TEXT.notAuthorized).toBe('NO AUTORIZADO - No cuenta con los permisos necesarios para poder acceder a esta página');
      expect(await main.getByRole('heading', { level: 1 }).count()).toBe(0);
      expect(new URL(page.url()).pathname).toBe('/admin-settings/roles');

      await page.goto(`${ctx.portal.url}/inventory-management/devices`);
      await waitForLayout(page);
      await main.getByRole('heading', { level: 1, name: 'Dispositivos enrolados', exact: true }).waitFor();
      expect(await main.getByText(SPEC_TEXT.notAuthorized).count()).toBe(0);
    });
  });

  describe('the compact menu', () => {
    test('narrower than 768 px: module icon buttons whose dropdown lists the allowed entries; an entry navigates', async () => {
      const page = await freshPage(NARROW);
      await signIn(page, ctx.portal.url, SOPORTE_EMAIL);
      const nav = page.locator('nav[aria-label="Menú principal"][data-compact="true"]');
      await nav.waitFor();
      const expected = expectedMenu(DEMO_PROFILE_PATHS[SOPORTE_EMAIL]!);

      // No expanded links: one icon button per allowed module.
      expect(await nav.locator('a.nav-link').count()).toBe(0);
      const buttons = nav.locator(':scope > ul > li button');
      expect(await buttons.evaluateAll((bs) => bs.map((b) => b.getAttribute('aria-label')))).toEqual(expected.map((m) => m.title));
      expect(await buttons.evaluateAll((bs) => bs.map((b) => (b.textContent ?? '').trim()))).toEqual(expected.map(() => ''));

      const inventory = expected.find((m) => m.path === '/inventory-management')!;
      await nav.getByRole('button', { name: inventory.title, exact: true }).click();
      const open = nav.locator('.dropdown-menu.show');
      await open.waitFor();
      const items = open.locator('.dropdown-item');
      expect(await items.evaluateAll((as) => as.map((a) => [(a.textContent ?? '').trim(), a.getAttribute('href')]))).toEqual(
        inventory.children.map((c) => [c.title, c.path]),
      );
      await items.first().click();
      await page.waitForURL((u) => u.pathname === inventory.children[0]!.path);
      await page.getByRole('main').getByRole('heading', { level: 1, name: inventory.children[0]!.title, exact: true }).waitFor();

      const dashboard = expected.find((m) => m.path === '/dashboard')!;
      await nav.getByRole('button', { name: dashboard.title, exact: true }).click();
      const dashItems = nav.locator('.dropdown-menu.show .dropdown-item');
      await dashItems.first().waitFor();
      expect(await dashItems.allInnerTexts()).toEqual(dashboard.children.map((c) => c.title));
      await nav.locator('.dropdown-menu.show').getByText('Android', { exact: true }).click();
      await page.waitForURL((u) => u.pathname === '/dashboard/android');
    });

    test('wide: the header toggle collapses the menu, the choice survives a reload, and the app version moves into a tooltip', async () => {
      const page = await freshPage(WIDE);
      await signIn(page, ctx.portal.url, ADMIN_EMAIL);
      const nav = sidebar(page);
      const footer = page.getByTestId('app-version');
      expect(await nav.getAttribute('data-compact')).toBe('false');
      await footer.filter({ hasText: DEMO_APP_VERSION }).waitFor();
      expect((await footer.innerText()).trim()).toBe(DEMO_APP_VERSION);

      await page.getByRole('button', { name: 'Mostrar u ocultar el menú', exact: true }).click();
      await page.locator('nav[aria-label="Menú principal"][data-compact="true"]').waitFor();
      expect(await nav.locator('a.nav-link').count()).toBe(0);
      expect((await footer.innerText()).trim()).toBe('');
      await page.waitForFunction(() => /"menuCollapsed":"true"/.test(localStorage.getItem('persist:portal-ui') ?? ''));

      await page.reload();
      await waitForLayout(page);
      await page.locator('nav[aria-label="Menú principal"][data-compact="true"]').waitFor();

      // Collapsed: the version is a tooltip of the footer icon, on hover and on focus.
      const tooltip = page.getByRole('tooltip');
      const icon = footer.getByRole('button');
      await page.waitForFunction(
        (text) => document.querySelector('[data-testid="app-version"] button')?.getAttribute('aria-label') === text,
        DEMO_APP_VERSION,
      );
      await icon.hover();
      await tooltip.waitFor();
      expect((await tooltip.innerText()).trim()).toBe(DEMO_APP_VERSION);
      await page.mouse.move(WIDE.width - 10, WIDE.height - 10);
      await tooltip.waitFor({ state: 'detached' });
      await icon.focus();
      await tooltip.waitFor();
      expect((await tooltip.innerText()).trim()).toBe(DEMO_APP_VERSION);

      // And back: expanded again, the version is plain text.
      await page.getByRole('button', { name: 'Mostrar u ocultar el menú', exact: true }).click();
      await page.locator('nav[aria-label="Menú principal"][data-compact="false"]').waitFor();
      expect((await footer.innerText()).trim()).toBe(DEMO_APP_VERSION);
    });
  });

  test('every route of the route table loads signed in as the administrator: no console problem, no hydration error, the route title as h1', async () => {
    const page = await freshPage();
    const problems = collectProblems(page);
    await signIn(page, ctx.portal.url, ADMIN_EMAIL);
    const visited: string[] = [];
    for (const route of ROUTES) {
      const res = await page.goto(`${ctx.portal.url}${route.path}`);
      expect(res?.status()).toBe(200);
      await waitForHydration(page);
      if (route.frame === 'app') {
        await waitForLayout(page);
        // Both calls of the layout answered: nothing is still on its way to the console.
        await page.getByTestId('portal-version').filter({ hasText: ctx.portal.portalVersion }).waitFor();
        await page.getByTestId('app-version').filter({ hasText: DEMO_APP_VERSION }).waitFor();
        const main = page.getByRole('main');
        // Four routes only redirect: `/`, `/dashboard`, `/admin-settings` and `/inventory-management` go to their first allowed page.
        const redirects: Record<string, { to: string; title: string }> = {
          '/': { to: '/dashboard/general', title: 'General' },
          '/dashboard': { to: '/dashboard/general', title: 'General' },
          '/admin-settings': { to: '/admin-settings/admins', title: 'Administradores' },
          '/inventory-management': { to: '/inventory-management/add-device', title: 'Registro de dispositivos' },
        };
        const redirect = redirects[route.path];
        if (redirect) {
          await page.waitForURL((u) => u.pathname === redirect.to);
          await main.getByRole('heading', { level: 1, name: redirect.title, exact: true }).waitFor();
        } else {
          const h1 = main.getByRole('heading', { level: 1 });
          await h1.waitFor();
          expect(`${route.path}: ${(await h1.innerText()).trim()}`).toBe(`${route.path}: ${route.title}`);
          expect(await main.getByText(SPEC_TEXT.notAuthorized).count()).toBe(0);
        }
      }
      visited.push(route.path);
      expect({ route: route.path, problems }).toEqual({ route: route.path, problems: [] });
    }
    expect(visited).toEqual(ROUTES.map((r) => r.path));
  }, 90_000);
});
