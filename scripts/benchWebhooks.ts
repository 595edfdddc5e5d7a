/**
 * `npx tsx --import ./scripts/sqlLoader.mjs scripts/benchWebhooks.ts`: the webhooks' outbox under
 * a bulk lock, on PGlite and (with TEST_DATABASE_URL or a postgres:// argument) on PostgreSQL.
 *
 * One subscription (device.status_changed) pointing at a receiver on loopback that answers 204 at
 * once; --devices devices locked in transactions of --batch devices (as a bulk job's batches
 * commit), one event each, while --replicas dispatchers (WebhookDispatcher, in this process, with
 * the configured concurrency) send them. Measured:
 *   throughput  events delivered per second, from the first commit to the last delivery
 *   lag         event occurred_at → delivered_at (the outbox's lag: the commit, the wake-up, the
 *               claim, the POST and the write of the outcome), p50/p99/max
 * Every delivery is checked: delivered once, in order per device, none left pending.
 *
 * Options: --devices=N (5000), --batch=N (500), --concurrency=N (8), --replicas=N (1),
 * --engines=pglite,postgres (both when a PostgreSQL URL is given). Prints a Markdown section.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import type { Db } from '../server/db/Db';
import { createLogger } from '../server/logger';
import { percentile } from '../tools/simulator/load';
import { WebhookDispatcher } from '../server/webhooks/webhookDispatcher';
import { WebhooksService } from '../server/webhooks/webhooksService';
import { insertManyDevices } from '../tests/helpers/inventoryFixtures';
import { createTestDb, type Engine } from '../tests/helpers/testDb';

const opt = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const DEVICES = Number(opt('devices') ?? 5_000);
const BATCH = Number(opt('batch') ?? 500);
const CONCURRENCY = Number(opt('concurrency') ?? 8);
const REPLICAS = Number(opt('replicas') ?? 1);
const pgUrl = process.argv.find((a) => /^postgres(ql)?:\/\//.test(a)) ?? process.env.TEST_DATABASE_URL;
if (pgUrl) process.env.TEST_DATABASE_URL = pgUrl;
const ENGINES = (opt('engines')?.split(',') ?? (pgUrl ? ['pglite', 'postgres'] : ['pglite'])) as Engine[];

const ms = (x: number) => `${x.toFixed(0)} ms`;

interface Result {
  engine: Engine;
  events: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
  max: number;
  commitSeconds: number;
}

async function startReceiver(): Promise<{ url: string; received: () => number; close: () => Promise<void> }> {
  let received = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received: () => received,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

async function run(engine: Engine): Promise<Result> {
  const t = await createTestDb(engine);
  const db: Db = t.db;
  const receiver = await startReceiver();
  const config = { timeoutMs: 10_000, maxResponseBytes: 65_536, concurrency: CONCURRENCY, allowPrivateTargets: true };
  const logger = createLogger('warn');
  try {
    const { webhook } = await new WebhooksService(db, config).create(
      { adminId: null, email: 'bench@demo.local', ip: null, requestId: null },
      { name: 'Bench', url: receiver.url, events: ['device.status_changed'], enabled: true },
    );
    const ids = await insertManyDevices(db, DEVICES);
    const dispatchers = Array.from({ length: REPLICAS }, (_, i) => new WebhookDispatcher(db, config, logger, { runnerId: `bench-${i}` }));
    dispatchers.forEach((d) => d.start());
    const started = performance.now();
    // The bulk lock: one transaction per batch, as a job commits its batches.
    for (let i = 0; i < ids.length; i += BATCH) {
      await db.query(`UPDATE devices SET lock_state = 'locked', lock_type = 'PorCredito' WHERE id = ANY ($1::bigint[])`, [ids.slice(i, i + BATCH)]);
    }
    const committed = performance.now();
    const deadline = Date.now() + 600_000;
    for (;;) {
      const res = await db.query<{ n: number }>(`SELECT count(*) AS n FROM webhook_deliveries WHERE subscription_id = $1 AND status = 'pending'`, [
        webhook.id,
      ]);
      if (Number(res.rows[0]!.n) === 0) break;
      if (Date.now() > deadline) throw new Error('las entregas no terminaron en 10 minutos');
      await new Promise((r) => setTimeout(r, 100));
    }
    await Promise.all(dispatchers.map((d) => d.stop()));
    const rows = (
      await db.query<{ lag: number; attempts: number; status: string; first: Date; last: Date }>(
        `SELECT extract(epoch FROM d.delivered_at - e.occurred_at)::float8 * 1000 AS lag, d.attempts, d.status
           FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id WHERE d.subscription_id = $1`,
        [webhook.id],
      )
    ).rows;
    const span = (
      await db.query<{ s: number }>(
        `SELECT extract(epoch FROM max(d.delivered_at) - min(e.occurred_at))::float8 AS s
           FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id WHERE d.subscription_id = $1`,
        [webhook.id],
      )
    ).rows[0]!.s;
    if (rows.length !== DEVICES || rows.some((r) => r.status !== 'delivered' || r.attempts !== 1)) {
      throw new Error(`entregas inesperadas: ${rows.length} filas, ${rows.filter((r) => r.status !== 'delivered').length} sin entregar`);
    }
    if (receiver.received() !== DEVICES) throw new Error(`el receptor recibió ${receiver.received()} envíos, se esperaban ${DEVICES}`);
    const lags = rows.map((r) => r.lag);
    return {
      engine,
      events: DEVICES,
      seconds: span,
      perSecond: DEVICES / span,
      p50: percentile(lags, 50),
      p99: percentile(lags, 99),
      max: Math.max(...lags),
      commitSeconds: (committed - started) / 1000,
    };
  } finally {
    await receiver.close();
    await t.dispose();
  }
}

const results: Result[] = [];
for (const engine of ENGINES) {
  process.stderr.write(`bench:webhooks ${engine}: ${DEVICES} eventos…\n`);
  results.push(await run(engine));
}

const lines = [
  '## Webhooks: outbox throughput and lag',
  '',
  `A bulk lock of ${DEVICES.toLocaleString('en-US')} devices committed in transactions of ${BATCH} (one \`device.status_changed\` event each), ` +
    `one subscription, a receiver on loopback answering 204 at once; ${REPLICAS} dispatcher(s) in the benchmark's process, ` +
    `concurrency ${CONCURRENCY}. Lag: event \`occurred_at\` → \`delivered_at\`. Machine: ${os.cpus().length} cores, Node ${process.version}.`,
  '',
  '| engine | events | delivered/s | lag p50 | lag p99 | lag max | all committed after |',
  '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  ...results.map(
    (r) =>
      `| ${r.engine === 'postgres' ? 'PostgreSQL' : 'PGlite'} | ${r.events.toLocaleString('en-US')} | ${r.perSecond.toFixed(0)} | ${ms(r.p50)} | ${ms(r.p99)} | ${ms(r.max)} | ${r.commitSeconds.toFixed(1)} s |`,
  ),
  '',
  `Command: \`npx tsx --import ./scripts/sqlLoader.mjs scripts/benchWebhooks.ts --devices=${DEVICES} --batch=${BATCH} --concurrency=${CONCURRENCY} --replicas=${REPLICAS}\`` +
    (pgUrl ? ' with TEST_DATABASE_URL' : ''),
];
process.stdout.write(`${lines.join('\n')}\n`);
