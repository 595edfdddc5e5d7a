import fc from 'fast-check';
import request from 'supertest';
import { bulkBody, type BulkPreview, type Job, type JobResult } from '../../shared/contracts/jobs';
import { FIELD_LABELS } from '../../shared/constants/fieldLabels';
import { MESSAGES } from '../../shared/messages';
import { INVENTORY_MESSAGES as M } from '../../shared/areaMessages/inventory';
import type { AuditActor } from '../../server/audit/auditRepository';
import { JobRunner } from '../../server/api/jobs/jobRunner';
import { JobsService } from '../../server/api/jobs/jobsService';
import { adminApi, type AdminApi } from '../helpers/adminApi';
import { insertDevices, insertGroup, insertManyDevices, setPendingCommand, type DeviceFixture } from '../helpers/inventoryFixtures';
import { sendJson } from '../helpers/randomBodies';
import { createTestDb, testEngines, type TestDb } from '../helpers/testDb';
import { BULK_MAX_DEVICES } from '../../shared/constants/limits';

const LOCK = { action: 0, lockType: 'PorCredito', message: 'Pague su cuota' };
const NOTE = { action: 5, title: 'Aviso', message: 'Su cuota vence mañana' };

describe.each(testEngines())('bulk actions on %s', (engine) => {
  let t: TestDb;
  let api: AdminApi;
  let admin: Record<string, string>;
  let soporte: Record<string, string>;
  let outsider: Record<string, string>;
  let actor: AuditActor;

  beforeAll(async () => {
    t = await createTestDb(engine);
    api = await adminApi(t.db);
    const dashboardOnly = await api.addProfile('Solo tablero', ['/dashboard', '/dashboard/general'], [0, 5, 7]);
    await api.addAdmin('tablero@demo.local', dashboardOnly);
    admin = await api.headersOf('admin@demo.local');
    soporte = await api.headersOf('soporte@demo.local');
    outsider = await api.headersOf('tablero@demo.local');
    const adminId = (await t.db.query<{ id: number }>("SELECT id FROM admins WHERE correo = 'admin@demo.local'")).rows[0]!.id;
    actor = { adminId, email: 'admin@demo.local', ip: '127.0.0.1', requestId: 'prueba' };
  }, 60_000);
  afterAll(async () => {
    await api.ta.services.jobRunner.stop();
    await t.dispose();
  });

  const app = () => api.ta.app;
  const runner = () => api.ta.services.jobRunner;
  const preview = (body: unknown, headers = admin) => sendJson(request(app()).post('/api/v5/devices/bulk-actions/preview').set(headers), body);
  const start = (body: unknown, headers = admin, key?: string) => {
    const call = request(app()).post('/api/v5/devices/bulk-actions').set(headers);
    if (key !== undefined) call.set('Idempotency-Key', key);
    return sendJson(call, body);
  };
  const job = async (id: number) => (await request(app()).get(`/api/v5/jobs/${id}`).set(admin).expect(200)).body as Job;
  /** A JobsService of "another replica": no runner listens to it. */
  const replica = () => new JobsService(t.db, { offlineAfterHours: 72, now: () => new Date() }, api.ta.deps.logger);
  const commandsPerDevice = async (ids: number[]) =>
    (
      await t.db.query<{ device_id: number; n: number }>(
        'SELECT device_id, count(*) AS n FROM device_commands WHERE device_id = ANY($1::bigint[]) GROUP BY device_id ORDER BY device_id',
        [ids],
      )
    ).rows.map((r) => [Number(r.device_id), Number(r.n)]);
  const state = async () =>
    (
      await t.db.query(
        `SELECT (SELECT count(*) FROM device_commands) AS commands, (SELECT count(*) FROM jobs) AS jobs, (SELECT count(*) FROM job_results) AS results,
              (SELECT count(*) FROM audit_log) AS audit, (SELECT count(*) FROM idempotency_keys) AS keys,
              (SELECT md5(string_agg(concat_ws(':', id, pending_action, updated_at, deleted_at), ',' ORDER BY id)) FROM devices) AS devices`,
      )
    ).rows[0];

  /**
   * A group with a known mix (the expected numbers below are counted from this list by hand):
   * 5 active, 3 locked (Por Crédito), 2 released, 2 with a LOCK in flight, 4 active not seen for
   * 100 h (sin conexión), 1 pre-enrolled, 1 failed.
   */
  async function mixedGroup(name: string): Promise<{ groupId: number; ids: number[]; byKind: Record<string, number[]> }> {
    const groupId = await insertGroup(t.db, name);
    const old = new Date(Date.now() - 100 * 3600_000);
    const kinds: [string, number, DeviceFixture][] = [
      ['active', 5, {}],
      ['locked', 3, { lockState: 'locked', lockType: 'PorCredito' }],
      ['released', 2, { lifecycle: 'released' }],
      ['locking', 2, {}],
      ['offline', 4, { lastSeenAt: old }],
      ['preEnrolled', 1, { lifecycle: 'pre_enrolled' }],
      ['failed', 1, { failureReason: 'Rechazado' }],
    ];
    const byKind: Record<string, number[]> = {};
    for (const [kind, n, f] of kinds)
      byKind[kind] = await insertDevices(
        t.db,
        Array.from({ length: n }, () => ({ ...f, groupId })),
      );
    for (const id of byKind.locking!) await setPendingCommand(t.db, id, 0);
    return {
      groupId,
      ids: Object.values(byKind)
        .flat()
        .sort((a, b) => a - b),
      byKind,
    };
  }

  describe('dry run', () => {
    test('a mixed set: totals per status, skipped by reason, eligible, offline; by filter or by ids', async () => {
      const { groupId, ids } = await mixedGroup('Mezcla');
      const res = await preview({ selection: { filter: { groupId: String(groupId) } }, payload: LOCK }).expect(200);
      const p = res.body as BulkPreview;
      expect(p).toMatchObject({ total: 18, eligible: 13, offline: 4, overLimit: false });
      expect(p.byStatus).toEqual([
        { status: 3, count: 3 },
        { status: 4, count: 2 },
        { status: 5, count: 5 },
        { status: 9, count: 2 },
        { status: 20, count: 4 },
        { status: 21, count: 1 },
        { status: 25, count: 1 },
      ]);
      expect([...p.skipped].sort((a, b) => a.reason.localeCompare(b.reason))).toEqual(
        [
          { reason: M.actions.pendingConflict('Bloquear'), count: 2 },
          { reason: M.actions.disabledForStatus('Bloquear', 'Liberado'), count: 2 },
          { reason: M.actions.notEnrolled, count: 1 },
        ].sort((a, b) => a.reason.localeCompare(b.reason)),
      );

      // The same devices by ids (plus a deleted and an unknown id, which do not count).
      const [deleted] = await insertDevices(t.db, [{ groupId }]);
      await t.db.query('UPDATE devices SET deleted_at = now() WHERE id = $1', [deleted]);
      const byIds = (await preview({ selection: { ids: [...ids, deleted!, 2_000_000_000] }, payload: LOCK }).expect(200)).body as BulkPreview;
      expect(byIds).toEqual(p);

      // Another action on the same set: neither released devices (their agent left) nor pre-enrolled ones are notified.
      const note = (await preview({ selection: { filter: { groupId: String(groupId) } }, payload: NOTE }).expect(200)).body as BulkPreview;
      expect(note).toMatchObject({
        total: 18,
        eligible: 15,
        offline: 4,
        skipped: expect.arrayContaining([
          { reason: M.actions.notEnrolled, count: 1 },
          { reason: M.actions.releasedNoAgent, count: 2 },
        ]),
      });

      // Filters compose: the 'Bloqueado Por Crédito' entry of the group.
      const locked = (await preview({ selection: { filter: { groupId: String(groupId), status: '3:PorCredito' } }, payload: LOCK }).expect(200))
        .body as BulkPreview;
      expect(locked).toMatchObject({ total: 3, eligible: 3, byStatus: [{ status: 3, count: 3 }], skipped: [] });
    });

    test('a dry run changes nothing', async () => {
      const { groupId } = await mixedGroup('Sin cambios');
      const before = await state();
      await preview({ selection: { filter: { groupId: String(groupId) } }, payload: { action: 11 } }).expect(200);
      expect(await state()).toEqual(before);
    });
  });

  describe('jobs', () => {
    test('a job: 202 queued, then done in the background; progress, results with IMEI, CSV in Spanish; audited', async () => {
      const { ids, byKind } = await mixedGroup('Trabajo');
      const before = Object.fromEntries(await commandsPerDevice(ids));
      const res = await start({ selection: { ids }, payload: LOCK }).expect(202);
      const created = res.body as Job;
      expect(created).toMatchObject({
        kind: 'bulk_action',
        action: 0,
        status: 'queued',
        total: 18,
        processed: 0,
        createdBy: 'admin@demo.local',
        error: null,
      });
      await runner().idle();

      const done = await job(created.id);
      expect(done).toMatchObject({ status: 'completed', total: 18, processed: 18, succeeded: 13, skipped: 5, failed: 0, error: null });
      expect(done.startedAt).not.toBeNull();
      expect(done.finishedAt).not.toBeNull();

      // Every eligible device got exactly one new LOCK command of the job and shows 'bloqueando'.
      const eligible = [...byKind.active!, ...byKind.locked!, ...byKind.offline!, ...byKind.failed!].sort((a, b) => a - b);
      const locks = await t.db.query<{ device_id: number; job_id: number; requested_by: string; status: string; payload: unknown }>(
        'SELECT device_id, job_id, requested_by, status, payload FROM device_commands WHERE job_id = $1 ORDER BY device_id',
        [created.id],
      );
      expect(locks.rows.map((r) => Number(r.device_id))).toEqual(eligible);
      expect(locks.rows[0]).toMatchObject({
        requested_by: 'admin@demo.local',
        status: 'pending',
        payload: { lockType: 'PorCredito', message: 'Pague su cuota', stolen: false },
      });
      const devices = await request(app()).get(`/api/v5/devices/${eligible[0]}`).set(admin).expect(200);
      expect(devices.body).toMatchObject({ status: 4, pendingCommand: { action: 0 } });
      const after = Object.fromEntries(await commandsPerDevice(ids));
      for (const id of ids) expect(after[id] ?? 0).toBe((before[id] ?? 0) + (eligible.includes(id) ? 1 : 0));

      const results = (await request(app()).get(`/api/v5/jobs/${created.id}/results?perPage=100`).set(admin).expect(200)).body as {
        data: JobResult[];
        total: number;
      };
      expect(results.total).toBe(18);
      expect(results.data.map((r) => r.deviceId)).toEqual(ids);
      const released = results.data.find((r) => r.deviceId === byKind.released![0])!;
      expect(released).toMatchObject({
        outcome: 'skipped',
        reason: M.actions.disabledForStatus('Bloquear', 'Liberado'),
        commandId: null,
        imei: expect.stringMatching(/^\d{15}$/),
      });
      const locked = results.data.find((r) => r.deviceId === eligible[0])!;
      expect(locked).toMatchObject({ outcome: 'done', reason: null, commandId: expect.any(Number) });
      const page2 = (await request(app()).get(`/api/v5/jobs/${created.id}/results?page=2&perPage=10`).set(admin).expect(200)).body;
      expect(page2.data).toEqual(results.data.slice(10));

      const csv = await request(app())
        .get(`/api/v5/jobs/${created.id}/results.csv`)
        .set(admin)
        .buffer(true)
        .parse((r, cb) => {
          const chunks: Buffer[] = [];
          r.on('data', (c: Buffer) => chunks.push(c));
          r.on('end', () => cb(null, Buffer.concat(chunks).toString('utf8')));
        });
      expect(csv.status).toBe(200);
      expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(csv.headers['content-disposition']).toBe(`attachment; filename="trabajo-${created.id}.csv"`);
      const text = csv.body as string;
      expect(text.startsWith('\uFEFFid_dispositivo,imei,resultado,motivo,id_comando\r\n')).toBe(true);
      const lines = text.slice(1).trim().split('\r\n');
      expect(lines).toHaveLength(19);
      expect(lines).toContain(`${released.deviceId},${released.imei},omitido,${released.reason},`);
      expect(lines).toContain(`${locked.deviceId},${locked.imei},realizado,,${locked.commandId}`);
      // The browser's zone goes with every download: accepted (the results have no date column), or a 400 naming it.
      await request(app()).get(`/api/v5/jobs/${created.id}/results.csv`).query({ tz: 'America/Mexico_City' }).set(admin).expect(200);
      const badZone = await request(app()).get(`/api/v5/jobs/${created.id}/results.csv`).query({ tz: 'Luna/Base' }).set(admin).expect(400);
      expect(badZone.body).toMatchObject({ code: 'VALIDATION', field: 'tz', message: expect.stringMatching(/^El parámetro Zona horaria /) });

      const audit = await t.db.query<{
        action: string;
        entity_id: string;
        actor_email: string;
        detail: string | null;
        after: Record<string, unknown>;
      }>("SELECT action, entity_id, actor_email, detail, after FROM audit_log WHERE entity = 'job' AND entity_id = $1 ORDER BY id", [
        String(created.id),
      ]);
      expect(audit.rows.map((r) => r.action)).toEqual(['create', 'bulk_action']);
      expect(audit.rows[0]).toMatchObject({ actor_email: 'admin@demo.local', after: { total: 18, action: 0, selection: { ids } } });
      expect(audit.rows[1]).toMatchObject({
        actor_email: 'admin@demo.local',
        detail: 'Bloquear: 13 realizados, 5 omitidos, 0 fallidos',
        after: { done: 13, skipped: 5, failed: 0 },
      });
    });

    test('in batches: one transaction, one results set and one audit row per batch; counters add up', async () => {
      const ids = await insertManyDevices(t.db, 11);
      runner().jobs.batchSize = 4;
      try {
        const created = (await start({ selection: { ids }, payload: NOTE }).expect(202)).body as Job;
        await runner().idle();
        expect(await job(created.id)).toMatchObject({ status: 'completed', processed: 11, succeeded: 11 });
        const batches = await t.db.query<{ after: { firstDeviceId: number; lastDeviceId: number; processed: number } }>(
          "SELECT after FROM audit_log WHERE entity = 'job' AND entity_id = $1 AND action = 'bulk_action' ORDER BY id",
          [String(created.id)],
        );
        expect(batches.rows.map((r) => [r.after.firstDeviceId, r.after.lastDeviceId, r.after.processed])).toEqual([
          [ids[0], ids[3], 4],
          [ids[4], ids[7], 8],
          [ids[8], ids[10], 11],
        ]);
      } finally {
        runner().jobs.batchSize = 5000;
      }
    });

    test('the rules are checked again when the job runs: a device changed or deleted since is skipped or failed', async () => {
      const ids = await insertManyDevices(t.db, 4);
      const svc = replica();
      const created = (await svc.create(actor, bulkBody.parse({ selection: { ids }, payload: LOCK }))).body;
      await t.db.query("UPDATE devices SET lifecycle = 'released' WHERE id = $1", [ids[1]]);
      await t.db.query('UPDATE devices SET deleted_at = now() WHERE id = $1', [ids[2]]);
      runner().kick();
      await runner().idle();
      expect(await job(created.id)).toMatchObject({ status: 'completed', succeeded: 2, skipped: 1, failed: 1 });
      const results = (await request(app()).get(`/api/v5/jobs/${created.id}/results`).set(admin).expect(200)).body as { data: JobResult[] };
      expect(results.data.map((r) => [r.deviceId, r.outcome, r.reason])).toEqual([
        [ids[0], 'done', null],
        [ids[1], 'skipped', M.actions.disabledForStatus('Bloquear', 'Liberado')],
        [ids[2], 'failed', M.devices.notFound],
        [ids[3], 'done', null],
      ]);
      expect(await commandsPerDevice(ids)).toEqual([
        [ids[0], 1],
        [ids[3], 1],
      ]);
    });

    test('resume after a crash: a running job with a stale heartbeat is finished by another runner, no device gets two commands', async () => {
      const ids = await insertManyDevices(t.db, 12);
      const dead = replica();
      dead.batchSize = 5;
      const created = (await dead.create(actor, bulkBody.parse({ selection: { ids }, payload: LOCK }))).body;
      expect((await dead.claim('replica-muerta'))?.id).toBe(created.id);
      expect(await dead.runBatch(created.id, 'replica-muerta')).toBe('more');
      const firstCommands = await t.db.query<{ id: number; device_id: number }>(
        'SELECT id, device_id FROM device_commands WHERE job_id = $1 ORDER BY id',
        [created.id],
      );
      expect(firstCommands.rows.map((r) => Number(r.device_id))).toEqual(ids.slice(0, 5));

      // Its heartbeat is fresh: nobody takes the job over.
      runner().kick();
      await runner().idle();
      expect(await job(created.id)).toMatchObject({ status: 'running', processed: 5 });

      // The replica died 60 s ago.
      await t.db.query("UPDATE jobs SET heartbeat_at = now() - interval '60 seconds' WHERE id = $1", [created.id]);
      runner().kick();
      await runner().idle();
      expect(await job(created.id)).toMatchObject({ status: 'completed', processed: 12, succeeded: 12, skipped: 0, failed: 0 });
      const runnerName = (await t.db.query<{ runner: string }>('SELECT runner FROM jobs WHERE id = $1', [created.id])).rows[0]!.runner;
      expect(runnerName).toBe(runner().id);
      expect(await commandsPerDevice(ids)).toEqual(ids.map((id) => [id, 1]));
      const all = await t.db.query<{ id: number; device_id: number }>('SELECT id, device_id FROM device_commands WHERE job_id = $1 ORDER BY id', [
        created.id,
      ]);
      expect(all.rows.slice(0, 5)).toEqual(firstCommands.rows);
      // The dead replica, were it to come back, owns nothing any more.
      expect(await dead.runBatch(created.id, 'replica-muerta')).toBe('lost');
      expect(await commandsPerDevice(ids)).toEqual(ids.map((id) => [id, 1]));
    });

    test('two runners, one job: claimed once, every device once', async () => {
      const ids = await insertManyDevices(t.db, 30);
      const created = (await replica().create(actor, bulkBody.parse({ selection: { ids }, payload: NOTE }))).body;
      const [a, b] = [new JobRunner(replica()), new JobRunner(replica())];
      a.jobs.batchSize = 7;
      b.jobs.batchSize = 7;
      a.kick();
      b.kick();
      await Promise.all([a.idle(), b.idle()]);
      expect(await job(created.id)).toMatchObject({ status: 'completed', processed: 30, succeeded: 30, failed: 0 });
      const owner = (await t.db.query<{ runner: string }>('SELECT runner FROM jobs WHERE id = $1', [created.id])).rows[0]!.runner;
      expect([a.id, b.id]).toContain(owner);
      expect(await commandsPerDevice(ids)).toEqual(ids.map((id) => [id, 1]));
      const batches = await t.db.query("SELECT 1 FROM audit_log WHERE entity = 'job' AND entity_id = $1 AND action = 'bulk_action'", [
        String(created.id),
      ]);
      expect(batches.rows).toHaveLength(5);
    });

    test('stop() lets the batch in flight commit and gives the job back to the queue; another runner finishes it', async () => {
      const ids = await insertManyDevices(t.db, 9);
      const svc = replica();
      svc.batchSize = 3;
      const stopping = new JobRunner(svc);
      const created = (await svc.create(actor, bulkBody.parse({ selection: { ids }, payload: NOTE }))).body;
      await stopping.stop();
      const halfway = await job(created.id);
      expect(['queued', 'completed']).toContain(halfway.status);
      runner().kick();
      await runner().idle();
      expect(await job(created.id)).toMatchObject({ status: 'completed', processed: 9, succeeded: 9 });
      expect(await commandsPerDevice(ids)).toEqual(ids.map((id) => [id, 1]));
    });

    test('an error marks the job failed with a Spanish reason, never silently', async () => {
      const [id] = await insertManyDevices(t.db, 1);
      // A job no API can create (HISTORY is not a command): the batch throws.
      const bad = await t.db.query<{ id: number }>(
        `INSERT INTO jobs (action, payload, device_ids, total, created_by) VALUES (7, '{"action": 7}', $1::bigint[], 1, 'admin@demo.local') RETURNING id`,
        [[id]],
      );
      const jobId = Number(bad.rows[0]!.id);
      const logged = api.ta.logs.lines.length;
      runner().kick();
      await runner().idle();
      expect(await job(jobId)).toMatchObject({ status: 'failed', error: M.bulk.failed, processed: 0, finishedAt: expect.any(String) });
      expect(api.ta.logs.lines.slice(logged).some((l) => l.msg === 'bulk job failed' && l.jobId === jobId)).toBe(true);
      expect(await commandsPerDevice([id!])).toEqual([]);
    });

    test('DELETE_DEVICE in bulk: soft delete with a history row per device; active devices are skipped', async () => {
      const enrolled = await insertManyDevices(t.db, 3, { lifecycle: 'configured' });
      const [active] = await insertManyDevices(t.db, 1);
      const created = (await start({ selection: { ids: [...enrolled, active!] }, payload: { action: 11 } }).expect(202)).body as Job;
      await runner().idle();
      expect(await job(created.id)).toMatchObject({ status: 'completed', succeeded: 3, skipped: 1 });
      const rows = await t.db.query<{ id: number; deleted: boolean }>(
        'SELECT id, deleted_at IS NOT NULL AS deleted FROM devices WHERE id = ANY($1::bigint[]) ORDER BY id',
        [[...enrolled, active!]],
      );
      expect(rows.rows.map((r) => r.deleted)).toEqual([true, true, true, false]);
      const history = await request(app()).get(`/api/v5/devices/${enrolled[0]}/history`).set(admin).expect(200);
      expect(history.body.data[0]).toMatchObject({ action: 11, origin: 2, status: 'acknowledged', jobId: created.id });
    });

    test('nothing eligible is a 409; unknown jobs are 404', async () => {
      const released = await insertManyDevices(t.db, 2, { lifecycle: 'released' });
      const before = await state();
      const res = await start({ selection: { ids: released }, payload: LOCK }).expect(409);
      expect(res.body).toEqual({ code: 'BULK_NOTHING_TO_DO', message: M.bulk.nothingToDo });
      expect(await state()).toEqual(before);
      for (const path of ['/api/v5/jobs/999999', '/api/v5/jobs/999999/results', '/api/v5/jobs/999999/results.csv']) {
        const missing = await request(app()).get(path).set(admin).expect(404);
        expect(missing.body).toEqual({ code: 'JOB_NOT_FOUND', message: M.bulk.jobNotFound });
      }
      await request(app()).get('/api/v5/jobs/abc').set(admin).expect(400);
      await request(app()).get('/api/v5/jobs/1/results?perPage=0').set(admin).expect(400);
    });

    test('Idempotency-Key: the same key twice is one job; another body with it is a 409', async () => {
      const ids = await insertManyDevices(t.db, 3);
      const body = { selection: { ids }, payload: NOTE };
      const first = await start(body, admin, 'bulk-key').expect(202);
      const again = await start(body, admin, 'bulk-key').expect(202);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(first.body);
      await runner().idle();
      expect(await commandsPerDevice(ids)).toEqual(ids.map((id) => [id, 1]));
      const mismatch = await start({ ...body, payload: { ...NOTE, title: 'Otro' } }, admin, 'bulk-key').expect(409);
      expect(mismatch.body.code).toBe('IDEMPOTENCY_MISMATCH');
      await start(body, admin, 'mal clave').expect(400);
    });
  });

  describe('authorization and validation', () => {
    test('403 without the path or the action; the granted action works; jobs are readable with the path', async () => {
      const ids = await insertManyDevices(t.db, 2);
      const before = await state();
      let res = await preview({ selection: { ids }, payload: LOCK }, soporte).expect(403);
      expect(res.body).toEqual({ code: 'ACTION_NOT_GRANTED', message: M.actions.notGranted('Bloquear') });
      await start({ selection: { ids }, payload: LOCK }, soporte).expect(403);
      res = await start({ selection: { ids }, payload: NOTE }, outsider).expect(403);
      expect(res.body).toEqual({ code: 'FORBIDDEN', message: MESSAGES.api.forbidden });
      await preview({ selection: { ids }, payload: NOTE }, outsider).expect(403);
      expect(await state()).toEqual(before);

      await preview({ selection: { ids }, payload: NOTE }, soporte).expect(200);
      const created = (await start({ selection: { ids }, payload: NOTE }, soporte).expect(202)).body as Job;
      await runner().idle();
      await request(app()).get(`/api/v5/jobs/${created.id}`).set(soporte).expect(200);
      await request(app()).get(`/api/v5/jobs/${created.id}/results`).set(soporte).expect(200);
      await request(app()).get(`/api/v5/jobs/${created.id}`).set(outsider).expect(403);
      await request(app()).get(`/api/v5/jobs/${created.id}/results.csv`).set(outsider).expect(403);
    });

    test('invalid selections and offline-code actions are 400s naming the field', async () => {
      const cases: [unknown, string][] = [
        [{ selection: { ids: [1] }, payload: { action: 9 } }, M.field.action(FIELD_LABELS.actions.action)],
        [
          { selection: { ids: [1] }, payload: { action: 12, until: new Date(Date.now() + 86_400_000).toISOString() } },
          M.field.action(FIELD_LABELS.actions.action),
        ],
        [{ selection: { ids: [1], filter: {} }, payload: NOTE }, M.field.selection],
        [{ selection: {}, payload: NOTE }, M.field.selection],
        [{ selection: { ids: [] }, payload: NOTE }, M.field.ids(FIELD_LABELS.bulk.ids, BULK_MAX_DEVICES)],
        [
          { selection: { ids: Array.from({ length: BULK_MAX_DEVICES + 1 }, (_, i) => i + 1) }, payload: NOTE },
          M.field.ids(FIELD_LABELS.bulk.ids, BULK_MAX_DEVICES),
        ],
        [{ selection: { filter: { status: '99' } }, payload: NOTE }, M.param.status],
        [{ selection: { ids: [1] }, payload: { action: 7 } }, M.field.action(FIELD_LABELS.actions.action)],
        [{ selection: { ids: [1] } }, 'El campo Acción es obligatorio'],
        [{ selection: { filter: 'todo' }, payload: NOTE }, M.field.filter(FIELD_LABELS.bulk.filter)],
      ];
      for (const [body, message] of cases) {
        for (const call of [preview, start]) {
          const res = await call(body).expect(400);
          expect(res.body.message).toBe(message);
        }
      }
    });

    test('random bodies (fast-check) on both routes: only 400s, nothing changed', async () => {
      const before = await state();
      const payload = fc.oneof(
        fc.record(
          {
            action: fc.oneof(fc.integer({ min: -2, max: 15 }), fc.anything()),
            title: fc.anything(),
            message: fc.anything(),
            lockType: fc.anything(),
          },
          { requiredKeys: [] },
        ),
        fc.anything(),
      );
      const selection = fc.oneof(
        fc.record(
          { ids: fc.oneof(fc.array(fc.oneof(fc.integer(), fc.anything()), { maxLength: 5 }), fc.anything()), filter: fc.anything() },
          { requiredKeys: [] },
        ),
        fc.anything(),
      );
      await fc.assert(
        fc.asyncProperty(fc.oneof(fc.record({ selection, payload }, { requiredKeys: [] }), fc.anything()), fc.boolean(), async (body, dryRun) => {
          fc.pre(!bulkBody.safeParse(body).success);
          const res = await (dryRun ? preview(body) : start(body));
          expect(res.status).toBe(400);
          expect(res.body.message).toEqual(expect.any(String));
        }),
        { numRuns: 150, seed: 11 },
      );
      expect(await state()).toEqual(before);
    }, 60_000);
  });

  test('P6: bulk lock of 10,000 devices — dry run, commit and the job done (timed)', async () => {
    const groupId = await insertGroup(t.db, 'Diez mil');
    const ids = await insertManyDevices(t.db, BULK_MAX_DEVICES, { groupId });
    const selection = { filter: { groupId: String(groupId) } };
    const t0 = performance.now();
    const dry = (await preview({ selection, payload: LOCK }).expect(200)).body as BulkPreview;
    const t1 = performance.now();
    const created = (await start({ selection, payload: LOCK }).expect(202)).body as Job;
    const t2 = performance.now();
    await runner().idle();
    const t3 = performance.now();
    expect(dry).toMatchObject({ total: 10_000, eligible: 10_000, overLimit: false, skipped: [] });
    expect(await job(created.id)).toMatchObject({ status: 'completed', total: 10_000, processed: 10_000, succeeded: 10_000 });
    const pending = await t.db.query<{ n: number }>(
      'SELECT count(*) AS n FROM devices WHERE group_id = $1 AND pending_action = 0 AND pending_command_id IS NOT NULL',
      [groupId],
    );
    expect(pending.rows[0]!.n).toBe(10_000);
    const counters = await t.db.query<{ n: number }>('SELECT sum(n) AS n FROM device_counts WHERE group_id = $1 AND base_status = 4', [groupId]);
    expect(Number(counters.rows[0]!.n)).toBe(10_000);
    console.log(
      `P6 ${engine}: preview ${(t1 - t0).toFixed(0)} ms, commit ${(t2 - t1).toFixed(0)} ms, job ${(t3 - t2).toFixed(0)} ms, total ${(t3 - t0).toFixed(0)} ms`,
    );

    // Over the limit: the dry run says so, the job is refused.
    await insertManyDevices(t.db, 1, { groupId });
    const over = (await preview({ selection, payload: NOTE }).expect(200)).body as BulkPreview;
    expect(over).toMatchObject({ total: 10_001, overLimit: true });
    const res = await start({ selection, payload: NOTE }).expect(400);
    expect(res.body).toEqual({ code: 'BULK_TOO_MANY', message: M.bulk.tooMany(BULK_MAX_DEVICES) });
    expect(ids).toHaveLength(10_000);
  }, 120_000);
});
