/**
 * The load mode's open loop (tools/simulator/load.ts, `ratePerSecond`): check-ins sent on a fixed
 * schedule whatever the server's speed, each latency counted from the instant it was due. The
 * server here is a plain HTTP server that records what it receives and answers after a set delay;
 * the load mode against the portal itself is tests/integration/agentLoad.test.ts.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { runCheckinLoad } from './load';

interface Received {
  at: number;
  path: string | undefined;
  authorization: string | undefined;
  body: unknown;
}

async function recordingServer(answer: (n: number) => { delayMs: number; status: number }) {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (text += c));
    req.on('end', () => {
      received.push({ at: performance.now(), path: req.url, authorization: req.headers.authorization, body: JSON.parse(text) });
      const { delayMs, status } = answer(received.length);
      setTimeout(() => res.writeHead(status, { 'content-type': 'application/json' }).end('{}'), delayMs);
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () => new Promise((r) => server.close(r)),
  };
}

describe('the load mode at a set rate (open loop)', () => {
  test('sends rate × duration check-ins spread over the duration, each the next token, and counts their answers', async () => {
    const server = await recordingServer(() => ({ delayMs: 0, status: 200 }));
    try {
      let next = 0;
      const started = performance.now();
      const result = await runCheckinLoad({
        urls: [server.url],
        connections: 4,
        durationSeconds: 1,
        ratePerSecond: 40,
        nextCheckin: (i) => ({ headers: { authorization: `Bearer token-${next++}` }, body: JSON.stringify({ wait: 0, batteryLevel: i }) }),
      });
      expect(result).toMatchObject({ requests: 40, ok: 40, non2xx: 0, errors: 0, timeouts: 0 });
      expect(server.received.map((r) => r.path)).toEqual(Array(40).fill('/agent/v1/checkin'));
      expect(server.received.map((r) => r.authorization).sort()).toEqual(Array.from({ length: 40 }, (_, i) => `Bearer token-${i}`).sort());
      expect(server.received.map((r) => (r.body as { wait: number }).wait)).toEqual(Array(40).fill(0));
      // Spread over the second, not sent at once: the last arrives about 975 ms after the first
      // was due (39 intervals of 25 ms), the first half within the first half second.
      const offsets = server.received.map((r) => r.at - started).sort((a, b) => a - b);
      expect(offsets.at(-1)! - offsets[0]!).toBeGreaterThan(900);
      expect(offsets[19]!).toBeLessThan(offsets.at(-1)! - 400);
      expect(result.perSecond).toBeGreaterThan(30);
      expect(result.perSecond).toBeLessThan(45);
      expect(result.latencyMs.p99).toBeGreaterThanOrEqual(result.latencyMs.p50);
    } finally {
      await server.close();
    }
  });

  test('a check-in that waits for a free connection counts its wait from the instant it was due', async () => {
    // One connection, each answer 100 ms, 20 due in one second: the server can answer 10 a
    // second, so the last one due (at 950 ms) is answered about 2 s after the start. A closed loop
    // would report 100 ms for every request; the open loop reports the backlog the agents saw.
    const server = await recordingServer(() => ({ delayMs: 100, status: 200 }));
    try {
      const result = await runCheckinLoad({
        urls: [server.url],
        connections: 1,
        durationSeconds: 1,
        ratePerSecond: 20,
        nextCheckin: () => ({ headers: { authorization: 'Bearer token' }, body: '{"wait":0}' }),
      });
      expect(result).toMatchObject({ requests: 20, ok: 20, errors: 0 });
      expect(result.latencyMs.p50).toBeGreaterThan(400);
      expect(result.latencyMs.max).toBeGreaterThan(900);
      expect(result.latencyMs.max).toBeLessThan(1_600);
      expect(result.perSecond).toBeLessThan(12);
    } finally {
      await server.close();
    }
  });

  test('answers other than 2xx and servers that refuse the connection are counted apart', async () => {
    const server = await recordingServer((n) => ({ delayMs: 0, status: n % 2 === 0 ? 429 : 200 }));
    const refused = http.createServer();
    refused.listen(0, '127.0.0.1');
    await new Promise((r) => refused.once('listening', r));
    const refusedUrl = `http://127.0.0.1:${(refused.address() as AddressInfo).port}`;
    await new Promise((r) => refused.close(r));
    try {
      const result = await runCheckinLoad({
        urls: [server.url, refusedUrl],
        connections: 2,
        durationSeconds: 1,
        ratePerSecond: 20,
        nextCheckin: () => ({ headers: { authorization: 'Bearer token' }, body: '{"wait":0}' }),
      });
      // Round-robin: the even check-ins to the server (half of them answered 429), the odd ones refused.
      expect(result).toMatchObject({ requests: 20, ok: 5, non2xx: 5, errors: 10, timeouts: 0 });
      expect(server.received).toHaveLength(10);
    } finally {
      await server.close();
    }
  });

  test('an answer cut off in the middle counts as an error and the run still ends', async () => {
    const server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
        res.write('{"partial":');
        setTimeout(() => res.socket?.destroy(), 5);
      });
    });
    server.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    try {
      const result = await runCheckinLoad({
        urls: [`http://127.0.0.1:${(server.address() as AddressInfo).port}`],
        connections: 2,
        durationSeconds: 1,
        ratePerSecond: 10,
        nextCheckin: () => ({ headers: { authorization: 'Bearer token' }, body: '{"wait":0}' }),
      });
      expect(result).toMatchObject({ requests: 10, ok: 0, non2xx: 0, errors: 10, timeouts: 0 });
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
