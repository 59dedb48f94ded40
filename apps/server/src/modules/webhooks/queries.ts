import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { memberships, userPreferences, users } from '../../db/schema/users.ts';
import { webhookAttempts, webhookDeliveries, webhooks } from '../../db/schema/webhooks.ts';

export type WebhookRow = typeof webhooks.$inferSelect;
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;

export function findPage(db: DbOrTx, organizationId: string) {
  return db.select().from(webhooks).where(eq(webhooks.organizationId, organizationId)).orderBy(webhooks.createdAt, webhooks.id);
}

export async function findById(db: DbOrTx, organizationId: string, id: string): Promise<WebhookRow | undefined> {
  const [row] = await db.select().from(webhooks).where(and(eq(webhooks.organizationId, organizationId), eq(webhooks.id, id)));
  return row;
}

export async function insert(db: DbOrTx, values: typeof webhooks.$inferInsert): Promise<WebhookRow> {
  const [row] = await db.insert(webhooks).values(values).returning();
  return row!;
}

export async function update(db: DbOrTx, id: string, values: Partial<typeof webhooks.$inferInsert>): Promise<WebhookRow> {
  const [row] = await db.update(webhooks).set(values).where(eq(webhooks.id, id)).returning();
  return row!;
}

export async function remove(db: DbOrTx, organizationId: string, id: string): Promise<boolean> {
  const rows = await db.delete(webhooks).where(and(eq(webhooks.organizationId, organizationId), eq(webhooks.id, id))).returning({ id: webhooks.id });
  return rows.length > 0;
}

export function findRecentAttempts(db: DbOrTx, webhookId: string, limit = 50) {
  return db
    .select({
      id: webhookAttempts.id,
      eventId: webhookDeliveries.eventId,
      eventType: webhookDeliveries.eventType,
      attempt: webhookAttempts.attempt,
      attemptedAt: webhookAttempts.attemptedAt,
      statusCode: webhookAttempts.statusCode,
      error: webhookAttempts.error,
      durationMs: webhookAttempts.durationMs,
    })
    .from(webhookAttempts)
    .innerJoin(webhookDeliveries, eq(webhookDeliveries.id, webhookAttempts.deliveryId))
    .where(eq(webhookAttempts.webhookId, webhookId))
    .orderBy(desc(webhookAttempts.attemptedAt), desc(webhookAttempts.attempt))
    .limit(limit);
}

// The organization's enabled webhooks that subscribe to an event type.
export function findSubscribers(db: DbOrTx, organizationId: string, eventType: string) {
  return db
    .select({ id: webhooks.id })
    .from(webhooks)
    .where(and(eq(webhooks.organizationId, organizationId), eq(webhooks.isEnabled, true), sql`${webhooks.events} @> ${JSON.stringify([eventType])}::jsonb`));
}

export async function insertDelivery(db: DbOrTx, values: typeof webhookDeliveries.$inferInsert): Promise<WebhookDeliveryRow> {
  const [row] = await db.insert(webhookDeliveries).values(values).returning();
  return row!;
}

export async function findDelivery(db: DbOrTx, id: string): Promise<WebhookDeliveryRow | undefined> {
  const [row] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
  return row;
}

export async function findWebhook(db: DbOrTx, id: string): Promise<WebhookRow | undefined> {
  const [row] = await db.select().from(webhooks).where(eq(webhooks.id, id));
  return row;
}

// Records try `attempt` of a delivery once: false when another run already recorded it.
export async function recordAttempt(
  db: DbOrTx,
  deliveryId: string,
  attempt: number,
  change: Partial<typeof webhookDeliveries.$inferInsert>,
  values: Omit<typeof webhookAttempts.$inferInsert, 'deliveryId' | 'attempt'>,
): Promise<boolean> {
  const claimed = await db
    .update(webhookDeliveries)
    .set({ ...change, attempts: attempt })
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.attempts, attempt - 1), eq(webhookDeliveries.status, 'Pending')))
    .returning({ id: webhookDeliveries.id });
  if (claimed.length === 0) return false;
  await db.insert(webhookAttempts).values({ ...values, deliveryId, attempt });
  return true;
}

export async function updateDelivery(db: DbOrTx, id: string, values: Partial<typeof webhookDeliveries.$inferInsert>) {
  await db.update(webhookDeliveries).set(values).where(eq(webhookDeliveries.id, id));
}

// The organization's enabled Administrators who take system notifications (issue 13 §5; on unless turned off), told
// when a webhook is disabled.
export function findAdministrators(db: DbOrTx, organizationId: string) {
  return db
    .select({ fullName: sql<string>`trim(${users.firstName} || ' ' || ${users.lastName})`, email: users.email })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .leftJoin(userPreferences, eq(userPreferences.userId, users.id))
    .where(
      and(
        eq(memberships.organizationId, organizationId),
        eq(memberships.role, 'Administrator'),
        eq(users.isDisabled, false),
        sql`coalesce(${userPreferences.emailSystemNotifications}, true)`,
      ),
    )
    .orderBy(asc(users.userName));
}

// Adds a note to a recorded try's error (the try that paused the webhook says so in the attempt log).
export async function noteOnAttempt(db: DbOrTx, deliveryId: string, attempt: number, note: string) {
  await db
    .update(webhookAttempts)
    .set({ error: sql`coalesce(${webhookAttempts.error}, '') || ${note}` })
    .where(and(eq(webhookAttempts.deliveryId, deliveryId), eq(webhookAttempts.attempt, attempt)));
}
