/** `npm run dev`: rebuild client and server on every change and restart the server. */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { BUILD_STAMP, DIST, build, clientOptions, publicOptions, serverOptions, writeManifest } from './build';
import { applyDemoDefaults } from '../server/demoEnv';

/** The server's environment in development: the demo's settings (its in-process agents, local webhooks) where unset. */
function devEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { SHUTDOWN_DELAY_MS: '0', ...process.env };
  applyDemoDefaults(env);
  return env;
}

await build();

let child: ChildProcess | undefined;
let restarting = false;

function startServer() {
  child = spawn(process.execPath, ['--enable-source-maps', path.join(DIST, 'server.js')], {
    stdio: 'inherit',
    env: devEnv(),
  });
}

async function restart() {
  if (restarting) return;
  restarting = true;
  const old = child;
  if (old && old.exitCode === null) {
    await new Promise((r) => {
      old.once('exit', r);
      old.kill('SIGTERM');
    });
  }
  startServer();
  restarting = false;
}

const onEnd = (what: string, after?: (result: esbuild.BuildResult) => void): esbuild.Plugin => ({
  name: `dev-${what}`,
  setup(b) {
    let first = true;
    b.onEnd((result) => {
      if (first) {
        first = false;
        return;
      }
      if (result.errors.length) return;
      after?.(result);
      fs.writeFileSync(BUILD_STAMP, `${JSON.stringify({ dev: true, builtAt: new Date().toISOString() })}\n`);
      console.log(`dev: ${what} recompilado, reiniciando el servidor`);
      void restart();
    });
  },
});

// The manifest comes from both client builds: each rebuild writes it with the other's last metafile.
const readMeta = (file: string) => JSON.parse(fs.readFileSync(path.join(DIST, file), 'utf8')) as esbuild.Metafile;
const metafiles = { app: readMeta('metafile.json'), pub: readMeta('metafile.public.json') };
const client = await esbuild.context({
  ...clientOptions,
  plugins: [onEnd('cliente', (r) => writeManifest((metafiles.app = r.metafile!), metafiles.pub))],
});
const publicPages = await esbuild.context({
  ...publicOptions,
  plugins: [onEnd('páginas públicas', (r) => writeManifest(metafiles.app, (metafiles.pub = r.metafile!)))],
});
const server = await esbuild.context({ ...serverOptions, plugins: [onEnd('servidor')] });
await Promise.all([client.watch(), publicPages.watch(), server.watch()]);
startServer();

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    void Promise.all([client.dispose(), publicPages.dispose(), server.dispose()]).then(() => {
      child?.kill(signal);
      process.exit(0);
    });
  });
}
