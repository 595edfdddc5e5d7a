/**
 * The signed-in portal for browser tests: one in-process server with the demo accounts per
 * test file, signing in through the real sign-in page, and small readers of what the browser
 * keeps (the amazon-cognito-identity-js keys in localStorage) and shows (toasts, the menu).
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { DEMO_DEFAULTS } from '../../server/demoEnv';
import type { Config } from '../../server/config';
import { ADMIN_PROFILE, DEFAULT_ADMIN_EMAIL, DEMO_ACCOUNTS, bootstrap } from '../../server/db/bootstrap';
import type { IdentityService } from '../../server/identity/identityService';
import { MENU } from '../../shared/constants/routes';
import { MESSAGES } from '../../shared/messages';
import { launchBrowser, waitForHydration } from './browser';
import type { LogCapture } from './testApp';
import { createTestDb, type TestDb } from './testDb';

/** The password of every demo account of the test servers. */
export const DEMO_PASSWORD = 'Demo-Portal-2026!';
export const ADMIN_EMAIL = DEFAULT_ADMIN_EMAIL;
export const INVENTARIO_EMAIL = 'inventario@demo.local';
export const SOPORTE_EMAIL = 'soporte@demo.local';
export const WIDE = { width: 1280, height: 800 } as const;
export const NARROW = { width: 375, height: 800 } as const;

const TARGET_PREFIX = 'AWSCognitoIdentityProviderService.';

export interface Portal {
  /** http://127.0.0.1:<port> */
  url: string;
  config: Config;
  identity: IdentityService;
  logs: LogCapture;
  testDb: TestDb;
  clientId: string;
  /** The version in package.json, which the header shows. */
  portalVersion: string;
  close(): Promise<void>;
}

/** The version field of the repository's package.json. */
export function packageVersion(root: string): string {
  return (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;
}

/**
 * The real app on a fresh PGlite database with the demo accounts (password DEMO_PASSWORD),
 * listening on a free port of 127.0.0.1. Its portal version is the package.json version, as
 * the build stamps it into the production server.
 */
export async function startPortal(): Promise<Portal> {
  // Loaded on demand: testApp finds dist/ through __dirname, which scripts run by tsx lack.
  const { buildTestApp, testConfig, DIST_DIR } = await import('./testApp');
  // The embedded demo's settings (server/demoEnv.ts): webhooks to a receiver on 127.0.0.1, agents enrolling from it.
  const env = { ...DEMO_DEFAULTS, DEMO_PASSWORD };
  const portalVersion = packageVersion(path.resolve(DIST_DIR, '..'));
  const config: Config = { ...testConfig(env), portalVersion };
  const testDb = await createTestDb('pglite');
  const built = await buildTestApp(testDb.db, { env, deps: { config } });
  const identity = built.deps.identity;
  if (!identity) throw new Error('the test server has no embedded identity endpoint');
  await bootstrap(testDb.db, config, identity);
  const server = http.createServer(built.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    config,
    identity,
    logs: built.logs,
    testDb,
    clientId: config.identity.clientId,
    portalVersion,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await testDb.dispose();
    },
  };
}

/**
 * A user of both the identity endpoint and the portal (an administrator record holding the
 * named profile). With `temporary` the user must choose a new password at the first sign-in.
 */
export async function createPortalUser(
  portal: Portal,
  user: { email: string; password: string; nombres: string; apellidos?: string; profile: string; temporary?: boolean },
): Promise<void> {
  await portal.identity.admin.adminCreateUser({
    username: user.email,
    attributes: { email: user.email, email_verified: 'true' },
    temporaryPassword: user.password,
  });
  if (!user.temporary) await portal.identity.admin.adminSetUserPassword(user.email, user.password, true);
  const profile = await portal.testDb.db.query<{ id: number }>('SELECT id FROM profiles WHERE nombre = $1', [user.profile]);
  const profileId = profile.rows[0]?.id;
  if (profileId === undefined) throw new Error(`no profile named ${user.profile}`);
  await portal.testDb.db.query('INSERT INTO admins (correo, nombres, apellidos, profile_id) VALUES ($1, $2, $3, $4)', [
    user.email,
    user.nombres,
    user.apellidos ?? '',
    profileId,
  ]);
}

