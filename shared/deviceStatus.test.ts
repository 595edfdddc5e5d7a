import { createTestDb, testEngines, type TestDb } from '../tests/helpers/testDb';
import { DEVICE_STATUSES } from './constants/domain';
import {
  LIFECYCLES,
  LOCK_STATES,
  OFFLINE_OVERLAID,
  SETTLED_LIFECYCLES,
  baseStatus,
  deviceStatus,
  isOffline,
  offlineCutoff,
  statusFilterSql,
  statusSql,
  type DeviceFacts,
  type Lifecycle,
  type LockState,
} from './deviceStatus';

const NOW = new Date('2026-03-01T12:00:00Z');
const CUTOFF = offlineCutoff(NOW, 72);
const RECENT = new Date(NOW.getTime() - 3600_000);
const OLD = new Date(NOW.getTime() - 100 * 3600_000);

const facts = (f: Partial<DeviceFacts>): DeviceFacts => ({
  lifecycle: 'operating',
  lockState: 'active',
  pendingAction: null,
  pendingUntil: null,
  failureReason: null,
  lastSeenAt: RECENT,
  ...f,
});

/*
 * Expectations from the product's Actions table (state while pending → on acknowledgement) and
 * the Device record section (lifecycle, lock state, command in flight, offline overlay).
 */
describe('device status from facts', () => {
  test('lifecycles that decide alone: pre-enrolled 25, released 9, suspended 22 (whatever else is true)', () => {
    for (const extra of [{}, { pendingAction: 0 }, { lockState: 'locked' as const }, { failureReason: 'x' }, { lastSeenAt: OLD }]) {
      expect(deviceStatus(facts({ lifecycle: 'pre_enrolled', ...extra }), CUTOFF)).toBe(25);
      expect(deviceStatus(facts({ lifecycle: 'released', ...extra }), CUTOFF)).toBe(9);
      expect(deviceStatus(facts({ lifecycle: 'suspended', ...extra }), CUTOFF)).toBe(22);
    }
  });

  test('a command in flight shows its in-flight status, before a failure or the lock state', () => {
    const inFlight = (pendingAction: number, more: Partial<DeviceFacts> = {}) =>
      deviceStatus(facts({ pendingAction, lockState: 'locked', failureReason: 'x', ...more }), CUTOFF);
    expect(inFlight(0)).toBe(4); // LOCK → bloqueando
    expect(inFlight(1)).toBe(6); // UNLOCK → desbloqueando
    expect(inFlight(1, { pendingUntil: new Date(NOW.getTime() + 86_400_000) })).toBe(24); // UNLOCK until a date → TEMPORARY_UNLOCKING
    expect(inFlight(2)).toBe(10); // RELEASE → liberando
    for (const configuring of [3, 4, 8, 10]) expect(inFlight(configuring)).toBe(16); // → configurando
    // In flight and not seen for days: still the in-flight status (the overlay does not hide it).
    expect(inFlight(0, { lastSeenAt: OLD })).toBe(4);
  });

  test('a rejected command makes the device fallido (21)', () => {
    expect(deviceStatus(facts({ failureReason: 'rechazado', lifecycle: 'enrolled' }), CUTOFF)).toBe(21);
  });

  test('lifecycle and lock state', () => {
    expect(deviceStatus(facts({ lifecycle: 'enrolling' }), CUTOFF)).toBe(2);
    expect(deviceStatus(facts({ lifecycle: 'enrolled' }), CUTOFF)).toBe(1);
    expect(deviceStatus(facts({ lifecycle: 'configured' }), CUTOFF)).toBe(15);
    expect(deviceStatus(facts({ lifecycle: 'reconfigured', lockState: 'locked' }), CUTOFF)).toBe(18);
    expect(deviceStatus(facts({ lifecycle: 'reconfigured' }), CUTOFF)).toBe(19);
    expect(deviceStatus(facts({ lockState: 'locked' }), CUTOFF)).toBe(3);
    expect(deviceStatus(facts({ lockState: 'unlocked_offline' }), CUTOFF)).toBe(17);
    expect(deviceStatus(facts({ lockState: 'temporary_active' }), CUTOFF)).toBe(23);
    expect(deviceStatus(facts({}), CUTOFF)).toBe(5);
  });

  test('offline overlay: sin_conexion (20) for settled statuses not seen since the cutoff', () => {
    const settled: Partial<DeviceFacts>[] = [
      { lifecycle: 'enrolled' },
      { lockState: 'locked' },
      {},
      { lifecycle: 'configured' },
      { lockState: 'unlocked' },
      { lockState: 'unlocked_offline' },
      { lifecycle: 'reconfigured', lockState: 'locked' },
      { lifecycle: 'reconfigured' },
      { lockState: 'temporary_active' },
    ];
    for (const f of settled) {
      expect(deviceStatus(facts({ ...f, lastSeenAt: OLD }), CUTOFF)).toBe(20);
      expect(deviceStatus(facts({ ...f, lastSeenAt: RECENT }), CUTOFF)).not.toBe(20);
      // An enrolled device that never checked in is offline; exactly at the cutoff is still online.
      expect(deviceStatus(facts({ ...f, lastSeenAt: null }), CUTOFF)).toBe(20);
      expect(deviceStatus(facts({ ...f, lastSeenAt: CUTOFF }), CUTOFF)).not.toBe(20);
    }
    expect(settled.map((f) => baseStatus(facts(f))).sort()).toEqual([...OFFLINE_OVERLAID].sort());
    // Enrolling, failed, released, suspended, pre-enrolled keep their status.
    for (const f of [
      { lifecycle: 'enrolling' as const },
      { failureReason: 'x' },
      { lifecycle: 'released' as const },
      { lifecycle: 'suspended' as const },
    ]) {
      expect(deviceStatus(facts({ ...f, lastSeenAt: OLD }), CUTOFF)).toBe(baseStatus(facts(f)));
    }
    expect(isOffline(5, OLD.toISOString(), CUTOFF)).toBe(true);
  });

  test('the cutoff is the configured number of hours before now', () => {
    expect(offlineCutoff(NOW, 72).toISOString()).toBe('2026-02-26T12:00:00.000Z');
    expect(offlineCutoff(NOW, 1).getTime()).toBe(NOW.getTime() - 3600_000);
  });
});

