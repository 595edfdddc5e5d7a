import path from 'node:path';
import type { Config } from '../config';
import type { Db } from './Db';
import { createPgDb } from './pgDb';
import { createPgliteDb } from './pgliteDb';

/** PostgreSQL when DATABASE_URL is set; PGlite persisted under DATA_DIR otherwise. */
export async function createDb(config: Config['database']): Promise<Db> {
  if (config.url) return createPgDb({ connectionString: config.url, max: config.poolMax });
  return createPgliteDb({ dataDir: path.resolve(config.dataDir), sharedBuffersMb: config.pgliteSharedBuffersMb });
}
