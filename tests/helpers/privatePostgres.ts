/**
 * A PostgreSQL server of the test's own (initdb + pg_ctl from Debian's postgresql package), in
 * a temporary directory, on a free port from 55432 up: tests may stop it, kill its backends
 * and start it again without touching any shared server. Run as the `postgres` user when the
 * tests run as root (initdb refuses root). Commits are durable across a crash of the server
 * (synchronous commit stays on); only fsync is off, the machine itself does not crash.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The newest /usr/lib/postgresql/<version>/bin holding initdb and pg_ctl, if any. */
export function postgresBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return undefined;
  const versions = fs
    .readdirSync(root)
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(b) - Number(a));
  for (const v of versions) {
    const bin = path.join(root, v, 'bin');
    if (fs.existsSync(path.join(bin, 'initdb')) && fs.existsSync(path.join(bin, 'pg_ctl'))) return bin;
  }
  return undefined;
}

async function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/** A free TCP port at or above 55432 (randomised start: parallel test workers rarely meet). */
export async function freeHighPort(): Promise<number> {
  const start = 55432 + Math.floor(Math.random() * 2000);
  for (let port = start; port < 65000; port++) if (await portIsFree(port)) return port;
  throw new Error('no hay un puerto libre desde 55432');
}

export interface PrivatePostgres {
  port: number;
  /** URL of database `name` (default `postgres`), user postgres, trust authentication. */
  url(name?: string): string;
  /** Starts the server (again) on the same port and data directory; resolves once it accepts connections. */
  start(): Promise<void>;
  /** Stops it: 'immediate' is a crash (connections cut, no checkpoint), 'fast' a clean shutdown. */
  stop(mode?: 'immediate' | 'fast'): Promise<void>;
  /** psql -c as the superuser; returns its unaligned output. */
  sql(statement: string, db?: string): Promise<string>;
  /** Stops the server and deletes its directory. */
  dispose(): Promise<void>;
}

/** initdb + start. Throws when the binaries are missing (check `postgresBinDir()` first). */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = postgresBinDir();
  if (!bin) throw new Error('initdb/pg_ctl no están instalados (paquete postgresql de Debian)');
  const asRoot = process.getuid?.() === 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-pg-'));
  const dataDir = path.join(dir, 'data');
  const logFile = path.join(dir, 'server.log');
  if (asRoot) await run('chown', ['postgres:postgres', dir]);
  fs.chmodSync(dir, 0o700);
  const as = (file: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', path.join(bin, file), ...args]) : run(path.join(bin, file), args);

  await as('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
  const port = await freeHighPort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`;
  let running = false;
  const pg: PrivatePostgres = {
    port,
    url: (name = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${name}`,
    async start() {
      await as('pg_ctl', ['-D', dataDir, '-o', options, '-l', logFile, '-w', '-t', '60', 'start']);
      running = true;
    },
    async stop(mode = 'fast') {
      if (!running) return;
      await as('pg_ctl', ['-D', dataDir, '-m', mode, '-w', '-t', '60', 'stop']);
      running = false;
    },
    async sql(statement, db = 'postgres') {
      const psql = path.join(bin, 'psql');
      const args = ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', db, '-v', 'ON_ERROR_STOP=1', '-qAtc', statement];
      const { stdout } = await run(fs.existsSync(psql) ? psql : 'psql', args);
      return stdout.trim();
    },
    async dispose() {
      await pg.stop('immediate').catch(() => undefined);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  await pg.start();
  return pg;
}

/** Said once when the fault tests cannot run here. */
export const NO_POSTGRES_MESSAGE = [
  '',
  '!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!',
  '!! PostgreSQL fault tests SKIPPED: no initdb/pg_ctl under /usr/lib/postgresql/*/bin.',
  '!! Install Debian\'s "postgresql" package (.ci/run does) to run them.',
  '!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!',
  '',
].join('\n');
