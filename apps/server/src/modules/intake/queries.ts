import { and, asc, count, desc, eq, gte, ilike, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { documentSources } from '../../db/schema/document-sources.ts';
import { attachments, messages } from '../../db/schema/messages.ts';

export interface IntakeRuleFilter {
  toAddress: string | null;
  fromAddress: string | null;
  sourceType: string | null;
}

export interface IntakeQuery {
  organizationId: string;
  dateColumn: 'receiveDate' | 'updatedDate';
  // Inclusive start, exclusive end (UTC instants).
  from: Date;
  until: Date | null;
  rules: IntakeRuleFilter[];
  statuses: string[] | null;
  sourceTypes: string[] | null;
  processedTypes: string[] | null;
  sourceIds: string[] | null;
  text: string | null;
  orderDir: 'asc' | 'desc';
}

// The message's recipients as lower-case values (toAddress is semicolon-separated).
const recipientsOf = sql`string_to_array(lower(${messages.toAddress}), ';')`;
const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

function conditions(query: IntakeQuery): SQL[] {
  const column = query.dateColumn === 'receiveDate' ? messages.systemReceivedDate : messages.updatedDate;
  const where: SQL[] = [
    eq(messages.organizationId, query.organizationId),
    eq(messages.direction, 'Inbound'),
    isNull(messages.deletedAt),
    gte(column, query.from),
  ];
  if (query.until) where.push(lt(column, query.until));
  const rules = query.rules.map((rule) => {
    const parts: SQL[] = [];
    if (rule.toAddress) parts.push(sql`${rule.toAddress} = any(${recipientsOf})`);
    if (rule.fromAddress) parts.push(sql`lower(${messages.fromAddress}) = ${rule.fromAddress}`);
    if (rule.sourceType) parts.push(eq(messages.sourceType, rule.sourceType as 'Direct'));
    return and(...parts)!;
  });
  if (rules.length) where.push(or(...rules)!);
  if (query.statuses) where.push(inArray(messages.status, query.statuses));
  if (query.sourceTypes) where.push(inArray(messages.sourceType, query.sourceTypes as 'Direct'[]));
  if (query.processedTypes) where.push(inArray(messages.processedType, query.processedTypes));
  if (query.sourceIds) {
    where.push(sql`exists (select 1 from ${documentSources} where ${and(
      inArray(documentSources.id, query.sourceIds),
      eq(documentSources.organizationId, query.organizationId),
    )} and lower(${documentSources.fullAddress}) = any(${recipientsOf}))`);
  }
  if (query.text) {
    const like = `%${escapeLike(query.text)}%`;
    where.push(or(ilike(messages.subject, like), ilike(messages.fromAddress, like), ilike(messages.toAddress, like), ilike(messages.patientName, like))!);
  }
  return where;
}

// One page of the organization's Intake, with the total number of matches computed by the same query.
export async function findPage(db: DbOrTx, query: IntakeQuery, page: { offset: number; limit: number }) {
  const where = and(...conditions(query));
  const column = query.dateColumn === 'receiveDate' ? messages.systemReceivedDate : messages.updatedDate;
  const direction = query.orderDir === 'asc' ? asc : desc;
  const rows = await db
    .select({
      id: messages.id,
      subject: messages.subject,
      fromAddress: messages.fromAddress,
      toAddress: messages.toAddress,
      messageDate: messages.messageDate,
      systemReceivedDate: messages.systemReceivedDate,
      updatedDate: messages.updatedDate,
      isUrgent: messages.isUrgent,
      isProcessed: messages.isProcessed,
      processedType: messages.processedType,
      sourceType: messages.sourceType,
      patientName: messages.patientName,
      status: messages.status,
      properties: messages.properties,
      totalCount: sql<number>`cast(count(*) over () as integer)`,
    })
    .from(messages)
    .where(where)
    .orderBy(direction(column), direction(messages.id))
    .offset(page.offset)
    .limit(page.limit);
  if (rows.length > 0 || page.offset === 0) return { items: rows, totalCount: rows[0]?.totalCount ?? 0 };
  // A page past the end has no row to carry the total.
  const [total] = await db.select({ n: count() }).from(messages).where(where);
  return { items: rows, totalCount: total?.n ?? 0 };
}

// Attachments per message, and how many of them nobody has opened yet.
export async function countAttachments(db: DbOrTx, messageIds: string[]) {
  if (messageIds.length === 0) return new Map<string, { total: number; unread: number }>();
  const rows = await db
    .select({
      messageId: attachments.messageId,
      total: count(),
      unread: sql<number>`cast(count(*) filter (where not ${attachments.isRead}) as integer)`,
    })
    .from(attachments)
    .where(inArray(attachments.messageId, messageIds))
    .groupBy(attachments.messageId);
  return new Map(rows.map((r) => [r.messageId, { total: r.total, unread: r.unread }]));
}
