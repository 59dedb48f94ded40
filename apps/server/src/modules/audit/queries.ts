import { and, count, desc, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { auditEvents } from '../../db/schema/audit.ts';
import { messageEvents, messages } from '../../db/schema/messages.ts';
import { users } from '../../db/schema/users.ts';

// The user's full name, or the name the row kept when the user is gone.
const fullName = sql<string | null>`coalesce(nullif(trim(${users.firstName} || ' ' || ${users.lastName}), ''), ${users.userName})`;

export interface AuditFilter {
  organizationId: string;
  correlationId: string;
  eventTypes?: string[] | undefined;
  // Inclusive instants as [from, before).
  from?: Date | undefined;
  before?: Date | undefined;
}

export async function findAuditPage(db: DbOrTx, filter: AuditFilter, page: { offset: number; limit: number }) {
  const conditions: SQL[] = [eq(auditEvents.organizationId, filter.organizationId), eq(auditEvents.correlationId, filter.correlationId)];
  if (filter.eventTypes?.length) conditions.push(inArray(auditEvents.eventType, filter.eventTypes));
  if (filter.from) conditions.push(gte(auditEvents.createdAt, filter.from));
  if (filter.before) conditions.push(lt(auditEvents.createdAt, filter.before));
  const where = and(...conditions);
  const [items, [total]] = await Promise.all([
    db
      .select({
        id: auditEvents.id,
        eventType: auditEvents.eventType,
        createdAt: auditEvents.createdAt,
        createdBy: sql<string | null>`coalesce(${fullName}, ${auditEvents.userName})`,
      })
      .from(auditEvents)
      .leftJoin(users, eq(users.id, auditEvents.userId))
      .where(where)
      .orderBy(desc(auditEvents.createdAt), desc(auditEvents.id))
      .offset(page.offset)
      .limit(page.limit),
    db.select({ n: count() }).from(auditEvents).where(where),
  ]);
  return { items, totalCount: total?.n ?? 0 };
}

export async function findMessageEvents(db: DbOrTx, filter: { organizationId: string; eventTypes?: string[] | undefined; from?: Date | undefined }, limit: number) {
  const conditions: SQL[] = [eq(messageEvents.organizationId, filter.organizationId)];
  if (filter.eventTypes?.length) conditions.push(inArray(messageEvents.eventType, filter.eventTypes));
  if (filter.from) conditions.push(gte(messageEvents.createdAt, filter.from));
  return db
    .select({
      id: messageEvents.id,
      messageId: messageEvents.messageId,
      subject: messages.subject,
      eventType: messageEvents.eventType,
      createdBy: fullName,
      createdAt: messageEvents.createdAt,
    })
    .from(messageEvents)
    .innerJoin(messages, eq(messages.id, messageEvents.messageId))
    .leftJoin(users, eq(users.id, messageEvents.userId))
    .where(and(...conditions))
    .orderBy(desc(messageEvents.createdAt), desc(messageEvents.id))
    .limit(limit);
}

// The other end-user §7 calls: the organization's entries by id, by correlation, by type or by user.
export interface EntryFilter {
  organizationId: string;
  correlationId?: string | undefined;
  eventType?: string | undefined;
  userId?: string | undefined;
  from?: Date | undefined;
  before?: Date | undefined;
}

const entryColumns = {
  id: auditEvents.id,
  eventType: auditEvents.eventType,
  details: auditEvents.details,
  correlationId: auditEvents.correlationId,
  createdAt: auditEvents.createdAt,
  createdBy: sql<string | null>`coalesce(${fullName}, ${auditEvents.userName})`,
};

export async function findEntry(db: DbOrTx, organizationId: string, id: string) {
  const [row] = await db
    .select(entryColumns)
    .from(auditEvents)
    .leftJoin(users, eq(users.id, auditEvents.userId))
    .where(and(eq(auditEvents.organizationId, organizationId), eq(auditEvents.id, id)));
  return row;
}

export async function findEntryPage(db: DbOrTx, filter: EntryFilter, page: { offset: number; limit: number }) {
  const conditions: SQL[] = [eq(auditEvents.organizationId, filter.organizationId)];
  if (filter.correlationId !== undefined) conditions.push(eq(auditEvents.correlationId, filter.correlationId));
  if (filter.eventType !== undefined) conditions.push(eq(auditEvents.eventType, filter.eventType));
  if (filter.userId !== undefined) conditions.push(eq(auditEvents.userId, filter.userId));
  if (filter.from) conditions.push(gte(auditEvents.createdAt, filter.from));
  if (filter.before) conditions.push(lt(auditEvents.createdAt, filter.before));
  const where = and(...conditions);
  const [items, [total]] = await Promise.all([
    db
      .select(entryColumns)
      .from(auditEvents)
      .leftJoin(users, eq(users.id, auditEvents.userId))
      .where(where)
      .orderBy(desc(auditEvents.createdAt), desc(auditEvents.id))
      .offset(page.offset)
      .limit(page.limit),
    db.select({ n: count() }).from(auditEvents).where(where),
  ]);
  return { items, totalCount: total?.n ?? 0 };
}
