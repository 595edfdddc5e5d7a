/**
 * `npm run bench`: the performance targets of docs/quality.md that this build can measure.
 *   P1  server-rendered routes vs express.static serving the same bytes (autocannon, one run,
 *       alternating rounds, ratio of medians)
 *   P2  first-load JavaScript per route, gzipped (asset manifest)
 *   P3  /login hydrated (the `portal:hydrated` mark after navigation start), as a ratio to the floor:
 *       a bare React 19 page hydrating the same form (scripts/floor/), built with the same esbuild
 *       options and measured in the same run, alternating; Chromium on localhost
 * Options: --duration=S (per round, default 5), --rounds=N (default 3), --connections=N (default 10),
 * --p3-runs=N (default 20, after one cold run of each page), --p3-traces=N (traced runs of each page for
 * the breakdown of where the time goes, default 3), --only=p1,p2,p3 (default all).
 * Paste the printed Markdown into docs/benchmarks.md.
 */
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import * as esbuild from 'esbuild';
import type { Browser } from 'playwright-core';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { chromePath, collectProblems, launchBrowser, waitForHydration } from '../tests/helpers/browser';
import { spawnServer } from '../tests/helpers/spawnServer';
import { DIST, build, isBuildStale, precompress, publicOptions } from './build';
import { FloorLogin } from './floor/floorLogin';
import { bundleSizes } from './bundleSizes';
import { machineEndLine, machineLine } from './benchMachine';

const arg = (name: string, def: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? def);
const DURATION = arg('duration', 5);
const ROUNDS = arg('rounds', 3);
const CONNECTIONS = arg('connections', 10);
const P3_RUNS = arg('p3-runs', 20);
const P3_TRACES = arg('p3-traces', 3);
const ONLY = process.argv
  .find((a) => a.startsWith('--only='))
  ?.split('=')[1]
  ?.split(',') ?? ['p1', 'p2', 'p3'];
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
  const css = (files: string[]) => `${(files.reduce((s, f) => s + sizes.gz(f), 0) / 1024).toFixed(1)} KB`;
  lines.push(
    '',
    `CSS, gzipped: the signed-in app's ${css(sizes.manifest.entry.css)} (bootstrap, bootstrap-icons, toasts, the portal's), the public pages' ${css(sizes.manifest.publicEntry.css)} (bootstrap, the portal's).`,
  );
}

/**
 * The floor page of P3: scripts/floor/floorEntry.tsx built with the esbuild options /login is built
 * with (publicOptions: the compile hint included), its
 * markup rendered by react-dom/server, the assets precompressed as the build does, served by
 * express-static-gzip in a process of its own (as the portal serves its assets).
 */
async function floorServer(): Promise<{ url: string; proc: ChildProcess; dir: string }> {
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
     const app = express(); app.use(expressStaticGzip(${JSON.stringify(dir)}, { enableBrotli: true, orderPreference: ['br', 'gzip'] }));
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
  args?: { name?: string };
}

/** Where a trace's main-thread time went, by kind of work (exclusive times, milliseconds). */
const TRACE_KINDS: [kind: string, test: RegExp][] = [
  ['HTML parsing', /^ParseHTML$/],
  ['script compilation', /compile|Compile|parse|Parse|ModuleCache|CodeCache/],
  ['module evaluation (top-level code)', /^v8\.evaluateModule$|^EvaluateScript$|^v8\.run$/],
  ['functions and hydration', /^FunctionCall$|^v8\.callFunction$|Microtask/],
  ['garbage collection', /GC|Scavenger|MarkCompact/],
  ['style, layout, paint', /Layout|Paint|Style|Layerize|^Commit$|PrePaint|HitTest/],
  ['resource loading', /URLLoader|Resource|Response|NavigationBody|DocumentLoader|Mojo|ThrottlingURLLoader/],
];

