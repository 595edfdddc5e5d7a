/**
 * The check-in's last-seen write (a presence batch) and the statement triggers of `devices`
 * (migration 0017): each trigger first asks whether a row changed a column it reads and stops
 * there when none did.
 * After last-seen writes, reported facts that move (OS, agent version, carrier), status changes
 * through the agent and the portal, and multi-row updates where rows trade values, every counter
 * (device_counts, device_fact_counts, activity_hourly, released_hourly) equals a recount, and the outbox gets an
 * event for a status change and none for a last-seen write. Also the named statements of the
 * check-in: prepared once per connection on PostgreSQL, accepted and ignored by PGlite.
 */
import { createHash } from 'node:crypto';
import request from 'supertest';
import type { ActionResult } from '../../shared/contracts/deviceActions';
import type { CheckinResponse } from '../../shared/contracts/agent';
import { CHECKIN_READ_BATCH, DeviceRepository } from '../../server/devices';
import { signRequest } from '../../server/agent/requestSignature';
import { createPgDb } from '../../server/db/pgDb';
import { agentClient, credentialsOf, enrollDevice, type AgentIdentity } from '../helpers/agentFixtures';
import { adminApi, type AdminApi } from '../helpers/adminApi';
import {
  activityCounts,
  activityRecount,
  deviceCounts,
  deviceCountsRecount,
  factCounts,
  factCountsRecount,
  releasedCounts,
  releasedRecount,
} from '../helpers/counterRecounts';
import { testImei } from '../helpers/inventoryFixtures';
import { createTestDb, testEngines, type TestDb } from '../helpers/testDb';

