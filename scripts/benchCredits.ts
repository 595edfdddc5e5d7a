/**
 * `npm run bench:credits`: the P8 target of docs/benchmarks.md (credits and the collection engine).
 *   claim     the due-credit claim of CollectionEngine (the statement its repository sends, captured
 *             from a real tick), p50/p95 over ≥ 50 runs, with 0 credits due and with 2 % of the
 *             fleet due; and a whole tick with nothing due
 *   steps     2 % of the fleet made due (credits whose oldest unpaid installment falls on a day
 *             that gives a step today: locks at the lock day, the ladder's notices, reminders),
 *             their past taken first by a tick with yesterday's clock; wall time until every one
 *             has its step: one engine, and on PostgreSQL two engines ticking at once; meanwhile a
 *             loop asks the devices list (P4's mix) and reports its p95
 *   payments  payments through the lender's API (POST /api/integration/v1/credits/{ref}/payments)
 *             on overdue credits whose devices are locked Por Crédito: p95 of the answer, and the
 *             UNLOCK commands that exist when each answer arrives
 * Each engine gets a fresh database: `npm run seed`'s fleet (tools/seed/seedFleet.ts), one
 * credit per device with the demo's schedules and payments (tools/seed/demoCredits.ts, through
 * importCredits), the collection policy's hours the whole day on every day, and every open
 * credit's next step somewhere in the coming week (a steady state: nothing due).
 * Options: --credits=N (default 1000000), --payments=N (default 300), --engines=pglite,postgres
 * (PostgreSQL needs TEST_DATABASE_URL; default: both when it is set).
 * Paste the printed Markdown into docs/benchmarks.md.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { createApp } from '../server/app';
import { loadConfig } from '../server/config';
import { bootstrap } from '../server/db/bootstrap';
import type { Db, Queryable, QueryOptions } from '../server/db/Db';
import { createPgDb } from '../server/db/pgDb';
import { createIdentity } from '../server/identity/createIdentity';
import { createLogger } from '../server/logger';
import { COLLECTION_BATCH, COLLECTION_BATCH_PGLITE, CollectionEngine } from '../server/credits';
import { importCredits } from '../server/credits';
import { loadClientAssets } from '../server/ssr/manifest';
import { DEVICE_ACTION } from '../shared/constants/deviceActions';
import { STATUS_FILTERS } from '../shared/constants/domain';
import type { ApiKeyCreated } from '../shared/contracts/apiKeys';
import type { IntegrationCredit } from '../shared/contracts/credits';
import { DEFAULT_COLLECTION_POLICY, addDays, todayIn } from '../shared/credits';
import { DEMO_PAYMENTS_BY, planDemoCredits, type CreditDevice } from '../tools/seed/demoCredits';
import { prng } from '../tools/seed/prng';
import { seedFleet, settleAfterSeed } from '../tools/seed/seedFleet';
import { percentile } from '../tools/simulator/load';
import { discoverPortal, signInPortal } from '../tools/simulator/portalApi';
import { createTestDb, type Engine } from '../tests/helpers/testDb';
import { machineEndLine, machineLine } from './benchMachine';
import { DIST, build, isBuildStale } from './build';
import { DEVICE_SORTS } from '../shared/constants/limits';

const opt = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const CREDITS = Number(opt('credits') ?? 1_000_000);
const PAYMENTS = Number(opt('payments') ?? 300);
const ENGINES = (opt('engines')?.split(',') ?? (process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'])) as Engine[];
/** 2 % of the fleet: a day's collection steps. */
const DUE = Math.round(CREDITS * 0.02);
const CLAIM_RUNS = 60;
/** Devices per credit-planning chunk (one importCredits call, one transaction). */
const CHUNK = 20_000;
const ADMIN = 'admin@demo.local';
const DEMO_PASSWORD = 'Demo-Portal-2026!';

const ms = (x: number) => `${x.toFixed(1)} ms`;
const p = (xs: readonly number[]) => `p50 ${ms(percentile(xs, 50))}, p95 ${ms(percentile(xs, 95))}, max ${ms(Math.max(...xs))}`;

/** The statement a Db's transactions send first that contains `marker`, with its parameters. */
interface Captured {
  sql?: string;
  params?: readonly unknown[];
}

