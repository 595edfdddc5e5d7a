import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnServer, type RunningServer } from '../helpers/spawnServer';

/**
 * First start of the real process (`node dist/server.js`) on an empty data folder, with the
 * demo data: the console banner with the accounts comes after every log line of the start-up
 * (the bootstrap, the demo seed, `portal listening`). Whoever reads the console top to bottom sees
 * the banner only once the portal answers. What may follow it is the work of the server's clocks,
 * which start with the listener and run at once (the collection policy, the daily
 * reconciliation summary, the temporary unlocks).
 */
const ROOT = path.resolve(__dirname, '../..');

describe('start-up banner (dist/server.js)', () => {
  let dataDir: string;
  let server: RunningServer | undefined;

  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-banner-'));
  });
  afterAll(async () => {
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('prints the banner after the listening line, not before the start-up log lines', async () => {
    // As `npm start` runs it: the demo's simulated agents enroll from 127.0.0.1 unhindered.
    server = await spawnServer({ cwd: ROOT, env: { DATA_DIR: dataDir, LOG_LEVEL: 'info' }, args: ['--demo'] });
    // The banner is written once the listener is up; wait until it has arrived.
    for (let i = 0; i < 100 && !server.output().includes('Portal listo'); i++) await new Promise((r) => setTimeout(r, 50));
    const out = server.output();
    const banner = out.indexOf('Portal listo / Portal ready');
    expect(banner).toBeGreaterThan(-1);
    const before = out.slice(0, banner);
    for (const msg of ['"msg":"database ready"', '"msg":"bootstrap: administrators created"', 'devices seeded', '"msg":"portal listening on http://localhost:']) {
      expect(before).toContain(msg);
    }
    // Nothing of the start-up is logged after the banner: only what the clocks did since.
    const after = out
      .slice(banner)
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => (JSON.parse(line) as { msg: string }).msg);
    const clocks = ['collection policy: credits processed', 'reconciliation: daily summary sent', 'temporary unlocks expired: devices locked again'];
    expect(after.filter((msg) => !clocks.includes(msg))).toEqual([]);
  }, 90_000);
});
