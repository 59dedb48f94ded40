import { and, eq, isNotNull, lt, or, sql } from 'drizzle-orm';
import { deliveryReasons, type DeliveryStage } from '@clinicrelay/contracts/delivery.ts';
import type { Database, DbOrTx } from '../../db/client.ts';
import { deliveries, deliveryEvents, messages } from '../../db/schema/messages.ts';
import type { Disposition } from '../../platform/direct/mdn.ts';
import { emitDeliveryOutcome } from '../../modules/webhooks/delivery-workflow.ts';
import { mdnOutcomesTotal } from '../../platform/metrics/metrics.ts';

type DeliveryRef = { id: string; organizationId: string; messageId: string };

// One row per stage: a repeated MDN or a replayed step changes nothing.
export async function recordStage(db: DbOrTx, delivery: DeliveryRef, stage: DeliveryStage, detail: string | null, at: Date) {
  await db.insert(deliveryEvents).values({ deliveryId: delivery.id, organizationId: delivery.organizationId, stage, detail, createdAt: at }).onConflictDoNothing();
}

// The message's status from its recipients, as the send workflow sets it when it finishes.
export async function settleMessage(db: DbOrTx, messageId: string, at: Date) {
  const rows = await db.select({ status: deliveries.status }).from(deliveries).where(eq(deliveries.messageId, messageId));
  const status = rows.some((d) => d.status === 'Failed') ? 'Failed' : rows.some((d) => d.status === 'Pending') ? 'Pending' : 'Delivered';
  await db.update(messages).set({ status, isReadyForDeliverySummary: !rows.some((d) => d.status === 'Pending'), updatedDate: at }).where(eq(messages.id, messageId));
}

async function failDelivery(db: DbOrTx, delivery: DeliveryRef, reason: string, at: Date) {
  await recordStage(db, delivery, 'Failed', reason, at);
  const failed = await db
    .update(deliveries)
    .set({ status: 'Failed', reason, notificationDueAt: null, updatedAt: at })
    .where(and(eq(deliveries.id, delivery.id), eq(deliveries.status, 'Pending')))
    .returning({ id: deliveries.id });
  if (failed.length) await emitDeliveryOutcome(db, delivery, 'Failed', at);
  await settleMessage(db, delivery.messageId, at);
}

/**
 * An MDN from a recipient's HISP moves that recipient's timeline: processed (decrypted and trusted there), dispatched
 * (delivered to the recipient: Delivered), failed (with its reason). The delivery is found by the Message-ID we sent
 * and the address the MDN reports for, so an MDN can only touch the delivery it answers.
 */
export async function applyNotification(
  db: Database,
  mdn: { originalMessageId: string; disposition: Disposition; failure: string | null; from: string },
  at: Date,
): Promise<boolean> {
  const [delivery] = await db
    .select({ id: deliveries.id, organizationId: deliveries.organizationId, messageId: deliveries.messageId, status: deliveries.status })
    .from(deliveries)
    .where(and(eq(deliveries.directMessageId, mdn.originalMessageId), sql`lower(${deliveries.recipient}) = ${mdn.from.toLowerCase()}`));
  if (!delivery) return false;
  await db.transaction(async (tx) => {
    if (mdn.disposition === 'processed') {
      await recordStage(tx, delivery, 'Processed', null, at);
      await tx.update(deliveries).set({ reason: deliveryReasons.directProcessed, updatedAt: at }).where(and(eq(deliveries.id, delivery.id), eq(deliveries.status, 'Pending')));
    } else if (mdn.disposition === 'dispatched') {
      await recordStage(tx, delivery, 'Dispatched', null, at);
      // A late notification corrects a recipient failed only for want of one: it was delivered after all (and its
      // webhooks hear 'delivered' after 'deliveryFailed': one event per outcome).
      const dispatched = await tx
        .update(deliveries)
        .set({ status: 'Delivered', reason: deliveryReasons.directDispatched, deliveredAt: at, notificationDueAt: null, updatedAt: at })
        .where(
          and(
            eq(deliveries.id, delivery.id),
            or(eq(deliveries.status, 'Pending'), and(eq(deliveries.status, 'Failed'), eq(deliveries.reason, deliveryReasons.noNotification))),
          ),
        )
        .returning({ id: deliveries.id });
      if (dispatched.length) await emitDeliveryOutcome(tx, delivery, 'Delivered', at);
      await settleMessage(tx, delivery.messageId, at);
    } else if (mdn.disposition === 'failed' || mdn.disposition === 'deleted') {
      await failDelivery(tx, delivery, mdn.failure ? `The recipient’s HISP could not deliver it: ${mdn.failure}` : 'The recipient’s HISP could not deliver it.', at);
    }
  });
  mdnOutcomesTotal.inc({ outcome: mdn.disposition });
  return true;
}

export async function markFailed(db: Database, delivery: DeliveryRef, reason: string, at: Date) {
  await db.transaction((tx) => failDelivery(tx, delivery, reason, at));
}

/** Recipients sent over Direct whose delivery notification is overdue turn failed: "No delivery notification received". */
export async function failOverdueDeliveries(db: Database, now: Date): Promise<number> {
  const overdue = await db
    .select({ id: deliveries.id, organizationId: deliveries.organizationId, messageId: deliveries.messageId })
    .from(deliveries)
    .where(and(eq(deliveries.status, 'Pending'), isNotNull(deliveries.notificationDueAt), lt(deliveries.notificationDueAt, now)));
  for (const delivery of overdue) await markFailed(db, delivery, deliveryReasons.noNotification, now);
  if (overdue.length) mdnOutcomesTotal.inc({ outcome: 'timeout' }, overdue.length);
  return overdue.length;
}
