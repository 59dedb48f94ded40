import { asc, eq, ilike, or, sql } from 'drizzle-orm';
import { queryRows, type DbOrTx } from '../../db/client.ts';
import { alternateOids, carequalityDirectoryEntries } from '../../db/schema/back-office.ts';
import { emergencyOrganizations } from '../../db/schema/emergencies.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { byName, containsPattern, findPage, type PageRequest } from '../../platform/paging.ts';

const columns = { oid: emergencyOrganizations.oid, name: emergencyOrganizations.name };

export function findOrganizationPage(db: DbOrTx, filter: { search?: string | undefined; sortDir?: 'asc' | 'desc' | undefined }, page: PageRequest) {
  const where = filter.search ? or(ilike(emergencyOrganizations.name, containsPattern(filter.search)), ilike(emergencyOrganizations.oid, containsPattern(filter.search))) : undefined;
  return findPage(
    page,
    ({ offset, limit }) => db.select(columns).from(emergencyOrganizations).where(where).orderBy(...byName(emergencyOrganizations.name, filter.sortDir), asc(emergencyOrganizations.oid)).offset(offset).limit(limit),
    () => db.$count(emergencyOrganizations, where),
  );
}

export async function findOrganization(db: DbOrTx, oid: string) {
  const [row] = await db.select(columns).from(emergencyOrganizations).where(eq(emergencyOrganizations.oid, oid));
  return row;
}

/** Adds the organization, or renames the one with this OID; whether it was new. */
export async function upsertOrganization(db: DbOrTx, values: { oid: string; name: string; by: string; at: Date }) {
  const [row] = await db
    .insert(emergencyOrganizations)
    .values({ oid: values.oid, name: values.name, createdBy: values.by, modifiedBy: values.by })
    .onConflictDoUpdate({ target: emergencyOrganizations.oid, set: { name: values.name, modifiedBy: values.by, modifiedAt: values.at } })
    // xmax is 0 for a row this statement inserted (PostgreSQL's way of telling an insert from an update in an upsert).
    .returning({ ...columns, inserted: sql<boolean>`(xmax = 0)` });
  return row!;
}

export async function deleteOrganization(db: DbOrTx, oid: string) {
  const [row] = await db.delete(emergencyOrganizations).where(eq(emergencyOrganizations.oid, oid)).returning(columns);
  return row;
}

/**
 * The organization search of the emergency screens: the product's organizations by name or by one of their OIDs
 * (alternate OIDs), the Carequality directory entries (display name, home community id), and this service's emergency
 * organizations. One row per OID (the emergency organization's name first, then the organization's, then the
 * directory's), at most `limit`, in name order.
 */
export async function searchOrganizations(db: DbOrTx, text: string, limit: number) {
  const pattern = containsPattern(text);
  const candidates = sql`
    select ${emergencyOrganizations.name} as name, ${emergencyOrganizations.oid} as oid, 1 as rank from ${emergencyOrganizations}
    where ${emergencyOrganizations.name} ilike ${pattern} or ${emergencyOrganizations.oid} ilike ${pattern}
    union all
    select ${organizations.name}, ${alternateOids.value}, 2 from ${alternateOids} join ${organizations} on ${organizations.id} = ${alternateOids.organizationId}
    where ${organizations.name} ilike ${pattern} or ${alternateOids.value} ilike ${pattern}
    union all
    select ${carequalityDirectoryEntries.displayName}, ${carequalityDirectoryEntries.homeCommunityId}, 3 from ${carequalityDirectoryEntries}
    where ${carequalityDirectoryEntries.homeCommunityId} is not null
      and (${carequalityDirectoryEntries.displayName} ilike ${pattern} or ${carequalityDirectoryEntries.homeCommunityId} ilike ${pattern})`;
  const rows = await queryRows<{ name: string; oid: string }>(
    db,
    sql`
    select name, oid from (select distinct on (oid) name, oid from (${candidates}) found order by oid, rank) one_per_oid
    order by lower(name), name, oid limit ${limit}`,
  );
  return rows.map((row) => ({ name: row.name, oid: row.oid }));
}
