/**
 * `npm run bench:agent`: the device-side target P7 of docs/benchmarks.md, measured against the built
 * server running as two processes (two replicas) on one PostgreSQL database.
 *   throughput  the agent simulator's load mode (tools/simulator/load.ts: POST /agent/v1/checkin,
 *               wait=0, a different agent's token per request) against one replica, then
 *               round-robin against both: as fast as they answer (closed loop: the most
 *               check-ins per second), then at --rate check-ins due per second (open loop: the
 *               latency an agent sees at that rate); requests/s, p50/p97.5/p99 latency, non-2xx
 *   delivery    long polls (wait=25) held on replica A; a LOCK created for each of those devices
 *               through the portal API on replica B (and, separately, on A itself), one at a time:
 *               time from the POST's answer to the long poll's answer carrying the command
 * Seeding: a fresh schema on TEST_DATABASE_URL (tests/helpers/testDb.ts), the demo fleet of
 * tools/seed/demoDevices.ts, and --agents of its enrolled devices given device tokens. The
 * tokens are derived, for the benchmark only, as 'mld_' + base64url(HMAC-SHA256(BENCH_KEY, device id))
 * (the shape of a real one; real tokens are random, see server/agent/agentTokens.ts), so the
 * load generator recomputes them instead of reading them back; only their SHA-256 is stored. Each
 * agent has a P-256 key pair of its own, as on a device (its public point stored with the token),
 * and every check-in is signed with it (docs/agent-protocol.md): the load generator signs one
 * check-in per agent before each run (a signature is good for 5 minutes) and the servers verify
 * every request, so the runs include the verification's cost.
 *
 * A check-in reports (last seen, versions, battery) only when its last-seen time is five minutes old
 * or something the agent reports changed (LAST_SEEN_WRITE_SECONDS); agents checking in every 30 s
 * therefore report on about one check-in in ten, and each replica writes those reports in batches,
 * once a second (server/agent/presenceWriter.ts), inside the measured runs. Before each throughput
 * run, a share --writes of the agents get a last-seen time 10 minutes old (their next check-in
 * reports) and the rest one 30 s ahead (so that the reset's own UPDATE and VACUUM, tens of seconds
 * at 10^6 devices, do not use up their five minutes: their check-ins only read); each request takes
 * the next agent of a shuffled list, so the share of reporting check-ins is the one asked (the run
 * prints the share it measured, from the replicas' presence counters).
 *
 * Options: --devices=N (1000000), --agents=N (100000), --connections=N (50), --duration=S (20),
 * --warmup=S (5), --polls=N (200), --writes=S[,S…] (0.1: shares of writing check-ins, one
 * set of throughput runs per share), --rate=N[,N…] (2000: check-ins due per second in the open-loop runs,
 * one pair of runs per rate; 0 skips them), --cpu-prof (profile both servers, print where their time goes),
 * --trace-gc (print each server's garbage-collection pauses over the whole run: V8's --trace-gc),
 * --semi-space=MB (the servers' young generation, V8's --max-semi-space-size; Node's default unless given).
 * Needs TEST_DATABASE_URL. The schema is dropped at the end. Paste the printed Markdown into
 * docs/benchmarks.md.
 *
 * The server bundle is built with the options of `npm run build` (scripts/build.ts serverOptions)
 * into node_modules/.cache/bench-agent, so a dist/ other work is using is never replaced meanwhile.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, createHmac, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import * as esbuild from 'esbuild';
import { DeviceRepository } from '../server/devices';
import { loadConfig } from '../server/config';
import type { Queryable, Row } from '../server/db/Db';
import { bootstrap } from '../server/db/bootstrap';
import { prng } from '../tools/seed/prng';
import { seedFleet, settleAfterSeed } from '../tools/seed/seedFleet';
import { createIdentity } from '../server/identity/createIdentity';
import { signJwt } from '../server/identity/jwt';
import { loadOrCreateKeys } from '../server/identity/keys';
import { createLogger } from '../server/logger';
import { DEVICE_ACTION } from '../shared/constants/deviceActions';
import type { CheckinResponse } from '../shared/contracts/agent';
import type { ActionResult } from '../shared/contracts/deviceActions';
import { percentile, runCheckinLoad, signCheckins, type PreparedCheckin } from '../tools/simulator/load';
import { signRequest } from '../server/agent/requestSignature';
import { createTestDb } from '../tests/helpers/testDb';
import { freePort } from '../tests/helpers/spawnServer';
import { machineEndLine, machineLine } from './benchMachine';
import { DIST, ROOT, build, serverOptions } from './build';

const opt = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const DEVICES = Number(opt('devices') ?? 1_000_000);
const AGENTS = Number(opt('agents') ?? 100_000);
const CONNECTIONS = Number(opt('connections') ?? 50);
const DURATION = Number(opt('duration') ?? 20);
const WARMUP = Number(opt('warmup') ?? 5);
const POLLS = Number(opt('polls') ?? 200);
const WRITES = (opt('writes') ?? '0.1').split(',').map(Number);
/** The rates of the open-loop runs: P7's 2,000 check-ins per second by default (0: closed loop only). */
const RATES = (opt('rate') ?? '2000')
  .split(',')
  .map(Number)
  .filter((r) => r !== 0);
