/**
 * One attempt of a delivery: a POST of the signed JSON body to the subscription's URL, with
 * node:http/https directly. The connection goes to an address checked by the outbound guard
 * (pinned); one timeout covers resolution, connection, request and response; at most
 * `maxResponseBytes` of the answer are read, then the connection is dropped; redirects are not
 * followed (a 3xx is a failure: the lender must give the final URL).
 */
import http from 'node:http';
import https from 'node:https';
import { checkedAddresses, pinnedLookup, systemLookup, TargetRefusedError, urlHost, type Lookup } from './outboundGuard';

export const USER_AGENT = 'Macrolock-Webhooks/1';

export interface SendRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
  maxResponseBytes: number;
  allowPrivateTargets: boolean;
  /** The resolver (tests replace it to play a DNS rebinding); the system's by default. */
  lookup?: Lookup;
}

export interface SendResult {
  /** A 2xx answer. */
  ok: boolean;
  status: number | null;
  durationMs: number;
  /** What went wrong, in short Spanish (null on success). */
  error: string | null;
}

/** Sends one attempt; never throws (every failure is a result). */
export async function sendWebhook(req: SendRequest): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, req.timeoutMs);
  try {
    const url = new URL(req.url);
    const host = urlHost(url);
    const addresses = await Promise.race([
      checkedAddresses(host, req.allowPrivateTargets, req.lookup ?? systemLookup),
      new Promise<never>((_, reject) => controller.signal.addEventListener('abort', () => reject(new Error('timeout')), { once: true })),
    ]);
    const status = await post(url, req, addresses, controller.signal);
    // The answer did not finish in time (a body trickling in): a timeout, whatever its status.
    if (timedOut) throw new Error('timeout');
    const ok = status >= 200 && status < 300;
    const error = ok ? null : status >= 300 && status < 400 ? `HTTP ${status} (no se siguen redirecciones)` : `HTTP ${status}`;
    return { ok, status, durationMs: elapsed(), error };
  } catch (err) {
    const error = timedOut
      ? `Tiempo de espera agotado (${req.timeoutMs} ms)`
      : err instanceof TargetRefusedError
        ? err.message
        : `Error de conexión: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`;
    return { ok: false, status: null, durationMs: elapsed(), error };
  } finally {
    clearTimeout(timer);
  }
}

/** The POST itself: resolves with the answer's status once its body was read (up to the cap). */
function post(url: URL, req: SendRequest, addresses: Awaited<ReturnType<typeof checkedAddresses>>, signal: AbortSignal): Promise<number> {
  const body = Buffer.from(req.body, 'utf8');
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<number>((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: 'POST',
        signal,
        // A fresh connection per attempt: a pooled socket would skip the pinned lookup.
        agent: false,
        lookup: pinnedLookup(addresses) as never,
        headers: {
          ...req.headers,
          'content-type': 'application/json',
          'content-length': String(body.length),
          'user-agent': USER_AGENT,
          connection: 'close',
        },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          // Enough: the status is known, the rest is not read.
          if (read >= req.maxResponseBytes) {
            res.destroy();
            resolve(status);
          }
        });
        res.on('end', () => resolve(status));
        res.on('close', () => resolve(status));
        res.on('error', () => resolve(status));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}
