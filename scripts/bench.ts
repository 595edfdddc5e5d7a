/**
 * `npm run bench`: the performance targets of docs/benchmarks.md that this build can measure.
 *   P1  server-rendered routes vs express.static serving the same bytes (autocannon, one run,
 *       alternating rounds, ratio of medians)
 *   P2  first-load JavaScript of every route, gzipped (asset manifest)
 *   P3  /login hydrated (the `portal:hydrated` mark after navigation start), as a ratio to the floor:
 *       a bare React 19 page hydrating the same form (scripts/floor/), built with the same esbuild
 *       options, served with the response headers /login is served with, and measured in the same
 *       run, alternating; the same page without those headers too; Chromium on localhost
 *   P2 clicks  on a warm /inventory-management/devices (signed in, idle once): from a click on a
 *       row's menu, and on a row's detail button, to the menu or the detail in the document; the
 *       cost a page defers out of its first load must not come back at the click (≤ 100 ms)
 * Options: --duration=S (per round, default 5), --rounds=N (default 3), --connections=N (default 10),
 * --p3-runs=N (default 20, after one cold run of each page), --p3-traces=N (traced runs of each page for
 * the breakdown of where the time goes, default 3), --clicks=N (default 20 of each),
 * --only=p1,p2,clicks,p3 (default all).
 * Paste the printed Markdown into docs/benchmarks.md.
 */
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import * as esbuild from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { chromePath, collectProblems, launchBrowser, waitForHydration } from '../tests/helpers/browser';
import { spawnServer } from '../tests/helpers/spawnServer';
import { DIST, build, isBuildStale, precompress, publicOptions } from './build';
import { FloorLogin } from './floor/floorLogin';
import { ROUTES } from '../shared/constants/routes';
import { BUDGETS_KB, bundleSizes } from './bundleSizes';
import { machineEndLine, machineLine } from './benchMachine';

const arg = (name: string, def: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? def);
const DURATION = arg('duration', 5);
const ROUNDS = arg('rounds', 3);
const CONNECTIONS = arg('connections', 10);
const P3_RUNS = arg('p3-runs', 20);
const P3_TRACES = arg('p3-traces', 3);
const CLICKS = arg('clicks', 20);
const ONLY = process.argv
  .find((a) => a.startsWith('--only='))
  ?.split('=')[1]
  ?.split(',') ?? ['p1', 'p2', 'clicks', 'p3'];
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
  // Every route of the route table, heaviest first ([ux] item 13 asks ≤ 200 KB of each).
  const routes = ROUTES.map((r) => r.path)
    .filter((p) => !p.includes(':'))
    .map((route) => ({ route, firstLoad: sizes.firstLoad(route), chunk: sizes.pageChunk(route) }))
    .sort((a, b) => b.firstLoad - a.firstLoad);
  lines.push('| route | first-load JS, gzipped | page chunk, gzipped |', '|---|---|---|');
  for (const r of routes) lines.push(`| ${r.route} | ${(r.firstLoad / 1024).toFixed(1)} KB | ${(r.chunk / 1024).toFixed(1)} KB |`);
  lines.push('', `Routes over ${BUDGETS_KB.route} KB: ${routes.filter((r) => r.firstLoad > BUDGETS_KB.route * 1024).length} of ${routes.length}.`);
  const css = (files: string[]) => `${(files.reduce((s, f) => s + sizes.gz(f), 0) / 1024).toFixed(1)} KB`;
  lines.push(
    '',
    `CSS, gzipped: the signed-in app's ${css(sizes.manifest.entry.css)} (bootstrap, bootstrap-icons, toasts, the portal's), the public pages' ${css(sizes.manifest.publicEntry.css)} (bootstrap, the portal's).`,
  );
}

/**
 * Milliseconds from a click on `button` to `selector` in the document (measured in the page:
 * performance.now() before the click, a MutationObserver and the next frame after it).
 */
async function clickToShown(page: Page, row: number, button: string, selector: string): Promise<number> {
  // A string, not a function: tsx would wrap a function's inner functions in a helper the page lacks.
  return page.evaluate(`new Promise((resolve, reject) => {
    const target = document.querySelectorAll('[data-testid="device-row"]')[${row}]?.querySelector(${JSON.stringify(button)});
    if (!target) return reject(new Error('no ${button.replace(/'/g, '')} in row ${row}'));
    const shown = () => document.querySelector(${JSON.stringify(selector)}) !== null;
    const start = performance.now();
    const done = () => requestAnimationFrame(() => resolve(performance.now() - start));
    const observer = new MutationObserver(() => {
      if (shown()) {
        observer.disconnect();
        done();
      }
    });
    observer.observe(document.body, { childList: true, subtree: true, attributes: true });
    target.click();
    if (shown()) {
      observer.disconnect();
      done();
    }
  })`);
}

