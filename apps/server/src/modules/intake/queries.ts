import { and, asc, count, desc, eq, gte, ilike, inArray, isNull, lt, ne, or, sql, type SQL } from 'drizzle-orm';
import { queryRows, type DbOrTx } from '../../db/client.ts';
import { documentSources } from '../../db/schema/document-sources.ts';
import { intakeRules, userIntakeRules } from '../../db/schema/intake.ts';
import { attachments, messageEvents, messages } from '../../db/schema/messages.ts';
import { memberships, users } from '../../db/schema/users.ts';
import type { AuthContext } from '../../platform/auth/guard.ts';

// Who is looking: Administrators see every inbound message of their organization, Users what their
// intake rules give them plus what is assigned to them.
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

// The message's recipients as lower-case values (toAddress is semicolon-separated), stored with the row.
const recipientsOf = sql`${messages.recipients}`;
const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

// Issue 13 §4: what a User receives is what their intake rules (theirs and the organization's global ones) and
// assignments bring. Send permissions (user_document_sources, global addresses) decide only what they may send from:
// a permission for the records address would otherwise show a user everything the rules exist to divide.

// The rules that apply to a user of an organization: SQL expressions, parameters for Intake, columns for the
// notifications' audience (modules/notifications/audience.ts), so both read the one rule model.
export const rulesOf = (userId: SQL, organizationId: SQL) => sql`${intakeRules.organizationId} = ${organizationId}
  and (${intakeRules.isGlobal} or exists (select 1 from ${userIntakeRules} where ${userIntakeRules.intakeRuleId} = ${intakeRules.id}
    and ${userIntakeRules.userId} = ${userId} and ${userIntakeRules.organizationId} = ${organizationId}))`;
// A rule matches the message row: its fields AND-ed; a rule naming nothing matches nothing.
const ruleMatchesMessage = sql`(cardinality(${intakeRules.toAddresses}) > 0 or ${intakeRules.fromAddress} is not null or ${intakeRules.sourceType} is not null)
  and (cardinality(${intakeRules.toAddresses}) = 0 or ${intakeRules.toAddresses} && ${recipientsOf})
  and (${intakeRules.fromAddress} is null or ${intakeRules.fromAddress} = lower(${messages.fromAddress}))
  and (${intakeRules.sourceType} is null or ${intakeRules.sourceType} = ${messages.sourceType})`;
// The message (a `messages` row) reaches the user: assigned to them, or brought by one of their rules.
export const messageReaches = (userId: SQL, organizationId: SQL) =>
  sql`(${messages.assignedUserId} = ${userId} or exists (select 1 from ${intakeRules} where ${rulesOf(userId, organizationId)} and ${ruleMatchesMessage}))`;

const viewerRules = (viewer: Viewer) => rulesOf(sql`${viewer.userId}`, sql`${viewer.organizationId}`);

