/**
 * `npm run seed -- --devices N [--database-url URL] [--append]`: a large realistic fleet (the
 * demo generator of the benchmarks) in the database the server uses: PGlite in DATA_DIR, or the
 * PostgreSQL of --database-url / DATABASE_URL. Migrates and bootstraps as the server's first
 * start does, so `npm start` afterwards shows the fleet. Refuses a registry that already has
 * devices unless --append. Progress on stderr.
 */
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, maskUrlPasswords } from '../server/config';
import { ADVISORY_LOCKS, withAdvisoryLock } from '../server/db/advisoryLock';
import { createDb } from '../server/db/createDb';
import type { Db } from '../server/db/Db';
import { migrate } from '../server/db/migrate';
import { migrations } from '../server/db/migrations/index';
import { bootstrap, bootstrapBanner } from '../server/db/bootstrap';
import { FleetNotEmptyError, countDevices, fleetCounterMismatches, seedFleet, settleAfterSeed } from '../tools/seed/seedFleet';
import { createIdentity } from '../server/identity/createIdentity';
import { createLogger } from '../server/logger';

const USAGE = `Uso / usage: npm run seed -- --devices N [--database-url URL] [--append]

Siembra N dispositivos realistas (el generador de la demo y de los benchmarks: marcas, estados,
30 días de historial de comandos, comandos en curso) en la base de datos del servidor.

  --devices N          dispositivos a agregar (entero de 1 a 100000000; acepta 1_000_000)
  --database-url URL   PostgreSQL (postgres://…); por omisión DATABASE_URL, y sin ella
                       PGlite en DATA_DIR (./data), como el servidor
  --append             agregar a una base que ya tiene dispositivos (sin esta opción se rechaza)
  -h, --help           esta ayuda

Aplica las migraciones y crea los administradores si faltan (como el primer arranque del
servidor; la contraseña generada se muestra una vez). Detén el servidor antes si usa PGlite.`;

const MAX_DEVICES = 100_000_000;

/** A usage error: the message names the option; exit code 2. */
class UsageError extends Error {}

function parseCli(argv: string[]): { devices: number; databaseUrl?: string; append: boolean } | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        devices: { type: 'string' },
        'database-url': { type: 'string' },
        append: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    });
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  const { values } = parsed;
  if (values.help) return 'help';
  if (values.devices === undefined) throw new UsageError('falta --devices N (cuántos dispositivos sembrar) / --devices N is required');
  const raw = values.devices.replace(/_/g, '');
  const devices = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(devices) || devices < 1 || devices > MAX_DEVICES) {
    throw new UsageError(
      `--devices: se esperaba un entero de 1 a ${MAX_DEVICES} (valor: ${JSON.stringify(values.devices)}) / expected an integer from 1 to ${MAX_DEVICES}`,
    );
  }
  const url = values['database-url'];
  if (url !== undefined && !/^postgres(ql)?:\/\//.test(url)) {
    throw new UsageError(`--database-url: debe empezar con postgres:// o postgresql:// (valor: ${JSON.stringify(maskUrlPasswords(url))})`);
  }
  return { devices, databaseUrl: url, append: values.append };
}

const int = new Intl.NumberFormat('es-MX');
const duration = (s: number) => (s < 60 ? `${Math.round(s)} s` : `${Math.floor(s / 60)} min ${String(Math.round(s % 60)).padStart(2, '0')} s`);

/** Progress on stderr: one line rewritten in place on a terminal, a line every 10 % otherwise. */
function progressBar(stream: NodeJS.WriteStream = process.stderr) {
  const started = performance.now();
  const tty = stream.isTTY === true;
  let lastTenth = -1;
  let lastDraw = 0;
  return {
    update(done: number, total: number) {
      const now = performance.now();
      const seconds = (now - started) / 1000;
      const rate = seconds > 0 ? done / seconds : 0;
      const share = total > 0 ? done / total : 1;
      const eta = rate > 0 && done < total ? ` · ETA ${duration((total - done) / rate)}` : '';
      const text = `${int.format(done)} / ${int.format(total)} dispositivos · ${(share * 100).toFixed(1)} % · ${int.format(Math.round(rate))}/s${eta}`;
      if (tty) {
        if (now - lastDraw < 100 && done < total) return;
        lastDraw = now;
        const width = 24;
        const filled = Math.round(share * width);
        stream.write(`\r\x1b[2K[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${text}`);
        if (done >= total) stream.write('\n');
      } else {
        const tenth = Math.floor(share * 10);
        if (tenth === lastTenth) return;
        lastTenth = tenth;
        stream.write(`${text}\n`);
      }
    },
  };
}

