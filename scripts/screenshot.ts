/**
 * `npm run screenshot`: the pages an administrator uses most, of the demo fleet as the demo
 * administrator sees them, in Chromium at 1366×800 (a common laptop; the menu expanded) and at
 * 390×844 (a phone; the menu folded): the enrolled devices, a device's detail with a release
 * scheduled (requested from the row menu, as a person does), the groups and both dashboards, in
 * docs/screenshots/; and docs/screenshot.png (the devices page at 1366×800, the README's). It
 * runs the built server (`dist/`, built first when stale) on a temporary database with the demo
 * accounts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launchBrowser, waitForHydration } from '../tests/helpers/browser';
import { spawnServer } from '../tests/helpers/spawnServer';
import { ROOT, build, isBuildStale } from './build';

const OUT = path.join(ROOT, 'docs', 'screenshot.png');
const DIR = path.join(ROOT, 'docs', 'screenshots');
const PASSWORD = 'Captura-Portal-2026!';
const VIEWPORT = { width: 1366, height: 800 } as const;
const PHONE = { width: 390, height: 844 } as const;

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

  // A release scheduled from the row menu of an active device, as an administrator requests it.
  await page.goto(`${server.url}/inventory-management/devices?status=5`);
  const row = page.getByTestId('device-row').first();
  await row.waitFor();
  const imei = (await row.getAttribute('data-imei'))!;
  await row.getByRole('button', { name: /^Acciones del dispositivo/ }).click();
  await page.getByTestId('device-action-menu').locator('[data-action="2"]').click();
  await page.getByRole('dialog', { name: 'Liberar', exact: true }).getByRole('button', { name: 'Confirmar', exact: true }).click();
  await page.getByText(`Acción "Liberar" solicitada para el dispositivo ${imei}`).waitFor();
  await page.goto(`${server.url}/inventory-management/devices?search=${imei}`);
  await page
    .getByTestId('device-row')
    .first()
    .getByRole('button', { name: `Ver el detalle del dispositivo ${imei}`, exact: true })
    .click();
  await page.getByTestId('release-scheduled').waitFor();
  const detailUrl = page.url();

  fs.mkdirSync(DIR, { recursive: true });
  const shots: { name: string; url: string; ready: (p: typeof page) => Promise<unknown> }[] = [
    { name: 'devices', url: '/inventory-management/devices', ready: (p) => p.getByTestId('device-row').first().waitFor() },
    { name: 'device-release-scheduled', url: detailUrl.slice(server.url.length), ready: (p) => p.getByTestId('release-scheduled').waitFor() },
    {
      name: 'groups',
      url: '/inventory-management/devices-group',
      ready: (p) => p.getByRole('heading', { level: 1, name: 'Grupos de dispositivos' }).waitFor(),
    },
    { name: 'dashboard-general', url: '/dashboard/general', ready: (p) => p.locator('canvas').first().waitFor() },
    { name: 'dashboard-android', url: '/dashboard/android', ready: (p) => p.locator('canvas').first().waitFor() },
  ];
  for (const viewport of [VIEWPORT, PHONE]) {
    await page.setViewportSize(viewport);
    for (const shot of shots) {
      await page.goto(`${server.url}${shot.url}`);
      await waitForHydration(page);
      await shot.ready(page);
      // Charts animate in; the version comes with the profile.
      await page.getByTestId('portal-version').getByText('0.').waitFor();
      await page.waitForTimeout(800);
      const file = path.join(DIR, `${shot.name}-${viewport.width}x${viewport.height}.png`);
      await page.screenshot({ path: file });
      console.log(`screenshot: ${path.relative(ROOT, file)}`);
    }
  }
} finally {
  await browser.close();
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