/** Every combination of the facts the status depends on. */
function allCombinations(): DeviceFacts[] {
  const out: DeviceFacts[] = [];
  const pendings = [null, ...Array.from({ length: 14 }, (_, i) => i)];
  for (const lifecycle of LIFECYCLES as readonly Lifecycle[])
    for (const lockState of LOCK_STATES as readonly LockState[])
      for (const pendingAction of pendings)
        for (const pendingUntil of [null, new Date(NOW.getTime() + 86_400_000)])
          for (const failureReason of [null, 'rechazado'])
            for (const lastSeenAt of [null, RECENT, OLD, CUTOFF])
              out.push({ lifecycle, lockState, pendingAction, pendingUntil, failureReason, lastSeenAt });
  return out;
}

describe.each(testEngines())('status in SQL agrees with the TypeScript rules on %s', (engine) => {
  let t: TestDb;
  // The combinations the table admits: a settled device always has a last_seen_at.
  const all = allCombinations().filter((f) => !(SETTLED_LIFECYCLES.includes(f.lifecycle) && f.lastSeenAt === null));

  beforeAll(async () => {
    t = await createTestDb(engine);
    const col = <K extends keyof DeviceFacts>(k: K) => all.map((f) => f[k]);
    // The real table: its generated base_status is the migration's expression.
    await t.db.query(
      `INSERT INTO devices (imei, device_type, lifecycle, lock_state, pending_action, pending_until, failure_reason, last_seen_at, secret)
       SELECT lpad(u.n::text, 15, '0'), 1, u.lifecycle, u.lock_state, u.pending_action, u.pending_until, u.failure_reason, u.last_seen_at, '\\x00'::bytea
         FROM unnest($1::int[], $2::text[], $3::text[], $4::smallint[], $5::timestamptz[], $6::text[], $7::timestamptz[])
              AS u(n, lifecycle, lock_state, pending_action, pending_until, failure_reason, last_seen_at)`,
      [
        all.map((_, i) => i + 1),
        col('lifecycle'),
        col('lockState'),
        col('pendingAction'),
        col('pendingUntil'),
        col('failureReason'),
        col('lastSeenAt'),
      ],
    );
  }, 60_000);
  afterAll(async () => {
    await t.dispose();
  });

  const byImei = (imei: string) => all[Number(imei) - 1]!;

  test('the table refuses a settled device that was never seen', async () => {
    await expect(
      t.db.query(`INSERT INTO devices (imei, device_type, lifecycle, secret) VALUES ('999999999999999', 1, 'operating', '\\x00'::bytea)`),
    ).rejects.toThrow(/devices_settled_seen/);
  });

  test(`every admitted fact combination (${all.length}): base_status and statusSql equal baseStatus and deviceStatus`, async () => {
    const res = await t.db.query<{ imei: string; base_status: number; status: number }>(
      `SELECT imei, base_status, ${statusSql('$1::timestamptz')} AS status FROM devices`,
      [CUTOFF],
    );
    expect(res.rows.length).toBe(all.length);
    const wrong = res.rows.filter((r) => {
      const f = byImei(r.imei);
      return r.base_status !== baseStatus(f) || Number(r.status) !== deviceStatus(f, CUTOFF);
    });
    expect(wrong).toEqual([]);
  });

  test('statusFilterSql selects exactly the devices whose derived status is the code, for every status', async () => {
    for (const { code } of DEVICE_STATUSES) {
      const where = statusFilterSql(code, '$1::timestamptz', 'd');
      const res = await t.db.query<{ imei: string }>(`SELECT d.imei FROM devices d WHERE ${where}`, where.includes('$1') ? [CUTOFF] : []);
      const sql = res.rows.map((r) => r.imei).sort();
      const ts = all
        .map((f, i) => [f, String(i + 1).padStart(15, '0')] as const)
        .filter(([f]) => deviceStatus(f, CUTOFF) === code)
        .map(([, imei]) => imei)
        .sort();
      expect({ code, imeis: sql }).toEqual({ code, imeis: ts });
    }
  });
});