const CPU_PROF = process.argv.includes('--cpu-prof');
const TRACE_GC = process.argv.includes('--trace-gc');
const SEMI_SPACE = opt('semi-space');
const ADMIN = 'admin@demo.local';
/** The benchmark's token derivation key (never a real credential). */
const BENCH_KEY = 'macrolock-bench-agent';
const WORK_DIR = path.join(ROOT, 'node_modules', '.cache', 'bench-agent');
/** Devices in the presence batch whose plan the run prints. */
const PRESENCE_EXPLAINED = 100;
const BATCH = 10_000;

const url = process.env.TEST_DATABASE_URL;
if (!url) throw new Error('bench:agent necesita TEST_DATABASE_URL (PostgreSQL)');
if (WRITES.some((w) => !(w >= 0 && w <= 1))) throw new Error('--writes: proporciones entre 0 y 1');
if (RATES.some((r) => !(r > 0))) throw new Error('--rate: check-ins por segundo mayores que 0 (0 para omitir el lazo abierto)');
if (SEMI_SPACE !== undefined && !(Number.isInteger(Number(SEMI_SPACE)) && Number(SEMI_SPACE) >= 1)) {
  throw new Error('--semi-space: MB enteros, 1 o más (la generación joven de V8 de los servidores)');
}

const ms = (x: number) => `${x.toFixed(1)} ms`;
const n0 = (x: number) => Math.round(x).toLocaleString('en-US');
const sleep = (t: number) => new Promise((r) => setTimeout(r, t));
const { subtle } = globalThis.crypto;
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');

/** The benchmark's device token of a device (see the header). */
const tokenOf = (deviceId: number) => `mld_${createHmac('sha256', BENCH_KEY).update(String(deviceId)).digest('base64url')}`;

/**
 * CPU seconds used so far (Linux /proc): the whole machine (busy and total), each replica, every
 * PostgreSQL process, this process. Differences over a run tell who used the cores.
 */
function cpuSnapshot(pids: number[]): { busy: number; total: number; replicas: number[]; postgres: Map<number, number>; self: number } | undefined {
  if (!fs.existsSync('/proc/stat')) return undefined;
  const TICK = 100;
  const ticksOf = (pid: number | 'self') => {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return (Number(fields[11]) + Number(fields[12])) / TICK;
    } catch {
      return 0; // ended meanwhile
    }
  };
  const cpu = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.split(/\s+/).slice(1).map(Number);
  const idle = (cpu[3] ?? 0) + (cpu[4] ?? 0);
  const total = cpu.slice(0, 8).reduce((x, y) => x + y, 0);
  const postgres = new Map<number, number>();
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres') postgres.set(Number(pid), ticksOf(Number(pid)));
    } catch {
      // ended meanwhile
    }
  }
  return { busy: (total - idle) / TICK, total: total / TICK, replicas: pids.map(ticksOf), postgres, self: ticksOf('self') };
}