/** P2's clicks: the row menu and the detail of a warm devices list of the embedded demo, CLICKS times each. */
async function clicks(lines: string[]) {
  const password = 'Bench-Portal-2026!';
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-clicks-'));
  // The demo without its simulated agents: 5,000 devices, the administrator signing in with `password`.
  const server = await spawnServer({ cwd: ROOT, env: { DATA_DIR: dataDir, DEMO_PASSWORD: password, DEMO_AGENTS: '0', LOG_LEVEL: 'warn' } });
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage({ viewport: { width: 1366, height: 800 } });
    const problems = collectProblems(page);
    await page.goto(`${server.url}/login`);
    await waitForHydration(page);
    await page.getByLabel('Correo electrónico').fill('admin@demo.local');
    await page.getByLabel('Contraseña').fill(password);
    await page.getByRole('button', { name: 'Iniciar sesión' }).click();
    await page.waitForURL('**/dashboard/general');
    await page.goto(`${server.url}/inventory-management/devices`);
    await waitForHydration(page);
    await page.getByTestId('device-row').first().waitFor();
    // Warm: the chunks the list defers (the detail, the dialogs) are fetched once it is idle.
    await page.waitForFunction(() =>
      ['DeviceDetail', 'AppModalDialog'].every((name) =>
        performance.getEntriesByType('resource').some((e) => new RegExp(`/${name}-\\w+\\.js$`).test(e.name)),
      ),
    );
    const menu: number[] = [];
    const panel: number[] = [];
    const facts: number[] = [];
    for (let i = 0; i < CLICKS; i++) {
      const row = i % 20;
      menu.push(await clickToShown(page, row, 'button[aria-label^="Acciones del dispositivo"]', '[data-testid="device-action-menu"].show'));
      // A click outside closes it.
      await page.getByRole('main').getByRole('heading', { level: 1 }).click();
      await page.locator('[data-testid="device-action-menu"].show').waitFor({ state: 'detached' });
      // The panel (every other click), or the device's facts in it (the others).
      const detailButton = 'button[aria-label^="Ver el detalle"]';
      if (i % 2 === 0) panel.push(await clickToShown(page, row, detailButton, '[role="dialog"].show'));
      else facts.push(await clickToShown(page, row, detailButton, '[role="dialog"].show [data-testid="device-facts"]'));
      await page.locator('[role="dialog"].show [data-testid="device-facts"]').waitFor();
      await page.keyboard.press('Escape');
      await page.locator('[role="dialog"].show').waitFor({ state: 'detached' });
    }
    if (problems.length) throw new Error(`problems in the page: ${problems.join('; ')}`);
    const row = (name: string, ms: number[]) => `| ${name} | ${median(ms).toFixed(0)} ms | ${Math.max(...ms).toFixed(0)} ms |`;
    lines.push(
      '| click on a warm devices list | median | max |',
      '|---|---|---|',
      row('row menu', menu),
      row('detail panel', panel),
      row("detail with the device's facts (the list's row, until its GET answers)", facts),
    );
    lines.push(
      '',
      `${CLICKS} clicks on the menu, ${CLICKS} on the detail, on the demo's 5,000 devices, Chromium headless at 1366×800; the target is 100 ms.`,
    );
  } finally {
    await browser.close();
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The floor page of P3: scripts/floor/floorEntry.tsx built with the esbuild options /login is built
 * with (publicOptions: the compile hint included), its
 * markup rendered by react-dom/server, the assets precompressed as the build does, served by
 * express-static-gzip in a process of its own (as the portal serves its assets). Its document is
 * served with `documentHeaders` under `/same-headers/` and without them under `/`.
 */
async function floorServer(documentHeaders: Record<string, string>): Promise<{ url: string; proc: ChildProcess; dir: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-floor-'));
  const result = await esbuild.build({
    ...publicOptions,
    entryPoints: ['scripts/floor/floorEntry.tsx'],
    outdir: dir,
    entryNames: '[name]-[hash]',
    sourcemap: false,
  });
  const outputs = Object.entries(result.metafile!.outputs);
  const [entryFile, entry] = outputs.find(([, o]) => o.entryPoint === 'scripts/floor/floorEntry.tsx')!;
  const url = (f: string) => `/${path.relative(dir, path.resolve(ROOT, f)).split(path.sep).join('/')}`;
  const preloads = (entry.imports ?? []).filter((i) => i.kind === 'import-statement').map((i) => `<link rel="modulepreload" href="${url(i.path)}">`);
  fs.writeFileSync(
    path.join(dir, 'index.html'),
    `<!doctype html><html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Floor</title>` +
      `<link rel="stylesheet" href="${url(entry.cssBundle!)}">${preloads.join('')}</head><body><div id="root">${renderToString(createElement(FloorLogin))}</div>` +
      `<script type="module" src="${url(entryFile)}"></script></body></html>`,
  );
  precompress(dir);
  const script = path.join(dir, 'serve.mjs');
  fs.writeFileSync(
    script,
    `import express from ${JSON.stringify(path.join(ROOT, 'node_modules/express/index.js'))};
     import expressStaticGzip from ${JSON.stringify(path.join(ROOT, 'node_modules/express-static-gzip/index.js'))};
     const app = express();
     app.get('/same-headers/index.html', (req, res, next) => { res.set(${JSON.stringify(documentHeaders)}); req.url = '/index.html'; next(); });
     app.use(expressStaticGzip(${JSON.stringify(dir)}, { enableBrotli: true, orderPreference: ['br', 'gzip'] }));
     const s = app.listen(0, '127.0.0.1', () => process.send(s.address().port));`,
  );
  const proc = fork(script, { stdio: 'ignore' });
  const port = await new Promise<number>((r) => proc.once('message', (m) => r(Number(m))));
  return { url: `http://127.0.0.1:${port}`, proc, dir };
}

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: { startTime?: number } };
}

