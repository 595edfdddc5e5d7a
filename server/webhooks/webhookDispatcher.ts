/**
 * Sends the outbox's deliveries (migration 0015: the triggers write an event and its deliveries
 * in the transaction of each change, and notify `webhook_deliveries` at commit).
 *
 * A loop claims due deliveries (WebhooksRepository.claim: one statement, SKIP LOCKED, a claim
 * that outlives an attempt) and sends up to `concurrency` at once. Several replicas share the
 * work and never send the same delivery at once; a device's (or a job's) events go out in order,
 * each one only after the previous one was delivered or gave up. A process killed mid-send
 * leaves its claim to run out: the delivery is sent again (at least once; the lender drops
 * repeats by `webhook-id`, the same on every attempt).
 *
 * Woken by the notification (PostgreSQL: every replica's listening connection; PGlite:
 * in-process), by a send finishing (the next event of that device may go), and by a poll every
 * `pollMs` (retries falling due, a missed notification, a claim that ran out).
 *
 * Failures are retried with exponential backoff and jitter until WEBHOOK_RETRY_HOURS after the
 * event, then the delivery is 'failed'. A subscription failing for that long is disabled; its
 * pending deliveries wait for an administrator to enable it again.
 *
 * Housekeeping: every `pruneEveryMs` (10 min) one bounded batch of delivered/failed deliveries
 * older than 30 days is deleted, with the events left without deliveries.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { WEBHOOK_RETRY_HOURS } from '../../shared/constants/integration';
import type { Config } from '../config';
import type { Db } from '../db/Db';
import type { Logger } from '../logger';
import type { Lookup } from './outboundGuard';
import { sendWebhook, type SendResult } from './webhookSender';
import { messageId, signatureHeaders } from './webhookSigner';
import { eventPayload, WEBHOOK_DELIVERIES_CHANNEL, WebhooksRepository, type ClaimedDelivery } from './webhooksRepository';

/** The waits between attempts (the last one repeats): 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, 4 h. */
export const RETRY_DELAYS_MS = [5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 7_200_000, 14_400_000] as const;
/** Each wait is moved by up to this fraction either way, so failing deliveries do not retry in step. */
export const RETRY_JITTER = 0.2;
/** A claim lasts one attempt's timeout plus this (writing the outcome, a slow event loop). */
export const CLAIM_MARGIN_MS = 5_000;
export const POLL_MS = 1_000;
export const PRUNE_EVERY_MS = 10 * 60_000;
export const PRUNE_AFTER_DAYS = 30;
const PRUNE_BATCH = 1_000;

/**
 * When the attempt after `attempts` failed ones is due: the backoff step with jitter, never
 * later than WEBHOOK_RETRY_HOURS after the event (one last attempt then); null once that time
 * has passed (the delivery has failed).
 */
export function nextAttemptAt(attempts: number, occurredAt: Date, now: Date, random: () => number = Math.random): Date | null {
  const deadline = occurredAt.getTime() + WEBHOOK_RETRY_HOURS * 3_600_000;
  if (now.getTime() >= deadline) return null;
  const base = RETRY_DELAYS_MS[Math.min(Math.max(attempts, 1), RETRY_DELAYS_MS.length) - 1]!;
  const delay = Math.round(base * (1 + RETRY_JITTER * (2 * random() - 1)));
  return new Date(Math.min(now.getTime() + delay, deadline));
}

export interface DispatcherOptions {
  /** The clock (tests move it); `Date` by default. */
  now?: () => Date;
  /** This dispatcher's name in `claimed_by`. */
  runnerId?: string;
  pollMs?: number;
  claimMarginMs?: number;
  pruneEveryMs?: number;
  /** The resolver of the outbound guard (tests). */
  lookup?: Lookup;
  random?: () => number;
}

export class WebhookDispatcher {
  readonly runnerId: string;
  private readonly now: () => Date;
  private readonly pollMs: number;
  private readonly claimMs: number;
  private readonly pruneEveryMs: number;
  private running = false;
  private loop: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private listening: Promise<(() => Promise<void>) | undefined> | undefined;
  private wakeRequested = false;
  private waker: (() => void) | undefined;
  private readonly inFlight = new Set<Promise<void>>();
  private lastPrune = 0;

