import { and, asc, count, desc, eq, gt, gte, ilike, inArray, isNull, min, ne, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { OrgUserSort } from '@clinicrelay/contracts/users.ts';
import { queryRows, type DbOrTx } from '../../db/client.ts';
import { invitations } from '../../db/schema/directory.ts';
import { documentSources } from '../../db/schema/document-sources.ts';
import { intakeRules, userDocumentSources, userIntakeRules } from '../../db/schema/intake.ts';
import { loginAttempts, sessions } from '../../db/schema/auth.ts';
import { auditEvents } from '../../db/schema/audit.ts';
import { mailOutbox } from '../../db/schema/mail.ts';
import { jobFunctions, memberships, users } from '../../db/schema/users.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { networkAdministrators, networkOrganizations } from '../../db/schema/networks.ts';
import { containsPattern } from '../../platform/paging.ts';

export type IntakeRuleRow = typeof intakeRules.$inferSelect;

export async function findMembership(db: DbOrTx, organizationId: string, userId: string) {
  const [row] = await db
    .select()
    .from(memberships)
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)));
  return row;
}

export async function findDocumentSourceIds(db: DbOrTx, organizationId: string, ids: string[]) {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: documentSources.id })
    .from(documentSources)
    .where(and(eq(documentSources.organizationId, organizationId), inArray(documentSources.id, ids)));
  return rows.map((r) => r.id);
}

export async function findUserDocumentSources(db: DbOrTx, organizationId: string, userId: string) {
  return db
    .select({ organizationId: userDocumentSources.organizationId, documentSourceId: userDocumentSources.documentSourceId })
    .from(userDocumentSources)
    .innerJoin(documentSources, eq(documentSources.id, userDocumentSources.documentSourceId))
    .where(and(eq(userDocumentSources.organizationId, organizationId), eq(userDocumentSources.userId, userId)))
    .orderBy(asc(documentSources.type), asc(documentSources.fullAddress));
}

// Replaces the user's document sources in one organization.
export async function replaceUserDocumentSources(db: DbOrTx, organizationId: string, userId: string, documentSourceIds: string[]) {
  await db.delete(userDocumentSources).where(and(eq(userDocumentSources.organizationId, organizationId), eq(userDocumentSources.userId, userId)));
  if (documentSourceIds.length) {
    await db.insert(userDocumentSources).values(documentSourceIds.map((documentSourceId) => ({ userId, organizationId, documentSourceId })));
  }
}

export async function findRules(db: DbOrTx, organizationId: string, ids?: string[]) {
  if (ids?.length === 0) return [];
  return db
    .select()
    .from(intakeRules)
    .where(and(eq(intakeRules.organizationId, organizationId), ids ? inArray(intakeRules.id, ids) : undefined))
    .orderBy(asc(intakeRules.name), asc(intakeRules.id));
}

export async function findUserRules(db: DbOrTx, organizationId: string, userId: string) {
  return db
    .select({ rule: intakeRules })
    .from(userIntakeRules)
    .innerJoin(intakeRules, eq(intakeRules.id, userIntakeRules.intakeRuleId))
    .where(and(eq(userIntakeRules.organizationId, organizationId), eq(userIntakeRules.userId, userId)))
    .orderBy(asc(intakeRules.name), asc(intakeRules.id))
    .then((rows) => rows.map((r) => r.rule));
}

// Replaces the user's intake rules in one organization.
export async function replaceUserRules(db: DbOrTx, organizationId: string, userId: string, intakeRuleIds: string[]) {
  await db.delete(userIntakeRules).where(and(eq(userIntakeRules.organizationId, organizationId), eq(userIntakeRules.userId, userId)));
  if (intakeRuleIds.length) {
    await db.insert(userIntakeRules).values(intakeRuleIds.map((intakeRuleId) => ({ userId, organizationId, intakeRuleId })));
  }
}

export async function insertRule(db: DbOrTx, row: typeof intakeRules.$inferInsert) {
  const [created] = await db.insert(intakeRules).values(row).returning();
  return created!;
}

export async function removeRule(db: DbOrTx, organizationId: string, id: string) {
  const rows = await db
    .delete(intakeRules)
    .where(and(eq(intakeRules.organizationId, organizationId), eq(intakeRules.id, id)))
    .returning({ id: intakeRules.id });
  return rows.length > 0;
}

