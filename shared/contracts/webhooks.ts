import * as z from 'zod';
import { FIELD_LABELS } from '../constants/fieldLabels';
import { WEBHOOK_DELIVERY_STATUSES, WEBHOOK_EVENT_TYPES, type WebhookDeliveryStatus } from '../constants/integration';
import { INTEGRATION_MESSAGES as M } from '../areaMessages/integration';
import { ADMIN_API_MESSAGES } from '../areaMessages/admin';
import { INVENTORY_MESSAGES } from '../areaMessages/inventory';
import { fieldError, intParam, listResponse, oneOfParam, pagingParams, textField } from './fields';

const F = ADMIN_API_MESSAGES.field;
const L = FIELD_LABELS.webhooks;

/** Webhook subscriptions and their delivery log (/v5/webhooks). */

export const WEBHOOK_NAME_MAX = 80;
export const WEBHOOK_URL_MAX = 2000;

/** An https URL (the server also refuses local and private addresses in production). */
export const webhookUrl = z
  .string({ error: fieldError(L.url, M.field.url(L.url)) })
  .trim()
  .max(WEBHOOK_URL_MAX, { error: M.field.url(L.url) })
  .refine(
    (v) => {
      try {
        const u = new URL(v);
        return (u.protocol === 'https:' || u.protocol === 'http:') && u.hostname !== '' && u.username === '' && u.password === '';
      } catch {
        return false;
      }
    },
    { error: M.field.url(L.url) },
  );

const events = z
  .array(z.enum(WEBHOOK_EVENT_TYPES, { error: M.field.events(L.events) }), { error: fieldError(L.events, M.field.events(L.events)) })
  .min(1, { error: M.field.events(L.events) })
  .transform((list) => WEBHOOK_EVENT_TYPES.filter((t) => list.includes(t)));

/** POST /v5/webhooks and PUT /v5/webhooks/:id (`enabled` re-enables a disabled subscription). */
export const webhookBody = z.object(
  {
    name: textField(L.name, { min: 1, max: WEBHOOK_NAME_MAX }),
    url: webhookUrl,
    events,
    enabled: z.boolean({ error: fieldError(L.enabled, INVENTORY_MESSAGES.field.boolean(L.enabled)) }).default(true),
  },
  { error: F.body },
);
export type WebhookBody = z.infer<typeof webhookBody>;
export type WebhookBodyInput = z.input<typeof webhookBody>;

export const webhookResponse = z.strictObject({
  id: z.number().int(),
  name: z.string(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  enabled: z.boolean(),
  /** 'failing' when the server disabled it after 24 hours of failed deliveries. */
  disabledReason: z.string().nullable(),
  disabledAt: z.string().nullable(),
  failingSince: z.string().nullable(),
  createdBy: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Deliveries waiting (due or retrying). */
  pending: z.number().int(),
  lastDeliveryAt: z.string().nullable(),
});
export type Webhook = z.infer<typeof webhookResponse>;
export const webhookListResponse = listResponse(webhookResponse);
export type WebhookList = z.infer<typeof webhookListResponse>;

/** The creation's answer: the subscription and, once, its signing secret (`whsec_…`). */
export const webhookCreatedResponse = z.strictObject({ webhook: webhookResponse, secret: z.string() });
export type WebhookCreated = z.infer<typeof webhookCreatedResponse>;

const DELIVERY_KEYS = WEBHOOK_DELIVERY_STATUSES.map((s) => s.key) as [WebhookDeliveryStatus, ...WebhookDeliveryStatus[]];

/** GET /v5/webhooks/:id/deliveries: newest first, optionally one status. */
export const deliveriesQuery = z.object({ ...pagingParams(50), status: oneOfParam(L.status, DELIVERY_KEYS).optional() });
export type DeliveriesQuery = z.infer<typeof deliveriesQuery>;

export const webhookDeliveryResponse = z.strictObject({
  id: z.number().int(),
  eventId: z.number().int(),
  eventType: z.enum(WEBHOOK_EVENT_TYPES),
  occurredAt: z.string(),
  status: z.enum(DELIVERY_KEYS),
  attempts: z.number().int(),
  nextAttemptAt: z.string().nullable(),
  lastAttemptAt: z.string().nullable(),
  responseStatus: z.number().int().nullable(),
  durationMs: z.number().int().nullable(),
  error: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  /** The event's payload as sent. */
  payload: z.unknown(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliveryResponse>;
export const webhookDeliveryListResponse = listResponse(webhookDeliveryResponse);
export type WebhookDeliveryList = z.infer<typeof webhookDeliveryListResponse>;

/** `/:id/deliveries/:deliveryId/resend`. */
export const deliveryParams = z.object({
  id: intParam(FIELD_LABELS.params.id, 1, 2_147_483_647),
  deliveryId: intParam(FIELD_LABELS.params.id, 1, 9_999_999_999),
});
export type DeliveryParams = z.infer<typeof deliveryParams>;
