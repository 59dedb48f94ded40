import { and, count, desc, eq, gte, ilike, lt, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { auditEvents } from '../../db/schema/audit.ts';
import { users } from '../../db/schema/users.ts';
import { containsPattern } from '../../platform/paging.ts';

export interface AuditSearch {
  // [from, before)
  from?: Date | undefined;
  before?: Date | undefined;
  username?: string | undefined;
}

// Who: the user name the row kept, else the user's current one.
const createdBy = sql<string | null>`coalesce(${auditEvents.userName}, ${users.userName})`;

const whereOf = (filter: AuditSearch) => {
  const conditions: SQL[] = [];
  if (filter.from) conditions.push(gte(auditEvents.createdAt, filter.from));
  if (filter.before) conditions.push(lt(auditEvents.createdAt, filter.before));
  if (filter.username) conditions.push(ilike(createdBy, containsPattern(filter.username)));
  return and(...conditions);
};

const columns = {
  id: auditEvents.id,
  eventType: auditEvents.eventType,
  details: auditEvents.details,
  createdBy,
  organizationId: auditEvents.organizationId,
  ip: auditEvents.ip,
  createdAt: auditEvents.createdAt,
};

export async function findPage(db: DbOrTx, filter: AuditSearch, page: { offset: number; limit: number }) {
  const where = whereOf(filter);
  const [items, [total]] = await Promise.all([
    db
      .select(columns)
      .from(auditEvents)
      .leftJoin(users, eq(users.id, auditEvents.userId))
      .where(where)
      .orderBy(desc(auditEvents.createdAt), desc(auditEvents.id))
      .offset(page.offset)
      .limit(page.limit),
    db.select({ n: count() }).from(auditEvents).leftJoin(users, eq(users.id, auditEvents.userId)).where(where),
  ]);
  return { items, totalCount: total?.n ?? 0 };
}

// created_at as PostgreSQL's text (microseconds kept: a JavaScript Date would round them and repeat rows).
export interface AuditKey {
  createdAtKey: string;
  id: string;
}

// One keyset page of the search, newest first, after the given row (the CSV export streams these).
export const findBatch = (db: DbOrTx, filter: AuditSearch, after: AuditKey | null, limit: number) =>
  db
    .select({ ...columns, createdAtKey: sql<string>`${auditEvents.createdAt}::text` })
    .from(auditEvents)
    .leftJoin(users, eq(users.id, auditEvents.userId))
    .where(and(whereOf(filter), after ? sql`(${auditEvents.createdAt}, ${auditEvents.id}) < (${after.createdAtKey}::timestamptz, ${after.id}::uuid)` : undefined))
    .orderBy(desc(auditEvents.createdAt), desc(auditEvents.id))
    .limit(limit);