  constructor(
    readonly db: Db,
    readonly config: Config['webhooks'],
    readonly logger: Logger,
    private readonly opts: DispatcherOptions = {},
  ) {
    this.runnerId = opts.runnerId ?? `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    this.now = opts.now ?? (() => new Date());
    this.pollMs = opts.pollMs ?? POLL_MS;
    this.claimMs = config.timeoutMs + (opts.claimMarginMs ?? CLAIM_MARGIN_MS);
    this.pruneEveryMs = opts.pruneEveryMs ?? PRUNE_EVERY_MS;
  }

  /** Sends being made now. */
  get sending(): number {
    return this.inFlight.size;
  }

  /** Starts the loop, the poll and the listener (a no-op when started). */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.listening = this.db
      .listen(
        WEBHOOK_DELIVERIES_CHANNEL,
        () => this.kick(),
        () => this.kick(),
      )
      .catch((err: unknown) => {
        // The poll still finds the work.
        this.logger.warn({ err }, 'webhooks: cannot listen for new deliveries; polling only');
        return undefined;
      });
    this.timer = setInterval(() => this.kick(), this.pollMs);
    this.timer.unref();
    this.loop = this.run();
  }

  /** Looks for due deliveries now. */
  kick(): void {
    this.wakeRequested = true;
    this.waker?.();
  }

  /** Stops claiming, waits for the sends in flight (each bounded by the timeout) and stops listening. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    clearInterval(this.timer);
    this.timer = undefined;
    this.waker?.();
    await this.loop;
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
    const unlisten = await this.listening;
    this.listening = undefined;
    await unlisten?.().catch(() => undefined);
  }

  /** Resolves once nothing is being sent and nothing is due now (tests). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  private async run(): Promise<void> {
    while (this.running) {
      this.wakeRequested = false;
      const free = this.config.concurrency - this.inFlight.size;
      let claimed: ClaimedDelivery[] = [];
      // Claims in batches: with sends in flight, only once half the slots are free (one claim
      // per finished send would cost a statement each).
      if (free > 0 && (this.inFlight.size === 0 || free * 2 >= this.config.concurrency)) {
        try {
          claimed = await new WebhooksRepository(this.db).claim(this.runnerId, this.now(), this.claimMs, free);
        } catch (err) {
          // The database is unavailable or closing: the next poll tries again.
          if (this.running) this.logger.warn({ err }, 'webhooks: claiming deliveries failed');
        }
        for (const d of claimed) this.track(this.deliver(d));
      }
      await this.maybePrune();
      // A full batch: more may be due at once.
      if (this.running && free > 0 && claimed.length === free) continue;
      if (!this.running || this.wakeRequested) continue;
      await new Promise<void>((resolve) => {
        this.waker = resolve;
      });
      this.waker = undefined;
    }
  }

  private track(send: Promise<void>): void {
    const tracked = send.finally(() => {
      this.inFlight.delete(tracked);
      // A slot is free, and the next event of the same device may be due.
      this.kick();
    });
    this.inFlight.add(tracked);
  }

  /** One attempt of a claimed delivery and its outcome in the log. */
  private async deliver(d: ClaimedDelivery): Promise<void> {
    const body = JSON.stringify(eventPayload(d.type, d.occurredAt, d.data));
    const msgId = messageId(d.eventId);
    let result: SendResult;
    try {
      result = await sendWebhook({
        url: d.url,
        body,
        headers: signatureHeaders(d.secret, msgId, new Date(), body),
        timeoutMs: this.config.timeoutMs,
        maxResponseBytes: this.config.maxResponseBytes,
        allowPrivateTargets: this.config.allowPrivateTargets,
        lookup: this.opts.lookup,
      });
    } catch (err) {
      result = { ok: false, status: null, durationMs: 0, error: `Error interno: ${(err as Error).message}` };
    }
    const now = this.now();
    const attempt = { status: result.status, durationMs: result.durationMs, error: result.error };
    const host = safeHost(d.url);
    try {
      if (result.ok) {
        await new WebhooksRepository(this.db).delivered(d, this.runnerId, now, attempt);
        return;
      }
      const next = nextAttemptAt(d.attempts + 1, d.occurredAt, now, this.opts.random);
      const { disabled } = await this.db.transaction((tx) => new WebhooksRepository(tx).failed(d, this.runnerId, now, attempt, next));
      this.logger.warn(
        {
          deliveryId: d.id,
          eventId: d.eventId,
          subscriptionId: d.subscriptionId,
          type: d.type,
          host,
          attempts: d.attempts + 1,
          responseStatus: result.status,
          durationMs: result.durationMs,
          error: result.error,
          nextAttemptAt: next?.toISOString() ?? null,
        },
        next ? 'webhook delivery failed: will retry' : `webhook delivery failed: gave up after ${WEBHOOK_RETRY_HOURS} h`,
      );
      if (disabled) {
        this.logger.warn({ subscriptionId: d.subscriptionId, host }, `webhook subscription disabled: failing for ${WEBHOOK_RETRY_HOURS} h`);
      }
    } catch (err) {
      // The outcome could not be written: the claim runs out and the delivery is sent again.
      this.logger.warn({ err, deliveryId: d.id }, 'webhooks: recording a delivery attempt failed');
    }
  }

  private async maybePrune(): Promise<void> {
    const now = this.now();
    if (!this.running || now.getTime() - this.lastPrune < this.pruneEveryMs) return;
    this.lastPrune = now.getTime();
    try {
      const n = await this.db.transaction((tx) => new WebhooksRepository(tx).prune(now, PRUNE_AFTER_DAYS, PRUNE_BATCH));
      if (n > 0) this.logger.info({ deleted: n }, `webhooks: ${n} old deliveries pruned`);
    } catch (err) {
      this.logger.warn({ err }, 'webhooks: pruning old deliveries failed');
    }
  }
}

/** The host of a URL for the logs (never its path or query, which may carry the lender's token). */
function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}
