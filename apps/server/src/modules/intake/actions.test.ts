import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { intakeMessages, messageStatusNumbers } from '@clinicrelay/contracts/intake.ts';
import { auditEvents } from '../../db/schema/audit.ts';
import { messageEvents, messages } from '../../db/schema/messages.ts';
import { useTestApp } from '../../test/app.ts';
import { DEMO, insertInbound, sourceIdOf, userIdOf } from './test-inbound.ts';

const TAG = 'actions-story';

describe('Working a received message: process, read, triage, delete, acknowledge, notifications', () => {
  const t = useTestApp();
  const db = () => t.handle.db;
  const rowOf = async (id: string) => (await db().select().from(messages).where(eq(messages.id, id)))[0]!;
  const eventsOf = async (id: string) => (await db().select().from(messageEvents).where(eq(messageEvents.messageId, id))).map((e) => e.eventType);
  const auditOf = async (id: string) => (await db().select().from(auditEvents).where(eq(auditEvents.correlationId, id))).map((e) => e.eventType);
  let rayId: string;

  beforeAll(async () => {
    rayId = await userIdOf(db(), DEMO.riverviewUser);
  });

  it('processes a message as Printed with a new subject, then unprocesses it, with the spec’s texts', async () => {
    const { id } = await insertInbound(db(), { subject: `${TAG} referral` });
    const processed = await t.call(DEMO.riverviewUser, 'PUT', `/api/messages/${id}/process`, { isProcessed: true, processType: 'Printed', subject: `${TAG} referral (printed)` });
    expect(processed.statusCode, processed.body).toBe(200);
    expect(processed.json()).toEqual({ message: 'The message has been successfully processed.' });
    expect(await rowOf(id)).toMatchObject({ isProcessed: true, processedType: 'Printed', status: 'Processed', subject: `${TAG} referral (printed)` });

    const undone = await t.call(DEMO.riverviewUser, 'PUT', `/api/messages/${id}/process`, { isProcessed: false });
    expect(undone.json()).toEqual({ message: intakeMessages.statusChanged('unprocessed') });
    expect(await rowOf(id)).toMatchObject({ isProcessed: false, processedType: null, status: 'Received', subject: `${TAG} referral (printed)` });
    expect(await eventsOf(id)).toEqual(['Processed', 'Unprocessed']);
    expect(await auditOf(id)).toEqual(['MessageProcessed', 'MessageUnprocessed']);
    expect((await t.call(DEMO.riverviewUser, 'PUT', `/api/messages/${id}/process`, { isProcessed: true, processType: 'Faxed' })).statusCode).toBe(400);
  });

  it('marks a message read once: Received turns Read (still counted as Received), other statuses stay', async () => {
    const { id } = await insertInbound(db(), { subject: `${TAG} to read` });
    const first = await t.call(DEMO.riverviewUser, 'PUT', `/api/messages/${id}/read`);
    expect(first.json()).toEqual({ id, isRead: true, status: 'Read', statusNumber: messageStatusNumbers.Received });
    const again = await t.call(DEMO.riverviewUser, 'PUT', `/api/messages/${id}/read`);
    expect(again.json()).toEqual(first.json());
    expect(await eventsOf(id)).toEqual(['Read']);
    const listed = (await t.call(DEMO.riverviewUser, 'POST', '/api/messages', { filter: `${TAG} to read`, statuses: [messageStatusNumbers.Received] })).json();
    expect(listed.items).toEqual([expect.objectContaining({ id, isRead: true, status: 'Read', statusNumber: messageStatusNumbers.Received })]);

    const processed = await insertInbound(db(), { subject: `${TAG} processed`, status: 'Processed' });
    expect((await t.call(DEMO.riverviewUser, 'PUT', `/api/messages/${processed.id}/read`)).json()).toMatchObject({ isRead: true, status: 'Processed' });
  });

  it('triages a message to another address and a user; a triaged message cannot be replied to', async () => {
    const { id } = await insertInbound(db(), { subject: `${TAG} misrouted`, to: DEMO.riverviewFax, sourceType: 'Fax' });
    const direct = await sourceIdOf(db(), DEMO.riverviewDirect);
    const res = await t.call(DEMO.riverviewAdmin, 'POST', `/api/messages/${id}/triage`, { documentSourceId: direct.id, userId: rayId });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: intakeMessages.triaged });
    expect(await rowOf(id)).toMatchObject({ toAddress: DEMO.riverviewDirect, assignedUserId: rayId, sourceType: 'Triage', status: 'Triaged' });
    expect(await eventsOf(id)).toEqual(['Triaged']);
    // Ray now sees it, and it is his.
    const mine = (await t.call(DEMO.riverviewUser, 'POST', '/api/messages', { filter: `${TAG} misrouted`, isAssignedToSelf: true })).json();
    expect(mine.items.map((i: { id: string }) => i.id)).toEqual([id]);

    const draft = (await t.call(DEMO.riverviewUser, 'PUT', '/api/messages', { originalObjectId: id, subject: `RE: ${TAG} misrouted`, toAddress: DEMO.lakesideDirect, fromAddress: DEMO.riverviewDirect })).json();
    const reply = await t.call(DEMO.riverviewUser, 'POST', `/api/messages/${draft.id}/reply`);
    expect(reply.statusCode).toBe(400);
    expect(reply.json()).toEqual({ message: 'A message opened from Triage cannot be replied to.' });
    expect((await rowOf(draft.id)).isDraft).toBe(true);
  });

  it('refuses triage to another organization’s address or user, or to nothing', async () => {
    const { id } = await insertInbound(db(), { subject: `${TAG} stays` });
    const lakesideSource = await sourceIdOf(db(), DEMO.lakesideDirect);
    const badSource = await t.call(DEMO.riverviewAdmin, 'POST', `/api/messages/${id}/triage`, { documentSourceId: lakesideSource.id });
    expect(badSource.statusCode).toBe(400);
    expect(badSource.json().message).toBe(intakeMessages.documentSourceNotInOrganization);
    const badUser = await t.call(DEMO.riverviewAdmin, 'POST', `/api/messages/${id}/triage`, { userId: await userIdOf(db(), DEMO.lakesideUser) });
    expect(badUser.json()).toMatchObject({ message: intakeMessages.userNotInOrganization });
    const nothing = await t.call(DEMO.riverviewAdmin, 'POST', `/api/messages/${id}/triage`, {});
    expect(nothing.statusCode).toBe(400);
    expect(await rowOf(id)).toMatchObject({ status: 'Received', sourceType: 'Direct', assignedUserId: null });
  });

  it('deletes a received message softly: "Your message is being deleted", gone from the list, audited', async () => {
    const { id } = await insertInbound(db(), { subject: `${TAG} to delete` });
    const res = await t.call(DEMO.riverviewUser, 'DELETE', `/api/messages/${id}`);
    expect(res.json()).toEqual({ message: 'Your message is being deleted' });
    expect((await rowOf(id)).deletedAt).not.toBeNull();
    expect((await t.call(DEMO.riverviewUser, 'POST', '/api/messages', { filter: `${TAG} to delete` })).json().totalCount).toBe(0);
    expect((await t.call(DEMO.riverviewUser, 'GET', `/api/messages/${id}`)).statusCode).toBe(404);
    expect(await auditOf(id)).toContain('MessageDeleted');
  });

  it('acknowledges failed messages one by one or all at once; acknowledged ones leave the failed count', async () => {
    const one = await insertInbound(db(), { subject: `${TAG} failed one`, status: 'Failed' });
    const two = await insertInbound(db(), { subject: `${TAG} failed two`, status: 'Failed' });
    const hidden = await insertInbound(db(), { subject: `${TAG} failed on the fax`, status: 'Failed', to: DEMO.riverviewFax });
    const failedCount = async (user: string) => (await t.call(user, 'POST', '/api/messages', {})).json().counts.failed;
    const before = await failedCount(DEMO.riverviewUser);

    expect((await t.call(DEMO.riverviewUser, 'PUT', `/api/failedmessages/${one.id}/acknowledge`)).json()).toEqual({ acknowledged: 1 });
    expect((await t.call(DEMO.riverviewUser, 'PUT', `/api/failedmessages/${one.id}/acknowledge`)).json()).toEqual({ acknowledged: 0 });
    expect(await failedCount(DEMO.riverviewUser)).toBe(before - 1);
    // A message that did not fail is not a failed message.
    const fine = await insertInbound(db(), { subject: `${TAG} fine` });
    expect((await t.call(DEMO.riverviewUser, 'PUT', `/api/failedmessages/${fine.id}/acknowledge`)).statusCode).toBe(404);

    // All: only what Ray sees; the fax number's failure waits for someone who sees it.
    const all = (await t.call(DEMO.riverviewUser, 'POST', '/api/failedmessages/acknowledgeall')).json();
    expect(all.acknowledged).toBeGreaterThanOrEqual(1);
    expect((await rowOf(two.id)).failedAcknowledgedAt).not.toBeNull();
    expect((await rowOf(hidden.id)).failedAcknowledgedAt).toBeNull();
    expect(await failedCount(DEMO.riverviewUser)).toBe(0);
    expect(await failedCount(DEMO.riverviewAdmin)).toBe(1);
    expect(await eventsOf(two.id)).toEqual(['FailedAcknowledged']);
  });

  it('lists the caller’s notifications: the newest events of messages they may see', async () => {
    const seen = await insertInbound(db(), { subject: `${TAG} notify seen` });
    const unseen = await insertInbound(db(), { subject: `${TAG} notify unseen`, to: DEMO.riverviewFax });
    await t.call(DEMO.riverviewAdmin, 'PUT', `/api/messages/${seen.id}/read`);
    await t.call(DEMO.riverviewAdmin, 'PUT', `/api/messages/${unseen.id}/read`);
    const ray = await t.call(DEMO.riverviewUser, 'GET', '/api/events');
    expect(ray.statusCode).toBe(200);
    const items = ray.json<{ messageId: string; type: string; subject: string; createdOn: string }[]>();
    expect(items.length).toBeLessThanOrEqual(20);
    expect(items).toContainEqual(expect.objectContaining({ messageId: seen.id, type: 'Read', subject: `${TAG} notify seen` }));
    expect(items.map((i) => i.messageId)).not.toContain(unseen.id);
    expect((await t.call(DEMO.riverviewAdmin, 'GET', '/api/events')).json().map((i: { messageId: string }) => i.messageId)).toContain(unseen.id);
    expect((await t.call(DEMO.lakesideAdmin, 'GET', '/api/events')).json().map((i: { messageId: string }) => i.messageId)).not.toContain(seen.id);
  });

  it('answers 404 to Lakeside for every action on Riverview’s message, and nothing changes', async () => {
    const { id } = await insertInbound(db(), { subject: `${TAG} riverview only`, status: 'Failed' });
    const before = await rowOf(id);
    const lakesideSource = await sourceIdOf(db(), DEMO.lakesideDirect);
    for (const user of [DEMO.lakesideUser, DEMO.lakesideAdmin]) {
      const calls: [string, string, object?][] = [
        ['PUT', `/api/messages/${id}/process`, { isProcessed: true, processType: 'Printed' }],
        ['PUT', `/api/messages/${id}/read`],
        ['POST', `/api/messages/${id}/triage`, { documentSourceId: lakesideSource.id }],
        ['DELETE', `/api/messages/${id}`],
        ['PUT', `/api/failedmessages/${id}/acknowledge`],
        ['GET', `/api/messages/${id}`],
      ];
      for (const [method, url, body] of calls) {
        const res = await t.call(user, method, url, body);
        expect(res.statusCode, `${user} ${method} ${url}`).toBe(404);
        expect(res.json()).toEqual({ message: expect.any(String) });
      }
    }
    await t.call(DEMO.lakesideAdmin, 'POST', '/api/failedmessages/acknowledgeall');
    expect(await rowOf(id)).toEqual(before);
    expect(await eventsOf(id)).toEqual([]);
  });
});