/** The headers of a response that describe that response or its body, not how a page is served. */
const PER_RESPONSE_HEADERS = new Set([
  'content-length',
  'content-type',
  'content-encoding',
  'transfer-encoding',
  'date',
  'connection',
  'keep-alive',
  'etag',
  'vary',
  'x-request-id',
  'set-cookie',
]);

/** Where a trace's main-thread time went, by kind of work (exclusive times, milliseconds). */
const TRACE_KINDS: [kind: string, test: RegExp][] = [
  ['HTML parsing', /^ParseHTML$/],
  [
    'the window and its script context created',
    /^V8\.DeserializeContext$|^LocalWindowProxy::|^ContextCreatedNotification$|^InstallConditionalFeatures$/,
  ],
  ['script compilation', /compile|Compile|parse|Parse|ModuleCache|CodeCache/],
  ['module evaluation (top-level code)', /^v8\.evaluateModule$|^EvaluateScript$|^v8\.run$/],
  ['functions and hydration', /^FunctionCall$|^v8\.callFunction$|Microtask/],
  ['garbage collection', /GC|Scavenger|MarkCompact/],
  ['style, layout, paint', /Layout|Paint|Style|Layerize|^Commit$|PrePaint|HitTest/],
  ['resource loading', /URLLoader|Resource|Response|NavigationBody|DocumentLoader|Mojo|ThrottlingURLLoader/],
];

