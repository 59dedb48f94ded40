import { and, asc, count, desc, eq, getTableColumns, gte, ilike, inArray, isNull, lt, notInArray, or, sql, type SQL } from 'drizzle-orm';
import { deliveryStage } from '@clinicrelay/contracts/delivery.ts';
import { IN_SERVICE_STATUSES } from '@clinicrelay/contracts/document-sources.ts';
import type { DbOrTx } from '../../db/client.ts';
import { auditEvents } from '../../db/schema/audit.ts';
import { documentSources } from '../../db/schema/document-sources.ts';
import { userDocumentSources } from '../../db/schema/intake.ts';
import {
  addressCache,
  attachments,
  conversations,
  deliveries,
  deliveryEvents,
  documentTypes,
  messageEvents,
  messages,
  patients,
  releaseTypes,
} from '../../db/schema/messages.ts';

export type MessageRow = typeof messages.$inferSelect;
export type PatientRow = typeof patients.$inferSelect;
export type AttachmentRow = typeof attachments.$inferSelect;

// A message of the organization that is not deleted; anything else does not exist for the caller.
// `visibleTo` narrows it to what the caller may see (intake/queries.ts messageVisibleTo).
export async function findById(db: DbOrTx, organizationId: string, id: string, visibleTo?: SQL) {
  const [row] = await db
    .select()
    .from(messages)
    .where(and(eq(messages.id, id), eq(messages.organizationId, organizationId), isNull(messages.deletedAt), visibleTo));
  return row;
}

// findById holding the row lock until the transaction ends: a send and a save of one draft take turns.
export async function findByIdForUpdate(tx: DbOrTx, organizationId: string, id: string, visibleTo?: SQL) {
  const [row] = await tx
    .select()
    .from(messages)
    .where(and(eq(messages.id, id), eq(messages.organizationId, organizationId), isNull(messages.deletedAt), visibleTo))
    .for('update', { of: messages });
  return row;
}

export async function findPatient(db: DbOrTx, messageId: string) {
  const [row] = await db.select().from(patients).where(eq(patients.messageId, messageId));
  return row;
}

export async function findAttachments(db: DbOrTx, messageIds: string[]) {
  if (messageIds.length === 0) return [];
  return db.select().from(attachments).where(inArray(attachments.messageId, messageIds)).orderBy(asc(attachments.position), asc(attachments.createdAt));
}

// Each delivery with its timeline (delivery_events, oldest first): one more query for the whole page, not one per row.
export async function findDeliveries(db: DbOrTx, messageIds: string[]) {
  if (messageIds.length === 0) return [];
  const rows = await db.select().from(deliveries).where(inArray(deliveries.messageId, messageIds)).orderBy(asc(deliveries.createdAt));
  const events = rows.length
    ? await db
        .select({ deliveryId: deliveryEvents.deliveryId, stage: deliveryEvents.stage, detail: deliveryEvents.detail, at: deliveryEvents.createdAt })
        .from(deliveryEvents)
        .where(inArray(deliveryEvents.deliveryId, rows.map((r) => r.id)))
    : [];
  // Stages stamped in the same instant (a fast peer) keep their natural order.
  const order = deliveryStage.options;
  events.sort((a, b) => a.at.getTime() - b.at.getTime() || order.indexOf(a.stage) - order.indexOf(b.stage));
  return rows.map((r) => ({ ...r, timeline: events.filter((e) => e.deliveryId === r.id) }));
}

export async function findConversation(db: DbOrTx, id: string) {
  const [row] = await db.select().from(conversations).where(eq(conversations.id, id));
  return row;
}

export async function countAttachments(db: DbOrTx, messageIds: string[]) {
  if (messageIds.length === 0) return new Map<string, number>();
  const rows = await db
    .select({ messageId: attachments.messageId, n: count() })
    .from(attachments)
    .where(inArray(attachments.messageId, messageIds))
    .groupBy(attachments.messageId);
  return new Map(rows.map((r) => [r.messageId, r.n]));
}

export interface OutboundFilter {
  organizationId: string;
  isDraft?: boolean | undefined;
  search?: string | undefined;
  startDate?: string | undefined;
  endDate?: string | undefined;
  createdBy?: string | undefined;
}

