import { bindNamed } from './dashboardRepository';

test('named values become $n in order of first use; a name used again keeps its number', () => {
  const at = new Date('2026-11-01T00:00:00Z');
  expect(
    bindNamed('SELECT {tz}, {now}::timestamptz AT TIME ZONE {tz} LIMIT {top}', { now: at, tz: 'America/Mexico_City', top: 5, since: at }),
  ).toEqual({
    sql: 'SELECT $1, $2::timestamptz AT TIME ZONE $1 LIMIT $3',
    params: ['America/Mexico_City', at, 5],
  });
  expect(bindNamed(`SELECT '[]'`, {})).toEqual({ sql: `SELECT '[]'`, params: [] });
});

test('a name without a value is an error, not a NULL', () => {
  expect(() => bindNamed('SELECT {missing}', { now: new Date() })).toThrow('{missing}');
});
