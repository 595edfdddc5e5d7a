import * as deviceActions from './deviceActions';
import * as deviceImport from './deviceImport';
import * as devices from './devices';
import * as groups from './groups';
import * as jobs from './jobs';

describe('device contracts: one module per resource', () => {
  test("each resource's request schemas live in its own module", () => {
    expect(devices.deviceBody).toBeDefined();
    expect(devices.deviceListQuery).toBeDefined();
    expect(deviceActions.actionPayload).toBeDefined();
    expect(deviceActions.historyQuery).toBeDefined();
    expect(deviceActions.commandParams).toBeDefined();
    expect(jobs.bulkBody).toBeDefined();
    expect(deviceImport.importQuery).toBeDefined();
    expect(groups.groupBody).toBeDefined();
    expect(groups.deleteGroupQuery).toBeDefined();
  });

  test('devices.ts holds the registry only (no actions, bulk jobs, import or groups)', () => {
    const names = Object.keys(devices);
    for (const other of [deviceActions, jobs, deviceImport, groups]) {
      expect(names.filter((n) => n in other)).toEqual([]);
    }
    expect(names).not.toContain('actionPayload');
    expect(names).not.toContain('bulkBody');
    expect(names).not.toContain('importQuery');
    expect(names).not.toContain('groupBody');
  });

  test('the schemas behave as before the split: a group body trims and defaults its description', () => {
    expect(groups.groupBody.parse({ name: '  Norte ' })).toEqual({ name: 'Norte', description: null });
    expect(jobs.bulkBody.safeParse({ selection: { ids: [1] }, payload: { action: 1 } }).success).toBe(true);
  });
});
