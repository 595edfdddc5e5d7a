import request from 'supertest';
import { createTestDb, testEngines, type TestDb } from '../helpers/testDb';
import { buildTestApp } from '../helpers/testApp';

describe.each(testEngines())('health endpoints (%s)', (engine) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(engine);
  });
  afterAll(async () => {
    await t.dispose();
  });

  test('/healthz answers without touching the database', async () => {
    const { app } = await buildTestApp(t.db);
    const query = jest.spyOn(t.db, 'query');
    const res = await request(app).get('/healthz').expect(200);
    expect(res.body).toEqual({ status: 'ok' });
    expect(res.headers['cache-control']).toBe('no-store');
    expect(query).not.toHaveBeenCalled();
    query.mockRestore();
  });

  test('/readyz is 200 while the database answers, 503 with a reason otherwise', async () => {
    const { app } = await buildTestApp(t.db);
    const ok = await request(app).get('/readyz').expect(200);
    expect(ok.body).toEqual({ ready: true, status: 'ok', checks: { database: 'ok', identity: 'ok' } });

    const { app: broken } = await buildTestApp(t.db, {
      deps: { db: { ...t.db, query: () => Promise.reject(new Error('connection refused')) } },
    });
    const bad = await request(broken).get('/readyz').expect(503);
    expect(bad.body).toEqual({
      ready: false,
      status: 'unavailable',
      checks: { database: 'La base de datos no responde', identity: 'ok' },
    });
  });

  test('/readyz turns 503 at once when shutdown starts', async () => {
    const { app, readiness } = await buildTestApp(t.db);
    await request(app).get('/readyz').expect(200);
    readiness.markShuttingDown();
    const res = await request(app).get('/readyz').expect(503);
    expect(res.body.status).toBe('shutting_down');
    // The rest of the app keeps serving during the delay.
    await request(app).get('/healthz').expect(200);
    const page = await request(app).get('/login').expect(200);
    expect(page.headers.connection).toBe('close');
  });

  test('/metrics exposes default Node metrics and the request histogram by method, route and status', async () => {
    const { app } = await buildTestApp(t.db);
    await request(app).get('/login').expect(200);
    await request(app).get('/no-existe').expect(404);
    await request(app).get('/api/nada').expect(401);
    const res = await request(app).get('/metrics').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.text).toContain('process_cpu_user_seconds_total');
    expect(res.text).toContain('nodejs_heap_size_used_bytes');
    expect(res.text).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/login",status_code="200"\} 1/);
    expect(res.text).toMatch(/http_request_duration_seconds_count\{method="GET",route="unmatched",status_code="404"\} 1/);
    expect(res.text).toMatch(/http_request_duration_seconds_count\{method="GET",route="unmatched",status_code="401"\} 1/);
    expect(res.text).toMatch(/http_request_duration_seconds_bucket\{le="0.005",method="GET",route="\/login"/);
  });
});
