import { sql, type SQL } from 'drizzle-orm';
import { type DbOrTx, queryRows } from '../../db/client.ts';
import { countRows as countUpTo } from '../../db/count.ts';

// One page of a feed and, when asked, its total: the FROM clause, scope and compiled options come from the service.
export interface FeedStatement {
  select: SQL;
  from: SQL;
  where: SQL[];
  orderBy: SQL;
  limit: number;
  offset: number;
}

const whereClause = (parts: SQL[]) => (parts.length === 0 ? sql`` : sql` where ${sql.join(parts, sql` and `)}`);

export function findPage(db: DbOrTx, s: FeedStatement): Promise<Record<string, unknown>[]> {
  return queryRows<Record<string, unknown>>(db, sql`select ${s.select} from ${s.from}${whereClause(s.where)} order by ${s.orderBy} limit ${s.limit} offset ${s.offset}`);
}

// Exact up to 1,000 rows, the planner's estimate past that (db/count.ts).
export function countRows(db: DbOrTx, s: Pick<FeedStatement, 'from' | 'where'>): Promise<number> {
  return countUpTo(db, sql`${s.from}${whereClause(s.where)}`);
}