/** Where the machine's cores went between two snapshots, in cores (CPU seconds per second). */
function cpuShare(a: ReturnType<typeof cpuSnapshot>, b: ReturnType<typeof cpuSnapshot>, seconds: number, requests: number): string {
  if (!a || !b) return 'n/a';
  const c = (x: number) => (x / seconds).toFixed(2);
  const replicas = b.replicas.map((x, i) => x - a.replicas[i]!);
  // Per process: one started during the run counts whole; one that ended (a backend, an autovacuum
  // worker) took its time with it (it is left in "everything else", never subtracted).
  const pg = [...b.postgres].reduce((sum, [pid, ticks]) => sum + ticks - (a.postgres.get(pid) ?? 0), 0);
  const self = b.self - a.self;
  const busy = b.busy - a.busy;
  const sum = replicas.reduce((x, y) => x + y, 0);
  return (
    `servers ${replicas.map(c).join(' + ')}, PostgreSQL ${c(pg)}, load generator ${c(self)}, ` +
    `everything else ${c(Math.max(0, busy - sum - pg - self))}, idle ${c(b.total - a.total - busy)} cores; ` +
    `CPU per check-in: servers ${((1000 * sum) / requests).toFixed(2)} ms + PostgreSQL ${((1000 * pg) / requests).toFixed(2)} ms ` +
    `(+ load generator ${((1000 * self) / requests).toFixed(2)} ms) → ≈${n0((os.availableParallelism() * requests) / (sum + pg + self))} ` +
    `check-ins/s if these ${os.availableParallelism()} cores ran nothing else`
  );
}

/** The statements a repository call sends, without running them (to EXPLAIN the real SQL). */
async function statementsOf(call: (q: Queryable) => Promise<unknown>): Promise<{ sql: string; params: readonly unknown[] }[]> {
  const seen: { sql: string; params: readonly unknown[] }[] = [];
  const recorder: Queryable = {
    query: async <T = Row>(sql: string, params?: readonly unknown[]) => {
      seen.push({ sql, params: params ?? [] });
      return { rows: [] as T[], rowCount: 0 };
    },
    exec: async () => undefined,
  };
  await call(recorder).catch(() => undefined);
  return seen;
}

/** The server bundle as `npm run build` makes it, with a copy of the client manifest it reads. */
async function buildServer(): Promise<void> {
  if (!fs.existsSync(path.join(DIST, 'manifest.json'))) await build();
  fs.rmSync(WORK_DIR, { recursive: true, force: true });
  fs.mkdirSync(path.join(WORK_DIR, 'dist'), { recursive: true });
  fs.copyFileSync(path.join(DIST, 'manifest.json'), path.join(WORK_DIR, 'dist', 'manifest.json'));
  await esbuild.build({ ...serverOptions, outdir: path.join(WORK_DIR, 'dist') });
}

interface Replica {
  url: string;
  proc: ChildProcess;
  exited: Promise<number | null>;
}

