/**
 * Offline codes (UNLOCK_OFFLINE 9, UNLOCK_OFFLINE_WITH_DATE 12, RELEASE_OFFLINE 13): 8 decimal
 * digits the administrator reads to the customer, who types them on a device with no network.
 * The agent checks them with the per-device secret provisioned at enrollment, so a code is
 * derived, never stored:
 *
 *   code = truncate(HMAC-SHA256(secret, `${action}:${nonce}:${expiryDay}`)) mod 10^8
 *
 * with the dynamic truncation of RFC 4226 §5.3, `nonce` the device's offline counter (one more
 * per issued code) and `expiryDay` the UTC day (YYYY-MM-DD) the code expires: the `until` date
 * of action 12, and the day 72 hours after issuance for 9 and 13 (the server keeps the exact
 * instant in `device_commands.expires_at`; the agent knows the day).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { DEVICE_ACTION } from '../../shared/constants/deviceActions';

export const OFFLINE_CODE_DIGITS = 8;
/** Validity of the codes of actions 9 and 13. */
export const OFFLINE_CODE_VALID_HOURS = 72;
/** The agent accepts the next codes issued after the last one it redeemed, up to this many ahead. */
export const OFFLINE_NONCE_WINDOW = 20;
/** Action 12: how many days ahead its date may be (the contract's OFFLINE_UNLOCK_MAX_DAYS). */
export const OFFLINE_DATE_MAX_DAYS = 90;

export const OFFLINE_ACTIONS = [DEVICE_ACTION.UNLOCK_OFFLINE, DEVICE_ACTION.UNLOCK_OFFLINE_WITH_DATE, DEVICE_ACTION.RELEASE_OFFLINE] as const;
export type OfflineAction = (typeof OFFLINE_ACTIONS)[number];

const DAY_MS = 86_400_000;

/** The UTC day of an instant, as the codes carry it (YYYY-MM-DD). */
export const utcDay = (d: Date): string => d.toISOString().slice(0, 10);

/** The code of one (action, nonce, expiry day) for a device secret. */
export function offlineCode(secret: Uint8Array, action: number, nonce: number, expiryDay: string): string {
  const mac = createHmac('sha256', secret).update(`${action}:${nonce}:${expiryDay}`).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = ((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!;
  return String(binary % 10 ** OFFLINE_CODE_DIGITS).padStart(OFFLINE_CODE_DIGITS, '0');
}

/** When a code issued at `now` expires: `until` for action 12, 72 hours later for 9 and 13. */
export function offlineExpiry(action: number, now: Date, until?: Date | null): Date {
  if (action === DEVICE_ACTION.UNLOCK_OFFLINE_WITH_DATE) {
    if (!until) throw new Error('UNLOCK_OFFLINE_WITH_DATE needs a date');
    return until;
  }
  return new Date(now.getTime() + OFFLINE_CODE_VALID_HOURS * 3600_000);
}

/** The code of an issued offline command (its nonce and stored expiry). */
export function issuedCode(secret: Uint8Array, action: number, nonce: number, expiresAt: Date): string {
  return offlineCode(secret, action, nonce, utcDay(expiresAt));
}

export interface VerifiedCode {
  action: OfflineAction;
  nonce: number;
  /** The end of the code's expiry day (UTC): what the device can know of the expiry. */
  expiresAt: Date;
}

const same = (a: string, b: string): boolean => timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * What the agent does with a typed code (the agent API calls it too): finds the action, nonce
 * and expiry day the code was derived with. Nonces from `lastNonce + 1` to `lastNonce + 20` are
 * accepted (codes issued after the last redeemed one; a code is never accepted twice once its
 * nonce is redeemed), expiry days from today (UTC) to today + 90 for action 12 and to today + 3
 * for 9 and 13 (72 hours). Returns null for a wrong, expired or already redeemed code.
 */
export function verifyOfflineCode(secret: Uint8Array, code: string, opts: { action?: number; lastNonce: number; now: Date }): VerifiedCode | null {
  if (!/^\d{8}$/.test(code)) return null;
  const actions = opts.action === undefined ? OFFLINE_ACTIONS : OFFLINE_ACTIONS.filter((a) => a === opts.action);
  const today = Date.UTC(opts.now.getUTCFullYear(), opts.now.getUTCMonth(), opts.now.getUTCDate());
  for (let nonce = opts.lastNonce + 1; nonce <= opts.lastNonce + OFFLINE_NONCE_WINDOW; nonce++) {
    for (const action of actions) {
      const days = action === DEVICE_ACTION.UNLOCK_OFFLINE_WITH_DATE ? OFFLINE_DATE_MAX_DAYS : Math.ceil(OFFLINE_CODE_VALID_HOURS / 24);
      for (let d = 0; d <= days; d++) {
        const day = new Date(today + d * DAY_MS);
        if (same(offlineCode(secret, action, nonce, utcDay(day)), code)) {
          return { action, nonce, expiresAt: new Date(day.getTime() + DAY_MS - 1) };
        }
      }
    }
  }
  return null;
}
