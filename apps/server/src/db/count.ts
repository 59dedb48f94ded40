import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type DbOrTx } from './client.ts';

// Past this many rows (40 pages of 25) a grid's total is the planner's estimate: counting thousands of rows that each
// need a join or a subquery takes longer than the page they go with (issue 27 §2, bench/workflows.ts).
export const EXACT_COUNT_CAP = 1_000;

// The rows of `fromWhere` (a FROM clause and its WHERE): exact up to `cap`, read no further than that; past it, what
// EXPLAIN estimates, never less than cap + 1.
export async function countRows(db: DbOrTx, fromWhere: SQL, cap = EXACT_COUNT_CAP): Promise<number> {
  const [counted] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from (select 1 from ${fromWhere} limit ${cap + 1}) capped`);
  const exact = counted?.n ?? 0;
  if (exact <= cap) return exact;
  const [plan] = await queryRows<{ 'QUERY PLAN': unknown }>(db, sql`explain (format json) select 1 from ${fromWhere}`);
  const json = plan?.['QUERY PLAN'];
  const parsed = (typeof json === 'string' ? JSON.parse(json) : json) as [{ Plan: { 'Plan Rows': number } }];
  return Math.max(cap + 1, Math.round(parsed[0].Plan['Plan Rows']));
}
