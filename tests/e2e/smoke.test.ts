import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { ROUTES } from '../../shared/constants/routes';
import { PRODUCT_NAME } from '../../shared/messages';
import { describeWithBrowser, collectProblems, launchBrowser, waitForHydration } from '../helpers/browser';
import { spawnServer, type RunningServer } from '../helpers/spawnServer';

const ROOT = path.resolve(__dirname, '../..');

describeWithBrowser('portal in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-e2e-'));
    // As `npm start` runs it: `--demo` (server/demoEnv.ts).
    server = await spawnServer({ cwd: ROOT, env: { DATA_DIR: dataDir, SHUTDOWN_DELAY_MS: '0' }, args: ['--demo'] });
    browser = await launchBrowser();
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('/login is server-rendered: the form is there with JavaScript disabled', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const res = await page.goto(`${server.url}/login`);
    expect(res?.status()).toBe(200);
    expect(await page.title()).toBe(PRODUCT_NAME);
    await expect(page.getByLabel('Correo electrónico').isVisible()).resolves.toBe(true);
    await expect(page.getByLabel('Contraseña').isVisible()).resolves.toBe(true);
    await expect(page.getByRole('button', { name: 'Iniciar sesión' }).isVisible()).resolves.toBe(true);
    expect(await page.getAttribute('html', 'data-hydrated')).toBeNull();
    await context.close();
  });

  test('/login hydrates with no console errors or warnings', async () => {
    const page = await browser.newPage();
    const problems = collectProblems(page);
    await page.goto(`${server.url}/login`);
    await waitForHydration(page);
    await page.getByLabel('Correo electrónico').fill('ana@example.com');
    expect(await page.getByLabel('Correo electrónico').inputValue()).toBe('ana@example.com');
    expect(problems).toEqual([]);
    await page.close();
  });

  test.each(ROUTES.map((r) => [r.path, r.frame]))('%s renders and hydrates cleanly without a session', async (route, frame) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const problems = collectProblems(page);
    const res = await page.goto(`${server.url}${route}`);
    expect(res?.status()).toBe(200);
    await waitForHydration(page);
    expect(await page.title()).toBe(PRODUCT_NAME);
    if (frame === 'app') {
      // A signed-in page seen by nobody: the spinner, then the sign-in page.
      await page.waitForURL(`${server.url}/login`);
      await page.getByLabel('Correo electrónico').waitFor();
    } else if (route === '/google') {
      await expect(page.getByRole('heading', { level: 1, name: 'Registro de Android Enterprise' }).isVisible()).resolves.toBe(true);
    }
    expect(problems).toEqual([]);
    await context.close();
  });

  test('unknown paths show the 404 page', async () => {
    const page = await browser.newPage();
    const problems = collectProblems(page);
    const missing = await page.goto(`${server.url}/no-existe`);
    expect(missing?.status()).toBe(404);
    await waitForHydration(page);
    await expect(page.getByRole('heading', { name: 'Página no encontrada' }).isVisible()).resolves.toBe(true);
    // The 404 document itself is the only failed load the browser reports.
    expect(problems.filter((p) => !/status of 404/.test(p))).toEqual([]);
    await page.close();
  });
});