function traceBreakdown(buffer: Buffer): { kinds: Map<string, number>; windowMs: number; commitMs: number; backgroundCompileMs: number } {
  const events = (JSON.parse(buffer.toString()) as { traceEvents: TraceEvent[] }).traceEvents;
  const mark = events.find((e) => e.name === 'portal:hydrated');
  if (!mark) throw new Error('the trace has no portal:hydrated mark');
  // The mark's own startTime is from its navigation's start (a renderer also starts one for its initial empty document).
  const markStart = mark.args?.data?.startTime;
  if (markStart === undefined) throw new Error('the portal:hydrated mark has no startTime');
  const start = mark.ts - markStart * 1000;
  const threadName = new Map(events.filter((e) => e.name === 'thread_name').map((e) => [`${e.pid}:${e.tid}`, e.args?.name]));
  // The page's document is the renderer's last commit before the mark: a new renderer commits its
  // initial empty document first, and the harness's next navigation can follow the mark.
  const commit = events
    .filter(
      (e) =>
        e.name === 'DocumentLoader::CommitNavigation' &&
        e.ph === 'X' &&
        e.pid === mark.pid &&
        threadName.get(`${e.pid}:${e.tid}`) === 'CrRendererMain' &&
        e.ts >= start &&
        e.ts < mark.ts,
    )
    .reduce<TraceEvent | undefined>((last, e) => (last && last.ts > e.ts ? last : e), undefined);
  const main = events
    .filter((e) => e.ph === 'X' && e.pid === mark.pid && threadName.get(`${e.pid}:${e.tid}`) === 'CrRendererMain' && e.ts >= start && e.ts < mark.ts)
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  // Exclusive time: each event's duration less that of the events nested in it.
  const exclusive = new Map<TraceEvent, number>();
  const stack: TraceEvent[] = [];
  for (const e of main) {
    while (stack.length && stack.at(-1)!.ts + (stack.at(-1)!.dur ?? 0) <= e.ts) stack.pop();
    const parent = stack.at(-1);
    if (parent) exclusive.set(parent, (exclusive.get(parent) ?? 0) - (e.dur ?? 0));
    exclusive.set(e, (exclusive.get(e) ?? 0) + (e.dur ?? 0));
    stack.push(e);
  }
  const kinds = new Map<string, number>();
  let busy = 0;
  for (const [e, us] of exclusive) {
    const kind = TRACE_KINDS.find(([, test]) => test.test(e.name))?.[0] ?? 'other main-thread work';
    kinds.set(kind, (kinds.get(kind) ?? 0) + us / 1000);
    busy += us / 1000;
  }
  const windowMs = (mark.ts - start) / 1000;
  kinds.set('main thread idle (waiting for the network or other threads)', windowMs - busy);
  const backgroundCompileMs =
    events
      .filter(
        (e) =>
          e.ph === 'X' &&
          e.ts >= start &&
          e.ts < mark.ts &&
          /ThreadPool/.test(threadName.get(`${e.pid}:${e.tid}`) ?? '') &&
          /^v8\.parseOnBackground$|^v8\.compile/.test(e.name),
      )
      .reduce((sum, e) => sum + (e.dur ?? 0), 0) / 1000;
  return { kinds, windowMs, commitMs: commit ? (commit.ts - start) / 1000 : NaN, backgroundCompileMs };
}
type Trace = ReturnType<typeof traceBreakdown>;

/** Milliseconds from navigation start to the `portal:hydrated` mark, in a fresh browser context;
 * with `trace`, Chromium's trace of the load as well. */
async function hydratedAt(browser: Browser, url: string, problems: string[], trace = false): Promise<{ ms: number; trace?: Buffer }> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const found = collectProblems(page);
    if (trace)
      await browser.startTracing(page, {
        categories: ['devtools.timeline', 'v8', 'blink.user_timing', 'loading', 'disabled-by-default-devtools.timeline'],
      });
    await page.goto(url);
    await waitForHydration(page);
    const ms = await page.evaluate(() => performance.getEntriesByName('portal:hydrated')[0]!.startTime);
    const buffer = trace ? await browser.stopTracing() : undefined;
    problems.push(...found);
    return { ms, trace: buffer };
  } finally {
    await context.close();
  }
}

