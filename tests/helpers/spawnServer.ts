import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

export interface RunningServer {
  proc: ChildProcess;
  port: number;
  url: string;
  /** Everything the process printed so far. */
  output(): string;
  /** Resolves with the exit code once the process ends. */
  exited: Promise<number | null>;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/** A TCP port nobody listens on right now. */
export async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as net.AddressInfo;
  await new Promise((r) => srv.close(r));
  return port;
}

/**
 * Starts `node dist/server.js` from `cwd` on a free port and waits until `/healthz` answers.
 * The environment is minimal and explicit: nothing leaks in from the shell. `nodeArgs` go to
 * Node, `args` to the server (`--demo`: as `npm start` runs it).
 */
export async function spawnServer(opts: {
  cwd: string;
  env: Record<string, string>;
  nodeArgs?: string[];
  args?: string[];
  timeoutMs?: number;
}): Promise<RunningServer> {
  const port = await freePort();
  const proc = spawn(process.execPath, [...(opts.nodeArgs ?? []), path.join('dist', 'server.js'), ...(opts.args ?? [])], {
    cwd: opts.cwd,
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: String(port), ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));

  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  for (;;) {
    if (proc.exitCode !== null) {
      throw new Error(`el servidor terminó (código ${proc.exitCode}) antes de escuchar:\n${out}`);
    }
    if (Date.now() > deadline) {
      proc.kill('SIGKILL');
      throw new Error(`el servidor no inició a tiempo:\n${out}`);
    }
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    proc,
    port,
    url: `http://127.0.0.1:${port}`,
    output: () => out,
    exited,
    stop() {
      if (proc.exitCode === null) proc.kill('SIGTERM');
      return exited;
    },
  };
}
