import fc from 'fast-check';
import request from 'supertest';
import { actionPayload, type ActionResult, type Command, type History } from '../../shared/contracts/deviceActions';
import type { Device } from '../../shared/contracts/devices';
import { DEVICE_ACTIONS } from '../../shared/constants/deviceActions';
import { DEVICE_STATUSES, LOCK_TYPES, type LockType } from '../../shared/constants/domain';
import { MESSAGES } from '../../shared/messages';
import { INVENTORY_MESSAGES as M } from '../../shared/areaMessages/inventory';
import { verifyOfflineCode } from '../../server/devices/offlineCodes';
import { adminApi, type AdminApi } from '../helpers/adminApi';
import { insertDevices, setPendingCommand, type DeviceFixture } from '../helpers/inventoryFixtures';
import { sendJson } from '../helpers/randomBodies';
import { createTestDb, testEngines, type TestDb } from '../helpers/testDb';

const HOUR = 3600_000;
const DAY = 24 * HOUR;

/** A valid body for every action code the route takes (7, HISTORY, is not a command). */
const BODIES: Record<number, Record<string, unknown>> = {
  0: { action: 0, lockType: 'PorCredito', message: 'Pague su cuota' },
  1: { action: 1 },
  2: { action: 2 },
  3: { action: 3 },
  4: { action: 4 },
  5: { action: 5, title: 'Hola', message: 'Prueba' },
  6: { action: 6, reference: 'REF-123' },
  8: { action: 8 },
  9: { action: 9 },
  10: { action: 10 },
  11: { action: 11 },
  12: { action: 12, until: new Date(Date.now() + 10 * DAY).toISOString() },
  13: { action: 13 },
};
const ACTIONS = Object.keys(BODIES).map(Number);

/*
 * Expectations from the reference §4 table (by the statuses' labels) and the product's
 * Actions section, written out here, not computed with the rules under test.
 */
const SPEC_TABLE: [string[], number[]][] = [
  [
    [
      'Enrolado',
      'Enrolando',
      'Bloqueado',
      'Bloqueando',
      'Desbloqueado',
      'Desbloqueando',
      'Activo',
      'Desbloqueado offline',
      'Liberando',
      'Activo temporal',
    ],
    [11],
  ],
  [['Liberado'], [0, 1, 6, 8, 9, 12, 4]],
  [['Fallido', 'Suspendido', 'Desbloqueando temporal'], []],
];
const codeOf = (label: string) => DEVICE_STATUSES.find((s) => s.label === label)!.code;
const DISABLED = new Map<number, number[]>(
  SPEC_TABLE.flatMap(([labels, disabled]) => labels.map((l) => [codeOf(l), disabled] as [number, number[]])),
);
/** Product: one stateful command at a time (LOCK, UNLOCK, RELEASE, the configuring ones). */
const STATEFUL = [0, 1, 2, 3, 4, 8, 10];

function expectedStatus(status: number, pending: number | null, action: number): 201 | 409 {
  if (DISABLED.get(status)?.includes(action)) return 409;
  if (status === 25 && action !== 11) return 409; // pre-enrolled: only the registry's actions
  if (status === 9 && action !== 11) return 409; // released: no second release, and its agent left
  if (pending !== null && (STATEFUL.includes(action) || action === 11)) return 409;
  if (action === 11 && (status === 5 || status === 3)) return 409; // active or locked: not deletable
  return 201;
}

const OLD = () => new Date(Date.now() - 100 * HOUR);

/**
 * A device in each status the facts can produce (11 'desbloqueado' is a history label, never a
 * device's current status), and one per 'Bloqueado <tipo>' entry.
 */
const SETUPS: { name: string; status: number; fixture: DeviceFixture; pending?: number; until?: boolean }[] = [
  { name: 'Enrolado', status: 1, fixture: { lifecycle: 'enrolled' } },
  { name: 'Enrolando', status: 2, fixture: { lifecycle: 'enrolling' } },
  { name: 'Bloqueado', status: 3, fixture: { lockState: 'locked', lockType: null } },
  ...LOCK_TYPES.map((t) => ({ name: `Bloqueado ${t.label}`, status: 3, fixture: { lockState: 'locked' as const, lockType: t.key as LockType } })),
  { name: 'Bloqueando', status: 4, fixture: {}, pending: 0 },
  { name: 'Activo', status: 5, fixture: {} },
  { name: 'Desbloqueando', status: 6, fixture: { lockState: 'locked' }, pending: 1 },
  { name: 'Liberado', status: 9, fixture: { lifecycle: 'released' } },
  { name: 'Liberando', status: 10, fixture: {}, pending: 2 },
  { name: 'Configurado', status: 15, fixture: { lifecycle: 'configured' } },
  { name: 'Configurando', status: 16, fixture: {}, pending: 8 },
  { name: 'Desbloqueado offline', status: 17, fixture: { lockState: 'unlocked_offline' } },
  { name: 'Configurado bloqueado', status: 18, fixture: { lifecycle: 'reconfigured', lockState: 'locked' } },
  { name: 'Configurado activo', status: 19, fixture: { lifecycle: 'reconfigured' } },
  { name: 'Sin conexión', status: 20, fixture: { lastSeenAt: null } },
  { name: 'Fallido', status: 21, fixture: { failureReason: 'Rechazado por el agente' } },
  { name: 'Suspendido', status: 22, fixture: { lifecycle: 'suspended' } },
  { name: 'Activo temporal', status: 23, fixture: { lockState: 'temporary_active' } },
  { name: 'Desbloqueando temporal', status: 24, fixture: { lockState: 'locked' }, pending: 1, until: true },
  { name: 'Pre-enrolado', status: 25, fixture: { lifecycle: 'pre_enrolled' } },
];

