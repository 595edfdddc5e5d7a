import path from 'node:path';
import { Writable } from 'node:stream';
import { createApp, type AppDeps, type BuiltApp } from '../../server/app';
import { loadConfig, type Config } from '../../server/config';
import type { Db } from '../../server/db/Db';
import { createLogger } from '../../server/logger';
import { loadClientAssets } from '../../server/ssr/manifest';
import { createIdentity } from '../../server/identity/createIdentity';

export const DIST_DIR = path.resolve(__dirname, '../../dist');

/** The configuration of a test server: the defaults plus `env`. */
export function testConfig(env: Record<string, string> = {}): Config {
  // Tests sign in far more often than a person: the per-IP limit has its own test.
  return loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'info', IDENTITY_RATE_LIMIT_PER_MINUTE: '100000', ...env }, '0.0.0-test');
}

/** Log lines written by the app, parsed. */
export class LogCapture extends Writable {
  readonly lines: Record<string, unknown>[] = [];
  readonly raw: string[] = [];
  override _write(chunk: Buffer, _enc: string, done: () => void) {
    for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
      this.raw.push(line);
      this.lines.push(JSON.parse(line) as Record<string, unknown>);
    }
    done();
  }
}

export interface TestApp extends BuiltApp {
  logs: LogCapture;
  config: Config;
  deps: AppDeps;
}

/**
 * The real app on a test database, with the real client build (`npm run build` first) and
 * the identity of the configured mode (embedded by default: the endpoint and its keys).
 */
export async function buildTestApp(
  db: Db,
  opts: { env?: Record<string, string>; deps?: Partial<AppDeps>; now?: () => number } = {},
): Promise<TestApp> {
  const config = testConfig(opts.env);
  const logs = new LogCapture();
  const logger = createLogger(config.logLevel, logs);
  const runtime = await createIdentity(config, db, logger, opts.now);
  const deps: AppDeps = { config, db, logger, assets: loadClientAssets(DIST_DIR), ...runtime, ...opts.deps };
  return { ...createApp(deps), logs, config, deps };
}
