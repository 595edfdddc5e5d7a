/**
 * The credentials of the device side. A device token is 32 random bytes (base64url, prefixed
 * so a leaked one is recognisable); an enrollment token is 12 characters of Crockford's base32
 * (60 random bits), short enough to type on a TV with the remote as XXXX-XXXX-XXXX and
 * protected by its expiry, its revocation and the enroll rate limit. Both are stored as their
 * SHA-256, never in clear.
 */
import { createHash, randomBytes, randomInt } from 'node:crypto';

export const DEVICE_TOKEN_PREFIX = 'mld_';
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const ENROLLMENT_TOKEN_LENGTH = 12;

export const tokenHash = (token: string): Buffer => createHash('sha256').update(token, 'utf8').digest();

export function newDeviceToken(): { token: string; hash: Buffer } {
  const token = `${DEVICE_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { token, hash: tokenHash(token) };
}

export function newEnrollmentToken(): { token: string; hash: Buffer; shortCode: string; hint: string } {
  let token = '';
  for (let i = 0; i < ENROLLMENT_TOKEN_LENGTH; i++) token += CROCKFORD[randomInt(CROCKFORD.length)];
  return { token, hash: tokenHash(token), shortCode: shortCodeOf(token), hint: token.slice(-4) };
}

/** XXXX-XXXX-XXXX: what a TV user types (dashes and case are ignored when it is checked). */
export const shortCodeOf = (token: string): string => token.match(/.{1,4}/g)!.join('-');

/** The token as typed or scanned: without spaces or dashes, upper case (what the hash is of). */
export const normaliseEnrollmentToken = (typed: string): string => typed.replace(/[\s-]/g, '').toUpperCase();

/** The bearer token of an agent request, or undefined. */
export function bearerOf(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const m = /^Bearer\s+(\S{1,200})$/i.exec(header.trim());
  return m?.[1];
}
