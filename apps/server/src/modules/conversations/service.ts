import type { z } from 'zod';
import { conversationMessages, type Conversation, type RespondRequest, type trackedList, type trackedRequest } from '@clinicrelay/contracts/conversations.ts';
import { splitAddresses } from '@clinicrelay/contracts/messages.ts';
import type { Database } from '../../db/client.ts';
import { auditListViewed, writeAudit } from '../../platform/audit.ts';
import type { OrgCaller } from '../../platform/auth/guard.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { messageVisibleTo, viewerOf } from '../intake/queries.ts';
import * as messagesQ from '../messages/queries.ts';
import * as q from './queries.ts';

export interface ConversationsDeps {
  db: Database;
  now: () => Date;
}

export type Caller = OrgCaller;

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

export function toConversation(row: q.ConversationRow): Conversation {
  return {
    conversationId: row.id,
    type: row.type,
    conversationStatus: row.conversationStatus,
    responseType: row.responseType,
    responseAction: row.responseAction,
    respondedAt: iso(row.respondedAt),
  };
}

// POST /api/conversations/{id}/respond: the tracked referral's outcome, chosen once.
export async function respond(deps: ConversationsDeps, caller: Caller, id: string, body: RespondRequest): Promise<Conversation> {
  const conversation = await q.findById(deps.db, caller.organizationId, id);
  if (!conversation) throw notFound();
  const message = await messagesQ.findById(deps.db, caller.organizationId, body.responseToMessageId, messageVisibleTo(viewerOf(caller)));
  if (!message || message.conversationId !== id) throw notFound();
  const now = deps.now();
  const updated = await deps.db.transaction(async (tx) => {
    const row = await q.setOutcomeOnce(tx, caller.organizationId, id, {
      conversationStatus: body.responseType,
      responseType: body.responseType,
      responseAction: body.responseAction || null,
      respondedAt: now,
    });
    if (!row) throw new AppError(409, conversationMessages.outcomeAlreadyChosen);
    // The action is free text that may name the patient: it stays out of events and audit details.
    await messagesQ.insertEvent(tx, {
      messageId: message.id,
      organizationId: caller.organizationId,
      userId: caller.session.userId,
      eventType: 'ReferralOutcome',
      details: { conversationId: id, responseType: body.responseType },
      createdAt: now,
    });
    await writeAudit(
      tx,
      {
        eventType: 'ReferralOutcome',
        userId: caller.session.userId,
        userName: caller.session.userName,
        organizationId: caller.organizationId,
        ip: caller.ip ?? null,
        correlationId: message.id,
        details: { conversationId: id, responseType: body.responseType },
      },
      now,
    );
    return row;
  });
  return toConversation(updated);
}

// POST /api/conversations/tracked: the organization's tracked referrals with the message that opened each.
export async function tracked(deps: ConversationsDeps, caller: Caller, body: z.infer<typeof trackedRequest>): Promise<z.infer<typeof trackedList>> {
  const page = await q.findTrackedPage(
    deps.db,
    { organizationId: caller.organizationId, statuses: body.statuses },
    { offset: (body.pageStart - 1) * body.pageSize, limit: body.pageSize },
  );
  await auditListViewed(deps.db, caller, 'TrackedReferrals', { count: page.items.length, totalCount: page.totalCount, pageStart: body.pageStart }, deps.now());
  return {
    totalCount: page.totalCount,
    items: page.items.map(({ conversations: c, messages: m }) => ({
      ...toConversation(c),
      messageId: m.id,
      subject: m.subject,
      toAddress: splitAddresses(m.toAddress).join(';'),
      patientName: m.patientName,
      sentDate: iso(m.messageDate),
    })),
  };
}
