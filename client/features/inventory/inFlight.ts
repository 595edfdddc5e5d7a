import type { PendingCommand } from '../../../shared/contracts/devices';
import type { Job } from '../../../shared/contracts/jobs';

/** How often a device (list page or detail) with a command in flight refreshes. */
export const LIVE_POLL_MS = 1000;
/** How often a finished job refreshes while its commands are still on their way to the devices. */
export const JOB_COMMANDS_POLL_MS = 2000;
/** How often a job refreshes while it runs. */
export const JOB_RUNNING_POLL_MS = 1000;
/** A command requested longer ago than this no longer keeps the page refreshing (the device is likely offline). */
export const IN_FLIGHT_MAX_AGE_MS = 10 * 60_000;
/**
 * How far ahead of the page's clock a delivery time still counts as now: useNow lags up to 30 s
 * and the browser's clock may differ from the server's. A release made deliverable by 'Entregar
 * ahora' carries the server's now, which must read as due, not as scheduled.
 */
export const CLOCK_MARGIN_MS = 2 * 60_000;

/**
 * Whether a device's pending command is on its way now: it may be delivered (its deliverAfter
 * has come, within CLOCK_MARGIN_MS; a RELEASE inside its cancellation window has not) and it was
 * requested less than 10 minutes ago. `now` is the browser's clock: a command whose deliverAfter
 * is its request time counts as due whatever the clock says.
 */
export function isInFlight(pending: Pick<PendingCommand, 'requestedAt' | 'deliverAfter'> | null | undefined, now: number | null): boolean {
  if (!pending || now === null) return false;
  const requestedAt = Date.parse(pending.requestedAt);
  const deliverAfter = Date.parse(pending.deliverAfter);
  if (Number.isNaN(requestedAt) || Number.isNaN(deliverAfter)) return false;
  const due = deliverAfter <= Math.max(now, requestedAt) + CLOCK_MARGIN_MS;
  return due && now - requestedAt < IN_FLIGHT_MAX_AGE_MS;
}

/** The polling interval of a device list page or a device detail: every second while a device has a command in flight, else none. */
export function devicePollingInterval(devices: readonly { pendingCommand: PendingCommand | null }[], now: number | null): number {
  return devices.some((d) => isInFlight(d.pendingCommand, now)) ? LIVE_POLL_MS : 0;
}

/** Commands of a job still on their way: not yet received by their device, or received and not yet answered. */
export function commandsInFlight(job: Pick<Job, 'commands'>): number {
  return job.commands ? job.commands.waiting + job.commands.delivered : 0;
}

/**
 * The polling interval of a bulk job: every second while it runs; once finished, every two
 * seconds while its commands are on their way and the user follows them (`following`), else none.
 */
export function jobPollingInterval(job: Pick<Job, 'status' | 'commands'> | undefined, following: boolean): number {
  if (!job || job.status === 'queued' || job.status === 'running') return JOB_RUNNING_POLL_MS;
  return following && commandsInFlight(job) > 0 ? JOB_COMMANDS_POLL_MS : 0;
}
