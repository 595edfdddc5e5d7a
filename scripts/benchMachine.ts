/**
 * What every benchmark prints about the machine it ran on. The machines are shared and their
 * speed drifts (the same loop has taken from 0.54 to 1.58 s on one of them, within one run), so each
 * run also times a fixed loop at its start and end: figures from runs far apart, or from two
 * machines, compare only with that in view.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';

/** Milliseconds one core takes for a fixed integer loop (3 × 10^8 additions): a speed gauge. */
export function cpuGauge(): number {
  const start = performance.now();
  let x = 0;
  for (let i = 0; i < 3e8; i++) x += i % 7;
  if (x < 0) throw new Error('unreachable');
  return Math.round(performance.now() - start);
}

/**
 * The kernel's file cache (Buffers + Cached of /proc/meminfo), where the database's files are
 * read from when they are not in its own buffers: a machine whose cache holds 1 GB reads a 10^6
 * fleet's indexes from disk, one that holds 10 GB does not, and every figure moves with it.
 * Empty where /proc/meminfo is not there.
 */
export function fileCache(): string {
  try {
    const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(readFileSync('/proc/meminfo', 'utf8'))?.[1] ?? 0);
    return `; file cache ${((kb('Buffers') + kb('Cached')) / 2 ** 20).toFixed(1)} GiB`;
  } catch {
    return '';
  }
}

/** "Measured <date> on <cpus>, <memory>, Node <v>[, <extra>]; speed gauge N ms; load average L; file cache C GiB." */
export function machineLine(extra?: string): string {
  return (
    `Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? 'cpu'} (nproc ${os.availableParallelism()}), ` +
    `${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}${extra ? `, ${extra}` : ''}; ` +
    `speed gauge at the start ${cpuGauge()} ms (scripts/benchMachine.ts); load average ${os.loadavg()[0]!.toFixed(1)}${fileCache()}.`
  );
}

/** The closing line: the gauge, the load and the file cache again, at the end of the run. */
export function machineEndLine(): string {
  return `At the end: speed gauge ${cpuGauge()} ms, load average ${os.loadavg()[0]!.toFixed(1)}${fileCache()}.`;
}
