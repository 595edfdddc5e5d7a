import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Db } from '../../server/db/Db';
import { migrate } from '../../server/db/migrate';
import { migrations } from '../../server/db/migrations/index';
import { createPgDb } from '../../server/db/pgDb';
import { createPgliteDb } from '../../server/db/pgliteDb';

/**
 * A migrated PGlite database as a file, made once per set of migrations and shared by every
 * test file (loading it is several times faster than creating and migrating a new one).
 */
async function pgliteTemplate(): Promise<Blob> {
  const hash = createHash('sha256').update(JSON.stringify(migrations)).digest('hex').slice(0, 16);
  const file = path.join(os.tmpdir(), `portal-pglite-template-${hash}.tar`);
  if (!fs.existsSync(file)) {
    const db = await createPgliteDb();
    await migrate(db, migrations);
    const dump = await db.dump();
    await db.close();
    const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    fs.writeFileSync(tmp, Buffer.from(await dump.arrayBuffer()));
    fs.renameSync(tmp, file); // atomic: concurrent workers never read a half-written file
  }
  return new Blob([fs.readFileSync(file)]);
}

export type Engine = 'pglite' | 'postgres';

/** PGlite always; PostgreSQL as well when TEST_DATABASE_URL is set. */
export function testEngines(): Engine[] {
  return process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

export interface TestDb {
  db: Db;
  /** Closes the database and, on PostgreSQL, drops the test schema. */
  dispose(): Promise<void>;
}

/**
 * A fresh, migrated database for one test file: PGlite in memory, or a new schema on the
 * PostgreSQL of TEST_DATABASE_URL (dropped again by `dispose`).
 */
export async function createTestDb(engine: Engine, opts: { migrate?: boolean } = {}): Promise<TestDb> {
  let testDb: TestDb;
  if (engine === 'pglite') {
    const db = opts.migrate === false ? await createPgliteDb() : await createPgliteDb({ loadDataDir: await pgliteTemplate() });
    testDb = { db, dispose: () => db.close() };
  } else {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) throw new Error('TEST_DATABASE_URL no está definida');
    const schema = `test_${randomBytes(6).toString('hex')}`;
    const admin = createPgDb({ connectionString: url, max: 1 });
    await admin.exec(`CREATE SCHEMA ${schema}`);
    await admin.close();
    const db = createPgDb({ connectionString: url, max: 4, searchPath: `${schema},public` });
    testDb = {
      db,
      async dispose() {
        await db.close();
        const cleanup = createPgDb({ connectionString: url, max: 1 });
        await cleanup.exec(`DROP SCHEMA ${schema} CASCADE`);
        await cleanup.close();
      },
    };
  }
  if (opts.migrate !== false) await migrate(testDb.db, migrations);
  return testDb;
}
