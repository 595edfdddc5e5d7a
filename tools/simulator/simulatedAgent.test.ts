/**
 * One simulated agent against a scripted stand-in of the agent API (a local HTTP server): what
 * it sends, in which order, and what it does with the answers.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEVICE_ACTION } from '../../shared/constants/deviceActions';
import { DEVICE_STATUS } from '../../shared/constants/domain';
import { checkinBody, enrollBody, eventBody, rejectBody } from '../../shared/contracts/agent';
import { prng } from '../seed/prng';
import { REJECT_REASONS } from './labels';
import { SimulatedAgent, lockStateFor, type AgentBehaviour, type AgentSpec } from './simulatedAgent';

interface Seen {
  method: string;
  path: string;
  auth: string | null;
  body: Record<string, unknown> | null;
}
interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** A stand-in agent API: `route` answers each request; every request is kept in `seen`. */
async function fakeApi(route: (req: Seen, seen: Seen[]) => Reply) {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      const entry: Seen = {
        method: req.method ?? '',
        path: (req.url ?? '').replace(/^\/agent\/v1/, ''),
        auth: req.headers.authorization ?? null,
        body: raw ? (JSON.parse(raw) as Record<string, unknown>) : null,
      };
      seen.push(entry);
      const reply = route(entry, seen);
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      res.end(reply.body === undefined ? '' : JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    count: (path: string) => seen.filter((s) => s.path === path).length,
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(r));
    },
  };
}

const SPEC: AgentSpec = {
  imei: '359900000000008',
  serial: 'ZY2ABCDEFGH',
  deviceType: 1,
  brand: 'Motorola',
  model: 'Moto G24',
  osVersion: 'Android 14',
  agentVersion: '3.4.1',
  sim: { iccid: '8952020000000000001', carrier: 'Telcel' },
};
const FAST: Partial<AgentBehaviour> = { wait: 0, commandDelayMs: [1, 5], backoffMs: [5, 20] };
const NOW = '2026-03-01T12:00:00.000Z';
const enrolled = (status: number = DEVICE_STATUS.enrolando): Reply => ({
  status: 201,
  body: { deviceId: 41, deviceToken: 'mld_token', offlineSecret: 'c2VjcmV0', offlineNonce: 0, status, serverTime: NOW },
});
const checkin = (status: number, commands: unknown[] = [], nextCheckinSeconds = 0): Reply => ({
  status: 200,
  body: { commands, settingsVersion: 1, status, nextCheckinSeconds, serverTime: NOW },
});
const settings: Reply = { status: 200, body: { version: 1, settings: {} } };
const outcome = (id: number, action: number, status: 'acknowledged' | 'rejected', deviceStatus: number): Reply => ({
  status: 200,
  body: { id, action, status, acknowledgedAt: NOW, result: null, deviceStatus },
});
const LOCK = { id: 5, action: DEVICE_ACTION.LOCK, payload: { lockType: 'PorCredito', message: null }, requestedAt: NOW };

async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 2_000 && !cond(); i++) await new Promise((r) => setTimeout(r, 5));
  if (!cond()) throw new Error('condition never held');
}

let api: Awaited<ReturnType<typeof fakeApi>> | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

test('enrolls with its token and identity, then checks in with the bearer token, its SIM, what it shows and the long poll', async () => {
  api = await fakeApi((req) => (req.path === '/enroll' ? enrolled() : req.path === '/settings' ? settings : checkin(DEVICE_STATUS.enrolado)));
  const agent = new SimulatedAgent(SPEC, { baseUrl: api.url, enrollmentToken: 'ABCDEFGHJKLM', behaviour: { ...FAST, wait: 7 }, rnd: prng(1) });
  const stop = new AbortController();
  const run = agent.run(stop.signal);
  await until(() => api!.count('/checkin') >= 2);
  stop.abort();
  await run;

  const enroll = api.seen[0]!;
  expect(enroll.path).toBe('/enroll');
  expect(enroll.auth).toBeNull();
  expect(enrollBody.parse(enroll.body)).toMatchObject({ enrollmentToken: 'ABCDEFGHJKLM', imei: SPEC.imei, deviceType: 1, sim: SPEC.sim });
  const [first, second] = api.seen.filter((s) => s.path === '/checkin');
  expect(first!.auth).toBe('Bearer mld_token');
  // The first check-in answers at once (the device learns it is enrolled), the next ones are long polls.
  expect(checkinBody.parse(first!.body)).toMatchObject({ wait: 0, sim: SPEC.sim, lockState: 'unlocked', osVersion: 'Android 14' });
  expect(checkinBody.parse(second!.body)).toMatchObject({ wait: 7 });
  // The settings are fetched once per version.
  expect(api.count('/settings')).toBe(1);
  expect(agent).toMatchObject({ status: DEVICE_STATUS.enrolado, deviceId: 41, phase: 'stopped' });
  expect(agent.counters).toMatchObject({ enrolled: 1, errors: 0 });
});

