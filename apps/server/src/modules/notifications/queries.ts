import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { organizations, type OrganizationSettingsColumn } from '../../db/schema/organizations.ts';
import { memberships, userPreferences } from '../../db/schema/users.ts';

export async function findMembership(db: DbOrTx, organizationId: string, userId: string) {
  const [row] = await db
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)));
  return row;
}

export async function findPreferences(db: DbOrTx, userId: string) {
  const [row] = await db.select().from(userPreferences).where(eq(userPreferences.userId, userId));
  return row;
}

export async function upsertPreferences(db: DbOrTx, userId: string, values: Partial<typeof userPreferences.$inferInsert>, at: Date) {
  const [row] = await db
    .insert(userPreferences)
    .values({ userId, ...values, modifiedAt: at })
    .onConflictDoUpdate({ target: userPreferences.userId, set: { ...values, modifiedAt: at } })
    .returning();
  return row!;
}

export async function findSettings(db: DbOrTx, organizationId: string) {
  const [row] = await db.select({ settings: organizations.settings }).from(organizations).where(eq(organizations.id, organizationId));
  return row?.settings;
}

export async function updateSettings(db: DbOrTx, organizationId: string, settings: OrganizationSettingsColumn, by: string, at: Date) {
  await db.update(organizations).set({ settings, modifiedBy: by, modifiedAt: at }).where(eq(organizations.id, organizationId));
}
