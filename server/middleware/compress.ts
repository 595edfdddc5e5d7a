import compression from 'compression';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import Negotiator from 'negotiator';
import zlib from 'node:zlib';

/** A request that names no compressed encoding (a monitor, a load balancer's check) skips all of it. */
const ACCEPTS_COMPRESSION = /gzip|deflate|br|\*/i;

/**
 * Response compression: compression() negotiates and wraps every response, and a body sent whole
 * is compressed at once before it reaches compression()'s stream (compressWhole).
 */
export function compressResponses(): RequestHandler {
  const stream = compression();
  const whole = compressWhole();
  return (req, res, next) => {
    if (!ACCEPTS_COMPRESSION.test(req.headers['accept-encoding'] ?? '')) return next();
    stream(req, res, (err?: unknown) => (err ? next(err) : whole(req, res, next)));
  };
}

/**
 * Bodies sent whole (res.json, res.send: one res.end with the body, no res.write before) and no
 * larger than this are compressed at once, in a synchronous zlib call; larger ones and streamed
 * ones are left to compression(). Compressing a body up to this size at once holds the event loop
 * under a millisecond, whereas compression()'s zlib stream (a thread-pool round trip and
 * stream events per response) adds more than that to every small API answer.
 */
export const WHOLE_BODY_MAX_BYTES = 256 * 1024;
/** compression()'s default: smaller bodies are not worth the header. */
export const WHOLE_BODY_MIN_BYTES = 1024;

/** compression()'s own choices: brotli at quality 4, gzip and deflate at level 6; brotli, then gzip, preferred. */
const ENCODINGS = ['br', 'gzip', 'deflate', 'identity'] as const;
const PREFERRED = ['br', 'gzip'] as const;
type Encoding = (typeof ENCODINGS)[number];
const BROTLI = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } };

/** The encoding compression() would choose (negotiator 1's preferred list; its types still describe 0.6). */
type EncodingOf = (this: Negotiator, available: readonly string[], options: { preferred: readonly string[] }) => Encoding | undefined;
const negotiate = (req: Request): Encoding | undefined => {
  const negotiator = new Negotiator(req);
  return (negotiator.encoding as EncodingOf).call(negotiator, ENCODINGS, { preferred: PREFERRED });
};

function compress(body: Buffer, encoding: Exclude<Encoding, 'identity'>): Buffer {
  if (encoding === 'br') return zlib.brotliCompressSync(body, BROTLI);
  if (encoding === 'gzip') return zlib.gzipSync(body);
  return zlib.deflateSync(body);
}

/**
 * A whole body compressed in place: mounted after compression(), it wraps res.end, so a body that
 * arrives whole is sent already encoded (compression() then leaves it: 'already encoded') and
 * anything else (streams, HEAD, 304, bodies out of bounds, encodings refused) goes on to
 * compression() unchanged. The encoding is the one compression() would choose.
 */
function compressWhole(): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const end = res.end as (this: Response, ...args: unknown[]) => Response;
    const write = res.write;
    let written = false;
    res.write = function (this: Response, ...args: Parameters<Response['write']>) {
      written = true;
      return write.apply(this, args);
    } as Response['write'];
    res.end = function (this: Response, chunk?: unknown, ...rest: unknown[]) {
      const text = typeof rest[0] === 'string' ? (rest[0] as BufferEncoding) : 'utf8';
      const length = typeof chunk === 'string' ? Buffer.byteLength(chunk, text) : Buffer.isBuffer(chunk) ? chunk.length : -1;
      if (length >= 0 && !written && !this.headersSent && req.method !== 'HEAD' && eligible(req, this, length)) {
        const encoding = negotiate(req);
        if (encoding !== undefined && encoding !== 'identity') {
          const encoded = compress(typeof chunk === 'string' ? Buffer.from(chunk, text) : (chunk as Buffer), encoding);
          this.vary('Accept-Encoding');
          this.setHeader('Content-Encoding', encoding);
          this.setHeader('Content-Length', encoded.length);
          const done = rest.find((a): a is () => void => typeof a === 'function');
          return end.apply(this, done ? [encoded, done] : [encoded]);
        }
      }
      return end.call(this, chunk, ...rest);
    } as Response['end'];
    next();
  };
}

/** Within the bounds, and what compression() itself would compress (its own type filter, no-transform). */
function eligible(req: Request, res: Response, length: number): boolean {
  if (length < WHOLE_BODY_MIN_BYTES || length > WHOLE_BODY_MAX_BYTES) return false;
  if (res.statusCode === 204 || res.statusCode === 304) return false;
  const encoding = res.getHeader('Content-Encoding');
  if (encoding !== undefined && encoding !== 'identity') return false;
  if (/\bno-transform\b/i.test(String(res.getHeader('Cache-Control') ?? ''))) return false;
  return compression.filter(req, res);
}
