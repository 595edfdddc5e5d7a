import type { WebhookEventType } from '../../shared/constants/integration';
import { WEBHOOK_DISABLED_FAILING, WEBHOOK_RETRY_HOURS } from '../../shared/constants/integration';
import type { Webhook, WebhookBody, WebhookDelivery } from '../../shared/contracts/webhooks';
import type { Queryable } from '../db/Db';

/** The channel the fan-out trigger notifies (migration 0015), and a resend too. */
export const WEBHOOK_DELIVERIES_CHANNEL = 'webhook_deliveries';

interface SubscriptionRecord {
  id: number;
  name: string;
  url: string;
  events: WebhookEventType[];
  enabled: boolean;
  disabled_reason: string | null;
  disabled_at: Date | null;
  failing_since: Date | null;
  created_by: string;
  created_at: Date;
  updated_at: Date;
  pending: number | string;
  last_delivery_at: Date | null;
}

const iso = (d: Date | string | null): string | null => (d === null ? null : new Date(d).toISOString());

const toWebhook = (r: SubscriptionRecord): Webhook => ({
  id: r.id,
  name: r.name,
  url: r.url,
  events: r.events,
  enabled: r.enabled,
  disabledReason: r.disabled_reason,
  disabledAt: iso(r.disabled_at),
  failingSince: iso(r.failing_since),
  createdBy: r.created_by,
  createdAt: iso(r.created_at)!,
  updatedAt: iso(r.updated_at)!,
  pending: Number(r.pending),
  lastDeliveryAt: iso(r.last_delivery_at),
});

/** Subscriptions with their waiting deliveries and their last successful one (read from the partial and log indexes). */
const SELECT = `SELECT s.id, s.name, s.url, s.events, s.enabled, s.disabled_reason, s.disabled_at, s.failing_since, s.created_by,
                       s.created_at, s.updated_at,
                       (SELECT count(*) FROM webhook_deliveries d WHERE d.subscription_id = s.id AND d.status = 'pending') AS pending,
                       (SELECT d.delivered_at FROM webhook_deliveries d WHERE d.subscription_id = s.id AND d.status = 'delivered'
                         ORDER BY d.id DESC LIMIT 1) AS last_delivery_at
                  FROM webhook_subscriptions s`;

interface DeliveryRecord {
  id: number;
  event_id: number;
  type: WebhookEventType;
  occurred_at: Date;
  data: unknown;
  status: WebhookDelivery['status'];
  attempts: number;
  next_attempt_at: Date;
  last_attempt_at: Date | null;
  response_status: number | null;
  duration_ms: number | null;
  error: string | null;
  delivered_at: Date | null;
}

/** The JSON body every attempt of an event sends. */
export function eventPayload(type: string, occurredAt: Date | string, data: unknown): { type: string; timestamp: string; data: unknown } {
  return { type, timestamp: new Date(occurredAt).toISOString(), data };
}

const toDelivery = (r: DeliveryRecord): WebhookDelivery => ({
  id: Number(r.id),
  eventId: Number(r.event_id),
  eventType: r.type,
  occurredAt: iso(r.occurred_at)!,
  status: r.status,
  attempts: r.attempts,
  nextAttemptAt: r.status === 'pending' ? iso(r.next_attempt_at) : null,
  lastAttemptAt: iso(r.last_attempt_at),
  responseStatus: r.response_status,
  durationMs: r.duration_ms,
  error: r.error,
  deliveredAt: iso(r.delivered_at),
  payload: eventPayload(r.type, r.occurred_at, r.data),
});

const DELIVERY_SELECT = `SELECT d.id, d.event_id, e.type, e.occurred_at, e.data, d.status, d.attempts, d.next_attempt_at, d.last_attempt_at,
                                d.response_status, d.duration_ms, d.error, d.delivered_at
                           FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id`;

/** A delivery claimed by a dispatcher, with what sending it needs. */
export interface ClaimedDelivery {
  id: number;
  eventId: number;
  subscriptionId: number;
  orderKey: number;
  attempts: number;
  type: string;
  data: unknown;
  occurredAt: Date;
  url: string;
  secret: string;
}

/** The outcome of one attempt, as the delivery log keeps it. */
export interface AttemptRecord {
  status: number | null;
  durationMs: number;
  error: string | null;
}