/** Fills the sign-in form of the current page and submits it (no waiting for the outcome). */
export async function submitSignIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel(MESSAGES.loginEmail, { exact: true }).fill(email);
  await page.getByLabel(MESSAGES.loginPassword, { exact: true }).fill(password);
  await page.getByRole('button', { name: MESSAGES.loginSubmit, exact: true }).click();
}

/**
 * Waits until a signed-in page is hydrated and shows the layout with the user's record, both in
 * one document: the sign-in page changes the URL in its own router before the browser loads the
 * signed-in app, so a hydrated /login document followed by the app's server-rendered header would
 * otherwise pass for a hydrated app.
 */
export async function waitForLayout(page: Page, timeout = 15_000): Promise<void> {
  await page.locator('html[data-hydrated="true"] [data-testid="user-names"]').waitFor({ state: 'visible', timeout });
}

/**
 * Signs in through /login (SRP in the browser) and waits for the landing page: `landing` when
 * given, else any page other than /login and /. Returns the landing path.
 */
export async function signIn(
  page: Page,
  baseUrl: string,
  email: string,
  password: string = DEMO_PASSWORD,
  opts: { landing?: string } = {},
): Promise<string> {
  await page.goto(`${baseUrl}/login`);
  await waitForHydration(page);
  await submitSignIn(page, email, password);
  await page.waitForURL((u) => (opts.landing ? u.pathname === opts.landing : u.pathname !== '/login' && u.pathname !== '/'), {
    timeout: 20_000,
  });
  await waitForLayout(page);
  return new URL(page.url()).pathname;
}

/** The amazon-cognito-identity-js keys of the signed-in user, as localStorage holds them. */
export interface StoredSession {
  prefix: string;
  username: string | null;
  keys: string[];
  accessToken: string | null;
  idToken: string | null;
  refreshToken: string | null;
  clockDrift: string | null;
}

export async function storedSession(page: Page, clientId: string): Promise<StoredSession> {
  return page.evaluate((id) => {
    const prefix = `CognitoIdentityServiceProvider.${id}`;
    const username = localStorage.getItem(`${prefix}.LastAuthUser`);
    const get = (k: string) => (username ? localStorage.getItem(`${prefix}.${username}.${k}`) : null);
    const keys = Object.keys(localStorage).filter((k) => k.startsWith(`${prefix}.`));
    return {
      prefix,
      username,
      keys,
      accessToken: get('accessToken'),
      idToken: get('idToken'),
      refreshToken: get('refreshToken'),
      clockDrift: get('clockDrift'),
    };
  }, clientId);
}

/** Every localStorage key of the page that belongs to amazon-cognito-identity-js. */
export async function cognitoKeys(page: Page): Promise<string[]> {
  return page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('CognitoIdentityServiceProvider.')));
}

