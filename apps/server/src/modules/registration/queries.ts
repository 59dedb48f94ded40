import { and, count, eq, gt, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { resellers } from '../../db/schema/back-office.ts';
import { invitations } from '../../db/schema/directory.ts';
import { mailOutbox } from '../../db/schema/mail.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { users } from '../../db/schema/users.ts';
import { urlCodeKeyOf } from '../resellers/queries.ts';

export async function findResellerByUrlCode(db: DbOrTx, urlCode: string) {
  const [row] = await db.select().from(resellers).where(eq(resellers.urlCodeKey, urlCodeKeyOf(urlCode)));
  return row;
}

export async function findInvitationByCode(db: DbOrTx, code: string) {
  const [row] = await db
    .select({ id: invitations.id, fullName: invitations.fullName, emailAddress: invitations.emailAddress, organizationName: organizations.name })
    .from(invitations)
    .innerJoin(organizations, eq(organizations.id, invitations.organizationId))
    .where(eq(invitations.code, code));
  return row;
}

export async function findUserForConfirmation(db: DbOrTx, id: string) {
  const [row] = await db
    .select({ id: users.id, userName: users.userName, isDisabled: users.isDisabled, emailConfirmedAt: users.emailConfirmedAt, defaultOrganizationId: users.defaultOrganizationId })
    .from(users)
    .where(eq(users.id, id))
    .for('update');
  return row;
}

export async function findUnconfirmedUser(db: DbOrTx, userName: string) {
  const [row] = await db
    .select({ id: users.id, userName: users.userName, email: users.email, firstName: users.firstName, lastName: users.lastName, defaultOrganizationId: users.defaultOrganizationId })
    .from(users)
    .where(and(eq(users.userName, userName), isNull(users.emailConfirmedAt), eq(users.isDisabled, false)));
  return row;
}

export async function findUserByUserName(db: DbOrTx, userName: string) {
  const [row] = await db
    .select({ id: users.id, userName: users.userName, email: users.email, firstName: users.firstName, lastName: users.lastName, defaultOrganizationId: users.defaultOrganizationId })
    .from(users)
    .where(eq(users.userName, userName));
  return row;
}

export async function confirmEmail(db: DbOrTx, id: string, at: Date) {
  const rows = await db
    .update(users)
    .set({ emailConfirmedAt: at, modifiedAt: at })
    .where(and(eq(users.id, id), isNull(users.emailConfirmedAt)))
    .returning({ id: users.id });
  return rows.length > 0;
}

export async function countMailsSince(db: DbOrTx, kind: string, toAddress: string, since: Date) {
  const [row] = await db
    .select({ n: count() })
    .from(mailOutbox)
    .where(and(eq(mailOutbox.kind, kind), eq(mailOutbox.toAddress, toAddress), gt(mailOutbox.createdAt, since)));
  return row?.n ?? 0;
}