/** All SQL of the webhooks: the subscriptions, their delivery log, and the dispatcher's claims. */
export class WebhooksRepository {
  constructor(private readonly db: Queryable) {}

  // The outbox ------------------------------------------------------------------------

  /**
   * Writes an event into the outbox, in the caller's transaction, when an enabled subscription
   * wants its type (the fan-out trigger adds its deliveries): the events that services emit
   * themselves, because their data is computed by the server (a credit's standing on the
   * company's date), not read from the changed row as the devices' triggers do.
   */
  async enqueue(type: WebhookEventType, orderKey: number, data: unknown, occurredAt: Date): Promise<void> {
    await this.enqueueEach([{ type, orderKey, data, occurredAt }]);
  }

  /** Events in the order given, in one statement (a batch of the collection policy's steps). */
  async enqueueEach(events: readonly { type: WebhookEventType; orderKey: number; data: unknown; occurredAt: Date }[]): Promise<void> {
    if (events.length === 0) return;
    await this.db.query(
      `INSERT INTO webhook_events (type, order_key, data, occurred_at)
       SELECT e.type, e.order_key, e.data, e.occurred_at
         FROM unnest($1::text[], $2::bigint[], $3::jsonb[], $4::timestamptz[]) WITH ORDINALITY AS e(type, order_key, data, occurred_at, n)
        WHERE webhook_wanted(e.type) ORDER BY e.n`,
      [events.map((e) => e.type), events.map((e) => e.orderKey), events.map((e) => JSON.stringify(e.data)), events.map((e) => e.occurredAt)],
    );
  }

  // The subscriptions (portal API) -------------------------------------------------------

  async list(): Promise<Webhook[]> {
    const res = await this.db.query<SubscriptionRecord>(`${SELECT} ORDER BY lower(s.name), s.id`);
    return res.rows.map(toWebhook);
  }

  async find(id: number): Promise<Webhook | undefined> {
    const res = await this.db.query<SubscriptionRecord>(`${SELECT} WHERE s.id = $1`, [id]);
    return res.rows[0] && toWebhook(res.rows[0]);
  }

  /** Locks the subscription row until the transaction ends. */
  async lock(id: number): Promise<boolean> {
    const res = await this.db.query('SELECT 1 FROM webhook_subscriptions WHERE id = $1 FOR UPDATE', [id]);
    return res.rowCount > 0;
  }

