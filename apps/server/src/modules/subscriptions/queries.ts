import { and, asc, desc, eq, gte, or } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { auditEvents } from '../../db/schema/audit.ts';
import { subscriptionPlans } from '../../db/schema/back-office.ts';
import { subscriptionPayments } from '../../db/schema/onboarding.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { memberships, users } from '../../db/schema/users.ts';

export async function findOrganization(db: DbOrTx, id: string) {
  const [row] = await db
    .select({
      id: organizations.id,
      name: organizations.name,
      planId: organizations.planId,
      subscriptionReference: organizations.subscriptionReference,
      cancelledAt: organizations.cancelledAt,
      gracePeriodEndsAt: organizations.gracePeriodEndsAt,
      createdAt: organizations.createdAt,
    })
    .from(organizations)
    .where(eq(organizations.id, id));
  return row;
}

// Locks the organization's row: two plan changes or a change and a cancel of one organization run one after the other.
export async function lockOrganization(db: DbOrTx, id: string) {
  await db.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, id)).for('update');
}

export async function updateOrganization(db: DbOrTx, id: string, values: Partial<typeof organizations.$inferInsert>) {
  await db.update(organizations).set(values).where(eq(organizations.id, id));
}

export function findPlans(db: DbOrTx) {
  return db
    .select({
      id: subscriptionPlans.id,
      name: subscriptionPlans.name,
      allowedUsers: subscriptionPlans.allowedUsers,
      allowedUsersDescription: subscriptionPlans.allowedUsersDescription,
      isFree: subscriptionPlans.isFree,
      priceCents: subscriptionPlans.priceCents,
    })
    .from(subscriptionPlans)
    .orderBy(asc(subscriptionPlans.sortOrder));
}

// Enabled members of the organization: what a plan's allowed users is compared with.
export async function countUsers(db: DbOrTx, organizationId: string) {
  return db.$count(
    db.select({ id: users.id }).from(memberships).innerJoin(users, eq(users.id, memberships.userId)).where(and(eq(memberships.organizationId, organizationId), eq(users.isDisabled, false))).as('members'),
  );
}

export function findAdministrators(db: DbOrTx, organizationId: string) {
  return db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.role, 'Administrator'), eq(users.isDisabled, false)))
    .orderBy(asc(users.userName));
}

export async function findUser(db: DbOrTx, id: string) {
  const [row] = await db.select({ userName: users.userName, firstName: users.firstName, lastName: users.lastName, email: users.email }).from(users).where(eq(users.id, id));
  return row;
}

export async function insertPayment(db: DbOrTx, row: typeof subscriptionPayments.$inferInsert) {
  const [inserted] = await db.insert(subscriptionPayments).values(row).returning();
  return inserted!;
}

export async function findLastCompletedPayment(db: DbOrTx, organizationId: string) {
  const [row] = await db
    .select()
    .from(subscriptionPayments)
    .where(and(eq(subscriptionPayments.organizationId, organizationId), eq(subscriptionPayments.status, 'Completed')))
    .orderBy(desc(subscriptionPayments.completedAt), desc(subscriptionPayments.createdAt))
    .limit(1);
  return row;
}

// A payment of the organization by its order reference, or its latest payment by the subscription reference.
export async function findPaymentByReference(db: DbOrTx, organizationId: string, reference: string, subscriptionReference: string | null) {
  const byOrder = eq(subscriptionPayments.reference, reference);
  const [row] = await db
    .select()
    .from(subscriptionPayments)
    .where(and(eq(subscriptionPayments.organizationId, organizationId), subscriptionReference === reference ? or(byOrder, eq(subscriptionPayments.organizationId, organizationId)) : byOrder))
    .orderBy(desc(subscriptionPayments.createdAt))
    .limit(1);
  return row;
}

// The latest audit row of an event type for the organization since a time (and by a user, when given).
export async function findLatestEvent(db: DbOrTx, organizationId: string, eventType: string, since: Date, userId?: string) {
  const [row] = await db
    .select({ createdAt: auditEvents.createdAt })
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.organizationId, organizationId),
        eq(auditEvents.eventType, eventType),
        gte(auditEvents.createdAt, since),
        ...(userId ? [eq(auditEvents.userId, userId)] : []),
      ),
    )
    .orderBy(desc(auditEvents.createdAt))
    .limit(1);
  return row;
}
