import { asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { resellers } from '../../db/schema/back-office.ts';
import { eulaAcceptances, eulas } from '../../db/schema/onboarding.ts';
import { networkAdministrators, networkOrganizations, networks } from '../../db/schema/networks.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { sessions } from '../../db/schema/auth.ts';
import { memberships, userPreferences, users } from '../../db/schema/users.ts';

export async function findUserById(db: DbOrTx, id: string) {
  const [user] = await db.select().from(users).where(eq(users.id, id));
  return user;
}

export async function findMemberships(db: DbOrTx, userId: string) {
  return db
    .select({ id: organizations.id, subDomain: organizations.subdomain, name: organizations.name, isEnabled: organizations.isEnabled, role: memberships.role })
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
    .where(eq(memberships.userId, userId))
    .orderBy(asc(organizations.name));
}

// What the profile shows, in one statement: the user, the current organization, the user's organizations
// (by name) and the network they administer. The profile loads with every page: one round trip, not four.
export async function findProfileData(db: DbOrTx, userId: string, organizationId: string | null) {
  const [row] = await db
    .select({
      id: users.id,
      userName: users.userName,
      firstName: users.firstName,
      lastName: users.lastName,
      org: {
        id: organizations.id,
        name: organizations.name,
        loginType: organizations.loginType,
        isAcceptedEula: organizations.isAcceptedEula,
        isIdProofed: organizations.isIdProofed,
        idProofedAttemptDate: organizations.idProofedAttemptDate,
        isActivated: organizations.isActivated,
        cancelledAt: organizations.cancelledAt,
        gracePeriodEndsAt: organizations.gracePeriodEndsAt,
        subscriptionReference: organizations.subscriptionReference,
        planId: organizations.planId,
        settings: organizations.settings,
      },
      organizations: sql<{ id: string; subDomain: string; name: string }[]>`coalesce((select json_agg(json_build_object('id', o.id, 'subDomain', o.subdomain, 'name', o.name) order by o.name)
        from ${memberships} m inner join ${organizations} o on o.id = m.organization_id where m.user_id = ${users.id}), '[]'::json)`,
      networkId: sql<string | null>`(select n.network_id from ${networkAdministrators} n where n.user_id = ${users.id} limit 1)`,
      // The features on for the current organization's network (end-user §3 "Network feature status").
      networkFeatureIds: sql<number[] | null>`(select n.enabled_network_feature_ids from ${networkOrganizations} no inner join ${networks} n on n.id = no.network_id
        where no.organization_id = ${organizations.id})`,
      // The licensing reseller's terms when there is one, else the affiliate's.
      resellerBypassTos: sql<boolean | null>`(select r.bypass_tos from ${resellers} r where r.id = coalesce(${organizations.licensingResellerId}, ${organizations.affiliateResellerId}))`,
      // Whether this user accepted the active EULA of the organization's brand; null when the brand has none (issue 14 §2).
      acceptedActiveEula: sql<boolean | null>`(select exists (select 1 from ${eulaAcceptances} ea where ea.eula_id = e.id and ea.user_id = ${users.id})
        from ${eulas} e where e.brand_id = ${organizations.brandId} and e.type = 'EULA' and e.is_active limit 1)`,
    })
    .from(users)
    .leftJoin(organizations, organizationId ? eq(organizations.id, organizationId) : sql`false`)
    .where(eq(users.id, userId));
  return row;
}

export async function updateSessionOrganization(db: DbOrTx, sessionId: string, organizationId: string) {
  await db.update(sessions).set({ organizationId }).where(eq(sessions.id, sessionId));
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
