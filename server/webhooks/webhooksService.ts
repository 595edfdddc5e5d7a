import { FIELD_LABELS } from '../../shared/constants/fieldLabels';
import type {
  DeliveriesQuery,
  Webhook,
  WebhookBody,
  WebhookCreated,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookList,
} from '../../shared/contracts/webhooks';
import { INTEGRATION_MESSAGES } from '../../shared/areaMessages/integration';
import { record, type AuditActor } from '../audit/auditRepository';
import type { Config } from '../config';
import type { Db } from '../db/Db';
import { transaction } from '../db/transactionScope';
import { AppError } from '../errors';
import { checkedAddresses, systemLookup, TargetRefusedError, urlHost, type Lookup } from './outboundGuard';
import { newSecret } from './webhookSigner';
import { WebhooksRepository } from './webhooksRepository';

const M = INTEGRATION_MESSAGES.webhooks;

/** What the audit log keeps of a subscription (never its secret). */
const snapshot = (w: Webhook) => ({ id: w.id, name: w.name, url: w.url, events: w.events, enabled: w.enabled });

const notFound = () => new AppError(404, 'WEBHOOK_NOT_FOUND', M.notFound);
const refused = (message: string = M.urlRefused) => new AppError(400, 'WEBHOOK_URL_REFUSED', message, 'url');

/** Webhook subscriptions and their delivery log; every change audited in its transaction. */
export class WebhooksService {
  private readonly lookup: Lookup;

  constructor(
    readonly db: Db,
    readonly config: Config['webhooks'],
    opts: { lookup?: Lookup } = {},
  ) {
    this.lookup = opts.lookup ?? systemLookup;
  }

  async list(): Promise<WebhookList> {
    const data = await new WebhooksRepository(this.db).list();
    return { data, total: data.length };
  }

  /**
   * Outside development (no private targets): an https URL whose host resolves only to public
   * addresses. The dispatcher checks again at every attempt (a name can change).
   */
  private async checkUrl(url: string): Promise<void> {
    if (this.config.allowPrivateTargets) return;
    const parsed = new URL(url);
    if (parsed.protocol !== 'https:') throw refused(INTEGRATION_MESSAGES.field.url(FIELD_LABELS.webhooks.url));
    try {
      await checkedAddresses(urlHost(parsed), false, this.lookup);
    } catch (err) {
      if (err instanceof TargetRefusedError && err.reason === 'unresolved') throw refused(M.urlUnresolved(parsed.hostname));
      throw refused();
    }
  }

  async create(actor: AuditActor, body: WebhookBody): Promise<WebhookCreated> {
    await this.checkUrl(body.url);
    const secret = newSecret();
    return transaction(this.db, async (tx) => {
      const repo = new WebhooksRepository(tx);
      const id = await repo.insert(body, secret, { adminId: actor.adminId, name: actor.email ?? '' });
      const webhook = (await repo.find(id))!;
      await record(tx, { actor, entity: 'webhook', entityId: id, action: 'create', after: snapshot(webhook) });
      return { webhook, secret };
    });
  }

  async update(actor: AuditActor, id: number, body: WebhookBody): Promise<Webhook> {
    if (!(await new WebhooksRepository(this.db).find(id))) throw notFound();
    await this.checkUrl(body.url);
    return transaction(this.db, async (tx) => {
      const repo = new WebhooksRepository(tx);
      if (!(await repo.lock(id))) throw notFound();
      const before = (await repo.find(id))!;
      const same =
        before.name === body.name && before.url === body.url && before.enabled === body.enabled && before.events.join() === body.events.join();
      if (same) return before;
      await repo.update(id, body);
      // Enabled again: its waiting deliveries go out now.
      if (body.enabled && !before.enabled) await repo.notify();
      const after = (await repo.find(id))!;
      await record(tx, {
        actor,
        entity: 'webhook',
        entityId: id,
        action: 'update',
        before: { ...snapshot(before), disabledReason: before.disabledReason },
        after: snapshot(after),
      });
      return after;
    });
  }

  /** Deletes the subscription with its delivery log (the events nobody else wants are pruned later). */
  async remove(actor: AuditActor, id: number): Promise<void> {
    await transaction(this.db, async (tx) => {
      const repo = new WebhooksRepository(tx);
      if (!(await repo.lock(id))) throw notFound();
      const before = (await repo.find(id))!;
      await repo.delete(id);
      await record(tx, { actor, entity: 'webhook', entityId: id, action: 'delete', before: snapshot(before) });
    });
  }

  async deliveries(id: number, query: DeliveriesQuery): Promise<WebhookDeliveryList> {
    const repo = new WebhooksRepository(this.db);
    if (!(await repo.find(id))) throw notFound();
    const page = { limit: query.perPage, offset: (query.page - 1) * query.perPage };
    const [data, total] = await Promise.all([repo.deliveries(id, query.status, page), repo.countDeliveries(id, query.status)]);
    return { data, total };
  }

  /** 'Reenviar': the delivery waits again, due now (one more attempt); audited. */
  async resend(actor: AuditActor, id: number, deliveryId: number): Promise<WebhookDelivery> {
    return transaction(this.db, async (tx) => {
      const repo = new WebhooksRepository(tx);
      if (!(await repo.lock(id))) throw notFound();
      const before = await repo.findDelivery(id, deliveryId);
      if (!before) throw new AppError(404, 'WEBHOOK_DELIVERY_NOT_FOUND', M.deliveryNotFound);
      await repo.resend(id, deliveryId);
      await repo.notify();
      const after = (await repo.findDelivery(id, deliveryId))!;
      await record(tx, {
        actor,
        entity: 'webhook',
        entityId: id,
        action: 'resend',
        before: { deliveryId, eventId: before.eventId, eventType: before.eventType, status: before.status, attempts: before.attempts },
        after: { deliveryId, status: after.status },
      });
      return after;
    });
  }
}
