import { ADMIN_LABELS, labelOf } from '../constants/adminLabels';
import { DEVICE_ACTIONS } from '../constants/deviceActions';
import { deviceTypeLabel, lockTypeLabel } from '../constants/domain';
import { AUDIT_ACTIONS, AUDIT_ENTITIES } from '../constants/audit';

const L = ADMIN_LABELS.audit;

test('every entity the server records has its label, devices, groups and bulk jobs included', () => {
  expect(AUDIT_ENTITIES).toEqual(expect.arrayContaining(['device', 'group', 'job']));
  for (const e of AUDIT_ENTITIES) expect(labelOf(L.entities, e)).not.toBe(e);
});

test('every action has its label; a device action reads as the action itself', () => {
  for (const a of AUDIT_ACTIONS) expect(labelOf(L.actionNames, a)).not.toBe(a);
  for (const a of DEVICE_ACTIONS) expect(labelOf(L.actionNames, a.key.toLowerCase())).toBe(a.label);
  expect(AUDIT_ACTIONS).toEqual(expect.arrayContaining(['import', 'cancel_release', 'bulk_action', 'lock', 'delete_device']));
});

test('a value no list knows (an older row) reads as itself, never as an inherited property', () => {
  expect(labelOf(L.entities, 'legacy')).toBe('legacy');
  expect(labelOf(L.entities, 'toString')).toBe('toString');
});

test('one device-type and lock-type label table', () => {
  expect(deviceTypeLabel(1)).toBe('Móvil');
  expect(deviceTypeLabel(2)).toBe('TV');
  expect(deviceTypeLabel(9)).toBe('9');
  expect(lockTypeLabel('PorCredito')).toBe('Por Crédito');
  expect(lockTypeLabel(null)).toBeNull();
});
