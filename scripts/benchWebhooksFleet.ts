/**
 * `npx tsx --import ./scripts/sqlLoader.mjs scripts/benchWebhooksFleet.ts`: the webhooks' outbox
 * under the agent simulator's load. The built server (`dist/`, run `npm run build` first) runs as
 * --replicas processes on a fresh PostgreSQL database (TEST_DATABASE_URL), a receiver on loopback
 * (scripts/integration.ts, answering 204 to every delivery whose signature verifies) subscribes to
 * every event type, and `npm run simulate` plays --devices agents for --duration seconds against
 * the first replica: enrollments, check-ins, locks, unlocks, rejections, offline codes, bulk-free.
 * Every replica's dispatcher sends. Measured, from the database once every delivery is done:
 *   events      per type, and per second over the simulation
 *   lag         event occurred_at → delivered_at, p50/p99/max (the outbox: commit, wake-up, claim,
 *               POST, outcome written)
 * and checked: every delivery delivered, none twice to the receiver at once, each device's events
 * received in order.
 *
 * Options: --devices=N (2000), --duration=S (120), --replicas=N (1), --concurrency=N (32). Prints
 * a Markdown section for docs/benchmarks.md. The database is dropped at the end.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WEBHOOK_EVENT_TYPES } from '../shared/constants/integration';
import type { WebhookCreated } from '../shared/contracts/webhooks';
import { createPgDb } from '../server/db/pgDb';
import { spawnServer, type RunningServer } from '../tests/helpers/spawnServer';
import { signedInCaller, startReceiver, type Received } from './integration';
import { API_PATHS } from '../shared/constants/apiPaths';

const opt = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const DEVICES = Number(opt('devices') ?? 2_000);
const DURATION = Number(opt('duration') ?? 120);
const REPLICAS = Number(opt('replicas') ?? 1);
const CONCURRENCY = Number(opt('concurrency') ?? 32);
const PASSWORD = 'Bench-Webhooks-2026!';
const ROOT = path.resolve(import.meta.dirname, '..');

const base = process.env.TEST_DATABASE_URL;
if (!base) {
  process.stderr.write('TEST_DATABASE_URL es obligatoria (PostgreSQL)\n');
  process.exit(2);
}

const name = `bench_webhooks_${randomBytes(4).toString('hex')}`;
const admin = createPgDb({ connectionString: base, max: 1 });
await admin.exec(`CREATE DATABASE ${name}`);
const url = new URL(base);
url.pathname = `/${name}`;
const servers: RunningServer[] = [];
const received: (Received & { at: number })[] = [];
try {
  const env = {
    DATABASE_URL: url.toString(),
    DEMO_PASSWORD: PASSWORD,
    DEMO_DEVICES: '0',
    DEMO_AGENTS: '0',
    LOG_LEVEL: 'warn',
    WEBHOOK_CONCURRENCY: String(CONCURRENCY),
    // The receiver listens on 127.0.0.1.
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    AGENT_RATE_LIMIT_PER_MINUTE: '100000',
    AGENT_ENROLL_RATE_LIMIT_PER_MINUTE: '100000',
    IDENTITY_RATE_LIMIT_PER_MINUTE: '100000',
  };
  // The first replica creates the schema and the demo accounts; the others start on it.
  servers.push(await spawnServer({ cwd: ROOT, env }));
  for (let i = 1; i < REPLICAS; i++) servers.push(await spawnServer({ cwd: ROOT, env }));
  const portal = servers[0]!.url;

  const receiver = await startReceiver(0, (r) => received.push({ ...r, at: Date.now() }));
  const call = await signedInCaller(portal, 'admin@demo.local', PASSWORD);
  if (!process.argv.includes('--no-subscription')) {
    const created = await call<WebhookCreated>('POST', API_PATHS.webhooks.base, { name: 'Banco', url: receiver.url, events: WEBHOOK_EVENT_TYPES });
    receiver.setSecret(created.secret);
  }

  const started = Date.now();
  const sim = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'scripts/simulate.ts',
      '--url',
      portal,
      '--devices',
      String(DEVICES),
      '--duration',
      String(DURATION),
      '--json',
      '--reject',
      '2%',
    ],
    { cwd: ROOT, env: { ...process.env, DEMO_PASSWORD: PASSWORD }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let simOut = '';
  sim.stdout.on('data', (d: Buffer) => (simOut += d.toString()));
  const simCode = await new Promise<number | null>((resolve) => sim.once('exit', resolve));
  const simSeconds = (Date.now() - started) / 1000;
  const summary = JSON.parse(simOut.slice(simOut.indexOf('{'))) as { checkins: number; acknowledged: number; rejected: number; errors: number };

  const db = createPgDb({ connectionString: url.toString(), max: 1 });
  // Every delivery done (the receiver answers at once: nothing should be left after a few seconds).
  const drainStart = Date.now();
  for (;;) {
    const left = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'pending'");
    if (Number(left.rows[0]!.n) === 0 || Date.now() - drainStart > 120_000) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  const byType = await db.query<{ type: string; n: number }>('SELECT type, count(*)::int AS n FROM webhook_events GROUP BY type ORDER BY type');
  const states = await db.query<{ status: string; n: number }>('SELECT status, count(*)::int AS n FROM webhook_deliveries GROUP BY status');
  const lag = await db.query<{ p50: number; p99: number; max: number; n: number; first: Date; last: Date }>(
    `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS p50, percentile_cont(0.99) WITHIN GROUP (ORDER BY ms) AS p99,
            max(ms) AS max, count(*)::int AS n, min(occurred_at) AS first, max(occurred_at) AS last
       FROM (SELECT extract(epoch FROM d.delivered_at - e.occurred_at) * 1000 AS ms, e.occurred_at
               FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id WHERE d.status = 'delivered') x`,
  );
  const perRunner = await db.query<{ claimed_by: string; n: number }>(
    "SELECT claimed_by, count(*)::int AS n FROM webhook_deliveries WHERE status = 'delivered' GROUP BY claimed_by ORDER BY claimed_by",
  );
  await db.close();
  await receiver.close();

  // Order per device: the deliveries of one device reached the receiver in event order.
  const lastByDevice = new Map<number, number>();
  let outOfOrder = 0;
  for (const r of received) {
    const device = r.payload.data.deviceId as number | undefined;
    const id = Number(r.id.replace('msg_', ''));
    if (device === undefined) continue;
    if ((lastByDevice.get(device) ?? 0) > id) outOfOrder++;
    lastByDevice.set(device, Math.max(lastByDevice.get(device) ?? 0, id));
  }
  const l = lag.rows[0]!;
  const span = (new Date(l.last).getTime() - new Date(l.first).getTime()) / 1000;
  const out = [
    `## ${new Date().toISOString().slice(0, 10)}, webhooks under the agent simulator (PostgreSQL, ${REPLICAS} replica${REPLICAS > 1 ? 's' : ''})`,
    '',
    '```sh',
    `TEST_DATABASE_URL=… npx tsx --import ./scripts/sqlLoader.mjs scripts/benchWebhooksFleet.ts --devices=${DEVICES} --duration=${DURATION} --replicas=${REPLICAS} --concurrency=${CONCURRENCY}`,
    '```',
    '',
    `${os.cpus().length} cores. Simulator: ${DEVICES} agents for ${DURATION} s (exit ${simCode}), ${summary.checkins} check-ins ` +
      `(${(summary.checkins / simSeconds).toFixed(0)}/s), ${summary.acknowledged} commands acknowledged, ${summary.rejected} rejected, ${summary.errors} errors.`,
    '',
    '| measure | value |',
    '| --- | ---: |',
    `| events (all types) | ${l.n} in ${span.toFixed(0)} s: **${(l.n / Math.max(span, 1)).toFixed(1)}/s** |`,
    ...byType.rows.map((r) => `| ${r.type} | ${r.n} |`),
    `| deliveries by state | ${states.rows.map((s) => `${s.status} ${s.n}`).join(', ')} |`,
    `| delivered per replica | ${perRunner.rows.map((r) => r.n).join(' / ')} |`,
    `| outbox lag p50 / p99 / max | ${Math.round(l.p50)} / **${Math.round(l.p99)}** / ${Math.round(l.max)} ms |`,
    `| received by the receiver (signature verified) | ${received.length} |`,
    `| a device's events out of order at the receiver | ${outOfOrder} |`,
  ];
  process.stdout.write(`${out.join('\n')}\n`);
} finally {
  for (const s of servers) await s.stop();
  if (process.env.BENCH_SERVER_LOG) servers.forEach((s, i) => fs.writeFileSync(`${process.env.BENCH_SERVER_LOG}.${i}`, s.output()));
  await admin.exec(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.close();
}
