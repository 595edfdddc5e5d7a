import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnServer, type RunningServer } from '../helpers/spawnServer';

/**
 * The production install, as the image's runtime stage does it: package.json, the lock file
 * and the built dist/ in an empty folder, `npm ci --omit=dev --ignore-scripts`, then
 * `node dist/server.js` with NODE_ENV=production. It must start with production dependencies
 * only (nothing from devDependencies) and serve the portal and its assets.
 */
const ROOT = path.resolve(__dirname, '../..');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
};

describe('production install of the build (dist/)', () => {
  let dir: string;
  let server: RunningServer | undefined;

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-install-'));
    for (const f of ['package.json', 'package-lock.json']) fs.copyFileSync(path.join(ROOT, f), path.join(dir, f));
    fs.cpSync(path.join(ROOT, 'dist'), path.join(dir, 'dist'), { recursive: true });
    // The npm cache answers what it already holds; the registry the rest.
    execFileSync('npm', ['ci', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], {
      cwd: dir,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, NODE_ENV: 'production', NPM_CONFIG_UPDATE_NOTIFIER: 'false' },
      timeout: 600_000,
    });
  }, 660_000);
  afterAll(async () => {
    if (server && server.proc.exitCode === null) await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('only production dependencies are installed', () => {
    for (const dep of Object.keys(pkg.dependencies)) expect(fs.existsSync(path.join(dir, 'node_modules', dep, 'package.json'))).toBe(true);
    // What the lock file marks as needed by devDependencies only (jest, esbuild, typescript…).
    const lock = JSON.parse(fs.readFileSync(path.join(dir, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean }> };
    const devOnly = Object.entries(lock.packages).filter(([p, e]) => p.startsWith('node_modules/') && e.dev === true).map(([p]) => p);
    expect(devOnly.length).toBeGreaterThan(100);
    expect(devOnly).toEqual(expect.arrayContaining(['node_modules/jest', 'node_modules/esbuild', 'node_modules/typescript']));
    expect(devOnly.filter((p) => fs.existsSync(path.join(dir, p)))).toEqual([]);
  });

  test('node dist/server.js starts in production, answers /healthz and /readyz, serves /login and its assets, exits 0 on SIGTERM', async () => {
    server = await spawnServer({
      cwd: dir,
      env: { NODE_ENV: 'production', IDENTITY_MODE: 'embedded', DATA_DIR: path.join(dir, 'data'), SHUTDOWN_DELAY_MS: '0' },
      timeoutMs: 120_000,
    });
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    let ready = 0;
    for (let i = 0; i < 100 && ready !== 200; i++) {
      ready = (await fetch(`${server.url}/readyz`)).status;
      if (ready !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(ready).toBe(200);

    const login = await fetch(`${server.url}/login`);
    expect(login.status).toBe(200);
    const html = await login.text();
    const scripts = [...html.matchAll(/<script[^>]+src="([^"]+)"/g)].map((m) => m[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    for (const src of scripts) {
      const asset = await fetch(`${server.url}${src}`, { headers: { 'Accept-Encoding': 'br' } });
      expect({ src, status: asset.status }).toEqual({ src, status: 200 });
      expect((await asset.arrayBuffer()).byteLength).toBeGreaterThan(0);
    }
    // Production: no demo accounts.
    expect(server.output()).not.toMatch(/inventario@demo\.local/);
    expect(await server.stop()).toBe(0);
  }, 180_000);
});