// The one visibility rule of Intake, for selects on messages (org and direction are the caller's
// filters); undefined means no restriction. Rule fields are AND-ed, rules and assignments OR-ed.
export function inboundVisibleTo(viewer: Viewer): SQL | undefined {
  if (viewer.seesAll) return undefined;
  return or(
    eq(messages.assignedUserId, viewer.userId),
    // The uncorrelated first test runs once per query: a user without rules never runs the per-message one.
    sql`(exists (select 1 from ${intakeRules} where ${viewerRules(viewer)})
      and exists (select 1 from ${intakeRules} where ${viewerRules(viewer)} and ${ruleMatchesMessage}))`,
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
  toAddresses: string[];
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
const unacknowledgedFailure = and(sql`${messages.status} = 'Failed'`, isNull(messages.failedAcknowledgedAt))!;

// What every count and the list share: the organization's inbound messages in the date range that the caller may see.
// Direction and deletion are literals: the planner matches them to the partial indexes of Intake (schema/messages.ts).
function scope(query: Pick<IntakeQuery, 'organizationId' | 'visibility' | 'dateColumn' | 'from' | 'until'>): SQL[] {
  return query.visibility ? [...dateWindow(query), query.visibility] : dateWindow(query);
}

// The part of the scope an index of Intake answers (schema/messages.ts): organization, direction, deletion, dates.
function dateWindow(query: Pick<IntakeQuery, 'organizationId' | 'dateColumn' | 'from' | 'until'>): SQL[] {
  const column = query.dateColumn === 'receiveDate' ? messages.systemReceivedDate : messages.updatedDate;
  const where: SQL[] = [eq(messages.organizationId, query.organizationId), sql`${messages.direction} = 'Inbound'`, sql`${messages.deletedAt} is null`, gte(column, query.from)];
  if (query.until) where.push(lt(column, query.until));
  return where;
}

// A typed phone or fax number: digits with the usual punctuation, 7 to 15 digits.
const PHONE = /^\+?[\d\s().-]+$/;
const phoneDigits = (value: string) => {
  if (!PHONE.test(value)) return null;
  const digits = value.replace(/\D/g, '');
  if (digits.length < 7 || digits.length > 15) return null;
  // Numbers are stored as their 10 digits: a leading US country code is not part of them.
  return digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits;
};

// The free-text search as terms that must all be found, each as one of its spellings. Words match anywhere
// and in any order ("Thomas Nguyen" finds "Nguyen, Thomas"); a phone number matches typed with or without
// punctuation (503-555-0101, (503) 555-0101 or 5035550101), as Updox's and Kno2's inbox searches do.
function searchTerms(text: string): string[][] {
  const whole = phoneDigits(text.trim());
  const words = whole ? [text.trim()] : text.split(/[\s,;]+/).filter(Boolean);
  const terms = new Map<string, string[]>();
  for (const word of words) {
    const digits = phoneDigits(word);
    const spellings = [...new Set([digits, word.toLowerCase()].filter((v): v is string => !!v))];
    terms.set(spellings.join('\n'), spellings);
  }
  return [...terms.values()];
}

// search_text is lower-case; PostgreSQL lower-cases the pattern the same way (a trigram index serves `like`).
const searchCondition = (text: string) =>
  and(...searchTerms(text).map((spellings) => or(...spellings.map((s) => sql`${messages.searchText} like lower(${`%${escapeLike(s)}%`})`))!));

// What narrows the date window: visibility and every filter of the list.
function filters(query: IntakeQuery): SQL[] {
  const where: SQL[] = query.visibility ? [query.visibility] : [];
  if (query.rules) {
    const rules = query.rules.map((rule) => {
      const parts: SQL[] = [];
      if (rule.toAddresses.length) parts.push(sql`${recipientsOf} && array[${sql.join(rule.toAddresses.map((a) => sql`${a}`), sql`, `)}]::text[]`);
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
  const search = query.text ? searchCondition(query.text) : undefined;
  if (search) where.push(search);
  if (query.columnFilters) where.push(...columnConditions(query.columnFilters));
  const assignment: SQL[] = [];
  if (query.unassigned) assignment.push(isNull(messages.assignedUserId));
  if (query.assignedTo) assignment.push(eq(messages.assignedUserId, query.assignedTo));
  if (assignment.length) where.push(or(...assignment)!);
  return where;
}

// How many rows match, stopping at `limit`: no count reads more rows than it can show.
const countUpTo = (where: SQL | undefined, limit: number) =>
  sql<number>`(select count(*)::int from (select 1 from ${messages} where ${where} limit ${limit}) as "capped")`;

// Rows of the date window read in index order, per match wanted, before the density seen decides what next.
export const SCAN_BUDGET_PER_MATCH = 5;
// At most this many rows per match wanted are read in index order in all; a sparser list is looked up another way.
export const SCAN_LIMIT_PER_MATCH = 40;

// The first `want` matches of the list in its order (ids), and how many match, counted up to `want`. A dense
// list is read in index order and stops at `want` matches; when the first rows show the matches too sparse to
// be found that way within want * SCAN_LIMIT_PER_MATCH rows, they are found as the planner likes best (bitmaps
// of the trigram, source type and assignment indexes) and sorted: a sparse search or a User's narrow view never
// walks the whole date range row by row.
async function findMatches(db: DbOrTx, query: IntakeQuery, want: number) {
  const column = query.dateColumn === 'receiveDate' ? messages.systemReceivedDate : messages.updatedDate;
  const dir = sql.raw(query.orderDir === 'asc' ? 'asc' : 'desc');
  const narrowing = filters(query);
  const matched = narrowing.length ? and(...narrowing)! : sql`true`;
  // Up to `budget` rows of the window in order, after the row `after` when given; the matches among them, and
  // the last row read when the budget ran out first.
  const scan = async (budget: number, after: { at: string; id: string } | null) => {
    const from = after ? sql`(${column}, ${messages.id}) ${sql.raw(query.orderDir === 'asc' ? '>' : '<')} (${after.at}::timestamptz, ${after.id}::uuid)` : undefined;
    const rows = await queryRows<{ id: string; at: string; hit: boolean; boundary: boolean }>(
      db,
      sql`select "id", "at"::text as "at", "hit", "boundary" from (
            select ${messages.id} as "id", ${column} as "at", (${matched}) as "hit",
                   row_number() over (order by ${column} ${dir}, ${messages.id} ${dir}) = ${budget} as "boundary"
            from ${messages} where ${and(...dateWindow(query), from)}
            order by ${column} ${dir}, ${messages.id} ${dir} limit ${budget}) as "scanned"
          where "hit" or "boundary" order by "at" ${dir}, "id" ${dir} limit ${want + 1}`,
    );
    return { hits: rows.filter((r) => r.hit).map((r) => r.id), last: rows.find((r) => r.boundary) ?? null };
  };
  const first = await scan(want * SCAN_BUDGET_PER_MATCH, null);
  let hits = first.hits;
  let last = first.last;
  if (hits.length < want && last && hits.length > 0) {
    // The rest at the density seen so far, with room to spare, if that stays within the limit.
    const needed = Math.ceil(((want - hits.length) * want * SCAN_BUDGET_PER_MATCH * 1.5) / hits.length);
    if (needed <= want * (SCAN_LIMIT_PER_MATCH - SCAN_BUDGET_PER_MATCH)) {
      const more = await scan(needed, last);
      hits = [...hits, ...more.hits];
      last = more.last;
    }
  }
  hits = hits.slice(0, want);
  if (hits.length === want || !last) return { ids: hits, total: hits.length };
  // Materialized: planned for every match (bitmap scans), not for the first few in date order.
  const all = await queryRows<{ id: string; total: number }>(
    db,
    sql`with "matches" as materialized (select ${messages.id} as "id", ${column} as "at" from ${messages} where ${and(...dateWindow(query), ...narrowing)})
        select "id", (count(*) over ())::int as "total" from "matches" order by "at" ${dir}, "id" ${dir} limit ${want}`,
  );
  return { ids: all.map((r) => r.id), total: Math.min(all[0]?.total ?? 0, want) };
}

// One page of the organization's Intake, newest (or oldest) first, with its attachment counts, and the number
// of matches counted up to `totalUpTo`.
export async function findPage(db: DbOrTx, query: IntakeQuery, page: { offset: number; limit: number; totalUpTo: number }) {
  const matches = await findMatches(db, query, Math.max(page.totalUpTo, page.offset + page.limit));
  const ids = matches.ids.slice(page.offset, page.offset + page.limit);
  if (ids.length === 0) return { items: [], total: matches.total };
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
      attachmentCount: sql<number>`(select count(*)::int from ${attachments} a where a.message_id = "messages"."id")`,
      unreadAttachmentCount: sql<number>`(select count(*)::int from ${attachments} a where a.message_id = "messages"."id" and not a.is_read)`,
    })
    .from(messages)
    .where(inArray(messages.id, ids));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return { items: ids.flatMap((id) => byId.get(id) ?? []), total: matches.total };
}

export interface ListFigures {
  // Beside the filters, within the date range and what the caller may see; each counted up to countsUpTo.
  counts: { all: number; unassigned: number; assignedToSelf: number; unread: number; failed: number };
  // Whether a User has anything that brings messages to their Intake; null when not asked.
  hasAssignments: boolean | null;
}

// An intake rule (their own or the organization's global ones) or a message assigned to the User.
const hasAssignmentsSql = (viewer: Viewer) => sql<boolean>`(exists (select 1 from ${intakeRules} where ${viewerRules(viewer)})
  or exists (select 1 from ${messages} where ${messages.organizationId} = ${viewer.organizationId} and ${messages.assignedUserId} = ${viewer.userId}
    and ${messages.direction} = 'Inbound' and ${messages.deletedAt} is null))`;

// Everything a list call counts, in one statement (one round trip, which PGlite makes the cost of a query).
export async function countFigures(
  db: DbOrTx,
  query: IntakeQuery,
  opts: { userId: string; countsUpTo: number; assignmentsOf: Viewer | null },
): Promise<ListFigures> {
  const base = scope(query);
  const counted = (extra?: SQL) => countUpTo(and(...base, extra), opts.countsUpTo);
  const viewer = opts.assignmentsOf;
  const [row] = await queryRows<{ all: number; unassigned: number; assignedToSelf: number; unread: number; failed: number; hasAssignments: boolean | null }>(
    db,
    sql`select ${counted()} as "all",
      ${counted(isNull(messages.assignedUserId))} as "unassigned",
      ${counted(eq(messages.assignedUserId, opts.userId))} as "assignedToSelf",
      ${counted(sql`not ${readExpr}`)} as "unread",
      ${counted(unacknowledgedFailure)} as "failed",
      ${viewer ? hasAssignmentsSql(viewer) : sql`null`} as "hasAssignments"`,
  );
  const { hasAssignments, ...counts } = row!;
  return { counts, hasAssignments };
}

// Names of the rules that bring messages to the viewer (their own and global ones), or with `all` every rule of the
// organization, alphabetical, at most `limit`: the empty Intake names them.
export async function ruleNames(db: DbOrTx, viewer: Viewer, opts: { all: boolean; limit: number }) {
  const rows = await db
    .select({ name: intakeRules.name })
    .from(intakeRules)
    .where(opts.all ? eq(intakeRules.organizationId, viewer.organizationId) : viewerRules(viewer))
    .orderBy(asc(intakeRules.name))
    .limit(opts.limit);
  return rows.map((r) => r.name);
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
      unassigned: sql<number>`cast(count(*) filter (where ${messages.assignedUserId} is null) as integer)`,
    })
    .from(messages)
    .where(where);
  const bySourceType = await db.select({ sourceType: messages.sourceType, n: count() }).from(messages).where(where).groupBy(messages.sourceType);
  const day = sql<string>`to_char(${messages.systemReceivedDate} at time zone 'UTC', 'YYYY-MM-DD')`;
  const perDay = await db.select({ date: day, n: count() }).from(messages).where(where).groupBy(day);
  // Sent: the organization's outbound messages, by their sent time (messageDate).
  const sentWhere = and(eq(messages.organizationId, organizationId), eq(messages.direction, 'Outbound'), eq(messages.isDraft, false), isNull(messages.deletedAt), gte(messages.messageDate, from));
  const sentDay = sql<string>`to_char(${messages.messageDate} at time zone 'UTC', 'YYYY-MM-DD')`;
  const sentPerDay = await db.select({ date: sentDay, n: count() }).from(messages).where(sentWhere).groupBy(sentDay);
  return { totals: totals!, bySourceType, perDay, sentPerDay };
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

// The viewer's failed inbound messages nobody has acknowledged yet, newest first (the dashboard's list).
export async function findUnacknowledgedFailuresPage(db: DbOrTx, viewer: Viewer, limit: number) {
  const where = and(eq(messages.organizationId, viewer.organizationId), eq(messages.direction, 'Inbound'), isNull(messages.deletedAt), unacknowledgedFailure, inboundVisibleTo(viewer));
  const items = await db
    .select({ id: messages.id, subject: messages.subject, fromAddress: messages.fromAddress, toAddress: messages.toAddress, receivedAt: messages.systemReceivedDate, createdAt: messages.createdDate })
    .from(messages)
    .where(where)
    .orderBy(desc(messages.systemReceivedDate), desc(messages.id))
    .limit(limit);
  const [total] = await db.select({ n: count() }).from(messages).where(where);
  return { items, totalCount: total?.n ?? 0 };
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
