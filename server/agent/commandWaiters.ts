/**
 * Check-ins waiting for a command (long polls). A command an agent may receive is announced by
 * the database at commit (trigger agent_commands_notify of migration 0010: NOTIFY agent_commands
 * with the device ids), so a waiting check-in wakes on whichever replica holds it: PostgreSQL
 * delivers the notification to every listening connection, PGlite in-process. A wake only means
 * "look again": the waiter re-reads the commands, so a notification for another database schema,
 * a duplicate or a missed one (the listening connection was lost: every waiter is woken) is harmless.
 */
import type { Db } from '../db/Db';

export const AGENT_COMMANDS_CHANNEL = 'agent_commands';

type Wake = () => void;

export class CommandWaiters {
  private readonly waiting = new Map<number, Set<Wake>>();
  private open = 0;
  private listening: Promise<() => Promise<void>> | undefined;
  private stopped = false;

  /** Stopping (shutdown): waits end at once, so a long poll answers now instead of looping. */
  get isStopped(): boolean {
    return this.stopped;
  }

  constructor(private readonly db: Db) {}

  /** Long polls open now (the /metrics gauge). */
  get size(): number {
    return this.open;
  }

  /** Subscribes to the channel once (the first wait); later calls reuse it. */
  private ensureListening(): Promise<unknown> {
    this.listening ??= this.db.listen(
      AGENT_COMMANDS_CHANNEL,
      (payload) => {
        for (const id of payload.split(',')) this.wake(Number(id));
      },
      () => this.wakeAll(),
    );
    return this.listening;
  }

  /** Listening starts before the first check-in is read, so no command created in between is missed. */
  async ready(): Promise<void> {
    if (!this.stopped) await this.ensureListening();
  }

  private wake(deviceId: number): void {
    const set = this.waiting.get(deviceId);
    if (!set) return;
    this.waiting.delete(deviceId);
    for (const w of set) w();
  }

  private wakeAll(): void {
    const all = [...this.waiting.values()];
    this.waiting.clear();
    for (const set of all) for (const w of set) w();
  }

  /**
   * Starts waiting for the device now: `done` resolves when a command for it may have arrived,
   * after `ms`, or when `signal` aborts (the agent hung up, the server is stopping), whichever
   * comes first. Arm first, then look at the commands, then await `done` (or `cancel` when
   * something was found): a command created in between is never missed.
   */
  arm(deviceId: number, ms: number, signal?: AbortSignal): { done: Promise<void>; cancel: () => void } {
    if (this.stopped || signal?.aborted || ms <= 0) return { done: Promise.resolve(), cancel: () => undefined };
    let finish: () => void = () => undefined;
    const done = new Promise<void>((resolve) => {
      let set = this.waiting.get(deviceId);
      if (!set) this.waiting.set(deviceId, (set = new Set()));
      this.open++;
      let settled = false;
      finish = () => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', finish);
        const current = this.waiting.get(deviceId);
        if (current?.delete(finish) && current.size === 0) this.waiting.delete(deviceId);
        this.open--;
        resolve();
      };
      const timer = setTimeout(finish, ms);
      signal?.addEventListener('abort', finish, { once: true });
      set.add(finish);
    });
    return { done, cancel: () => finish() };
  }

  /** `arm` and await it. */
  wait(deviceId: number, ms: number, signal?: AbortSignal): Promise<void> {
    return this.arm(deviceId, ms, signal).done;
  }

  /** Wakes every waiter and stops listening (shutdown). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wakeAll();
    const unlisten = await this.listening?.catch(() => undefined);
    this.listening = undefined;
    await unlisten?.();
  }
}
