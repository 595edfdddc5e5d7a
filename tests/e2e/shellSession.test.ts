/**
 * The session in Chromium (reference §2, §5, §8, §9): logout, HTTP 401, the user-load
 * retries, API and network errors as toasts, the token refresh threshold, an unreadable stored
 * session, the account page and the password flows (change, first sign-in, forgotten).
 */
import type { Page, Request } from 'playwright-core';
import { TOKEN_REFRESH_THRESHOLD_SECONDS, USER_DATA_EXTRA_RETRIES } from '../../shared/constants/business';
import { LABELS } from '../../shared/constants/labels';
import { MESSAGES, SPEC_TEXT } from '../../shared/messages';
import { describeWithBrowser, waitForHydration } from '../helpers/browser';
import {
  ADMIN_EMAIL,
  DEMO_PROFILE_PATHS,
  INVENTARIO_EMAIL,
  SOPORTE_EMAIL,
  WIDE,
  cognitoCall,
  cognitoKeys,
  createPortalUser,
  expectedMenu,
  openLogoutDialog,
  refreshWith,
  signIn,
  signOut,
  storedSession,
  submitSignIn,
  toast,
  waitForLayout,
  usePortalBrowser,
} from '../helpers/portalSession';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describeWithBrowser('the session in Chromium', () => {
  const ctx = usePortalBrowser();
  const freshPage = () => ctx.freshPage();

  const path = (page: Page) => new URL(page.url()).pathname;

  describe('logout', () => {
    test('the confirm dialog: Cancelar keeps the session; accepting revokes it, clears storage, and Back does not re-enter', async () => {
      const page = await freshPage();
      await signIn(page, ctx.portal.url, INVENTARIO_EMAIL);
      // A second history entry, so that Back has a protected page to return to.
      await page.getByRole('navigation', { name: 'Menú principal' }).getByRole('link', { name: 'Grupos de dispositivos', exact: true }).click();
      await page.waitForURL((u) => u.pathname === '/inventory-management/devices-group');
      const before = await storedSession(page, ctx.portal.clientId);
      expect(before.refreshToken).toBeTruthy();

      let dialog = await openLogoutDialog(page);
      expect((await dialog.locator('.modal-title').innerText()).trim()).toBe('Cerrar sesión');
      expect((await dialog.locator('.modal-body').innerText()).trim()).toBe('¿Esta seguro de que quiere cerrar su sesión?');
      expect((await dialog.locator('.modal-footer button').allInnerTexts()).map((t) => t.trim())).toEqual(['Cancelar', 'Si, estoy seguro']);

      await dialog.getByRole('button', { name: 'Cancelar', exact: true }).click();
      await dialog.waitFor({ state: 'detached' });
      expect(path(page)).toBe('/inventory-management/devices-group');
      await waitForLayout(page);
      expect((await storedSession(page, ctx.portal.clientId)).keys).toEqual(before.keys);

      dialog = await openLogoutDialog(page);
      await dialog.getByRole('button', { name: 'Si, estoy seguro', exact: true }).click();
      await page.waitForURL((u) => u.pathname === '/login');
      await page.getByRole('button', { name: MESSAGES.loginSubmit, exact: true }).waitFor();
      expect(await page.evaluate(() => localStorage.length)).toBe(0);

      await page.goBack();
      await page.waitForURL((u) => u.pathname === '/login');
      await page.getByRole('button', { name: MESSAGES.loginSubmit, exact: true }).waitFor();
      expect(await page.getByTestId('user-names').count()).toBe(0);
      expect(await page.getByRole('heading', { name: 'Grupos de dispositivos' }).count()).toBe(0);

      const after = await refreshWith(ctx.portal, before.refreshToken!);
      expect(after.body).toEqual({ __type: 'NotAuthorizedException', message: 'Refresh Token has been revoked' });
    });
  });

  describe('API errors', () => {
    test('HTTP 401 from the API ends the session: /login?current_session_expire=1, the notice, storage cleared', async () => {
      const page = await freshPage();
      await signIn(page, ctx.portal.url, ADMIN_EMAIL);
      // A UI preference the portal keeps (the collapsed menu) must go too.
      await page.getByRole('button', { name: 'Mostrar u ocultar el menú' }).click();
      await page.waitForFunction(() => /"menuCollapsed":"true"/.test(localStorage.getItem('persist:portal-ui') ?? ''));
      expect((await cognitoKeys(page)).length).toBeGreaterThan(0);
      await page.route('**/api/portal/getVersion', (r) =>
        r.fulfill({ status: 401, contentType: 'application/json', body: '{"message":"Unauthorized"}' }),
      );
      await page.goto(`${ctx.portal.url}/dashboard/general`);
      await page.waitForURL((u) => u.pathname === '/login' && u.searchParams.get('current_session_expire') === '1');
      await waitForHydration(page);
      const notice = page.getByTestId('session-expired');
      await notice.waitFor();
      expect(await notice.innerText()).toContain(MESSAGES.sessionExpiredNotice);
      expect(await notice.getAttribute('role')).toBe('alert');
      expect((await page.getByTestId('session-expired-error').innerText()).trim()).toBe(SPEC_TEXT.unauthorized);
      expect(SPEC_TEXT.unauthorized).toBe('Unauthorized');
      // Nothing the portal wrote survives: the sign-in, the collapsed menu (persist:portal-ui).
      expect(await page.evaluate(() => Object.keys(localStorage))).toEqual([]);
      expect(await page.getByTestId('user-names').count()).toBe(0);
    });

    const notFound = { status: 404, contentType: 'application/json', body: '{"message":"Usuario no encontrado"}' };

    test(`the user record is requested ${USER_DATA_EXTRA_RETRIES + 1} times, then 'Error al cargar datos del Usuario' and /login`, async () => {
      const page = await freshPage();
      await signIn(page, ctx.portal.url, SOPORTE_EMAIL);
      let calls = 0;
      await page.route('**/api/v5/users/getUserByEmail', (r) => {
        calls += 1;
        return r.fulfill(notFound);
      });
      await page.goto(`${ctx.portal.url}/dashboard/general`);
      // Five attempts 300 ms apart take about two seconds.
      const failed = toast(page, SPEC_TEXT.userLoadError);
      await failed.waitFor({ timeout: 8000 }).catch(() => {
        throw new Error(`no '${SPEC_TEXT.userLoadError}' toast after ${calls} requests of the user record (still at ${page.url()})`);
      });
      expect(SPEC_TEXT.userLoadError).toBe('Error al cargar datos del Usuario');
      await page.waitForURL((u) => u.pathname === '/login');
      expect(calls).toBe(5);
      // No further attempt once the session has ended (longer than the pause between attempts).
      await sleep(1000);
      expect(calls).toBe(5);
      expect(await cognitoKeys(page)).toEqual([]);
    });

    test('an identity user without a portal record (the real API answers 404): five attempts, the toast, /login', async () => {
      const email = 'sin-registro@demo.local';
      await ctx.portal.identity.admin.adminCreateUser({ username: email, attributes: { email }, temporaryPassword: 'Sin-Registro-2026!' });
      await ctx.portal.identity.admin.adminSetUserPassword(email, 'Sin-Registro-2026!', true);
      const page = await freshPage();
      let calls = 0;
      page.on('request', (req) => {
        if (new URL(req.url()).pathname === '/api/v5/users/getUserByEmail') calls += 1;
      });
      await page.goto(`${ctx.portal.url}/login`);
      await waitForHydration(page);
      await submitSignIn(page, email, 'Sin-Registro-2026!');
      await toast(page, SPEC_TEXT.userLoadError)
        .waitFor({ timeout: 8000 })
        .catch(() => {
          throw new Error(`no '${SPEC_TEXT.userLoadError}' toast after ${calls} requests of the user record (still at ${page.url()})`);
        });
      await page.waitForURL((u) => u.pathname === '/login');
      expect(calls).toBe(5);
      expect(await cognitoKeys(page)).toEqual([]);
    });

    test('the user record answered at the third attempt: the layout shows', async () => {
      const page = await freshPage();
      await signIn(page, ctx.portal.url, SOPORTE_EMAIL);
      let calls = 0;
      await page.route('**/api/v5/users/getUserByEmail', (r) => {
        calls += 1;
        return calls < 3 ? r.fulfill(notFound) : r.continue();
      });
      await page.goto(`${ctx.portal.url}/dashboard/general`);
      await waitForLayout(page, 8000).catch(() => {
        throw new Error(`no layout after ${calls} requests of the user record (still at ${page.url()})`);
      });
      expect((await page.getByTestId('user-names').innerText()).trim()).toBe('Soporte');
      await page.getByRole('main').getByRole('heading', { level: 1, name: 'General', exact: true }).waitFor();
      expect(calls).toBe(3);
      expect(path(page)).toBe('/dashboard/general');
      expect(await toast(page, SPEC_TEXT.userLoadError).count()).toBe(0);
    });

    test("a network failure toasts 'Verifica tu conexión e intentalo de nuevo': top right, no progress bar, gone after 5 s", async () => {
      const page = await freshPage();
      await signIn(page, ctx.portal.url, SOPORTE_EMAIL);
      await page.route('**/api/portal/getVersion', (r) => r.abort('internetdisconnected'));
      await page.goto(`${ctx.portal.url}/dashboard/general`);
      const shown = toast(page, SPEC_TEXT.networkError);
      await shown.waitFor();
      const appeared = Date.now();
      expect(SPEC_TEXT.networkError).toBe('Verifica tu conexión e intentalo de nuevo');
      expect(await shown.locator('xpath=ancestor::*[contains(@class, "Toastify__toast-container")][1]').getAttribute('class')).toContain(
        'Toastify__toast-container--top-right',
      );
      const box = await shown.boundingBox();
      expect(box).not.toBeNull();
      expect(box!.x + box!.width).toBeGreaterThan(WIDE.width * 0.75);
      expect(box!.y).toBeLessThan(WIDE.height * 0.25);
      // react-toastify keeps its timer element; with hideProgressBar it is hidden from sight and from assistive technology.
      const bars = await shown
        .locator('[role="progressbar"]')
        .evaluateAll((els) =>
          els.map((el) => ({ ariaHidden: el.getAttribute('aria-hidden'), opacity: getComputedStyle(el.parentElement!).opacity })),
        );
      for (const bar of bars) expect(bar).toEqual({ ariaHidden: 'true', opacity: '0' });
      // The page stays usable: the session goes on.
      await waitForLayout(page);

      // Timing is the subject here (auto-close 5000 ms): still there at ~4 s; closing (its exit
      // animation started, or already gone) by ~6.5 s; then gone. react-toastify starts the 5 s
      // when its entry animation ends (half a second) and its exit animation and collapse take
      // most of a second more, so the close is timed where it starts.
      await sleep(Math.max(0, 4000 - (Date.now() - appeared)));
      expect(await shown.isVisible()).toBe(true);
      await page.waitForFunction(
        (text) => {
          const t = [...document.querySelectorAll<HTMLElement>('.Toastify__toast')].find((e) => e.textContent?.includes(text));
          return !t || t.dataset.in === 'false';
        },
        SPEC_TEXT.networkError,
        { timeout: Math.max(1, 6500 - (Date.now() - appeared)) },
      );
      await shown.waitFor({ state: 'detached', timeout: 3000 });
    });

    test.each([
      ['{"message":"Algo falló"}', 'Algo falló'],
      ['{}', SPEC_TEXT.apiErrorFallback],
      ['', SPEC_TEXT.apiErrorFallback],
    ])('an API error 500 with body %j toasts %j', async (body, expected) => {
      const page = await freshPage();
      await signIn(page, ctx.portal.url, SOPORTE_EMAIL);
      await page.route('**/api/portal/getVersion', (r) => r.fulfill({ status: 500, ...(body ? { contentType: 'application/json' } : {}), body }));
      await page.goto(`${ctx.portal.url}/dashboard/general`);
      await waitForLayout(page);
      const shown = toast(page, expected);
      await shown.waitFor();
      expect((await shown.innerText()).trim()).toBe(expected);
      expect(path(page)).toBe('/dashboard/general');
      expect(SPEC_TEXT.apiErrorFallback).toBe('No Autorizado');
    });
  });

  describe('token refresh', () => {
    /** Sets the stored clock drift so that the access token has `left` seconds to live, as the page computes it. */
    async function setSecondsLeft(page: Page, left: number): Promise<void> {
      await page.evaluate(
        ({ clientId, seconds }) => {
          const prefix = `CognitoIdentityServiceProvider.${clientId}`;
          const user = localStorage.getItem(`${prefix}.LastAuthUser`);
          const access = localStorage.getItem(`${prefix}.${user}.accessToken`)!;
          const part = access.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/');
          const exp = (JSON.parse(atob(part)) as { exp: number }).exp;
          const now = Math.floor(Date.now() / 1000);
          // Seconds left = exp - (now - drift).
          localStorage.setItem(`${prefix}.${user}.clockDrift`, String(seconds - exp + now));
        },
        { clientId: ctx.portal.clientId, seconds: left },
      );
    }

    /** Counts the REFRESH_TOKEN_AUTH calls the page makes to the identity endpoint. */
    function countRefreshes(page: Page): { count: number } {
      const seen = { count: 0 };
      page.on('request', (req: Request) => {
        const target = req.headers()['x-amz-target'] ?? '';
        if (
          new URL(req.url()).pathname === '/cognito/' &&
          target.endsWith('.InitiateAuth') &&
          (req.postData() ?? '').includes('REFRESH_TOKEN_AUTH')
        ) {
          seen.count += 1;
        }
      });
      return seen;
    }

    test(`the session is refreshed with ${TOKEN_REFRESH_THRESHOLD_SECONDS - 1} s left, not with 1100 s left`, async () => {
      expect(TOKEN_REFRESH_THRESHOLD_SECONDS).toBe(1000);
      const page = await freshPage();
      await signIn(page, ctx.portal.url, ADMIN_EMAIL);
      const refreshes = countRefreshes(page);
      const settled = async () => {
        await waitForLayout(page);
        await page.getByTestId('portal-version').filter({ hasText: ctx.portal.portalVersion }).waitFor();
        await page.getByTestId('app-version').filter({ hasText: 'Macrolock (3.4.1)' }).waitFor();
      };

      await setSecondsLeft(page, 1100);
      const untouched = (await storedSession(page, ctx.portal.clientId)).accessToken;
      await page.reload();
      await settled();
      expect(refreshes.count).toBe(0);
      expect((await storedSession(page, ctx.portal.clientId)).accessToken).toBe(untouched);

      await setSecondsLeft(page, 999);
      await page.reload();
      await settled();
      expect(refreshes.count).toBeGreaterThanOrEqual(1);
      const after = await storedSession(page, ctx.portal.clientId);
      expect(after.accessToken).not.toBe(untouched);
      expect(path(page)).toBe('/dashboard/general');
    });

    test('a failed refresh (revoked refresh token) ends the session', async () => {
      const page = await freshPage();
      await signIn(page, ctx.portal.url, INVENTARIO_EMAIL);
      const refreshes = countRefreshes(page);
      const { refreshToken } = await storedSession(page, ctx.portal.clientId);
      const revoked = await cognitoCall(ctx.portal.url, 'RevokeToken', { Token: refreshToken, ClientId: ctx.portal.clientId });
      expect(revoked).toEqual({ status: 200, body: {} });
      await page.evaluate((clientId) => {
        const prefix = `CognitoIdentityServiceProvider.${clientId}`;
        const user = localStorage.getItem(`${prefix}.LastAuthUser`);
        localStorage.setItem(`${prefix}.${user}.clockDrift`, '-100000');
      }, ctx.portal.clientId);
      await page.reload();
      // amazon-cognito-identity-js retries a failed refresh with a jittered backoff (about 7 s in all).
      await page.waitForURL((u) => u.pathname === '/login', { timeout: 20_000 });
      await toast(page, SPEC_TEXT.sessionValidationError).waitFor();
      expect(refreshes.count).toBeGreaterThanOrEqual(1);
      expect(await cognitoKeys(page)).toEqual([]);
      expect(await page.getByTestId('user-names').count()).toBe(0);
    });
  });

  test("an unreadable stored session: '¡Ups!' and back to /login", async () => {
    const page = await freshPage();
    await signIn(page, ctx.portal.url, SOPORTE_EMAIL);
    await page.evaluate((clientId) => {
      const prefix = `CognitoIdentityServiceProvider.${clientId}`;
      const user = localStorage.getItem(`${prefix}.LastAuthUser`);
      localStorage.setItem(`${prefix}.${user}.idToken`, 'garbage');
    }, ctx.portal.clientId);
    await page.reload();
    const ups = toast(page, SPEC_TEXT.sessionUnreadable);
    await ups.waitFor();
    expect((await ups.innerText()).trim()).toBe('¡Ups!');
    await page.waitForURL((u) => u.pathname === '/login');
    expect(await cognitoKeys(page)).toEqual([]);
  });

  describe('/account', () => {
    test('shows the names, e-mail, profile and exactly the modules the profile grants', async () => {
      const page = await freshPage();
      await signIn(page, ctx.portal.url, SOPORTE_EMAIL);
      await page.goto(`${ctx.portal.url}/account`);
      await waitForLayout(page);
      await page.getByRole('main').getByRole('heading', { level: 1, name: 'Mi Perfil', exact: true }).waitFor();
      expect(await page.getByTestId('account-names').innerText()).toContain('Soporte');
      expect((await page.getByTestId('account-email').innerText()).trim()).toBe(SOPORTE_EMAIL);
      expect((await page.getByTestId('account-profile').innerText()).trim()).toBe('Soporte');
      const expected = expectedMenu(DEMO_PROFILE_PATHS[SOPORTE_EMAIL]!);
      expect(expected.map((m) => m.title)).toEqual(['Dashboard', 'Gestión de inventario']);
      const modules = page.getByTestId('account-modules').locator(':scope > li');
      expect(await modules.locator('.fw-semibold').allInnerTexts()).toEqual(expected.map((m) => m.title));
      expect((await modules.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim())).toEqual(
        expected.map((m) => `${m.title} ${m.children.map((c) => c.title).join(', ')}`),
      );
    });

    test('change password: wrong current password, too short, then a valid change that the next sign-in uses', async () => {
      const email = 'cambio-clave@demo.local';
      const first = 'Primera-Clave-2026!';
      const second = 'Segunda-Clave-2026!';
      await createPortalUser(ctx.portal, { email, password: first, nombres: 'Cambio', apellidos: 'Clave', profile: 'Soporte' });
      const page = await freshPage();
      await signIn(page, ctx.portal.url, email, first);
      await page.goto(`${ctx.portal.url}/account`);
      await waitForLayout(page);
      const form = page.getByRole('main').locator('form');
      const current = form.getByLabel(MESSAGES.currentPassword, { exact: true });
      const proposed = form.getByLabel(MESSAGES.newPassword, { exact: true });
      const confirm = form.getByLabel(MESSAGES.confirmPassword, { exact: true });
      const submit = form.getByRole('button', { name: MESSAGES.account.changePassword, exact: true });

      await current.fill('No-Es-La-Clave-1!');
      await proposed.fill(second);
      await confirm.fill(second);
      await submit.click();
      await toast(page, MESSAGES.auth.wrongCurrentPassword).waitFor();
      expect(MESSAGES.auth.wrongCurrentPassword).toBe('La contraseña actual no es correcta');

      await current.fill(first);
      await proposed.fill('Ab1!xyz');
      await confirm.fill('Ab1!xyz');
      await submit.click();
      const fieldError = proposed.locator('xpath=following-sibling::*[contains(@class, "invalid-feedback")][1]');
      await fieldError.waitFor();
      expect((await fieldError.innerText()).trim()).toBe(LABELS.textTooShort(8));
      expect(await proposed.getAttribute('class')).toContain('is-invalid');

      await proposed.fill(second);
      await confirm.fill(second);
      await submit.click();
      await toast(page, MESSAGES.passwordChanged).waitFor();
      expect(MESSAGES.passwordChanged).toBe('Tu contraseña se actualizó');

      await signOut(page);
      await submitSignIn(page, email, second);
      await page.waitForURL((u) => u.pathname === '/dashboard/general');
      await waitForLayout(page);
      expect((await page.getByTestId('user-names').innerText()).trim()).toBe('Cambio');
    });
  });

  describe('password flows on /login', () => {
    test('first sign-in with a temporary password: choose a new one (mismatch, weak, then good)', async () => {
      const email = 'primera-vez@demo.local';
      await createPortalUser(ctx.portal, { email, password: 'Temporal-Clave-2026!', nombres: 'Primera Vez', profile: 'Soporte', temporary: true });
      const page = await freshPage();
      await page.goto(`${ctx.portal.url}/login`);
      await waitForHydration(page);
      await submitSignIn(page, email, 'Temporal-Clave-2026!');
      await page.getByRole('heading', { level: 2, name: MESSAGES.newPasswordTitle, exact: true }).waitFor();
      const proposed = page.getByLabel(MESSAGES.newPassword, { exact: true });
      const confirm = page.getByLabel(MESSAGES.confirmPassword, { exact: true });
      const submit = page.getByRole('button', { name: MESSAGES.forgotConfirm, exact: true });

      await proposed.fill('Elegida-Clave-2026!');
      await confirm.fill('Distinta-Clave-2026!');
      await submit.click();
      const differ = confirm.locator('xpath=following-sibling::*[contains(@class, "invalid-feedback")][1]');
      await differ.waitFor();
      expect((await differ.innerText()).trim()).toBe(MESSAGES.passwordsDiffer);

      await proposed.fill('solominusculas');
      await confirm.fill('solominusculas');
      await submit.click();
      const alert = page.getByRole('main').getByRole('alert');
      await alert.filter({ hasText: MESSAGES.auth.invalidPassword }).waitFor();
      expect(path(page)).toBe('/login');

      await proposed.fill('Elegida-Clave-2026!');
      await confirm.fill('Elegida-Clave-2026!');
      await submit.click();
      await page.waitForURL((u) => u.pathname === '/dashboard/general');
      await waitForLayout(page);
      expect((await page.getByTestId('user-names').innerText()).trim()).toBe('Primera Vez');
      expect((await storedSession(page, ctx.portal.clientId)).username).toBe(email);
    });

    test('forgotten password: the code from the server log sets a new password that signs in', async () => {
      const email = 'olvido@demo.local';
      const fresh = 'Recuperada-Clave-2026!';
      await createPortalUser(ctx.portal, { email, password: 'Olvidada-Clave-2026!', nombres: 'Olvido', profile: 'Operador de inventario' });
      const page = await freshPage();
      await page.goto(`${ctx.portal.url}/login`);
      await waitForHydration(page);
      await page.getByRole('button', { name: MESSAGES.forgotLink, exact: true }).click();
      await page.getByRole('heading', { level: 2, name: MESSAGES.forgotTitle, exact: true }).waitFor();
      await page.getByLabel(MESSAGES.loginEmail, { exact: true }).fill(email);
      await page.getByRole('button', { name: MESSAGES.forgotSend, exact: true }).click();
      await page.getByText(MESSAGES.forgotCodeSent, { exact: true }).waitFor();

      const line = ctx.portal.logs.lines.filter((l) => l.username === email && typeof l.code === 'string').at(-1);
      expect(line).toBeDefined();
      await page.getByLabel(MESSAGES.forgotCode, { exact: true }).fill(line!.code as string);
      await page.getByLabel(MESSAGES.newPassword, { exact: true }).fill(fresh);
      await page.getByRole('button', { name: MESSAGES.forgotConfirm, exact: true }).click();
      await page.getByText(MESSAGES.forgotDone, { exact: true }).waitFor();
      await page.getByRole('heading', { level: 2, name: MESSAGES.loginTitle, exact: true }).waitFor();

      await submitSignIn(page, email, fresh);
      await page.waitForURL((u) => u.pathname === '/inventory-management/add-device');
      await waitForLayout(page);
      expect((await page.getByTestId('user-names').innerText()).trim()).toBe('Olvido');
    });
  });
});
