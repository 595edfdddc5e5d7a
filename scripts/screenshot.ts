/**
 * `npx tsx scripts/screenshot.ts` (after `npm run build`): docs/screenshot.png, the signed-in
 * layout with the menu, as the demo administrator sees /inventory-management in Chromium at
 * 1280×800. A temporary in-process server (in-memory PGlite, the embedded identity endpoint,
 * the demo accounts) serves dist/; nothing is written but the PNG.
 */
import http from 'node:http';
import { register } from 'node:module';
import type { AddressInfo } from 'node:net';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'docs', 'screenshot.png');
const VIEWPORT = { width: 1280, height: 800 };
const PAGE = '/inventory-management';

// The migrations are imported as text (esbuild's `.sql` loader in the build, a transform in
// jest); under tsx a load hook does the same.
const SQL_AS_TEXT = `
import { readFile } from 'node:fs/promises';
export async function load(url, context, nextLoad) {
  if (url.startsWith('file:') && url.endsWith('.sql')) {
    const text = await readFile(new URL(url), 'utf8');
    return { format: 'module', shortCircuit: true, source: 'export default ' + JSON.stringify(text) + ';' };
  }
  return nextLoad(url, context);
}`;
register(`data:text/javascript,${encodeURIComponent(SQL_AS_TEXT)}`);

// Loaded after the hook is in place (static imports would be evaluated before it).
const { createApp } = await import('../server/app');
const { loadConfig } = await import('../server/config');
const { migrate } = await import('../server/db/migrate');
const { migrations } = await import('../server/db/migrations/index');
const { createPgliteDb } = await import('../server/db/pgliteDb');
const { DEFAULT_ADMIN_EMAIL, bootstrap } = await import('../server/db/seed/bootstrap');
const { createIdentity } = await import('../server/identity/createIdentity');
const { createLogger } = await import('../server/logger');
const { loadClientAssets } = await import('../server/ssr/manifest');
const { chromePath, launchBrowser } = await import('../tests/helpers/browser');
const { DEMO_PASSWORD, packageVersion, signIn } = await import('../tests/helpers/portalSession');

async function main(): Promise<void> {
  if (!chromePath()) throw new Error('No hay Chromium: instala el paquete chromium o define CHROME_PATH');
  const config = loadConfig({ NODE_ENV: 'development', LOG_LEVEL: 'warn', DEMO_PASSWORD, SEED_DEMO: 'true' }, packageVersion(ROOT));
  const logger = createLogger(config.logLevel);
  // Before anything else: without a build there is nothing to serve.
  const assets = loadClientAssets(path.join(ROOT, 'dist'));
  const db = await createPgliteDb();
  const server = http.createServer();
  let browser: Awaited<ReturnType<typeof launchBrowser>> | undefined;
  try {
    await migrate(db, migrations);
    const runtime = await createIdentity(config, db, logger);
    await bootstrap(db, config, runtime.identity);
    server.on('request', createApp({ config, db, logger, assets, ...runtime }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: VIEWPORT });
    const page = await context.newPage();
    await signIn(page, url, DEFAULT_ADMIN_EMAIL, DEMO_PASSWORD, { landing: '/dashboard/general' });
    await page.goto(`${url}${PAGE}`);
    await page.getByTestId('user-names').waitFor();
    await page.getByRole('main').getByRole('heading', { level: 1 }).waitFor();
    // Both versions loaded: the header and the sidebar footer show their final text.
    await page.getByTestId('portal-version').filter({ hasText: config.portalVersion }).waitFor();
    await page.getByTestId('app-version').filter({ hasNotText: 'N/A' }).filter({ hasText: /\(/ }).waitFor();
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    fs.mkdirSync(path.dirname(OUT), { recursive: true });
    await page.screenshot({ path: OUT, fullPage: false });
    console.log(`screenshot: ${path.relative(ROOT, OUT)} (${PAGE}, ${VIEWPORT.width}×${VIEWPORT.height}, ${DEFAULT_ADMIN_EMAIL})`);
  } finally {
    await browser?.close();
    if (server.listening) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    await db.close();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`screenshot: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
  process.exit(1);
});
