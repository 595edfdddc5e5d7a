import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDb } from '../../server/db/createDb';
import { migrate } from '../../server/db/migrate';
import { migrations } from '../../server/db/migrations/index';
import { PARALLEL_WORKERS_PER_GATHER } from '../../server/db/pgDb';
import { createTestDb, testEngines, type TestDb } from '../helpers/testDb';

describe.each(testEngines())('Db on %s', (engine) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(engine);
    await t.db.exec('CREATE TABLE items (id bigserial PRIMARY KEY, name text NOT NULL UNIQUE, created_at timestamptz NOT NULL DEFAULT now())');
  });
  afterAll(async () => {
    await t.dispose();
  });

  test('parameterised queries; int8 comes back as a number, timestamptz as a Date', async () => {
    const ins = await t.db.query<{ id: number }>('INSERT INTO items (name) VALUES ($1), ($2) RETURNING id', ['a', 'b']);
    expect(ins.rowCount).toBe(2);
    const res = await t.db.query<{ n: number; at: Date }>('SELECT count(*) AS n, max(created_at) AS at FROM items WHERE name = ANY($1)', [
      ['a', 'b', 'z'],
    ]);
    expect(res.rows[0]!.n).toBe(2);
    expect(res.rows[0]!.at).toBeInstanceOf(Date);
    const upd = await t.db.query('UPDATE items SET name = name || $1', ['!']);
    expect(upd.rowCount).toBe(2);
  });

  test('a transaction commits when the callback resolves', async () => {
    await t.db.transaction(async (tx) => {
      await tx.query('INSERT INTO items (name) VALUES ($1)', ['c']);
      await tx.query('INSERT INTO items (name) VALUES ($1)', ['d']);
    });
    const res = await t.db.query<{ n: number }>("SELECT count(*) AS n FROM items WHERE name IN ('c', 'd')");
    expect(res.rows[0]!.n).toBe(2);
  });

  test('a transaction rolls back every statement when the callback throws', async () => {
    await expect(
      t.db.transaction(async (tx) => {
        await tx.query('INSERT INTO items (name) VALUES ($1)', ['e']);
        await tx.query('INSERT INTO items (name) VALUES ($1)', ['c']); // unique violation
      }),
    ).rejects.toThrow(/duplicate key|unique/i);
    const res = await t.db.query<{ n: number }>("SELECT count(*) AS n FROM items WHERE name = 'e'");
    expect(res.rows[0]!.n).toBe(0);
    // The database is usable afterwards.
    await t.db.query('SELECT 1');
  });

  test('no statement gets parallel workers, in a transaction or not (PGlite has none to give)', async () => {
    const setting = async (q: Pick<typeof t.db, 'query'>) =>
      (await q.query<{ max_parallel_workers_per_gather: string }>('SHOW max_parallel_workers_per_gather')).rows[0]!.max_parallel_workers_per_gather;
    expect(PARALLEL_WORKERS_PER_GATHER).toBe(0);
    const seen = await Promise.all([1, 2, 3].map(() => setting(t.db)));
    seen.push(await t.db.transaction((tx) => setting(tx)));
    expect(seen).toEqual(['0', '0', '0', '0']);
    // The session's other setting (a test schema's search path) is still there.
    const table = await t.db.query<{ n: string | null }>("SELECT to_regclass('items')::text AS n");
    expect(table.rows[0]!.n).toBe('items');
  });

  test('migrations are recorded and applied once', async () => {
    const rows = await t.db.query<{ id: string }>('SELECT id FROM schema_migrations ORDER BY id');
    expect(rows.rows.map((r) => r.id)).toEqual(migrations.map((m) => m.id));
    expect(await migrate(t.db, migrations)).toEqual([]);
  });

  test('a failing migration leaves nothing behind', async () => {
    const broken = [...migrations, { id: '9998_ok', sql: 'CREATE TABLE half (id int)' }, { id: '9999_bad', sql: 'SELECT * FROM missing_table' }];
    await expect(migrate(t.db, broken)).rejects.toThrow();
    const half = await t.db.query("SELECT 1 FROM schema_migrations WHERE id = '9998_ok'");
    expect(half.rowCount).toBe(0);
    await expect(t.db.query('SELECT * FROM half')).rejects.toThrow();
  });

  test('pg_trgm is available', async () => {
    const res = await t.db.query<{ s: number }>("SELECT similarity('356938035643809', '3569380') AS s");
    expect(res.rows[0]!.s).toBeGreaterThan(0);
    await t.db.exec('CREATE INDEX items_name_trgm ON items USING gin (name gin_trgm_ops)');
  });
});

describe('PGlite on disk (createDb without DATABASE_URL)', () => {
  test('PGLITE_SHARED_BUFFERS_MB sizes its buffer cache, and pg_trgm still loads', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pglite-buffers-'));
    const db = await createDb({ dataDir: dir, poolMax: 1, pgliteSharedBuffersMb: 16 });
    try {
      expect((await db.query<{ shared_buffers: string }>('SHOW shared_buffers')).rows[0]!.shared_buffers).toBe('16MB');
      await db.exec('CREATE EXTENSION IF NOT EXISTS pg_trgm');
      expect((await db.query<{ s: number }>("SELECT similarity('abc', 'abd') AS s")).rows[0]!.s).toBeGreaterThan(0);
    } finally {
      await db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
