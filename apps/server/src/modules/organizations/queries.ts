import { and, asc, count, eq, exists, ilike, inArray, isNotNull, isNull, notExists, or, sql } from 'drizzle-orm';
import { DOCUMENT_SOURCE_STATUS as STATUS, IN_SERVICE_STATUSES } from '@clinicrelay/contracts/document-sources.ts';
import type { OrganizationQueue } from '@clinicrelay/contracts/organizations.ts';
import type { DbOrTx } from '../../db/client.ts';
import { sessions } from '../../db/schema/auth.ts';
import { brands, documentSourceProviders, organizationTypes, resellers, subscriptionPlans } from '../../db/schema/back-office.ts';
import { directoryEntries } from '../../db/schema/directory.ts';
import { documentSources } from '../../db/schema/document-sources.ts';
import { featureToggles, organizationFeatures } from '../../db/schema/features.ts';
import { networkOrganizations, networks } from '../../db/schema/networks.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { organizationSpecialties, reservedWords } from '../../db/schema/reference-data.ts';
import { memberships, userSystemRoles, users } from '../../db/schema/users.ts';
import { byName, containsPattern, findPage, type PageRequest } from '../../platform/paging.ts';

export type OrganizationRow = typeof organizations.$inferSelect;
export type OrganizationValues = Partial<typeof organizations.$inferInsert>;

const isCancelling = or(isNotNull(organizations.cancelledAt), eq(organizations.isPendingCancellation, true));

const listColumns = {
  id: organizations.id,
  orgId: organizations.orgId,
  name: organizations.name,
  networkName: networks.name,
  subdomain: organizations.subdomain,
  // The licensing reseller when there is one, else the affiliate (§2's Reseller column).
  resellerName: sql<string | null>`(select r.name from ${resellers} r where r.id = coalesce(${organizations.licensingResellerId}, ${organizations.affiliateResellerId}))`,
  tierCode: organizations.tierCode,
  isActivated: organizations.isActivated,
  isEnabled: organizations.isEnabled,
  loginType: organizations.loginType,
  apiCapture: organizations.apiCapture,
  isPendingCancellation: organizations.isPendingCancellation,
  isCancelled: sql<boolean>`${organizations.cancelledAt} is not null`,
};

// The system administrators' activation queue: organizations that finished onboarding and wait to be activated.
const isAwaitingActivation = and(eq(organizations.isIdProofed, true), eq(organizations.isAcceptedEula, true), eq(organizations.isActivated, false));

// The review queue: not ID-proofed, and one of its members uploaded an identification after a failed check.
const isAwaitingReview = (db: DbOrTx) =>
  and(
    eq(organizations.isIdProofed, false),
    exists(
      db
        .select({ one: sql`1` })
        .from(memberships)
        .innerJoin(users, eq(users.id, memberships.userId))
        .where(and(eq(memberships.organizationId, organizations.id), isNotNull(users.idProofBlobId))),
    ),
  );

export interface OrganizationFilter {
  search?: string | undefined;
  cancelling?: boolean | undefined;
  awaitingActivation?: boolean | undefined;
  status?: OrganizationQueue | undefined;
  orgId?: number | undefined;
}

function listWhere(db: DbOrTx, filter: OrganizationFilter) {
  const pattern = filter.search ? containsPattern(filter.search) : undefined;
  return and(
    pattern ? or(ilike(organizations.name, pattern), ilike(organizations.subdomain, pattern), ilike(sql`${organizations.orgId}::text`, pattern)) : undefined,
    filter.cancelling ? isCancelling : undefined,
    filter.awaitingActivation || filter.status === 'awaitingActivation' ? isAwaitingActivation : undefined,
    filter.status === 'awaitingReview' ? isAwaitingReview(db) : undefined,
    filter.orgId !== undefined ? eq(organizations.orgId, filter.orgId) : undefined,
  );
}

/** How many organizations a queue holds (the back-office dashboard's counts). */
export async function countQueue(db: DbOrTx, status: OrganizationQueue) {
  return db.$count(organizations, listWhere(db, { status }));
}

