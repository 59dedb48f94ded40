import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { conversationMessages } from '@clinicrelay/contracts/conversations.ts';
import { auditEvents } from '../../db/schema/audit.ts';
import { conversations, messageEvents, messages } from '../../db/schema/messages.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { useTestApp } from '../../test/app.ts';

const LAKESIDE_USER = 'user@lakeside.example.org';
const RIVERVIEW_USER = 'user@riverview.example.org';

describe('Tracked referrals', () => {
  const t = useTestApp();
  const db = () => t.handle.db;
  const org: Record<string, string> = {};

  beforeAll(async () => {
    for (const o of await db().select().from(organizations)) org[o.subdomain] = o.id;
  });

  // What send does for a message with Track Fax Responses: a Draft referral conversation and the sent message in it.
  const trackedReferral = async (opts: { subdomain?: string; subject?: string; sentAt?: Date; isDraft?: boolean } = {}) => {
    const organizationId = org[opts.subdomain ?? 'lakeside']!;
    const [conversation] = await db().insert(conversations).values({ organizationId }).returning();
    const [message] = await db()
      .insert(messages)
      .values({
        organizationId,
        direction: 'Outbound',
        subject: opts.subject ?? 'Referral: cardiology consult',
        fromAddress: '5035550101',
        toAddress: '5551234567',
        isDraft: opts.isDraft ?? false,
        status: 'Delivered',
        messageDate: opts.isDraft ? null : (opts.sentAt ?? new Date()),
        patientName: 'Alvarez, Maria',
        trackFaxResponses: true,
        conversationId: conversation!.id,
      })
      .returning();
    return { conversationId: conversation!.id, messageId: message!.id };
  };
  const respond = (conversationId: string, body: object, user = LAKESIDE_USER) => t.call(user, 'POST', `/api/conversations/${conversationId}/respond`, body);

  it('Lakeside chooses the outcome of its referral once; the message shows it, and a second choice is refused', async () => {
    const { conversationId, messageId } = await trackedReferral();
    const before = (await t.call(LAKESIDE_USER, 'GET', `/api/messages/${messageId}`)).json();
    expect(before.conversation).toEqual({ conversationId, type: 'Referral', conversationStatus: 'Draft' });

    const res = await respond(conversationId, { responseToMessageId: messageId, responseType: 'Accepted', responseAction: 'Appointment scheduled for 12/02' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      conversationId,
      type: 'Referral',
      conversationStatus: 'Accepted',
      responseType: 'Accepted',
      responseAction: 'Appointment scheduled for 12/02',
      respondedAt: t.clock.now.toISOString(),
    });
    expect((await t.call(LAKESIDE_USER, 'GET', `/api/messages/${messageId}`)).json().conversation).toEqual({ conversationId, type: 'Referral', conversationStatus: 'Accepted' });

    const again = await respond(conversationId, { responseToMessageId: messageId, responseType: 'Declined' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: conversationMessages.outcomeAlreadyChosen });
    const [row] = await db().select().from(conversations).where(eq(conversations.id, conversationId));
    expect(row).toMatchObject({ conversationStatus: 'Accepted', responseType: 'Accepted' });

    const events = await db().select().from(messageEvents).where(and(eq(messageEvents.messageId, messageId), eq(messageEvents.eventType, 'ReferralOutcome')));
    expect(events).toHaveLength(1);
    expect(events[0]!.details).toEqual({ conversationId, responseType: 'Accepted' });
    const audits = await db().select().from(auditEvents).where(and(eq(auditEvents.correlationId, messageId), eq(auditEvents.eventType, 'ReferralOutcome')));
    expect(audits).toHaveLength(1);
    expect(JSON.stringify(audits[0]!.details)).not.toContain('Appointment');
  });

  it('lets exactly one of two simultaneous outcomes win', async () => {
    const { conversationId, messageId } = await trackedReferral();
    const results = await Promise.all(
      (['Accepted', 'Declined'] as const).map((responseType) => respond(conversationId, { responseToMessageId: messageId, responseType })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const winner = results.find((r) => r.statusCode === 200)!.json().responseType;
    const [row] = await db().select().from(conversations).where(eq(conversations.id, conversationId));
    expect(row!.conversationStatus).toBe(winner);
    expect(await db().select().from(messageEvents).where(and(eq(messageEvents.messageId, messageId), eq(messageEvents.eventType, 'ReferralOutcome')))).toHaveLength(1);
  });

  it('answers 404 for a message outside the conversation, an unknown conversation, and another organization’s referral', async () => {
    const { conversationId, messageId } = await trackedReferral();
    const other = await trackedReferral();
    expect((await respond(conversationId, { responseToMessageId: other.messageId, responseType: 'Completed' })).statusCode).toBe(404);
    expect((await respond('00000000-0000-4000-8000-000000000000', { responseToMessageId: messageId, responseType: 'Completed' })).statusCode).toBe(404);

    const res = await respond(conversationId, { responseToMessageId: messageId, responseType: 'Completed' }, RIVERVIEW_USER);
    expect(res.statusCode).toBe(404);
    const [row] = await db().select().from(conversations).where(eq(conversations.id, conversationId));
    expect(row).toMatchObject({ conversationStatus: 'Draft', respondedAt: null });
  });

  it('refuses an outcome that is not one of the referral outcomes', async () => {
    const { conversationId, messageId } = await trackedReferral();
    const res = await respond(conversationId, { responseToMessageId: messageId, responseType: 'Maybe' });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().modelState)).toEqual(['responseType']);
  });

  it('lists the organization’s tracked referrals, newest first, paged and by status; unsent drafts and other organizations’ are not there', async () => {
    // Only this test gives Riverview tracked referrals, so its list is exactly these.
    const older = await trackedReferral({ subdomain: 'riverview', subject: 'Older referral', sentAt: new Date('2026-01-05T10:00:00Z') });
    const newer = await trackedReferral({ subdomain: 'riverview', subject: 'Newer referral', sentAt: new Date('2026-02-05T10:00:00Z') });
    await trackedReferral({ subdomain: 'riverview', isDraft: true });
    await trackedReferral({ subdomain: 'lakeside', subject: 'Lakeside referral' });
    expect((await respond(older.conversationId, { responseToMessageId: older.messageId, responseType: 'Declined' }, RIVERVIEW_USER)).statusCode).toBe(200);

    const all = await t.call(RIVERVIEW_USER, 'POST', '/api/conversations/tracked', {});
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json()).toEqual({
      totalCount: 2,
      items: [
        {
          conversationId: newer.conversationId,
          type: 'Referral',
          conversationStatus: 'Draft',
          responseType: null,
          responseAction: null,
          respondedAt: null,
          messageId: newer.messageId,
          subject: 'Newer referral',
          toAddress: '5551234567',
          patientName: 'Alvarez, Maria',
          sentDate: '2026-02-05T10:00:00.000Z',
        },
        expect.objectContaining({ conversationId: older.conversationId, conversationStatus: 'Declined', responseType: 'Declined', subject: 'Older referral' }),
      ],
    });

    const second = await t.call(RIVERVIEW_USER, 'POST', '/api/conversations/tracked', { pageStart: 2, pageSize: 1 });
    expect(second.json()).toMatchObject({ totalCount: 2, items: [{ messageId: older.messageId }] });
    const declined = await t.call(RIVERVIEW_USER, 'POST', '/api/conversations/tracked', { statuses: ['Declined'] });
    expect(declined.json()).toMatchObject({ totalCount: 1, items: [{ messageId: older.messageId }] });

    const lakeside = (await t.call(LAKESIDE_USER, 'POST', '/api/conversations/tracked', { pageSize: 100 })).json();
    expect(lakeside.items.map((i: { subject: string }) => i.subject)).toContain('Lakeside referral');
    expect(lakeside.items.map((i: { messageId: string }) => i.messageId)).not.toContain(newer.messageId);
  });
});
