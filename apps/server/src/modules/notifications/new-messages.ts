import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../db/client.ts';
import { messages } from '../../db/schema/messages.ts';
import { newMessageNotices } from '../../db/schema/notifications.ts';
import { userPreferences, users, memberships } from '../../db/schema/users.ts';
import { workflows } from '../../db/schema/workflows.ts';
import { queueMail } from '../../platform/mail/outbox.ts';
import type { MailAddress } from '../../platform/mail/settings.ts';
import type { WorkflowHandler } from '../../platform/workflows/context.ts';
import { enqueue } from '../../platform/workflows/enqueue.ts';
import { audienceOf } from './audience.ts';
import { notificationMail } from './mails.ts';

export const NEW_MESSAGE_NOTICES_WORKFLOW = 'new-message-notices';

// The first message of a quiet spell starts a minute; everything arriving in it goes out in the same mail.
export const NEW_MESSAGE_GROUPING_MS = 60_000;

// A user without saved preferences has the column default (on).
const newMessagesOn = sql<boolean>`coalesce(${userPreferences.emailNewMessages}, true)`;

// Called in the transaction that stores a received message in Intake (transports/local.ts receiveHere): a pending
// notice per user of its audience who wants new-message mails, and, unless one is already waiting, the organization's
// sending run a minute from now. Repeated for the same message (a retried delivery), it adds nothing.
export async function recordNewMessageNotices(tx: DbOrTx, message: { organizationId: string; messageId: string; at: Date }): Promise<number> {
  const audience = await audienceOf(tx, message);
  if (audience.length === 0) return 0;
  const wanting = await tx
    .select({ userId: users.id })
    .from(users)
    .leftJoin(userPreferences, eq(userPreferences.userId, users.id))
    .where(and(inArray(users.id, audience), newMessagesOn));
  if (wanting.length === 0) return 0;
  const inserted = await tx
    .insert(newMessageNotices)
    .values(wanting.map((w) => ({ userId: w.userId, messageId: message.messageId, organizationId: message.organizationId, createdAt: message.at })))
    .onConflictDoNothing()
    .returning({ userId: newMessageNotices.userId });
  if (inserted.length === 0) return 0;
  const [waiting] = await tx
    .select({ id: workflows.id })
    .from(workflows)
    .where(and(eq(workflows.type, NEW_MESSAGE_NOTICES_WORKFLOW), eq(workflows.correlationId, message.organizationId), eq(workflows.status, 'Pending')))
    .limit(1);
  // Two receipts racing may both start a run: the second finds the notices sent and mails nothing.
  if (!waiting) {
    await enqueue(tx, {
      type: NEW_MESSAGE_NOTICES_WORKFLOW,
      organizationId: message.organizationId,
      correlationId: message.organizationId,
      payload: { organizationId: message.organizationId },
      runAfter: new Date(message.at.getTime() + NEW_MESSAGE_GROUPING_MS),
    });
  }
  return inserted.length;
}

export interface NotificationMailDeps {
  db: Database;
  now: () => Date;
  mailFrom: MailAddress;
  publicUrl: string;
}

// The 'new-message-notices' workflow: one mail per user with the count of their pending notices, queued in the
// transaction that marks those notices sent. A run whose worker dies before the commit leaves them pending for the
// retry; a run repeated after the commit finds nothing pending. Either way no notice is lost or mailed twice.
export function newMessageNoticesWorkflow(deps: NotificationMailDeps): WorkflowHandler {
  return async (ctx) => {
    const { organizationId } = ctx.workflow.payload as { organizationId?: string };
    if (!organizationId) return;
    await deps.db.transaction(async (tx) => {
      // Locked, not skipped: a concurrent run waits, then finds these sent (one mail per user).
      const pending = await tx
        .select({ userId: newMessageNotices.userId, messageId: newMessageNotices.messageId })
        .from(newMessageNotices)
        .where(and(eq(newMessageNotices.organizationId, organizationId), isNull(newMessageNotices.sentAt)))
        .for('update');
      if (pending.length === 0) return;
      const now = deps.now();
      const byUser = new Map<string, string[]>();
      for (const p of pending) byUser.set(p.userId, [...(byUser.get(p.userId) ?? []), p.messageId]);
      const recipients = await tx
        .select({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName, wants: newMessagesOn })
        .from(users)
        .innerJoin(memberships, and(eq(memberships.userId, users.id), eq(memberships.organizationId, organizationId)))
        .leftJoin(userPreferences, eq(userPreferences.userId, users.id))
        .where(and(inArray(users.id, [...byUser.keys()]), eq(users.isDisabled, false)));
      // Messages deleted within the minute are not counted.
      const live = new Set(
        (
          await tx
            .select({ id: messages.id })
            .from(messages)
            .where(and(inArray(messages.id, [...new Set(pending.map((p) => p.messageId))]), isNull(messages.deletedAt)))
        ).map((m) => m.id),
      );
      for (const [userId, messageIds] of byUser) {
        const user = recipients.find((r) => r.id === userId);
        const count = messageIds.filter((id) => live.has(id)).length;
        // A user who turned the mail off, left or was disabled meanwhile: the notices are settled without a mail.
        const mailId =
          user?.wants && count > 0
            ? await queueMail(tx, {
                kind: 'NewMessages',
                organizationId,
                from: deps.mailFrom,
                to: { name: `${user.firstName} ${user.lastName}`.trim(), address: user.email },
                ...notificationMail('NewMessages', count, deps.publicUrl),
                queuedAt: now,
              })
            : null;
        await tx
          .update(newMessageNotices)
          .set({ sentAt: now, mailId })
          .where(and(eq(newMessageNotices.userId, userId), inArray(newMessageNotices.messageId, messageIds), isNull(newMessageNotices.sentAt)));
      }
    });
  };
}
