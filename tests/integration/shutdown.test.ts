import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { Readiness } from '../../server/health/readiness';
import { createLogger } from '../../server/logger';
import { drain } from '../../server/shutdown';

/** A listening server whose /slow answers only when the test says so. */
function slowServer() {
  const app = express();
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let markStarted!: () => void;
  const started = new Promise<void>((r) => (markStarted = r));
  app.get('/slow', async (_req, res) => {
    markStarted();
    await released;
    res.send('slow done');
  });
  app.get('/fast', (_req, res) => {
    res.send('fast');
  });
  app.get('/never', () => {
    markStarted();
  });
  const server = http.createServer(app);
  return { server, release, started };
}

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const silent = createLogger('silent');

describe('graceful shutdown (drain)', () => {
  test('requests accepted before the signal complete; new ones are served during the delay, refused after', async () => {
    const { server, release, started } = slowServer();
    const base = await listen(server);
    const readiness = new Readiness([]);
    const events: string[] = [];

    const slow = fetch(`${base}/slow`).then(async (r) => {
      events.push('slow answered');
      return { status: r.status, body: await r.text() };
    });
    await started;

    const done = drain({
      server,
      readiness,
      logger: silent,
      delayMs: 300,
      timeoutMs: 5000,
      close: async () => {
        events.push('resources closed');
      },
    });
    expect(readiness.isShuttingDown).toBe(true);

    // During the delay the server still serves new requests.
    const during = await fetch(`${base}/fast`);
    expect(await during.text()).toBe('fast');

    // After the delay the listener is closed.
    await new Promise((r) => setTimeout(r, 450));
    await expect(fetch(`${base}/fast`)).rejects.toThrow();

    // The request accepted before the signal still completes, before the resources close.
    release();
    expect(await slow).toEqual({ status: 200, body: 'slow done' });
    expect(await done).toBe(0);
    expect(events).toEqual(['slow answered', 'resources closed']);
  });

  test('a request still running at the deadline is cut and the process exits cleanly', async () => {
    const { server, started } = slowServer();
    const base = await listen(server);
    const never = fetch(`${base}/never`).catch((err: Error) => err);
    await started;
    const t0 = Date.now();
    const code = await drain({
      server,
      readiness: new Readiness([]),
      logger: silent,
      delayMs: 0,
      timeoutMs: 200,
      close: async () => undefined,
    });
    expect(code).toBe(0);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(190);
    expect(String(await never)).toMatch(/fetch failed/);
  });

  test('a failure closing resources gives exit code 1', async () => {
    const { server } = slowServer();
    await listen(server);
    const code = await drain({
      server,
      readiness: new Readiness([]),
      logger: silent,
      delayMs: 0,
      timeoutMs: 100,
      close: () => Promise.reject(new Error('pool')),
    });
    expect(code).toBe(1);
  });
});