/**
 * `db` seen through a wrapper that keeps the first statement containing `marker` sent inside a
 * transaction: the engine's claim, taken from the engine itself rather than copied here.
 */
function capturing(db: Db, marker: string, into: Captured): Db {
  const watch = (q: Queryable): Queryable => ({
    query<T>(sql: string, params?: readonly unknown[], options?: QueryOptions) {
      if (into.sql === undefined && sql.includes(marker)) Object.assign(into, { sql, params });
      return q.query<T>(sql, params, options);
    },
    exec: (sql) => q.exec(sql),
  });
  return {
    engine: db.engine,
    query: (sql, params, options) => db.query(sql, params, options),
    exec: (sql) => db.exec(sql),
    transaction: (fn) => db.transaction((tx) => fn(watch(tx))),
    listen: (channel, onPayload, onGap) => db.listen(channel, onPayload, onGap),
    close: async () => undefined,
  };
}

/** One credit per device, the demo's schedules and payments, in chunks of CHUNK devices. */
async function seedCredits(db: Db, now: Date, timeZone: string): Promise<{ credits: number; planSeconds: number }> {
  // One reference per device: the generator's are random and a few repeat, some devices have none.
  await db.query(
    `WITH r AS (SELECT id, row_number() OVER (PARTITION BY lower(credit_reference) ORDER BY id) AS n FROM devices WHERE deleted_at IS NULL)
     UPDATE devices d SET credit_reference = 'CR-B-' || d.id, customer_name = coalesce(d.customer_name, 'Cliente ' || d.id)
       FROM r WHERE d.id = r.id AND (d.credit_reference IS NULL OR r.n > 1)`,
  );
  let after = 0;
  let total = 0;
  let planMs = 0;
  for (let chunk = 0; ; chunk++) {
    const res = await db.query<{
      id: number;
      device_type: number;
      credit_reference: string;
      customer_name: string;
      created_at: Date;
      lifecycle: string;
      lock_state: string;
      lock_type: string | null;
      pending_action: number | null;
    }>(
      `SELECT id, device_type, credit_reference, customer_name, created_at, lifecycle, lock_state, lock_type, pending_action
         FROM devices WHERE id > $1 AND deleted_at IS NULL ORDER BY id LIMIT $2`,
      [after, CHUNK],
    );
    if (res.rows.length === 0) return { credits: total, planSeconds: planMs / 1000 };
    after = Number(res.rows.at(-1)!.id);
    const devices: CreditDevice[] = res.rows.map((r) => ({
      id: Number(r.id),
      deviceType: Number(r.device_type) === 2 ? 2 : 1,
      creditReference: r.credit_reference,
      customerName: r.customer_name,
      createdAt: new Date(r.created_at),
      lifecycle: r.lifecycle,
      lockState: r.lock_state,
      lockType: r.lock_type,
      pendingAction: r.pending_action === null ? null : Number(r.pending_action),
    }));
    // Phones and TVs planned apart: the demo puts some TVs on a phone's credit, here each device has its own.
    const planStart = performance.now();
    const plans = [1, 2].map((type) =>
      planDemoCredits(
        devices.filter((d) => d.deviceType === type),
        now,
        timeZone,
        2026 + chunk * 2 + type,
      ),
    );
    planMs += performance.now() - planStart;
    if (chunk % 10 === 9) console.log(`${new Date().toISOString()} credits: ${total} of about ${CREDITS}`);
    total += await db.transaction((tx) =>
      importCredits(
        tx,
        plans.flatMap((x) => x.credits),
        { timeZone, source: 'integration', recordedBy: DEMO_PAYMENTS_BY },
      ),
    );
  }
}

