/**
 * `npm run bench:inventory`: the inventory targets of docs/benchmarks.md, measured at the API.
 *   P4/P5  list pages (every status filter entry, type, group, every offered sort and order,
 *          pages 1–50; the pre-enrolled page's group filter and sorts), IMEI prefix and text search, the two dashboards' answers (the demo
 *          generator's devices and their 30 days of command history), p95 over ≥ 200 requests
 *   P6     bulk lock of 10,000 devices (dry run + commit + job done), CSV import of 10,000
 *          rows, CSV export of the whole fleet (rows/s and the process's RSS growth)
 * Each engine gets a fresh database seeded as `npm run seed` seeds it (tools/seed/seedFleet.ts).
 * Options: --devices=N (default 1000000), --requests=N (default 300), --engines=pglite,postgres
 * (PostgreSQL needs TEST_DATABASE_URL; default: both when it is set).
 * Paste the printed Markdown into docs/benchmarks.md.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { createApp } from '../server/app';
import { loadConfig } from '../server/config';
import { bootstrap } from '../server/db/bootstrap';
import { createIdentity } from '../server/identity/createIdentity';
import { createLogger } from '../server/logger';
import { prng } from '../tools/seed/prng';
import { seedFleet, settleAfterSeed } from '../tools/seed/seedFleet';
import { loadClientAssets } from '../server/ssr/manifest';
import { percentile } from '../tools/simulator/load';
import { discoverPortal, signInPortal } from '../tools/simulator/portalApi';
import { luhnCheckDigit } from '../shared/contracts/devices';
import type { BulkPreview, Job } from '../shared/contracts/jobs';
import { DEVICE_STATUS, STATUS_FILTERS } from '../shared/constants/domain';
import { createTestDb, type Engine } from '../tests/helpers/testDb';
import { machineEndLine, machineLine } from './benchMachine';
import { DIST, build, isBuildStale } from './build';
import { DEVICE_SORTS } from '../shared/constants/limits';

const opt = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const DEVICES = Number(opt('devices') ?? 1_000_000);
const REQUESTS = Number(opt('requests') ?? 300);
const ENGINES = (opt('engines')?.split(',') ?? (process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'])) as Engine[];
const ADMIN = 'admin@demo.local';
const DEMO_PASSWORD = 'Demo-Portal-2026!';

const ms = (x: number) => `${x.toFixed(1)} ms`;

async function measure(engine: Engine, lines: string[]): Promise<void> {
  const t = await createTestDb(engine);
  const db = t.db;
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'warn', DEMO_PASSWORD }, 'bench');
  const logger = createLogger('warn');
  const runtime = await createIdentity(config, db, logger);
  await bootstrap(db, config, runtime.identity);

  // Seed: the demo groups and DEVICES devices, as `npm run seed` does (tools/seed/seedFleet.ts).
  const seedStart = performance.now();
  const now = new Date();
  const groups = (await seedFleet(db, { count: DEVICES, seed: 7, now })).groupIds;
  // As autovacuum leaves the tables some time after a bulk load (the P7 bench does the same).
  await settleAfterSeed(db);
  const seedSeconds = (performance.now() - seedStart) / 1000;

  const { app, services } = createApp({ config, db, logger, assets: loadClientAssets(DIST), ...runtime });
  const server = http.createServer(app);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const base = `${origin}/api/v5`;
  // A real sign-in (SRP against the embedded endpoint): sessions are bound to their refresh token.
  const session = await signInPortal(await discoverPortal(origin), ADMIN, DEMO_PASSWORD);
  const headers = await session.headers();
  const call = async (path: string, init: RequestInit = {}) => {
    const res = await fetch(`${base}${path}`, { ...init, headers: { ...headers, ...(init.headers as Record<string, string>) } });
    if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${await res.text()}`);
    return res;
  };
  const timed = async (path: string) => {
    const start = performance.now();
    await (await call(path)).arrayBuffer();
    return performance.now() - start;
  };

  try {
    const rnd = prng(42);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
    await timed('/devices'); // warm-up

    // P4/P5 list pages: filter × sort × order × page.
    const filters: string[] = [
      '',
      ...STATUS_FILTERS.map((f) => `status=${encodeURIComponent(f.value)}`),
      'deviceType=1',
      'deviceType=2',
      ...groups.map((g) => `groupId=${g}`),
      'groupId=none',
      // What the dashboards link to: a status outside the reference §4 list, commands in flight, agent versions.
      `status=${DEVICE_STATUS.sin_conexion}`,
      'inFlight=true',
      'agentVersion=3.3.0',
      'agentVersionNot=3.4.1',
      `releasedFrom=${encodeURIComponent(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString())}`,
    ];
    const byFilter = new Map<string, number[]>();
    const all: number[] = [];
    const rounds = Math.max(REQUESTS, filters.length * 10);
    for (let i = 0; i < rounds; i++) {
      const f = filters[i % filters.length]!;
      const q = [
        f,
        'stage=enrolled',
        `sort=${pick(DEVICE_SORTS)}`,
        `order=${pick(['asc', 'desc'])}`,
        `page=${1 + Math.floor(rnd() * 50)}`,
        'perPage=25',
      ]
        .filter(Boolean)
        .join('&');
      const took = await timed(`/devices?${q}`);
      all.push(took);
      const key = f.split('=')[0] || 'none';
      byFilter.set(key, [...(byFilter.get(key) ?? []), took]);
    }
    const worst = [...byFilter.entries()].map(([k, xs]) => `${k} ${ms(percentile(xs, 95))}`).join(', ');

    // The pre-enrolled devices page: all, each group or none, by IMEI or registration, either order.
    const preFilters = ['', ...groups.map((g) => `groupId=${g}`), 'groupId=none'];
    const pre: number[] = [];
    for (let i = 0; i < Math.max(REQUESTS, preFilters.length * 8); i++) {
      const f = preFilters[i % preFilters.length]!;
      const q = [
        f,
        'stage=preEnrolled',
        `sort=${pick(['imei', 'createdAt'])}`,
        `order=${pick(['asc', 'desc'])}`,
        `page=${1 + Math.floor(rnd() * 50)}`,
        'perPage=25',
      ];
      pre.push(await timed(`/devices?${q.filter(Boolean).join('&')}`));
    }

    // IMEI prefix search (4–10 digits of existing IMEIs), as the enrolled devices page asks it.
    const imeis = (await db.query<{ imei: string }>('SELECT imei FROM devices ORDER BY id LIMIT 2000')).rows.map((r) => r.imei);
    const search: number[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      const imei = pick(imeis);
      search.push(await timed(`/devices?stage=enrolled&search=${imei.slice(0, 4 + Math.floor(rnd() * 7))}&perPage=25`));
    }

    // Text search (customer names), as a person types them: a word or two of a stored name,
    // without the ñ (the reference §5 input removes it) and half the time without accents.
    const names = (
      await db.query<{ customer_name: string }>('SELECT customer_name FROM devices WHERE customer_name IS NOT NULL ORDER BY id LIMIT 2000')
    ).rows.map((r) => r.customer_name);
    const text: number[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      const words = pick(names).split(' ');
      const start = Math.floor(rnd() * words.length);
      let typed = words
        .slice(start, start + 1 + Math.floor(rnd() * 2))
        .join(' ')
        .replace(/[ñÑ]/g, '');
      if (rnd() < 0.5) typed = typed.normalize('NFD').replace(/\p{Diacritic}/gu, '');
      text.push(await timed(`/devices?stage=enrolled&search=${encodeURIComponent(typed.slice(0, 12))}&perPage=25`));
    }

    // P4/P5 dashboards: the General and Android answers (counters, the offline index range, the
    // commands in flight), as the pages ask them every minute.
    const general: number[] = [];
    const android: number[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      general.push(await timed('/dashboard/general?tz=America%2FMexico_City'));
      android.push(await timed('/dashboard/android'));
    }

    lines.push(
      `| ${engine} list page (${all.length} requests: ${filters.length} filters × 5 sorts × 2 orders, pages 1–50) | p95 ${ms(percentile(all, 95))}, median ${ms(percentile(all, 50))}, max ${ms(Math.max(...all))} |`,
      `| ${engine} list page p95 per filter | ${worst} |`,
      `| ${engine} pre-enrolled page (${pre.length} requests: all, each group, none × 2 sorts × 2 orders, pages 1–50) | p95 ${ms(percentile(pre, 95))}, median ${ms(percentile(pre, 50))} |`,
      `| ${engine} IMEI prefix search (${search.length} requests, 4–10 digits) | p95 ${ms(percentile(search, 95))}, median ${ms(percentile(search, 50))} |`,
      `| ${engine} text search (${text.length} requests: customer words as typed, ñ removed, accents or not) | p95 ${ms(percentile(text, 95))}, median ${ms(percentile(text, 50))} |`,
      `| ${engine} dashboard general (${general.length} requests) | p95 ${ms(percentile(general, 95))}, median ${ms(percentile(general, 50))} |`,
      `| ${engine} dashboard android (${android.length} requests) | p95 ${ms(percentile(android, 95))}, median ${ms(percentile(android, 50))} |`,
    );
    console.log(lines.slice(-7).join('\n'));

    // P6 bulk lock of 10,000 devices: dry run, commit, job done.
    const ids = (
      await db.query<{ id: string }>('SELECT id FROM devices WHERE deleted_at IS NULL AND base_status = 5 ORDER BY id LIMIT 10000')
    ).rows.map((r) => Number(r.id));
    const body = JSON.stringify({ selection: { ids }, payload: { action: 0, lockType: 'PorCredito', message: 'Pago vencido' } });
    const json = { 'Content-Type': 'application/json' };
    const bulkStart = performance.now();
    const preview = (await (await call('/devices/bulk-actions/preview', { method: 'POST', body, headers: json })).json()) as BulkPreview;
    const previewMs = performance.now() - bulkStart;
    let job = (await (await call('/devices/bulk-actions', { method: 'POST', body, headers: json })).json()) as Job;
    while (job.status === 'queued' || job.status === 'running') {
      await new Promise((r) => setTimeout(r, 50));
      job = (await (await call(`/jobs/${job.id}`)).json()) as Job;
    }
    const bulkMs = performance.now() - bulkStart;

    // P6 CSV import of 10,000 rows (IMEIs outside the seeded range).
    const csv = ['imei,tipo,marca,modelo,cliente,referencia_credito'];
    for (let i = 0; i < 10_000; i++) {
      const body14 = `99${String(i).padStart(12, '0')}`;
      csv.push(`${body14}${luhnCheckDigit(body14)},Móvil,Samsung,Galaxy A15,Cliente ${i},CR-B-${i}`);
    }
    const importStart = performance.now();
    const imported = (await (
      await call('/devices/import?mode=commit', { method: 'POST', body: csv.join('\n'), headers: { 'Content-Type': 'text/csv; charset=utf-8' } })
    ).json()) as { imported: number };
    const importMs = performance.now() - importStart;

    // P6 export of the whole fleet: rows per second and RSS growth while streaming.
    const rssBefore = process.memoryUsage().rss;
    let rssMax = rssBefore;
    const sampler = setInterval(() => (rssMax = Math.max(rssMax, process.memoryUsage().rss)), 50);
    const exportStart = performance.now();
    // Uncompressed: the server's streaming alone (gzip, negotiated by browsers, costs CPU on top).
    const res = await call('/devices/export', { headers: { 'accept-encoding': 'identity' } });
    let newlines = 0;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      for (const byte of chunk) if (byte === 10) newlines++;
    }
    const exportSeconds = (performance.now() - exportStart) / 1000;
    clearInterval(sampler);
    const rows = newlines - 1;

    lines.push(
      `| ${engine} bulk lock of ${ids.length} devices (dry run ${ms(previewMs)} + commit + job ${job.status}, ${job.succeeded} commands; preview eligible ${preview.eligible}) | ${(bulkMs / 1000).toFixed(2)} s |`,
      `| ${engine} CSV import of 10,000 rows (commit, ${imported.imported} registered) | ${(importMs / 1000).toFixed(2)} s |`,
      `| ${engine} CSV export of ${rows} devices | ${(rows / exportSeconds).toFixed(0)} rows/s (${exportSeconds.toFixed(1)} s), RSS +${((rssMax - rssBefore) / 2 ** 20).toFixed(0)} MiB |`,
      `| ${engine} seeding ${DEVICES} devices | ${seedSeconds.toFixed(0)} s |`,
    );
    console.log(lines.slice(-4).join('\n'));
  } finally {
    await services.jobRunner.stop();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await t.dispose();
  }
}

if (isBuildStale()) await build();
const lines: string[] = [
  machineLine(),
  `Command: \`npm run bench:inventory -- --devices=${DEVICES} --requests=${REQUESTS} --engines=${ENGINES.join(',')}\``,
  '',
  '| what | result |',
  '|---|---|',
];
for (const engine of ENGINES) await measure(engine, lines);
lines.push('', machineEndLine());
console.log(`\n${lines.join('\n')}\n`);
process.exit(0);
