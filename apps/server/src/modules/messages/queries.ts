import { and, asc, count, desc, eq, gte, ilike, inArray, isNull, lt, notInArray, or, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { documentSources } from '../../db/schema/document-sources.ts';
import {
  addressCache,
  attachments,
  conversations,
  deliveries,
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

export async function findDeliveries(db: DbOrTx, messageIds: string[]) {
  if (messageIds.length === 0) return [];
  return db.select().from(deliveries).where(inArray(deliveries.messageId, messageIds)).orderBy(asc(deliveries.createdAt));
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
}

// Release's list: the organization's sent messages and drafts, newest change first.
export async function findPage(db: DbOrTx, filter: OutboundFilter, page: { offset: number; limit: number }) {
  const conditions: SQL[] = [eq(messages.organizationId, filter.organizationId), eq(messages.direction, 'Outbound'), isNull(messages.deletedAt)];
  if (filter.isDraft !== undefined) conditions.push(eq(messages.isDraft, filter.isDraft));
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

export async function update(db: DbOrTx, id: string, values: Partial<typeof messages.$inferInsert>) {
  const [row] = await db.update(messages).set(values).where(eq(messages.id, id)).returning();
  return row!;
}

export async function remove(db: DbOrTx, id: string) {
  await db.delete(messages).where(eq(messages.id, id));
}

export async function upsertPatient(db: DbOrTx, row: typeof patients.$inferInsert) {
  const { messageId: _m, organizationId: _o, ...values } = row;
  await db.insert(patients).values(row).onConflictDoUpdate({ target: patients.messageId, set: values });
}

export async function copyAttachments(db: DbOrTx, fromMessageId: string, toMessageId: string, onlyIds?: string[]) {
  if (onlyIds?.length === 0) return;
  const where = onlyIds ? and(eq(attachments.messageId, fromMessageId), inArray(attachments.id, onlyIds)) : eq(attachments.messageId, fromMessageId);
  const rows = await db.select().from(attachments).where(where);
  if (rows.length === 0) return;
  // Blobs are immutable, so a copy shares them; only the rows are new.
  await db.insert(attachments).values(rows.map(({ id: _id, createdAt: _c, ...rest }) => ({ ...rest, messageId: toMessageId })));
}

export async function insertEvent(db: DbOrTx, row: typeof messageEvents.$inferInsert) {
  await db.insert(messageEvents).values(row);
}

export async function findDocumentSources(db: DbOrTx, organizationId: string) {
  return db.select().from(documentSources).where(eq(documentSources.organizationId, organizationId)).orderBy(asc(documentSources.type), asc(documentSources.fullAddress));
}

export async function findReleaseTypes(db: DbOrTx, organizationId: string) {
  return db
    .select()
    .from(releaseTypes)
    .where(or(isNull(releaseTypes.organizationId), eq(releaseTypes.organizationId, organizationId)))
    .orderBy(asc(releaseTypes.name));
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

export async function findCachedAddresses(db: DbOrTx, userId: string) {
  return db.select().from(addressCache).where(eq(addressCache.userId, userId)).orderBy(desc(addressCache.lastUsedAt));
}

export async function keepCachedAddresses(db: DbOrTx, userId: string, keep: string[]) {
  const where = keep.length ? and(eq(addressCache.userId, userId), notInArray(addressCache.address, keep)) : eq(addressCache.userId, userId);
  await db.delete(addressCache).where(where);
}
