import { and, asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { featureToggles, organizationFeatures } from '../../db/schema/features.ts';
import { networkAdministrators } from '../../db/schema/networks.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { sessions } from '../../db/schema/auth.ts';
import { memberships, userPreferences, users } from '../../db/schema/users.ts';

export async function findUserById(db: DbOrTx, id: string) {
  const [user] = await db.select().from(users).where(eq(users.id, id));
  return user;
}

export async function findOrganizationById(db: DbOrTx, id: string) {
  const [org] = await db.select().from(organizations).where(eq(organizations.id, id));
  return org;
}

export async function findMemberships(db: DbOrTx, userId: string) {
  return db
    .select({ id: organizations.id, subDomain: organizations.subdomain, name: organizations.name, isEnabled: organizations.isEnabled, role: memberships.role })
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
    .where(eq(memberships.userId, userId))
    .orderBy(asc(organizations.name));
}

export async function findAdministeredNetwork(db: DbOrTx, userId: string) {
  const [row] = await db
    .select({ networkId: networkAdministrators.networkId })
    .from(networkAdministrators)
    .where(eq(networkAdministrators.userId, userId))
    .limit(1);
  return row?.networkId ?? null;
}

export async function updateSessionOrganization(db: DbOrTx, sessionId: string, organizationId: string) {
  await db.update(sessions).set({ organizationId }).where(eq(sessions.id, sessionId));
}

// Feature names on for an organization: its own setting wins over the global one.
export async function findEnabledFeatures(db: DbOrTx, organizationId: string | null) {
  const rows = await db
    .select({ name: featureToggles.name })
    .from(featureToggles)
    .leftJoin(
      organizationFeatures,
      and(eq(organizationFeatures.featureId, featureToggles.id), organizationId ? eq(organizationFeatures.organizationId, organizationId) : sql`false`),
    )
    .where(sql`coalesce(${organizationFeatures.isEnabled}, ${featureToggles.isEnabled})`)
    .orderBy(asc(featureToggles.name));
  return rows.map((r) => r.name);
}

export async function findPreferences(db: DbOrTx, userId: string) {
  const [row] = await db.select().from(userPreferences).where(eq(userPreferences.userId, userId));
  return row;
}

export async function upsertPreferences(db: DbOrTx, userId: string, values: Partial<typeof userPreferences.$inferInsert>) {
  const [row] = await db
    .insert(userPreferences)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: userPreferences.userId, set: { ...values, modifiedAt: new Date() } })
    .returning();
  return row!;
}
