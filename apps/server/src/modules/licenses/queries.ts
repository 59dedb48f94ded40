import { and, asc, count, desc, eq, ilike, ne, or, sql, type SQL } from 'drizzle-orm';
import { type DbOrTx, queryRows } from '../../db/client.ts';
import { subscriptionPlans } from '../../db/schema/back-office.ts';
import { licenses, licenseTypes } from '../../db/schema/licenses.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { byName, containsPattern, findPage, type PageRequest } from '../../platform/paging.ts';

export const nameKeyOf = (name: string) => name.trim().toLowerCase();

const typeColumns = {
  id: licenseTypes.id,
  name: licenseTypes.name,
  description: licenseTypes.description,
  category: licenseTypes.category,
  subscription: licenseTypes.subscription,
  subscriptionName: subscriptionPlans.name,
  subscriptionDurationDays: licenseTypes.subscriptionDurationDays,
  applicationNames: licenseTypes.applicationNames,
  connectorNames: licenseTypes.connectorNames,
};

export type LicenseTypeRow = Awaited<ReturnType<typeof findLicenseType>> & {};

const typesWithPlan = (db: DbOrTx) => db.select(typeColumns).from(licenseTypes).leftJoin(subscriptionPlans, eq(subscriptionPlans.id, licenseTypes.subscription));

export interface LicenseTypeFilter {
  search?: string | undefined;
  col?: 'name' | 'description' | 'category' | 'subscriptionDurationDays' | undefined;
  sortDir?: 'asc' | 'desc' | undefined;
}

export function findLicenseTypePage(db: DbOrTx, filter: LicenseTypeFilter, page: PageRequest) {
  const pattern = filter.search ? containsPattern(filter.search) : undefined;
  const where = pattern ? or(ilike(licenseTypes.name, pattern), ilike(licenseTypes.description, pattern), ilike(licenseTypes.category, pattern)) : undefined;
  const dir = filter.sortDir ?? 'asc';
  const order: SQL[] = [];
  if (filter.col === 'description') order.push(...byName(licenseTypes.description, dir));
  else if (filter.col === 'category') order.push(dir === 'desc' ? desc(licenseTypes.category) : asc(licenseTypes.category));
  else if (filter.col === 'subscriptionDurationDays') order.push(sql`${licenseTypes.subscriptionDurationDays} ${sql.raw(dir)} nulls last`);
  order.push(...byName(licenseTypes.name, filter.col === 'name' || !filter.col ? dir : 'asc'), asc(licenseTypes.id));
  return findPage(
    page,
    ({ offset, limit }) =>
      typesWithPlan(db)
        .where(where)
        .orderBy(...order)
        .offset(offset)
        .limit(limit),
    () => db.$count(licenseTypes, where),
  );
}

export async function findLicenseType(db: DbOrTx, id: string) {
  const [row] = await typesWithPlan(db).where(eq(licenseTypes.id, id));
  return row;
}

export async function findLicenseTypeByName(db: DbOrTx, name: string) {
  const [row] = await typesWithPlan(db).where(eq(licenseTypes.nameKey, nameKeyOf(name)));
  return row;
}

/** Whether another type (not `exceptId`) has this name, case ignored. */
export async function licenseTypeTaken(db: DbOrTx, name: string, exceptId?: string) {
  const [row] = await db
    .select({ n: count() })
    .from(licenseTypes)
    .where(and(eq(licenseTypes.nameKey, nameKeyOf(name)), exceptId ? ne(licenseTypes.id, exceptId) : undefined));
  return (row?.n ?? 0) > 0;
}

export interface LicenseTypeValues {
  name: string;
  description: string;
  category: string;
  subscription: string | null;
  subscriptionDurationDays: number | null;
  applicationNames: string[];
  connectorNames: string[];
}

/** Undefined when the name is taken (the unique index decides between two saves at once). */
export async function insertLicenseType(db: DbOrTx, values: LicenseTypeValues & { by: string }) {
  const { by, ...fields } = values;
  const [row] = await db
    .insert(licenseTypes)
    .values({ ...fields, nameKey: nameKeyOf(fields.name), createdBy: by, modifiedBy: by })
    .onConflictDoNothing({ target: licenseTypes.nameKey })
    .returning({ id: licenseTypes.id });
  return row;
}

export async function updateLicenseType(db: DbOrTx, id: string, values: LicenseTypeValues & { by: string; at: Date }) {
  const { by, at, ...fields } = values;
  const [row] = await db
    .update(licenseTypes)
    .set({ ...fields, nameKey: nameKeyOf(fields.name), modifiedBy: by, modifiedAt: at })
    .where(eq(licenseTypes.id, id))
    .returning({ id: licenseTypes.id });
  return row;
}

export async function deleteLicenseType(db: DbOrTx, id: string) {
  const [row] = await db.delete(licenseTypes).where(eq(licenseTypes.id, id)).returning({ id: licenseTypes.id, name: licenseTypes.name });
  return row;
}

export async function licensesOfType(db: DbOrTx, id: string) {
  return db.$count(licenses, eq(licenses.licenseTypeId, id));
}

/** Every application name the license types name, once each, in name order. */
export async function applicationNames(db: DbOrTx) {
  const rows = await queryRows<{ name: string }>(db, sql`select distinct name from (select unnest(application_names) as name from license_types) n order by name`);
  return rows.map((r) => r.name);
}

export async function planExists(db: DbOrTx, id: string) {
  return (await db.$count(subscriptionPlans, eq(subscriptionPlans.id, id))) > 0;
}

// Organizations by id or by exact name (case ignored): at most two, enough to tell one from several.
export function findOrganizations(db: DbOrTx, by: { id: string } | { name: string }) {
  const where = 'id' in by ? eq(organizations.id, by.id) : sql`lower(${organizations.name}) = ${by.name.toLowerCase()}`;
  return db.select({ id: organizations.id, name: organizations.name }).from(organizations).where(where).limit(2);
}

export async function organizationExists(db: DbOrTx, id: string) {
  return (await db.$count(organizations, eq(organizations.id, id))) > 0;
}

export type NewLicense = typeof licenses.$inferInsert;

export async function insertLicenses(db: DbOrTx, rows: NewLicense[]) {
  return db.insert(licenses).values(rows).returning({ id: licenses.id, keyHash: licenses.keyHash });
}

export function findOrganizationLicenses(db: DbOrTx, organizationId: string) {
  return db
    .select({
      id: licenses.id,
      keyPrefix: licenses.keyPrefix,
      licenseType: licenseTypes.name,
      connectorId: licenses.connectorId,
      connectorName: licenses.connectorName,
      issuedAt: licenses.issuedAt,
      expiresAt: licenses.expiresAt,
    })
    .from(licenses)
    .innerJoin(licenseTypes, eq(licenseTypes.id, licenses.licenseTypeId))
    .where(eq(licenses.organizationId, organizationId))
    .orderBy(desc(licenses.issuedAt), asc(licenses.keyPrefix), asc(licenses.id));
}
