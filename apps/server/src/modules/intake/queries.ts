import { and, asc, count, desc, eq, gte, ilike, inArray, isNull, lt, ne, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { documentSources } from '../../db/schema/document-sources.ts';
import { intakeRules, userDocumentSources, userIntakeRules } from '../../db/schema/intake.ts';
import { attachments, messageEvents, messages } from '../../db/schema/messages.ts';
import { memberships, users } from '../../db/schema/users.ts';
import type { AuthContext } from '../../platform/auth/guard.ts';

// Who is looking: Administrators see every inbound message of their organization, Users what their
// document sources and intake rules give them plus what is assigned to them.
export interface Viewer {
  organizationId: string;
  userId: string;
  seesAll: boolean;
}

export const viewerOf = (caller: { session: AuthContext; organizationId: string }): Viewer => ({
  organizationId: caller.organizationId,
  userId: caller.session.userId,
  seesAll: caller.session.roles.includes('Administrator'),
});

// The message's recipients as lower-case values (toAddress is semicolon-separated).
const recipientsOf = sql`string_to_array(lower(${messages.toAddress}), ';')`;
const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

// The one visibility rule of Intake, for selects on messages (org and direction are the caller's
// filters); undefined means no restriction. Rule fields are AND-ed, rules and assignments OR-ed.
export function inboundVisibleTo(viewer: Viewer): SQL | undefined {
  if (viewer.seesAll) return undefined;
  return or(
    eq(messages.assignedUserId, viewer.userId),
    // The user's addresses as one array, computed once per query (an InitPlan), not once per message.
    sql`${recipientsOf} && array(select ${documentSources.fullAddress} from ${userDocumentSources} inner join ${documentSources} on ${documentSources.id} = ${userDocumentSources.documentSourceId}
      where ${userDocumentSources.userId} = ${viewer.userId} and ${userDocumentSources.organizationId} = ${viewer.organizationId})`,
    sql`exists (select 1 from ${userIntakeRules} inner join ${intakeRules} on ${intakeRules.id} = ${userIntakeRules.intakeRuleId}
      where ${userIntakeRules.userId} = ${viewer.userId} and ${userIntakeRules.organizationId} = ${viewer.organizationId}
      and coalesce(${intakeRules.toAddress}, ${intakeRules.fromAddress}, ${intakeRules.sourceType}) is not null
      and (${intakeRules.toAddress} is null or ${intakeRules.toAddress} = any(${recipientsOf}))
      and (${intakeRules.fromAddress} is null or ${intakeRules.fromAddress} = lower(${messages.fromAddress}))
      and (${intakeRules.sourceType} is null or ${intakeRules.sourceType} = ${messages.sourceType}))`,
  );
}

// For reads of any message: outbound ones (Release) have no assignments and pass.
export function messageVisibleTo(viewer: Viewer): SQL | undefined {
  const inbound = inboundVisibleTo(viewer);
  return inbound && or(ne(messages.direction, 'Inbound'), inbound);
}

// An inbound message of the organization, not deleted, that the viewer may see.
export async function findVisibleInbound(db: DbOrTx, viewer: Viewer, id: string) {
  const [row] = await db
    .select()
    .from(messages)
    .where(and(eq(messages.id, id), eq(messages.organizationId, viewer.organizationId), eq(messages.direction, 'Inbound'), isNull(messages.deletedAt), inboundVisibleTo(viewer)));
  return row;
}

export interface IntakeRuleFilter {
  toAddress: string | null;
  fromAddress: string | null;
  sourceType: string | null;
}

export type IntakeColumnFilters = Partial<
  Record<'subject' | 'fromAddress' | 'toAddress' | 'patientName', { value: string; operator: 'equals' | 'contains' } | null | undefined>
>;

const filterableColumns = {
  subject: messages.subject,
  fromAddress: messages.fromAddress,
  toAddress: messages.toAddress,
  patientName: messages.patientName,
} as const;

function columnConditions(filters: IntakeColumnFilters): SQL[] {
  const where: SQL[] = [];
  for (const key of Object.keys(filterableColumns) as (keyof typeof filterableColumns)[]) {
    const filter = filters[key];
    if (!filter?.value) continue;
    const column = filterableColumns[key];
    if (filter.operator === 'contains') where.push(ilike(column, `%${escapeLike(filter.value)}%`));
    // toAddress is semicolon-separated: equals matches any one recipient.
    else if (key === 'toAddress') where.push(sql`lower(${filter.value}) = any(${recipientsOf})`);
    else where.push(sql`lower(${column}) = lower(${filter.value})`);
  }
  return where;
}

export interface IntakeQuery {
  organizationId: string;
  visibility: SQL | undefined;
  dateColumn: 'receiveDate' | 'updatedDate';
  // Inclusive start, exclusive end (UTC instants).
  from: Date;
  until: Date | null;
  // null: no rule filter; [] (every rule named an unknown id): nothing matches.
  rules: IntakeRuleFilter[] | null;
  statuses: string[] | null;
  sourceTypes: string[] | null;
  processedTypes: string[] | null;
  sourceIds: string[] | null;
  text: string | null;
  // Per-column filters (case-insensitive); an empty value is no filter.
  columnFilters: IntakeColumnFilters | null;
  // isUnassigned / isAssignedToSelf: either narrows to those; both set, to either.
  unassigned: boolean;
  assignedTo: string | null;
  orderDir: 'asc' | 'desc';
}

// Read: marked read, or every attachment opened (a message without attachments needs the mark). One
// index probe of attachments per message; the list's page works it out from its attachment counts.
// Spelled with table names: drizzle may leave columns unqualified, and the subquery would take them for its own.
const readExpr = sql<boolean>`("messages"."is_read" or coalesce((select bool_and(a."is_read") from "attachments" a where a."message_id" = "messages"."id"), false))`;
export const isReadOf = (markedRead: boolean, attachments: { total: number; unread: number } | undefined) =>
  markedRead || (!!attachments && attachments.total > 0 && attachments.unread === 0);
const unacknowledgedFailure = and(eq(messages.status, 'Failed'), isNull(messages.failedAcknowledgedAt))!;

// What every count and the list share: the organization's inbound messages in the date range that the caller may see.
function scope(query: Pick<IntakeQuery, 'organizationId' | 'visibility' | 'dateColumn' | 'from' | 'until'>): SQL[] {
  const column = query.dateColumn === 'receiveDate' ? messages.systemReceivedDate : messages.updatedDate;
  const where: SQL[] = [eq(messages.organizationId, query.organizationId), eq(messages.direction, 'Inbound'), isNull(messages.deletedAt), gte(column, query.from)];
  if (query.until) where.push(lt(column, query.until));
  if (query.visibility) where.push(query.visibility);
  return where;
}

function conditions(query: IntakeQuery): SQL[] {
  const where = scope(query);
  if (query.rules) {
    const rules = query.rules.map((rule) => {
      const parts: SQL[] = [];
      if (rule.toAddress) parts.push(sql`${rule.toAddress} = any(${recipientsOf})`);
      if (rule.fromAddress) parts.push(sql`lower(${messages.fromAddress}) = ${rule.fromAddress}`);
      if (rule.sourceType) parts.push(eq(messages.sourceType, rule.sourceType as 'Direct'));
      return and(...parts)!;
    });
    where.push(rules.length ? or(...rules)! : sql`false`);
  }
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
  if (query.columnFilters) where.push(...columnConditions(query.columnFilters));
  const assignment: SQL[] = [];
  if (query.unassigned) assignment.push(isNull(messages.assignedUserId));
  if (query.assignedTo) assignment.push(eq(messages.assignedUserId, query.assignedTo));
  if (assignment.length) where.push(or(...assignment)!);
  return where;
}

// The counts beside the filters; each stops at `cap` + 1 rows, so none scans more than it shows.
export async function countCapped(db: DbOrTx, query: IntakeQuery, userId: string, cap: number) {
  const base = scope(query);
  const capped = async (extra: SQL | undefined) => {
    const sub = db
      .select({ one: sql`1` })
      .from(messages)
      .where(and(...base, extra))
      .limit(cap + 1)
      .as('capped');
    const [row] = await db.select({ n: count() }).from(sub);
    return row?.n ?? 0;
  };
  const [all, unassigned, assignedToSelf, unread, failed] = [
    await capped(undefined),
    await capped(isNull(messages.assignedUserId)),
    await capped(eq(messages.assignedUserId, userId)),
    await capped(sql`not ${readExpr}`),
    await capped(unacknowledgedFailure),
  ];
  return { all, unassigned, assignedToSelf, unread, failed };
}

// One page of the organization's Intake, and the total number of matches.
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
      markedRead: messages.isRead,
    })
    .from(messages)
    .where(where)
    .orderBy(direction(column), direction(messages.id))
    .offset(page.offset)
    .limit(page.limit);
  // A separate count: count(*) over () would make the database build every matching row in full
  // before taking the page. A first page that is not full is its own total.
  if (page.offset === 0 && rows.length < page.limit) return { items: rows, totalCount: rows.length };
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

