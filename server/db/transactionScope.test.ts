import { createTestDb, testEngines, type TestDb } from '../../tests/helpers/testDb';
import { joinTransactions, transaction } from './transactionScope';

describe.each(testEngines())('transactionScope on %s', (engine) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(engine, { migrate: false });
    await t.db.exec('CREATE TABLE items (name text PRIMARY KEY)');
  });
  afterAll(async () => {
    await t.dispose();
  });

  const names = async () => (await t.db.query<{ name: string }>('SELECT name FROM items ORDER BY name')).rows.map((r) => r.name);

  test("a joined Db runs on the open transaction (no deadlock on PGlite's one connection) and commits with it", async () => {
    const joined = joinTransactions(t.db);
    await transaction(t.db, async (tx) => {
      await tx.query("INSERT INTO items VALUES ('a')");
      // Sees the uncommitted row: the same transaction.
      expect((await joined.query('SELECT 1 FROM items WHERE name = $1', ['a'])).rowCount).toBe(1);
      await joined.query("INSERT INTO items VALUES ('b')");
    });
    expect(await names()).toEqual(['a', 'b']);
  });

  test('everything rolls back together when the transaction fails', async () => {
    const joined = joinTransactions(t.db);
    await expect(
      transaction(t.db, async (tx) => {
        await tx.query("INSERT INTO items VALUES ('c')");
        await joined.query("INSERT INTO items VALUES ('d')");
        throw new Error('later step failed');
      }),
    ).rejects.toThrow('later step failed');
    expect(await names()).toEqual(['a', 'b']);
  });

  test("the joined Db's own transactions become savepoints", async () => {
    const joined = joinTransactions(t.db);
    await transaction(t.db, async (tx) => {
      await tx.query("INSERT INTO items VALUES ('e')");
      await expect(
        joined.transaction(async (inner) => {
          await inner.query("INSERT INTO items VALUES ('f')");
          await inner.query("INSERT INTO items VALUES ('a')"); // duplicate key
        }),
      ).rejects.toThrow(/duplicate key|unique/i);
      // The outer transaction is still usable; only the inner part is undone.
      await joined.transaction((inner) => inner.query("INSERT INTO items VALUES ('g')"));
    });
    expect(await names()).toEqual(['a', 'b', 'e', 'g']);
  });

  test('outside a transaction, and after it ends, a joined Db is the database itself', async () => {
    const joined = joinTransactions(t.db);
    expect(joined.engine).toBe(t.db.engine);
    await joined.query("INSERT INTO items VALUES ('h')");
    let late: Promise<unknown> | undefined;
    await transaction(t.db, async () => {
      late = new Promise((r) => setTimeout(r, 20)).then(() => joined.query("INSERT INTO items VALUES ('i')"));
    });
    await late;
    expect(await names()).toEqual(['a', 'b', 'e', 'g', 'h', 'i']);
    await joined.transaction((tx) => tx.query("DELETE FROM items WHERE name IN ('h', 'i')"));
    expect(await names()).toEqual(['a', 'b', 'e', 'g']);
  });

  test('a transaction opened inside another on the same database nests as a savepoint', async () => {
    await transaction(t.db, async (tx) => {
      await tx.query("INSERT INTO items VALUES ('j')");
      await expect(
        transaction(t.db, async (inner) => {
          await inner.query("INSERT INTO items VALUES ('k')");
          throw new Error('inner');
        }),
      ).rejects.toThrow('inner');
    });
    expect(await names()).toEqual(['a', 'b', 'e', 'g', 'j']);
  });
});
