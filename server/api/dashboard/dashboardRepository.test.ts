import type { QueryOptions, Queryable, Row } from '../../db/Db';
import { DashboardRepository, bindNamed } from './dashboardRepository';

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

test('on the pool, each general read is a named statement whose SQL text never changes with the values', async () => {
  const sent: { sql: string; params: readonly unknown[]; name?: string }[] = [];
  const recorder: Queryable = {
    query: async <T = Row>(sql: string, params?: readonly unknown[], options?: QueryOptions) => {
      sent.push({ sql, params: params ?? [], name: options?.name });
      return { rows: [{ statuses: [], groups: [], activity: [], stuck: [], month_start: new Date() }] as T[], rowCount: 1 };
    },
    exec: async () => undefined,
  };
  const repo = new DashboardRepository(recorder);
  await repo.general(new Date('2026-11-01T06:00:00Z'), 'America/Mexico_City', 5, new Date('2026-11-01T04:00:00Z'), false);
  await repo.general(new Date('2026-03-08T12:30:00Z'), 'Asia/Kolkata', 8, new Date('2026-03-08T10:30:00Z'), false);
  const names = sent.map((s) => s.name);
  expect(names.slice(0, 3)).toEqual(['dashboard_general_counters', 'dashboard_general_activity', 'dashboard_general_stuck']);
  expect(names.slice(3)).toEqual(names.slice(0, 3));
  // One name, one SQL text (pg refuses a name given another text); the values differ.
  for (let i = 0; i < 3; i++) {
    expect(sent[i + 3]!.sql).toBe(sent[i]!.sql);
    expect(sent[i + 3]!.params).not.toEqual(sent[i]!.params);
  }
  // PGlite's single statement is not named (it has one connection, nothing to share a plan with).
  sent.length = 0;
  await repo.general(new Date('2026-11-01T06:00:00Z'), 'UTC', 5, new Date('2026-11-01T04:00:00Z'), true);
  expect(sent.map((s) => s.name)).toEqual([undefined]);
});
