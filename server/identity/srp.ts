/**
 * Server side of the SRP-6a variant spoken by `amazon-cognito-identity-js` (USER_SRP_AUTH +
 * PASSWORD_VERIFIER): what the client library's AuthenticationHelper computes, checked against
 * known-answer vectors (srp.test.ts).
 *
 * Every integer is a `bigint`; every hash is SHA-256 / HMAC-SHA256 (node:crypto) over the bytes of
 * `padHex(n)` (minimal two's-complement big-endian encoding, never a fixed-width buffer); strings are
 * hashed as UTF-8.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** RFC 5054 Appendix A / RFC 3526 group 15: the 3072-bit MODP prime (768 hex digits). */
export const N: bigint = BigInt(
  '0x' +
    'ffffffffffffffffc90fdaa22168c234c4c6628b80dc1cd129024e088a67cc74' +
    '020bbea63b139b22514a08798e3404ddef9519b3cd3a431b302b0a6df25f1437' +
    '4fe1356d6d51c245e485b576625e7ec6f44c42e9a637ed6b0bff5cb6f406b7ed' +
    'ee386bfb5a899fa5ae9f24117c4b1fe649286651ece45b3dc2007cb8a163bf05' +
    '98da48361c55d39a69163fa8fd24cf5f83655d23dca3ad961c62f356208552bb' +
    '9ed529077096966d670c354e4abc9804f1746c08ca18217c32905e462e36ce3b' +
    'e39e772c180e86039b2783a2ec07a28fb5c55df06f4c52c9de2bcbf695581718' +
    '3995497cea956ae515d2261898fa051015728e5a8aaac42dad33170d04507a33' +
    'a85521abdf1cba64ecfb850458dbef0a8aea71575d060c7db3970f85a6e1e4c7' +
    'abf5ae8cdb0933d71e8c94e04a25619dcee3d2261ad2ee6bf12ffa06d98a0864' +
    'd87602733ec86a64521f2b18177b200cbbe117577a615d6c770988c0bad946e2' +
    '08e24fa074e5ab3143db5bfce0fd108e4b82d120a93ad2caffffffffffffffff',
);

/** Generator of the group. */
export const g: bigint = 2n;

/** Width in bytes of N (values in [0, N) fit in it); used for fixed-width constant-time compares. */
const N_BYTES = 384;

const HEX_RE = /^[0-9a-fA-F]+$/;
const SRP_A_RE = /^[0-9a-fA-F]{1,1024}$/;

/**
 * PAD rule (the client library's `padHex` for n >= 0): lower-case hex without leading
 * zeros; a `0` is prepended when the length is odd, then `00` when the first digit is 8–f.
 * `padHex(0n) === '00'`.
 */
export function padHex(n: bigint): string {
  if (typeof n !== 'bigint' || n < 0n) throw new RangeError('padHex: expected a non-negative bigint');
  let hex = n.toString(16);
  if (hex.length % 2 === 1) hex = '0' + hex;
  if (/^[89a-f]/.test(hex)) hex = '00' + hex;
  return hex;
}

/** Parses hex digits (any case, odd length and leading zeros allowed) as a non-negative integer. */
export function hexToBigInt(hex: string): bigint {
  if (typeof hex !== 'string' || !HEX_RE.test(hex)) throw new TypeError('hexToBigInt: not a hex string');
  return BigInt('0x' + hex);
}

/**
 * Pool name used in SRP: the text after the first `_` of the UserPoolId, up to the next `_` if any.
 * This is what the client computes (`UserPoolId.split('_')[1]`); for the supported ids (exactly one
 * underscore, e.g. `us-east-1_LocalDev01`) it is simply everything after the `_`.
 */
export function poolNameOf(userPoolId: string): string {
  const name = typeof userPoolId === 'string' ? userPoolId.split('_')[1] : undefined;
  if (!name) throw new TypeError(`poolNameOf: invalid UserPoolId ${JSON.stringify(userPoolId)}`);
  return name;
}

function sha256(...parts: Buffer[]): Buffer {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
}

function hmac(key: Buffer, ...parts: Buffer[]): Buffer {
  const h = createHmac('sha256', key);
  for (const p of parts) h.update(p);
  return h.digest();
}

/** Bytes of PAD(n). */
function padBytes(n: bigint): Buffer {
  return Buffer.from(padHex(n), 'hex');
}

function bufToBigInt(buf: Buffer): bigint {
  return buf.length === 0 ? 0n : BigInt('0x' + buf.toString('hex'));
}

/** n as exactly `width` big-endian bytes, or null when it does not fit. */
function fixedWidth(n: bigint, width: number): Buffer | null {
  if (n < 0n) return null;
  const hex = n.toString(16);
  if (hex.length > width * 2) return null;
  return Buffer.from(hex.padStart(width * 2, '0'), 'hex');
}

