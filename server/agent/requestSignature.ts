/**
 * Proof of possession on the agent API. At enrollment the agent sends the public half of an EC
 * P-256 key pair it generated on the device (hardware-backed on Android: the private key never
 * leaves it); every later request carries, besides its bearer token, a timestamp, a nonce and an
 * ECDSA P-256/SHA-256 signature (IEEE P1363 r‖s, as WebCrypto produces it, base64url) over
 *
 *   METHOD \n PATH (with its query) \n TIMESTAMP \n NONCE \n base64url(SHA-256(raw body))
 *
 * so a copied device token alone controls nothing. A request replayed within the timestamp's
 * window is harmless because every agent call is idempotent: nothing is written per request to
 * remember nonces. docs/agent-protocol.md gives the wire format and a test vector.
 * The agent's side (the simulator, the tests) signs with WebCrypto, as a device's keystore does.
 * The server verifies with node:crypto's one-shot `verify` on a kept KeyObject: the same OpenSSL
 * call WebCrypto's `subtle.verify` makes, without the thread-pool job and the promise around it,
 * which cost more main-thread time under load than the verification itself.
 */
import { createHash, createPublicKey, randomBytes, verify, type KeyObject } from 'node:crypto';

const { subtle } = globalThis.crypto;

export const SIGNATURE_HEADERS = { timestamp: 'x-agent-timestamp', nonce: 'x-agent-nonce', signature: 'x-agent-signature' } as const;
/** How far a request's timestamp may be from the server's clock, either way. */
export const SIGNATURE_MAX_SKEW_SECONDS = 300;
/**
 * Imported public keys kept per process. An import costs about as much CPU as a verification; a
 * kept key takes about 6 KB of native memory, so 10,000 of them (60 MB) cover a fleet that size,
 * and a larger fleet pays the import on most check-ins rather than the memory.
 */
const KEY_CACHE_ENTRIES = 10_000;

const EC_KEY = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const EC_SIGN = { name: 'ECDSA', hash: 'SHA-256' } as const;
/** 16 random bytes in base64url (no padding). */
const NONCE = /^[A-Za-z0-9_-]{22}$/;
/** 64 bytes (r‖s) in base64url. */
const SIGNATURE = /^[A-Za-z0-9_-]{86}$/;
const TIMESTAMP = /^\d{1,12}$/;

/** base64url of the SHA-256 of a request's raw body (an empty body hashes the empty string). */
export const bodyDigest = (raw: Uint8Array | string = ''): string => createHash('sha256').update(raw).digest('base64url');

/** The text a request's signature covers. */
export const canonicalRequest = (r: { method: string; path: string; timestamp: string; nonce: string; bodySha256: string }): string =>
  `${r.method.toUpperCase()}\n${r.path}\n${r.timestamp}\n${r.nonce}\n${r.bodySha256}`;

/** What a signed request proves, read from its headers (checked against the device's key later). */
export interface RequestProof {
  canonical: string;
  signature: Uint8Array<ArrayBuffer>;
}

export type ProofRefusal = 'AGENT_SIGNATURE_MISSING' | 'AGENT_SIGNATURE_MALFORMED' | 'AGENT_SIGNATURE_STALE';

/**
 * A request's proof from its headers, or why there is none: a header missing, malformed, or a
 * timestamp more than SIGNATURE_MAX_SKEW_SECONDS from `nowMs`.
 */
export function proofOf(
  headers: (name: string) => string | undefined,
  request: { method: string; path: string; bodySha256: string },
  nowMs: number,
): { ok: true; proof: RequestProof } | { ok: false; code: ProofRefusal } {
  const timestamp = headers(SIGNATURE_HEADERS.timestamp);
  const nonce = headers(SIGNATURE_HEADERS.nonce);
  const signature = headers(SIGNATURE_HEADERS.signature);
  if (!timestamp || !nonce || !signature) return { ok: false, code: 'AGENT_SIGNATURE_MISSING' };
  if (!TIMESTAMP.test(timestamp) || !NONCE.test(nonce) || !SIGNATURE.test(signature)) return { ok: false, code: 'AGENT_SIGNATURE_MALFORMED' };
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > SIGNATURE_MAX_SKEW_SECONDS) return { ok: false, code: 'AGENT_SIGNATURE_STALE' };
  return {
    ok: true,
    proof: { canonical: canonicalRequest({ ...request, timestamp, nonce }), signature: Uint8Array.from(Buffer.from(signature, 'base64url')) },
  };
}

