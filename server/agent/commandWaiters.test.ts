import type { Db } from '../db/Db';
import { AGENT_COMMANDS_CHANNEL, CommandWaiters } from './commandWaiters';

/** A database whose notifications the test sends by hand. */
function fakeDb() {
  const state: { channel?: string; notify?: (payload: string) => void; gap?: () => void; unlistened: boolean } = { unlistened: false };
  const db = {
    listen: (channel: string, onPayload: (p: string) => void, onGap?: () => void) => {
      state.channel = channel;
      state.notify = onPayload;
      state.gap = onGap;
      return Promise.resolve(async () => {
        state.unlistened = true;
      });
    },
  } as unknown as Db;
  return { db, state };
}

const settled = async (p: Promise<unknown>): Promise<boolean> => {
  let done = false;
  void p.then(() => (done = true));
  await new Promise((r) => setImmediate(r));
  return done;
};

describe('CommandWaiters', () => {
  test('a notification naming the device wakes its waiters only; others keep waiting', async () => {
    const { db, state } = fakeDb();
    const w = new CommandWaiters(db);
    await w.ready();
    expect(state.channel).toBe(AGENT_COMMANDS_CHANNEL);
    const seven = w.arm(7, 60_000);
    const eight = w.arm(8, 60_000);
    expect(w.size).toBe(2);
    state.notify!('3,7,12');
    expect(await settled(seven.done)).toBe(true);
    expect(await settled(eight.done)).toBe(false);
    expect(w.size).toBe(1);
    eight.cancel();
    expect(await settled(eight.done)).toBe(true);
    expect(w.size).toBe(0);
  });

  test('a wait ends at its timeout or when its signal aborts', async () => {
    const { db } = fakeDb();
    const w = new CommandWaiters(db);
    await w.ready();
    const short = w.arm(1, 20);
    expect(await settled(short.done)).toBe(false);
    await short.done;
    const hangUp = new AbortController();
    const long = w.arm(2, 60_000, hangUp.signal);
    hangUp.abort();
    expect(await settled(long.done)).toBe(true);
    expect(w.size).toBe(0);
  });

  test('a gap in the notifications (lost connection) wakes every waiter; stop wakes them and unlistens', async () => {
    const { db, state } = fakeDb();
    const w = new CommandWaiters(db);
    await w.ready();
    const a = w.arm(1, 60_000);
    const b = w.arm(2, 60_000);
    state.gap!();
    expect(await settled(Promise.all([a.done, b.done]))).toBe(true);
    const c = w.arm(3, 60_000);
    await w.stop();
    expect(await settled(c.done)).toBe(true);
    expect(state.unlistened).toBe(true);
    // Once stopped, a wait returns at once.
    expect(await settled(w.wait(4, 60_000))).toBe(true);
  });
});
