/**
 * `npm run bench`: the performance targets of docs/quality.md that this build can measure.
 *   P1  server-rendered routes vs express.static serving the same bytes (autocannon, one run,
 *       alternating rounds, ratio of medians)
 *   P2  first-load JavaScript per route, gzipped (asset manifest)
 *   P3  /login interactive (hydrated) after navigation start, Chromium on localhost
 * Options: --duration=S (per round, default 5), --rounds=N (default 3), --connections=N (default 10).
 * Paste the printed Markdown into docs/benchmarks.md.
 */
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { chromePath, launchBrowser, waitForHydration } from '../tests/helpers/browser';
import { spawnServer } from '../tests/helpers/spawnServer';
import { DIST, build, isBuildStale } from './build';
import { bundleSizes } from './bundleSizes';

const arg = (name: string, def: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? def);
const DURATION = arg('duration', 5);
const ROUNDS = arg('rounds', 3);
const CONNECTIONS = arg('connections', 10);
const ROOT = path.resolve(import.meta.dirname, '..');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function rps(url: string): Promise<number> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers: { 'accept-encoding': 'identity' } });
  if (result.non2xx || result.errors) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

/** A plain express.static server in its own process, serving `dir`. */
async function staticServer(dir: string): Promise<{ url: string; proc: ChildProcess }> {
  const script = path.join(dir, 'static.mjs');
  fs.writeFileSync(
    script,
    `import express from ${JSON.stringify(path.join(ROOT, 'node_modules/express/index.js'))};
     const app = express(); app.use(express.static(${JSON.stringify(dir)}));
     const s = app.listen(0, '127.0.0.1', () => process.send(s.address().port));`,
  );
  const proc = fork(script, { stdio: 'ignore' });
  const port = await new Promise<number>((r) => proc.once('message', (m) => r(Number(m))));
  return { url: `http://127.0.0.1:${port}`, proc };
}

async function p1(lines: string[]) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-'));
  const server = await spawnServer({ cwd: ROOT, env: { DATA_DIR: dataDir, LOG_LEVEL: 'warn', NODE_ENV: 'production', IDENTITY_MODE: 'embedded' } });
  const staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-static-'));
  lines.push('| route | bytes | SSR req/s (median) | express.static req/s (median) | ratio |', '|---|---|---|---|---|');
  try {
    for (const route of ['/login', '/dashboard/general', '/inventory-management/devices']) {
      const html = await (await fetch(`${server.url}${route}`)).text();
      const file = `${route.replace(/\//g, '_') || 'root'}.html`;
      fs.writeFileSync(path.join(staticDir, file), html);
      const stat = await staticServer(staticDir);
      const ssr: number[] = [];
      const plain: number[] = [];
      try {
        await rps(`${server.url}${route}`); // warm-up
        for (let i = 0; i < ROUNDS; i++) {
          ssr.push(await rps(`${server.url}${route}`));
          plain.push(await rps(`${stat.url}/${file}`));
        }
      } finally {
        stat.proc.kill();
      }
      const ratio = median(ssr) / median(plain);
      lines.push(
        `| ${route} | ${Buffer.byteLength(html)} | ${median(ssr).toFixed(0)} | ${median(plain).toFixed(0)} | ${(ratio * 100).toFixed(0)} % |`,
      );
      console.log(lines.at(-1));
    }
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(staticDir, { recursive: true, force: true });
  }
}

function p2(lines: string[]) {
  const sizes = bundleSizes(DIST);
  lines.push('| route | first-load JS, gzipped | page chunk, gzipped |', '|---|---|---|');
  for (const route of ['/login', '/dashboard/general', '/inventory-management/devices', '/inventory-management/add-device']) {
    lines.push(`| ${route} | ${(sizes.firstLoad(route) / 1024).toFixed(1)} KB | ${(sizes.pageChunk(route) / 1024).toFixed(1)} KB |`);
  }
  const css = sizes.manifest.entry.css.reduce((s, f) => s + sizes.gz(f), 0);
  lines.push('', `CSS (bootstrap + bootstrap-icons), gzipped: ${(css / 1024).toFixed(1)} KB`);
}

async function p3(lines: string[]) {
  if (!chromePath()) {
    lines.push('P3 not measured: no Chromium (set CHROME_PATH).');
    return;
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-'));
  const server = await spawnServer({ cwd: ROOT, env: { DATA_DIR: dataDir, LOG_LEVEL: 'warn' } });
  const browser = await launchBrowser();
  const times: number[] = [];
  try {
    for (let i = 0; i < 11; i++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${server.url}/login`);
      await waitForHydration(page);
      times.push(await page.evaluate(() => performance.getEntriesByName('portal:hydrated')[0]!.startTime));
      await context.close();
    }
  } finally {
    await browser.close();
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  const cold = times[0]!;
  const warm = times.slice(1);
  lines.push(
    `/login hydrated after navigation start: first (cold cache) ${cold.toFixed(0)} ms; next 10 runs median ${median(warm).toFixed(0)} ms, max ${Math.max(...warm).toFixed(0)} ms`,
  );
}

if (isBuildStale()) await build();
const lines: string[] = [
  `Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}.`,
  `Command: \`npm run bench -- --duration=${DURATION} --rounds=${ROUNDS} --connections=${CONNECTIONS}\``,
  '',
  `### P1: server-rendered pages vs express.static (target ≥ 80 %)`,
  '',
];
await p1(lines);
lines.push('', '### P2: bundle sizes (targets: /login ≤ 180 KB, /dashboard/general ≤ 200 KB, page chunk ≤ 40 KB)', '');
p2(lines);
lines.push('', '### P3: /login interactive (target ≤ 300 ms)', '');
await p3(lines);
console.log(`\n${lines.join('\n')}\n`);