function traceBreakdown(buffer: Buffer): { kinds: Map<string, number>; windowMs: number; backgroundCompileMs: number } {
  const events = (JSON.parse(buffer.toString()) as { traceEvents: TraceEvent[] }).traceEvents;
  const mark = events.find((e) => e.name === 'portal:hydrated');
  if (!mark) throw new Error('the trace has no portal:hydrated mark');
  const start = events.find((e) => e.name === 'navigationStart' && e.pid === mark.pid)?.ts ?? mark.ts;
  const threadName = new Map(events.filter((e) => e.name === 'thread_name').map((e) => [`${e.pid}:${e.tid}`, e.args?.name]));
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
  return { kinds, windowMs, backgroundCompileMs };
}

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
  const floor = await floorServer();
  const browser = await launchBrowser();
  const portal: number[] = [];
  const bare: number[] = [];
  const problems: string[] = [];
  const traces: { portal: Map<string, number>[]; bare: Map<string, number>[]; windows: [number[], number[]]; background: [number[], number[]] } = {
    portal: [],
    bare: [],
    windows: [[], []],
    background: [[], []],
  };
  try {
    // Alternating, so both pages see the same machine; the first of each is the cold one.
    for (let i = 0; i < P3_RUNS + 1; i++) {
      portal.push((await hydratedAt(browser, `${server.url}/login`, problems)).ms);
      bare.push((await hydratedAt(browser, `${floor.url}/index.html`, [])).ms);
    }
    // Then traced runs (tracing slows a page down, so they are not the timed ones).
    for (let i = 0; i < P3_TRACES; i++) {
      for (const [which, url] of [
        [0, `${server.url}/login`],
        [1, `${floor.url}/index.html`],
      ] as const) {
        const b = traceBreakdown((await hydratedAt(browser, url, [], true)).trace!);
        (which === 0 ? traces.portal : traces.bare).push(b.kinds);
        traces.windows[which].push(b.windowMs);
        traces.background[which].push(b.backgroundCompileMs);
      }
    }
  } finally {
    await browser.close();
    await server.stop();
    floor.proc.kill();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(floor.dir, { recursive: true, force: true });
  }
  const ratio = median(portal.slice(1)) / median(bare.slice(1));
  // The machine's speed drifts during a run: each pair's own ratio, one load of each a moment apart.
  const pairRatio = median(portal.slice(1).map((ms, i) => ms / bare[i + 1]!));
  lines.push(
    '| page | first (cold) | median of the next ' + P3_RUNS + ' | max |',
    '|---|---|---|---|',
    `| /login | ${portal[0]!.toFixed(0)} ms | ${median(portal.slice(1)).toFixed(0)} ms | ${Math.max(...portal.slice(1)).toFixed(0)} ms |`,
    `| floor (bare React 19, same form) | ${bare[0]!.toFixed(0)} ms | ${median(bare.slice(1)).toFixed(0)} ms | ${Math.max(...bare.slice(1)).toFixed(0)} ms |`,
    '',
    `Ratio of medians: **${ratio.toFixed(2)}×** the floor (target ≤ 1.5×); median of the ${P3_RUNS} pairs' own ratios ${pairRatio.toFixed(2)}×. Console errors or warnings on /login (hydration warnings included): ${problems.length}${problems.length ? `: ${problems.slice(0, 3).join('; ')}` : ''}.`,
  );
  if (P3_TRACES > 0) {
    const kinds = [...new Set([...traces.portal, ...traces.bare].flatMap((m) => [...m.keys()]))];
    const med = (maps: Map<string, number>[], k: string) => median(maps.map((m) => m.get(k) ?? 0));
    lines.push(
      '',
      `Where the time goes: Chromium's trace of ${P3_TRACES} more runs of each (traced runs are slower), from navigation start to the mark; exclusive main-thread time by kind of work, medians.`,
      '',
      '| main thread | /login | floor |',
      '|---|---|---|',
      ...kinds
        .sort((a, b) => med(traces.portal, b) - med(traces.portal, a))
        .map((k) => `| ${k} | ${med(traces.portal, k).toFixed(0)} ms | ${med(traces.bare, k).toFixed(0)} ms |`),
      `| **navigation start → hydrated (traced)** | ${median(traces.windows[0]).toFixed(0)} ms | ${median(traces.windows[1]).toFixed(0)} ms |`,
      `| script compilation on background threads (not on the main thread) | ${median(traces.background[0]).toFixed(0)} ms | ${median(traces.background[1]).toFixed(0)} ms |`,
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
  lines.push('', '### P2: first-load JavaScript, gzipped (targets: /login ≤ 180 KB, /dashboard/general ≤ 200 KB, page chunk ≤ 40 KB)', '');
  p2(lines);
}
if (ONLY.includes('p3')) {
  lines.push('', '### P3: /login hydrated, as a ratio to a bare React 19 page hydrating the same form (target ≤ 1.5×)', '');
  await p3(lines);
}
lines.push('', machineEndLine());
console.log(`\n${lines.join('\n')}\n`);