/** `node [--cpu-prof] dist/server.js` from WORK_DIR on a free port, once /healthz answers (as tests/helpers/spawnServer.ts). */
async function startReplica(env: Record<string, string>, name: string): Promise<Replica> {
  const port = await freePort();
  const args = [
    ...(CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${path.join(WORK_DIR, 'profiles')}`, `--cpu-prof-name=${name}.cpuprofile`] : []),
    ...(TRACE_GC ? ['--trace-gc'] : []),
    ...(SEMI_SPACE ? [`--max-semi-space-size=${SEMI_SPACE}`] : []),
    'dist/server.js',
  ];
  const log = fs.openSync(path.join(WORK_DIR, `${name}.log`), 'w');
  const proc = spawn(process.execPath, args, {
    cwd: WORK_DIR,
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: ['ignore', log, log],
  });
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (proc.exitCode !== null || Date.now() > deadline) {
      proc.kill('SIGKILL');
      throw new Error(`la réplica ${name} no inició:\n${fs.readFileSync(path.join(WORK_DIR, `${name}.log`), 'utf8')}`);
    }
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { url: `http://127.0.0.1:${port}`, proc, exited };
    await sleep(100);
  }
}

/** The pauses of V8's --trace-gc lines in a replica's log: per kind (a memory-reducing mark-compact counts as one), how many, p50 / p99 / max and their sum. */
function gcSummary(log: string): string[] {
  const pauses = new Map<string, number[]>();
  for (const m of log.matchAll(/: (Scavenge|Minor Mark-Compact|Mark-Compact)\b.*?MB, ([\d.]+) \/ [\d.]+ ms/g)) {
    pauses.set(m[1]!, [...(pauses.get(m[1]!) ?? []), Number(m[2])]);
  }
  return [...pauses].map(
    ([kind, xs]) =>
      `${kind}: ${xs.length}, pause p50 ${ms(percentile(xs, 50))}, p99 ${ms(percentile(xs, 99))}, max ${ms(Math.max(...xs))}, ${ms(xs.reduce((a, b) => a + b, 0))} in all`,
  );
}

/** Self time of a V8 CPU profile by where the code lives and by function. */
function profileSummary(file: string): string[] {
  const prof = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
    samples: number[];
    timeDeltas: number[];
  };
  const byId = new Map(prof.nodes.map((n) => [n.id, n.callFrame]));
  const self = new Map<number, number>();
  prof.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (prof.timeDeltas[i] ?? 0)));
  let total = 0;
  let idle = 0;
  const byPlace = new Map<string, number>();
  const byLayer = new Map<string, number>();
  const byFunction = new Map<string, number>();
  for (const [id, us] of self) {
    const f = byId.get(id)!;
    total += us;
    if (f.functionName === '(idle)') {
      idle += us;
      continue;
    }
    const portal = f.url.endsWith('/dist/server.js');
    const pkg = portal ? undefined : /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(f.url)?.[1];
    const place = portal ? 'portal code (server.js)' : f.url === '' ? f.functionName : (pkg ?? f.url);
    byPlace.set(place, (byPlace.get(place) ?? 0) + us);
    const layer = portal
      ? 'portal code'
      : f.url === ''
        ? f.functionName === '(garbage collector)'
          ? 'garbage collection'
          : 'native (socket writes and reads, crypto, V8)'
        : f.url.startsWith('node:')
          ? 'Node internals (http, net, streams, events)'
          : pkg && /^pg(-|$)/.test(pkg)
            ? 'pg driver'
            : pkg === 'zod'
              ? 'zod'
              : 'HTTP stack and middleware (express, router, helmet, compression, request log, rate limit, prom-client…)';
    byLayer.set(layer, (byLayer.get(layer) ?? 0) + us);
    const fn = `${f.functionName || '(anonymous)'} ${pkg ?? path.basename(f.url)}:${f.lineNumber + 1}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
  }
  const busy = total - idle;
  const top = (m: Map<string, number>, k: number) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, k)
      .map(([name, us]) => `${name} ${((100 * us) / busy).toFixed(1)} %`)
      .join('; ');
  return [
    `busy ${(busy / 1e6).toFixed(1)} s of ${(total / 1e6).toFixed(1)} s`,
    `by layer: ${top(byLayer, 8)}`,
    `by place: ${top(byPlace, 10)}`,
    `by function (self): ${top(byFunction, 12)}`,
  ];
}

const lines: string[] = [];
const out = (...xs: string[]) => {
  lines.push(...xs);
  console.log(xs.join('\n'));
};

const started = performance.now();
const loadAtStart = load();
await buildServer();
const t = await createTestDb('postgres');
const db = t.db;
const schema = (await db.query<{ s: string }>('SELECT current_schema() AS s')).rows[0]!.s;
const servers: Replica[] = [];
let cleaned = false;
const cleanup = async () => {
  if (cleaned) return;
  cleaned = true;
  await Promise.all(
    servers.map((s) => {
      if (s.proc.exitCode === null) s.proc.kill('SIGTERM');
      return s.exited;
    }),
  );
  await t.dispose();
};
process.once('SIGINT', () => void cleanup().finally(() => process.exit(130)));

try {
  const pgVersion = (await db.query<{ server_version: string }>('SHOW server_version')).rows[0]!.server_version;
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'warn', DEMO_PASSWORD: 'Demo-Portal-2026!' }, 'bench');
  const runtime = await createIdentity(config, db, createLogger('warn'));
  await bootstrap(db, config, runtime.identity);

  // 1. Seed: the demo fleet, as `npm run seed` and bench:inventory do (tools/seed/seedFleet.ts).
  const seedStart = performance.now();
  await seedFleet(db, { count: DEVICES, seed: 7, batchSize: BATCH });
  const fleetSeconds = (performance.now() - seedStart) / 1000;

  // The agents: a random sample of the devices an agent runs on (enrolled and after), seen just now.
  const agentsStart = performance.now();
  const eligible = (
    await db.query<{ id: number }>(
      `SELECT id FROM devices WHERE deleted_at IS NULL AND lifecycle IN ('enrolled', 'configured', 'operating', 'reconfigured', 'suspended') ORDER BY id`,
    )
  ).rows.map((r) => Number(r.id));
  if (eligible.length < AGENTS) throw new Error(`solo ${eligible.length} dispositivos enrolados para ${AGENTS} agentes`);
  const rnd = prng(42);
  for (let i = eligible.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [eligible[i], eligible[j]] = [eligible[j]!, eligible[i]!];
  }
  const agentIds = eligible.slice(0, AGENTS);
  const agents = new Map<number, { token: string; keys: { privateKey: CryptoKey } }>();
  for (let i = 0; i < agentIds.length; i += BATCH) {
    const ids = agentIds.slice(i, i + BATCH);
    const pairs = await Promise.all(ids.map(() => subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify'])));
    const points = await Promise.all(pairs.map(async (p) => Buffer.from(await subtle.exportKey('raw', p.publicKey)).toString('hex')));
    ids.forEach((id, k) => agents.set(id, { token: tokenOf(id), keys: pairs[k]! }));
    await db.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO agent_tokens (token_hash, device_id, public_key, created_at)
         SELECT decode(u.h, 'hex'), u.id, decode(u.k, 'hex'), coalesce(d.enrolled_at, now())
           FROM unnest($1::text[], $2::bigint[], $3::text[]) AS u(h, id, k) JOIN devices d ON d.id = u.id`,
        [ids.map((id) => createHash('sha256').update(tokenOf(id)).digest('hex')), ids, points],
      );
      await tx.query(
        `UPDATE devices SET last_seen_at = now() - random() * interval '30 seconds', agent_lock_state = NULL WHERE id = ANY($1::bigint[])`,
        [ids],
      );
    });
  }
  // This PostgreSQL may run without autovacuum: the tables start vacuumed, as a live one would be.
  await settleAfterSeed(db);
  const agentsSeconds = (performance.now() - agentsStart) / 1000;
  const tokens = new Map(agentIds.map((id) => [id, tokenOf(id)]));
  const agentOf = (id: number) => agents.get(id)!;

  // 2. Two replicas of the built server on the schema.
  const sep = url.includes('?') ? '&' : '?';
  const env = {
    NODE_ENV: 'test',
    DATABASE_URL: `${url}${sep}options=${encodeURIComponent(`-c search_path=${schema},public`)}`,
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'false',
    DEMO_AGENTS: '0',
    AGENT_RATE_LIMIT_PER_MINUTE: '100000000',
    SHUTDOWN_DELAY_MS: '0',
    SHUTDOWN_TIMEOUT_MS: '3000',
  };
  for (const name of ['A', 'B']) servers.push(await startReplica(env, name));
  const [a, b] = servers as [Replica, Replica];

  out(
    machineLine(`PostgreSQL ${pgVersion}, load average before seeding ${loadAtStart}`),
    `Command: \`npm run bench:agent -- --devices=${DEVICES} --agents=${AGENTS} --connections=${CONNECTIONS} --duration=${DURATION} --warmup=${WARMUP} --polls=${POLLS} --writes=${WRITES.join(',')} --rate=${RATES.join(',') || 0}${CPU_PROF ? ' --cpu-prof' : ''}${TRACE_GC ? ' --trace-gc' : ''}${SEMI_SPACE ? ` --semi-space=${SEMI_SPACE}` : ''}\``,
    '',
    '| what | result |',
    '|---|---|',
    `| seeding ${n0(DEVICES)} devices (demo generator) + ${n0(AGENTS)} agents (tokens, last seen) | ${fleetSeconds.toFixed(0)} s + ${agentsSeconds.toFixed(0)} s |`,
  );

  // 3. Throughput: wait=0 check-ins, each request the next agent of a shuffled list: as fast as the
  // servers answer (closed loop), then at the target rate (open loop, latency from each check-in's
  // due instant): tools/simulator/load.ts says why both.
  let next = 0;
  let signed: PreparedCheckin[] = [];
  let signingSeconds = 0;
  /** Every agent's check-in signed now, in the shuffled order (good for the warmup and the run after it). */
  const signAll = async () => {
    const started = performance.now();
    signed = await signCheckins(agentIds.map(agentOf), (k) => ({ batteryLevel: 20 + (k % 80) }));
    signingSeconds = (performance.now() - started) / 1000;
  };
  const checkins = (urls: string[], seconds: number, ratePerSecond?: number) =>
    runCheckinLoad({
      urls,
      connections: CONNECTIONS,
      durationSeconds: seconds,
      nextCheckin: () => signed[next++ % signed.length]!,
      ratePerSecond,
    });
  type Run = { label: string; urls: string[]; rate?: number };
  const runs: Run[] = [
    { label: 'one replica, as fast as it answers', urls: [a.url] },
    { label: 'both replicas, round-robin, as fast as they answer', urls: [a.url, b.url] },
  ];
  for (const rate of RATES)
    runs.push(
      { label: `one replica, ${n0(rate)}/s due`, urls: [a.url], rate },
      { label: `both replicas, round-robin, ${n0(rate)}/s due`, urls: [a.url, b.url], rate },
    );
  /** The presence batches' counters of both replicas (/metrics): reports waiting, written, skipped. */
  const presence = async () => {
    const sum = { pending: 0, written: 0, skipped: 0 };
    for (const { url } of servers) {
      const text = await (await fetch(`${url}/metrics`)).text();
      const value = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? 0);
      sum.pending += value(/^agent_presence_pending (\d+)/m);
      sum.written += value(/^agent_presence_reports_total\{outcome="written"\} (\d+)/m);
      sum.skipped += value(/^agent_presence_reports_total\{outcome="skipped"\} (\d+)/m);
    }
    return sum;
  };
  for (const writes of WRITES) {
    for (const { label, urls, rate } of runs) {
      const resetStart = performance.now();
      // The readers' last-seen time, 30 s ahead, so that the reset's own UPDATE and VACUUM do not
      // use up their five minutes.
      const ahead = new Date(Date.now() + 30_000);
      await db.query(
        `UPDATE devices SET last_seen_at = CASE WHEN random() < $1 THEN now() - interval '10 minutes' ELSE $2 END
          WHERE id IN (SELECT device_id FROM agent_tokens)`,
        [writes, ahead],
      );
      await db.exec('VACUUM devices');
      // The reset's WAL (hundreds of MB at 10^6 devices) checkpointed now, not by a checkpoint it
      // would start inside the measured run (whose writes and final sync stall the reads behind them).
      await db.exec('CHECKPOINT').catch((err: unknown) => console.warn(`(CHECKPOINT no disponible: ${String(err)})`));
      const resetMs = performance.now() - resetStart;
      await signAll();
      await checkins(urls, WARMUP, rate);
      const presenceBefore = await presence();
      const cpuBefore = cpuSnapshot(servers.map((x) => x.proc.pid!));
      const r = await checkins(urls, DURATION, rate);
      const cpu = cpuShare(cpuBefore, cpuSnapshot(servers.map((x) => x.proc.pid!)), r.seconds, r.requests);
      // A writing check-in's report, written by its replica's next batch (within a second).
      let presenceAfter = await presence();
      for (let i = 0; i < 50 && presenceAfter.pending > 0; i++) {
        await sleep(100);
        presenceAfter = await presence();
      }
      // Those waiting when the run began are the warmup's.
      const written = presenceAfter.written - presenceBefore.written - presenceBefore.pending;
      const skipped = presenceAfter.skipped - presenceBefore.skipped;
      const ok = r.ok;
      if (resetMs / 1000 + WARMUP + DURATION > 325)
        console.warn(`(el reinicio de last_seen tardó ${(resetMs / 1000).toFixed(0)} s: parte de las lecturas ya escriben)`);
      out(
        `| check-ins, ${label}, ${CONNECTIONS} connections, ${DURATION} s, writes asked ${(writes * 100).toFixed(0)} % ` +
          `(measured ${ok ? ((100 * written) / ok).toFixed(0) : '-'} %: ${n0(written)} reports written by the replicas' batches, ${n0(skipped)} skipped) | **${n0(r.perSecond)} req/s**, ` +
          `p50 ${r.latencyMs.p50} ms, p97.5 ${r.latencyMs.p97_5} ms, **p99 ${r.latencyMs.p99} ms**, max ${r.latencyMs.max} ms; ` +
          `${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts |`,
        `| CPU during that run | ${cpu} |`,
        `| the load generator signing the ${n0(signed.length)} agents' check-ins before it (not in the run) | ${signingSeconds.toFixed(1)} s |`,
      );
    }
  }

  // 4. Delivery: long polls on A, a LOCK per device created on B (then on A), one at a time.
  const keys = await loadOrCreateKeys(db);
  const { sub } = await runtime.identity!.admin.adminGetUser(ADMIN);
  // A live sign-in as the embedded endpoint records it (its refresh token), as tests/helpers/adminApi.ts does.
  const iat = Math.floor(Date.now() / 1000);
  const originJti = randomUUID();
  await db.query(
    `INSERT INTO identity_refresh_tokens (token_hash, sub, client_id, origin_jti, auth_time, expires_at)
     VALUES ($1, $2, $3, $4, $5, now() + interval '1 day')`,
    [randomUUID(), sub, config.identity.clientId, originJti, iat],
  );
  const common = { sub, iss: runtime.identity!.issuer, origin_jti: originJti, event_id: randomUUID(), auth_time: iat, iat, exp: iat + 7200 };
  const admin = {
    AccessToken: signJwt({ ...common, client_id: config.identity.clientId, token_use: 'access', username: ADMIN, jti: randomUUID() }, keys.access),
    IdToken: signJwt(
      { ...common, email: ADMIN, aud: config.identity.clientId, token_use: 'id', 'cognito:username': ADMIN, jti: randomUUID() },
      keys.id,
    ),
    username: ADMIN,
    'Content-Type': 'application/json',
  };
  // Operating, active, nothing pending: a LOCK is allowed and is the first command they receive.
  const targets = (
    await db.query<{ id: number }>(
      `SELECT d.id FROM devices d JOIN agent_tokens t ON t.device_id = d.id AND t.revoked_at IS NULL
        WHERE d.deleted_at IS NULL AND d.base_status = 5 ORDER BY md5(d.id::text) LIMIT $1`,
      [2 * POLLS],
    )
  ).rows.map((r) => Number(r.id));
  if (targets.length < 2 * POLLS) throw new Error(`solo ${targets.length} dispositivos activos para ${2 * POLLS} long polls`);

  const openPolls = async (base: string) => {
    const text = await (await fetch(`${base}/metrics`)).text();
    return Number(/^agent_long_polls_open (\d+)/m.exec(text)?.[1] ?? 0);
  };
  /** The agent's long poll: asks again after an empty answer, resolves when a command arrives. */
  const longPoll = async (base: string, deviceId: number, deadline: number) => {
    const { token, keys } = agentOf(deviceId);
    for (;;) {
      const sent = JSON.stringify({ wait: 25 });
      const signature = await signRequest(keys.privateKey, { method: 'POST', path: '/agent/v1/checkin', body: sent });
      const res = await fetch(`${base}/agent/v1/checkin`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...signature },
        body: sent,
      });
      const body = (await res.json()) as CheckinResponse;
      const at = performance.now();
      if (!res.ok) throw new Error(`check-in ${res.status}: ${JSON.stringify(body)}`);
      if (body.commands.length > 0) return { at, commandId: body.commands[0]!.id };
      if (Date.now() > deadline) throw new Error('ningún comando llegó al long poll');
    }
  };
  const delivery = async (label: string, pollOn: Replica, createOn: Replica, devices: number[]) => {
    const deadline = Date.now() + 120_000;
    const polls = devices.map((id) => longPoll(pollOn.url, id, deadline));
    // Awaited below; a failure elsewhere first must not leave them unhandled.
    for (const p of polls) p.catch(() => undefined);
    while ((await openPolls(pollOn.url)) < devices.length) await sleep(50);
    const gap = prng(7);
    const created: { at: number; took: number; commandId: number }[] = [];
    for (const id of devices) {
      await sleep(20 + gap() * 60);
      const sent = performance.now();
      const res = await fetch(`${createOn.url}/api/v5/devices/${id}/actions`, {
        method: 'POST',
        headers: admin,
        body: JSON.stringify({ action: DEVICE_ACTION.LOCK, lockType: 'PorCredito', message: 'Pago vencido' }),
      });
      const body = (await res.json()) as ActionResult;
      const at = performance.now();
      if (res.status !== 201 || !body.command) throw new Error(`LOCK ${id}: ${res.status} ${JSON.stringify(body)}`);
      created.push({ at, took: at - sent, commandId: body.command.id });
    }
    const delivered = await Promise.all(polls);
    const latency = delivered.map((d, i) => {
      if (d.commandId !== created[i]!.commandId) throw new Error(`el long poll recibió el comando ${d.commandId}, no ${created[i]!.commandId}`);
      return d.at - created[i]!.at;
    });
    out(
      `| delivery, ${label}: POST answered → long poll answered (${latency.length} commands) | ` +
        `**p99 ${ms(percentile(latency, 99))}**, p50 ${ms(percentile(latency, 50))}, max ${ms(Math.max(...latency))} (POST itself p50 ${ms(
          percentile(
            created.map((c) => c.took),
            50,
          ),
        )}) |`,
    );
  };
  await delivery('polls on A, LOCK created on B', a, b, targets.slice(0, POLLS));
  await delivery('polls and LOCK on A', a, a, targets.slice(POLLS));
  // What a replica needed: its peak resident memory over the whole run (the chart's memory request
  // and limit come from it, docs/deployment.md).
  const peakRss = (pid: number | undefined) => Number(/^VmHWM:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;
  out(`| peak resident memory (VmHWM) of replica A / B over the run | ${peakRss(a.proc.pid).toFixed(0)} / ${peakRss(b.proc.pid).toFixed(0)} MiB |`);

  // 5. The check-in's SQL at this size: its read, and the write of a check-in that records last seen.
  // Round trips of the read on one connection: unnamed (parsed and planned every time) and as the
  // server sends it, a named prepared statement (planned once per connection), alternately.
  const client = new pg.Client({ connectionString: url, options: `-c search_path=${schema},public` });
  await client.connect();
  const unnamed: number[] = [];
  const prepared: number[] = [];
  for (let i = 0; i < 2000; i++) {
    const hash = createHash('sha256')
      .update(tokens.get(agentIds[i % agentIds.length]!)!)
      .digest();
    const [st] = await statementsOf((q) => new DeviceRepository(q).checkinByToken(hash, new Date()));
    const query = { text: st!.sql, values: [...st!.params], ...(i % 2 ? { name: 'bench_checkin' } : {}) };
    const s = performance.now();
    await client.query(query);
    (i % 2 ? prepared : unnamed).push(performance.now() - s);
  }
  const probe = createHash('sha256')
    .update(tokens.get(agentIds[agentIds.length - 1]!)!)
    .digest();
  const [read] = await statementsOf((q) => new DeviceRepository(q).checkinByToken(probe, new Date()));
  // Check-ins that record their last-seen time and move no fact: one presence batch (a replica's
  // second at 100 writing check-ins per second), an hour ahead so that every row is written.
  const later = new Date(Date.now() + 3_600_000);
  const batch = agentIds.slice(-PRESENCE_EXPLAINED).map((id) => [id, { lastSeenAt: later, batteryLevel: 50 }] as const);
  const [write] = await statementsOf((q) => new DeviceRepository(q).refreshMany(batch));
  const explain = async (s: { sql: string; params: readonly unknown[] }) => {
    let plan: string[] = [];
    // Twice on one connection, each in a transaction rolled back, the second kept: the first also
    // plans the triggers' statements (once per connection, as on a replica's pooled connections).
    // Not twice in one transaction: a row that transaction updated would fire the foreign-key check.
    for (let i = 0; i < 2; i++) {
      await client.query('BEGIN');
      plan = (await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${s.sql}`, [...s.params])).rows.map((r) => r['QUERY PLAN']);
      await client.query('ROLLBACK');
    }
    return plan;
  };
  const readPlan = await explain(read!);
  const writePlan = await explain(write!);
  await client.end();
  const timeOf = (plan: string[]) => plan.find((l) => l.startsWith('Execution Time'))?.replace('Execution Time: ', '') ?? '?';
  out(
    `| check-in read (checkinByToken) on one connection, 1,000 calls each: unnamed (parsed and planned each time) / named, as the server sends it (prepared once) | ` +
      `p50 ${ms(percentile(unnamed, 50))} / ${ms(percentile(prepared, 50))}, p99 ${ms(percentile(unnamed, 99))} / ${ms(percentile(prepared, 99))} |`,
    `| EXPLAIN ANALYZE check-in read / presence batch of ${PRESENCE_EXPLAINED} devices (rolled back) | ${timeOf(readPlan)} / ${timeOf(writePlan)} |`,
    '',
    `${machineEndLine()} The whole run took ${((performance.now() - started) / 60000).toFixed(1)} min.`,
    '',
    'Check-in read plan:',
    '```',
    ...readPlan,
    '```',
    `Presence batch plan (${PRESENCE_EXPLAINED} devices):`,
    '```',
    ...writePlan,
    '```',
  );
} finally {
  await cleanup();
}
if (CPU_PROF) {
  const dir = path.join(WORK_DIR, 'profiles');
  for (const f of fs.readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))) {
    out('', `CPU profile ${f}:`, ...profileSummary(path.join(dir, f)).map((l) => `- ${l}`));
  }
}
if (TRACE_GC) {
  for (const name of ['A', 'B']) {
    const log = fs.readFileSync(path.join(WORK_DIR, `${name}.log`), 'utf8');
    out('', `Garbage collection of replica ${name} over the whole run (--trace-gc):`, ...gcSummary(log).map((l) => `- ${l}`));
  }
}
console.log(`\n${lines.join('\n')}\n`);
process.exit(0);