// Whether a User has anything that brings messages to their Intake in the organization.
export async function hasAssignments(db: DbOrTx, viewer: Viewer) {
  const [source] = await db
    .select({ id: userDocumentSources.documentSourceId })
    .from(userDocumentSources)
    .where(and(eq(userDocumentSources.userId, viewer.userId), eq(userDocumentSources.organizationId, viewer.organizationId)))
    .limit(1);
  if (source) return true;
  const [rule] = await db
    .select({ id: userIntakeRules.intakeRuleId })
    .from(userIntakeRules)
    .where(and(eq(userIntakeRules.userId, viewer.userId), eq(userIntakeRules.organizationId, viewer.organizationId)))
    .limit(1);
  if (rule) return true;
  const [assigned] = await db
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.assignedUserId, viewer.userId), eq(messages.organizationId, viewer.organizationId), isNull(messages.deletedAt)))
    .limit(1);
  return !!assigned;
}

// Full names of the organization's Administrators, alphabetical.
export async function administratorNames(db: DbOrTx, organizationId: string) {
  const rows = await db
    .select({ firstName: users.firstName, lastName: users.lastName })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.role, 'Administrator'), eq(users.isDisabled, false)))
    .orderBy(asc(users.lastName), asc(users.firstName));
  return rows.map((r) => `${r.firstName} ${r.lastName}`.trim());
}

