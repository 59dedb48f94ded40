import { and, desc, eq, gte } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { auditEvents } from '../../db/schema/audit.ts';
import { organizations } from '../../db/schema/organizations.ts';

export async function findOrganization(db: DbOrTx, id: string) {
  const [row] = await db
    .select({
      id: organizations.id,
      name: organizations.name,
      planId: organizations.planId,
      subscriptionReference: organizations.subscriptionReference,
      cancelledAt: organizations.cancelledAt,
      gracePeriodEndsAt: organizations.gracePeriodEndsAt,
    })
    .from(organizations)
    .where(eq(organizations.id, id));
  return row;
}

// The latest audit row of an event type for the organization since a time.
export async function findLatestEvent(db: DbOrTx, organizationId: string, eventType: string, since: Date) {
  const [row] = await db
    .select({ createdAt: auditEvents.createdAt })
    .from(auditEvents)
    .where(and(eq(auditEvents.organizationId, organizationId), eq(auditEvents.eventType, eventType), gte(auditEvents.createdAt, since)))
    .orderBy(desc(auditEvents.createdAt))
    .limit(1);
  return row;
}
