import { and, asc, count, desc, eq, gt, ilike, inArray, min, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { UserSort } from '@clinicrelay/contracts/intake.ts';
import type { DbOrTx } from '../../db/client.ts';
import { invitations } from '../../db/schema/directory.ts';
import { documentSources } from '../../db/schema/document-sources.ts';
import { intakeRules, userDocumentSources, userIntakeRules } from '../../db/schema/intake.ts';
import { memberships, users } from '../../db/schema/users.ts';

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

const memberSortColumns = { userName: users.userName, firstName: users.firstName, lastName: users.lastName, role: memberships.role } as const;

// LIKE wildcards in the search text are matched literally.
const likeEscaped = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

// The members of one organization, optionally matching a search in user name, first or last name.
export async function findMembersPage(db: DbOrTx, organizationId: string, opts: { search?: string | undefined; sort: UserSort; offset: number; limit: number }) {
  const pattern = opts.search ? likeEscaped(opts.search) : null;
  const where: SQL | undefined = and(
    eq(memberships.organizationId, organizationId),
    pattern ? or(ilike(users.userName, pattern), ilike(users.firstName, pattern), ilike(users.lastName, pattern)) : undefined,
  );
  const direction = opts.sort.dir === 'desc' ? desc : asc;
  const [rows, [total]] = await Promise.all([
    db
      .select({ id: users.id, userName: users.userName, firstName: users.firstName, lastName: users.lastName, role: memberships.role })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(where)
      .orderBy(direction(memberSortColumns[opts.sort.col]), asc(users.lastName), asc(users.firstName), asc(users.id))
      .limit(opts.limit)
      .offset(opts.offset),
    db.select({ n: count() }).from(memberships).innerJoin(users, eq(users.id, memberships.userId)).where(where),
  ]);
  return { rows, totalCount: total?.n ?? 0 };
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