test('a command delivered again after it was acknowledged is not carried out twice', async () => {
  // The stand-in keeps delivering the LOCK, as a check-in answered just before the acknowledgement would.
  api = await fakeApi((req) => {
    if (req.path === '/enroll') return enrolled(DEVICE_STATUS.enrolado);
    if (req.path === '/settings') return settings;
    if (req.path === '/commands/5/ack') return outcome(5, DEVICE_ACTION.LOCK, 'acknowledged', DEVICE_STATUS.bloqueado);
    return checkin(DEVICE_STATUS.bloqueado, [LOCK]);
  });
  const agent = new SimulatedAgent(SPEC, { baseUrl: api.url, behaviour: FAST, rnd: prng(2) });
  const stop = new AbortController();
  const run = agent.run(stop.signal);
  await until(() => api!.count('/checkin') >= 5);
  stop.abort();
  await run;

  expect(api.count('/commands/5/ack')).toBe(1);
  expect(api.seen.filter((s) => s.path.startsWith('/commands/')).map((s) => s.path)).toEqual(['/commands/5/ack']);
  expect(agent.counters.acknowledged).toBe(1);
  expect(agent.counters.duplicates).toBeGreaterThanOrEqual(3);
  expect(agent.lockState).toBe('locked');
  expect(agent.lastCommandId).toBe(5);
  // What it shows is reported at the next check-ins.
  expect(api.seen.filter((s) => s.path === '/checkin').at(-1)!.body).toMatchObject({ lockState: 'locked' });
});

test('an answer that could not be sent is sent again, the same decision, when the command comes back', async () => {
  let fail = 6; // more failures than one delivery's attempts
  api = await fakeApi((req, seen) => {
    if (req.path === '/enroll') return enrolled(DEVICE_STATUS.enrolado);
    if (req.path === '/settings') return settings;
    if (req.path.startsWith('/commands/5/')) {
      if (fail-- > 0) return { status: 503, body: { message: 'No disponible', code: 'UNAVAILABLE' } };
      return outcome(5, DEVICE_ACTION.LOCK, req.path.endsWith('/reject') ? 'rejected' : 'acknowledged', DEVICE_STATUS.bloqueado);
    }
    const answered = seen.some((s) => s.path.startsWith('/commands/5/') && fail < 0);
    return checkin(DEVICE_STATUS.bloqueando, answered ? [] : [LOCK]);
  });
  const agent = new SimulatedAgent(SPEC, { baseUrl: api.url, behaviour: { ...FAST, reject: 0.5 }, rnd: prng(3) });
  const stop = new AbortController();
  const run = agent.run(stop.signal);
  // Until the agent has read the answer that went through (the server seeing it is not enough:
  // stopping in between would abort the response).
  await until(() => fail < 0 && agent.counters.acknowledged + agent.counters.rejected > 0);
  stop.abort();
  await run;

  const answers = api.seen.filter((s) => s.path.startsWith('/commands/5/')).map((s) => s.path);
  expect(answers).toHaveLength(7);
  expect(new Set(answers).size).toBe(1);
  expect(agent.counters.errors).toBe(6);
  expect(agent.counters.acknowledged + agent.counters.rejected).toBe(1);
  expect(agent.counters.duplicates).toBeGreaterThanOrEqual(1);
});

