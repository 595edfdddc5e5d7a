import { DEVICE_ACTION } from '../../../shared/constants/deviceActions';
import type { PendingCommand } from '../../../shared/contracts/devices';
import type { Job } from '../../../shared/contracts/jobs';
import { commandsInFlight, devicePollingInterval, isInFlight, jobPollingInterval } from './inFlight';
import { RELEASE_CANCEL_HOURS } from '../../../shared/constants/limits';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const MIN = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** A command requested `ago` ms before NOW, deliverable `deliverIn` ms after its request. */
function pending(ago: number, deliverIn = 0, over: Partial<PendingCommand> = {}): PendingCommand {
  const requestedAt = NOW - ago;
  return {
    id: 1,
    action: DEVICE_ACTION.LOCK,
    requestedAt: iso(requestedAt),
    requestedBy: 'ana@demo.local',
    deliverAfter: iso(requestedAt + deliverIn),
    payload: { lockType: 'PorCredito' },
    deliveredAt: null,
    ...over,
  };
}

describe('isInFlight', () => {
  test('a command due and requested less than 10 minutes ago is in flight, delivered or not', () => {
    expect(isInFlight(pending(5_000), NOW)).toBe(true);
    expect(isInFlight(pending(9 * MIN + 59_000), NOW)).toBe(true);
    expect(isInFlight(pending(2 * MIN, 0, { deliveredAt: iso(NOW - MIN) }), NOW)).toBe(true);
  });

  test('10 minutes after the request it no longer counts', () => {
    expect(isInFlight(pending(10 * MIN), NOW)).toBe(false);
    expect(isInFlight(pending(3 * 60 * MIN), NOW)).toBe(false);
  });

  test('a RELEASE inside its cancellation window does not count; once due (and recent) it would', () => {
    const release = pending(MIN, RELEASE_CANCEL_HOURS * 60 * MIN, { action: DEVICE_ACTION.RELEASE });
    expect(isInFlight(release, NOW)).toBe(false);
    expect(isInFlight(pending(2 * MIN, MIN, { action: DEVICE_ACTION.RELEASE }), NOW)).toBe(true);
    expect(isInFlight(pending(2 * MIN, 5 * MIN, { action: DEVICE_ACTION.RELEASE }), NOW)).toBe(false);
  });

  test("'Entregar ahora' makes a release due at the server's now, ahead of a lagging page clock: in flight", () => {
    // Requested 5 minutes ago for 48 h later; delivered now by the server, 25 s after the page's last tick.
    const delivered = pending(5 * MIN, 5 * MIN + 25_000, { action: DEVICE_ACTION.RELEASE });
    expect(isInFlight(delivered, NOW)).toBe(true);
  });

  test('a command requested "after" a lagging browser clock is due at once (deliverAfter = its request time)', () => {
    // Requested 20 s after the last tick of the page's clock (or on a server clock ahead of it).
    expect(isInFlight(pending(-20_000), NOW)).toBe(true);
    expect(isInFlight(pending(-20_000, 1_000), NOW)).toBe(true);
    // Beyond the clock's margin it waits.
    expect(isInFlight(pending(-20_000, 3 * MIN), NOW)).toBe(false);
  });

  test('no command, no clock (server rendering) or unreadable dates: not in flight', () => {
    expect(isInFlight(null, NOW)).toBe(false);
    expect(isInFlight(undefined, NOW)).toBe(false);
    expect(isInFlight(pending(5_000), null)).toBe(false);
    expect(isInFlight(pending(5_000, 0, { requestedAt: 'nope' }), NOW)).toBe(false);
  });
});

test('devicePollingInterval: 1000 ms while any row has a command in flight, else 0', () => {
  const idle = { pendingCommand: null };
  const old = { pendingCommand: pending(11 * MIN) };
  const release = { pendingCommand: pending(MIN, RELEASE_CANCEL_HOURS * 60 * MIN, { action: DEVICE_ACTION.RELEASE }) };
  const live = { pendingCommand: pending(30_000) };
  expect(devicePollingInterval([], NOW)).toBe(0);
  expect(devicePollingInterval([idle, old, release], NOW)).toBe(0);
  expect(devicePollingInterval([idle, old, release, live], NOW)).toBe(1000);
  expect(devicePollingInterval([live], null)).toBe(0);
});

describe('the job view', () => {
  const commands = (waiting: number, delivered: number): Job['commands'] => ({ waiting, delivered, acknowledged: 4, rejected: 1, cancelled: 2 });

  test('commandsInFlight counts the waiting and the received-but-unanswered ones', () => {
    expect(commandsInFlight({ commands: commands(3, 2) })).toBe(5);
    expect(commandsInFlight({ commands: commands(0, 0) })).toBe(0);
    expect(commandsInFlight({ commands: null })).toBe(0);
  });

  test('jobPollingInterval: 1 s until finished; then 2 s while commands are on their way and followed; else 0', () => {
    expect(jobPollingInterval(undefined, true)).toBe(1000);
    expect(jobPollingInterval({ status: 'queued', commands: null }, true)).toBe(1000);
    expect(jobPollingInterval({ status: 'running', commands: commands(5, 0) }, false)).toBe(1000);
    expect(jobPollingInterval({ status: 'completed', commands: commands(1, 0) }, true)).toBe(2000);
    expect(jobPollingInterval({ status: 'completed', commands: commands(0, 1) }, true)).toBe(2000);
    expect(jobPollingInterval({ status: 'failed', commands: commands(2, 0) }, true)).toBe(2000);
    expect(jobPollingInterval({ status: 'completed', commands: commands(0, 0) }, true)).toBe(0);
    expect(jobPollingInterval({ status: 'completed', commands: null }, true)).toBe(0);
    // 'Dejar de seguir los comandos' stops it.
    expect(jobPollingInterval({ status: 'completed', commands: commands(3, 2) }, false)).toBe(0);
  });
});
