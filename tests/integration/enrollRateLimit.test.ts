/**
 * The per-IP enrollment limit (AGENT_ENROLL_RATE_LIMIT_PER_MINUTE) through the real app: loopback
 * is limited like any client unless AGENT_ENROLL_EXEMPT_LOOPBACK=true (the embedded demo's
 * setting); behind TRUST_PROXY hops each forwarded client has a budget of its own, and a forwarded
 * client is never exempt; without trusted hops a client's X-Forwarded-For is ignored. Every attempt
 * counts, refused ones included: the limiter runs before the body and the token are checked, so
 * these attempts need no valid enrollment.
 */
import request from 'supertest';
import { AGENT_MESSAGES as A } from '../../shared/areaMessages/agent';
import { testImei } from '../helpers/inventoryFixtures';
import { buildTestApp, type TestApp } from '../helpers/testApp';
import { createTestDb, testEngines, type TestDb } from '../helpers/testDb';

describe.each(testEngines())('enrollment rate limit per client IP (%s)', (engine) => {
  let testDb: TestDb;
  const apps: TestApp[] = [];
  let consoleError: jest.SpyInstance;
  let consoleWarn: jest.SpyInstance;

  beforeAll(async () => {
    testDb = await createTestDb(engine);
  });
  beforeEach(() => {
    consoleError = jest.spyOn(console, 'error');
    consoleWarn = jest.spyOn(console, 'warn');
  });
  afterEach(() => {
    // express-rate-limit reports a configuration it distrusts (ERR_ERL_…) on the console: none here.
    const reported = [...consoleError.mock.calls, ...consoleWarn.mock.calls].map((args) => args.map(String).join(' '));
    expect(reported.filter((line) => line.includes('ERR_ERL_'))).toEqual([]);
    consoleError.mockRestore();
    consoleWarn.mockRestore();
  });
  afterAll(async () => {
    for (const ta of apps) await ta.services.agent.stop();
    await testDb.dispose();
  });

  /** A fresh app (its own limiter) allowing two enrollment attempts per minute and client IP. */
  const appWith = async (env: Record<string, string> = {}) => {
    const ta = await buildTestApp(testDb.db, { env: { AGENT_ENROLL_RATE_LIMIT_PER_MINUTE: '2', ...env } });
    apps.push(ta);
    return ta;
  };

  /** An enrollment attempt with a token nobody issued, from loopback or as forwarded for `client`. */
  const enroll = (ta: TestApp, client?: string) => {
    const req = request(ta.app).post('/agent/v1/enroll');
    return (client ? req.set('X-Forwarded-For', client) : req).send({ enrollmentToken: 'AAAA-BBBB-CCCC', imei: testImei(9950), deviceType: 1 });
  };

  /** Refused for what it carries (400 or 401), not for the rate: it reached the limiter and was counted. */
  const expectCounted = (res: request.Response) => {
    expect(res.status).not.toBe(429);
    expect([400, 401]).toContain(res.status);
  };

  const expectLimited = (res: request.Response) => {
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ code: 'RATE_LIMITED', message: A.auth.rateLimited });
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  };

  test('by default loopback is limited like any client: the third attempt in a minute is 429', async () => {
    const ta = await appWith();
    expect(ta.config.agent.enrollExemptLoopback).toBe(false);
    expectCounted(await enroll(ta));
    expectCounted(await enroll(ta));
    expectLimited(await enroll(ta));
    expectLimited(await enroll(ta));
  });

  test('AGENT_ENROLL_EXEMPT_LOOPBACK=true: loopback is not limited', async () => {
    const ta = await appWith({ AGENT_ENROLL_EXEMPT_LOOPBACK: 'true' });
    for (let i = 0; i < 6; i++) expectCounted(await enroll(ta));
  });

  test('without trusted proxies a client-sent X-Forwarded-For is ignored: one budget, that of the peer', async () => {
    const ta = await appWith({ TRUST_PROXY: '0' });
    expectCounted(await enroll(ta, '203.0.113.7'));
    expectCounted(await enroll(ta, '203.0.113.8'));
    expectLimited(await enroll(ta, '203.0.113.9'));
    expectLimited(await enroll(ta));
  });

  test('TRUST_PROXY=1: each forwarded client has a budget of its own', async () => {
    const ta = await appWith({ TRUST_PROXY: '1' });
    expectCounted(await enroll(ta, '203.0.113.7'));
    expectCounted(await enroll(ta, '203.0.113.7'));
    expectLimited(await enroll(ta, '203.0.113.7'));
    expectCounted(await enroll(ta, '203.0.113.8'));
    expectCounted(await enroll(ta, '203.0.113.8'));
    expectLimited(await enroll(ta, '203.0.113.8'));
    // A client cannot pick its address: the trusted proxy's hop is the one that counts.
    expectLimited(await enroll(ta, '198.51.100.1, 203.0.113.7'));
    // An IPv4 client seen as IPv4-mapped IPv6 shares the IPv4 budget.
    expectLimited(await enroll(ta, '::ffff:203.0.113.7'));
  });

  test('TRUST_PROXY=1 with the exemption: the proxy host itself is exempt, a forwarded client is still limited', async () => {
    const ta = await appWith({ TRUST_PROXY: '1', AGENT_ENROLL_EXEMPT_LOOPBACK: 'true' });
    expectCounted(await enroll(ta, '203.0.113.7'));
    expectCounted(await enroll(ta, '203.0.113.7'));
    expectLimited(await enroll(ta, '203.0.113.7'));
    expectCounted(await enroll(ta, '203.0.113.8'));
    // Loopback forwarded by a client through the proxy is not loopback: the proxy's hop counts.
    expectLimited(await enroll(ta, '127.0.0.1, 203.0.113.7'));
    // Requests from this host that no proxy forwarded are exempt.
    for (let i = 0; i < 4; i++) expectCounted(await enroll(ta));
  });
});
