import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  bodyDigest,
  canonicalRequest,
  newAgentKeys,
  proofOf,
  publicKeyPoint,
  SIGNATURE_MAX_SKEW_SECONDS,
  signRequest,
  SignatureVerifier,
} from './requestSignature';

/** The test vector docs/agent-protocol.md gives the Android team. */
const vector = JSON.parse(readFileSync(path.resolve(__dirname, '../../docs/agent-signature-vector.json'), 'utf8')) as {
  privateKeyJwk: JsonWebKey;
  publicKeyJwk: { kty: string; crv: string; x: string; y: string };
  request: { method: string; path: string; body: string };
  headers: Record<string, string>;
  bodySha256: string;
  canonical: string;
};
const vectorNow = Number(vector.headers['X-Agent-Timestamp']) * 1000;
const header = (headers: Record<string, string>) => (name: string) =>
  Object.entries(headers).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];

describe("the docs' test vector", () => {
  test('the body digest and the signed text are exactly as documented', () => {
    expect(bodyDigest(vector.request.body)).toBe(vector.bodySha256);
    expect(
      canonicalRequest({
        method: vector.request.method,
        path: vector.request.path,
        timestamp: vector.headers['X-Agent-Timestamp']!,
        nonce: vector.headers['X-Agent-Nonce']!,
        bodySha256: vector.bodySha256,
      }),
    ).toBe(vector.canonical);
    expect(bodyDigest('')).toBe('47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU');
  });

  test("the server accepts the vector's signature, and refuses it for any other request", async () => {
    const point = await publicKeyPoint(vector.publicKeyJwk);
    expect(point).toHaveLength(65);
    const verifier = new SignatureVerifier();
    const proof = (over: Partial<{ path: string; body: string; now: number }> = {}) => {
      const p = proofOf(
        header(vector.headers),
        { method: vector.request.method, path: over.path ?? vector.request.path, bodySha256: bodyDigest(over.body ?? vector.request.body) },
        over.now ?? vectorNow,
      );
      if (!p.ok) throw new Error(p.code);
      return p.proof;
    };
    expect(proof().canonical).toBe(vector.canonical);
    expect(verifier.verify(point, proof())).toBe(true);
    expect(verifier.verify(point, proof({ body: vector.request.body.replace('81', '82') }))).toBe(false);
    expect(verifier.verify(point, proof({ path: '/agent/v1/events' }))).toBe(false);
    const other = await publicKeyPoint((await newAgentKeys()).publicJwk);
    expect(verifier.verify(other, proof())).toBe(false);
  });

  test("a signature made with the vector's private key verifies with its public key (the signer's side)", async () => {
    const privateKey = await globalThis.crypto.subtle.importKey('jwk', vector.privateKeyJwk, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign']);
    const headers = await signRequest(privateKey, vector.request, vectorNow, vector.headers['X-Agent-Nonce']);
    expect(headers['x-agent-timestamp']).toBe(vector.headers['X-Agent-Timestamp']);
    expect(headers['x-agent-signature']).toMatch(/^[A-Za-z0-9_-]{86}$/);
    const p = proofOf(header(headers), { method: 'POST', path: vector.request.path, bodySha256: vector.bodySha256 }, vectorNow);
    expect(p.ok && p.proof.canonical).toBe(vector.canonical);
    expect(new SignatureVerifier().verify(await publicKeyPoint(vector.publicKeyJwk), p.ok ? p.proof : (undefined as never))).toBe(true);
  });
});

describe('proofOf', () => {
  const request = { method: 'POST', path: '/agent/v1/checkin', bodySha256: bodyDigest('{}') };
  test('a missing header, a malformed one, a timestamp beyond the window either way', () => {
    const h = header(vector.headers);
    const without = (name: string) => (n: string) => (n.toLowerCase() === name ? undefined : h(n));
    expect(proofOf(without('x-agent-nonce'), request, vectorNow)).toEqual({ ok: false, code: 'AGENT_SIGNATURE_MISSING' });
    expect(proofOf(without('x-agent-signature'), request, vectorNow)).toEqual({ ok: false, code: 'AGENT_SIGNATURE_MISSING' });
    const bad = (name: string, value: string) => (n: string) => (n.toLowerCase() === name ? value : h(n));
    expect(proofOf(bad('x-agent-timestamp', '17e8'), request, vectorNow)).toEqual({ ok: false, code: 'AGENT_SIGNATURE_MALFORMED' });
    expect(proofOf(bad('x-agent-nonce', 'AAEC'), request, vectorNow)).toEqual({ ok: false, code: 'AGENT_SIGNATURE_MALFORMED' });
    expect(proofOf(bad('x-agent-signature', 'x'.repeat(87)), request, vectorNow)).toEqual({ ok: false, code: 'AGENT_SIGNATURE_MALFORMED' });
    const skew = SIGNATURE_MAX_SKEW_SECONDS * 1000;
    expect(proofOf(h, request, vectorNow + skew).ok).toBe(true);
    expect(proofOf(h, request, vectorNow - skew).ok).toBe(true);
    expect(proofOf(h, request, vectorNow + skew + 1000)).toEqual({ ok: false, code: 'AGENT_SIGNATURE_STALE' });
    expect(proofOf(h, request, vectorNow - skew - 1000)).toEqual({ ok: false, code: 'AGENT_SIGNATURE_STALE' });
  });
});

describe('publicKeyPoint', () => {
  test('a P-256 public key gives its uncompressed point; a point off the curve or another curve gives null', async () => {
    const { publicJwk } = await newAgentKeys();
    const point = await publicKeyPoint(publicJwk);
    expect(point?.[0]).toBe(0x04);
    expect(Buffer.from(point!.subarray(1, 33)).toString('base64url')).toBe(publicJwk.x);
    expect(await publicKeyPoint({ ...publicJwk, y: publicJwk.x })).toBeNull();
    expect(await publicKeyPoint({ ...publicJwk, crv: 'P-384' })).toBeNull();
  });
});

describe('SignatureVerifier', () => {
  test('keeps at most its capacity of imported keys and still verifies every key', async () => {
    const verifier = new SignatureVerifier(2);
    const agents = await Promise.all([1, 2, 3].map(() => newAgentKeys()));
    for (const round of [1, 2]) {
      for (const a of agents) {
        const headers = await signRequest(a.privateKey, { method: 'GET', path: '/agent/v1/settings' });
        const p = proofOf(header(headers), { method: 'GET', path: '/agent/v1/settings', bodySha256: bodyDigest() }, Date.now());
        expect({ round, ok: p.ok && verifier.verify(await publicKeyPoint(a.publicJwk), p.proof) }).toEqual({ round, ok: true });
      }
    }
    expect(verifier.verify(null, { canonical: 'x', signature: new Uint8Array(64) })).toBe(false);
  });
});
