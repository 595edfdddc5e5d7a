import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import express from 'express';
import { Readiness } from '../../server/health/readiness';
import { createLogger } from '../../server/logger';
import { drain, trackConnections } from '../../server/shutdown';

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
  // As the signal handlers do: the drain knows the connections from the start.
  trackConnections(server);
  return { server, release, started };
}

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const silent = createLogger('silent');

/** A raw connection: what it received, and whether it ended with an error (a reset). */
function rawConnection(base: string) {
  const { port } = new URL(base);
  const socket = net.connect(Number(port), '127.0.0.1');
  let received = '';
  socket.on('data', (d: Buffer) => (received += d.toString('latin1')));
  const ended = new Promise<{ received: string; error: string | null }>((resolve) => {
    let error: string | null = null;
    socket.on('error', (err: NodeJS.ErrnoException) => (error = err.code ?? err.message));
    socket.on('close', () => resolve({ received, error }));
  });
  const connected = new Promise<void>((r) => socket.once('connect', () => r()));
  return { socket, connected, ended };
}

const until = async (cond: () => boolean) => {
  while (!cond()) await new Promise((r) => setTimeout(r, 5));
};

describe('graceful shutdown (drain)', () => {
  test('requests accepted before the signal complete; new ones are served during the delay, refused after', async () => {
    const { server, release, started } = slowServer();
    const base = await listen(server);
    const readiness = new Readiness([]);
    const events: string[] = [];

    // Server side: the answer has been handed to the connection in full.
    server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
      if (req.url === '/slow') res.on('finish', () => events.push('slow answered'));
    });
    const slow = fetch(`${base}/slow`).then(async (r) => ({ status: r.status, body: await r.text() }));
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

  test('a connection accepted before the listener closes is answered, even when its request arrives after', async () => {
    const { server } = slowServer();
    const base = await listen(server);
    let accepted = 0;
    server.on('connection', () => accepted++);
    const done = drain({ server, readiness: new Readiness([]), logger: silent, delayMs: 200, timeoutMs: 5000, close: async () => undefined });

    // Connected during the delay; the request is still "on the wire" when the listener closes.
    const conn = rawConnection(base);
    await conn.connected;
    await until(() => accepted === 1);
    await until(() => !server.listening);
    await new Promise((r) => setTimeout(r, 50));
    conn.socket.write('GET /fast HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');

    const { received, error } = await conn.ended;
    expect(error).toBeNull();
    expect(received).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(received).toMatch(/\r\nConnection: close\r\n/i);
    expect(received.endsWith('fast')).toBe(true);
    expect(await done).toBe(0);
  });

  test('keep-alive: an answer in flight when the drain begins, and every later one, says Connection: close', async () => {
    const { server, release, started } = slowServer();
    const base = await listen(server);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = (p: string) =>
      new Promise<{ body: string; connection: string | undefined }>((resolve, reject) => {
        http
          .get(`${base}${p}`, { agent }, (res) => {
            let body = '';
            res.on('data', (d: Buffer) => (body += d.toString()));
            res.on('end', () => resolve({ body, connection: res.headers.connection }));
          })
          .on('error', reject);
      });

    // Before the drain: keep-alive.
    expect(await get('/fast')).toEqual({ body: 'fast', connection: 'keep-alive' });
    const slow = get('/slow');
    await started;
    const done = drain({ server, readiness: new Readiness([]), logger: silent, delayMs: 300, timeoutMs: 5000, close: async () => undefined });
    const during = get('/fast');
    release();
    expect(await slow).toEqual({ body: 'slow done', connection: 'close' });
    expect(await during).toEqual({ body: 'fast', connection: 'close' });
    expect(await done).toBe(0);
    agent.destroy();
  });

  test('a keep-alive connection idle when the listener closes is ended cleanly (no reset), without waiting for the deadline', async () => {
    const { server } = slowServer();
    const base = await listen(server);
    const conn = rawConnection(base);
    await conn.connected;
    conn.socket.write('GET /fast HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await until(() => conn.socket.bytesRead > 0);
    const code = await Promise.race([
      drain({ server, readiness: new Readiness([]), logger: silent, delayMs: 0, timeoutMs: 60_000, close: async () => undefined }),
      new Promise((r) => setTimeout(() => r('deadline'), 10_000)),
    ]);
    expect(code).toBe(0);
    const { received, error } = await conn.ended;
    expect(error).toBeNull();
    expect(received).toMatch(/\r\nConnection: keep-alive\r\n/i);
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

describe('graceful shutdown of long polls', () => {
  test('stopAccepting runs when the listener stops accepting, so a request held open on purpose answers before the deadline', async () => {
    const { server, release, started } = slowServer();
    const base = await listen(server);
    const poll = fetch(`${base}/slow`).then(async (r) => r.text());
    await started;
    const began = Date.now();
    const code = await drain({
      server,
      readiness: new Readiness([]),
      logger: silent,
      delayMs: 50,
      timeoutMs: 20_000,
      // What the app does: its waiting check-ins answer now.
      stopAccepting: async () => release(),
      close: async () => undefined,
    });
    expect(code).toBe(0);
    expect(await poll).toBe('slow done');
    expect(Date.now() - began).toBeLessThan(5_000);
  });
});
