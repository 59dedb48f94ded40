import { and, eq, inArray, max } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { attachments } from '../../db/schema/messages.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { users } from '../../db/schema/users.ts';
import { workflows } from '../../db/schema/workflows.ts';

export type AttachmentRow = typeof attachments.$inferSelect;

// An attachment of the given message in the given organization; anything else does not exist for the caller.
export async function findById(db: DbOrTx, organizationId: string, messageId: string, id: string) {
  const [row] = await db
    .select()
    .from(attachments)
    .where(and(eq(attachments.id, id), eq(attachments.messageId, messageId), eq(attachments.organizationId, organizationId)));
  return row;
}

// For workflows, which act for no caller: by id alone.
export async function findByIdUnscoped(db: DbOrTx, id: string) {
  const [row] = await db.select().from(attachments).where(eq(attachments.id, id));
  return row;
}

export async function nextPosition(db: DbOrTx, messageId: string) {
  const [row] = await db.select({ last: max(attachments.position) }).from(attachments).where(eq(attachments.messageId, messageId));
  return (row?.last ?? -1) + 1;
}

export async function insert(db: DbOrTx, row: typeof attachments.$inferInsert) {
  const [created] = await db.insert(attachments).values(row).returning();
  return created!;
}

export async function update(db: DbOrTx, id: string, values: Partial<typeof attachments.$inferInsert>) {
  const [row] = await db.update(attachments).set(values).where(eq(attachments.id, id)).returning();
  return row!;
}

// Updates only while the current version is still `currentBlobId`: a rendition of a version that was
// replaced meanwhile (restore, transform) must not overwrite the newer one's preview.
export async function updateIfCurrent(db: DbOrTx, id: string, currentBlobId: string, values: Partial<typeof attachments.$inferInsert>) {
  const rows = await db
    .update(attachments)
    .set(values)
    .where(and(eq(attachments.id, id), eq(attachments.currentBlobId, currentBlobId)))
    .returning({ id: attachments.id });
  return rows.length > 0;
}

export async function remove(db: DbOrTx, id: string) {
  await db.delete(attachments).where(eq(attachments.id, id));
}

export async function findOrganization(db: DbOrTx, id: string) {
  // The address and phone travel in CDA documents as the author's and custodian's.
  const [row] = await db
    .select({
      id: organizations.id,
      name: organizations.name,
      addressStreet: organizations.addressStreet,
      addressUnit: organizations.addressUnit,
      addressCity: organizations.addressCity,
      addressState: organizations.addressState,
      addressZip: organizations.addressZip,
      addressCountry: organizations.addressCountry,
      primaryPhone: organizations.primaryPhone,
      phone: organizations.phone,
    })
    .from(organizations)
    .where(eq(organizations.id, id));
  return row;
}

export async function findUser(db: DbOrTx, id: string) {
  const [row] = await db.select({ id: users.id, firstName: users.firstName, lastName: users.lastName }).from(users).where(eq(users.id, id));
  return row;
}

// Whether a rendition workflow for the attachment is still waiting or running.
export async function hasOpenRendition(db: DbOrTx, attachmentId: string, type: string) {
  const rows = await db
    .select({ id: workflows.id })
    .from(workflows)
    .where(and(eq(workflows.correlationId, attachmentId), eq(workflows.type, type), inArray(workflows.status, ['Pending', 'Running'])));
  return rows.length > 0;
}
