/**
 * `npm run screenshot`: docs/screenshot.png, the enrolled devices page of the demo fleet as the
 * demo administrator sees it, in Chromium at 1366×800 (a common laptop; the menu expanded): the
 * whole width of the table, its actions column included. It runs the built server (`dist/`,
 * built first when stale) on a temporary database with the demo accounts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launchBrowser, waitForHydration } from '../tests/helpers/browser';
import { spawnServer } from '../tests/helpers/spawnServer';
import { ROOT, build, isBuildStale } from './build';

const OUT = path.join(ROOT, 'docs', 'screenshot.png');
const PASSWORD = 'Captura-Portal-2026!';
const VIEWPORT = { width: 1366, height: 800 } as const;

if (isBuildStale()) await build();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-shot-'));
// Without the simulated agents (all 'ahora', one group): the seeded fleet's statuses, lock types and groups.
const server = await spawnServer({ cwd: ROOT, env: { DATA_DIR: dataDir, DEMO_PASSWORD: PASSWORD, DEMO_AGENTS: '0', LOG_LEVEL: 'warn' } });
const browser = await launchBrowser();
try {
  const page = await browser.newPage({ viewport: VIEWPORT });
  await page.goto(`${server.url}/login`);
  await waitForHydration(page);
  await page.getByLabel('Correo electrónico').fill('admin@demo.local');
  await page.getByLabel('Contraseña').fill(PASSWORD);
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
  await page.waitForURL('**/dashboard/general');
  await page.goto(`${server.url}/inventory-management/devices`);
  await page.getByRole('heading', { level: 1, name: 'Dispositivos enrolados' }).waitFor();
  await page.getByTestId('device-row').first().waitFor();
  await page.getByTestId('portal-version').getByText('0.').waitFor();
  // The shot shows the whole table: nothing of it scrolls out of sight sideways.
  const overflow = await page.evaluate(() => {
    const box = document.querySelector('main .portal-data-table');
    return { page: document.documentElement.scrollWidth, table: box ? box.scrollWidth - box.clientWidth : 0 };
  });
  if (overflow.page > VIEWPORT.width || overflow.table > 0) {
    throw new Error(`the devices table does not fit ${VIEWPORT.width} px: ${JSON.stringify(overflow)}`);
  }
  await page.screenshot({ path: OUT });
  console.log(`screenshot: ${path.relative(ROOT, OUT)}`);
} finally {
  await browser.close();
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
