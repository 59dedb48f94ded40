import { and, asc, eq, ilike, isNull, notExists, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { networkAdministrators, networkOrganizations, networks } from '../../db/schema/networks.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { users } from '../../db/schema/users.ts';
import { byName, containsPattern, findPage, type PageRequest } from '../../platform/paging.ts';

const listColumns = {
  id: networks.id,
  name: networks.name,
  organizationCount: sql<number>`(select count(*)::int from ${networkOrganizations} o where o.network_id = ${networks.id})`,
  administratorCount: sql<number>`(select count(*)::int from ${networkAdministrators} a where a.network_id = ${networks.id})`,
};

export function findNetworkPage(db: DbOrTx, filter: { search?: string | undefined; sortDir?: 'asc' | 'desc' | undefined }, page: PageRequest) {
  const where = filter.search ? ilike(networks.name, containsPattern(filter.search)) : undefined;
  return findPage(
    page,
    ({ offset, limit }) => db.select(listColumns).from(networks).where(where).orderBy(...byName(networks.name, filter.sortDir)).offset(offset).limit(limit),
    () => db.$count(networks, where),
  );
}

export async function findNetwork(db: DbOrTx, id: string) {
  const [row] = await db.select().from(networks).where(eq(networks.id, id));
  if (!row) return undefined;
  const [orgs, admins] = await Promise.all([
    db
      .select({ id: organizations.id, name: organizations.name })
      .from(networkOrganizations)
      .innerJoin(organizations, eq(organizations.id, networkOrganizations.organizationId))
      .where(eq(networkOrganizations.networkId, id))
      .orderBy(...byName(organizations.name)),
    db
      .select({ id: users.id, fullName: sql<string>`trim(${users.firstName} || ' ' || ${users.lastName})`, userName: users.userName })
      .from(networkAdministrators)
      .innerJoin(users, eq(users.id, networkAdministrators.userId))
      .where(eq(networkAdministrators.networkId, id))
      .orderBy(asc(users.userName)),
  ]);
  return {
    id: row.id,
    name: row.name,
    organizations: orgs,
    administrators: admins,
    enabledNetworkFeatureIds: row.enabledNetworkFeatureIds,
    identityProvider: { connectionName: row.identityProviderConnectionName },
  };
}

export async function networkExists(db: DbOrTx, id: string) {
  return (await db.$count(networks, eq(networks.id, id))) > 0;
}

export async function insertNetwork(db: DbOrTx, name: string) {
  // The only unique key besides the id is lower(name): a conflict is a name taken in any case.
  const [row] = await db.insert(networks).values({ name }).onConflictDoNothing().returning({ id: networks.id });
  return row;
}

export async function updateNetwork(db: DbOrTx, id: string, values: { name: string; enabledNetworkFeatureIds?: number[] | undefined }) {
  const [row] = await db
    .update(networks)
    .set({ name: values.name, ...(values.enabledNetworkFeatureIds ? { enabledNetworkFeatureIds: values.enabledNetworkFeatureIds } : {}) })
    .where(eq(networks.id, id))
    .returning({ id: networks.id });
  return row;
}

export async function deleteNetwork(db: DbOrTx, id: string) {
  const [row] = await db.delete(networks).where(eq(networks.id, id)).returning({ id: networks.id, name: networks.name });
  return row;
}

/** The network an organization belongs to, if any. */
export async function networkOfOrganization(db: DbOrTx, organizationId: string) {
  const [row] = await db.select({ networkId: networkOrganizations.networkId }).from(networkOrganizations).where(eq(networkOrganizations.organizationId, organizationId));
  return row?.networkId;
}

export async function organizationExists(db: DbOrTx, id: string) {
  return (await db.$count(organizations, eq(organizations.id, id))) > 0;
}

export async function addOrganization(db: DbOrTx, networkId: string, organizationId: string) {
  await db.insert(networkOrganizations).values({ networkId, organizationId }).onConflictDoNothing();
}

export async function removeOrganization(db: DbOrTx, networkId: string, organizationId: string) {
  const rows = await db
    .delete(networkOrganizations)
    .where(and(eq(networkOrganizations.networkId, networkId), eq(networkOrganizations.organizationId, organizationId)))
    .returning({ id: networkOrganizations.organizationId });
  return rows.length > 0;
}

export async function activeUserExists(db: DbOrTx, id: string) {
  return (await db.$count(users, and(eq(users.id, id), eq(users.isDisabled, false)))) > 0;
}

export async function addAdministrator(db: DbOrTx, networkId: string, userId: string) {
  await db.insert(networkAdministrators).values({ networkId, userId }).onConflictDoNothing();
}

export async function removeAdministrator(db: DbOrTx, networkId: string, userId: string) {
  const rows = await db
    .delete(networkAdministrators)
    .where(and(eq(networkAdministrators.networkId, networkId), eq(networkAdministrators.userId, userId)))
    .returning({ id: networkAdministrators.userId });
  return rows.length > 0;
}

// Typeahead suggestions: enabled users matching by user name or name, not yet administrators of this network.
export function findAdministratorCandidates(db: DbOrTx, networkId: string, search: string) {
  const pattern = containsPattern(search);
  return db
    .select({ id: users.id, fullName: sql<string>`trim(${users.firstName} || ' ' || ${users.lastName})`, userName: users.userName })
    .from(users)
    .where(
      and(
        eq(users.isDisabled, false),
        or(ilike(users.userName, pattern), ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, pattern)),
        notExists(db.select({ one: sql`1` }).from(networkAdministrators).where(and(eq(networkAdministrators.networkId, networkId), eq(networkAdministrators.userId, users.id)))),
      ),
    )
    .orderBy(asc(users.userName))
    .limit(10);
}

// Typeahead suggestions: organizations matching by name or subdomain that belong to no network yet.
export function findOrganizationCandidates(db: DbOrTx, search: string) {
  const pattern = containsPattern(search);
  return db
    .select({ id: organizations.id, name: organizations.name })
    .from(organizations)
    .leftJoin(networkOrganizations, eq(networkOrganizations.organizationId, organizations.id))
    .where(and(isNull(networkOrganizations.networkId), or(ilike(organizations.name, pattern), ilike(organizations.subdomain, pattern))))
    .orderBy(...byName(organizations.name))
    .limit(10);
}

export async function isNetworkAdministrator(db: DbOrTx, networkId: string, userId: string) {
  const rows = await db.select({ userId: networkAdministrators.userId }).from(networkAdministrators).where(and(eq(networkAdministrators.networkId, networkId), eq(networkAdministrators.userId, userId)));
  return rows.length > 0;
}