// Statistics of the organization's inbound messages received since `from`.
export async function statistics(db: DbOrTx, organizationId: string, from: Date) {
  const where = and(eq(messages.organizationId, organizationId), eq(messages.direction, 'Inbound'), isNull(messages.deletedAt), gte(messages.systemReceivedDate, from));
  const [totals] = await db
    .select({
      received: count(),
      unread: sql<number>`cast(count(*) filter (where not ${readExpr}) as integer)`,
      unprocessed: sql<number>`cast(count(*) filter (where not ${messages.isProcessed}) as integer)`,
      urgent: sql<number>`cast(count(*) filter (where ${messages.isUrgent}) as integer)`,
      failed: sql<number>`cast(count(*) filter (where ${unacknowledgedFailure}) as integer)`,
    })
    .from(messages)
    .where(where);
  const bySourceType = await db.select({ sourceType: messages.sourceType, n: count() }).from(messages).where(where).groupBy(messages.sourceType);
  const day = sql<string>`to_char(${messages.systemReceivedDate} at time zone 'UTC', 'YYYY-MM-DD')`;
  const perDay = await db.select({ date: day, n: count() }).from(messages).where(where).groupBy(day);
  return { totals: totals!, bySourceType, perDay };
}

export interface EventFilter {
  organizationId: string;
  from: Date | null;
  before: Date | null;
  eventTypes: string[];
}

// The events report: the organization's message events, newest first.
export async function findEventsForReport(db: DbOrTx, filter: EventFilter, limit: number) {
  const where: SQL[] = [eq(messageEvents.organizationId, filter.organizationId)];
  if (filter.from) where.push(gte(messageEvents.createdAt, filter.from));
  if (filter.before) where.push(lt(messageEvents.createdAt, filter.before));
  if (filter.eventTypes.length) where.push(inArray(messageEvents.eventType, filter.eventTypes));
  return db
    .select({
      createdAt: messageEvents.createdAt,
      eventType: messageEvents.eventType,
      user: sql<string | null>`nullif(trim(${users.firstName} || ' ' || ${users.lastName}), '')`,
      subject: messages.subject,
      fromAddress: messages.fromAddress,
      toAddress: messages.toAddress,
    })
    .from(messageEvents)
    .innerJoin(messages, eq(messages.id, messageEvents.messageId))
    .leftJoin(users, eq(users.id, messageEvents.userId))
    .where(and(...where))
    .orderBy(desc(messageEvents.createdAt), desc(messageEvents.id))
    .limit(limit);
}

// The newest events of messages of the organization the viewer may see (deleted ones excluded).
export async function findRecentEvents(db: DbOrTx, viewer: Viewer, limit: number) {
  return db
    .select({ id: messageEvents.id, type: messageEvents.eventType, messageId: messageEvents.messageId, subject: messages.subject, createdAt: messageEvents.createdAt })
    .from(messageEvents)
    .innerJoin(messages, eq(messages.id, messageEvents.messageId))
    .where(and(eq(messageEvents.organizationId, viewer.organizationId), eq(messages.organizationId, viewer.organizationId), isNull(messages.deletedAt), messageVisibleTo(viewer)))
    .orderBy(desc(messageEvents.createdAt), desc(messageEvents.id))
    .limit(limit);
}

// Ids of the viewer's failed inbound messages nobody has acknowledged yet.
export async function findUnacknowledgedFailures(db: DbOrTx, viewer: Viewer) {
  const rows = await db
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.organizationId, viewer.organizationId), eq(messages.direction, 'Inbound'), isNull(messages.deletedAt), unacknowledgedFailure, inboundVisibleTo(viewer)));
  return rows.map((r) => r.id);
}

export async function acknowledgeFailures(db: DbOrTx, ids: string[], at: Date) {
  if (ids.length === 0) return [];
  const rows = await db
    .update(messages)
    .set({ failedAcknowledgedAt: at })
    .where(and(inArray(messages.id, ids), isNull(messages.failedAcknowledgedAt)))
    .returning({ id: messages.id });
  return rows.map((r) => r.id);
}
