/**
 * The enrolled devices' list indexes hold no device with a command in flight (migration 0021), so
 * that a lock, an unlock or a release writes fewer indexes; the list reads those devices from the
 * in-flight indexes as a second half (inFlightHalves). These tests hold the list to the devices
 * themselves (every filter the halves serve, each sort, both orders, page after page, the totals),
 * the indexes a lock writes to the set chosen, and each half's page to its index, read in order.
 */
import request from 'supertest';
import { DEVICE_ACTION } from '../../shared/constants/deviceActions';
import type { DeviceList } from '../../shared/contracts/devices';
import { adminApi, type AdminApi } from '../helpers/adminApi';
import { insertDevices, insertGroup, testImei } from '../helpers/inventoryFixtures';
import { expectHalvesFromIndexes, listPageSql, planNodes, planWith } from '../helpers/queryPlans';
import { createTestDb, testEngines, type TestDb } from '../helpers/testDb';
import type { DeviceSort } from '../../shared/constants/limits';

/** The indexes of `devices` a row with a lock in flight is written into (every other one leaves it out). */
const WRITTEN_BY_A_LOCK = [
  'devices_credit_prefix',
  'devices_group_id',
  'devices_imei',
  'devices_imei2',
  'devices_in_flight_created',
  'devices_in_flight_group_imei',
  'devices_in_flight_imei',
  'devices_in_flight_last_seen',
  'devices_in_flight_type_imei',
  'devices_in_flight_version_imei',
  'devices_pkey',
  'devices_serial_prefix',
  'devices_status',
  'devices_status_created',
  'devices_status_imei',
];

