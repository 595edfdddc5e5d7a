/**
 * The signature of a delivery, as the Standard Webhooks specification defines it (the
 * maintained `standardwebhooks` package): `webhook-id`, `webhook-timestamp` and
 * `webhook-signature` (`v1,<base64 HMAC-SHA256 of id.timestamp.body>`). The lender verifies it
 * with any Standard Webhooks library and the subscription's secret.
 */
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** The secret's tag: Standard Webhooks libraries accept it as written. */
export const SECRET_PREFIX = 'whsec_';

/** A new signing secret: `whsec_` and 32 random bytes in base64 (shown once, kept to sign). */
export function newSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/** The id of an event's message: the same on every attempt, so the lender can drop repeats. */
export const messageId = (eventId: number | string) => `msg_${eventId}`;

/** The headers of one attempt (its timestamp is the time of sending). */
export function signatureHeaders(secret: string, msgId: string, at: Date, body: string): Record<string, string> {
  return {
    'webhook-id': msgId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(msgId, at, body),
  };
}
