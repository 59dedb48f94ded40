import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../db/client.ts';
import { documentSources } from '../../db/schema/document-sources.ts';
import { users } from '../../db/schema/users.ts';
import { addressCache, conversations, deliveries, deliveryEvents, messages } from '../../db/schema/messages.ts';

export type DeliveryRow = typeof deliveries.$inferSelect;

// Turns a draft into a sent message; undefined when it is no longer a draft (sent meanwhile).
export async function markSent(db: DbOrTx, id: string, values: Partial<typeof messages.$inferInsert>) {
  const [row] = await db
    .update(messages)
    .set({ ...values, isDraft: false })
    .where(and(eq(messages.id, id), eq(messages.isDraft, true)))
    .returning({ id: messages.id });
  return row;
}

export async function insertDeliveries(db: DbOrTx, rows: (typeof deliveries.$inferInsert)[]) {
  if (rows.length) await db.insert(deliveries).values(rows);
}

export async function findDeliveries(db: DbOrTx, messageId: string) {
  return db.select().from(deliveries).where(eq(deliveries.messageId, messageId)).orderBy(asc(deliveries.createdAt), asc(deliveries.recipient));
}

export async function findDelivery(db: DbOrTx, messageId: string, recipient: string) {
  const [row] = await db.select().from(deliveries).where(and(eq(deliveries.messageId, messageId), eq(deliveries.recipient, recipient)));
  return row;
}

// Changes a recipient still Pending; false when it was already settled (a repeated step changes nothing).
export async function settleDelivery(db: DbOrTx, id: string, values: Partial<typeof deliveries.$inferInsert>): Promise<boolean> {
  const rows = await db
    .update(deliveries)
    .set(values)
    .where(and(eq(deliveries.id, id), eq(deliveries.status, 'Pending')))
    .returning({ id: deliveries.id });
  return rows.length > 0;
}

export async function updateMessage(db: DbOrTx, id: string, values: Partial<typeof messages.$inferInsert>) {
  await db.update(messages).set(values).where(eq(messages.id, id));
}

// One more use of each Direct address by this user (recipient autocomplete).
export async function touchCachedAddresses(db: DbOrTx, userId: string, addresses: string[], at: Date) {
  if (addresses.length === 0) return;
  await db
    .insert(addressCache)
    // Sorted: concurrent sends by one user lock the same cache rows in the same order, never a deadlock.
    .values([...addresses].sort().map((address) => ({ userId, address, useCount: 1, lastUsedAt: at })))
    .onConflictDoUpdate({
      target: [addressCache.userId, addressCache.address],
      set: { useCount: sql`${addressCache.useCount} + 1`, lastUsedAt: at },
    });
}

// The sending organization as CDA documents carry it (author and custodian): the same read as a conversion's.
export { findOrganization } from '../attachments/queries.ts';

export async function findUserName(db: DbOrTx, id: string) {
  const [row] = await db.select({ firstName: users.firstName, lastName: users.lastName }).from(users).where(eq(users.id, id));
  return row ? `${row.firstName} ${row.lastName}` : undefined;
}

export async function insertConversation(db: DbOrTx, row: typeof conversations.$inferInsert) {
  const [created] = await db.insert(conversations).values(row).returning({ id: conversations.id });
  return created!;
}

// The Direct domains of an organization's addresses (lower case), whose outgoing anchors judge its recipients.
export async function findOrganizationDirectDomains(db: DbOrTx, organizationId: string): Promise<string[]> {
  const rows = await db
    .select({ address: documentSources.fullAddress })
    .from(documentSources)
    .where(and(eq(documentSources.organizationId, organizationId), eq(documentSources.type, 'Direct')));
  return [...new Set(rows.map((r) => r.address.slice(r.address.lastIndexOf('@') + 1).toLowerCase()))];
}

// An operator retried a failed recipient's step (workflow retry): it is Pending again and its Failed stage is
// forgotten, so the next outcome is recorded as if for the first time. A recipient delivered meanwhile stays delivered.
export async function reopenFailedDelivery(db: Database, id: string, at: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    const reopened = await tx
      .update(deliveries)
      .set({ status: 'Pending', reason: null, notificationDueAt: null, updatedAt: at })
      .where(and(eq(deliveries.id, id), eq(deliveries.status, 'Failed'), isNull(deliveries.deliveredMessageId)))
      .returning({ id: deliveries.id });
    if (reopened.length) await tx.delete(deliveryEvents).where(and(eq(deliveryEvents.deliveryId, id), eq(deliveryEvents.stage, 'Failed')));
    return reopened.length > 0;
  });
}
