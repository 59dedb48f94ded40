import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { brands, faxAccounts } from '../../db/schema/back-office.ts';
import { organizations } from '../../db/schema/organizations.ts';

export type FaxAccountRow = typeof faxAccounts.$inferSelect;
type Provider = FaxAccountRow['provider'];

export async function findOrganization(db: DbOrTx, id: string) {
  const [row] = await db
    .select({ id: organizations.id, name: organizations.name, subdomain: organizations.subdomain, preferredGroupName: organizations.preferredGroupName, brandName: brands.name })
    .from(organizations)
    .leftJoin(brands, eq(brands.id, organizations.brandId))
    .where(eq(organizations.id, id));
  return row;
}

export async function findAccounts(db: DbOrTx, organizationId: string) {
  return db.select().from(faxAccounts).where(eq(faxAccounts.organizationId, organizationId));
}

export async function findAccount(db: DbOrTx, organizationId: string, provider: Provider) {
  const [row] = await db.select().from(faxAccounts).where(and(eq(faxAccounts.organizationId, organizationId), eq(faxAccounts.provider, provider)));
  return row;
}

/** Inserts or updates the organization's account with a provider. */
export async function saveAccount(db: DbOrTx, organizationId: string, provider: Provider, values: Partial<Pick<FaxAccountRow, 'accountType' | 'groupName' | 'username' | 'numbers' | 'syncedAt'>>, now: Date) {
  const [row] = await db
    .insert(faxAccounts)
    .values({ organizationId, provider, ...values, createdAt: now, modifiedAt: now })
    .onConflictDoUpdate({ target: [faxAccounts.organizationId, faxAccounts.provider], set: { ...values, modifiedAt: now } })
    .returning();
  return row!;
}

export async function deleteAccount(db: DbOrTx, organizationId: string, provider: Provider) {
  const rows = await db.delete(faxAccounts).where(and(eq(faxAccounts.organizationId, organizationId), eq(faxAccounts.provider, provider))).returning({ id: faxAccounts.id });
  return rows.length > 0;
}

/** Whether a number is on any WestFax account. */
export async function numberInUse(db: DbOrTx, number: string) {
  return (await db.$count(faxAccounts, and(eq(faxAccounts.provider, 'WestFax'), sql`${number} = any(${faxAccounts.numbers})`))) > 0;
}