export function findOrganizationPage(db: DbOrTx, filter: OrganizationFilter & { sortDir?: 'asc' | 'desc' | undefined }, page: PageRequest) {
  const where = listWhere(db, filter);
  return findPage(
    page,
    ({ offset, limit }) =>
      db
        .select(listColumns)
        .from(organizations)
        .leftJoin(networkOrganizations, eq(networkOrganizations.organizationId, organizations.id))
        .leftJoin(networks, eq(networks.id, networkOrganizations.networkId))
        .where(where)
        .orderBy(...byName(organizations.name, filter.sortDir), asc(organizations.id))
        .offset(offset)
        .limit(limit),
    () => db.$count(organizations, where),
  );
}

export async function findById(db: DbOrTx, id: string) {
  const [row] = await db
    .select({
      organization: organizations,
      networkId: networks.id,
      networkName: networks.name,
      affiliateResellerName: sql<string | null>`(select r.name from ${resellers} r where r.id = ${organizations.affiliateResellerId})`,
      licensingResellerName: sql<string | null>`(select r.name from ${resellers} r where r.id = ${organizations.licensingResellerId})`,
      affiliateResellerType: sql<number | null>`(select r.type from ${resellers} r where r.id = ${organizations.affiliateResellerId})`,
      planDescription: subscriptionPlans.allowedUsersDescription,
      numberOfUsers: sql<number>`(select count(*)::int from ${memberships} m where m.organization_id = ${organizations.id})`,
      createdByName: sql<string | null>`(select u.user_name from ${users} u where u.id = ${organizations.createdBy})`,
      modifiedByName: sql<string | null>`(select u.user_name from ${users} u where u.id = ${organizations.modifiedBy})`,
    })
    .from(organizations)
    .leftJoin(networkOrganizations, eq(networkOrganizations.organizationId, organizations.id))
    .leftJoin(networks, eq(networks.id, networkOrganizations.networkId))
    .leftJoin(subscriptionPlans, eq(subscriptionPlans.id, organizations.planId))
    .where(eq(organizations.id, id));
  return row;
}

export async function enabledFeatureNames(db: DbOrTx, organizationId: string) {
  const rows = await db
    .select({ name: featureToggles.name })
    .from(organizationFeatures)
    .innerJoin(featureToggles, eq(featureToggles.id, organizationFeatures.featureId))
    .where(and(eq(organizationFeatures.organizationId, organizationId), eq(organizationFeatures.isEnabled, true)))
    .orderBy(asc(featureToggles.name));
  return rows.map((r) => r.name);
}

/** Sets the organization's enabled features to exactly `names` (the others lose their per-organization row). */
export async function setEnabledFeatures(db: DbOrTx, organizationId: string, names: string[]) {
  await db.delete(organizationFeatures).where(eq(organizationFeatures.organizationId, organizationId));
  if (names.length === 0) return;
  const features = await db.select({ id: featureToggles.id }).from(featureToggles).where(inArray(featureToggles.name, names));
  if (features.length) await db.insert(organizationFeatures).values(features.map((f) => ({ featureId: f.id, organizationId, isEnabled: true })));
}

export const allFeatures = (db: DbOrTx) => db.select({ name: featureToggles.name, description: featureToggles.description }).from(featureToggles).orderBy(asc(featureToggles.name));

export async function isGlobalFeatureOn(db: DbOrTx, name: string) {
  return (await db.$count(featureToggles, and(eq(featureToggles.name, name), eq(featureToggles.isEnabled, true)))) > 0;
}

export async function insertOrganization(db: DbOrTx, values: typeof organizations.$inferInsert) {
  const [row] = await db.insert(organizations).values(values).returning({ id: organizations.id });
  return row!;
}

export async function updateOrganization(db: DbOrTx, id: string, values: OrganizationValues) {
  const [row] = await db.update(organizations).set(values).where(eq(organizations.id, id)).returning({ id: organizations.id });
  return row;
}

