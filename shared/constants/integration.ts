/**
 * The lender's integration: the API key format, the webhook event types and their Spanish names.
 * Zod-free: the pages import these without the contracts.
 */

/** Every key starts with this; then the key's public prefix, an underscore and its secret. */
export const API_KEY_TAG = 'mlk_';
/** The label the audit log and the command history show for what a key did. */
export const apiKeyActor = (name: string) => `Clave de API: ${name}`;

/** The events a webhook subscription can want, with their Spanish names. */
export const WEBHOOK_EVENTS = [
  { type: 'device.enrolled', label: 'Dispositivo enrolado' },
  { type: 'device.status_changed', label: 'Cambio de estado del dispositivo' },
  { type: 'command.delivered', label: 'Comando entregado' },
  { type: 'command.acknowledged', label: 'Comando confirmado' },
  { type: 'command.rejected', label: 'Comando rechazado' },
  { type: 'offline_code.redeemed', label: 'Código offline canjeado' },
  { type: 'job.finished', label: 'Acción masiva terminada' },
  { type: 'payment.applied', label: 'Pago aplicado' },
  { type: 'payment.reversed', label: 'Pago revertido' },
  { type: 'credit.paid_off', label: 'Crédito liquidado' },
  { type: 'credit.overdue', label: 'Crédito vencido' },
  { type: 'collection.step', label: 'Paso de la política de cobranza' },
  { type: 'reconciliation.summary', label: 'Resumen diario de conciliación' },
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number]['type'];
export const WEBHOOK_EVENT_TYPES = WEBHOOK_EVENTS.map((e) => e.type) as [WebhookEventType, ...WebhookEventType[]];

/** A delivery's state in the log. */
export const WEBHOOK_DELIVERY_STATUSES = [
  { key: 'pending', label: 'Pendiente' },
  { key: 'delivered', label: 'Entregado' },
  { key: 'failed', label: 'Fallido' },
] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number]['key'];

/** Deliveries are retried for this long; a subscription failing this long is disabled. */
export const WEBHOOK_RETRY_HOURS = 24;
/** The reason the server writes when it disables a subscription that failed for 24 hours. */
export const WEBHOOK_DISABLED_FAILING = 'failing';
