import { type ChildProcess, spawn } from 'node:child_process';
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

/**
 * Starts `node dist/server.js` from `cwd` on a free port (PORT=0) and waits until it logs
 * that it listens. The environment is minimal and explicit: nothing leaks in from the shell.
 */
export async function spawnServer(opts: { cwd: string; env: Record<string, string>; timeoutMs?: number }): Promise<RunningServer> {
  const proc = spawn(process.execPath, [path.join('dist', 'server.js')], {
    cwd: opts.cwd,
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));

  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`el servidor no inició a tiempo:\n${out}`)), opts.timeoutMs ?? 60_000);
    const look = () => {
      const m = out.match(/"port":(\d+)[^\n]*portal listening/);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    };
    proc.stdout!.on('data', look);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`el servidor terminó (código ${code}) antes de escuchar:\n${out}`));
    });
  });
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
