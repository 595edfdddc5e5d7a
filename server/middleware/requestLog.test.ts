import { Writable } from 'node:stream';
import express from 'express';
import request from 'supertest';
import { createLogger } from '../logger';
import { requestLog } from './requestLog';

class Lines extends Writable {
  readonly lines: Record<string, unknown>[] = [];
  override _write(chunk: Buffer, _enc: string, done: () => void) {
    for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) this.lines.push(JSON.parse(line) as Record<string, unknown>);
    done();
  }
}

function appWith(level: string) {
  const out = new Lines();
  const logger = createLogger(level, out, []);
  const child = jest.spyOn(logger, 'child');
  const app = express();
  app.use(requestLog(logger, { message: 'request completed', level: (status) => (status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info') }));
  app.get('/ok', (_req, res) => {
    res.send('ok');
  });
  app.get('/logs', (req, res) => {
    req.log!.info({ step: 1 }, 'working');
    res.send('ok');
  });
  app.get('/boom', (_req, res) => {
    res.status(500).send('no');
  });
  app.get('/slow', () => undefined);
  return { app, out, child };
}

test('a request that logs nothing builds nothing: no child logger, no line', async () => {
  const { app, out, child } = appWith('warn');
  const res = await request(app).get('/ok').set('AccessToken', 'secret').expect(200);
  expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  expect(child).not.toHaveBeenCalled();
  expect(out.lines).toEqual([]);
});

test("an enabled level logs the finished request with pino-http's fields, the auth headers redacted", async () => {
  const { app, out } = appWith('info');
  await request(app).get('/ok?x=1').set('x-request-id', 'abc-123').set('AccessToken', 'secret').set('username', 'ana').expect(200);
  expect(out.lines).toHaveLength(1);
  const line = out.lines[0]!;
  expect(line).toMatchObject({
    level: 30,
    msg: 'request completed',
    res: { statusCode: 200 },
    req: { id: 'abc-123', method: 'GET', url: '/ok?x=1' },
  });
  expect(Number.isInteger(line.responseTime)).toBe(true);
  const headers = (line.req as { headers: Record<string, string> }).headers;
  expect(headers.accesstoken).toBe('[REDACTED]');
  expect(headers.username).toBe('ana');
});

test("req.log's lines carry the request; a failed request is logged at error with an error", async () => {
  const { app, out } = appWith('warn');
  await request(app).get('/logs').expect(200);
  expect(out.lines).toEqual([]);
  await request(app).get('/boom').set('x-request-id', 'r-500').expect(500);
  expect(out.lines).toHaveLength(1);
  expect(out.lines[0]).toMatchObject({
    level: 50,
    req: { id: 'r-500', url: '/boom' },
    res: { statusCode: 500 },
    err: { message: 'failed with status code 500' },
  });

  const info = appWith('info');
  await request(info.app).get('/logs').set('x-request-id', 'r-1').expect(200);
  expect(info.out.lines.map((l) => [l.msg, (l.req as { id: string }).id])).toEqual([
    ['working', 'r-1'],
    ['request completed', 'r-1'],
  ]);
  expect(info.out.lines[0]).toMatchObject({ step: 1 });
});

test('a request the client gives up on is logged once, as aborted', async () => {
  const { app, out } = appWith('info');
  const server = app.listen(0);
  try {
    const { port } = server.address() as { port: number };
    const aborted = new AbortController();
    const pending = fetch(`http://127.0.0.1:${port}/slow`, { signal: aborted.signal }).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 100));
    aborted.abort();
    await pending;
    await new Promise((r) => setTimeout(r, 100));
  } finally {
    server.closeAllConnections();
    server.close();
  }
  expect(out.lines).toHaveLength(1);
  expect(out.lines[0]).toMatchObject({ msg: 'request completed', aborted: true, req: { url: '/slow' } });
});