test('at the reject rate it rejects, with one of the Spanish reasons', async () => {
  api = await fakeApi((req, seen) => {
    if (req.path === '/enroll') return enrolled(DEVICE_STATUS.enrolado);
    if (req.path === '/settings') return settings;
    if (req.path === '/commands/5/reject') return outcome(5, DEVICE_ACTION.LOCK, 'rejected', DEVICE_STATUS.fallido);
    return checkin(DEVICE_STATUS.enrolado, seen.some((s) => s.path === '/commands/5/reject') ? [] : [LOCK]);
  });
  const agent = new SimulatedAgent(SPEC, { baseUrl: api.url, behaviour: { ...FAST, reject: 1 }, rnd: prng(4) });
  const stop = new AbortController();
  const run = agent.run(stop.signal);
  await agent.waitForStatus((s) => s === DEVICE_STATUS.fallido, 10_000);
  stop.abort();
  await run;

  const rejection = api.seen.find((s) => s.path === '/commands/5/reject')!;
  const { reason } = rejectBody.parse(rejection.body);
  expect(REJECT_REASONS).toContain(reason);
  expect(agent.counters).toMatchObject({ rejected: 1, acknowledged: 0 });
  expect(agent.lockState).toBe('unlocked');
});

test('a 429 waits out its Retry-After and tries again', async () => {
  let limited = false;
  api = await fakeApi((req) => {
    if (req.path === '/enroll') {
      if (!limited) {
        limited = true;
        return { status: 429, body: { message: 'Demasiadas solicitudes', code: 'RATE_LIMITED' }, headers: { 'retry-after': '1' } };
      }
      return enrolled();
    }
    return req.path === '/settings' ? settings : checkin(DEVICE_STATUS.enrolado);
  });
  const agent = new SimulatedAgent(SPEC, { baseUrl: api.url, behaviour: FAST, rnd: prng(5) });
  const stop = new AbortController();
  const run = agent.run(stop.signal);
  await until(() => api!.count('/checkin') >= 1);
  stop.abort();
  await run;
  expect(api.count('/enroll')).toBe(2);
  expect(agent.counters).toMatchObject({ rateLimited: 1, enrolled: 1, errors: 0 });
});

test('server failures are counted and retried; the loop never throws and ends when aborted', async () => {
  api = await fakeApi((req) => (req.path === '/enroll' ? enrolled() : { status: 500, body: { message: 'Error interno', code: 'INTERNAL' } }));
  const agent = new SimulatedAgent(SPEC, { baseUrl: api.url, behaviour: FAST, rnd: prng(6) });
  const stop = new AbortController();
  const run = agent.run(stop.signal);
  await until(() => agent.counters.errors >= 3);
  stop.abort();
  await expect(run).resolves.toBeUndefined();
  expect(agent.lastError).toBe('Error interno');
  expect(agent.phase).toBe('stopped');
});

test('a refused enrollment ends the agent as failed (counted), without check-ins', async () => {
  api = await fakeApi(() => ({ status: 401, body: { message: 'El código de enrolamiento no es válido', code: 'ENROLLMENT_TOKEN_INVALID' } }));
  const agent = new SimulatedAgent(SPEC, { baseUrl: api.url, enrollmentToken: 'MALO', behaviour: FAST, rnd: prng(7) });
  await agent.run(new AbortController().signal);
  expect(agent.phase).toBe('failed');
  expect(agent.counters).toMatchObject({ enrollFailures: 1, errors: 1, checkins: 0 });
  expect(api.count('/checkin')).toBe(0);
});

test('after a RELEASE is acknowledged the revoked token ends the loop on its own', async () => {
  const release = { id: 9, action: DEVICE_ACTION.RELEASE, payload: {}, requestedAt: NOW };
  api = await fakeApi((req, seen) => {
    if (req.path === '/enroll') return enrolled(DEVICE_STATUS.enrolado);
    if (req.path === '/settings') return settings;
    if (req.path === '/commands/9/ack') return outcome(9, DEVICE_ACTION.RELEASE, 'acknowledged', DEVICE_STATUS.liberado);
    if (seen.some((s) => s.path === '/commands/9/ack')) return { status: 401, body: { message: 'Token revocado', code: 'DEVICE_TOKEN_INVALID' } };
    return checkin(DEVICE_STATUS.liberando, [release]);
  });
  const agent = new SimulatedAgent(SPEC, { baseUrl: api.url, behaviour: FAST, rnd: prng(8) });
  await agent.run(new AbortController().signal);
  expect(agent).toMatchObject({ phase: 'released', status: DEVICE_STATUS.liberado });
  expect(agent.counters).toMatchObject({ acknowledged: 1, errors: 0 });
});