// The user row's id and name, qualified: inside the subqueries below a bare column would bind to the subquery's table.
const userIdRef = sql.raw('"users"."id"');
const userNameRef = sql.raw('"users"."user_name"');
// Counted in the membership's organization (a network user's row counts their own organization's).
const membershipOrgRef = sql.raw('"memberships"."organization_id"');
const sendPermissionsOf = sql<number>`(select count(*)::int from ${userDocumentSources} s where s.user_id = ${userIdRef} and s.organization_id = ${membershipOrgRef})`;
const intakeRulesOf = sql<number>`(select count(*)::int from ${userIntakeRules} r where r.user_id = ${userIdRef} and r.organization_id = ${membershipOrgRef})`;
// The last successful sign-in (login_attempts_user_name_idx: user names are stored normalized, as typed at sign-in).
const lastSignInOf = sql<string | null>`(select max(a.created_at) from ${loginAttempts} a where a.user_name = ${userNameRef} and a.succeeded)`;

const memberColumns = {
  id: users.id,
  userName: users.userName,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  role: memberships.role,
  jobFunctionId: memberships.primaryJobFunctionId,
  jobFunction: jobFunctions.name,
  sendPermissions: sendPermissionsOf,
  intakeRules: intakeRulesOf,
  lastSignIn: lastSignInOf,
  passwordSet: sql<boolean>`(${users.passwordHash} is not null)`,
  isDisabled: users.isDisabled,
  twoFactorEnabled: users.twoFactorEnabled,
  tokenAuthEnabled: users.tokenAuthEnabled,
};
export type MemberRow = NonNullable<Awaited<ReturnType<typeof findMember>>>;

const memberSortKeys: Record<OrgUserSort['col'], SQL[]> = {
  name: [sql`lower(${users.lastName})`, sql`lower(${users.firstName})`],
  userName: [sql`${users.userName}`],
  firstName: [sql`lower(${users.firstName})`],
  lastName: [sql`lower(${users.lastName})`],
  role: [sql`${memberships.role}`],
  jobFunction: [sql`${jobFunctions.name}`],
  lastSignIn: [lastSignInOf],
  enabled: [sql`${users.isDisabled}`],
};

// The members of one organization, optionally matching a search in user name, first or last name. networkOrganizationIds
// (includeNetwork): also the members of those organizations who are not members of this one (each listed once).
export async function findMembersPage(
  db: DbOrTx,
  organizationId: string,
  opts: { search?: string | undefined; sort: OrgUserSort; offset: number; limit: number; networkOrganizationIds?: string[] | undefined },
) {
  const pattern = opts.search ? containsPattern(opts.search) : null;
  const others = opts.networkOrganizationIds?.filter((id) => id !== organizationId) ?? [];
  const ownMember = sql`exists (select 1 from ${memberships} own where own.user_id = ${userIdRef} and own.organization_id = ${organizationId})`;
  const where: SQL | undefined = and(
    others.length
      ? or(eq(memberships.organizationId, organizationId), and(inArray(memberships.organizationId, others), sql`not ${ownMember}`))
      : eq(memberships.organizationId, organizationId),
    pattern ? or(ilike(users.userName, pattern), ilike(users.firstName, pattern), ilike(users.lastName, pattern)) : undefined,
  );
  // "Enabled" ascending lists enabled users first; missing values (never signed in, no job function) come last.
  const direction = opts.sort.col === 'enabled' ? (opts.sort.dir === 'desc' ? 'asc' : 'desc') : opts.sort.dir;
  const order = memberSortKeys[opts.sort.col].map((key) => (direction === 'desc' ? sql`${key} desc nulls last` : sql`${key} asc nulls last`));
  const [rows, [total]] = await Promise.all([
    db
      .select({ ...memberColumns, organizationId: memberships.organizationId, organizationName: organizations.name })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
      .leftJoin(jobFunctions, eq(jobFunctions.id, memberships.primaryJobFunctionId))
      .where(where)
      .orderBy(...order, asc(users.lastName), asc(users.firstName), asc(users.id), asc(memberships.organizationId))
      .limit(opts.limit)
      .offset(opts.offset),
    db.select({ n: count() }).from(memberships).innerJoin(users, eq(users.id, memberships.userId)).where(where),
  ]);
  return { rows, totalCount: total?.n ?? 0 };
}

export async function findMember(db: DbOrTx, organizationId: string, userId: string) {
  const [row] = await db
    .select(memberColumns)
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .leftJoin(jobFunctions, eq(jobFunctions.id, memberships.primaryJobFunctionId))
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)));
  return row;
}

