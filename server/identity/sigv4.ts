import { createHash, createHmac, timingSafeEqual, type Hash, type Hmac } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { SignatureV4 } from '@smithy/signature-v4';
import { CognitoError } from './cognitoErrors';

export interface AdminCredentials {
  accessKeyId: string;
  secretAccessKey: string;
}

type SourceData = string | ArrayBuffer | ArrayBufferView;

const toBuffer = (data: SourceData, encoding: BufferEncoding = 'utf8'): Buffer =>
  typeof data === 'string'
    ? Buffer.from(data, encoding)
    : ArrayBuffer.isView(data)
      ? Buffer.from(data.buffer, data.byteOffset, data.byteLength)
      : Buffer.from(data);

/** SHA-256 (or HMAC-SHA-256 with a secret) from node:crypto, in the shape the signer expects. */
export class NodeSha256 {
  private hash: Hash | Hmac;

  constructor(private readonly secret?: SourceData) {
    this.hash = this.fresh();
  }

  private fresh(): Hash | Hmac {
    return this.secret === undefined ? createHash('sha256') : createHmac('sha256', toBuffer(this.secret));
  }

  update(data: SourceData, encoding?: 'utf8' | 'ascii' | 'latin1'): void {
    this.hash.update(toBuffer(data, encoding));
  }

  digest(): Promise<Uint8Array> {
    return Promise.resolve(new Uint8Array(this.hash.digest()));
  }

  reset(): void {
    this.hash = this.fresh();
  }
}

/** How far `X-Amz-Date` may be from the server's clock, either way (as AWS). */
export const MAX_SIGNATURE_SKEW_MS = 5 * 60 * 1000;

/** Headers every admin request must sign: without them a signature could be moved to another host, time or operation. */
const REQUIRED_SIGNED_HEADERS = ['host', 'x-amz-date', 'x-amz-target'];

const AUTHORIZATION = /^AWS4-HMAC-SHA256 Credential=([^,\s]+),\s*SignedHeaders=([^,\s]+),\s*Signature=([0-9a-f]{64})$/;
const AMZ_DATE = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/;

const missing = () => new CognitoError('MissingAuthenticationTokenException', 'Missing Authentication Token');
const incomplete = (message: string) => new CognitoError('IncompleteSignatureException', message);
const invalid = (message: string) => new CognitoError('InvalidSignatureException', message);
const unrecognized = () => new CognitoError('UnrecognizedClientException', 'The security token included in the request is invalid.');

const amzDate = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

const sameSecret = (a: string, b: string) => timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());

const header = (headers: IncomingHttpHeaders, name: string): string | undefined => {
  const v = headers[name];
  return Array.isArray(v) ? v.join(',') : v;
};

export interface SignedHttpRequest {
  method: string;
  /** The request target as received (path and query, still percent-encoded). */
  url: string;
  headers: IncomingHttpHeaders;
  /** The body bytes exactly as received. */
  body: Buffer;
}

/**
 * Verifies an AWS Signature Version 4 (`Authorization` header) made with `credentials` for
 * `service` in `region`: the key id, the credential scope, `X-Amz-Date` within five minutes of
 * `now`, then the signature recomputed over the same method, path, query, signed headers and
 * raw body, compared in constant time. Throws the protocol's error when any check fails.
 */