const utf8 = (s: string): Buffer => Buffer.from(s, 'utf8');

let modPowCount = 0;

/**
 * Modular exponentiations done so far by this process: the expensive step of every sign-in.
 * Tests compare it between a known and an unknown user name (both must cost the same).
 */
export function modPowOperations(): number {
  return modPowCount;
}

/**
 * base^exp mod m by left-to-right sliding-window exponentiation (window width chosen from the
 * exponent length; 4 bits for 256-bit exponents, 6 bits for 3072-bit ones).
 */
function modPow(base: bigint, exp: bigint, m: bigint): bigint {
  modPowCount++;
  if (m <= 0n) throw new RangeError('modPow: modulus must be positive');
  if (exp < 0n) throw new RangeError('modPow: negative exponent');
  if (m === 1n) return 0n;
  let b = base % m;
  if (b < 0n) b += m;
  if (exp === 0n) return 1n;
  const bits = exp.toString(2);
  const w = bits.length > 1536 ? 6 : bits.length > 512 ? 5 : bits.length > 64 ? 4 : 1;
  // table[i] = b^(2i+1) mod m
  const table: bigint[] = [b];
  if (w > 1) {
    const b2 = (b * b) % m;
    for (let i = 1; i < 1 << (w - 1); i++) table.push((table[i - 1]! * b2) % m);
  }
  let result = 1n;
  let i = 0;
  const len = bits.length;
  while (i < len) {
    if (bits[i] === '0') {
      result = (result * result) % m;
      i++;
      continue;
    }
    // Longest window bits[i..j] (at most w bits) that ends in a 1.
    let j = Math.min(i + w, len) - 1;
    while (bits[j] === '0') j--;
    const windowValue = parseInt(bits.slice(i, j + 1), 2);
    for (let s = i; s <= j; s++) result = (result * result) % m;
    result = (result * table[(windowValue - 1) >> 1]!) % m;
    i = j + 1;
  }
  return result;
}

/** k = H(PAD(N) ‖ PAD(g)) = 0x538282c4…9ee6 */
export const k: bigint = bufToBigInt(sha256(padBytes(N), padBytes(g)));

/**
 * x = H(PAD(salt) ‖ H(UTF8(poolName ‖ userId ‖ ":" ‖ password))). The salt hex is parsed as an
 * integer first, so a wire salt with leading zero bytes or without the `00` sign byte gives the same x.
 */
export function computeX(saltHex: string, poolName: string, userId: string, password: string): bigint {
  const inner = sha256(utf8(`${poolName}${userId}:${password}`));
  return bufToBigInt(sha256(padBytes(hexToBigInt(saltHex)), inner));
}

/**
 * New password record. `salt` is PAD(salt) hex (16 random bytes unless given); `verifier` is the
 * lower-case, unpadded hex of v = g^x mod N.
 */
export function createVerifier(poolName: string, userId: string, password: string, salt?: Buffer): { salt: string; verifier: string } {
  const saltBytes = salt ?? randomBytes(16);
  if (!Buffer.isBuffer(saltBytes) || saltBytes.length === 0) throw new TypeError('createVerifier: empty salt');
  const saltHex = padHex(bufToBigInt(saltBytes));
  const x = computeX(saltHex, poolName, userId, password);
  return { salt: saltHex, verifier: modPow(g, x, N).toString(16) };
}

/**
 * Password check against a stored {salt, verifier} (USER_PASSWORD_AUTH, ChangePassword): recomputes
 * v and compares both values as 384-byte big-endian buffers in constant time. Malformed stored data
 * → false.
 */
export function verifierMatches(poolName: string, userId: string, password: string, saltHex: string, verifierHex: string): boolean {
  try {
    const expected = fixedWidth(hexToBigInt(verifierHex), N_BYTES);
    if (!expected) return false;
    const actual = fixedWidth(modPow(g, computeX(saltHex, poolName, userId, password), N), N_BYTES)!;
    return timingSafeEqual(actual, expected);
  } catch {
    return false;
  }
}

/** SRP_A from the client: hex, 1–1024 digits, 1 <= A < N; anything else → null. */
export function parseSrpA(hex: unknown): bigint | null {
  if (typeof hex !== 'string' || !SRP_A_RE.test(hex)) return null;
  const A = BigInt('0x' + hex);
  return A >= 1n && A < N ? A : null;
}

function randomExponent(): bigint {
  for (;;) {
    const b = bufToBigInt(randomBytes(32));
    if (b !== 0n) return b;
  }
}

/**
 * Server ephemeral: b is 256 random bits (1 <= b < N) unless given; B = (k·v + g^b) mod N. A fresh b
 * is drawn while B == 0 (a given b that yields B == 0 throws).
 */