/** One call of the identity endpoint's JSON protocol, as a client outside the browser makes it. */
export async function cognitoCall(baseUrl: string, operation: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${baseUrl}/cognito/`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': `${TARGET_PREFIX}${operation}` },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** A REFRESH_TOKEN_AUTH call with `refreshToken`. */
export function refreshWith(portal: Portal, refreshToken: string) {
  return cognitoCall(portal.url, 'InitiateAuth', {
    AuthFlow: 'REFRESH_TOKEN_AUTH',
    ClientId: portal.clientId,
    AuthParameters: { REFRESH_TOKEN: refreshToken },
  });
}

/** The profile paths of each demo account, as the bootstrap grants them. */
export const DEMO_PROFILE_PATHS: Readonly<Record<string, readonly string[]>> = {
  [ADMIN_EMAIL]: ADMIN_PROFILE.paths,
  ...Object.fromEntries(DEMO_ACCOUNTS.map((a) => [a.correo, a.profile.paths])),
};

export interface MenuEntry {
  title: string;
  path: string;
}
export interface MenuGroup extends MenuEntry {
  children: MenuEntry[];
}

/** What the sidebar must list for a set of granted paths: MENU, each entry kept only if granted. */
export function expectedMenu(granted: readonly string[]): MenuGroup[] {
  const set = new Set(granted);
  return MENU.filter((m) => set.has(m.path)).map((m) => ({
    title: m.title,
    path: m.path,
    children: m.submodules.filter((s) => set.has(s.path)).map((s) => ({ title: s.title, path: s.path })),
  }));
}

/** The main menu. */
export function sidebar(page: Page): Locator {
  return page.locator('nav[aria-label="Menú principal"]');
}

/** The expanded sidebar as the user sees it: module links, each with its entry links. */
export async function readExpandedMenu(page: Page): Promise<MenuGroup[]> {
  return sidebar(page)
    .locator(':scope > ul > li')
    .evaluateAll((items) =>
      items.map((li) => {
        const link = li.querySelector(':scope > a');
        return {
          title: link?.textContent?.trim() ?? '',
          path: link?.getAttribute('href') ?? '',
          children: Array.from(li.querySelectorAll(':scope > ul > li > a')).map((a) => ({
            title: a.textContent?.trim() ?? '',
            path: a.getAttribute('href') ?? '',
          })),
        };
      }),
    );
}

/** The toast showing `text` (react-toastify). */
export function toast(page: Page, text: string): Locator {
  return page.locator('.Toastify__toast', { hasText: text });
}

/** Closes every toast with its close button (toasts sit over the user menu, top right). */
export async function dismissToasts(page: Page): Promise<void> {
  const toasts = page.locator('.Toastify__toast');
  for (let n = await toasts.count(); n > 0; n = await toasts.count()) {
    await toasts.first().getByRole('button').first().click();
    await page.waitForFunction((before) => document.querySelectorAll('.Toastify__toast').length < before, n);
  }
}

/** Opens the user menu of the header and asks to sign out: the confirm dialog opens. */
export async function openLogoutDialog(page: Page): Promise<Locator> {
  await dismissToasts(page);
  await page.locator('#user-menu').click();
  await page
    .getByRole('button', { name: 'Cerrar sesión', exact: true })
    .or(page.getByRole('menuitem', { name: 'Cerrar sesión', exact: true }))
    .first()
    .click();
  const dialog = page.getByRole('dialog', { name: 'Cerrar sesión', exact: true });
  await dialog.waitFor({ state: 'visible' });
  return dialog;
}

/** Signs out through the user menu and its dialog; waits for /login. */
export async function signOut(page: Page): Promise<void> {
  const dialog = await openLogoutDialog(page);
  await dialog.getByRole('button', { name: 'Si, estoy seguro', exact: true }).click();
  await page.waitForURL((u) => u.pathname === '/login');
  await waitForHydration(page);
}

export interface PortalBrowser {
  readonly portal: Portal;
  readonly browser: Browser;
  /**
   * A page in a fresh context (clean storage, its own viewport), closed after the test;
   * `timezoneId` sets the browser's time zone (the system's by default).
   */
  freshPage(opts?: { viewport?: { width: number; height: number }; bypassCSP?: boolean; timezoneId?: string }): Promise<Page>;
}

/**
 * The set-up every browser suite shares: one portal and one Chromium for the file (beforeAll),
 * a fresh context per test (closed afterEach), both shut down afterAll.
 */
export function usePortalBrowser(): PortalBrowser {
  let portal: Portal | undefined;
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  beforeAll(async () => {
    const [p, b] = await Promise.allSettled([startPortal(), launchBrowser()]);
    if (p.status === 'fulfilled') portal = p.value;
    if (b.status === 'fulfilled') browser = b.value;
    // One of them failed: the other must not keep jest from exiting.
    if (p.status === 'rejected' || b.status === 'rejected') {
      await browser?.close();
      await portal?.close();
      browser = undefined;
      portal = undefined;
      throw p.status === 'rejected' ? p.reason : (b as PromiseRejectedResult).reason;
    }
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await portal?.close();
  });
  afterEach(async () => {
    await context?.close();
    context = undefined;
  });
  return {
    get portal() {
      return portal!;
    },
    get browser() {
      return browser!;
    },
    async freshPage({ viewport = WIDE, bypassCSP = false, timezoneId } = {}) {
      context = await browser!.newContext({ viewport, bypassCSP, ...(timezoneId && { timezoneId }) });
      return context.newPage();
    },
  };
}