describe.each(testEngines())('check-in writes and the counters of devices on %s', (engine) => {
  let t: TestDb;
  let api: AdminApi;
  let admin: Record<string, string>;
  let groupId: number;
  let otherGroupId: number;
  let serial = 0;

  const app = () => api.ta.app;
  const portal = (method: 'get' | 'post', path: string) => request(app())[method](`/api/v5${path}`).set(admin);
  const checkin = (agent: AgentIdentity, body: Record<string, unknown> = {}) => agentClient(app, agent).checkin(body);
  const ack = (agent: AgentIdentity, id: number) => agentClient(app, agent).ack(id);

  const counts = () => deviceCounts(t.db);
  const facts = () => factCounts(t.db);
  const activity = () => activityCounts(t.db);
  async function expectConsistent(): Promise<void> {
    expect(await counts()).toEqual(await deviceCountsRecount(t.db));
    expect(await facts()).toEqual(await factCountsRecount(t.db));
    expect(await activity()).toEqual(await activityRecount(t.db));
    expect(await releasedCounts(t.db)).toEqual(await releasedRecount(t.db));
  }
  const events = async () =>
    (await t.db.query<{ type: string; order_key: number }>('SELECT type, order_key FROM webhook_events ORDER BY id')).rows.map(
      (r) => `${r.type} ${Number(r.order_key)}`,
    );
  /** Makes the device's next check-in record its last-seen time (it is older than the write interval). */
  const stale = (id: number) => t.db.query(`UPDATE devices SET last_seen_at = now() - interval '10 minutes' WHERE id = $1`, [id]);
  const lastSeen = async (id: number) => (await t.db.query<{ s: Date }>('SELECT last_seen_at AS s FROM devices WHERE id = $1', [id])).rows[0]!.s;

  const enrolledDevice = (group: number) => enrollDevice(app(), admin, { imei: testImei(8100 + ++serial), groupId: group });

  beforeAll(async () => {
    t = await createTestDb(engine);
    // The webhook below targets a name that does not resolve: allowed only with private targets.
    api = await adminApi(t.db, { env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
    admin = await api.headersOf('admin@demo.local');
    groupId = ((await portal('post', '/groups').send({ name: 'Sucursal Contadores' })).body as { id: number }).id;
    otherGroupId = ((await portal('post', '/groups').send({ name: 'Sucursal Otra' })).body as { id: number }).id;
  }, 60_000);
  afterAll(async () => {
    await api?.ta.services.jobRunner.stop();
    await api?.ta.services.agent.stop();
    await t?.dispose();
  });

  test('last-seen writes move no counter and write no event; reported facts and status changes move them exactly', async () => {
    const webhook = await portal('post', '/webhooks').send({
      name: 'Estados',
      url: 'https://hooks.acreedor.example/estado',
      events: ['device.status_changed', 'device.enrolled'],
      enabled: true,
    });
    expect(webhook.status).toBe(201);
    const a = await enrolledDevice(groupId);
    const b = await enrolledDevice(otherGroupId);
    expect((await checkin(a)).status).toBe(200); // first check-in: enrolado (facts move)
    expect((await checkin(b)).status).toBe(200);
    await expectConsistent();
    const before = await events();
    expect(before).toEqual(expect.arrayContaining([`device.enrolled ${a.id}`, `device.status_changed ${a.id}`]));

    // A last-seen write alone (a presence batch, written here at once): the time moves, nothing else does.
    await stale(a.id);
    const old = await lastSeen(a.id);
    expect((await checkin(a, { batteryLevel: 40 })).status).toBe(200);
    await api.ta.services.agent.presence.flush();
    expect((await lastSeen(a.id)).getTime()).toBeGreaterThan(old.getTime());
    await expectConsistent();
    expect(await events()).toEqual(before);

    // Reported facts that move (the same batch statement): the fact counters follow, device_counts does not move.
    const deviceCounts = await counts();
    await stale(b.id);
    expect((await checkin(b, { osVersion: '15', agentVersion: '2.5.0', sim: { iccid: '8952020012345678902', carrier: 'AT&T' } })).status).toBe(200);
    expect((await checkin(b, { osVersion: '16', sim: { iccid: '8952020012345678902', carrier: 'Movistar' } })).status).toBe(200);
    await api.ta.services.agent.presence.flush();
    expect(await facts()).toEqual(expect.arrayContaining([expect.objectContaining({ fact: 1, value: '16', n: 1 })]));
    await expectConsistent();
    expect(await counts()).toEqual(deviceCounts);
    expect(await events()).toEqual(before);

    // A status change through the portal and the agent: counted, and one event each.
    const lock = (await portal('post', `/devices/${a.id}/actions`).send({ action: 0, lockType: 'PorCredito' })).body as ActionResult;
    await expectConsistent();
    const delivered = (await checkin(a)).body as CheckinResponse;
    expect(delivered.commands.map((c) => c.id)).toEqual([lock.command!.id]);
    expect((await ack(a, lock.command!.id)).status).toBe(200);
    await expectConsistent();
    const after = await events();
    expect(after.slice(before.length)).toEqual([`device.status_changed ${a.id}`, `device.status_changed ${a.id}`]);

    // Several rows in one statement where two trade their group and lock state (the totals per
    // key stay, the rows do not), then a last-seen write over both.
    await t.db.query(
      `UPDATE devices SET group_id = CASE id WHEN $1 THEN $4::int ELSE $3::int END,
              lock_state = CASE id WHEN $1 THEN 'active' ELSE 'locked' END, lock_type = CASE id WHEN $1 THEN NULL ELSE 'PorCredito' END
        WHERE id IN ($1, $2)`,
      [a.id, b.id, groupId, otherGroupId],
    );
    await expectConsistent();
    await t.db.query('UPDATE devices SET last_seen_at = now(), battery_level = 55 WHERE id IN ($1, $2)', [a.id, b.id]);
    await expectConsistent();
    expect((await events()).length).toBeGreaterThan(after.length);
    // Soft delete through a plain update, then a last-seen write on the deleted row.
    const n = (await events()).length;
    await t.db.query('UPDATE devices SET deleted_at = now() WHERE id = $1', [b.id]);
    await expectConsistent();
    expect((await events()).slice(n)).toEqual([`device.status_changed ${b.id}`]);
    await t.db.query('UPDATE devices SET last_seen_at = now() WHERE id = $1', [b.id]);
    await expectConsistent();
    expect(await events()).toHaveLength(n + 1);
  });

  test('an agent hanging up ends its long poll (the server stops waiting)', async () => {
    const c = await enrolledDevice(groupId);
    expect((await checkin(c)).status).toBe(200);
    const server = app().listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    try {
      const { port } = server.address() as { port: number };
      const url = `http://127.0.0.1:${port}/agent/v1/checkin`;
      /** The headers of a check-in with `body`, signed by the device's key. */
      const headers = async (body: string) => ({
        authorization: `Bearer ${c.token}`,
        'content-type': 'application/json',
        ...(await signRequest(c.keys.privateKey, { method: 'POST', path: '/agent/v1/checkin', body })),
      });
      const waiters = api.ta.services.agent.waiters;
      // Answered at once (wait 0) on a keep-alive connection: nothing is left waiting.
      const now = JSON.stringify({ wait: 0 });
      expect((await fetch(url, { method: 'POST', headers: await headers(now), body: now })).status).toBe(200);
      expect(waiters.size).toBe(0);
      // A long poll, then the agent hangs up: the server stops waiting long before its 20 s.
      const hangUp = new AbortController();
      const long = JSON.stringify({ wait: 20 });
      const poll = fetch(url, { method: 'POST', headers: await headers(long), body: long, signal: hangUp.signal }).catch((e: unknown) => e);
      for (let i = 0; i < 100 && waiters.size === 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(waiters.size).toBe(1);
      hangUp.abort();
      expect(await poll).toMatchObject({ name: 'AbortError' });
      for (let i = 0; i < 100 && waiters.size > 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(waiters.size).toBe(0);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });

  test('check-ins that arrive together are read in one statement: each with its own token and instant, answered in order', async () => {
    const [a, b, revoked] = [await enrolledDevice(groupId), await enrolledDevice(groupId), await enrolledDevice(otherGroupId)];
    for (const c of [a, b, revoked]) expect((await checkin(c)).status).toBe(200);
    await t.db.query('UPDATE agent_tokens SET revoked_at = now() WHERE device_id = $1', [revoked.id]);
    const lock = (await portal('post', `/devices/${b.id}/actions`).send({ action: 0, lockType: 'PorCredito' })).body as ActionResult;
    expect(lock.command?.id).toBeGreaterThan(0);
    const due = (
      await t.db.query<{ at: Date }>(`SELECT deliver_after AS at FROM device_commands WHERE device_id = $1 AND status = 'pending'`, [b.id])
    ).rows[0]!.at;
    const hash = (token: string) => createHash('sha256').update(token).digest();
    const before = new Date(due.getTime() - 1000);

    // The repository: one row per key in the order asked (a key twice is two rows), none for an
    // unknown or revoked token, and whether a command awaits the device at that key's instant.
    const rows = await new DeviceRepository(t.db).checkinByTokens([
      { hash: hash(b.token), now: before },
      { hash: hash('no es un token'), now: due },
      { hash: hash(a.token), now: due },
      { hash: hash(revoked.token), now: due },
      { hash: hash(b.token), now: due },
    ]);
    expect(rows.map((r) => r && [r.id, r.has_commands])).toEqual([[b.id, false], undefined, [a.id, false], undefined, [b.id, true]]);

    // The service: check-ins started in one turn are one statement; a refused token refuses its
    // own check-in only; beyond CHECKIN_READ_BATCH, the next statement reads the rest.
    const reads: string[] = [];
    const spy = jest.spyOn(t.db, 'query');
    const service = api.ta.services.agent.service;
    const req = { ip: null, requestId: null };
    const signed = (agent: AgentIdentity) => credentialsOf(agent, 'POST', '/agent/v1/checkin', { wait: 0 });
    const [aCredentials, bCredentials, revokedCredentials] = [await signed(a), await signed(b), await signed(revoked)];
    try {
      // The refused one last: the last slot of the batch's answer is empty.
      const answers = await Promise.allSettled([
        service.checkin(aCredentials, { wait: 0 }, req),
        service.checkin(bCredentials, { wait: 0 }, req),
        service.checkin(revokedCredentials, { wait: 0 }, req),
      ]);
      expect(answers.map((x) => (x.status === 'fulfilled' ? x.value.deviceId : (x.reason as { code: string }).code))).toEqual([
        a.id,
        b.id,
        'DEVICE_TOKEN_INVALID',
      ]);
      const [, locked] = answers as PromiseFulfilledResult<{ answer: CheckinResponse }>[];
      expect(locked!.value.answer.commands.map((c) => c.id)).toEqual([lock.command!.id]);
      const many = await Promise.all(Array.from({ length: CHECKIN_READ_BATCH + 1 }, () => service.checkin(aCredentials, { wait: 0 }, req)));
      expect(new Set(many.map((m) => m.deviceId))).toEqual(new Set([a.id]));
      for (const [, params, options] of spy.mock.calls) {
        if (options?.name?.startsWith('agent_checkin_'))
          reads.push(`${params!.filter((p, i) => i % 2 === 0 && p !== null).length} of ${options.name}`);
      }
    } finally {
      spy.mockRestore();
    }
    // The three together, the locked device's read again after its delivery, then 32 and 1.
    expect(reads).toEqual(['3 of agent_checkin_4', '1 of agent_checkin_1', `${CHECKIN_READ_BATCH} of agent_checkin_32`, '1 of agent_checkin_1']);
  });

  test('the check-in read and the presence batch are named statements: prepared once per connection on PostgreSQL', async () => {
    const c = await enrolledDevice(groupId);
    const hash = createHash('sha256').update(c.token).digest();
    const seen = (s: number) => new Date(Date.now() + s * 1000);
    if (engine === 'pglite') {
      // The name is accepted and ignored: the same answers as an unnamed statement.
      const repo = new DeviceRepository(t.db);
      expect((await repo.checkinByToken(hash, new Date()))?.id).toBe(c.id);
      expect(await repo.refreshMany([[c.id, { lastSeenAt: seen(1), batteryLevel: 12 }]])).toBe(1);
      expect((await t.db.query('SELECT battery_level FROM devices WHERE id = $1', [c.id])).rows).toEqual([{ battery_level: 12 }]);
      return;
    }
    // One connection on the test's schema, so that pg_prepared_statements is that connection's.
    const schema = (await t.db.query<{ s: string }>('SELECT current_schema() AS s')).rows[0]!.s;
    const one = createPgDb({ connectionString: process.env.TEST_DATABASE_URL!, max: 1, searchPath: `${schema},public` });
    try {
      const repo = new DeviceRepository(one);
      for (let i = 0; i < 8; i++) expect((await repo.checkinByToken(hash, new Date()))?.id).toBe(c.id);
      for (let i = 0; i < 3; i++) expect(await repo.refreshMany([[c.id, { lastSeenAt: seen(i + 1), batteryLevel: 20 + i }]])).toBe(1);
      expect(await repo.refreshMany([[c.id, { lastSeenAt: seen(5), osVersion: '15', batteryLevel: 30 }]])).toBe(1);
      await one.transaction((tx) => new DeviceRepository(tx).checkinByToken(hash, new Date()));
      expect((await repo.checkinByTokens([1, 2, 3].map(() => ({ hash, now: new Date() })))).map((r) => r?.id)).toEqual([c.id, c.id, c.id]);
      const prepared = await one.query<{ name: string; generic_plans: number; custom_plans: number }>(
        'SELECT name, generic_plans, custom_plans FROM pg_prepared_statements ORDER BY name',
      );
      expect(prepared.rows.map((r) => r.name)).toEqual(['agent_checkin_1', 'agent_checkin_4', 'agent_presence']);
      // After its first five calls, PostgreSQL runs the read's generic plan (planned once) rather
      // than planning each call again: what the fixed sizes are for.
      expect(prepared.rows[0]).toMatchObject({ custom_plans: 5, generic_plans: 4 });
      expect((await one.query('SELECT battery_level, os_version FROM devices WHERE id = $1', [c.id])).rows).toEqual([
        { battery_level: 30, os_version: '15' },
      ]);
    } finally {
      await one.close();
    }
  });
});