/**
 * The uncompressed point (65 bytes) of an agent's public JWK, or null when it is not a P-256
 * public key WebCrypto accepts (a point off the curve included).
 */
export async function publicKeyPoint(jwk: { kty: string; crv: string; x: string; y: string }): Promise<Buffer | null> {
  try {
    const key = await subtle.importKey('jwk', { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y, ext: true }, EC_KEY, true, ['verify']);
    return Buffer.from(await subtle.exportKey('raw', key));
  } catch {
    return null;
  }
}

/** Verifies proofs against devices' public keys, keeping the imported keys (least recently used out). */
export class SignatureVerifier {
  private readonly keys = new Map<string, KeyObject>();

  constructor(private readonly capacity = KEY_CACHE_ENTRIES) {}

  private key(point: Uint8Array): KeyObject {
    const id = Buffer.from(point).toString('base64');
    let key = this.keys.get(id);
    if (key) {
      this.keys.delete(id);
    } else {
      // A JWK import validates the point like WebCrypto's 'raw' import and is the cheapest form node:crypto takes.
      const x = Buffer.from(point.subarray(1, 33)).toString('base64url');
      const y = Buffer.from(point.subarray(33, 65)).toString('base64url');
      key = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x, y }, format: 'jwk' });
      if (this.keys.size >= this.capacity) this.keys.delete(this.keys.keys().next().value!);
    }
    this.keys.set(id, key);
    return key;
  }

  /** Whether `proof` was signed by the private half of `point` (false for a key that cannot be imported). */
  verify(point: Uint8Array | null, proof: RequestProof): boolean {
    if (!point || point.length !== 65 || point[0] !== 0x04) return false;
    try {
      return verify('sha256', Buffer.from(proof.canonical), { key: this.key(point), dsaEncoding: 'ieee-p1363' }, proof.signature);
    } catch {
      this.keys.delete(Buffer.from(point).toString('base64'));
      return false;
    }
  }
}

// The agent's side (the simulator, the tests, the benchmark) -------------------------------

export interface AgentKeys {
  privateKey: CryptoKey;
  /** What the enrollment sends as `publicKey`. */
  publicJwk: { kty: 'EC'; crv: 'P-256'; x: string; y: string };
}

/** A new key pair as an agent makes one at enrollment (the private key not extractable). */
export async function newAgentKeys(): Promise<AgentKeys> {
  const pair = await subtle.generateKey(EC_KEY, false, ['sign', 'verify']);
  const jwk = await subtle.exportKey('jwk', pair.publicKey);
  return { privateKey: pair.privateKey, publicJwk: { kty: 'EC', crv: 'P-256', x: jwk.x!, y: jwk.y! } };
}

/** The signature headers of a request (`body`: exactly the bytes sent; none for a GET). */
export async function signRequest(
  privateKey: CryptoKey,
  request: { method: string; path: string; body?: string },
  nowMs = Date.now(),
  nonce = randomBytes(16).toString('base64url'),
): Promise<Record<string, string>> {
  const timestamp = String(Math.floor(nowMs / 1000));
  const canonical = canonicalRequest({ method: request.method, path: request.path, timestamp, nonce, bodySha256: bodyDigest(request.body) });
  const signature = Buffer.from(await subtle.sign(EC_SIGN, privateKey, new TextEncoder().encode(canonical))).toString('base64url');
  return { [SIGNATURE_HEADERS.timestamp]: timestamp, [SIGNATURE_HEADERS.nonce]: nonce, [SIGNATURE_HEADERS.signature]: signature };
}