export function serverEphemeral(v: bigint, b?: bigint): { b: bigint; B: bigint } {
  if (typeof v !== 'bigint' || v <= 0n || v >= N) throw new RangeError('serverEphemeral: v out of range');
  if (b !== undefined && (typeof b !== 'bigint' || b < 1n || b >= N)) {
    throw new RangeError('serverEphemeral: b out of range');
  }
  const kv = (k * v) % N;
  for (;;) {
    const bb = b ?? randomExponent();
    const B = (kv + modPow(g, bb, N)) % N;
    if (B !== 0n) return { b: bb, B };
    if (b !== undefined) throw new RangeError('serverEphemeral: B == 0 for the given b');
  }
}

/** u = H(PAD(A) ‖ PAD(B)) */
export function computeU(A: bigint, B: bigint): bigint {
  return bufToBigInt(sha256(padBytes(A), padBytes(B)));
}

/** S = (A · v^u mod N)^b mod N */
export function serverS(A: bigint, v: bigint, u: bigint, b: bigint): bigint {
  return modPow((A * modPow(v, u, N)) % N, b, N);
}

/** "Caldera Derived Key": one-block HKDF-SHA256 with salt PAD(u), IKM PAD(S); first 16 bytes. */
export function hkdfKey(u: bigint, S: bigint): Buffer {
  const prk = hmac(padBytes(u), padBytes(S));
  return hmac(prk, utf8('Caldera Derived Key'), Buffer.from([1])).subarray(0, 16);
}

/** HMAC-SHA256(K, UTF8(poolName) ‖ UTF8(userId) ‖ base64decode(secretBlock) ‖ UTF8(timestamp)) */
export function passwordClaimSignature(key: Buffer, poolName: string, userId: string, secretBlockBase64: string, timestamp: string): Buffer {
  return hmac(key, utf8(poolName), utf8(userId), Buffer.from(secretBlockBase64, 'base64'), utf8(timestamp));
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const TIMESTAMP_RE =
  /^(Sun|Mon|Tue|Wed|Thu|Fri|Sat) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) ([1-9]|[12][0-9]|3[01]) ([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9] UTC ([0-9]{4})$/;

/**
 * TIMESTAMP of PASSWORD_VERIFIER (`ddd MMM D HH:mm:ss UTC YYYY`, as the client library writes it): the regex plus a
 * calendar check (the day exists in that month and the weekday matches the date).
 */
export function isValidTimestamp(ts: string): boolean {
  if (typeof ts !== 'string') return false;
  const m = TIMESTAMP_RE.exec(ts);
  if (!m) return false;
  const weekday = WEEKDAYS.indexOf(m[1]!);
  const month = MONTHS.indexOf(m[2]!);
  const day = Number(m[3]);
  const year = Number(m[5]);
  const d = new Date(0);
  d.setUTCFullYear(year, month, day); // setUTCFullYear: years 0–99 are not mapped to 19xx
  return d.getUTCFullYear() === year && d.getUTCMonth() === month && d.getUTCDate() === day && d.getUTCDay() === weekday;
}

/** Decodes a standard, padded, canonical base64 HMAC-SHA256 (44 chars) or returns null. */
function decodeSignature(signature: unknown): Buffer | null {
  if (typeof signature !== 'string' || !/^[A-Za-z0-9+/]{43}=$/.test(signature)) return null;
  const bytes = Buffer.from(signature, 'base64');
  if (bytes.length !== 32 || bytes.toString('base64') !== signature) return null;
  return bytes;
}

const inGroup = (n: unknown): n is bigint => typeof n === 'bigint' && n >= 1n && n < N;

/** Whole PASSWORD_VERIFIER check: returns true only when everything matches; u == 0 → false; signature compared in constant time on decoded bytes (a signature that is not 32 bytes of valid base64 → false). */
export function verifyPasswordClaim(p: {
  A: bigint;
  B: bigint;
  b: bigint;
  v: bigint;
  poolName: string;
  userId: string;
  secretBlock: string;
  timestamp: string;
  signature: string;
}): boolean {
  try {
    const { A, B, b, v, poolName, userId, secretBlock, timestamp } = p;
    if (!inGroup(A) || !inGroup(B) || !inGroup(b) || !inGroup(v)) return false;
    if (typeof poolName !== 'string' || typeof userId !== 'string' || typeof secretBlock !== 'string') return false;
    if (!isValidTimestamp(timestamp)) return false;
    const given = decodeSignature(p.signature);
    if (!given) return false;
    // The challenge state must be self-consistent: B is the value derived from this v and b.
    if ((k * v + modPow(g, b, N)) % N !== B) return false;
    const u = computeU(A, B);
    if (u === 0n) return false;
    const key = hkdfKey(u, serverS(A, v, u, b));
    const expected = passwordClaimSignature(key, poolName, userId, secretBlock, timestamp);
    return timingSafeEqual(expected, given);
  } catch {
    return false;
  }
}
