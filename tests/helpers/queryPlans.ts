import { deviceListQuery } from '../../shared/contracts/devices';
import { DeviceRepository } from '../../server/devices/deviceRepository';
import { filterOf } from '../../server/devices/devicesService';
import type { Db, Queryable } from '../../server/db/Db';
import { transaction } from '../../server/db/transactionScope';

export interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}

/** A plan node and every node below it. */
export const planNodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(planNodes)];

/** The plan of `sql` under the planner `settings` given (enable_seqscan: 'off', cpu_index_tuple_cost: '100'…). */
export async function planWith(db: Db, sql: string, params: unknown[], settings: Readonly<Record<string, string>>): Promise<PlanNode> {
  return transaction(db, async (tx) => {
    for (const [name, value] of Object.entries(settings)) await tx.query(`SET LOCAL ${name} = ${value}`);
    const res = await tx.query<Record<string, unknown>>(`EXPLAIN (FORMAT JSON) ${sql}`, params);
    const raw = Object.values(res.rows[0]!)[0];
    return ((typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan: PlanNode }[])[0]!.Plan;
  });
}

/**
 * The plan of `sql` with sequential scans, bitmaps and sorts priced out: a plan that still
 * sorts, or names no index, has no index that can give the order asked.
 */
export const indexOrderPlan = (db: Db, sql: string, params: unknown[]): Promise<PlanNode> =>
  planWith(db, sql, params, { enable_seqscan: 'off', enable_bitmapscan: 'off', enable_sort: 'off' });

/**
 * Asserts that the page query `sql` reads `index` and sorts nothing below its one LIMIT (the
 * only sort is that of the page's rows once they are joined, above the keys' limit), the
 * plan asked with the other ways priced out (indexOrderPlan).
 */
export async function expectPageFromIndex(db: Db, sql: string, params: unknown[], index: string): Promise<void> {
  const all = planNodes(await indexOrderPlan(db, sql, params));
  expect(all.map((n) => n['Index Name']).filter(Boolean)).toContain(index);
  const limits = all.filter((n) => n['Node Type'] === 'Limit');
  expect(limits).toHaveLength(1);
  expect(planNodes(limits[0]!).some((n) => n['Node Type'] === 'Sort')).toBe(false);
}

/**
 * Asserts that the page query `sql`, read in halves (inFlightHalves), takes each half's keys from
 * its index in `indexes` (in order) and sorts nothing below the half's LIMIT: only the merge of the
 * halves' first keys, and the page's rows once joined, may be sorted (indexOrderPlan).
 */
export async function expectHalvesFromIndexes(db: Db, sql: string, params: unknown[], indexes: readonly string[]): Promise<void> {
  const root = await indexOrderPlan(db, sql, params);
  // The halves' limits are the innermost ones (the page's limit holds them).
  const isLimit = (n: PlanNode) => n['Node Type'] === 'Limit';
  const halves = planNodes(root).filter((n) => isLimit(n) && !planNodes(n).slice(1).some(isLimit));
  expect(halves.map((h) => planNodes(h).find((n) => n['Index Name'])?.['Index Name'])).toEqual(indexes);
  for (const half of halves) expect(planNodes(half).some((n) => n['Node Type'] === 'Sort')).toBe(false);
}

/** The one statement DeviceRepository.list sends for a page of the devices list asked as `query` (the API's parameters). */
export async function listPageSql(query: Record<string, string>): Promise<{ sql: string; params: unknown[] }> {
  const q = deviceListQuery.parse(query);
  const sent: { sql: string; params: unknown[] }[] = [];
  const recorder = {
    query: (sql: string, params: unknown[] = []) => {
      sent.push({ sql, params });
      return Promise.resolve({ rows: [] });
    },
  } as unknown as Queryable;
  await new DeviceRepository(recorder).list(filterOf(q), new Date(), q.sort, q.order, q.perPage, (q.page - 1) * q.perPage);
  expect(sent).toHaveLength(1);
  return sent[0]!;
}
