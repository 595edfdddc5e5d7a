/**
 * The pre-enrolled devices page (stage=preEnrolled), as the page asks it: with or without a group,
 * sorted by IMEI or by registration, either order. Each reads the keys of its page from an index
 * in the order of its sort (migration 0018), on both engines: the plan is asked with sequential
 * scans, bitmaps and sorts priced out, so the test fails when no index can give that order.
 */
import { insertDevices, insertGroup } from '../helpers/inventoryFixtures';
import { expectPageFromIndex, listPageSql } from '../helpers/queryPlans';
import { createTestDb, testEngines, type TestDb } from '../helpers/testDb';
import type { DeviceSort } from '../../shared/constants/limits';

describe.each(testEngines())('list indexes (%s)', (engine) => {
  let t: TestDb;
  let group: number;
  beforeAll(async () => {
    t = await createTestDb(engine);
    group = await insertGroup(t.db, 'Sucursal Norte');
    await insertDevices(t.db, [
      { lifecycle: 'pre_enrolled', groupId: group },
      { lifecycle: 'pre_enrolled', groupId: null },
      { lifecycle: 'operating', groupId: group },
    ]);
  });
  afterAll(() => t.dispose());

  const cases: [groupId: string | undefined, sort: DeviceSort, index: string][] = [
    [undefined, 'createdAt', 'devices_status_created'],
    [undefined, 'imei', 'devices_status_imei'],
    ['group', 'createdAt', 'devices_pre_enrolled_group_created'],
    ['group', 'imei', 'devices_pre_enrolled_group_imei'],
    ['none', 'createdAt', 'devices_pre_enrolled_group_created'],
    ['none', 'imei', 'devices_pre_enrolled_group_imei'],
  ];
  test.each(cases.flatMap(([g, sort, index]) => (['asc', 'desc'] as const).map((order) => [g ?? 'all', sort, order, index] as const)))(
    'pre-enrolled, group %s, by %s %s: the page keys come from %s in order',
    async (g, sort, order, index) => {
      const groupId = g === 'all' ? undefined : g === 'group' ? String(group) : 'none';
      const { sql, params } = await listPageSql({ stage: 'preEnrolled', sort, order, page: '3', perPage: '25', ...(groupId ? { groupId } : {}) });
      await expectPageFromIndex(t.db, sql, params, index);
    },
  );
});