// Serializes the changes that could leave an organization without an Administrator until the transaction ends.
export async function lockAdministratorsOf(tx: DbOrTx, organizationId: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`administrators:${organizationId}`}, 0))`);
}

// The organization's enabled Administrators other than one user.
export async function countOtherEnabledAdministrators(db: DbOrTx, organizationId: string, exceptUserId: string) {
  const [row] = await db
    .select({ n: count() })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.role, 'Administrator'), eq(users.isDisabled, false), ne(users.id, exceptUserId)));
  return row?.n ?? 0;
}

// Whether the user belongs to an organization besides this one.
export async function hasOtherOrganization(db: DbOrTx, organizationId: string, userId: string) {
  return (await db.$count(memberships, and(eq(memberships.userId, userId), ne(memberships.organizationId, organizationId)))) > 0;
}

// Removes a user from one organization: the membership and the user's addresses and rules there.
export async function removeMember(tx: DbOrTx, organizationId: string, userId: string) {
  await tx.delete(userDocumentSources).where(and(eq(userDocumentSources.organizationId, organizationId), eq(userDocumentSources.userId, userId)));
  await tx.delete(userIntakeRules).where(and(eq(userIntakeRules.organizationId, organizationId), eq(userIntakeRules.userId, userId)));
  await tx.delete(memberships).where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)));
  // The default organization moves to one the user still belongs to.
  await tx
    .update(users)
    .set({ defaultOrganizationId: sql`(select m.organization_id from ${memberships} m where m.user_id = ${userId} order by m.created_at limit 1)` })
    .where(and(eq(users.id, userId), eq(users.defaultOrganizationId, organizationId)));
}

// Deletes the account; memberships, sessions, preferences and assignments go with it, messages keep no link to it.
export async function deleteUser(tx: DbOrTx, userId: string) {
  await tx.delete(users).where(eq(users.id, userId));
}

export async function updateMember(tx: DbOrTx, organizationId: string, userId: string, values: { role: 'Administrator' | 'User'; primaryJobFunctionId: number }) {
  await tx.update(memberships).set(values).where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)));
}

// Document source statuses that no longer receive: 4 Deleted, 5 Failed.
const NOT_RECEIVING = [4, 5];

// One of the organization's Direct addresses that still receives, by its (lower-case) address.
export async function findDirectSource(db: DbOrTx, organizationId: string, fullAddress: string) {
  const [row] = await db
    .select({ id: documentSources.id, fullAddress: documentSources.fullAddress })
    .from(documentSources)
    .where(
      and(
        eq(documentSources.organizationId, organizationId),
        eq(documentSources.type, 'Direct'),
        eq(documentSources.fullAddress, fullAddress),
        notInArray(documentSources.status, NOT_RECEIVING),
      ),
    );
  return row;
}

export async function findUser(db: DbOrTx, id: string) {
  const [row] = await db.select({ userName: users.userName, email: users.email, firstName: users.firstName, lastName: users.lastName }).from(users).where(eq(users.id, id));
  return row;
}

// Serializes one user's invitations until the transaction ends, so two at once cannot both pass the hourly limit.
export async function lockInvitationsOf(tx: DbOrTx, userId: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`invitations:${userId}`}, 0))`);
}

// How many invitations the user sent from the organization since a time, and the oldest of them
// (read through invitations_org_idx: the organization's invitations of the last hour).
export async function countInvitationsSince(db: DbOrTx, organizationId: string, userId: string, since: Date) {
  const [row] = await db
    .select({ sent: count(), oldest: min(invitations.createdAt) })
    .from(invitations)
    .where(and(eq(invitations.organizationId, organizationId), gt(invitations.createdAt, since), eq(invitations.invitedBy, userId)));
  return { sent: row?.sent ?? 0, oldest: row?.oldest ?? null };
}

export async function insertInvitation(db: DbOrTx, row: typeof invitations.$inferInsert) {
  const [created] = await db.insert(invitations).values(row).returning({ id: invitations.id });
  return created!;
}

// ---- Issue 13 §2: network users, applications, activity and requests of a user ----

// The organizations of the networks the user administers.
export async function findAdministeredNetworkOrganizationIds(db: DbOrTx, userId: string) {
  const rows = await db
    .selectDistinct({ id: networkOrganizations.organizationId })
    .from(networkAdministrators)
    .innerJoin(networkOrganizations, eq(networkOrganizations.networkId, networkAdministrators.networkId))
    .where(eq(networkAdministrators.userId, userId));
  return rows.map((r) => r.id);
}

// The user's live sessions in one organization (the guard's rule: not revoked, not expired, not idle).
export function findLiveSessions(db: DbOrTx, organizationId: string, userId: string, now: Date) {
  const at = now.toISOString();
  return db
    .select({ id: sessions.id, ip: sessions.ip, userAgent: sessions.userAgent, createdAt: sessions.createdAt, lastSeenAt: sessions.lastSeenAt })
    .from(sessions)
    .where(
      and(
        eq(sessions.userId, userId),
        eq(sessions.organizationId, organizationId),
        isNull(sessions.revokedAt),
        sql`${sessions.expiresAt} > ${at}::timestamptz`,
        sql`${sessions.lastSeenAt} > ${at}::timestamptz - ${sessions.idleTimeoutMinutes} * interval '1 minute'`,
      ),
    )
    .orderBy(desc(sessions.lastSeenAt));
}