describe.each(testEngines())('device actions on %s', (engine) => {
  let t: TestDb;
  let api: AdminApi;
  let admin: Record<string, string>;
  let inventario: Record<string, string>;
  let soporte: Record<string, string>;
  let outsider: Record<string, string>;
  /** The inventory's clock (deps.now): tests move it. */
  let now: Date | null = null;

  beforeAll(async () => {
    t = await createTestDb(engine);
    api = await adminApi(t.db, { deps: { now: () => now ?? new Date() } });
    const dashboardOnly = await api.addProfile('Solo tablero', ['/dashboard', '/dashboard/general'], [0, 1, 2, 5, 7, 11]);
    await api.addAdmin('tablero@demo.local', dashboardOnly);
    admin = await api.headersOf('admin@demo.local');
    inventario = await api.headersOf('inventario@demo.local');
    soporte = await api.headersOf('soporte@demo.local');
    outsider = await api.headersOf('tablero@demo.local');
  }, 60_000);
  afterAll(async () => {
    await t.dispose();
  });
  afterEach(() => {
    now = null;
  });

  const app = () => api.ta.app;
  const act = (id: number, body: unknown, headers = admin, key?: string) => {
    const call = request(app()).post(`/api/v5/devices/${id}/actions`).set(headers);
    if (key !== undefined) call.set('Idempotency-Key', key);
    return sendJson(call, body);
  };
  const device = async (fixture: DeviceFixture = {}) => (await insertDevices(t.db, [fixture]))[0]!;
  const commandsOf = async (id: number) =>
    (
      await t.db.query<{ id: number; action: number; status: string; origin: number | null; payload: Record<string, unknown> }>(
        'SELECT id, action, status, origin, payload FROM device_commands WHERE device_id = $1 ORDER BY id',
        [id],
      )
    ).rows;
  const lastAudit = async () =>
    (
      await t.db.query<{
        entity: string;
        entity_id: string;
        action: string;
        actor_email: string;
        before: Record<string, unknown>;
        after: Record<string, unknown>;
      }>('SELECT entity, entity_id, action, actor_email, before, after FROM audit_log ORDER BY id DESC LIMIT 1')
    ).rows[0]!;
  /** Everything an action could change. */
  const state = async () =>
    (
      await t.db.query(
        `SELECT (SELECT count(*) FROM device_commands) AS commands, (SELECT count(*) FROM audit_log) AS audit,
              (SELECT count(*) FROM idempotency_keys) AS keys, (SELECT count(*) FROM jobs) AS jobs,
              (SELECT count(*) FROM devices) AS devices,
              (SELECT md5(string_agg(concat_ws(':', id, pending_command_id, pending_action, pending_until, updated_at, deleted_at, offline_counter), ','
                                     ORDER BY id)) FROM devices) AS device_facts,
              (SELECT md5(string_agg(concat_ws(':', id, status), ',' ORDER BY id)) FROM device_commands) AS command_statuses`,
      )
    ).rows[0];

  test('every action is allowed or refused per status as the reference §4 table and the product rules say', async () => {
    const cells: { setup: (typeof SETUPS)[number]; action: number; id: number }[] = [];
    for (const setup of SETUPS) {
      for (const action of ACTIONS) {
        const fixture = setup.name === 'Sin conexión' ? { lastSeenAt: OLD() } : setup.fixture;
        const id = await device(fixture);
        if (setup.pending !== undefined)
          await setPendingCommand(t.db, id, setup.pending, { until: setup.until ? new Date(Date.now() + 5 * DAY) : null });
        cells.push({ setup, action, id });
      }
    }
    const outcomes: string[] = [];
    const expected: string[] = [];
    for (const { setup, action, id } of cells) {
      const before = (await commandsOf(id)).length;
      const res = await act(id, BODIES[action]);
      const want = expectedStatus(setup.status, setup.pending ?? null, action);
      outcomes.push(`${setup.name} × ${action}: ${res.status}`);
      expected.push(`${setup.name} × ${action}: ${want}`);
      const after = (await commandsOf(id)).length;
      if (res.status === 201) {
        expect(after).toBe(before + 1);
        const body = res.body as ActionResult;
        expect(body.command).toMatchObject({ deviceId: id, action });
      } else {
        expect(after).toBe(before);
        expect(res.body.message).toEqual(expect.any(String));
      }
    }
    expect(outcomes).toEqual(expected);
  }, 180_000);

  test('a refusal names the reason in Spanish (the table, the command in flight, pre-enrolled, released)', async () => {
    const active = await device();
    let res = await act(active, BODIES[11]).expect(409);
    expect(res.body).toEqual({ code: 'ACTION_DISABLED_FOR_STATUS', message: M.actions.disabledForStatus('Eliminar dispositivo', 'Activo') });
    const pendingLock = await device();
    await setPendingCommand(t.db, pendingLock, 0);
    res = await act(pendingLock, BODIES[1]).expect(409);
    expect(res.body).toEqual({ code: 'PENDING_COMMAND', message: M.actions.pendingConflict('Bloquear') });
    res = await act(await device({ lifecycle: 'pre_enrolled' }), BODIES[0]).expect(409);
    expect(res.body.message).toBe(M.actions.notEnrolled);
    res = await act(await device({ lifecycle: 'released' }), BODIES[2]).expect(409);
    expect(res.body.message).toBe(M.actions.alreadyReleased);
  });

  test("the server's own actions go set-based, in order as one by one: each sees the commands before it, each is audited with its reason", async () => {
    const a = await device();
    const b = await device();
    const gone = await device();
    await t.db.query('UPDATE devices SET deleted_at = now() WHERE id = $1', [gone]);
    const actor = { adminId: null, email: 'Política de cobranza', ip: null, requestId: null };
    const auditBefore = Number((await t.db.query<{ id: number }>('SELECT coalesce(max(id), 0) AS id FROM audit_log')).rows[0]!.id);
    const notice = { action: 5, title: 'Aviso', message: 'Pague su cuota' } as const;
    const results = await t.db.transaction((tx) =>
      api.ta.services.deviceActions.applyIn(tx, actor, [
        { deviceId: a, payload: notice, detail: 'motivo 1' },
        { deviceId: a, payload: { action: 0, lockType: 'PorCredito', message: 'Pague', stolen: false }, detail: 'motivo 2' },
        // The lock just taken is in flight: a second stateful action waits, as it would one by one.
        { deviceId: a, payload: { action: 1, until: null }, detail: 'motivo 3' },
        { deviceId: gone, payload: notice, detail: 'motivo 4' },
        // Goes with the refused notice: refused with it.
        { deviceId: gone, payload: { action: 6, reference: 'REF-1' }, detail: 'motivo 5', with: 3 },
        { deviceId: b, payload: notice, detail: 'motivo 6' },
        { deviceId: b, payload: { action: 6, reference: 'REF-1' }, detail: 'motivo 7', with: 5 },
      ]),
    );
    expect(results.map((r) => (r.ok ? r.command.action : r.reason))).toEqual([
      5,
      0,
      M.actions.pendingConflict('Bloquear'),
      M.devices.notFound,
      M.devices.notFound,
      5,
      6,
    ]);
    const ids = results.map((r) => (r.ok ? r.command.id : null));
    expect((await commandsOf(a)).map((c) => [c.id, c.action])).toEqual([
      [ids[0], 5],
      [ids[1], 0],
    ]);
    expect((await commandsOf(b)).map((c) => [c.id, c.action])).toEqual([
      [ids[5], 5],
      [ids[6], 6],
    ]);
    expect(await commandsOf(gone)).toEqual([]);
    const got = await request(app()).get(`/api/v5/devices/${a}`).set(admin).expect(200);
    expect((got.body as Device).pendingCommand).toMatchObject({ id: ids[1], action: 0, requestedBy: 'Política de cobranza' });
    const audit = (
      await t.db.query<{ entity_id: string; action: string; detail: string; before: Record<string, unknown>; after: Record<string, unknown> }>(
        'SELECT entity_id, action, detail, before, after FROM audit_log WHERE id > $1 ORDER BY id',
        [auditBefore],
      )
    ).rows;
    expect(audit.map((r) => [Number(r.entity_id), r.action, r.detail])).toEqual([
      [a, 'send_notification', 'motivo 1'],
      [a, 'lock', 'motivo 2'],
      [b, 'send_notification', 'motivo 6'],
      [b, 'code_bar', 'motivo 7'],
    ]);
    // Each row tells the device as that action left it: the notice before the lock, the lock after it.
    expect(audit[0]!.after).toMatchObject({ status: 5, pendingCommand: null, command: { id: ids[0], action: 5 } });
    expect(audit[1]!.before).toMatchObject({ status: 5, pendingCommand: null });
    expect(audit[1]!.after).toMatchObject({ status: 4, pendingCommand: { id: ids[1], action: 0 }, command: { id: ids[1], action: 0 } });
  });

  test('LOCK: a pending command, the device bloqueando (4) in the registry, audited', async () => {
    const id = await device();
    const res = await act(id, BODIES[0]).expect(201);
    const body = res.body as ActionResult;
    expect(body.device).toMatchObject({ id, status: 4, pendingCommand: { id: body.command!.id, action: 0, requestedBy: 'admin@demo.local' } });
    expect(body.command).toMatchObject({
      action: 0,
      status: 'pending',
      origin: null,
      payload: { lockType: 'PorCredito', message: 'Pague su cuota', stolen: false },
      requestedBy: 'admin@demo.local',
      cancellable: true,
      jobId: null,
    });
    expect(body.offlineCode).toBeUndefined();
    const got = await request(app()).get(`/api/v5/devices/${id}`).set(admin).expect(200);
    expect((got.body as Device).status).toBe(4);
    expect((got.body as Device).pendingCommand?.action).toBe(0);
    const audit = await lastAudit();
    expect(audit).toMatchObject({ entity: 'device', entity_id: String(id), action: 'lock', actor_email: 'admin@demo.local' });
    expect(audit.before).toMatchObject({ id, status: 5, pendingCommand: null });
    expect(audit.after).toMatchObject({
      id,
      status: 4,
      pendingCommand: { id: body.command!.id, action: 0 },
      command: { id: body.command!.id, action: 0 },
    });
    expect(JSON.stringify(audit)).not.toMatch(/secret/);

    const stolen = await act(await device(), { action: 0, lockType: 'SinKiosko', stolen: true }).expect(201);
    expect((stolen.body as ActionResult).command).toMatchObject({ origin: 0, payload: { lockType: 'SinKiosko', message: null, stolen: true } });
  });

  test('UNLOCK: desbloqueando (6), or TEMPORARY_UNLOCKING (24) until a date', async () => {
    const plain = await act(await device({ lockState: 'locked' }), BODIES[1]).expect(201);
    expect((plain.body as ActionResult).device?.status).toBe(6);
    const until = new Date(Date.now() + 3 * DAY).toISOString();
    const id = await device({ lockState: 'locked' });
    const temporary = await act(id, { action: 1, until }).expect(201);
    expect((temporary.body as ActionResult).device?.status).toBe(24);
    const row = (await t.db.query<{ pending_until: Date }>('SELECT pending_until FROM devices WHERE id = $1', [id])).rows[0]!;
    expect(new Date(row.pending_until).toISOString()).toBe(until);
  });

  test('configuring commands make the device configurando (16)', async () => {
    for (const action of [3, 4, 8, 10]) {
      const res = await act(await device(), BODIES[action]).expect(201);
      expect((res.body as ActionResult).device).toMatchObject({ status: 16, pendingCommand: { action } });
      expect((await lastAudit()).action).toBe(DEVICE_ACTIONS.find((a) => a.code === action)!.key.toLowerCase());
    }
  });

  test('notifications and barcodes are commands that change no state and coexist with a command in flight', async () => {
    const id = await device();
    const lock = (await act(id, BODIES[0]).expect(201)).body as ActionResult;
    const updated = async () => (await t.db.query<{ updated_at: Date }>('SELECT updated_at FROM devices WHERE id = $1', [id])).rows[0]!.updated_at;
    const before = await updated();
    const note = (await act(id, BODIES[5]).expect(201)).body as ActionResult;
    const bar = (await act(id, BODIES[6]).expect(201)).body as ActionResult;
    expect(note.command).toMatchObject({ action: 5, status: 'pending', payload: { title: 'Hola', message: 'Prueba' } });
    expect(bar.command).toMatchObject({ action: 6, status: 'pending', payload: { reference: 'REF-123' } });
    expect(note.device).toMatchObject({ status: 4, pendingCommand: { id: lock.command!.id } });
    expect(bar.device).toMatchObject({ status: 4, pendingCommand: { id: lock.command!.id } });
    expect(await updated()).toEqual(before);
    expect((await commandsOf(id)).map((c) => [c.action, c.status])).toEqual([
      [0, 'pending'],
      [5, 'pending'],
      [6, 'pending'],
    ]);
    expect((await lastAudit()).action).toBe('code_bar');
  });

  describe('offline codes', () => {
    const secretOf = async (id: number) =>
      (await t.db.query<{ secret: Uint8Array }>('SELECT secret FROM devices WHERE id = $1', [id])).rows[0]!.secret;

    test('UNLOCK_OFFLINE: 8 digits shown once, valid 72 h, recorded without the code, verifiable with the device secret', async () => {
      now = new Date('2030-05-10T15:00:00Z');
      const id = await device({ lockState: 'locked', lastSeenAt: now });
      const res = await act(id, BODIES[9]).expect(201);
      const body = res.body as ActionResult;
      expect(body.offlineCode).toEqual({ code: expect.stringMatching(/^\d{8}$/), expiresAt: '2030-05-13T15:00:00.000Z' });
      expect(body.command).toMatchObject({ action: 9, status: 'issued', expiresAt: '2030-05-13T15:00:00.000Z', requestedBy: 'admin@demo.local' });
      expect(body.device).toMatchObject({ status: 3, pendingCommand: null });
      const row = (await t.db.query('SELECT nonce, status, expires_at FROM device_commands WHERE id = $1', [body.command!.id])).rows[0];
      expect(row).toMatchObject({ nonce: 1, status: 'issued' });
      const code = body.offlineCode!.code;
      // The code is nowhere in the database (history, audit, idempotency keys).
      const stored = await t.db.query(
        `SELECT 1 FROM device_commands WHERE payload::text LIKE $1 UNION ALL SELECT 1 FROM audit_log WHERE coalesce(after::text, '') LIKE $1
         UNION ALL SELECT 1 FROM idempotency_keys WHERE response::text LIKE $1`,
        [`%${code}%`],
      );
      expect(stored.rows).toEqual([]);
      const audit = await lastAudit();
      expect(audit).toMatchObject({ action: 'unlock_offline', after: { command: { nonce: 1, expiresAt: '2030-05-13T15:00:00.000Z' } } });
      // What the agent does, offline, with the device's secret.
      const secret = await secretOf(id);
      expect(verifyOfflineCode(secret, code, { lastNonce: 0, now })).toMatchObject({ action: 9, nonce: 1 });
      expect(verifyOfflineCode(secret, code, { lastNonce: 1, now })).toBeNull();
      expect(verifyOfflineCode(secret, code, { lastNonce: 0, now: new Date('2030-05-14T00:00:01Z') })).toBeNull();

      // The next code has the next nonce.
      const second = (await act(id, BODIES[9]).expect(201)).body as ActionResult;
      expect(second.offlineCode!.code).not.toBe(code);
      expect(verifyOfflineCode(secret, second.offlineCode!.code, { lastNonce: 0, now })).toMatchObject({ nonce: 2 });
      expect((await t.db.query('SELECT offline_counter FROM devices WHERE id = $1', [id])).rows[0]).toEqual({ offline_counter: 2 });
    });

    test('UNLOCK_OFFLINE_WITH_DATE expires on its date; RELEASE_OFFLINE is a code of its own action', async () => {
      const id = await device({ lockState: 'locked' });
      const until = new Date(Date.now() + 20 * DAY);
      const dated = (await act(id, { action: 12, until: until.toISOString() }).expect(201)).body as ActionResult;
      expect(dated.offlineCode!.expiresAt).toBe(until.toISOString());
      expect(dated.command).toMatchObject({ action: 12, status: 'issued', expiresAt: until.toISOString() });
      const secret = await secretOf(id);
      const verified = verifyOfflineCode(secret, dated.offlineCode!.code, { lastNonce: 0, now: new Date() });
      expect(verified).toMatchObject({ action: 12, nonce: 1 });
      expect(verified!.expiresAt.toISOString().slice(0, 10)).toBe(until.toISOString().slice(0, 10));

      const release = (await act(id, BODIES[13]).expect(201)).body as ActionResult;
      expect(verifyOfflineCode(secret, release.offlineCode!.code, { lastNonce: 1, now: new Date() })).toMatchObject({ action: 13, nonce: 2 });
      expect(verifyOfflineCode(secret, release.offlineCode!.code, { action: 9, lastNonce: 1, now: new Date() })).toBeNull();
      expect((await lastAudit()).action).toBe('release_offline');
    });
  });

  describe('Idempotency-Key', () => {
    test('the same key twice: one command, the first answer replayed with Idempotent-Replayed', async () => {
      const id = await device();
      const first = await act(id, BODIES[0], admin, 'lock-key-1').expect(201);
      expect(first.headers['idempotent-replayed']).toBeUndefined();
      const audits = await api.count('audit_log');
      const second = await act(id, BODIES[0], admin, 'lock-key-1').expect(201);
      expect(second.headers['idempotent-replayed']).toBe('true');
      expect(second.body).toEqual(first.body);
      expect(await commandsOf(id)).toHaveLength(1);
      expect(await api.count('audit_log')).toBe(audits);
    });

    test('the same key with another request: 409, nothing done', async () => {
      const id = await device();
      const other = await device();
      await act(id, BODIES[5], admin, 'note-key').expect(201);
      const before = await state();
      const res = await act(id, { ...BODIES[5], message: 'Otro texto' }, admin, 'note-key').expect(409);
      expect(res.body).toEqual({ code: 'IDEMPOTENCY_MISMATCH', message: M.actions.idempotencyMismatch });
      await act(other, BODIES[5], admin, 'note-key').expect(409);
      expect(await state()).toEqual(before);
    });

    test('keys belong to their administrator', async () => {
      const id = await device();
      await act(id, BODIES[5], admin, 'shared-key').expect(201);
      const other = await act(id, BODIES[5], inventario, 'shared-key').expect(201);
      expect(other.headers['idempotent-replayed']).toBeUndefined();
      expect(await commandsOf(id)).toHaveLength(2);
    });

    test("concurrent duplicates: one command; the other answers the first one's answer", async () => {
      for (let round = 0; round < 5; round++) {
        const id = await device();
        const [a, b] = await Promise.all([act(id, BODIES[0], admin, `race-key-${round}`), act(id, BODIES[0], admin, `race-key-${round}`)]);
        expect([a.status, b.status]).toEqual([201, 201]);
        expect([a.headers['idempotent-replayed'], b.headers['idempotent-replayed']].sort()).toEqual(['true', undefined]);
        expect(a.body).toEqual(b.body);
        expect(await commandsOf(id)).toHaveLength(1);
      }
    });

    test('a replayed offline code is the same code (derived again, never stored)', async () => {
      const id = await device({ lockState: 'locked' });
      const first = (await act(id, BODIES[9], admin, 'offline-key').expect(201)).body as ActionResult;
      const again = await act(id, BODIES[9], admin, 'offline-key').expect(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(first);
      expect((await t.db.query('SELECT offline_counter FROM devices WHERE id = $1', [id])).rows[0]).toEqual({ offline_counter: 1 });
    });

    test('a malformed key is a 400 and nothing is done', async () => {
      const id = await device();
      const before = await state();
      // Empty, too long, a space, a Latin-1 letter: not 1 to 200 visible ASCII characters.
      for (const key of ['', 'x'.repeat(201), 'con espacio', 'clavé']) {
        const res = await act(id, BODIES[5], admin, key);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ code: 'IDEMPOTENCY_KEY', message: M.actions.idempotencyKey });
      }
      expect(await state()).toEqual(before);
      await act(id, BODIES[5], admin, 'x'.repeat(200)).expect(201);
    });
  });

  describe('RELEASE and its 48-hour cancellation window', () => {
    test('cancelled inside the window: the command is cancelled and the device waits for nothing', async () => {
      now = new Date('2030-01-01T10:00:00Z');
      const id = await device({ lastSeenAt: now });
      const res = (await act(id, BODIES[2]).expect(201)).body as ActionResult;
      expect(res.command).toMatchObject({ action: 2, status: 'pending', deliverAfter: '2030-01-03T10:00:00.000Z', cancellable: true });
      expect(res.device).toMatchObject({ status: 10, pendingCommand: { id: res.command!.id, deliverAfter: '2030-01-03T10:00:00.000Z' } });

      now = new Date('2030-01-03T09:59:00Z');
      const history = (await request(app()).get(`/api/v5/devices/${id}/history`).set(admin).expect(200)).body as History;
      expect(history.data[0]).toMatchObject({ id: res.command!.id, cancellable: true });
      // Soporte's profile does not grant RELEASE.
      await request(app()).post(`/api/v5/devices/${id}/actions/${res.command!.id}/cancel`).set(soporte).expect(403);
      const cancel = await request(app()).post(`/api/v5/devices/${id}/actions/${res.command!.id}/cancel`).set(inventario).expect(200);
      expect(cancel.body as Command).toMatchObject({ id: res.command!.id, status: 'cancelled', cancellable: false });
      const got = (await request(app()).get(`/api/v5/devices/${id}`).set(admin).expect(200)).body as Device;
      expect(got).toMatchObject({ status: 5, pendingCommand: null });
      expect(await lastAudit()).toMatchObject({
        entity: 'device',
        action: 'cancel_release',
        actor_email: 'inventario@demo.local',
        before: { status: 10 },
        after: { status: 5, command: { status: 'cancelled' } },
      });
      // Twice: no longer cancellable.
      const again = await request(app()).post(`/api/v5/devices/${id}/actions/${res.command!.id}/cancel`).set(admin).expect(409);
      expect(again.body.message).toBe(M.actions.notCancellable);
    });

    test("after 48 hours a RELEASE the device has not received can still be cancelled, as can any undelivered command; another device's command is not found", async () => {
      // (A delivered command cannot be cancelled: tests/integration/agent.test.ts, with a real agent.)
      now = new Date('2030-02-01T10:00:00Z');
      const id = await device({ lastSeenAt: now });
      const release = (await act(id, BODIES[2]).expect(201)).body as ActionResult;
      now = new Date('2030-02-03T10:00:01Z');
      let history = (await request(app()).get(`/api/v5/devices/${id}/history`).set(admin).expect(200)).body as History;
      expect(history.data[0]).toMatchObject({ status: 'pending', deliveredAt: null, cancellable: true });

      const locked = await device({ lastSeenAt: now });
      const lock = (await act(locked, BODIES[0]).expect(201)).body as ActionResult;
      const cancelledLock = await request(app()).post(`/api/v5/devices/${locked}/actions/${lock.command!.id}/cancel`).set(admin).expect(200);
      expect(cancelledLock.body).toMatchObject({ status: 'cancelled', cancellable: false });
      const other = await request(app()).post(`/api/v5/devices/${locked}/actions/${release.command!.id}/cancel`).set(admin).expect(404);
      expect(other.body).toEqual({ code: 'COMMAND_NOT_FOUND', message: M.actions.commandNotFound });
      await request(app()).post(`/api/v5/devices/999999/actions/${release.command!.id}/cancel`).set(admin).expect(404);
      await request(app()).post(`/api/v5/devices/${id}/actions/abc/cancel`).set(admin).expect(400);
      await request(app()).post(`/api/v5/devices/${id}/actions/${release.command!.id}/cancel`).set(admin).expect(200);
      history = (await request(app()).get(`/api/v5/devices/${id}/history`).set(admin).expect(200)).body as History;
      expect(history.data[0]).toMatchObject({ status: 'cancelled', cancellable: false });
    });
  });

  describe('Entregar ahora: a scheduled RELEASE delivered before the end of its cancel window', () => {
    const deliverNow = (id: number | string, headers = admin) => request(app()).post(`/api/v5/devices/${id}/release/deliver-now`).set(headers);

    test('the RELEASE grant is required (403 without it or without the path, 401 signed out); granted, the window ends now, audited', async () => {
      now = new Date('2030-03-01T10:00:00Z');
      const id = await device({ lastSeenAt: now });
      const release = (await act(id, BODIES[2]).expect(201)).body as ActionResult;
      now = new Date('2030-03-01T11:00:00Z');
      const before = await state();
      // Soporte's profile holds the devices page but not RELEASE; the dashboard-only profile not even the page.
      for (const headers of [soporte, outsider]) {
        expect((await deliverNow(id, headers).expect(403)).body).toEqual({ code: 'FORBIDDEN', message: MESSAGES.api.forbidden });
      }
      await request(app()).post(`/api/v5/devices/${id}/release/deliver-now`).expect(401);
      expect(await state()).toEqual(before);

      const res = await deliverNow(id, inventario).expect(200);
      expect(res.body as Command).toMatchObject({
        id: release.command!.id,
        action: 2,
        status: 'pending',
        deliverAfter: '2030-03-01T11:00:00.000Z',
        deliveredAt: null,
        cancellable: true,
      });
      const got = (await request(app()).get(`/api/v5/devices/${id}`).set(admin).expect(200)).body as Device;
      expect(got).toMatchObject({ status: 10, pendingCommand: { id: release.command!.id, deliverAfter: '2030-03-01T11:00:00.000Z' } });
      expect(await lastAudit()).toMatchObject({
        entity: 'device',
        entity_id: String(id),
        action: 'deliver_release_now',
        actor_email: 'inventario@demo.local',
        before: { status: 10, command: { id: release.command!.id, deliverAfter: '2030-03-03T10:00:00.000Z' } },
        after: { status: 10, command: { id: release.command!.id, status: 'pending', deliverAfter: '2030-03-01T11:00:00.000Z' } },
      });
      // The admin's profile grants everything.
      const other = await device({ lastSeenAt: now });
      await act(other, BODIES[2]).expect(201);
      await deliverNow(other, admin).expect(200);
    });

    test('409 in Spanish, nothing changed, when the device has no scheduled release: none, another command, already due, cancelled; 404 and 400', async () => {
      now = new Date('2030-04-01T10:00:00Z');
      const idle = await device({ lastSeenAt: now });
      const locking = await device({ lastSeenAt: now });
      await act(locking, BODIES[0]).expect(201);
      const due = await device({ lastSeenAt: now });
      await act(due, BODIES[2]).expect(201);
      await deliverNow(due).expect(200);
      const cancelled = await device({ lastSeenAt: now });
      const release = (await act(cancelled, BODIES[2]).expect(201)).body as ActionResult;
      await request(app()).post(`/api/v5/devices/${cancelled}/actions/${release.command!.id}/cancel`).set(admin).expect(200);
      const before = await state();
      for (const id of [idle, locking, due, cancelled]) {
        expect((await deliverNow(id).expect(409)).body).toEqual({ code: 'NO_SCHEDULED_RELEASE', message: M.actions.noScheduledRelease });
      }
      await deliverNow(999999).expect(404);
      await deliverNow('abc').expect(400);
      expect(await state()).toEqual(before);
    });
  });

  describe('deletion', () => {
    test('DELETE /devices/:id: soft delete, a history row with origin DELETE_DEVICE, pending notifications cancelled, audited', async () => {
      // 'Configurado': the reference §4 table does not disable deletion for it.
      const id = await device({ lifecycle: 'configured' });
      const note = (await act(id, BODIES[5]).expect(201)).body as ActionResult;
      await request(app()).delete(`/api/v5/devices/${id}`).set(inventario).expect(204);
      const row = (await t.db.query<{ deleted_at: Date | null }>('SELECT deleted_at FROM devices WHERE id = $1', [id])).rows[0]!;
      expect(row.deleted_at).not.toBeNull();
      await request(app()).get(`/api/v5/devices/${id}`).set(admin).expect(404);
      const history = (await request(app()).get(`/api/v5/devices/${id}/history`).set(admin).expect(200)).body as History;
      expect(history.total).toBe(2);
      expect(history.data[0]).toMatchObject({
        action: 11,
        status: 'acknowledged',
        origin: 2,
        requestedBy: 'inventario@demo.local',
        acknowledgedAt: expect.any(String),
      });
      expect(history.data[1]).toMatchObject({ id: note.command!.id, status: 'cancelled' });
      expect(await lastAudit()).toMatchObject({
        entity: 'device',
        entity_id: String(id),
        action: 'delete_device',
        before: { status: 15 },
        after: { id },
      });
      // Gone: a second delete, or any action, is a 404.
      const again = await request(app()).delete(`/api/v5/devices/${id}`).set(admin).expect(404);
      expect(again.body.message).toBe(M.devices.notFound);
      await act(id, BODIES[5]).expect(404);
    });

    test('pre-enrolled devices are deleted too; active or locked ones are refused (409)', async () => {
      await request(app())
        .delete(`/api/v5/devices/${await device({ lifecycle: 'pre_enrolled' })}`)
        .set(admin)
        .expect(204);
      for (const f of [{}, { lockState: 'locked' as const }]) {
        const id = await device(f);
        const res = await request(app()).delete(`/api/v5/devices/${id}`).set(admin).expect(409);
        expect(res.body.code).toBe('ACTION_DISABLED_FOR_STATUS');
      }
      const action = await act(await device({ failureReason: 'x' }), BODIES[11]).expect(201);
      expect(action.body).toMatchObject({ device: null, command: { action: 11, origin: 2, status: 'acknowledged' } });
    });
  });

  describe('history', () => {
    test('newest first, paged, with the total; unknown ids are 404; bad paging is 400', async () => {
      const id = await device();
      for (const action of [5, 6, 0]) await act(id, BODIES[action]).expect(201);
      const all = (await request(app()).get(`/api/v5/devices/${id}/history`).set(soporte).expect(200)).body as History;
      expect(all.total).toBe(3);
      expect(all.data.map((c) => c.action)).toEqual([0, 6, 5]);
      expect(all.data[0]).toMatchObject({
        deviceId: id,
        requestedBy: 'admin@demo.local',
        origin: null,
        acknowledgedAt: null,
        result: null,
        expiresAt: null,
      });
      const page2 = (await request(app()).get(`/api/v5/devices/${id}/history?page=2&perPage=2`).set(admin).expect(200)).body as History;
      expect(page2).toEqual({ total: 3, data: [all.data[2]] });
      const missing = await request(app()).get('/api/v5/devices/99999999/history').set(admin).expect(404);
      expect(missing.body.message).toBe(M.devices.notFound);
      await request(app()).get(`/api/v5/devices/${id}/history?perPage=500`).set(admin).expect(400);
      await request(app()).get('/api/v5/devices/x/history').set(admin).expect(400);
    });
  });

  describe('authorization', () => {
    test('403 without the path; 403 without the action, named in Spanish; the granted ones work', async () => {
      const id = await device();
      const before = await state();
      let res = await act(id, BODIES[0], soporte).expect(403);
      expect(res.body).toEqual({ code: 'ACTION_NOT_GRANTED', message: M.actions.notGranted('Bloquear') });
      await request(app()).delete(`/api/v5/devices/${id}`).set(soporte).expect(403);
      res = await act(id, BODIES[5], outsider).expect(403);
      expect(res.body).toEqual({ code: 'FORBIDDEN', message: MESSAGES.api.forbidden });
      await request(app()).get(`/api/v5/devices/${id}/history`).set(outsider).expect(403);
      await request(app()).delete(`/api/v5/devices/${id}`).set(outsider).expect(403);
      expect(await state()).toEqual(before);
      await act(id, BODIES[5], soporte).expect(201);
      await request(app()).get(`/api/v5/devices/${id}/history`).set(soporte).expect(200);
    });

    test('signed out: 401', async () => {
      await request(app()).post('/api/v5/devices/1/actions').send(BODIES[5]).expect(401);
    });
  });

  test('random bodies (fast-check): only 400s with a Spanish message, nothing changed', async () => {
    const id = await device();
    const before = await state();
    const near = fc.record(
      {
        action: fc.oneof(fc.constantFrom(...ACTIONS, 7, 14, -1, 1.5), fc.anything()),
        lockType: fc.oneof(fc.constantFrom('PorCredito', 'porcredito', ''), fc.anything()),
        message: fc.oneof(fc.string({ maxLength: 600 }), fc.anything()),
        title: fc.oneof(fc.string({ maxLength: 120 }), fc.anything()),
        reference: fc.oneof(fc.string(), fc.anything()),
        until: fc.oneof(
          fc.date().map((d) => (Number.isNaN(d.getTime()) ? 'x' : d.toISOString())),
          fc.string(),
          fc.anything(),
        ),
        stolen: fc.anything(),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(fc.oneof(near, fc.anything(), fc.jsonValue()), async (body) => {
        fc.pre(!actionPayload.safeParse(body).success);
        const res = await act(id, body);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({
          code: expect.stringMatching(/^(VALIDATION|INVALID_JSON)$/),
          message: expect.stringMatching(/^(El |Solicitud)/),
          ...(res.body.field !== undefined && { field: expect.any(String) }),
        });
      }),
      { numRuns: 150, seed: 5 },
    );
    expect(await state()).toEqual(before);
  }, 120_000);

  test('random route parameters: 400 (or 404 for what is no longer this route), nothing changed', async () => {
    const before = await state();
    await fc.assert(
      fc.asyncProperty(
        fc.string({ minLength: 1 }).filter((s) => !/^\d{1,10}$/.test(s)),
        async (param) => {
          const p = encodeURIComponent(param);
          for (const call of [
            request(app()).post(`/api/v5/devices/${p}/actions`).set(admin).send(BODIES[5]),
            request(app()).delete(`/api/v5/devices/${p}`).set(admin),
            request(app()).post(`/api/v5/devices/1/actions/${p}/cancel`).set(admin),
            request(app()).get(`/api/v5/devices/${p}/history`).set(admin),
          ]) {
            const res = await call;
            expect([400, 404]).toContain(res.status);
          }
        },
      ),
      { numRuns: 40, seed: 7 },
    );
    expect(await state()).toEqual(before);
  }, 60_000);
});
