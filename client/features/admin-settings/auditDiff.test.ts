import { formatDateTime } from '../../components/formatDate';
import { auditDiff } from './auditDiff';

describe('auditDiff', () => {
  test('lists only the keys whose values changed, old → new', () => {
    expect(auditDiff({ nombre: 'A', paths: ['/x'], n: 1 }, { nombre: 'B', paths: ['/x'], n: 1 })).toEqual([
      { key: 'nombre', before: 'A', after: 'B' },
    ]);
  });

  test('a creation shows every new key with "-" before; a deletion the reverse', () => {
    expect(auditDiff(null, { nombre: 'Solo inventario', actions: [0, 1] })).toEqual([
      { key: 'nombre', before: '-', after: 'Solo inventario' },
      { key: 'actions', before: '-', after: '[0,1]' },
    ]);
    expect(auditDiff({ enabled: true }, null)).toEqual([{ key: 'enabled', before: 'true', after: '-' }]);
  });

  test('no snapshots, or equal ones, give no change', () => {
    expect(auditDiff(null, null)).toEqual([]);
    expect(auditDiff(undefined, undefined)).toEqual([]);
    expect(auditDiff({ a: { b: 1 } }, { a: { b: 1 } })).toEqual([]);
  });

  test('scalar snapshots compare whole', () => {
    expect(auditDiff('x', 'y')).toEqual([{ key: '-', before: 'x', after: 'y' }]);
  });

  test("an instant reads in the portal's one es-MX date-time format (the browser's zone), other texts as they are", () => {
    const before = '2026-03-05T14:05:09.000Z';
    const after = '2026-03-06T00:00:00-06:00';
    expect(auditDiff({ temporaryUntil: before, ref: '2026-03-05' }, { temporaryUntil: after, ref: '2026-03-06' })).toEqual([
      { key: 'temporaryUntil', before: formatDateTime(before, { seconds: true }), after: formatDateTime(after, { seconds: true }) },
      { key: 'ref', before: '2026-03-05', after: '2026-03-06' },
    ]);
    expect(formatDateTime(before, { seconds: true })).toMatch(/mar 2026/);
  });
});
