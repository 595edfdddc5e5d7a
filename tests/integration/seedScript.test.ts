import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Queryable } from '../../server/db/Db';
import { createPgDb } from '../../server/db/pgDb';
import { createPgliteDb } from '../../server/db/pgliteDb';
import { demoDeviceRows } from '../../tools/seed/demoDevices';
import { FleetNotEmptyError, fleetCounterMismatches, seedFleet } from '../../tools/seed/seedFleet';
import { insertDevices } from '../helpers/inventoryFixtures';
import { createTestDb, testEngines, type TestDb } from '../helpers/testDb';

const ROOT = path.resolve(__dirname, '../..');
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');

/** What the seed writes, counted: devices, commands, groups, counters. */
async function snapshot(q: Queryable) {
  const res = await q.query<Record<string, number>>(
    `SELECT (SELECT count(*) FROM devices) AS devices, (SELECT count(*) FROM device_commands) AS commands,
            (SELECT count(*) FROM device_groups) AS groups, (SELECT coalesce(sum(n), 0)::bigint FROM device_counts) AS counted,
            (SELECT count(*) FROM admins) AS admins`,
  );
  return res.rows[0]!;
}

async function duplicateImeis(q: Queryable): Promise<number> {
  const res = await q.query<{ n: number }>('SELECT count(*) AS n FROM (SELECT imei FROM devices GROUP BY imei HAVING count(*) > 1) d');
  return res.rows[0]!.n;
}

/** device_counts against a GROUP BY of the rows, key by key (not only per status). */
async function expectCountersConsistent(q: Queryable): Promise<void> {
  expect(await fleetCounterMismatches(q)).toEqual([]);
  const counters = await q.query(
    'SELECT device_type, group_id, base_status, lock_type, n::bigint AS n FROM device_counts WHERE n <> 0 ORDER BY 1, 2, 3, 4',
  );
  const recount = await q.query(
    `SELECT device_type, coalesce(group_id, 0) AS group_id, base_status, coalesce(lock_type, '') AS lock_type, count(*)::bigint AS n
       FROM devices WHERE deleted_at IS NULL GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`,
  );
  expect(counters.rows).toEqual(recount.rows);
  // Every device waiting for a command has it, and the counter of pending commands agrees.
  const pending = await q.query<{ devices: number; commands: number; counted: number }>(
    `SELECT (SELECT count(*) FROM devices WHERE pending_action IS NOT NULL AND pending_command_id IS NOT NULL) AS devices,
            (SELECT count(*) FROM device_commands WHERE status = 'pending') AS commands,
            (SELECT coalesce(sum(n), 0)::bigint FROM pending_command_counts) AS counted`,
  );
  const p = pending.rows[0]!;
  expect(p.commands).toBe(p.devices);
  expect(p.counted).toBe(p.commands);
}

