import 'reflect-metadata'; // @peculiar/x509 throws at load time without it
import * as x509 from '@peculiar/x509';
import { and, eq, isNotNull, lt, or } from 'drizzle-orm';
import { deliveryReasons, type DeliveryStage } from '@clinicrelay/contracts/delivery.ts';
import type { Database, DbOrTx } from '../../db/client.ts';
import { deliveries, deliveryEvents, messages } from '../../db/schema/messages.ts';
import type { DeliveryStatus, Disposition } from '../../platform/direct/mdn.ts';
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

// The domains a certificate speaks for: those of its SAN rfc822Names and its SAN dNSNames (a domain-bound certificate).
function certificateDomains(der: Uint8Array): Set<string> {
  try {
    const names = new x509.X509Certificate(der).getExtension(x509.SubjectAlternativeNameExtension)?.names.items ?? [];
    return new Set(names.flatMap((name) => (name.type === 'email' ? [name.value.slice(name.value.lastIndexOf('@') + 1).toLowerCase()] : name.type === 'dns' ? [name.value.toLowerCase()] : [])));
  } catch {
    return new Set();
  }
}

/** Who sent a notice: its (signed) From address and the certificate that signed it, already trusted by openMessage. */
export interface NoticeOrigin {
  from: string;
  signer: Uint8Array;
}

/**
 * The delivery a notice (MDN or DSN) reports on, as the Implementation Guide for Delivery Notification correlates
 * them: the Message-ID we sent (one per recipient) and the recipient the notice names (Final-Recipient, or
 * Original-Recipient for senders that put the wrong address in the former; From only when it names neither). Any
 * address of the recipient's HISP may send it (postmaster@, a gateway), but only with a certificate of the
 * recipient's domain: no other HISP can move a delivery that is not to its own domain.
 */
async function reportedDelivery(db: DbOrTx, originalMessageId: string, named: (string | null)[], origin: NoticeOrigin) {
  const rows = await db
    .select({ id: deliveries.id, organizationId: deliveries.organizationId, messageId: deliveries.messageId, recipient: deliveries.recipient })
    .from(deliveries)
    .where(eq(deliveries.directMessageId, originalMessageId));
  const addresses = named.filter((address): address is string => !!address).map((address) => address.toLowerCase());
  const wanted = addresses.length > 0 ? addresses : [origin.from.toLowerCase()];
  const delivery = rows.find((row) => wanted.includes(row.recipient.toLowerCase()));
  if (!delivery) return null;
  const domain = delivery.recipient.slice(delivery.recipient.lastIndexOf('@') + 1).toLowerCase();
  return certificateDomains(origin.signer).has(domain) ? delivery : null;
}

/**
 * An MDN from a recipient's HISP moves that recipient's timeline: processed (decrypted and trusted there), dispatched
 * (delivered to the recipient: Delivered), failed (with its reason, at once). The delivery is found by the Message-ID
 * we sent and the recipient the MDN reports for (reportedDelivery), so an MDN can only touch the delivery it answers.
 */
export async function applyNotification(
  db: Database,
  mdn: { originalMessageId: string; disposition: Disposition; failure: string | null; finalRecipient: string | null; originalRecipient: string | null },
  origin: NoticeOrigin,
  at: Date,
): Promise<boolean> {
  const delivery = await reportedDelivery(db, mdn.originalMessageId, [mdn.finalRecipient, mdn.originalRecipient], origin);
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

/**
 * A DSN (RFC 3464) fails each recipient it reports as failed, at once, with its status and diagnostic as the reason;
 * other actions (delayed, relayed, delivered) are not final in Direct and change nothing. Returns how many it failed.
 */
export async function applyDeliveryStatus(db: Database, dsn: DeliveryStatus, origin: NoticeOrigin, at: Date): Promise<number> {
  let failed = 0;
  for (const entry of dsn.recipients) {
    if (entry.action !== 'failed') continue;
    const delivery = await reportedDelivery(db, dsn.originalMessageId, [entry.finalRecipient, entry.originalRecipient], origin);
    if (!delivery) continue;
    const detail = [entry.status, entry.diagnostic].filter(Boolean).join(' ');
    await db.transaction((tx) => failDelivery(tx, delivery, `The recipient’s HISP could not deliver it${detail ? `: ${detail}` : '.'}`, at));
    mdnOutcomesTotal.inc({ outcome: 'failed' });
    failed++;
  }
  return failed;
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
