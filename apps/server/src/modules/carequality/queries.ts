import { and, asc, desc, eq, inArray, ne } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { alternateOids, carequalityDirectoryEntries } from '../../db/schema/back-office.ts';
import { organizations } from '../../db/schema/organizations.ts';

export type EntryRow = typeof carequalityDirectoryEntries.$inferSelect;
export type EntryValues = Omit<typeof carequalityDirectoryEntries.$inferInsert, 'id' | 'createdAt' | 'syncedAt'>;

export async function findOrganization(db: DbOrTx, id: string) {
  const [row] = await db.select().from(organizations).where(eq(organizations.id, id));
  return row;
}

const oidColumns = { id: alternateOids.id, organizationId: alternateOids.organizationId, value: alternateOids.value, isDefault: alternateOids.isDefault };

export function findOids(db: DbOrTx, organizationId: string) {
  return db.select(oidColumns).from(alternateOids).where(eq(alternateOids.organizationId, organizationId)).orderBy(desc(alternateOids.isDefault), asc(alternateOids.value));
}

export async function findOid(db: DbOrTx, organizationId: string, id: string) {
  const [row] = await db.select(oidColumns).from(alternateOids).where(and(eq(alternateOids.organizationId, organizationId), eq(alternateOids.id, id)));
  return row;
}

export async function insertOid(db: DbOrTx, values: { organizationId: string; value: string; isDefault: boolean }) {
  const [row] = await db.insert(alternateOids).values(values).returning(oidColumns);
  return row!;
}

export async function updateOid(db: DbOrTx, id: string, values: { value: string; isDefault: boolean }) {
  const [row] = await db.update(alternateOids).set(values).where(eq(alternateOids.id, id)).returning(oidColumns);
  return row!;
}

/** Clears the default flag of the organization's other OIDs (one default per organization). */
export async function clearOtherDefaults(db: DbOrTx, organizationId: string, keepId: string) {
  await db.update(alternateOids).set({ isDefault: false }).where(and(eq(alternateOids.organizationId, organizationId), ne(alternateOids.id, keepId), eq(alternateOids.isDefault, true)));
}

export async function deleteOid(db: DbOrTx, organizationId: string, id: string) {
  const rows = await db.delete(alternateOids).where(and(eq(alternateOids.organizationId, organizationId), eq(alternateOids.id, id))).returning({ value: alternateOids.value });
  return rows[0];
}

export function findEntries(db: DbOrTx, organizationId: string) {
  return db.select().from(carequalityDirectoryEntries).where(eq(carequalityDirectoryEntries.organizationId, organizationId)).orderBy(asc(carequalityDirectoryEntries.displayName), asc(carequalityDirectoryEntries.createdAt));
}

export async function findEntry(db: DbOrTx, organizationId: string, id: string) {
  const [row] = await db.select().from(carequalityDirectoryEntries).where(and(eq(carequalityDirectoryEntries.organizationId, organizationId), eq(carequalityDirectoryEntries.id, id)));
  return row;
}

export async function insertEntry(db: DbOrTx, values: EntryValues) {
  const [row] = await db.insert(carequalityDirectoryEntries).values(values).returning();
  return row!;
}

export async function updateEntry(db: DbOrTx, id: string, values: EntryValues) {
  const [row] = await db.update(carequalityDirectoryEntries).set(values).where(eq(carequalityDirectoryEntries.id, id)).returning();
  return row!;
}

export async function markSynced(db: DbOrTx, ids: string[], at: Date) {
  if (ids.length === 0) return;
  await db.update(carequalityDirectoryEntries).set({ syncedAt: at }).where(inArray(carequalityDirectoryEntries.id, ids));
}