async function measure(engine: Engine, lines: string[]): Promise<void> {
  const t = await createTestDb(engine);
  const db = t.db;
  // The lender posts every payment of the run: the API key's rate limit is not what is measured.
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'warn', DEMO_PASSWORD, INTEGRATION_RATE_LIMIT_PER_MINUTE: '1000000' }, 'bench');
  const logger = createLogger('warn');
  const runtime = await createIdentity(config, db, logger);
  await bootstrap(db, config, runtime.identity);
  const timeZone = config.companyTimeZone;

  const seedStart = performance.now();
  const now = new Date();
  await seedFleet(db, { count: CREDITS, seed: 7, now });
  const fleetSeconds = (performance.now() - seedStart) / 1000;
  const { credits, planSeconds } = await seedCredits(db, now, timeZone);
  const creditSeconds = (performance.now() - seedStart) / 1000 - fleetSeconds;

  const { app, services } = createApp({ config, db, logger, assets: loadClientAssets(DIST), ...runtime });
  const server = http.createServer(app);
  // The client closes its idle sockets, never the server: PGlite runs in this process and blocks its
  // event loop for seconds (the VACUUM below), after which both sides' idle timers would fire at
  // once and a request could go out on a socket the server is closing (ECONNRESET).
  server.keepAliveTimeout = 0;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const session = await signInPortal(await discoverPortal(origin), ADMIN, DEMO_PASSWORD);
  const headers = await session.headers();
  const json = { 'Content-Type': 'application/json' };
  const call = async (path: string, init: RequestInit = {}) => {
    const res = await fetch(`${origin}/api${path}`, { ...init, headers: { ...headers, ...(init.headers as Record<string, string>) } });
    if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${await res.text()}`);
    return res;
  };
  let db2: Db | undefined;

  try {
    // The policy: its hours the whole day, no rest days, so the run's wall-clock hour never defers a
    // step. Its ladder without the restrictions rung: in a steady state a credit reaching its lock
    // day had its restrictions applied (and acknowledged by the agent) two days before; on this
    // first look they would be sent with the lock, whose command would then wait behind theirs.
    const policy = (await (await call('/v5/collection-policy')).json()) as { version: number | null };
    await call('/v5/collection-policy', {
      method: 'PUT',
      headers: json,
      body: JSON.stringify({
        version: policy.version,
        values: {
          hours: { from: '00:00', to: '23:59' },
          nonWorkingWeekdays: [],
          mexicanHolidays: false,
          holidays: [],
          ladder: DEFAULT_COLLECTION_POLICY.ladder.filter((r) => r.kind !== 'restrictions'),
        },
      }),
    });
    // A steady state: every open credit's next step somewhere in the coming week, nothing due now.
    await db.query(
      `UPDATE credits SET next_step_at = CASE WHEN first_unpaid_due IS NULL OR cancelled_at IS NOT NULL THEN NULL
                                              ELSE now() + interval '1 hour' + (id % 10080) * interval '1 minute' END`,
    );
    // The credits of a day's steps: on one device that can take a lock, with their oldest unpaid
    // installment due on a day that gives a step today (the lock day first, then the ladder's
    // days, then the reminders'), dealt alternately to the one-engine round and the two-engine
    // round; and overdue credits whose device is locked Por Crédito with nothing in flight (the payments).
    const today = todayIn(timeZone, new Date());
    const lockDay = addDays(today, -DEFAULT_COLLECTION_POLICY.lock.daysOverdue);
    const stepDays = [
      lockDay,
      ...DEFAULT_COLLECTION_POLICY.ladder.filter((r) => r.kind !== 'restrictions').map((r) => addDays(today, -r.daysOverdue)),
      ...DEFAULT_COLLECTION_POLICY.reminders.map((r) => addDays(today, -r.offsetDays)),
    ];
    const candidates = (
      await db.query<{ id: number; first_unpaid_due: string }>(
        `SELECT c.id, to_char(c.first_unpaid_due, 'YYYY-MM-DD') AS first_unpaid_due FROM credits c
           JOIN devices d ON lower(d.credit_reference) = lower(c.reference) AND d.deleted_at IS NULL
          WHERE c.cancelled_at IS NULL AND c.first_unpaid_due = ANY($1::date[])
            AND d.lifecycle NOT IN ('pre_enrolled', 'enrolling', 'released', 'suspended') AND d.lock_state <> 'locked' AND d.pending_action IS NULL
          ORDER BY array_position($1::date[], c.first_unpaid_due), c.id LIMIT $2`,
        [stepDays, engine === 'postgres' ? 2 * DUE : DUE],
      )
    ).rows.map((r) => ({ id: Number(r.id), due: r.first_unpaid_due }));
    // Their past, as a steady state has it: the engine looks at them once with yesterday's clock
    // (what was due before today is taken or recorded as passed over), then nothing is due again.
    const historyStart = performance.now();
    const candidateIds = candidates.map((c) => c.id);
    await db.query(`UPDATE credits SET next_step_at = 'epoch' WHERE id = ANY($1::bigint[])`, [candidateIds]);
    const yesterday = new Date(Date.now() - 86_400_000);
    const history = new CollectionEngine(db, services.deviceActions, { timeZone, inventory: { ...services.inventory, now: () => yesterday } });
    await history.tick();
    await db.query(`UPDATE credits SET next_step_at = now() + interval '1 day' WHERE id = ANY($1::bigint[])`, [candidateIds]);
    const historySeconds = (performance.now() - historyStart) / 1000;
    // As autovacuum leaves the tables some time after a bulk load (the other benches do the same).
    await settleAfterSeed(db);

    const rounds = engine === 'postgres' ? 2 : 1;
    const sets = Array.from({ length: rounds }, (_, k) => candidates.filter((_, i) => i % rounds === k));
    const lockable = (set: typeof candidates) => set.filter((c) => c.due === lockDay).length;
    const locked = (
      await db.query<{ reference: string; device_id: number }>(
        `SELECT c.reference, d.id AS device_id FROM credits c
           JOIN devices d ON lower(d.credit_reference) = lower(c.reference) AND d.deleted_at IS NULL
          WHERE c.cancelled_at IS NULL AND c.first_unpaid_due < $1::date
            AND d.lock_state = 'locked' AND d.lock_type = 'PorCredito' AND d.pending_action IS NULL AND d.lifecycle <> 'released'
          ORDER BY c.id LIMIT $2`,
        [today, PAYMENTS],
      )
    ).rows.map((r) => ({ reference: r.reference, deviceId: Number(r.device_id) }));
    if (candidates.length < rounds * DUE)
      console.warn(`only ${candidates.length} credits with a step today on lockable devices (asked ${rounds * DUE})`);
    if (locked.length < PAYMENTS) console.warn(`only ${locked.length} overdue credits locked Por Crédito (asked ${PAYMENTS})`);

    // The claim, as the engine sends it: captured from a tick with nothing due.
    const batchSize = db.engine === 'pglite' ? COLLECTION_BATCH_PGLITE : COLLECTION_BATCH;
    const captured: Captured = {};
    const probe = new CollectionEngine(capturing(db, 'SKIP LOCKED', captured), services.deviceActions, { timeZone, inventory: services.inventory });
    await probe.tick();
    if (!captured.sql || !/FROM credits/.test(captured.sql)) throw new Error(`the engine's claim was not captured: ${captured.sql}`);
    const claimSql = captured.sql;
    const timeClaim = async (): Promise<{ took: number; rows: number }> =>
      db.transaction(async (tx) => {
        const start = performance.now();
        const res = await tx.query(claimSql, [new Date(), batchSize]);
        return { took: performance.now() - start, rows: res.rowCount };
      });
    const claims = async () => {
      const out: number[] = [];
      let rows = 0;
      for (let i = 0; i < CLAIM_RUNS; i++) {
        const r = await timeClaim();
        out.push(r.took);
        rows = r.rows;
      }
      return { out, rows };
    };
    const idle = await claims();
    const ticks: number[] = [];
    for (let i = 0; i < CLAIM_RUNS; i++) {
      const start = performance.now();
      const n = await services.collection.tick();
      ticks.push(performance.now() - start);
      if (n !== 0) throw new Error(`a tick with nothing due looked at ${n} credits`);
    }
    lines.push(
      `| ${engine} claim of ${credits} credits, 0 due (${CLAIM_RUNS} runs, batch ${batchSize}, ${idle.rows} claimed) | ${p(idle.out)} |`,
      `| ${engine} tick with 0 due (${CLAIM_RUNS} runs: transaction + claim) | ${p(ticks)} |`,
    );
    console.log(lines.slice(-2).join('\n'));

    // P4's list mix, as benchInventory asks it: enrolled devices, every status filter, sorts, orders, pages 1–50.
    const rnd = prng(42);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
    const filters = ['', ...STATUS_FILTERS.map((f) => `status=${encodeURIComponent(f.value)}`), 'deviceType=1', 'deviceType=2'];
    const listRequest = async () => {
      const q = [
        pick(filters),
        'stage=enrolled',
        `sort=${pick(DEVICE_SORTS)}`,
        `order=${pick(['asc', 'desc'])}`,
        `page=${1 + Math.floor(rnd() * 50)}`,
        'perPage=25',
      ];
      const start = performance.now();
      await (await call(`/v5/devices?${q.filter(Boolean).join('&')}`)).arrayBuffer();
      return performance.now() - start;
    };
    await listRequest(); // warm-up
    const quiet: number[] = [];
    for (let i = 0; i < 200; i++) quiet.push(await listRequest());
    lines.push(`| ${engine} devices list, nothing running (${quiet.length} requests) | ${p(quiet)} |`);

    const stepsRound = async (set: typeof candidates, engines: CollectionEngine[], label: string) => {
      const ids = set.map((c) => c.id);
      await db.query(`UPDATE credits SET next_step_at = now() - interval '1 minute' WHERE id = ANY($1::bigint[])`, [ids]);
      const due = await claims();
      const t0 = new Date();
      const list: number[] = [];
      let running = true;
      const loop = (async () => {
        while (running) list.push(await listRequest());
      })();
      const start = performance.now();
      const looked = await Promise.all(engines.map((e) => e.tick()));
      const wall = (performance.now() - start) / 1000;
      running = false;
      await loop;
      const stepped = Number(
        (
          await db.query<{ n: number }>('SELECT count(DISTINCT credit_id) AS n FROM credit_steps WHERE credit_id = ANY($1::bigint[]) AND at >= $2', [
            ids,
            t0,
          ])
        ).rows[0]!.n,
      );
      // Each kind of step recorded, with the devices it sent a command to and why others were passed over.
      const kinds = (
        await db.query<{ kind: string; outcome: string; n: number; sent: number }>(
          `SELECT kind, outcome, count(*) AS n, coalesce(sum(cardinality(device_ids)), 0) AS sent
             FROM credit_steps WHERE credit_id = ANY($1::bigint[]) AND at >= $2 GROUP BY 1, 2 ORDER BY 3 DESC`,
          [ids, t0],
        )
      ).rows
        .map((r) => `${r.kind} ${r.outcome} ${r.n}${Number(r.sent) ? ` (${r.sent} commands)` : ''}`)
        .join(', ');
      const passed = (
        await db.query<{ reason: string; n: number }>(
          `SELECT s.reason, count(*) AS n FROM credit_steps c, jsonb_to_recordset(c.skipped_devices) AS s (id bigint, reason text)
            WHERE c.credit_id = ANY($1::bigint[]) AND c.at >= $2 GROUP BY 1 ORDER BY 2 DESC`,
          [ids, t0],
        )
      ).rows
        .map((r) => `${r.reason} ${r.n}`)
        .join(', ');
      // Credits left without a step: when they are looked at next, and their device's state then.
      const left = (
        await db.query<{ next_in: number | null; pending_action: number | null; lock_state: string | null }>(
          `SELECT round(extract(epoch FROM c.next_step_at - now())) AS next_in, d.pending_action, d.lock_state FROM credits c
             LEFT JOIN devices d ON lower(d.credit_reference) = lower(c.reference) AND d.deleted_at IS NULL
            WHERE c.id = ANY($1::bigint[]) AND NOT EXISTS (SELECT 1 FROM credit_steps s WHERE s.credit_id = c.id AND s.at >= $2)`,
          [ids, t0],
        )
      ).rows
        .map(
          (r) =>
            `next look ${r.next_in === null ? 'none' : `in ${r.next_in} s`}, device ${r.lock_state ?? 'none'} with ${r.pending_action ?? 'no'} command in flight`,
        )
        .join('; ');
      lines.push(
        `| ${engine} claim with ${ids.length} due (${CLAIM_RUNS} runs, batch ${batchSize}, ${due.rows} claimed) | ${p(due.out)} |`,
        `| ${engine} ${ids.length} credits due (${lockable(set)} at their lock day), ${label} | ${wall.toFixed(1)} s; ${stepped}/${ids.length} with a step, ${looked.join(' + ')} looked at; steps: ${kinds}${passed ? `; devices passed over: ${passed}` : ''}${left ? `; without a step: ${left}` : ''} |`,
        `| ${engine} devices list meanwhile (${list.length} requests) | ${list.length ? p(list) : 'none'} |`,
      );
      console.log(lines.slice(-3).join('\n'));
    };
    await stepsRound(sets[0]!, [services.collection], 'one engine');
    if (engine === 'postgres') {
      // A second engine on its own pool, as a second replica would tick (same process: the same two cores).
      const schema = (await db.query<{ s: string }>('SELECT current_schema() AS s')).rows[0]!.s;
      db2 = createPgDb({ connectionString: process.env.TEST_DATABASE_URL!, max: 4, searchPath: `${schema},public` });
      const second = new CollectionEngine(db2, services.deviceActions, { timeZone, inventory: services.inventory }, logger, COLLECTION_BATCH);
      await stepsRound(sets[1]!, [services.collection, second], 'two engines at once');
    }

    // Payments through the lender's API on credits locked Por Crédito: the answer, and the UNLOCK it must have made.
    const profileId = (await db.query<{ id: number }>("SELECT id FROM profiles WHERE nombre = 'Administrador'")).rows[0]!.id;
    const key = (
      (await (
        await call('/v5/api-keys', { method: 'POST', headers: json, body: JSON.stringify({ name: 'Benchmark P8', profileId }) })
      ).json()) as ApiKeyCreated
    ).secret;
    const lender = { authorization: `Bearer ${key}`, ...json };
    const integration = `${origin}/api/integration/v1/credits`;
    const answers: number[] = [];
    let unlocked = 0;
    let refused = 0;
    for (const c of locked) {
      const credit = (await (await fetch(`${integration}/${encodeURIComponent(c.reference)}`, { headers: lender })).json()) as IntegrationCredit;
      const t0 = new Date();
      const start = performance.now();
      const res = await fetch(`${integration}/${encodeURIComponent(c.reference)}/payments`, {
        method: 'POST',
        headers: lender,
        body: JSON.stringify({ externalId: `bench-${c.reference}`, amount: credit.amountOverdue, paidAt: new Date().toISOString() }),
      });
      await res.arrayBuffer();
      answers.push(performance.now() - start);
      if (res.status !== 201) refused++;
      const unlock = await db.query('SELECT 1 FROM device_commands WHERE device_id = $1 AND action = $2 AND requested_at >= $3 LIMIT 1', [
        c.deviceId,
        DEVICE_ACTION.UNLOCK,
        t0,
      ]);
      if (unlock.rowCount > 0) unlocked++;
    }
    const rows = (
      await db.query<{ installments: number; payments: number }>(
        'SELECT (SELECT count(*) FROM credit_installments) AS installments, (SELECT count(*) FROM credit_payments) AS payments',
      )
    ).rows[0]!;
    lines.push(
      `| ${engine} payments of the amount overdue on credits locked Por Crédito (${answers.length}, POST /api/integration/v1/credits/{ref}/payments; ${refused} not 201) | ${answers.length ? p(answers) : 'none'}; UNLOCK there at the answer: ${unlocked}/${answers.length} |`,
      `| ${engine} seeding ${CREDITS} devices and ${credits} credits (${rows.installments} installments, ${rows.payments} payments before the run's) | devices ${fleetSeconds.toFixed(0)} s, credits ${creditSeconds.toFixed(0)} s (planning them ${planSeconds.toFixed(0)} s); the steps' credits' past ${historySeconds.toFixed(0)} s |`,
    );
    console.log(lines.slice(-2).join('\n'));
  } finally {
    await services.jobRunner.stop();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await db2?.close();
    await t.dispose();
  }
}

if (isBuildStale()) await build();
const lines: string[] = [
  machineLine(),
  `Command: \`npm run bench:credits -- --credits=${CREDITS} --payments=${PAYMENTS} --engines=${ENGINES.join(',')}\``,
  '',
  '| what | result |',
  '|---|---|',
];
for (const engine of ENGINES) await measure(engine, lines);
lines.push('', machineEndLine());
console.log(`\n${lines.join('\n')}\n`);
process.exit(0);
