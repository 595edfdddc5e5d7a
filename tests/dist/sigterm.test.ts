import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import net from 'node:net';
import path from 'node:path';
import { spawnServer, type RunningServer } from '../helpers/spawnServer';

/**
 * SIGTERM on the real process (`node dist/server.js`) under load: 50 clients, each on its own
 * keep-alive connection, send GETs back to back. They behave as a load balancer in front of
 * the portal does: once `/readyz` answers 503 they open no new connection to it, but keep
 * sending on the connections they hold for as long as the portal keeps them open. Every
 * request must be answered; once the drain has begun every answer says `Connection: close`
 * (which is how those connections end), including the answer to a request that was in
 * flight when the signal came; the process exits 0 without cutting anything.
 */
const ROOT = path.resolve(__dirname, '../..');
const CLIENTS = 50;
const DELAY_MS = 1500;
const PATHS = ['/healthz', '/login'];

type Outcome =
  | { kind: 'answered'; status: number; connection: string | undefined; sentAt: number }
  | { kind: 'refused' }
  | { kind: 'failed'; error: string; sentAt: number };

function get(agent: http.Agent, url: string): Promise<Outcome> {
  const sentAt = performance.now();
  return new Promise((resolve) => {
    const req = http.get(url, { agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ kind: 'answered', status: res.statusCode!, connection: res.headers.connection, sentAt }));
      res.on('error', (err) => resolve({ kind: 'failed', error: `${err.message} (body)`, sentAt }));
    });
    req.on('error', (err: NodeJS.ErrnoException) =>
      // Refused: the listener is closed and the request never reached the server (a load
      // balancer has stopped sending by then); anything else is a request the server dropped.
      resolve(err.code === 'ECONNREFUSED' ? { kind: 'refused' } : { kind: 'failed', error: `${err.code ?? ''} ${err.message}`, sentAt }),
    );
  });
}

/**
 * A request in flight across the whole drain: its headers arrive before the signal, the rest
 * of its body only once the listener is closed (a slow upload).
 */
function slowUpload(port: number) {
  const body = JSON.stringify({ AccessToken: 'x'.repeat(64) });
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  let error: string | null = null;
  socket.on('data', (d: Buffer) => (received += d.toString('latin1')));
  socket.on('error', (err: NodeJS.ErrnoException) => (error = err.code ?? err.message));
  const ended = new Promise<{ received: string; error: string | null }>((r) => socket.on('close', () => r({ received, error })));
  socket.write(
    [
      'POST /cognito/ HTTP/1.1',
      'Host: 127.0.0.1',
      'Content-Type: application/x-amz-json-1.1',
      'X-Amz-Target: AWSCognitoIdentityProviderService.GetUser',
      `Content-Length: ${body.length}`,
      '',
      body.slice(0, 10),
    ].join('\r\n'),
  );
  return { finish: () => socket.write(body.slice(10)), ended };
}

describe('SIGTERM under load (dist/server.js)', () => {
  let dataDir: string;
  let server: RunningServer | undefined;

  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-sigterm-'));
  });
  afterAll(() => {
    if (server && server.proc.exitCode === null) server.proc.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('50 concurrent keep-alive clients: zero failed requests, Connection: close during the drain, exit 0', async () => {
    server = await spawnServer({
      cwd: ROOT,
      env: { DATA_DIR: dataDir, SEED_DEMO: 'false', LOG_LEVEL: 'info', SHUTDOWN_DELAY_MS: String(DELAY_MS), SHUTDOWN_TIMEOUT_MS: '10000' },
      timeoutMs: 90_000,
    });
    const running = server;
    let exited = false;
    const exitCode = running.exited.then((code) => {
      exited = true;
      return code;
    });

    const outcomes: Outcome[] = [];
    const lastOf: Outcome[] = [];
    const agents = Array.from({ length: CLIENTS }, () => new http.Agent({ keepAlive: true, maxSockets: 1 }));
    let drainSeenAt = Infinity;
    const client = async (agent: http.Agent, n: number) => {
      for (let i = n; !exited; i++) {
        const outcome = await get(agent, `${running.url}${PATHS[i % PATHS.length]}`);
        outcomes.push(outcome);
        lastOf[n] = outcome;
        // The connection is gone: a new one would go to another replica once the drain is seen.
        const connectionEnded = outcome.kind !== 'answered' || outcome.connection === 'close';
        if (connectionEnded && performance.now() > drainSeenAt) return;
      }
    };
    const load = Promise.all(agents.map((agent, n) => client(agent, n)));

    // Load first (a second, and each client answered a few times however slow the machine), then
    // the signal; the drain begins when /readyz says so.
    const upload = slowUpload(running.port);
    await new Promise((r) => setTimeout(r, 1000));
    while (!exited && outcomes.filter((o) => o.kind === 'answered').length <= CLIENTS * 4) await new Promise((r) => setTimeout(r, 20));
    running.proc.kill('SIGTERM');
    void (async () => {
      while (!running.output().includes('shutdown: no longer accepting connections')) await new Promise((r) => setTimeout(r, 10));
      await new Promise((r) => setTimeout(r, 100));
      upload.finish();
    })();
    const monitor = new http.Agent({ keepAlive: false });
    while (!exited && drainSeenAt === Infinity) {
      const r = await get(monitor, `${running.url}/readyz`);
      if (r.kind === 'answered' && r.status === 503) drainSeenAt = performance.now();
      else await new Promise((res) => setTimeout(res, 10));
    }

    expect(await exitCode).toBe(0);
    await load;
    for (const agent of [...agents, monitor]) agent.destroy();

    const answered = outcomes.filter((o) => o.kind === 'answered');
    const failed = outcomes.filter((o) => o.kind === 'failed' || (o.kind === 'answered' && o.status !== 200));
    expect(failed).toEqual([]);
    expect(drainSeenAt).toBeLessThan(Infinity);
    // Under load up to the drain and into it: every answer during the drain closes its connection.
    const duringDrain = answered.filter((o) => o.sentAt > drainSeenAt);
    expect(answered.length).toBeGreaterThan(CLIENTS * 4);
    expect(duringDrain.filter((o) => o.connection !== 'close')).toEqual([]);
    // Every client's connection was ended by an answer saying so, none by a reset.
    expect(lastOf.filter((o) => o.kind !== 'answered' || o.connection !== 'close')).toEqual([]);
    expect(lastOf).toHaveLength(CLIENTS);
    expect(outcomes.filter((o) => o.kind === 'refused')).toEqual([]);

    // The upload that straddled the listener's close was answered in full, saying Connection: close.
    const uploaded = await upload.ended;
    expect(uploaded.error).toBeNull();
    expect(uploaded.received).toMatch(/^HTTP\/1\.1 \d{3} /);
    expect(uploaded.received).toMatch(/\r\nConnection: close\r\n/i);

    const log = running.output();
    expect(log).toMatch(/"msg":"shutdown: complete"/);
    expect(log).toMatch(/"forced":false/);
  }, 120_000);
});
