/**
 * `npm run bench:memory`: target M of docs/benchmarks.md, the embedded demo's resident memory.
 * Runs the built server as `npm start` does (the Node flags and `dist/server.js --demo` of its
 * script in package.json: PGlite on a fresh data directory, the demo's 5,000 devices and its
 * simulated agents) and samples the server
 * process's resident set (VmRSS, /proc) every --interval seconds for --minutes, while an
 * administrator, signed in by SRP as a browser, uses the portal every 10 s (a server-rendered
 * page, the devices list on a random page and sort, a dashboard, the audit log). Prints a
 * Markdown table: the resident size at chosen minutes, the peak (VmHWM), the change over the
 * run's second half, and V8's heap and the memory outside it (PGlite's WebAssembly memory) at
 * the end, from /metrics.
 *
 * Options: --minutes=N (30), --interval=S (30), --node-args="…" (the server's Node flags instead
 * of `npm start`'s, to compare). Linux only (/proc). Paste the printed Markdown into docs/benchmarks.md.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { API_PATHS } from '../shared/constants/apiPaths';
import { DEFAULT_ADMIN_EMAIL } from '../server/db/bootstrap';
import { discoverPortal, portalCaller, signInPortal } from '../tools/simulator/portalApi';
import { spawnServer } from '../tests/helpers/spawnServer';
import { machineEndLine, machineLine } from './benchMachine';
import { ROOT, build, isBuildStale } from './build';
import { DEVICE_SORTS } from '../shared/constants/limits';

const arg = (name: string, def: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? def;
const MINUTES = Number(arg('minutes', '30'));
const INTERVAL_S = Number(arg('interval', '30'));
/** `npm start`'s Node flags: what its script puts between `node` and `dist/server.js`. */
const START_SCRIPT = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts['start']!;
const START_NODE_ARGS = /\bnode ((?:--\S+ )*)dist\/server\.js --demo$/.exec(START_SCRIPT)?.[1]?.trim() ?? '';
const NODE_ARGS = arg('node-args', START_NODE_ARGS).split(' ').filter(Boolean);
const PASSWORD = 'Memoria-Demo-2026x';
const MB = 1024 * 1024;

if (!(MINUTES > 0) || !(INTERVAL_S > 0)) throw new Error('--minutes y --interval deben ser positivos');
if (isBuildStale()) await build();

/** VmRSS and VmHWM of a process, in bytes. */
function residentOf(pid: number): { rss: number; hwm: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

async function metric(url: string, name: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
}

console.log(machineLine());
console.log(`Command: \`npm run bench:memory -- --minutes=${MINUTES} --interval=${INTERVAL_S} --node-args="${NODE_ARGS.join(' ')}"\`\n`);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-memory-'));
const started = performance.now();
// `npm start` without npm and tsx around it: their processes are not the server's.
const server = await spawnServer({
  cwd: ROOT,
  env: { DATA_DIR: dataDir, LOG_LEVEL: 'warn', DEMO_PASSWORD: PASSWORD },
  nodeArgs: NODE_ARGS,
  args: ['--demo'],
  timeoutMs: 600_000,
});
const pid = server.proc.pid!;
const samples: { s: number; rss: number }[] = [];
const stop = new AbortController();
const sampler = (async () => {
  while (!stop.signal.aborted) {
    samples.push({ s: (performance.now() - started) / 1000, rss: residentOf(pid).rss });
    await new Promise((r) => setTimeout(r, INTERVAL_S * 1000));
  }
})();

// An administrator using the portal: the demo's first administrator, as a browser signs in.
let requests = 0;
let failures = 0;
const browsing = (async () => {
  const where = await discoverPortal(server.url);
  const session = await signInPortal(where, DEFAULT_ADMIN_EMAIL, PASSWORD);
  const call = portalCaller({ apiUrl: where.apiUrl, headers: () => session.headers() });
  for (let round = 0; !stop.signal.aborted; round++) {
    const sort = DEVICE_SORTS[round % DEVICE_SORTS.length];
    const steps = [
      () => fetch(`${server.url}/login`).then((r) => r.text()),
      () => call('GET', `${API_PATHS.devices.base}?page=${1 + (round % 20)}&sort=${sort}&order=${round % 2 ? 'asc' : 'desc'}`),
      () => call('GET', API_PATHS.dashboard.general()),
      () => call('GET', API_PATHS.audit.base),
    ];
    for (const step of steps) {
      requests++;
      await step().catch(() => failures++);
    }
    await new Promise((r) => setTimeout(r, 10_000));
  }
})();

await new Promise((r) => setTimeout(r, MINUTES * 60_000 - (performance.now() - started)));
const heapUsed = await metric(server.url, 'nodejs_heap_size_used_bytes');
const heapTotal = await metric(server.url, 'nodejs_heap_size_total_bytes');
const external = await metric(server.url, 'nodejs_external_memory_bytes');
const { hwm } = residentOf(pid);
stop.abort();
await Promise.all([sampler, browsing]);
await server.stop();
fs.rmSync(dataDir, { recursive: true, force: true });

const at = (minute: number) => samples.filter((x) => x.s <= minute * 60 + INTERVAL_S / 2).at(-1);
const mib = (b: number) => `${(b / MB).toFixed(0)} MiB`;
const half = samples.filter((x) => x.s >= (MINUTES * 60) / 2);
const firstHalf = half[0];
const last = samples.at(-1)!;
console.log('| what | result |');
console.log('|---|---|');
const marks = [1, 5, 10, 15, 20, 30, 45, 60, 90, 120].filter((m) => m <= MINUTES);
console.log(
  `| the server's resident memory (VmRSS) at minute ${marks.join(', ')} | ${marks
    .map((m) => at(m))
    .filter((x) => x !== undefined)
    .map((x) => mib(x.rss))
    .join(', ')} |`,
);
console.log(`| at the end (${MINUTES} min) / peak (VmHWM) | **${mib(last.rss)}** / ${mib(hwm)} |`);
if (firstHalf)
  console.log(
    `| change over the second half (minute ${(firstHalf.s / 60).toFixed(0)} → ${(last.s / 60).toFixed(0)}), min / max there | ${last.rss >= firstHalf.rss ? '+' : ''}${((last.rss - firstHalf.rss) / MB).toFixed(0)} MiB; ${mib(Math.min(...half.map((x) => x.rss)))} / ${mib(Math.max(...half.map((x) => x.rss)))} |`,
  );
console.log(
  `| V8 heap used / total, memory outside it (PGlite's WebAssembly memory, buffers) at the end | ${mib(heapUsed)} / ${mib(heapTotal)}, ${mib(external)} |`,
);
console.log(`| the administrator's requests (failed) | ${requests} (${failures}) |`);
console.log(`\n${machineEndLine()}`);
