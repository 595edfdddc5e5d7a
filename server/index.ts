import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { AgentClock } from './agent/agentClock';
import { CollectionClock, ReconciliationClock } from './credits';
import { createApp } from './app';
import { ConfigError, loadConfig } from './config';
import { ADVISORY_LOCKS, withAdvisoryLock } from './db/advisoryLock';
import { isConnectionError } from './db/connectionErrors';
import { createDb } from './db/createDb';
import { applyDemoDefaults } from './demoEnv';
import { migrate } from './db/migrate';
import { migrations } from './db/migrations/index';
import { bootstrap, bootstrapBanner, hasAdministrators, logBootstrap } from './db/bootstrap';
import { DATABASE_STARTUP_RETRY, retryWhileUnreachable } from './db/startupRetry';
import { createIdentity } from './identity/createIdentity';
import { createLogger } from './logger';
import { installSignalHandlers } from './shutdown';
import { loadClientAssets } from './ssr/manifest';

/** Set by the build from package.json. */
declare const __PORTAL_VERSION__: string;

async function main(): Promise<void> {
  // `npm start` runs `node dist/server.js --demo`: the embedded demo's settings where unset.
  if (process.argv.includes('--demo')) applyDemoDefaults(process.env);
  let config;
  try {
    config = loadConfig(process.env, __PORTAL_VERSION__);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const logger = createLogger(config.logLevel);
  const distDir = path.dirname(fileURLToPath(import.meta.url));
  const assets = loadClientAssets(distDir);

  const db = await createDb(config.database);
  // A database still starting (its pod, a failover) is waited for with backoff, not a crash loop.
  const applied = await retryWhileUnreachable(() => migrate(db, migrations), {
    ...DATABASE_STARTUP_RETRY,
    onRetry: ({ attempt, delayMs, elapsedMs, err }) =>
      logger.warn(
        { attempt, retryInMs: delayMs, elapsedMs, err: err instanceof Error ? err.message : String(err) },
        `database unreachable at start-up: attempt ${attempt} failed, retrying in ${delayMs} ms`,
      ),
  }).catch((err: unknown) => {
    if (isConnectionError(err)) logger.error({ err }, `database unreachable for ${DATABASE_STARTUP_RETRY.giveUpAfterMs / 1000} s: giving up`);
    throw err;
  });
  logger.info({ engine: db.engine, applied }, 'database ready');

  // First start: replicas started together on an empty database take turns here, and each step
  // checks again inside the lock (no administrators yet? no devices yet?), so exactly one does it.
  const { identity, verifiers, directory, boot } = await withAdvisoryLock(db, ADVISORY_LOCKS.firstStart, async () => {
    const runtime = await createIdentity(config, db, logger);
    const result = await bootstrap(db, config, runtime.identity);
    logBootstrap(logger, result, await hasAdministrators(db));
    // Demo mode (embedded identity with the demo data): a fleet to look at, once, while the registry is empty.
    if (runtime.identity && config.bootstrap.seedDemo) {
      const seeded = await (await loadDemo()).seedDemoDevices(db, config.demoDevices, { timeZone: config.companyTimeZone });
      if (seeded > 0) logger.info({ devices: seeded }, `demo: ${seeded} devices seeded`);
    }
    return { ...runtime, boot: result };
  });

  const { app, services, readiness } = createApp({ config, db, logger, assets, identity, verifiers, directory });
  const server = http.createServer(app);
  const agentClock = new AgentClock(services.agent.service, logger, undefined, services.dashboard);
  const collectionClock = new CollectionClock(services.collection, logger);
  const reconciliationClock = new ReconciliationClock(services.reconciliation, logger);
  let demoAgents: DemoAgents | undefined;
  // Longer than a load balancer's idle timeout, so it never reuses a socket we just closed.
  server.keepAliveTimeout = 65_000;
  installSignalHandlers({
    server,
    readiness,
    logger,
    delayMs: config.shutdown.delayMs,
    timeoutMs: config.shutdown.timeoutMs,
    // Waiting check-ins answer now (their agents come back to another replica).
    stopAccepting: async () => {
      await demoAgents?.stop();
      await services.agent.stop();
    },
    // The job runner lets its batch in flight commit before the database closes.
    close: async () => {
      // The reports of check-ins answered while the server stopped are written.
      await services.agent.presence.flush();
      await agentClock.stop();
      await collectionClock.stop();
      await reconciliationClock.stop();
      await services.jobRunner.stop();
      // Sends in flight finish (each bounded by its timeout) and record their outcome.
      await services.webhookDispatcher.stop();
      await db.close();
    },
  });
  server.listen(config.port, config.host, () => {
    const addr = server.address();
    const port = typeof addr === 'object' && addr ? addr.port : config.port;
    logger.info({ port, identity: config.identity.mode, database: db.engine }, `portal listening on http://localhost:${port}`);
    // Bulk-action jobs: queued ones, and those a previous process or another replica left unfinished.
    services.jobRunner.start();
    // Webhooks: the outbox's deliveries, and those a previous process or another replica left claimed.
    services.webhookDispatcher.start();
    // Temporary unlocks that run out are locked again by the server's clock too; it also counts
    // the offline devices for the dashboards.
    agentClock.start();
    // The collection policy: reminders, locks, unlocks and releases of the credits as they fall due.
    collectionClock.start();
    // Conciliación: the daily reconciliation.summary, once a day whatever the replicas.
    reconciliationClock.start();
    // Demo mode: a small simulated fleet whose statuses move when an administrator acts.
    // One process only (PGlite): replicas sharing a PostgreSQL would each enroll the same devices.
    const demo =
      identity && db.engine === 'pglite' && config.bootstrap.seedDemo && config.demoAgents > 0
        ? loadDemo()
            .then((demoTools) =>
              demoTools.startDemoAgents({
                db,
                inventory: services.inventory,
                enrollment: services.enrollment,
                baseUrl: `http://127.0.0.1:${port}`,
                count: config.demoAgents,
                logger,
              }),
            )
            .then((fleet) => {
              demoAgents = fleet;
            })
            .catch((err: unknown) => logger.warn({ err }, 'demo: the simulated agents could not start'))
        : Promise.resolve();
    // The credentials of a first start go to the console once, never into the JSON log, after the
    // last start-up line. They go through the log's own stream (asynchronous, in order): written
    // straight to stdout they overtook the log lines still queued and appeared before them.
    void demo.finally(() => {
      if (boot.created) logStream(logger).write(bootstrapBanner(boot, `http://localhost:${port}`));
    });
  });
}

/** The demo's fleet and simulated agents, loaded in demo mode only (a chunk of its own: the production bundle has none of it). */
// eslint-disable-next-line import/no-restricted-paths -- the one place the server reaches the tools, lazily
const loadDemo = () => import('../tools/demo/index');
type DemoAgents = Awaited<ReturnType<Awaited<ReturnType<typeof loadDemo>>['startDemoAgents']>>;

/** The stream the logger writes its lines to (stdout), so plain text can follow them in order. */
function logStream(logger: pino.Logger): pino.DestinationStream {
  const stream: unknown = Reflect.get(logger, pino.symbols.streamSym);
  return isStream(stream) ? stream : process.stdout;
}

const isStream = (value: unknown): value is pino.DestinationStream =>
  typeof value === 'object' && value !== null && typeof (value as { write?: unknown }).write === 'function';

main().catch((err: unknown) => {
  process.stderr.write(`El servidor no pudo iniciar: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