// The audit rows of what the user did in the organization; back-office style rows (organizationId null) count when
// their details name the organization (an address the user requested).
function userEventsWhere(organizationId: string, userId: string, filter: { eventTypes?: string[] | undefined; from?: Date | undefined; excludeTypes?: string[] }) {
  return and(
    eq(auditEvents.userId, userId),
    or(eq(auditEvents.organizationId, organizationId), and(isNull(auditEvents.organizationId), sql`${auditEvents.details}->>'organizationId' = ${organizationId}`)),
    filter.eventTypes?.length ? inArray(auditEvents.eventType, filter.eventTypes) : undefined,
    !filter.eventTypes?.length && filter.excludeTypes?.length ? notInArray(auditEvents.eventType, filter.excludeTypes) : undefined,
    filter.from ? gte(auditEvents.createdAt, filter.from) : undefined,
  );
}

export async function findUserEventsPage(
  db: DbOrTx,
  organizationId: string,
  userId: string,
  filter: { eventTypes?: string[] | undefined; from?: Date | undefined; excludeTypes?: string[] },
  page: { offset: number; limit: number },
) {
  const where = userEventsWhere(organizationId, userId, filter);
  const [items, [total]] = await Promise.all([
    db
      .select({ id: auditEvents.id, eventType: auditEvents.eventType, createdAt: auditEvents.createdAt, ip: auditEvents.ip })
      .from(auditEvents)
      .where(where)
      .orderBy(desc(auditEvents.createdAt), desc(auditEvents.id))
      .offset(page.offset)
      .limit(page.limit),
    db.select({ n: count() }).from(auditEvents).where(where),
  ]);
  return { items, totalCount: total?.n ?? 0 };
}

export async function findUserEventTypes(db: DbOrTx, organizationId: string, userId: string, excludeTypes: string[]) {
  const rows = await db
    .selectDistinct({ eventType: auditEvents.eventType })
    .from(auditEvents)
    .where(userEventsWhere(organizationId, userId, { excludeTypes }))
    .orderBy(asc(auditEvents.eventType));
  return rows.map((r) => r.eventType);
}

export interface UserRequestRow {
  id: string;
  kind: 'Invitation' | 'Address' | 'Reactivation';
  name: string | null;
  state: string | null;
  address_type: string | null;
  requested_at: string | Date;
}

// What the user asked for in the organization, newest first: invitations (with their mail's state), address requests
// (audit rows joined to the address as it is now) and reactivation requests (the audit row is the request).
export async function findUserRequestsPage(
  db: DbOrTx,
  organizationId: string,
  userId: string,
  addressEventTypes: string[],
  reactivationEventType: string,
  page: { offset: number; limit: number },
) {
  const union = sql`
    select i.id::text as id, 'Invitation' as kind, i.full_name as name, m.status as state, null::text as address_type, i.created_at as requested_at
      from ${invitations} i left join ${mailOutbox} m on m.id = i.mail_id
      where i.organization_id = ${organizationId} and i.invited_by = ${userId}
    union all
    select a.id::text, 'Address', coalesce(d.full_address, a.details->>'fullAddress'), d.status::text, coalesce(d.type, a.details->>'type'), a.created_at
      from ${auditEvents} a left join ${documentSources} d on d.id::text = a.details->>'documentSourceId' and d.organization_id = ${organizationId}
      where a.user_id = ${userId} and a.details->>'organizationId' = ${organizationId} and a.event_type in (${sql.join(
        addressEventTypes.map((t) => sql`${t}`),
        sql`, `,
      )})
    union all
    select a.id::text, 'Reactivation', null, null, null, a.created_at
      from ${auditEvents} a
      where a.user_id = ${userId} and a.organization_id = ${organizationId} and a.event_type = ${reactivationEventType}`;
  const [items, [total]] = await Promise.all([
    queryRows<UserRequestRow>(db, sql`select * from (${union}) r order by r.requested_at desc, r.id desc offset ${page.offset} limit ${page.limit}`),
    queryRows<{ n: number }>(db, sql`select count(*)::int as n from (${union}) r`),
  ]);
  return { items, totalCount: Number(total?.n ?? 0) };
}

export async function findOrganizationCancellation(db: DbOrTx, organizationId: string) {
  const [row] = await db.select({ cancelledAt: organizations.cancelledAt }).from(organizations).where(eq(organizations.id, organizationId));
  return row;
}
