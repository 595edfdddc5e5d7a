/**
 * Kill -9 of the real server (`node dist/server.js`) while its webhooks are in flight: the
 * outbox holds the events, the killed process's claims run out (one attempt's timeout plus the
 * margin), and the restarted server sends every event at least once, the interrupted ones again
 * with the same webhook-id. Run on the embedded database (a data directory) and, with
 * TEST_DATABASE_URL, on a PostgreSQL database of its own.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Db } from '../../server/db/Db';
import { migrate } from '../../server/db/migrate';
import { migrations } from '../../server/db/migrations/index';
import { createPgDb } from '../../server/db/pgDb';
import { createPgliteDb } from '../../server/db/pgliteDb';
import { WebhooksService } from '../../server/webhooks/webhooksService';
import { insertManyDevices } from '../helpers/inventoryFixtures';
import { spawnServer, type RunningServer } from '../helpers/spawnServer';
import { testEngines } from '../helpers/testDb';
import { startReceiver, waitFor, type Receiver } from '../helpers/webhookReceiver';

const ROOT = path.resolve(__dirname, '../..');
const DEVICES = 12;
const TIMEOUT_MS = 3_000;

describe.each(testEngines())('webhooks survive kill -9 of the server (%s)', (engine) => {
  let receiver: Receiver;
  let server: RunningServer | undefined;
  let dataDir: string | undefined;
  let dropDatabase: (() => Promise<void>) | undefined;

  afterAll(async () => {
    if (server && server.proc.exitCode === null) server.proc.kill('SIGKILL');
    await receiver?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    await dropDatabase?.();
  });

  /** The database the server will use, opened here to set up the subscription and the events; and the server's env. */
  async function prepare(): Promise<{ db: Db; env: Record<string, string> }> {
    if (engine === 'pglite') {
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-webhook-kill-'));
      return { db: await createPgliteDb({ dataDir }), env: { DATA_DIR: dataDir } };
    }
    const base = process.env.TEST_DATABASE_URL!;
    const name = `webhook_kill_${randomBytes(4).toString('hex')}`;
    const adminDb = createPgDb({ connectionString: base, max: 1 });
    await adminDb.exec(`CREATE DATABASE ${name}`);
    await adminDb.close();
    dropDatabase = async () => {
      const d = createPgDb({ connectionString: base, max: 1 });
      await d.exec(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await d.close();
    };
    const url = new URL(base);
    url.pathname = `/${name}`;
    return { db: createPgDb({ connectionString: url.toString(), max: 2 }), env: { DATABASE_URL: url.toString() } };
  }

  test('every event is delivered at least once after a kill -9 mid-send and a restart', async () => {
    // Phase 1: the lender's endpoint takes the requests and never answers.
    let answering = false;
    receiver = await startReceiver(() => (answering ? { status: 200 } : { hang: true }));
    const { db, env } = await prepare();
    await migrate(db, migrations);
    const config = { timeoutMs: TIMEOUT_MS, maxResponseBytes: 65_536, concurrency: 4, allowPrivateTargets: true };
    await new WebhooksService(db, config).create(
      { adminId: null, email: 'admin@demo.local', ip: null, requestId: null },
      { name: 'Acreedor', url: `${receiver.url}/hook`, events: ['device.status_changed'], enabled: true },
    );
    const ids = await insertManyDevices(db, DEVICES);
    await db.query(`UPDATE devices SET lock_state = 'locked', lock_type = 'PorCredito' WHERE id = ANY ($1::bigint[])`, [ids]);
    const events = (await db.query<{ id: number }>('SELECT id FROM webhook_events ORDER BY id')).rows.map((r) => `msg_${r.id}`);
    expect(events).toHaveLength(DEVICES);
    await db.close();

    const serverEnv = {
      ...env,
      LOG_LEVEL: 'info',
      SEED_DEMO: 'false',
      DEMO_AGENTS: '0',
      WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
      WEBHOOK_CONCURRENCY: '4',
      // The receiver listens on 127.0.0.1.
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    };
    server = await spawnServer({ cwd: ROOT, env: serverEnv });
    // Four sends in flight, none answered: kill -9 now.
    await waitFor(() => receiver.received.length >= 4, 'cuatro envíos en curso', 20_000);
    const inFlight = receiver.received.map((r) => r.id);
    const claimedAt = receiver.received[0]!.at;
    server.proc.kill('SIGKILL');
    await server.exited;

    // Phase 2: the endpoint answers; a new process takes over once the claims ran out.
    answering = true;
    server = await spawnServer({ cwd: ROOT, env: serverEnv });
    await waitFor(() => new Set(receiver.delivered().map((r) => r.id)).size === DEVICES, 'todos los eventos entregados', 40_000);
    const delivered = new Set(receiver.delivered().map((r) => r.id));
    expect([...delivered].sort()).toEqual([...events].sort());
    // The interrupted ones were sent again with the same id, not before their claim ran out.
    for (const id of inFlight) {
      const again = receiver.delivered().find((r) => r.id === id);
      expect(again).toBeDefined();
    }
    const firstRetry = Math.min(...receiver.delivered().filter((r) => inFlight.includes(r.id)).map((r) => r.at));
    // Sent again only once the claim ran out (timeout + 5 s margin) or the killed process had
    // recorded a timeout (then after the backoff): never while the first attempt could still run.
    expect(firstRetry - claimedAt).toBeGreaterThanOrEqual(TIMEOUT_MS);
    expect(receiver.maxConcurrentPerId).toBe(1);
    // A clean stop afterwards: the dispatcher stops with the server.
    expect(await server.stop()).toBe(0);
  }, 90_000);
});
