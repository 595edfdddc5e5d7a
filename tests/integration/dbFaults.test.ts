/**
 * Database faults and replicas on a PostgreSQL server this file starts and stops itself
 * (tests/helpers/privatePostgres.ts): connections cut inside and outside transactions, an
 * outage (503 + Retry-After, then recovery), two replicas started together on an empty
 * database, start-up while the database is down, a job whose runner dies or loses its
 * connection, the collection engine killed with -9 inside a batch. The process tests run `dist/server.js` (`npm run build` first).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import request from 'supertest';
import { MESSAGES } from '../../shared/messages';
import { isConnectionError } from '../../server/db/connectionErrors';
import { migrate } from '../../server/db/migrate';
import { migrations } from '../../server/db/migrations/index';
import { createPgDb, type PgDb } from '../../server/db/pgDb';
import { COLLECTION_BATCH, importCredits } from '../../server/credits';
import { transaction } from '../../server/db/transactionScope';
import { addDays, todayIn } from '../../shared/credits';
import { adminApi, DEMO_PASSWORD } from '../helpers/adminApi';
import { insertManyDevices } from '../helpers/inventoryFixtures';
import { NO_POSTGRES_MESSAGE, postgresBinDir, startPrivatePostgres, type PrivatePostgres } from '../helpers/privatePostgres';
import { spawnServer, type RunningServer } from '../helpers/spawnServer';

const ROOT = path.resolve(__dirname, '../..');
const bin = postgresBinDir();
if (!bin) process.stderr.write(NO_POSTGRES_MESSAGE);
const suite = bin ? describe : describe.skip;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

async function until<T>(what: string, fn: () => Promise<T | undefined | false>, timeoutMs: number, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn().catch(() => undefined);
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`tiempo agotado esperando: ${what}`);
    await sleep(everyMs);
  }
}

suite('PostgreSQL faults (a private server started by the test)', () => {
  let server: PrivatePostgres;
  const opened: PgDb[] = [];

  beforeAll(async () => {
    server = await startPrivatePostgres();
  }, 120_000);

  afterAll(async () => {
    for (const db of opened) await db.close().catch(() => undefined);
    await server?.dispose();
  }, 60_000);

  async function freshDatabase(prefix: string): Promise<string> {
    const name = `${prefix}_${randomBytes(4).toString('hex')}`;
    await server.sql(`CREATE DATABASE ${name}`);
    return name;
  }

  function open(name: string, max = 4): PgDb {
    const db = createPgDb({ connectionString: server.url(name), max });
    opened.push(db);
    return db;
  }

  describe('in process: a lost connection never ends the process', () => {
    let name: string;
    let db: PgDb;
    let killer: PgDb;
    beforeAll(async () => {
      name = await freshDatabase('faults');
      db = open(name, 2);
      killer = open(name, 1);
    });

    const terminate = (pid: number) => killer.query('SELECT pg_terminate_backend($1)', [pid]);

    test('connection cut while a transaction is idle between statements: the transaction rejects with a connection error, the next one works', async () => {
      const failure = await db
        .transaction(async (tx) => {
          const { pid } = (await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!;
          await terminate(pid);
          // The socket closes while nothing is in flight: the checked-out client emits 'error'.
          await sleep(300);
          await tx.query('SELECT 1');
        })
        .then(
          () => undefined,
          (err: unknown) => err,
        );
      expect(isConnectionError(failure)).toBe(true);
      // The broken client was discarded: every connection the pool hands out works.
      for (let i = 0; i < 3; i++) {
        expect((await db.transaction((tx) => tx.query<{ one: number }>('SELECT 1 AS one'))).rows).toEqual([{ one: 1 }]);
        expect((await db.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
      }
    });

    test('connection cut during a statement inside a transaction (a group being created): rejected, nothing committed, the process goes on', async () => {
      await db.exec('CREATE TABLE IF NOT EXISTS fault_rows (id int PRIMARY KEY)');
      const failure = await db
        .transaction(async (tx) => {
          await tx.query('INSERT INTO fault_rows VALUES (1)');
          const { pid } = (await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!;
          setTimeout(() => void terminate(pid), 200);
          await tx.query('SELECT pg_sleep(20)');
        })
        .then(
          () => undefined,
          (err: unknown) => err,
        );
      expect(isConnectionError(failure)).toBe(true);
      expect((await db.query('SELECT * FROM fault_rows')).rows).toEqual([]);
      await db.transaction((tx) => tx.query('INSERT INTO fault_rows VALUES (2)'));
      expect((await db.query('SELECT id FROM fault_rows')).rows).toEqual([{ id: 2 }]);
    });

    test('connection cut outside a transaction (a pooled statement in flight): rejected, the pool serves the next query', async () => {
      const sleeping = db.query('SELECT pg_sleep(20)').then(
        () => undefined,
        (err: unknown) => err,
      );
      const pid = await until(
        'the sleeping statement',
        async () =>
          (await killer.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(20)' AND pid <> pg_backend_pid()"))
            .rows[0]?.pid,
        5_000,
      );
      await terminate(pid);
      expect(isConnectionError(await sleeping)).toBe(true);
      expect((await db.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    });
  });

  test('during an outage the API answers 503 with Retry-After and a Spanish message; it answers again within seconds of the database coming back', async () => {
    const name = await freshDatabase('outage');
    const db = open(name);
    await migrate(db, migrations);
    const api = await adminApi(db);
    const admin = await api.headersOf('admin@demo.local');
    await request(api.ta.app).get('/api/v5/groups').set(admin).expect(200);

    await server.stop('immediate');
    try {
      for (const req of [
        request(api.ta.app).get('/api/v5/groups').set(admin),
        request(api.ta.app).get('/api/v5/devices').set(admin),
        // A transaction: the group being created.
        request(api.ta.app).post('/api/v5/groups').set(admin).send({ name: 'Sucursal Oaxaca', description: 'Durante la caída' }),
      ]) {
        const res = await req;
        expect(res.status).toBe(503);
        expect(res.headers['retry-after']).toBe('5');
        expect(res.body).toEqual({ message: MESSAGES.api.serviceUnavailable, code: 'SERVICE_UNAVAILABLE' });
      }
      expect((await request(api.ta.app).get('/readyz')).status).toBe(503);
      // The embedded identity endpoint too: its protocol's error type, as a 503 with Retry-After.
      const signIn = await request(api.ta.app)
        .post('/cognito/')
        .set('Content-Type', 'application/x-amz-json-1.1')
        .set('X-Amz-Target', 'AWSCognitoIdentityProviderService.InitiateAuth')
        .send(
          JSON.stringify({
            AuthFlow: 'USER_PASSWORD_AUTH',
            ClientId: api.ta.config.identity.clientId,
            AuthParameters: { USERNAME: 'admin@demo.local', PASSWORD: DEMO_PASSWORD },
          }),
        );
      expect(signIn.status).toBe(503);
      expect(signIn.headers['retry-after']).toBe('5');
      expect(JSON.parse(signIn.text)).toMatchObject({ __type: 'InternalErrorException' });
    } finally {
      await server.start();
    }
    const back = Date.now();
    await until('the API answering again', async () => (await request(api.ta.app).get('/api/v5/groups').set(admin)).status === 200, 10_000);
    // The audit measured 1.9 s; the pool reconnects on the next request.
    expect(Date.now() - back).toBeLessThan(5_000);
    await request(api.ta.app).post('/api/v5/groups').set(admin).send({ name: 'Sucursal Oaxaca', description: 'Después de la caída' }).expect(201);
  }, 60_000);

  describe('replicas (two processes of dist/server.js)', () => {
    let name: string;
    let replicas: RunningServer[] = [];
    const q = (sql: string) => server.sql(sql, name);

    beforeAll(() => {
      if (!fs.existsSync(path.join(ROOT, 'dist', 'server.js'))) throw new Error('dist/server.js no existe: ejecuta `npm run build` antes');
    });
    afterAll(async () => {
      await Promise.all(replicas.map((r) => r.stop()));
    }, 30_000);

    const env = (db: string) => ({
      DATABASE_URL: server.url(db),
      DATABASE_POOL_MAX: '4',
      DEMO_DEVICES: '5000',
      DEMO_PASSWORD,
      SHUTDOWN_DELAY_MS: '0',
      LOG_LEVEL: 'info',
    });

    test('two replicas started together on an empty database both come up; one bootstrap, one demo fleet', async () => {
      name = await freshDatabase('replicas');
      const starting = [0, 1].map(() => spawnServer({ cwd: ROOT, env: env(name), timeoutMs: 90_000 }));
      const settled = await Promise.allSettled(starting);
      replicas = settled.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
      const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) throw failed.reason;
      for (const r of replicas) expect(r.proc.exitCode).toBeNull();
      expect(await q('SELECT count(*) FROM admins')).toBe('3');
      expect(await q('SELECT count(*) FROM identity_users')).toBe('3');
      expect(await q('SELECT count(*) FROM devices')).toBe('5000');
      expect(await q('SELECT count(*) FROM device_groups')).toBe('6');
      // Exactly one of them created the first accounts (the banner is printed once).
      expect(replicas.filter((r) => r.output().includes('Portal listo')).length).toBe(1);
    }, 150_000);

    test('a replica whose connection is cut inside a batch transaction survives, and the job resumes to the end, every device once', async () => {
      const ids = (await q("SELECT string_agg(id::text, ',' ORDER BY id) FROM (SELECT id FROM devices ORDER BY id LIMIT 60) d")).split(',');
      // The test holds the devices' row locks: the batch that takes the job waits inside its transaction.
      const holder = new pg.Client({ connectionString: server.url(name) });
      holder.on('error', () => undefined);
      await holder.connect();
      try {
        await holder.query('BEGIN');
        await holder.query(`SELECT id FROM devices WHERE id = ANY($1::bigint[]) FOR UPDATE`, [ids]);
        const jobId = await q(
          `INSERT INTO jobs (action, payload, device_ids, total, created_by, actor)
           VALUES (5, '{"action":5,"title":"Aviso","message":"Su cuota vence mañana"}', '{${ids.join(',')}}', ${ids.length}, 'admin@demo.local',
                   '{"adminId":null,"email":"admin@demo.local","ip":null,"requestId":null}') RETURNING id`,
        );
        const waiting = await until(
          'a batch transaction waiting for the locks',
          async () => {
            const pids = await q(
              "SELECT string_agg(pid::text, ',') FROM pg_stat_activity WHERE application_name = 'portal' AND wait_event_type = 'Lock'",
            );
            return pids ? pids.split(',') : undefined;
          },
          20_000,
          200,
        );
        await q(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid IN (${waiting.join(',')})`);
        await sleep(500);
        await holder.query('ROLLBACK');

        for (const r of replicas) {
          expect(r.proc.exitCode).toBeNull();
          expect((await fetch(`${r.url}/healthz`)).status).toBe(200);
        }
        await until('the job completed', async () => (await q(`SELECT status FROM jobs WHERE id = ${jobId}`)) === 'completed', 30_000, 250);
        expect(await q(`SELECT processed || '/' || total FROM jobs WHERE id = ${jobId}`)).toBe(`${ids.length}/${ids.length}`);
        expect(
          await q(`SELECT count(*) FROM (SELECT device_id FROM device_commands WHERE job_id = ${jobId} GROUP BY device_id HAVING count(*) > 1) x`),
        ).toBe('0');
        expect(await q(`SELECT count(*) FROM job_results WHERE job_id = ${jobId}`)).toBe(String(ids.length));
        for (const r of replicas) expect(r.output()).not.toContain('Unhandled');
      } finally {
        await holder.end().catch(() => undefined);
      }
    }, 90_000);

    test('a job whose runner died is taken over after the stale window (10 s), not 30 s', async () => {
      const ids = await q("SELECT string_agg(id::text, ',' ORDER BY id) FROM (SELECT id FROM devices ORDER BY id DESC LIMIT 10) d");
      const started = Date.now();
      const jobId = await q(
        `INSERT INTO jobs (action, payload, device_ids, total, created_by, actor, status, runner, heartbeat_at, started_at)
         VALUES (5, '{"action":5,"title":"Aviso","message":"Su cuota vence mañana"}', '{${ids}}', 10, 'admin@demo.local',
                 '{"adminId":null,"email":"admin@demo.local","ip":null,"requestId":null}', 'running', 'replica-muerta', clock_timestamp(), now())
         RETURNING id`,
      );
      await until(
        'another replica taking the job',
        async () => (await q(`SELECT runner FROM jobs WHERE id = ${jobId}`)) !== 'replica-muerta',
        25_000,
        200,
      );
      const tookOver = Date.now() - started;
      expect(tookOver).toBeGreaterThanOrEqual(9_500);
      // Stale after 10 s, found by the next poll (every 2 s) of a live replica.
      expect(tookOver).toBeLessThan(16_000);
      await until('the job completed', async () => (await q(`SELECT status FROM jobs WHERE id = ${jobId}`)) === 'completed', 15_000, 250);
    }, 60_000);

    test('start-up with the database unreachable retries with backoff (logged) and proceeds when it appears', async () => {
      await Promise.all(replicas.map((r) => r.stop()));
      replicas = [];
      const fresh = await freshDatabase('startup');
      await server.stop('fast');
      let starting: Promise<RunningServer> | undefined;
      try {
        starting = spawnServer({ cwd: ROOT, env: { ...env(fresh), DEMO_DEVICES: '20' }, timeoutMs: 60_000 });
        starting.catch(() => undefined);
        // Let it fail a few attempts (0.5 s, 1 s, 2 s …) before the database appears.
        await sleep(3_000);
      } finally {
        await server.start();
      }
      const late = await starting;
      replicas.push(late);
      expect(late.proc.exitCode).toBeNull();
      const retries = late.output().match(/database unreachable at start-up: attempt \d+ failed, retrying in \d+ ms/g) ?? [];
      expect(retries.length).toBeGreaterThanOrEqual(2);
      expect(retries[1]).toContain('retrying in 1000 ms');
      expect(await server.sql('SELECT count(*) FROM devices', fresh)).toBe('20');
    }, 90_000);
  });

  describe('the collection engine killed with -9 inside a batch', () => {
    const CREDITS = 250;
    let replica: RunningServer | undefined;
    afterAll(async () => {
      if (replica && replica.proc.exitCode === null) replica.proc.kill('SIGKILL');
    });

    test('the batch in flight leaves nothing; the next process finishes it; every unlock happens once', async () => {
      const name = await freshDatabase('collection_kill');
      const q = (sql: string) => server.sql(sql, name);
      const db = open(name, 2);
      await migrate(db, migrations);
      // Devices locked Por Crédito whose credits owe nothing yet: the policy unlocks each, at any hour.
      await db.query(`UPDATE collection_policy SET settings = '{"reminders": [], "ladder": []}' WHERE group_id IS NULL`);
      const ids = await insertManyDevices(db, CREDITS, { lifecycle: 'operating', lockState: 'locked', lockType: 'PorCredito' });
      await db.query(`UPDATE devices SET credit_reference = 'KILL-' || id WHERE id = ANY($1::bigint[])`, [ids]);
      const due = addDays(todayIn('America/Mexico_City', new Date()), 30);
      await transaction(db, (tx) =>
        importCredits(
          tx,
          ids.map((id) => ({
            reference: `KILL-${id}`,
            customerName: 'Cliente de prueba',
            customerPhone: null,
            currency: 'MXN',
            createdAt: new Date(),
            installments: [{ number: 1, dueDate: due, amountCents: 100_000 }],
            payments: [],
          })),
          { timeZone: 'America/Mexico_City', source: 'integration', recordedBy: null },
        ),
      );
      // The engine claims by (next_step_at, id): the test holds the device of a credit in the middle
      // of the second batch, so that batch waits inside its transaction, its credits claimed.
      const held = (
        await db.query<{ device: string }>(
          `SELECT d.id AS device FROM credits c JOIN devices d ON lower(d.credit_reference) = lower(c.reference)
          ORDER BY c.next_step_at, c.id OFFSET $1 LIMIT 1`,
          [COLLECTION_BATCH + Math.floor(COLLECTION_BATCH / 2)],
        )
      ).rows[0]!.device;
      const holder = new pg.Client({ connectionString: server.url(name) });
      holder.on('error', () => undefined);
      await holder.connect();
      const env = {
        DATABASE_URL: server.url(name),
        DATABASE_POOL_MAX: '4',
        SEED_DEMO: 'false',
        DEMO_AGENTS: '0',
        SHUTDOWN_DELAY_MS: '0',
        LOG_LEVEL: 'info',
      };
      const unlockSteps = async () => Number(await q("SELECT count(*) FROM credit_steps WHERE kind = 'unlock' AND outcome = 'done'"));
      try {
        await holder.query('BEGIN');
        await holder.query('SELECT id FROM devices WHERE id = $1 FOR UPDATE', [held]);
        replica = await spawnServer({ cwd: ROOT, env, timeoutMs: 60_000 });
        await until(
          'a collection batch waiting for the held device',
          async () => (await q("SELECT count(*) FROM pg_stat_activity WHERE application_name = 'portal' AND wait_event_type = 'Lock'")) !== '0',
          30_000,
          100,
        );
        replica.proc.kill('SIGKILL');
        await replica.exited;
        // The first batch committed; of the second, nothing: no step, no command, no credit moved on.
        expect(await unlockSteps()).toBe(COLLECTION_BATCH);
        expect(await q('SELECT count(*) FROM device_commands')).toBe(String(COLLECTION_BATCH));
      } finally {
        await holder.query('ROLLBACK').catch(() => undefined);
        await holder.end().catch(() => undefined);
      }

      replica = await spawnServer({ cwd: ROOT, env, timeoutMs: 60_000 });
      await until('every credit planned', async () => (await unlockSteps()) === CREDITS, 60_000, 250);
      expect(await q('SELECT count(*) FROM device_commands WHERE action = 1')).toBe(String(CREDITS));
      expect(await q('SELECT count(*) FROM (SELECT device_id FROM device_commands GROUP BY device_id HAVING count(*) > 1) x')).toBe('0');
      expect(await q('SELECT count(*) FROM (SELECT credit_id FROM credit_steps GROUP BY credit_id, step_key HAVING count(*) > 1) x')).toBe('0');
      expect(await replica.stop()).toBe(0);
    }, 120_000);
  });
});