export async function deleteOrganization(db: DbOrTx, id: string) {
  const [row] = await db.delete(organizations).where(eq(organizations.id, id)).returning({ id: organizations.id, name: organizations.name });
  return row;
}

export async function lockOrganization(db: DbOrTx, id: string) {
  const [row] = await db.select().from(organizations).where(eq(organizations.id, id)).for('update');
  return row;
}

export async function countMembers(db: DbOrTx, organizationId: string) {
  const [row] = await db.select({ n: count() }).from(memberships).where(eq(memberships.organizationId, organizationId));
  return row?.n ?? 0;
}

// The references of the details tab, each checked to exist.
export const brandExists = async (db: DbOrTx, id: string) => (await db.$count(brands, eq(brands.id, id))) > 0;
export const typeExists = async (db: DbOrTx, id: number) => (await db.$count(organizationTypes, eq(organizationTypes.id, id))) > 0;
export const specialtyExists = async (db: DbOrTx, id: number) => (await db.$count(organizationSpecialties, eq(organizationSpecialties.id, id))) > 0;
export const hispExists = async (db: DbOrTx, id: number) =>
  (await db.$count(documentSourceProviders, and(eq(documentSourceProviders.id, id), eq(documentSourceProviders.type, 'DirectMessaging')))) > 0;
export async function findPlan(db: DbOrTx, id: string) {
  const [row] = await db.select().from(subscriptionPlans).where(eq(subscriptionPlans.id, id));
  return row;
}
export async function findFreePlan(db: DbOrTx) {
  const [row] = await db.select().from(subscriptionPlans).where(eq(subscriptionPlans.isFree, true)).orderBy(asc(subscriptionPlans.sortOrder)).limit(1);
  return row;
}
export async function findReseller(db: DbOrTx, id: string) {
  const [row] = await db.select({ id: resellers.id, type: resellers.type, name: resellers.name }).from(resellers).where(eq(resellers.id, id));
  return row;
}

export const subdomainTaken = async (db: DbOrTx, subdomain: string, exceptId?: string) =>
  (await db.$count(organizations, and(eq(organizations.subdomain, subdomain.toLowerCase()), exceptId ? sql`${organizations.id} <> ${exceptId}` : undefined))) > 0;

// A reserved word as the whole subdomain, or a profanity anywhere in it.
export async function isReservedSubdomain(db: DbOrTx, subdomain: string) {
  const key = subdomain.trim().toLowerCase();
  const n = await db.$count(reservedWords, or(eq(reservedWords.nameKey, key), and(eq(reservedWords.profanity, true), sql`position(${reservedWords.nameKey} in ${key}) > 0`)));
  return n > 0;
}

export const allBrands = (db: DbOrTx) => db.select({ id: brands.id, name: brands.name }).from(brands).orderBy(asc(brands.name));
export const allTypes = (db: DbOrTx) => db.select({ id: organizationTypes.id, name: organizationTypes.name }).from(organizationTypes).orderBy(asc(organizationTypes.id));
export const allPlans = (db: DbOrTx) =>
  db
    .select({ id: subscriptionPlans.id, name: subscriptionPlans.name, allowedUsers: subscriptionPlans.allowedUsers, allowedUsersDescription: subscriptionPlans.allowedUsersDescription, isFree: subscriptionPlans.isFree })
    .from(subscriptionPlans)
    .orderBy(asc(subscriptionPlans.sortOrder));
export const allResellers = (db: DbOrTx) => db.select({ id: resellers.id, name: resellers.name, type: resellers.type }).from(resellers).orderBy(...byName(resellers.name));
export const allHisps = (db: DbOrTx) =>
  db.select({ id: documentSourceProviders.id, name: documentSourceProviders.name }).from(documentSourceProviders).where(eq(documentSourceProviders.type, 'DirectMessaging')).orderBy(asc(documentSourceProviders.id));

// Typeahead: organizations by name or subdomain.
export const findOptions = (db: DbOrTx, search: string, limit: number) =>
  findOrganizationPage(db, { search }, { pageNumber: 1, pageSize: limit });