describe.each(testEngines())('seedFleet on %s', (engine) => {
  let t: TestDb;
  const now = new Date();

  // A new set of migrations makes the PGlite template first: slow on a loaded machine.
  beforeAll(async () => {
    t = await createTestDb(engine);
  }, 120_000);
  afterAll(async () => {
    await t?.dispose();
  }, 60_000);

  test('2000 devices with their history; counters equal a recount; the secondary indexes are back', async () => {
    const indexes = async () =>
      (
        await t.db.query<{ d: string }>(
          `SELECT string_agg(indexrelid::regclass::text, ',' ORDER BY indexrelid::regclass::text) AS d FROM pg_index
            WHERE indrelid IN ('devices'::regclass, 'device_commands'::regclass)`,
        )
      ).rows[0]!.d;
    const before = await indexes();
    const progress: number[] = [];
    const result = await seedFleet(t.db, { count: 2000, now, batchSize: 500, onProgress: (done, total) => progress.push(done / total) });
    expect(result.devices).toBe(2000);
    expect(result.groupIds).toHaveLength(6);
    expect(progress).toEqual([0, 0.25, 0.5, 0.75, 1]);
    const s = await snapshot(t.db);
    expect(s).toMatchObject({ devices: 2000, groups: 6, counted: 2000 });
    // The 30 days of history (a LOCK for each locked device, reminders, …): the generator's share.
    expect(s.commands).toBeGreaterThan(1000);
    await expectCountersConsistent(t.db);
    expect(await duplicateImeis(t.db)).toBe(0);
    expect(await indexes()).toBe(before);
    // The rows are the generator's, in order: the first one's IMEI.
    const first = demoDeviceRows(1, 2026, now, 1).next().value![0]!;
    expect((await t.db.query('SELECT 1 FROM devices WHERE imei = $1 AND customer_name = $2', [first.imei, first.customerName])).rowCount).toBe(1);
  });

  test('a second seed without append is refused and writes nothing', async () => {
    const before = await snapshot(t.db);
    await expect(seedFleet(t.db, { count: 2000, now })).rejects.toBeInstanceOf(FleetNotEmptyError);
    await expect(seedFleet(t.db, { count: 10, now })).rejects.toThrow(/ya tiene 2000 dispositivos.*--append/);
    expect(await snapshot(t.db)).toEqual(before);
  });

  test('append adds as many again, with new IMEIs, counters still right', async () => {
    const result = await seedFleet(t.db, { count: 2000, now, append: true });
    expect(result.devices).toBe(2000);
    expect(result.start).toBeGreaterThanOrEqual(2000);
    const s = await snapshot(t.db);
    expect(s).toMatchObject({ devices: 4000, groups: 6, counted: 4000 });
    expect(await duplicateImeis(t.db)).toBe(0);
    await expectCountersConsistent(t.db);
  });

  test('append skips an IMEI registered another way (an import) and still adds the count asked for', async () => {
    // The next device the generator would draw: numbered from the id sequence, which the insert
    // below moves by one.
    const last = (await t.db.query<{ n: number }>(`SELECT pg_sequence_last_value(pg_get_serial_sequence('devices', 'id')::regclass) AS n`)).rows[0]!
      .n;
    const next = demoDeviceRows(1, 2026, now, 1, last + 1).next().value![0]!;
    await insertDevices(t.db, [{ imei: next.imei }]);
    await seedFleet(t.db, { count: 50, now, append: true });
    expect((await snapshot(t.db)).devices).toBe(4000 + 1 + 50);
    expect(await duplicateImeis(t.db)).toBe(0);
    await expectCountersConsistent(t.db);
  });

  test('a bad count is refused', async () => {
    await expect(seedFleet(t.db, { count: -1 })).rejects.toThrow(/count/);
    await expect(seedFleet(t.db, { count: 1.5 })).rejects.toThrow(/count/);
  });
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `npm run seed -- …` (the same command line, without npm). */
function runSeed(args: string[], env: Record<string, string>): Promise<Run> {
  const clean = { ...process.env };
  for (const k of ['DATABASE_URL', 'DATA_DIR', 'TEST_DATABASE_URL', 'NODE_OPTIONS']) delete clean[k];
  return new Promise((resolve) => {
    execFile(
      TSX,
      ['--import', './scripts/sqlLoader.mjs', 'scripts/seed.ts', ...args],
      { cwd: ROOT, env: { ...clean, LOG_LEVEL: 'warn', NODE_ENV: 'development', ...env }, timeout: 170_000 },
      (err, stdout, stderr) => resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
    );
  });
}

describe('npm run seed (the command)', () => {
  test('--help, and bad arguments name the option', async () => {
    const help = await runSeed(['--help'], {});
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/--devices N/);
    for (const [args, pattern] of [
      [['--devices', 'mil'], /--devices: se esperaba un entero/],
      [['--devices', '0'], /--devices: se esperaba un entero/],
      [[], /falta --devices/],
      [['--devices', '10', '--database-url', 'mysql://x'], /--database-url: debe empezar con postgres:\/\//],
      [['--devices', '10', '--dispositivos', '3'], /--dispositivos/],
    ] as const) {
      const run = await runSeed([...args], {});
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(pattern);
    }
  }, 120_000);

  test('PGlite in DATA_DIR: seeds, refuses a second run, appends; bootstrapped as the server would', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-seed-'));
    try {
      const first = await runSeed(['--devices', '2000'], { DATA_DIR: dir, DEMO_PASSWORD: 'Demo-Portal-2026!' });
      expect(first.stderr).not.toMatch(/falló/);
      expect(first.code).toBe(0);
      expect(first.stdout).toMatch(/2,000 dispositivos sembrados/);
      expect(first.stdout).toMatch(/admin@demo\.local/);
      // Not a terminal: a line every 10 %.
      expect(first.stderr).toMatch(/2,000 \/ 2,000 dispositivos · 100\.0 %/);

      const again = await runSeed(['--devices', '2000'], { DATA_DIR: dir });
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(/ya tiene 2000 dispositivos: no se sembró nada/);

      const more = await runSeed(['--devices=1000', '--append'], { DATA_DIR: dir });
      expect(more.code).toBe(0);
      expect(more.stdout).toMatch(/1,000 dispositivos sembrados.*3,000 en total/);

      const db = await createPgliteDb({ dataDir: dir });
      try {
        expect(await snapshot(db)).toMatchObject({ devices: 3000, counted: 3000, admins: 3 });
        expect(await duplicateImeis(db)).toBe(0);
        await expectCountersConsistent(db);
      } finally {
        await db.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);

  const pgTest = process.env.TEST_DATABASE_URL ? test : test.skip;
  pgTest(
    'PostgreSQL with --database-url (a schema of its own): seeds, refuses, appends',
    async () => {
      const url = process.env.TEST_DATABASE_URL!;
      const schema = `seed_${randomBytes(5).toString('hex')}`;
      const admin = createPgDb({ connectionString: url, max: 1 });
      await admin.exec(`CREATE SCHEMA ${schema}`);
      const target = `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema},public`)}`;
      const db = createPgDb({ connectionString: url, max: 1, searchPath: `${schema},public` });
      try {
        const first = await runSeed(['--devices', '2000', '--database-url', target], {});
        expect(first.stderr).not.toMatch(/falló/);
        expect(first.code).toBe(0);
        expect(await snapshot(db)).toMatchObject({ devices: 2000, counted: 2000, admins: 3 });

        const before = await snapshot(db);
        const again = await runSeed(['--devices', '5'], { DATABASE_URL: target });
        expect(again.code).toBe(1);
        expect(again.stderr).toMatch(/ya tiene 2000 dispositivos/);
        expect(await snapshot(db)).toEqual(before);

        const more = await runSeed(['--devices', '2000', '--append'], { DATABASE_URL: target });
        expect(more.code).toBe(0);
        expect(await snapshot(db)).toMatchObject({ devices: 4000, counted: 4000 });
        expect(await duplicateImeis(db)).toBe(0);
        await expectCountersConsistent(db);
      } finally {
        await db.close();
        await admin.exec(`DROP SCHEMA ${schema} CASCADE`);
        await admin.close();
      }
    },
    180_000,
  );
});