// Release's list: the organization's sent messages and drafts, newest change first.
export async function findPage(db: DbOrTx, filter: OutboundFilter, page: { offset: number; limit: number }) {
  const conditions: SQL[] = [
    eq(messages.organizationId, filter.organizationId),
    eq(messages.direction, 'Outbound'),
    isNull(messages.deletedAt),
    // A draft nobody saved (only a send's first step made it, and no file is attached) is not in Drafts.
    // Spelled with the table name: drizzle may leave the column unqualified, and the subqueries would take it for theirs.
    sql`not (${messages.isDraft} and ${unkept(sql`"messages"."id"`)})`,
  ];
  if (filter.isDraft !== undefined) conditions.push(eq(messages.isDraft, filter.isDraft));
  if (filter.createdBy) conditions.push(eq(messages.createdBy, filter.createdBy));
  if (filter.search) {
    const like = `%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    conditions.push(or(ilike(messages.subject, like), ilike(messages.toAddress, like), ilike(messages.patientName, like))!);
  }
  if (filter.startDate) conditions.push(gte(messages.updatedDate, new Date(`${filter.startDate}T00:00:00Z`)));
  if (filter.endDate) conditions.push(lt(messages.updatedDate, new Date(new Date(`${filter.endDate}T00:00:00Z`).getTime() + 86_400_000)));
  const where = and(...conditions);
  const [items, [total]] = await Promise.all([
    db.select().from(messages).where(where).orderBy(desc(messages.updatedDate), desc(messages.id)).offset(page.offset).limit(page.limit),
    db.select({ n: count() }).from(messages).where(where),
  ]);
  return { items, totalCount: total?.n ?? 0 };
}

export async function insert(db: DbOrTx, row: typeof messages.$inferInsert) {
  const [created] = await db.insert(messages).values(row).returning();
  return created!;
}

// A new draft with its DraftCreated event and, when it has one, its patient and the audit row of that: one
// statement, so all of it or nothing commits without a transaction (a draft save is the most frequent write).
export async function insertDraft(
  db: DbOrTx,
  draft: {
    message: typeof messages.$inferInsert & { id: string };
    event: typeof messageEvents.$inferInsert;
    patient: { row: typeof patients.$inferInsert; audit: typeof auditEvents.$inferInsert } | null;
  },
) {
  const created = db.$with('created').as(db.insert(messages).values(draft.message).returning());
  const event = db.$with('created_event').as(db.insert(messageEvents).values(draft.event).returning({ id: messageEvents.id }));
  if (!draft.patient) {
    const [row] = await db.with(created, event).select().from(created);
    return { row: row!, patient: null };
  }
  const patient = db.$with('created_patient').as(db.insert(patients).values(draft.patient.row).returning());
  const audit = db.$with('created_audit').as(db.insert(auditEvents).values(draft.patient.audit).returning({ id: auditEvents.id }));
  const [row] = await db.with(created, event, patient, audit).select().from(created).innerJoin(patient, sql`true`);
  return { row: row!.created, patient: row!.created_patient };
}

export async function update(db: DbOrTx, id: string, values: Partial<typeof messages.$inferInsert>) {
  const [row] = await db.update(messages).set(values).where(eq(messages.id, id)).returning();
  return row!;
}

export async function remove(db: DbOrTx, id: string) {
  await db.delete(messages).where(eq(messages.id, id));
}

export async function upsertPatient(db: DbOrTx, row: typeof patients.$inferInsert) {
  const { messageId: _m, organizationId: _o, ...values } = row;
  const [saved] = await db.insert(patients).values(row).onConflictDoUpdate({ target: patients.messageId, set: values }).returning();
  return saved!;
}

export async function copyAttachments(db: DbOrTx, fromMessageId: string, toMessageId: string, onlyIds?: string[]) {
  if (onlyIds?.length === 0) return;
  const where = onlyIds ? and(eq(attachments.messageId, fromMessageId), inArray(attachments.id, onlyIds)) : eq(attachments.messageId, fromMessageId);
  const rows = await db.select().from(attachments).where(where);
  if (rows.length === 0) return;
  // Blobs are immutable, so a copy shares them; only the rows are new.
  await db.insert(attachments).values(rows.map(({ id: _id, createdAt: _c, ...rest }) => ({ ...rest, messageId: toMessageId })));
}

// The DraftCreated event of a draft made by the save a send starts with carries this flag (no column for it):
// until the draft is saved on its own or gets a file, a refused send discards it.
export const BEFORE_SEND = 'beforeSend';

// True for a draft made only as a send's first step: never saved on its own, and no file attached by the user
// (the attachments a forward carries over are not: they came with the save, like the rest of the form).
const unkept = (messageId: SQL) => sql`(exists (select 1 from ${messageEvents} e where e.message_id = ${messageId}
  and e.event_type = 'DraftCreated' and e.details ->> ${BEFORE_SEND} = 'true')
  and not exists (select 1 from ${messageEvents} e where e.message_id = ${messageId} and e.event_type = 'AttachmentAdded'))`;

export async function isUnkeptDraft(db: DbOrTx, messageId: string) {
  const [row] = await db.select({ unkept: sql<boolean>`${unkept(sql`"messages"."id"`)}` }).from(messages).where(eq(messages.id, messageId));
  return row?.unkept === true;
}

// The user saved the draft: it stays whatever a later send's answer is.
export async function keepDraft(db: DbOrTx, messageId: string) {
  await db
    .update(messageEvents)
    .set({ details: { [BEFORE_SEND]: false } })
    .where(and(eq(messageEvents.messageId, messageId), eq(messageEvents.eventType, 'DraftCreated'), sql`${messageEvents.details} ->> ${BEFORE_SEND} = 'true'`));
}

export async function insertEvent(db: DbOrTx, row: typeof messageEvents.$inferInsert) {
  await db.insert(messageEvents).values(row);
}

// The organization's addresses in service (activated, or activated with an update pending): a Provisioning, Failed or
// Deleted one is neither offered as From nor accepted in a send or a triage (issue 11: the back office sets status).
export const senderOf = (caller: { session: { userId: string; roles: readonly string[] } }) => ({ userId: caller.session.userId, isAdministrator: caller.session.roles.includes('Administrator') });

// The organization's in-service addresses and numbers; canSend says whether `sender` may send from one (issue 13 §2):
// an Administrator from every one (they grant the permissions), a User from those given to them and the global ones.
export async function findDocumentSources(db: DbOrTx, organizationId: string, sender?: { userId: string; isAdministrator: boolean }) {
  const canSend =
    !sender || sender.isAdministrator
      ? sql<boolean>`true`
      : sql<boolean>`(${documentSources.isGlobal} or exists (select 1 from ${userDocumentSources} where ${userDocumentSources.documentSourceId} = ${documentSources.id}
          and ${userDocumentSources.userId} = ${sender.userId} and ${userDocumentSources.organizationId} = ${organizationId}))`;
  return db
    .select({ ...getTableColumns(documentSources), canSend })
    .from(documentSources)
    .where(and(eq(documentSources.organizationId, organizationId), inArray(documentSources.status, [...IN_SERVICE_STATUSES])))
    .orderBy(asc(documentSources.type), asc(documentSources.fullAddress));
}

export async function findReleaseTypes(db: DbOrTx, organizationId: string) {
  return db
    .select()
    .from(releaseTypes)
    .where(or(isNull(releaseTypes.organizationId), eq(releaseTypes.organizationId, organizationId)))
    .orderBy(asc(releaseTypes.name));
}

// What a draft save looks up, in one statement: the organization's document source of the From address (first by
// type and address, as findDocumentSources lists them) and whether the release type is one the organization may use.
export async function findDraftReferences(db: DbOrTx, organizationId: string, refs: { fromAddress: string | null; releaseTypeId: string | null }) {
  const [row] = await db
    .select({
      fromDocumentSourceId: refs.fromAddress
        ? sql<string | null>`(select ${documentSources.id} from ${documentSources} where ${documentSources.organizationId} = ${organizationId}
            and ${documentSources.fullAddress} = ${refs.fromAddress} and ${inArray(documentSources.status, [...IN_SERVICE_STATUSES])} order by ${documentSources.type}, ${documentSources.fullAddress} limit 1)`
        : sql<string | null>`null`,
      releaseTypeFound: refs.releaseTypeId
        ? sql<boolean>`exists (select 1 from ${releaseTypes} where ${releaseTypes.id} = ${refs.releaseTypeId}
            and (${releaseTypes.organizationId} is null or ${releaseTypes.organizationId} = ${organizationId}))`
        : sql<boolean>`false`,
    })
    .from(sql`(select 1) as "one"`);
  return row!;
}

export async function findReleaseType(db: DbOrTx, organizationId: string, id: string) {
  const [row] = await db
    .select()
    .from(releaseTypes)
    .where(and(eq(releaseTypes.id, id), or(isNull(releaseTypes.organizationId), eq(releaseTypes.organizationId, organizationId))));
  return row;
}

export async function findDocumentTypes(db: DbOrTx, organizationId: string) {
  return db
    .select()
    .from(documentTypes)
    .where(or(isNull(documentTypes.organizationId), eq(documentTypes.organizationId, organizationId)))
    .orderBy(asc(documentTypes.name));
}

// The LOINC code a CDA document of this type carries: the organization's own type of that name first, then the system's.
export async function findDocumentTypeLoinc(db: DbOrTx, organizationId: string, name: string | null | undefined): Promise<string | null> {
  if (!name) return null;
  const rows = await db
    .select({ organizationId: documentTypes.organizationId, loincCode: documentTypes.loincCode })
    .from(documentTypes)
    .where(and(eq(documentTypes.name, name), or(isNull(documentTypes.organizationId), eq(documentTypes.organizationId, organizationId))));
  const own = rows.find((r) => r.organizationId !== null && r.loincCode);
  return own?.loincCode ?? rows.find((r) => r.loincCode)?.loincCode ?? null;
}

export async function findCachedAddresses(db: DbOrTx, userId: string) {
  return db.select().from(addressCache).where(eq(addressCache.userId, userId)).orderBy(desc(addressCache.lastUsedAt));
}

export async function keepCachedAddresses(db: DbOrTx, userId: string, keep: string[]) {
  const where = keep.length ? and(eq(addressCache.userId, userId), notInArray(addressCache.address, keep)) : eq(addressCache.userId, userId);
  await db.delete(addressCache).where(where);
}
