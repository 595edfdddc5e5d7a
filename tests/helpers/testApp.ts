import path from 'node:path';
import { Writable } from 'node:stream';
import { createApp, type AppDeps, type PortalApp } from '../../server/app';
import { loadConfig, type Config } from '../../server/config';
import type { Db } from '../../server/db/Db';
import { createLogger } from '../../server/logger';
import { loadClientAssets } from '../../server/ssr/manifest';

export const DIST_DIR = path.resolve(__dirname, '../../dist');

/** The configuration of a test server: the defaults plus `env`. */
export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'info', ...env }, '0.0.0-test');
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

/** The real app on a test database, with the real client build (`npm run build` first). */
export function buildTestApp(
  db: Db,
  opts: { env?: Record<string, string>; deps?: Partial<AppDeps> } = {},
): { app: PortalApp; logs: LogCapture; config: Config } {
  const config = testConfig(opts.env);
  const logs = new LogCapture();
  const app = createApp({
    config,
    db,
    logger: createLogger(config.logLevel, logs),
    assets: loadClientAssets(DIST_DIR),
    ...opts.deps,
  });
  return { app, logs, config };
}
