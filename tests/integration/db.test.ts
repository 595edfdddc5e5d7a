import { migrate } from '../../server/db/migrate';
import { migrations } from '../../server/db/migrations/index';
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
