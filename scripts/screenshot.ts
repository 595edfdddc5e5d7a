/**
 * `npm run screenshot`: docs/screenshot.png, the enrolled devices page of the demo fleet as the
 * demo administrator sees it, in Chromium at 1280×800. It runs the built server
 * (`dist/`, built first when stale) on a temporary database with the demo accounts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launchBrowser, waitForHydration } from '../tests/helpers/browser';
import { spawnServer } from '../tests/helpers/spawnServer';
import { ROOT, build, isBuildStale } from './build';

const OUT = path.join(ROOT, 'docs', 'screenshot.png');
const PASSWORD = 'Captura-Portal-2026!';

if (isBuildStale()) await build();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-shot-'));
const server = await spawnServer({ cwd: ROOT, env: { DATA_DIR: dataDir, DEMO_PASSWORD: PASSWORD, LOG_LEVEL: 'warn' } });
const browser = await launchBrowser();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
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
  await page.screenshot({ path: OUT });
  console.log(`screenshot: ${path.relative(ROOT, OUT)}`);
} finally {
  await browser.close();
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