test('paused it enrolls but does not check in until resumed; redeemCode reports the offline code', async () => {
  api = await fakeApi((req) => {
    if (req.path === '/enroll') return enrolled();
    if (req.path === '/settings') return settings;
    if (req.path === '/events')
      return { status: 200, body: { applied: true, status: DEVICE_STATUS.desbloqueado_offline, action: DEVICE_ACTION.UNLOCK_OFFLINE } };
    return checkin(DEVICE_STATUS.enrolado);
  });
  const agent = new SimulatedAgent(SPEC, { baseUrl: api.url, behaviour: FAST, rnd: prng(9) });
  agent.pause();
  const stop = new AbortController();
  const run = agent.run(stop.signal);
  await until(() => agent.phase === 'paused');
  expect(agent.status).toBe(DEVICE_STATUS.enrolando);
  expect(api.count('/checkin')).toBe(0);

  // Typed now unless told otherwise: the report carries that instant.
  const typing = Date.now();
  const answer = await agent.redeemCode('12345678', stop.signal);
  const typed = Date.now();
  expect(answer).toMatchObject({ applied: true, status: DEVICE_STATUS.desbloqueado_offline });
  const reported = eventBody.parse(api.seen.find((s) => s.path === '/events')!.body);
  expect(reported).toEqual({ type: 'offline_code', code: '12345678', redeemedAt: expect.any(Date) });
  const redeemedAt = (reported as { redeemedAt: Date }).redeemedAt.getTime();
  expect(redeemedAt).toBeGreaterThanOrEqual(typing);
  expect(redeemedAt).toBeLessThanOrEqual(typed);
  expect(agent.counters.redeemed).toBe(1);

  agent.resume();
  await agent.waitForStatus((s) => s === DEVICE_STATUS.enrolado, 10_000);
  stop.abort();
  await run;
  expect(api.count('/checkin')).toBeGreaterThanOrEqual(1);
});

test('after its first check-in a new SIM is reported at the next one; TVs have none to change', async () => {
  api = await fakeApi((req) => (req.path === '/enroll' ? enrolled() : req.path === '/settings' ? settings : checkin(DEVICE_STATUS.enrolado)));
  const agent = new SimulatedAgent(SPEC, { baseUrl: api.url, behaviour: { ...FAST, simChange: 1 }, rnd: prng(10) });
  const stop = new AbortController();
  const run = agent.run(stop.signal);
  await until(() => api!.count('/checkin') >= 3);
  stop.abort();
  await run;
  const [first, ...later] = api.seen.filter((s) => s.path === '/checkin').map((s) => (s.body!.sim as { iccid: string }).iccid);
  expect(first).toBe(SPEC.sim!.iccid);
  expect(new Set(later).size).toBe(later.length);
  expect(later).not.toContain(SPEC.sim!.iccid);
  expect(agent.counters.simChanges).toBeGreaterThanOrEqual(later.length);

  const tv = new SimulatedAgent({ ...SPEC, deviceType: 2, sim: null }, { baseUrl: api.url, rnd: prng(11) });
  tv.changeSim();
  expect(tv.sim).toBeNull();
  expect(tv.counters.simChanges).toBe(0);
});

test('offline it stops checking in; the chance applies from the first check-in on', async () => {
  api = await fakeApi((req) => (req.path === '/enroll' ? enrolled() : req.path === '/settings' ? settings : checkin(DEVICE_STATUS.enrolado)));
  const agent = new SimulatedAgent(SPEC, { baseUrl: api.url, behaviour: { ...FAST, offline: 1, offlineMs: [5, 10] }, rnd: prng(12) });
  const stop = new AbortController();
  const run = agent.run(stop.signal);
  await until(() => agent.counters.offlinePeriods >= 3);
  stop.abort();
  await run;
  expect(api.count('/checkin')).toBe(1);
  expect(agent.status).toBe(DEVICE_STATUS.enrolado);
});

test('what the screen shows for each status the server answers', () => {
  expect(lockStateFor(DEVICE_STATUS.bloqueado)).toBe('locked');
  expect(lockStateFor(DEVICE_STATUS.configurado_bloqueado)).toBe('locked');
  expect(lockStateFor(DEVICE_STATUS.activo)).toBe('unlocked');
  expect(lockStateFor(DEVICE_STATUS.TEMPORARY_ACTIVE)).toBe('unlocked');
  expect(lockStateFor(DEVICE_STATUS.bloqueando)).toBeUndefined();
  expect(lockStateFor(DEVICE_STATUS.SUSPENDED)).toBeUndefined();
});