async function p3(lines: string[]) {
  if (!chromePath()) {
    lines.push('P3 not measured: no Chromium (set CHROME_PATH).');
    return;
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-'));
  const server = await spawnServer({ cwd: ROOT, env: { DATA_DIR: dataDir, LOG_LEVEL: 'warn', NODE_ENV: 'production', IDENTITY_MODE: 'embedded' } });
  // The floor is served with the headers /login is served with (helmet's: the CSP, and the
  // Cross-Origin-Opener-Policy and Origin-Agent-Cluster that make Chromium give the page a
  // browsing context group, and here a renderer process, of its own), so that both pages start
  // alike; it is measured without them as well.
  const documentHeaders = Object.fromEntries([...(await fetch(`${server.url}/login`)).headers].filter(([name]) => !PER_RESPONSE_HEADERS.has(name)));
  const floor = await floorServer(documentHeaders);
  const browser = await launchBrowser();
  const pages = [
    { name: '/login', url: `${server.url}/login` },
    { name: 'floor (bare React 19, same form), served with the headers of /login', url: `${floor.url}/same-headers/index.html` },
    { name: 'floor without those headers', url: `${floor.url}/index.html` },
  ].map((p) => ({ ...p, ms: [] as number[], traces: [] as Trace[] }));
  type Page = (typeof pages)[number];
  const [portal, bare, plain] = pages as [Page, Page, Page];
  const problems: string[] = [];
  try {
    // Alternating, so the pages see the same machine; the first of each is the cold one.
    for (let i = 0; i < P3_RUNS + 1; i++) {
      for (const page of pages) page.ms.push((await hydratedAt(browser, page.url, page === portal ? problems : [])).ms);
    }
    // Then traced runs (tracing slows a page down, so they are not the timed ones).
    for (let i = 0; i < P3_TRACES; i++) {
      for (const page of pages) page.traces.push(traceBreakdown((await hydratedAt(browser, page.url, [], true)).trace!));
    }
  } finally {
    await browser.close();
    await server.stop();
    floor.proc.kill();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(floor.dir, { recursive: true, force: true });
  }
  const warm = (page: Page) => page.ms.slice(1);
  const ratio = median(warm(portal)) / median(warm(bare));
  // The machine's speed drifts during a run: each round's own ratio, the loads a moment apart.
  const pairRatio = median(warm(portal).map((ms, i) => ms / warm(bare)[i]!));
  lines.push(
    '| page | first (cold) | median of the next ' + P3_RUNS + ' | max |',
    '|---|---|---|---|',
    ...pages.map((p) => `| ${p.name} | ${p.ms[0]!.toFixed(0)} ms | ${median(warm(p)).toFixed(0)} ms | ${Math.max(...warm(p)).toFixed(0)} ms |`),
    '',
    `Ratio of medians: **${ratio.toFixed(2)}×** the floor (target ≤ 1.5×); median of the ${P3_RUNS} rounds' own ratios ${pairRatio.toFixed(2)}×; ` +
      `${(median(warm(portal)) / median(warm(plain))).toFixed(2)}× the floor served without the headers of /login. ` +
      `Console errors or warnings on /login (hydration warnings included): ${problems.length}${problems.length ? `: ${problems.slice(0, 3).join('; ')}` : ''}.`,
  );
  if (P3_TRACES > 0) {
    const kinds = [...new Set(pages.flatMap((p) => p.traces.flatMap((t) => [...t.kinds.keys()])))];
    const med = (p: Page, f: (t: Trace) => number) => median(p.traces.map(f));
    const row = (label: string, f: (t: Trace) => number) => `| ${label} | ${pages.map((p) => `${med(p, f).toFixed(0)} ms`).join(' | ')} |`;
    lines.push(
      '',
      `Where the time goes: Chromium's trace of ${P3_TRACES} more runs of each (traced runs are slower), from navigation start to the mark; exclusive main-thread time by kind of work, medians.`,
      '',
      '| main thread | /login | floor | floor without the headers |',
      '|---|---|---|---|',
      ...kinds
        .sort((a, b) => med(portal, (t) => t.kinds.get(b) ?? 0) - med(portal, (t) => t.kinds.get(a) ?? 0))
        .map((k) => row(k, (t) => t.kinds.get(k) ?? 0)),
      row('**navigation start → hydrated (traced)**', (t) => t.windowMs),
      row('navigation start → the commit of the document begins in its renderer', (t) => t.commitMs),
      row('script compilation on background threads (not on the main thread)', (t) => t.backgroundCompileMs),
    );
  }
}

if (isBuildStale()) await build();
const lines: string[] = [machineLine(), `Command: \`npm run bench -- ${process.argv.slice(2).join(' ')}\``];
if (ONLY.includes('p1')) {
  lines.push('', '### P1: server-rendered pages vs express.static serving the same bytes (target ≥ 90 %)', '');
  await p1(lines);
}
if (ONLY.includes('p2')) {
  lines.push(
    '',
    '### P2: first-load JavaScript, gzipped (targets: /login ≤ 180 KB, /dashboard/general and every route ≤ 200 KB, page chunk ≤ 40 KB)',
    '',
  );
  p2(lines);
}
if (ONLY.includes('clicks')) {
  lines.push('', '### P2 clicks: the row menu and the detail of a warm devices list, from the click to the document (target ≤ 100 ms)', '');
  await clicks(lines);
}
if (ONLY.includes('p3')) {
  lines.push('', '### P3: /login hydrated, as a ratio to a bare React 19 page hydrating the same form (target ≤ 1.5×)', '');
  await p3(lines);
}
lines.push('', machineEndLine());
console.log(`\n${lines.join('\n')}\n`);
