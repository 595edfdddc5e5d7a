import { randomBytes } from 'node:crypto';
import { DEVICE_ACTION } from '../../shared/constants/deviceActions';
import { OFFLINE_CODE_VALID_HOURS, OFFLINE_NONCE_WINDOW, issuedCode, offlineCode, offlineExpiry, utcDay, verifyOfflineCode } from './offlineCodes';

/** 0x00, 0x01 … 0x1f */
const SECRET = Uint8Array.from({ length: 32 }, (_, i) => i);

describe('offline codes', () => {
  test('known values: HMAC-SHA256 of "action:nonce:day", RFC 4226 dynamic truncation, 8 digits (checked with Python hmac)', () => {
    // Computed independently: hmac.new(bytes(range(32)), msg, sha256), offset = mac[-1] & 0xf,
    // ((mac[o] & 0x7f) << 24 | mac[o+1] << 16 | mac[o+2] << 8 | mac[o+3]) % 10**8, zero-padded.
    expect(offlineCode(SECRET, 9, 1, '2026-01-04')).toBe('03804094');
    expect(offlineCode(SECRET, 12, 2, '2026-03-15')).toBe('96644397');
    expect(offlineCode(SECRET, 13, 3, '2026-01-04')).toBe('73036373');
  });

  test('always 8 digits, zero-padded, and different for each input', () => {
    const codes = new Set<string>();
    for (let nonce = 1; nonce <= 200; nonce++) {
      const code = offlineCode(SECRET, 9, nonce, '2026-01-04');
      expect(code).toMatch(/^\d{8}$/);
      codes.add(code);
    }
    expect(codes.size).toBe(200);
    expect(offlineCode(SECRET, 12, 1, '2026-01-04')).not.toBe(offlineCode(SECRET, 9, 1, '2026-01-04'));
    expect(offlineCode(SECRET, 9, 1, '2026-01-05')).not.toBe(offlineCode(SECRET, 9, 1, '2026-01-04'));
  });

  test('expiry: 72 hours for UNLOCK_OFFLINE and RELEASE_OFFLINE, the date for UNLOCK_OFFLINE_WITH_DATE', () => {
    const now = new Date('2026-01-01T22:30:00Z');
    expect(offlineExpiry(DEVICE_ACTION.UNLOCK_OFFLINE, now).toISOString()).toBe('2026-01-04T22:30:00.000Z');
    expect(offlineExpiry(DEVICE_ACTION.RELEASE_OFFLINE, now).getTime() - now.getTime()).toBe(OFFLINE_CODE_VALID_HOURS * 3600_000);
    const until = new Date('2026-02-10T05:00:00Z');
    expect(offlineExpiry(DEVICE_ACTION.UNLOCK_OFFLINE_WITH_DATE, now, until)).toEqual(until);
    expect(() => offlineExpiry(DEVICE_ACTION.UNLOCK_OFFLINE_WITH_DATE, now, null)).toThrow();
    expect(issuedCode(SECRET, 12, 4, until)).toBe(offlineCode(SECRET, 12, 4, '2026-02-10'));
  });

  test('verification finds the action, the nonce and the expiry day of an issued code', () => {
    const now = new Date('2026-01-01T22:30:00Z');
    const secret = randomBytes(32);
    for (const action of [DEVICE_ACTION.UNLOCK_OFFLINE, DEVICE_ACTION.RELEASE_OFFLINE]) {
      const expiresAt = offlineExpiry(action, now);
      const code = issuedCode(secret, action, 5, expiresAt);
      expect(verifyOfflineCode(secret, code, { lastNonce: 4, now })).toEqual({ action, nonce: 5, expiresAt: new Date('2026-01-04T23:59:59.999Z') });
      expect(verifyOfflineCode(secret, code, { action, lastNonce: 0, now })).toMatchObject({ action, nonce: 5 });
      // Checked for another action, it is not a code of that action.
      expect(verifyOfflineCode(secret, code, { action: DEVICE_ACTION.UNLOCK_OFFLINE_WITH_DATE, lastNonce: 0, now })).toBeNull();
    }
    const until = new Date('2026-03-31T12:00:00Z');
    const code = issuedCode(secret, DEVICE_ACTION.UNLOCK_OFFLINE_WITH_DATE, 1, until);
    expect(verifyOfflineCode(secret, code, { lastNonce: 0, now })).toEqual({
      action: DEVICE_ACTION.UNLOCK_OFFLINE_WITH_DATE,
      nonce: 1,
      expiresAt: new Date('2026-03-31T23:59:59.999Z'),
    });
  });

  test('a wrong secret, a typo or a malformed code is refused', () => {
    const now = new Date('2026-01-01T10:00:00Z');
    const code = issuedCode(SECRET, DEVICE_ACTION.UNLOCK_OFFLINE, 1, offlineExpiry(DEVICE_ACTION.UNLOCK_OFFLINE, now));
    expect(verifyOfflineCode(SECRET, code, { lastNonce: 0, now })).not.toBeNull();
    expect(verifyOfflineCode(randomBytes(32), code, { lastNonce: 0, now })).toBeNull();
    const typo = `${code.slice(0, 7)}${(Number(code[7]) + 1) % 10}`;
    expect(verifyOfflineCode(SECRET, typo, { lastNonce: 0, now })).toBeNull();
    for (const bad of ['', '1234567', '123456789', 'abcdefgh', ` ${code.slice(1)}`]) {
      expect(verifyOfflineCode(SECRET, bad, { lastNonce: 0, now })).toBeNull();
    }
  });

  test('nonce window: the next 20 codes after the last redeemed one, never a redeemed one again', () => {
    const now = new Date('2026-01-01T10:00:00Z');
    const expiresAt = offlineExpiry(DEVICE_ACTION.UNLOCK_OFFLINE, now);
    const code = (nonce: number) => issuedCode(SECRET, DEVICE_ACTION.UNLOCK_OFFLINE, nonce, expiresAt);
    expect(verifyOfflineCode(SECRET, code(10), { lastNonce: 9, now })?.nonce).toBe(10);
    expect(verifyOfflineCode(SECRET, code(9 + OFFLINE_NONCE_WINDOW), { lastNonce: 9, now })?.nonce).toBe(9 + OFFLINE_NONCE_WINDOW);
    expect(verifyOfflineCode(SECRET, code(10 + OFFLINE_NONCE_WINDOW), { lastNonce: 9, now })).toBeNull();
    // Redeemed (lastNonce moved to 10): the same code is refused, as is any older one.
    expect(verifyOfflineCode(SECRET, code(10), { lastNonce: 10, now })).toBeNull();
    expect(verifyOfflineCode(SECRET, code(3), { lastNonce: 10, now })).toBeNull();
  });

  test('expiry window: valid through its expiry day, refused the day after; dates up to 90 days ahead', () => {
    const issued = new Date('2026-01-01T10:00:00Z');
    const expiresAt = offlineExpiry(DEVICE_ACTION.UNLOCK_OFFLINE, issued);
    const code = issuedCode(SECRET, DEVICE_ACTION.UNLOCK_OFFLINE, 1, expiresAt);
    expect(verifyOfflineCode(SECRET, code, { lastNonce: 0, now: new Date('2026-01-04T23:00:00Z') })).not.toBeNull();
    expect(verifyOfflineCode(SECRET, code, { lastNonce: 0, now: new Date('2026-01-05T00:00:01Z') })).toBeNull();

    const far = new Date(issued.getTime() + 90 * 86_400_000);
    const dated = issuedCode(SECRET, DEVICE_ACTION.UNLOCK_OFFLINE_WITH_DATE, 1, far);
    expect(verifyOfflineCode(SECRET, dated, { lastNonce: 0, now: issued })?.expiresAt.toISOString().slice(0, 10)).toBe(utcDay(far));
    const tooFar = issuedCode(SECRET, DEVICE_ACTION.UNLOCK_OFFLINE_WITH_DATE, 1, new Date(far.getTime() + 86_400_000));
    expect(verifyOfflineCode(SECRET, tooFar, { lastNonce: 0, now: issued })).toBeNull();
    // The day after its date it is expired.
    expect(verifyOfflineCode(SECRET, dated, { lastNonce: 0, now: new Date(far.getTime() + 86_400_000) })).toBeNull();
  });
});
