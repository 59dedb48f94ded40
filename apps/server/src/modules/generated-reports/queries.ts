import { count, desc, eq, ilike, or, sql } from 'drizzle-orm';
import { queryRows, type DbOrTx } from '../../db/client.ts';
import { generatedReports } from '../../db/schema/reports.ts';

const like = (search: string) => `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export async function findPage(db: DbOrTx, page: { pageNumber: number; pageSize: number; search?: string | undefined }) {
  const where = page.search ? or(ilike(generatedReports.name, like(page.search)), ilike(generatedReports.fileName, like(page.search))) : undefined;
  const [items, [total]] = await Promise.all([
    db
      .select({ id: generatedReports.id, name: generatedReports.name, fileName: generatedReports.fileName, createDate: generatedReports.createDate })
      .from(generatedReports)
      .where(where)
      .orderBy(desc(generatedReports.createDate), desc(generatedReports.id))
      .limit(page.pageSize)
      .offset((page.pageNumber - 1) * page.pageSize),
    db.select({ n: count() }).from(generatedReports).where(where),
  ]);
  return { items, totalCount: total?.n ?? 0 };
}

export async function findById(db: DbOrTx, id: string) {
  const [row] = await db.select().from(generatedReports).where(eq(generatedReports.id, id));
  return row;
}

export async function findOne(db: DbOrTx, kind: string, organizationId: string, period: string) {
  const [row] = await queryRows<{ id: string }>(db, sql`select id from generated_reports where kind = ${kind} and organization_id = ${organizationId}::uuid and period = ${period}`);
  return row;
}

export const insert = (db: DbOrTx, row: typeof generatedReports.$inferInsert) => db.insert(generatedReports).values(row);

export interface MonthlyUsage extends Record<string, unknown> {
  measure: string;
  channel: string;
  value: number;
}

// An organization's usage in [from, to): recipients sent to per channel and outcome, messages received per channel,
// and its users and addresses at the time the report is made.
export function monthlyUsage(db: DbOrTx, organizationId: string, range: { from: Date; to: Date }) {
  const from = range.from.toISOString();
  const to = range.to.toISOString();
  return queryRows<MonthlyUsage>(
    db,
    sql`select measure, channel, value from (
        select 1 as ord, 'Messages sent' as measure, d.channel as channel, count(*)::int as value from deliveries d
          where d.organization_id = ${organizationId}::uuid and d.created_at >= ${from}::timestamptz and d.created_at < ${to}::timestamptz group by d.channel
        union all
        select 2, 'Messages delivered', d.channel, count(*)::int from deliveries d
          where d.organization_id = ${organizationId}::uuid and d.status = 'Delivered' and d.created_at >= ${from}::timestamptz and d.created_at < ${to}::timestamptz group by d.channel
        union all
        select 3, 'Messages failed', d.channel, count(*)::int from deliveries d
          where d.organization_id = ${organizationId}::uuid and d.status = 'Failed' and d.created_at >= ${from}::timestamptz and d.created_at < ${to}::timestamptz group by d.channel
        union all
        select 4, 'Messages received', coalesce(m.source_type, 'Other'), count(*)::int from messages m
          where m.organization_id = ${organizationId}::uuid and m.direction = 'Inbound'
            and coalesce(m.system_received_date, m.created_date) >= ${from}::timestamptz and coalesce(m.system_received_date, m.created_date) < ${to}::timestamptz
          group by coalesce(m.source_type, 'Other')
        union all
        select 5, 'Users', '', count(*)::int from memberships mb where mb.organization_id = ${organizationId}::uuid
        union all
        select 6, 'Active users', '', count(*)::int from memberships mb join users u on u.id = mb.user_id where mb.organization_id = ${organizationId}::uuid and not u.is_disabled
        union all
        select 7, 'Direct addresses', '', count(*)::int from document_sources s where s.organization_id = ${organizationId}::uuid and s.type = 'Direct' and s.status <> 4
        union all
        select 8, 'Fax numbers', '', count(*)::int from document_sources s where s.organization_id = ${organizationId}::uuid and s.type = 'Fax' and s.status <> 4
      ) usage order by ord, channel`,
  );
}
