/** What `npm run simulate` shows: the live line (statuses, commands/s, errors, a progress bar) and the final JSON. */
import { deviceStatusLabel } from '../../shared/constants/domain';
import type { FleetSnapshot, FleetSummary } from './fleet';
import { CLI_TEXT } from './labels';

/** A bar of `width` cells filled by `fraction` (0–1). */
export function progressBar(fraction: number, width = 20): string {
  const f = Math.max(0, Math.min(1, Number.isFinite(fraction) ? fraction : 0));
  const full = Math.round(f * width);
  return `[${'#'.repeat(full)}${'-'.repeat(width - full)}]`;
}

/** mm:ss (h:mm:ss past an hour). */
export function formatElapsed(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const two = (n: number) => String(n).padStart(2, '0');
  const h = Math.floor(s / 3600);
  return h > 0 ? `${h}:${two(Math.floor((s % 3600) / 60))}:${two(s % 60)}` : `${two(Math.floor(s / 60))}:${two(s % 60)}`;
}

/** 'Activo 120 · Bloqueado 30 · Sin respuesta 2' (most first, as the snapshot orders them). */
export function formatStatuses(byStatus: FleetSnapshot['byStatus'], unknown = 0): string {
  const parts = byStatus.map(({ status, count }) => `${deviceStatusLabel(status) ?? String(status)} ${count}`);
  if (unknown > 0) parts.push(`${CLI_TEXT.unknownStatus} ${unknown}`);
  return parts.join(' · ');
}

/** The live line: progress of `durationMs`, devices per status, commands/s, errors; cut to `columns`. */
export function formatLine(s: FleetSnapshot, runMs: number, durationMs: number, columns = Infinity): string {
  const line = CLI_TEXT.line({
    bar: progressBar(durationMs > 0 ? runMs / durationMs : 1),
    elapsed: `${formatElapsed(runMs)}/${formatElapsed(durationMs)}`,
    statuses: formatStatuses(s.byStatus, s.unknown),
    rate: s.commandsPerSecond.toFixed(1),
    errors: s.errors,
  });
  return line.length > columns ? `${line.slice(0, Math.max(0, columns - 1))}…` : line;
}

/** The --json summary: every device with its last status, the totals, the duration. */
export function jsonSummary(s: FleetSummary) {
  return {
    devices: s.devices.map((d) => ({ imei: d.imei, status: d.status })),
    refusals: s.refusals,
    acknowledged: s.acknowledged,
    rejected: s.rejected,
    checkins: s.checkins,
    errors: s.errors,
    rateLimited: s.rateLimited,
    durationMs: s.durationMs,
    statusesSeen: s.statusesSeen,
  };
}

/** The closing lines on stderr: totals, devices per status, roles that fell short. */
export function summaryLines(s: FleetSummary): string[] {
  const counts = new Map<number, number>();
  let unknown = 0;
  for (const d of s.devices) {
    if (d.status === null) unknown++;
    else counts.set(d.status, (counts.get(d.status) ?? 0) + 1);
  }
  const byStatus = [...counts].sort(([a, x], [b, y]) => y - x || a - b).map(([status, count]) => ({ status, count }));
  const lines = [
    CLI_TEXT.summaryTitle,
    `  ${formatStatuses(byStatus, unknown)}`,
    `  ${CLI_TEXT.totals({ checkins: s.checkins, acknowledged: s.acknowledged, rejected: s.rejected, errors: s.errors })}`,
  ];
  for (const r of s.refusals) lines.push(`  ${CLI_TEXT.refused(r)}`);
  const short = s.roles.filter((r) => r.incomplete !== null);
  if (short.length > 0) lines.push(`  ${CLI_TEXT.rolesShort(short.length, s.roles.length, `${short[0]!.role}: ${short[0]!.incomplete}`)}`);
  lines.push(`  ${CLI_TEXT.offlineNote(null)}`);
  return lines;
}
