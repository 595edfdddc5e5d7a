/**
 * A lender's webhook endpoint for tests: a node:http server on loopback that records every
 * request (headers, body, when) and answers as the test says. It counts the requests of each
 * `webhook-id` being handled at the same time (two dispatchers must never send one delivery at once).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  json: { type: string; timestamp: string; data: Record<string, unknown> };
  id: string;
  at: number;
}

/** What to do with a request: the status, a delay before answering, a body, headers. */
export interface Answer {
  status?: number;
  delayMs?: number;
  body?: string | Buffer;
  headers?: Record<string, string>;
  /** Write this many bytes of body in 64 KiB chunks (a huge answer). */
  streamBytes?: number;
  /** Never answer (the request hangs until the client gives up or the server closes). */
  hang?: boolean;
}

export interface Receiver {
  url: string;
  port: number;
  received: ReceivedWebhook[];
  /** Answered with a 2xx. */
  delivered(): ReceivedWebhook[];
  /** The most requests of one webhook-id handled at once. */
  maxConcurrentPerId: number;
  /** Bytes of a streamed answer written before the client hung up, per request. */
  streamed: number[];
  answer: (r: ReceivedWebhook) => Answer | Promise<Answer>;
  close(): Promise<void>;
}

export async function startReceiver(answer: Receiver['answer'] = () => ({ status: 200 })): Promise<Receiver> {
  const active = new Map<string, number>();
  const okIds: ReceivedWebhook[] = [];
  const receiver: Receiver = {
    url: '',
    port: 0,
    received: [],
    delivered: () => okIds,
    maxConcurrentPerId: 0,
    streamed: [],
    answer,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const body = Buffer.concat(chunks).toString('utf8');
        let json: ReceivedWebhook['json'];
        try {
          json = JSON.parse(body) as ReceivedWebhook['json'];
        } catch {
          json = { type: '', timestamp: '', data: {} };
        }
        const id = String(req.headers['webhook-id'] ?? '');
        const r: ReceivedWebhook = { path: req.url ?? '', headers: req.headers, body, json, id, at: Date.now() };
        receiver.received.push(r);
        const n = (active.get(id) ?? 0) + 1;
        active.set(id, n);
        receiver.maxConcurrentPerId = Math.max(receiver.maxConcurrentPerId, n);
        const done = () => active.set(id, (active.get(id) ?? 1) - 1);
        res.on('close', done);
        const a = await receiver.answer(r);
        if (a.delayMs) await new Promise((resolve) => setTimeout(resolve, a.delayMs));
        if (a.hang || res.destroyed) return;
        const status = a.status ?? 200;
        if (a.streamBytes) {
          res.writeHead(status, { 'content-type': 'application/octet-stream', ...a.headers });
          let written = 0;
          const chunk = Buffer.alloc(65_536, 120);
          const index = receiver.streamed.push(0) - 1;
          const pump = () => {
            while (written < a.streamBytes! && !res.destroyed) {
              written += chunk.length;
              receiver.streamed[index] = written;
              if (!res.write(chunk)) return void res.once('drain', pump);
            }
            if (!res.destroyed) res.end();
          };
          pump();
          if (status >= 200 && status < 300) okIds.push(r);
          return;
        }
        res.writeHead(status, { 'content-type': 'text/plain', ...a.headers });
        res.end(a.body ?? 'ok');
        if (status >= 200 && status < 300) okIds.push(r);
      })();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${receiver.port}`;
  return receiver;
}

/** Polls `cond` every 20 ms until it holds or `ms` passed (then throws with `what`). */
export async function waitFor(cond: () => boolean | Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`tiempo agotado esperando: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