/** Whether `devices` exists and has rows, asked before anything is written. */
async function existingDevices(db: Db): Promise<number> {
  const table = await db.query<{ t: string | null }>(`SELECT to_regclass('devices')::text AS t`);
  return table.rows[0]!.t ? countDevices(db) : 0;
}

async function main(): Promise<number> {
  let args;
  try {
    args = parseCli(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`seed: ${err.message}\n\n${USAGE}\n`);
    return 2;
  }
  if (args === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const pkg = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  let config;
  try {
    config = loadConfig({ ...process.env, ...(args.databaseUrl ? { DATABASE_URL: args.databaseUrl } : {}) }, pkg.version);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`seed: ${err.message}\n`);
    return 1;
  }
  const where = config.database.url ? `PostgreSQL ${maskUrlPasswords(config.database.url)}` : `PGlite en ${config.database.dataDir}`;
  const db = await createDb(config.database);
  try {
    // Refused before anything is written, migrations included (checked again inside the seed's lock).
    const existing = await existingDevices(db);
    if (existing > 0 && !args.append) throw new FleetNotEmptyError(existing);

    process.stderr.write(`seed: ${where}\n`);
    const applied = await migrate(db, migrations);
    if (applied.length) process.stderr.write(`seed: ${applied.length} migraciones aplicadas\n`);
    const logger = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel);
    const boot = await withAdvisoryLock(db, ADVISORY_LOCKS.firstStart, async () => {
      const runtime = await createIdentity(config, db, logger);
      return bootstrap(db, config, runtime.identity);
    });
    // The first start's credentials, now (a seed that fails later must not lose them).
    if (boot.created) process.stdout.write(bootstrapBanner(boot, `http://localhost:${config.port}`));

    const started = performance.now();
    const bar = progressBar();
    let indexStart = 0;
    const result = await seedFleet(db, {
      count: args.devices,
      append: args.append,
      onProgress: (done, total) => bar.update(done, total),
      onIndexes: (n) => {
        indexStart = performance.now();
        process.stderr.write(`seed: construyendo ${n} índices…\n`);
      },
    });
    const seedSeconds = (performance.now() - started) / 1000;
    const indexSeconds = indexStart ? (performance.now() - indexStart) / 1000 : 0;

    // The planner's statistics and the visibility map, as autovacuum would set them some time later.
    process.stderr.write('seed: VACUUM ANALYZE…\n');
    const vacuumStart = performance.now();
    await settleAfterSeed(db);
    const vacuumSeconds = (performance.now() - vacuumStart) / 1000;

    const mismatches = await fleetCounterMismatches(db);
    if (mismatches.length) {
      process.stderr.write(`seed: los contadores del dashboard no coinciden con los dispositivos: ${JSON.stringify(mismatches)}\n`);
      return 1;
    }
    const total = await countDevices(db);
    process.stdout.write(
      `${int.format(result.devices)} dispositivos sembrados en ${duration(seedSeconds)} (${int.format(Math.round(result.devices / seedSeconds))}/s), ` +
        `${indexSeconds ? `índices ${duration(indexSeconds)} incluidos; ` : ''}VACUUM ANALYZE ${duration(vacuumSeconds)}; ` +
        `${int.format(total)} en total. Contadores del dashboard verificados.\n` +
        `${int.format(result.devices)} devices seeded; ${int.format(total)} in total.\n`,
    );
    return 0;
  } catch (err) {
    if (err instanceof FleetNotEmptyError) {
      process.stderr.write(`seed: ${err.message}\n`);
      return 1;
    }
    throw err;
  } finally {
    await db.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`seed: falló / failed: ${maskUrlPasswords(err instanceof Error ? (err.stack ?? err.message) : String(err))}\n`);
    process.exit(1);
  },
);
