import { and, asc, eq, ilike, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { AdminUserSort } from '@clinicrelay/contracts/admin-users.ts';
import type { DbOrTx } from '../../db/client.ts';
import { networkAdministrators } from '../../db/schema/networks.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { jobFunctions, memberships, userPreferences, userSystemRoles, users } from '../../db/schema/users.ts';
import { containsPattern, findPage, type PageRequest } from '../../platform/paging.ts';

// The outer row's id, qualified: drizzle writes a lone table's columns unqualified, which inside these
// subqueries would bind to the subquery's own tables.
const userIdRef = sql.raw('"users"."id"');
const systemRolesOf = sql<string[]>`array(select r.role from ${userSystemRoles} r where r.user_id = ${userIdRef} order by r.role)`;
const organizationNamesOf = sql<string[]>`array(select o.name from ${memberships} m join ${organizations} o on o.id = m.organization_id where m.user_id = ${userIdRef} order by lower(o.name), o.name)`;
// The role in the user's first organization by name (the list's Role; a user has one role per organization).
const firstOrganizationRole = sql<string | null>`(select m.role from ${memberships} m join ${organizations} o on o.id = m.organization_id where m.user_id = ${userIdRef} order by lower(o.name), o.name limit 1)`;
const isOrgAdmin = sql<boolean>`exists(select 1 from ${memberships} m where m.user_id = ${userIdRef} and m.role = 'Administrator')`;
const isNetworkAdmin = sql<boolean>`exists(select 1 from ${networkAdministrators} a where a.user_id = ${userIdRef})`;
const isSysAdmin = sql<boolean>`exists(select 1 from ${userSystemRoles} r where r.user_id = ${userIdRef})`;

// Sort keys: organization sorts by the first organization's name; users without one (system users) come last.
const sortKeys: Record<AdminUserSort['col'], SQL> = {
  userName: sql`${users.userName}`,
  organization: sql`(select min(lower(o.name)) from ${memberships} m join ${organizations} o on o.id = m.organization_id where m.user_id = ${userIdRef})`,
  firstName: sql`lower(${users.firstName})`,
  lastName: sql`lower(${users.lastName})`,
};

export interface UserListFilter {
  search?: string | undefined;
  includeDisabled: boolean;
  sysAdminOnly: boolean;
  sort: AdminUserSort[];
}

export function findUserPage(db: DbOrTx, filter: UserListFilter, page: PageRequest) {
  const where = and(
    filter.search ? ilike(users.userName, containsPattern(filter.search.toLowerCase())) : undefined,
    filter.includeDisabled ? undefined : eq(users.isDisabled, false),
    filter.sysAdminOnly ? isSysAdmin : undefined,
  );
  const order = filter.sort.map((s) => (s.dir === 'desc' ? sql`${sortKeys[s.col]} desc nulls last` : sql`${sortKeys[s.col]} asc nulls last`));
  return findPage(
    page,
    ({ offset, limit }) =>
      db
        .select({
          id: users.id,
          userName: users.userName,
          firstName: users.firstName,
          lastName: users.lastName,
          organizations: organizationNamesOf,
          idProofStatus: users.idProofStatus,
          isDisabled: users.isDisabled,
          isOrgAdmin,
          isNetworkAdmin,
          systemRoles: systemRolesOf,
          organizationRole: firstOrganizationRole,
        })
        .from(users)
        .where(where)
        .orderBy(...order, asc(users.id))
        .offset(offset)
        .limit(limit),
    () => db.$count(users, where),
  );
}

export async function findUser(db: DbOrTx, id: string) {
  const [row] = await db
    .select({ user: users, systemRoles: systemRolesOf, isNetworkAdmin })
    .from(users)
    .where(eq(users.id, id));
  return row && { ...row.user, systemRoles: row.systemRoles, isNetworkAdmin: row.isNetworkAdmin };
}

export async function findUserForUpdate(tx: DbOrTx, id: string) {
  const [row] = await tx.select().from(users).where(eq(users.id, id)).for('update');
  return row;
}

export async function findPreferences(db: DbOrTx, userId: string) {
  const [row] = await db.select().from(userPreferences).where(eq(userPreferences.userId, userId));
  return row;
}

export async function upsertPreferences(db: DbOrTx, userId: string, values: Omit<typeof userPreferences.$inferInsert, 'userId'>) {
  await db.insert(userPreferences).values({ userId, ...values }).onConflictDoUpdate({ target: userPreferences.userId, set: values });
}

/** The user's organizations with role and job function, by name. */
export function findUserOrganizations(db: DbOrTx, userId: string) {
  return db
    .select({ id: organizations.id, name: organizations.name, role: memberships.role, primaryJobFunction: jobFunctions.name, jobFunctionId: memberships.primaryJobFunctionId })
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
    .leftJoin(jobFunctions, eq(jobFunctions.id, memberships.primaryJobFunctionId))
    .where(eq(memberships.userId, userId))
    .orderBy(sql`lower(${organizations.name})`, asc(organizations.name));
}

export const findJobFunctions = (db: DbOrTx) => db.select({ id: jobFunctions.id, name: jobFunctions.name }).from(jobFunctions).orderBy(asc(jobFunctions.name));

export async function jobFunctionExists(db: DbOrTx, id: number) {
  return (await db.$count(jobFunctions, eq(jobFunctions.id, id))) > 0;
}

export async function organizationExists(db: DbOrTx, id: string) {
  return (await db.$count(organizations, eq(organizations.id, id))) > 0;
}

export async function userNameTaken(db: DbOrTx, userName: string, exceptId?: string) {
  return (await db.$count(users, and(eq(users.userName, userName), exceptId ? ne(users.id, exceptId) : undefined))) > 0;
}

export async function insertUser(db: DbOrTx, values: typeof users.$inferInsert) {
  const [row] = await db.insert(users).values(values).onConflictDoNothing({ target: users.userName }).returning();
  return row;
}

export async function updateUser(db: DbOrTx, id: string, values: Partial<typeof users.$inferInsert>) {
  const [row] = await db.update(users).set(values).where(eq(users.id, id)).returning({ id: users.id });
  return row;
}

export async function replaceSystemRole(db: DbOrTx, userId: string, role: 'SysAdmin' | 'SysAdminReporting') {
  await db.delete(userSystemRoles).where(eq(userSystemRoles.userId, userId));
  await db.insert(userSystemRoles).values({ userId, role });
}

export async function findMembership(db: DbOrTx, userId: string, organizationId: string) {
  const [row] = await db.select().from(memberships).where(and(eq(memberships.userId, userId), eq(memberships.organizationId, organizationId)));
  return row;
}

export async function insertMembership(db: DbOrTx, values: typeof memberships.$inferInsert) {
  const rows = await db.insert(memberships).values(values).onConflictDoNothing().returning({ userId: memberships.userId });
  return rows.length > 0;
}

export async function updateMembership(db: DbOrTx, userId: string, organizationId: string, values: { role: 'Administrator' | 'User'; primaryJobFunctionId: number }) {
  const rows = await db
    .update(memberships)
    .set(values)
    .where(and(eq(memberships.userId, userId), eq(memberships.organizationId, organizationId)))
    .returning({ userId: memberships.userId });
  return rows.length > 0;
}

export async function deleteMembership(db: DbOrTx, userId: string, organizationId: string) {
  const rows = await db
    .delete(memberships)
    .where(and(eq(memberships.userId, userId), eq(memberships.organizationId, organizationId)))
    .returning({ userId: memberships.userId });
  return rows.length > 0;
}

export async function countMemberships(db: DbOrTx, userId: string) {
  return db.$count(memberships, eq(memberships.userId, userId));
}

/** The organizations the user administers: ID proofing an administrator proofs their organization (onboarding). */
export async function administeredOrganizationIds(db: DbOrTx, userId: string) {
  const rows = await db
    .select({ id: memberships.organizationId })
    .from(memberships)
    .where(and(eq(memberships.userId, userId), eq(memberships.role, 'Administrator')));
  return rows.map((r) => r.id);
}

export async function setOrganizationsIdProofed(db: DbOrTx, ids: string[], passed: boolean, at: Date) {
  if (ids.length === 0) return;
  await db.update(organizations).set({ isIdProofed: passed, idProofedAttemptDate: at }).where(inArray(organizations.id, ids));
}

export async function isSystemUser(db: DbOrTx, userId: string) {
  return (await db.$count(userSystemRoles, eq(userSystemRoles.userId, userId))) > 0;
}