export async function verifySigV4(
  req: SignedHttpRequest,
  opts: { credentials: AdminCredentials; region: string; service: string; now: number },
): Promise<void> {
  const authorization = header(req.headers, 'authorization');
  if (!authorization || !authorization.startsWith('AWS4-HMAC-SHA256 ')) throw missing();
  const parsed = AUTHORIZATION.exec(authorization.trim());
  if (!parsed) throw incomplete('Authorization header requires Credential, SignedHeaders and Signature.');
  // The pattern's three groups are not optional: a match has all of them.
  const [credential = '', signedHeaderList = '', signature = ''] = parsed.slice(1);

  const scope = credential.split('/');
  if (scope.length !== 5) throw incomplete('Credential must have exactly 5 slash-delimited elements.');
  const [keyId, scopeDate, scopeRegion, scopeService, terminator] = scope as [string, string, string, string, string];
  if (!sameSecret(keyId, opts.credentials.accessKeyId)) throw unrecognized();
  if (scopeRegion !== opts.region) throw invalid(`Credential should be scoped to a valid region, not '${scopeRegion}'.`);
  if (scopeService !== opts.service) throw invalid(`Credential should be scoped to correct service: '${opts.service}'.`);
  if (terminator !== 'aws4_request') throw invalid("Credential should be scoped with a valid terminator: 'aws4_request'.");

  const dateHeader = header(req.headers, 'x-amz-date');
  const d = dateHeader ? AMZ_DATE.exec(dateHeader) : null;
  if (!dateHeader || !d) throw incomplete('Authorization header requires existence of a valid X-Amz-Date header.');
  const signingMs = Date.UTC(+d[1]!, +d[2]! - 1, +d[3]!, +d[4]!, +d[5]!, +d[6]!);
  if (Number.isNaN(signingMs) || amzDate(signingMs) !== dateHeader) throw incomplete('X-Amz-Date is not a valid date.');
  if (signingMs < opts.now - MAX_SIGNATURE_SKEW_MS) {
    throw invalid(
      `Signature expired: ${dateHeader} is now earlier than ${amzDate(opts.now - MAX_SIGNATURE_SKEW_MS)} (${amzDate(opts.now)} - 5 min.)`,
    );
  }
  if (signingMs > opts.now + MAX_SIGNATURE_SKEW_MS) {
    throw invalid(
      `Signature not yet current: ${dateHeader} is still later than ${amzDate(opts.now + MAX_SIGNATURE_SKEW_MS)} (${amzDate(opts.now)} + 5 min.)`,
    );
  }
  if (scopeDate !== dateHeader.slice(0, 8)) throw invalid('Date in Credential scope does not match YYYYMMDD from X-Amz-Date.');

  const signedHeaders = signedHeaderList.split(';');
  const wellFormed =
    signedHeaders.every((h, i) => /^[a-z0-9-]+$/.test(h) && (i === 0 || signedHeaders[i - 1]! < h)) && !signedHeaders.includes('authorization');
  if (!wellFormed) throw invalid('SignedHeaders must be lower case, sorted, without duplicates or Authorization.');
  for (const name of REQUIRED_SIGNED_HEADERS) {
    if (!signedHeaders.includes(name)) throw invalid(`'${name}' must be a signed header.`);
  }

  // The request the client signed, rebuilt from what arrived: only the headers it listed.
  const headers: Record<string, string> = {};
  for (const name of signedHeaders) {
    const value = header(req.headers, name);
    if (value === undefined) throw invalid(`Signed header '${name}' is missing from the request.`);
    headers[name] = value;
  }
  // A signed payload hash is replaced by the hash of the bytes received: a body changed after
  // signing then fails the signature, whatever the header says.
  if ('x-amz-content-sha256' in headers) headers['x-amz-content-sha256'] = createHash('sha256').update(req.body).digest('hex');

  const queryStart = req.url.indexOf('?');
  const path = queryStart === -1 ? req.url : req.url.slice(0, queryStart);
  const query: Record<string, string | string[]> = {};
  if (queryStart !== -1) {
    for (const [k, v] of new URLSearchParams(req.url.slice(queryStart + 1))) {
      const prev = query[k];
      query[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
    }
  }

  const signer = new SignatureV4({
    service: opts.service,
    region: opts.region,
    credentials: { accessKeyId: opts.credentials.accessKeyId, secretAccessKey: opts.credentials.secretAccessKey },
    sha256: NodeSha256,
    applyChecksum: false,
  });
  const resigned = await signer.sign(
    { method: req.method, protocol: 'http:', hostname: headers.host ?? '', path, query, headers, body: new Uint8Array(req.body) },
    { signingDate: new Date(signingMs), signableHeaders: new Set(signedHeaders) },
  );
  const expected = AUTHORIZATION.exec(String(resigned.headers.authorization ?? resigned.headers.Authorization));
  if (!expected || expected[2] !== signedHeaderList) throw invalid('The request signature we calculated does not match the signature you provided.');
  if (!timingSafeEqual(Buffer.from(expected[3]!, 'hex'), Buffer.from(signature, 'hex'))) {
    throw invalid('The request signature we calculated does not match the signature you provided.');
  }
}