// The organizations a user is not yet a member of, matching the search.
export function findOrganizationsWithoutUser(db: DbOrTx, userId: string, search: string) {
  const pattern = containsPattern(search);
  return db
    .select({ id: organizations.id, name: organizations.name })
    .from(organizations)
    .where(
      and(
        or(ilike(organizations.name, pattern), ilike(organizations.subdomain, pattern)),
        notExists(db.select({ one: sql`1` }).from(memberships).where(and(eq(memberships.organizationId, organizations.id), eq(memberships.userId, userId)))),
      ),
    )
    .orderBy(...byName(organizations.name))
    .limit(10);
}

export const userExists = async (db: DbOrTx, id: string) => (await db.$count(users, eq(users.id, id))) > 0;

export function findAdministrators(db: DbOrTx, organizationId: string) {
  return db
    .select({ id: users.id, userName: users.userName, fullName: sql<string>`trim(${users.firstName} || ' ' || ${users.lastName})`, email: users.email })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.role, 'Administrator'), eq(users.isDisabled, false)))
    .orderBy(asc(users.userName));
}

/** Ends the sessions of the organization's members signed into it (system administrators keep theirs). */
export async function revokeOrganizationSessions(db: DbOrTx, organizationId: string, at: Date) {
  await db
    .update(sessions)
    .set({ revokedAt: at })
    .where(
      and(
        eq(sessions.organizationId, organizationId),
        isNull(sessions.revokedAt),
        notExists(db.select({ one: sql`1` }).from(userSystemRoles).where(eq(userSystemRoles.userId, sessions.userId))),
      ),
    );
}

// The records address in service for every user of the organization: made Activated, or an earlier one of the same
// organization left Provisioning put in service. False when another organization holds the address.
export async function putRecordsAddressInService(db: DbOrTx, organizationId: string, fullAddress: string) {
  const rows = await db.insert(documentSources).values({ organizationId, type: 'Direct', fullAddress, status: STATUS.Activated, isGlobal: true }).onConflictDoNothing().returning({ id: documentSources.id });
  if (rows.length > 0) return true;
  const ownAddress = and(eq(documentSources.fullAddress, fullAddress), eq(documentSources.organizationId, organizationId));
  const [own] = await db
    .update(documentSources)
    .set({ status: STATUS.Activated })
    .where(and(ownAddress, eq(documentSources.status, STATUS.Provisioning)))
    .returning({ id: documentSources.id });
  return own !== undefined || (await db.$count(documentSources, and(ownAddress, inArray(documentSources.status, [...IN_SERVICE_STATUSES])))) > 0;
}

// The organization's Direct addresses in service (Activated or Pending Update), which Release offers as From.
export async function findDirectAddressesInService(db: DbOrTx, organizationId: string) {
  const rows = await db
    .select({ fullAddress: documentSources.fullAddress })
    .from(documentSources)
    .where(and(eq(documentSources.organizationId, organizationId), eq(documentSources.type, 'Direct'), inArray(documentSources.status, [...IN_SERVICE_STATUSES])))
    .orderBy(asc(documentSources.fullAddress));
  return rows.map((r) => r.fullAddress);
}

// Every enabled system administrator, for the operators' notices (a clinic waiting for activation or review).
export function findSystemAdministrators(db: DbOrTx) {
  return db
    .select({ fullName: sql<string>`trim(${users.firstName} || ' ' || ${users.lastName})`, email: users.email })
    .from(users)
    .innerJoin(userSystemRoles, and(eq(userSystemRoles.userId, users.id), eq(userSystemRoles.role, 'SysAdmin')))
    .where(eq(users.isDisabled, false))
    .orderBy(asc(users.userName));
}

export async function findNpi(db: DbOrTx, npi: string) {
  const [row] = await db.select().from(directoryEntries).where(eq(directoryEntries.npi, npi));
  return row;
}

// Every organization's Direct addresses, for the CSV export.
export async function brandName(db: DbOrTx, id: string) {
  const [row] = await db.select({ name: brands.name }).from(brands).where(eq(brands.id, id));
  return row?.name;
}
