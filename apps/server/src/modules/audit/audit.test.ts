import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { attachments, messages } from '../../db/schema/messages.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { createBlobStore } from '../../platform/blobs/blob-store.ts';
import { testConfig, useTestApp } from '../../test/app.ts';

const LAKESIDE_ADMIN = 'admin@lakeside.example.org';
const LAKESIDE_USER = 'user@lakeside.example.org';
const RIVERVIEW_ADMIN = 'admin@riverview.example.org';

describe('Message activity', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'clinicrelay-audit-'));
  const t = useTestApp({ config: { DATA_DIR: dataDir } });
  const db = () => t.handle.db;
  let lakeside: string;

  beforeAll(async () => {
    lakeside = (await db().select().from(organizations).where(eq(organizations.subdomain, 'lakeside')))[0]!.id;
  });

  const at = (iso: string) => {
    t.clock.now = new Date(iso);
  };
  // A message Lakeside sent (the Activity modal's subject), made directly so nothing else audits it.
  const sentMessage = async () => {
    const [row] = await db()
      .insert(messages)
      .values({ organizationId: lakeside, direction: 'Outbound', isDraft: false, status: 'Delivered', subject: 'Referral: cardiology consult', messageDate: new Date('2026-03-01T12:00:00Z') })
      .returning();
    return row!.id;
  };
  // Signs in at the test clock's time: a token from earlier in the clock's story would have expired.
  const as = async (user: string, method: string, url: string, payload?: object) => t.call((await t.login(user)).accessToken, method, url, payload);
  const draftAs = async (subject: string) => {
    const res = await as(LAKESIDE_USER, 'PUT', '/api/messages', { subject });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().id as string;
  };
  const activity = (id: string, query = '', user = LAKESIDE_ADMIN) => as(user, 'GET', `/api/audit/message/${id}${query}`);

  it('names the activity types for the filter, for administrators only', async () => {
    const res = await t.call(LAKESIDE_ADMIN, 'GET', '/api/audit/types');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(
      expect.arrayContaining([
        { eventType: 'MessageViewed', name: 'Message Viewed' },
        { eventType: 'AttachmentViewed', name: 'Attachment Viewed' },
        { eventType: 'DeliverySummaryDownloaded', name: 'Delivery Summary Downloaded' },
        { eventType: 'ReferralOutcome', name: 'Referral Outcome Chosen' },
        { eventType: 'MessageRead', name: 'Message Read' },
        { eventType: 'MessageProcessed', name: 'Message Processed' },
        { eventType: 'MessageUnprocessed', name: 'Message Unprocessed' },
        { eventType: 'MessageTriaged', name: 'Message Triaged' },
        { eventType: 'MessageDeleted', name: 'Message Deleted' },
        { eventType: 'FailedMessageAcknowledged', name: 'Failed Message Acknowledged' },
      ]),
    );
    expect((await t.call(LAKESIDE_USER, 'GET', '/api/audit/types')).statusCode).toBe(403);
  });

  it('shows who viewed a message and its attachment, newest first, by type, by day and by page', async () => {
    const id = await sentMessage();
    const blobs = createBlobStore({ db: db(), dataDir, key: testConfig({ DATA_DIR: dataDir }).blobEncryptionKey });
    const blob = await blobs.put(new TextEncoder().encode('%PDF-1.4 placeholder'), { organizationId: lakeside });
    const [file] = await db()
      .insert(attachments)
      .values({ messageId: id, organizationId: lakeside, fileName: 'letter.pdf', mimeType: 'application/pdf', sizeInBytes: 20, originalBlobId: blob.id, currentBlobId: blob.id, previewBlobId: blob.id, previewStatus: 'Available' })
      .returning();

    at('2026-03-01T23:30:00Z');
    expect((await as(LAKESIDE_USER, 'GET', `/api/messages/${id}`)).statusCode).toBe(200);
    at('2026-03-02T08:00:00Z');
    expect((await as(LAKESIDE_ADMIN, 'GET', `/api/messages/${id}/attachments/${file!.id}`)).statusCode).toBe(200);
    at('2026-03-03T00:00:00Z');
    expect((await as(LAKESIDE_ADMIN, 'GET', `/api/messages/${id}`)).statusCode).toBe(200);

    const all = await activity(id);
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json()).toEqual({
      totalCount: 3,
      items: [
        { id: expect.any(String), eventType: 'MessageViewed', createdBy: 'Laura Lake', createdOn: '2026-03-03T00:00:00.000Z' },
        { id: expect.any(String), eventType: 'AttachmentViewed', createdBy: 'Laura Lake', createdOn: '2026-03-02T08:00:00.000Z' },
        { id: expect.any(String), eventType: 'MessageViewed', createdBy: 'Leo Shore', createdOn: '2026-03-01T23:30:00.000Z' },
      ],
    });

    const byType = (await activity(id, '?eventTypes=AttachmentViewed,DeliverySummaryDownloaded')).json();
    expect(byType.items.map((i: { eventType: string }) => i.eventType)).toEqual(['AttachmentViewed']);
    // Whole days, both ends included.
    const days = (await activity(id, '?startDate=2026-03-01&endDate=2026-03-02')).json();
    expect(days.items.map((i: { createdOn: string }) => i.createdOn)).toEqual(['2026-03-02T08:00:00.000Z', '2026-03-01T23:30:00.000Z']);
    expect((await activity(id, '?startDate=2026-03-04')).json()).toEqual({ totalCount: 0, items: [] });
    const page2 = (await activity(id, '?pageSize=2&pageStart=2')).json();
    expect(page2).toMatchObject({ totalCount: 3, items: [{ createdBy: 'Leo Shore' }] });

    const bad = await activity(id, '?startDate=03/01/2026');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().modelState).toEqual({ startDate: ['Date is invalid.'] });
    expect((await activity(id, '?endDate=2026-02-31')).json().modelState).toEqual({ endDate: ['Date is invalid.'] });
  });

  it('gives another organization’s administrator 404, and a User 403', async () => {
    const id = await sentMessage();
    expect((await as(LAKESIDE_USER, 'GET', `/api/messages/${id}`)).statusCode).toBe(200);
    expect((await activity(id, '', RIVERVIEW_ADMIN)).statusCode).toBe(404);
    expect((await activity('00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await activity(id, '', LAKESIDE_USER)).statusCode).toBe(403);
  });

  it('lists the organization’s recent message events with subject and user, at /api/messages/events (not taken for a message id)', async () => {
    at('2026-04-01T09:00:00Z');
    const first = await draftAs('First draft');
    at('2026-04-02T09:00:00Z');
    const second = await draftAs('Second draft');
    at('2026-04-03T09:00:00Z');
    expect((await as(LAKESIDE_USER, 'DELETE', `/api/messages/${second}`)).statusCode).toBe(200);
    // A sent message's delete keeps the message and writes its event; a draft's delete removes both.
    await db().update(messages).set({ isDraft: false }).where(eq(messages.id, first));
    expect((await as(LAKESIDE_USER, 'DELETE', `/api/messages/${first}`)).statusCode).toBe(200);

    const res = await as(LAKESIDE_ADMIN, 'GET', '/api/messages/events?start=2026-04-01T00:00:00Z');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().items).toEqual([
      { id: expect.any(String), messageId: first, subject: 'First draft', eventType: 'Deleted', createdBy: 'Leo Shore', createdOn: '2026-04-03T09:00:00.000Z' },
      { id: expect.any(String), messageId: first, subject: 'First draft', eventType: 'DraftCreated', createdBy: 'Leo Shore', createdOn: '2026-04-01T09:00:00.000Z' },
    ]);
    const onlyCreated = (await as(LAKESIDE_ADMIN, 'GET', '/api/messages/events?eventTypes=DraftCreated&pageSize=1')).json();
    expect(onlyCreated.items).toHaveLength(1);
    expect(onlyCreated.items[0]).toMatchObject({ eventType: 'DraftCreated' });

    const riverview = (await as(RIVERVIEW_ADMIN, 'GET', '/api/messages/events')).json();
    expect(riverview.items.map((i: { messageId: string }) => i.messageId)).not.toContain(first);
    expect((await as(LAKESIDE_USER, 'GET', '/api/messages/events')).statusCode).toBe(403);
    expect((await as(LAKESIDE_ADMIN, 'GET', '/api/messages/events?start=yesterday')).statusCode).toBe(400);
  });
});