describe.each(testEngines())('the list read in two halves on %s', (engine) => {
  let t: TestDb;
  let api: AdminApi;
  let admin: Record<string, string>;
  let group: number;
  let ids: number[];

  const list = async (query: Record<string, string>) =>
    (await request(api.ta.app).get('/api/v5/devices').query(query).set(admin).expect(200)).body as DeviceList;

  beforeAll(async () => {
    t = await createTestDb(engine);
    api = await adminApi(t.db);
    admin = await api.headersOf('admin@demo.local');
    group = await insertGroup(t.db, 'Sucursal Centro');
    const base = Date.UTC(2026, 0, 1);
    ids = await insertDevices(
      t.db,
      Array.from({ length: 40 }, (_, i) => ({
        imei: testImei(1000 + ((i * 17) % 40), '35'),
        deviceType: i % 3 === 0 ? (2 as const) : (1 as const),
        groupId: i % 2 === 0 ? group : null,
        agentVersion: i % 4 === 1 ? '3.1.0' : '3.2.0',
        lockState: i % 5 === 2 ? ('locked' as const) : ('active' as const),
        // Some registered, or last seen, at the same instant (the id breaks the tie).
        createdAt: new Date(base + Math.floor(i / 2) * 60_000),
        lastSeenAt: new Date(base + ((i * 7) % 13) * 3_600_000),
      })),
    );
    // A third of them get a command in flight, as the API gives it: locks and an unlock, in bulk.
    const lock = await api.bulkAction(admin, {
      selection: { ids: ids.filter((_, i) => i % 3 === 1 && i % 5 !== 2) },
      payload: { action: DEVICE_ACTION.LOCK, lockType: 'PorCredito', message: 'Pago vencido' },
    });
    const unlock = await api.bulkAction(admin, {
      selection: { ids: ids.filter((_, i) => i % 5 === 2 && i % 2 === 0) },
      payload: { action: DEVICE_ACTION.UNLOCK },
    });
    expect([lock.status, unlock.status]).toEqual(['completed', 'completed']);
    expect(lock.succeeded + unlock.succeeded).toBeGreaterThan(10);
  });
  afterAll(async () => {
    await api.ta.services.jobRunner.stop();
    await t.dispose();
  });

  test('a device with a lock in flight is written into the indexes that keep every status, and no other', async () => {
    const [id] = ids.filter((_, i) => i % 3 === 1 && i % 5 !== 2);
    const indexes = await t.db.query<{ name: string; predicate: string | null }>(
      `SELECT c.relname AS name, pg_get_expr(i.indpred, i.indrelid) AS predicate
         FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
        WHERE i.indrelid = 'devices'::regclass ORDER BY c.relname`,
    );
    const written: string[] = [];
    for (const index of indexes.rows) {
      const admits = await t.db.query(`SELECT 1 FROM devices WHERE id = $1 AND (${index.predicate ?? 'true'})`, [id]);
      if (admits.rowCount) written.push(index.name);
    }
    // The fixture's device has a second IMEI in none of them: devices_imei2 leaves it out too.
    expect(written).toEqual(WRITTEN_BY_A_LOCK.filter((n) => n !== 'devices_imei2'));
  });

  const filters: [name: string, query: () => Record<string, string>, where: () => [string, unknown[]]][] = [
    ['no filter', () => ({}), () => ['true', []]],
    ['a type', () => ({ deviceType: '2' }), () => ['device_type = 2', []]],
    ['a group', () => ({ groupId: String(group) }), () => ['group_id = $1', [group]]],
    ['no group', () => ({ groupId: 'none' }), () => ['group_id IS NULL', []]],
    ['an agent version', () => ({ agentVersion: '3.1.0' }), () => ["agent_version = '3.1.0'", []]],
    ['a type and a group', () => ({ deviceType: '1', groupId: String(group) }), () => ['device_type = 1 AND group_id = $1', [group]]],
  ];
  const orderSql: Record<DeviceSort, string> = {
    createdAt: 'created_at %s, id %s',
    lastSeenAt: 'last_seen_at %s NULLS LAST, id %s',
    imei: 'imei %s',
  };

  test.each(filters)('%s: every sort, both orders, page after page, and the total, as the devices hold them', async (_, query, where) => {
    const [condition, params] = where();
    for (const sort of ['createdAt', 'lastSeenAt', 'imei'] as const) {
      for (const order of ['asc', 'desc'] as const) {
        const expected = (
          await t.db.query<{ id: string }>(
            `SELECT id FROM devices WHERE deleted_at IS NULL AND lifecycle <> 'pre_enrolled' AND ${condition}
              ORDER BY ${orderSql[sort].replaceAll('%s', order)}`,
            params,
          )
        ).rows.map((r) => Number(r.id));
        const inFlight = (
          await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM devices WHERE id = ANY($1::bigint[]) AND pending_action IS NOT NULL`, [
            expected,
          ])
        ).rows[0]!.n;
        expect(inFlight).toBeGreaterThan(0);
        const seen: number[] = [];
        for (let page = 1; page <= Math.ceil(expected.length / 4) + 1; page += 1) {
          const body = await list({ stage: 'enrolled', sort, order, page: String(page), perPage: '4', ...query() });
          expect(body.total).toBe(expected.length);
          seen.push(...body.data.map((d) => d.id));
        }
        expect(seen).toEqual(expected);
      }
    }
  });

  const IN_FLIGHT: Record<DeviceSort, string> = {
    createdAt: 'devices_in_flight_created',
    lastSeenAt: 'devices_in_flight_last_seen',
    imei: 'devices_in_flight_imei',
  };
  // In IMEI order a type, a group or a version has its own in-flight index (0021, 0022): their
  // IMEIs need not be spread over the others' (a television's follow the phones').
  const cases: [filter: string, query: () => Record<string, string>, sort: DeviceSort, index: string, inFlight: string][] = [
    ['none', () => ({}), 'createdAt', 'devices_enrolled_created', IN_FLIGHT.createdAt],
    ['none', () => ({}), 'lastSeenAt', 'devices_enrolled_last_seen', IN_FLIGHT.lastSeenAt],
    ['none', () => ({}), 'imei', 'devices_enrolled_imei', IN_FLIGHT.imei],
    ['type', () => ({ deviceType: '2' }), 'createdAt', 'devices_type_created', IN_FLIGHT.createdAt],
    ['type', () => ({ deviceType: '2' }), 'lastSeenAt', 'devices_type_last_seen', IN_FLIGHT.lastSeenAt],
    ['type', () => ({ deviceType: '2' }), 'imei', 'devices_type_imei', 'devices_in_flight_type_imei'],
    ['group', () => ({ groupId: String(group) }), 'createdAt', 'devices_group_created', IN_FLIGHT.createdAt],
    ['group', () => ({ groupId: String(group) }), 'lastSeenAt', 'devices_group_last_seen', IN_FLIGHT.lastSeenAt],
    ['group', () => ({ groupId: String(group) }), 'imei', 'devices_group_imei', 'devices_in_flight_group_imei'],
    ['agent version', () => ({ agentVersion: '3.1.0' }), 'createdAt', 'devices_agent_version', IN_FLIGHT.createdAt],
    ['agent version', () => ({ agentVersion: '3.1.0' }), 'lastSeenAt', 'devices_agent_version_last_seen', IN_FLIGHT.lastSeenAt],
    ['agent version', () => ({ agentVersion: '3.1.0' }), 'imei', 'devices_agent_version_imei', 'devices_in_flight_version_imei'],
  ];
  test.each(
    cases.flatMap(([f, query, sort, index, inFlight]) =>
      (['asc', 'desc'] as const).map((order) => [f, sort, order, index, inFlight, query] as const),
    ),
  )('filter %s, by %s %s: the first half from %s, the second from %s, each in order', async (_, sort, order, index, inFlight, query) => {
    const { sql, params } = await listPageSql({ stage: 'enrolled', sort, order, page: '3', perPage: '25', ...query() });
    // Latest connection first: each half read twice, its devices seen then those never seen (last).
    const halves = sort === 'lastSeenAt' && order === 'desc' ? [index, index, inFlight, inFlight] : [index, inFlight];
    await expectHalvesFromIndexes(t.db, sql, params, halves);
  });

  // A small group, or a version few devices run, has few devices in flight or none: walking an
  // in-flight index in the sort's order would test every device in flight before the merge could
  // start. Their half can be read by its condition from their own in-flight index (migration
  // 0022) and sorted; the planner chooses that when its statistics say so.
  test.each([
    [
      'a group with no device in flight',
      'devices_in_flight_group_imei',
      'COALESCE(group_id, 0) =',
      async () => ({ groupId: String(await insertGroup(t.db, 'Sucursal Norte')) }),
    ],
    ['no group', 'devices_in_flight_group_imei', 'COALESCE(group_id, 0) =', () => Promise.resolve({ groupId: 'none' })],
    ['an agent version no device runs', 'devices_in_flight_version_imei', 'agent_version =', () => Promise.resolve({ agentVersion: '2.9.0' })],
  ])('%s: the in-flight half can be read from %s by its condition (%s), in every sort', async (_, index, condition, query) => {
    const q = await query();
    // The statistics of the fixture's devices, as autovacuum keeps them for a fleet's.
    await t.db.exec('ANALYZE devices');
    for (const sort of ['createdAt', 'lastSeenAt', 'imei'] as const) {
      const { sql, params } = await listPageSql({ stage: 'enrolled', sort, order: 'desc', page: '1', perPage: '25', ...q });
      // Walking an index in order priced out, and each index entry read priced high (this fixture's
      // indexes are a page each): the plan left reads the fewest entries, by the filter's condition.
      const plan = await planWith(t.db, sql, params, { enable_seqscan: 'off', enable_indexscan: 'off', cpu_index_tuple_cost: '100' });
      const reads = planNodes(plan).filter((n) => n['Index Name'] === index);
      // Latest connection first reads the half as two (its devices seen, then those never seen),
      // which the planner may answer from one read.
      if (sort === 'lastSeenAt') expect(reads.length).toBeGreaterThanOrEqual(1);
      else expect(reads).toHaveLength(1);
      for (const read of reads) expect(read['Index Cond']).toContain(condition);
    }
  });
});