  async insert(body: WebhookBody, secret: string, creator: { adminId: number | null; name: string }): Promise<number> {
    const res = await this.db.query<{ id: number }>(
      `INSERT INTO webhook_subscriptions (name, url, events, secret, enabled, created_by_admin_id, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
      [body.name, body.url, body.events, secret, body.enabled, creator.adminId, creator.name],
    );
    return res.rows[0]!.id;
  }

  /** Name, URL, events and enabled; enabling clears why and since when the server had disabled it. */
  async update(id: number, body: WebhookBody): Promise<void> {
    await this.db.query(
      `UPDATE webhook_subscriptions
          SET name = $2, url = $3, events = $4, enabled = $5, updated_at = now(),
              disabled_reason = CASE WHEN $5 THEN NULL ELSE disabled_reason END,
              disabled_at = CASE WHEN $5 THEN NULL WHEN enabled THEN now() ELSE disabled_at END,
              failing_since = CASE WHEN $5 AND NOT enabled THEN NULL ELSE failing_since END
        WHERE id = $1`,
      [id, body.name, body.url, body.events, body.enabled],
    );
  }

  /** Deletes the subscription and its deliveries (cascade). */
  async delete(id: number): Promise<void> {
    await this.db.query('DELETE FROM webhook_subscriptions WHERE id = $1', [id]);
  }

  /** Wakes the dispatchers at commit (as the fan-out trigger does). */
  async notify(): Promise<void> {
    await this.db.query(`SELECT pg_notify('${WEBHOOK_DELIVERIES_CHANNEL}', '')`);
  }

  // The delivery log ---------------------------------------------------------------------

  async deliveries(subscriptionId: number, status: WebhookDelivery['status'] | undefined, page: { limit: number; offset: number }) {
    const res = await this.db.query<DeliveryRecord>(
      `${DELIVERY_SELECT} WHERE d.subscription_id = $1 AND ($2::text IS NULL OR d.status = $2) ORDER BY d.id DESC LIMIT $3 OFFSET $4`,
      [subscriptionId, status ?? null, page.limit, page.offset],
    );
    return res.rows.map(toDelivery);
  }

  async countDeliveries(subscriptionId: number, status: WebhookDelivery['status'] | undefined): Promise<number> {
    const res = await this.db.query<{ n: number }>(
      'SELECT count(*) AS n FROM webhook_deliveries d WHERE d.subscription_id = $1 AND ($2::text IS NULL OR d.status = $2)',
      [subscriptionId, status ?? null],
    );
    return Number(res.rows[0]!.n);
  }

  async findDelivery(subscriptionId: number, deliveryId: number): Promise<WebhookDelivery | undefined> {
    const res = await this.db.query<DeliveryRecord>(`${DELIVERY_SELECT} WHERE d.subscription_id = $1 AND d.id = $2`, [subscriptionId, deliveryId]);
    return res.rows[0] && toDelivery(res.rows[0]);
  }

  /**
   * 'Reenviar': the delivery waits again, due now, as one more attempt (its history stays). A
   * claim in flight is left alone: the dispatcher holding it writes its outcome, and the
   * delivery is sent again once that claim is over.
   */
  async resend(subscriptionId: number, deliveryId: number): Promise<boolean> {
    const res = await this.db.query(
      `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = now(), delivered_at = NULL
        WHERE subscription_id = $1 AND id = $2`,
      [subscriptionId, deliveryId],
    );
    return res.rowCount > 0;
  }

  // The dispatcher -----------------------------------------------------------------------

  /**
   * Claims up to `limit` due deliveries for `runner` until `now + claimMs`, in one statement:
   * pending, due, not claimed by a live claim, of an enabled subscription, and the first pending
   * one of its subscription and order key (a device's events go out in order). Rows another
   * dispatcher is claiming are skipped, never waited for. Oldest due first, read in the order of
   * the partial index webhook_deliveries_due (next_attempt_at, id), so a claim stops after `limit`
   * rows whatever the backlog (ORDER BY id alone sorted every due delivery at each claim).
   */
  async claim(runner: string, now: Date, claimMs: number, limit: number): Promise<ClaimedDelivery[]> {
    const res = await this.db.query<{
      id: number;
      event_id: number;
      subscription_id: number;
      order_key: number;
      attempts: number;
      type: string;
      data: unknown;
      occurred_at: Date;
      url: string;
      secret: string;
    }>(
      `WITH claimed AS (
         UPDATE webhook_deliveries
            SET claimed_until = $2::timestamptz + make_interval(secs => $3::float8 / 1000), claimed_by = $1
          WHERE id IN (
            SELECT d.id FROM webhook_deliveries d
              JOIN webhook_subscriptions s ON s.id = d.subscription_id AND s.enabled
             WHERE d.status = 'pending' AND d.next_attempt_at <= $2::timestamptz
               AND (d.claimed_until IS NULL OR d.claimed_until < $2::timestamptz)
               AND NOT EXISTS (SELECT 1 FROM webhook_deliveries p
                                WHERE p.subscription_id = d.subscription_id AND p.order_key = d.order_key
                                  AND p.status = 'pending' AND p.id < d.id)
             ORDER BY d.next_attempt_at, d.id
             LIMIT $4
               FOR UPDATE OF d SKIP LOCKED)
         RETURNING id, event_id, subscription_id, order_key, attempts)
       SELECT c.id, c.event_id, c.subscription_id, c.order_key, c.attempts, e.type, e.data, e.occurred_at, s.url, s.secret
         FROM claimed c
         JOIN webhook_events e ON e.id = c.event_id
         JOIN webhook_subscriptions s ON s.id = c.subscription_id
        ORDER BY c.id`,
      [runner, now, claimMs, limit],
    );
    return res.rows.map((r) => ({
      id: Number(r.id),
      eventId: Number(r.event_id),
      subscriptionId: r.subscription_id,
      orderKey: Number(r.order_key),
      attempts: r.attempts,
      type: r.type,
      data: r.data,
      occurredAt: new Date(r.occurred_at),
      url: r.url,
      secret: r.secret,
    }));
  }

  /**
   * A 2xx: delivered; the subscription is no longer failing. One statement (atomic without a
   * transaction: one round trip per delivery). False when the claim was no longer this runner's.
   */
  async delivered(d: ClaimedDelivery, runner: string, now: Date, attempt: AttemptRecord): Promise<boolean> {
    const res = await this.db.query<{ n: number }>(
      `WITH done AS (
         UPDATE webhook_deliveries
            SET status = 'delivered', attempts = attempts + 1, last_attempt_at = $3, delivered_at = $3, response_status = $4,
                duration_ms = $5, error = NULL, claimed_until = NULL
          WHERE id = $1 AND claimed_by = $2
         RETURNING subscription_id),
       cleared AS (
         UPDATE webhook_subscriptions SET failing_since = NULL
          WHERE id = (SELECT subscription_id FROM done) AND failing_since IS NOT NULL)
       SELECT count(*)::int AS n FROM done`,
      [d.id, runner, now, attempt.status, attempt.durationMs],
    );
    return Number(res.rows[0]!.n) > 0;
  }

  /**
   * A failed attempt: retried at `nextAttemptAt`, or 'failed' when null. The subscription is
   * failing since now unless it already was; failing for WEBHOOK_RETRY_HOURS disables it (its
   * pending deliveries wait for it to be enabled again). Returns whether it was disabled now.
   */
  async failed(d: ClaimedDelivery, runner: string, now: Date, attempt: AttemptRecord, nextAttemptAt: Date | null): Promise<{ disabled: boolean }> {
    await this.db.query(
      `UPDATE webhook_deliveries
          SET status = CASE WHEN $6::timestamptz IS NULL THEN 'failed' ELSE 'pending' END,
              attempts = attempts + 1, last_attempt_at = $3, response_status = $4, duration_ms = $5, error = $7,
              next_attempt_at = coalesce($6::timestamptz, next_attempt_at), claimed_until = NULL
        WHERE id = $1 AND claimed_by = $2`,
      [d.id, runner, now, attempt.status, attempt.durationMs, nextAttemptAt, attempt.error?.slice(0, 500) ?? null],
    );
    const res = await this.db.query<{ enabled: boolean }>(
      `UPDATE webhook_subscriptions
          SET failing_since = coalesce(failing_since, $2::timestamptz),
              enabled = CASE WHEN failing_since <= $2::timestamptz - make_interval(hours => $3) THEN false ELSE enabled END,
              disabled_reason = CASE WHEN enabled AND failing_since <= $2::timestamptz - make_interval(hours => $3) THEN $4 ELSE disabled_reason END,
              disabled_at = CASE WHEN enabled AND failing_since <= $2::timestamptz - make_interval(hours => $3) THEN $2::timestamptz ELSE disabled_at END
        WHERE id = $1
       RETURNING enabled, disabled_at = $2::timestamptz AS disabled_now`,
      [d.subscriptionId, now, WEBHOOK_RETRY_HOURS, WEBHOOK_DISABLED_FAILING],
    );
    const row = res.rows[0] as { enabled: boolean; disabled_now: boolean } | undefined;
    return { disabled: !!row && !row.enabled && row.disabled_now };
  }

  /**
   * Housekeeping in bounded batches: delivered and failed deliveries older than `days` among the
   * oldest `batch × 10` rows (an index walk from the start, never a scan of the log), and the
   * events they leave without any delivery. Returns the deliveries deleted.
   */
  async prune(now: Date, days: number, batch: number): Promise<number> {
    const gone = await this.db.query<{ event_id: number }>(
      `DELETE FROM webhook_deliveries WHERE id IN (
         SELECT id FROM (SELECT id, status, delivered_at, last_attempt_at, created_at FROM webhook_deliveries ORDER BY id LIMIT $3 * 10) oldest
          WHERE status <> 'pending' AND coalesce(delivered_at, last_attempt_at, created_at) < $1::timestamptz - make_interval(days => $2)
          LIMIT $3)
       RETURNING event_id`,
      [now, days, batch],
    );
    // The events left without deliveries: those whose deliveries went now, and the oldest
    // others (a deleted subscription's deliveries went with it).
    const ids = [...new Set(gone.rows.map((r) => Number(r.event_id)))];
    await this.db.query(
      `DELETE FROM webhook_events e
        WHERE (e.id = ANY ($1::bigint[])
               OR e.id IN (SELECT id FROM webhook_events WHERE occurred_at < $2::timestamptz - make_interval(days => $3) ORDER BY id LIMIT $4))
          AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id)`,
      [ids, now, days, batch],
    );
    return gone.rows.length;
  }
}
