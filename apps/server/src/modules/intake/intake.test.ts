import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { messageStatusNumbers } from '@clinicrelay/contracts/intake.ts';
import { blobs } from '../../db/schema/blobs.ts';
import { documentSources } from '../../db/schema/document-sources.ts';
import { attachments, messages } from '../../db/schema/messages.ts';
import { useTestApp } from '../../test/app.ts';

const LAKESIDE_USER = 'user@lakeside.example.org';
const LAKESIDE_ADMIN = 'admin@lakeside.example.org';
// The filter stories are told by Riverview's administrator, who sees the whole organization
// (what a User sees is the story of visibility.test.ts).
const RIVERVIEW_ADMIN = 'admin@riverview.example.org';
const RIVERVIEW_DIRECT = 'referrals@riverview.direct.example.org';
const RIVERVIEW_FAX = '5035550202';
const LAKESIDE_DIRECT = 'intake@lakeside.direct.example.org';
const LAKESIDE_FAX = '5035550101';
const DAY_MS = 86_400_000;
// Every message this file makes carries the tag, so other seeded messages never change its counts.
const TAG = 'intake-story';

describe('Intake list (POST /api/messages)', () => {
  const t = useTestApp();
  const db = () => t.handle.db;
  let orgOf: Record<string, string>;
  let sourceIdOf: Record<string, string>;
  let blobId: string;
  const todayStart = () => new Date(`${t.clock.now.toISOString().slice(0, 10)}T00:00:00Z`);
  const daysAgo = (days: number, ms = 0) => new Date(todayStart().getTime() - days * DAY_MS + ms);
  const isoDay = (d: Date) => d.toISOString().slice(0, 10);

  interface Inbound {
    subject: string;
    to?: string;
    from?: string;
    receivedAt?: Date;
    updatedAt?: Date;
    status?: string;
    sourceType?: 'Direct' | 'Fax' | 'Upload' | 'DeliverySummary' | 'Triage';
    processedType?: string | null;
    patientName?: string | null;
    faxPageCount?: number;
    attachmentsRead?: boolean[];
    deleted?: boolean;
    direction?: 'Inbound' | 'Outbound';
  }
  const inbound = async (m: Inbound) => {
    const to = m.to ?? RIVERVIEW_DIRECT;
    const receivedAt = m.receivedAt ?? daysAgo(1);
    const [row] = await db()
      .insert(messages)
      .values({
        organizationId: orgOf[to]!,
        direction: m.direction ?? 'Inbound',
        subject: `${TAG} ${m.subject}`,
        fromAddress: m.from ?? LAKESIDE_DIRECT,
        toAddress: to,
        isDraft: false,
        status: m.status ?? 'Received',
        sourceType: m.sourceType ?? 'Direct',
        processedType: m.processedType ?? null,
        isProcessed: !!m.processedType,
        patientName: m.patientName ?? null,
        messageDate: receivedAt,
        systemReceivedDate: receivedAt,
        createdDate: receivedAt,
        updatedDate: m.updatedAt ?? receivedAt,
        properties: m.faxPageCount ? { includeCoverPage: false, includeMessageBody: false, includeAttachmentDescriptions: false, faxPageCount: m.faxPageCount } : null,
        deletedAt: m.deleted ? receivedAt : null,
      })
      .returning();
    for (const [position, isRead] of (m.attachmentsRead ?? []).entries()) {
      await db().insert(attachments).values({
        messageId: row!.id,
        organizationId: row!.organizationId,
        position,
        fileName: `file-${position}.pdf`,
        mimeType: 'application/pdf',
        sizeInBytes: 4,
        originalBlobId: blobId,
        currentBlobId: blobId,
        isRead,
      });
    }
    return row!.id;
  };
  const list = (body: object, user = RIVERVIEW_ADMIN) => t.call(user, 'POST', '/api/messages', body);
  const subjects = async (body: object, user = RIVERVIEW_ADMIN) => {
    const res = await list({ filter: TAG, ...body }, user);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().items as { subject: string }[]).map((i) => i.subject.slice(TAG.length + 1));
  };

  const ids: Record<string, string> = {};
  beforeAll(async () => {
    const sources = await db().select().from(documentSources);
    orgOf = Object.fromEntries(sources.map((s) => [s.fullAddress, s.organizationId]));
    sourceIdOf = Object.fromEntries(sources.map((s) => [s.fullAddress, s.id]));
    const [blob] = await db().insert(blobs).values({ sizeInBytes: 4, sha256: 'x', iv: 'x', authTag: 'x' }).returning();
    blobId = blob!.id;
    // Riverview's Intake, newest first: referral (1 day ago), fax (2 days), upload (3 days), lab (5 days, updated today).
    ids.referral = await inbound({ subject: 'Referral Alvarez', patientName: 'Alvarez, Maria', attachmentsRead: [true, true] });
    ids.fax = await inbound({ subject: 'Fax from 5035550101', to: RIVERVIEW_FAX, from: LAKESIDE_FAX, sourceType: 'Fax', receivedAt: daysAgo(2), faxPageCount: 4, attachmentsRead: [false] });
    ids.upload = await inbound({ subject: 'Scanned chart', sourceType: 'Upload', from: 'scanner@riverview.example.org', receivedAt: daysAgo(3), processedType: 'Printed', status: 'Processed', patientName: 'Quist, Zelda', attachmentsRead: [true, false] });
    ids.lab = await inbound({ subject: 'Lab results', from: 'lab@quest.direct.example.com', receivedAt: daysAgo(5), updatedAt: new Date(todayStart().getTime() + 60_000), processedType: 'PDFExport', status: 'Processed' });
    // Outside the default range, deleted, sent or another organization's: never listed by default.
    ids.onTheEdge = await inbound({ subject: 'On the edge', receivedAt: daysAgo(30) });
    ids.tooOld = await inbound({ subject: 'Too old', receivedAt: daysAgo(30, -1) });
    await inbound({ subject: 'Deleted', deleted: true });
    await inbound({ subject: 'Outbound', direction: 'Outbound', status: 'Delivered' });
    await inbound({ subject: 'Lakeside own', to: LAKESIDE_DIRECT, from: RIVERVIEW_DIRECT, patientName: 'Alvarez, Maria' });
  });

  it('lists the organization’s received messages of the last 30 days, newest received first, with counts and read state', async () => {
    const res = await list({ filter: TAG });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.totalCount).toBe(5);
    expect(body.items.map((i: { subject: string }) => i.subject)).toEqual(['Referral Alvarez', 'Fax from 5035550101', 'Scanned chart', 'Lab results', 'On the edge'].map((s) => `${TAG} ${s}`));
    const [referral, fax, upload, lab] = body.items;
    expect(referral).toEqual({
      id: ids.referral,
      subject: `${TAG} Referral Alvarez`,
      fromAddress: LAKESIDE_DIRECT,
      toAddress: RIVERVIEW_DIRECT,
      messageDate: daysAgo(1).toISOString(),
      systemReceivedDate: daysAgo(1).toISOString(),
      updatedDate: daysAgo(1).toISOString(),
      isUrgent: false,
      isProcessed: false,
      processedType: null,
      sourceType: 'Direct',
      patientName: 'Alvarez, Maria',
      status: 'Received',
      statusNumber: messageStatusNumbers.Received,
      attachmentCount: 2,
      faxPageCount: null,
      isRead: true,
    });
    expect(fax).toMatchObject({ sourceType: 'Fax', attachmentCount: 1, faxPageCount: 4, isRead: false });
    expect(upload).toMatchObject({ status: 'Processed', statusNumber: messageStatusNumbers.Processed, attachmentCount: 2, isRead: false, processedType: 'Printed' });
    expect(lab).toMatchObject({ attachmentCount: 0, isRead: false });
  });

  it('defaults the start date to 30 days before today at UTC start of day, on the app’s clock', async () => {
    const saved = t.clock.now;
    try {
      // A day later the edge message falls out of the default range (a token of that day is needed).
      t.clock.now = new Date(saved.getTime() + DAY_MS);
      const { accessToken } = await t.login(RIVERVIEW_ADMIN);
      expect(await subjects({}, accessToken)).not.toContain('On the edge');
    } finally {
      t.clock.now = saved;
    }
    expect(await subjects({})).toContain('On the edge');
    expect(await subjects({ startDate: isoDay(daysAgo(40)) })).toContain('Too old');
  });

  it('filters by an inclusive date range on the receive date or, ordered by update, on the updated date', async () => {
    expect(await subjects({ startDate: isoDay(daysAgo(3)), endDate: isoDay(daysAgo(2)) })).toEqual(['Fax from 5035550101', 'Scanned chart']);
    expect(await subjects({ startDate: isoDay(daysAgo(5)), endDate: isoDay(daysAgo(5)) })).toEqual(['Lab results']);
    const today = isoDay(todayStart());
    expect(await subjects({ orderBy: 'updatedDate', startDate: today, endDate: today })).toEqual(['Lab results']);
    expect(await subjects({ orderBy: 'receiveDate', startDate: today, endDate: today })).toEqual([]);
  });

  it('sorts by receive or updated date in either direction', async () => {
    expect(await subjects({ orderDir: 'asc' })).toEqual(['On the edge', 'Lab results', 'Scanned chart', 'Fax from 5035550101', 'Referral Alvarez']);
    expect(await subjects({ orderBy: 'updatedDate', orderDir: 'desc' })).toEqual(['Lab results', 'Referral Alvarez', 'Fax from 5035550101', 'Scanned chart', 'On the edge']);
  });

  it('pages with a 1-based page number and a default page size of 30', async () => {
    const first = (await list({ filter: TAG, pageSize: 2 })).json();
    expect(first.totalCount).toBe(5);
    expect(first.items.map((i: { id: string }) => i.id)).toEqual([ids.referral, ids.fax]);
    const third = (await list({ filter: TAG, pageSize: 2, pageStart: 3 })).json();
    expect(third).toMatchObject({ totalCount: 5, items: [{ id: ids.onTheEdge }] });
    expect((await list({ filter: TAG, pageSize: 2, pageStart: 9 })).json()).toMatchObject({ totalCount: 5, items: [] });

    const many = await Promise.all(Array.from({ length: 31 }, (_, i) => inbound({ subject: `Bulk ${i}`, receivedAt: daysAgo(6) })));
    try {
      const page = (await list({ filter: `${TAG} Bulk` })).json();
      expect(page.totalCount).toBe(31);
      expect(page.items).toHaveLength(30);
    } finally {
      for (const id of many) await t.call(RIVERVIEW_ADMIN, 'DELETE', `/api/messages/${id}`);
    }
  });

  it('filters by status numbers, source types and processed types', async () => {
    expect(await subjects({ statuses: [messageStatusNumbers.Processed] })).toEqual(['Scanned chart', 'Lab results']);
    expect(await subjects({ statuses: [messageStatusNumbers.Received, messageStatusNumbers.Failed] })).toEqual(['Referral Alvarez', 'Fax from 5035550101', 'On the edge']);
    expect(await subjects({ statuses: [messageStatusNumbers.Sent] })).toEqual([]);
    expect(await subjects({ sourceTypes: ['Fax', 'Upload'] })).toEqual(['Fax from 5035550101', 'Scanned chart']);
    expect(await subjects({ processedTypes: ['PDFExport'] })).toEqual(['Lab results']);
    // Empty lists mean no filter.
    expect(await subjects({ statuses: [], sourceTypes: [], processedTypes: [], sources: [] })).toHaveLength(5);
  });

  it('filters by the document source a message came to, only among the organization’s own sources', async () => {
    expect(await subjects({ sources: [sourceIdOf[RIVERVIEW_FAX]] })).toEqual(['Fax from 5035550101']);
    expect(await subjects({ sources: [sourceIdOf[RIVERVIEW_FAX], sourceIdOf[RIVERVIEW_DIRECT]] })).toHaveLength(5);
    expect(await subjects({ sources: [sourceIdOf[LAKESIDE_DIRECT]] })).toEqual([]);
  });

  it('filters by rules: fields of a rule all match, any rule may match', async () => {
    const rules = (r: object[]) => JSON.stringify(r);
    expect(await subjects({ rules: rules([{ toAddress: '(503) 555-0202' }]) })).toEqual(['Fax from 5035550101']);
    expect(await subjects({ rules: rules([{ fromAddress: 'LAB@quest.direct.example.com' }]) })).toEqual(['Lab results']);
    expect(await subjects({ rules: rules([{ toAddress: RIVERVIEW_DIRECT, sourceType: 'Upload' }]) })).toEqual(['Scanned chart']);
    expect(await subjects({ rules: rules([{ toAddress: RIVERVIEW_DIRECT, sourceType: 'Fax' }]) })).toEqual([]);
    expect(await subjects({ rules: rules([{ sourceType: 'Fax' }, { fromAddress: 'scanner@riverview.example.org' }]) })).toEqual(['Fax from 5035550101', 'Scanned chart']);
    expect(await subjects({ rules: rules([{ toAddress: 'nobody@riverview.direct.example.org' }]) })).toEqual([]);
    expect(await subjects({ rules: '' })).toHaveLength(5);
  });

  it('searches subject, from, to and patient name without regard to case', async () => {
    expect(await subjects({ filter: `${TAG} scanned` })).toEqual(['Scanned chart']);
    expect((await list({ filter: 'QUEST.direct' })).json().items.map((i: { id: string }) => i.id)).toContain(ids.lab);
    expect((await list({ filter: 'quist, zel' })).json().items.map((i: { id: string }) => i.id)).toEqual([ids.upload]);
    expect((await list({ filter: RIVERVIEW_FAX })).json().items.map((i: { id: string }) => i.id)).toEqual([ids.fax]);
    expect((await list({ filter: '100%_' })).json()).toMatchObject({ totalCount: 0, items: [] });
  });

  it('filters by column: contains and equals, without regard to case, equals on To matching any recipient', async () => {
    const col = (columnFilters: object) => subjects({ columnFilters });
    expect(await col({ subject: { value: 'CHART', operator: 'contains' } })).toEqual(['Scanned chart']);
    expect(await col({ subject: { value: '100%_', operator: 'contains' } })).toEqual([]);
    expect(await col({ subject: { value: `${TAG} lab results`, operator: 'equals' } })).toEqual(['Lab results']);
    expect(await col({ subject: { value: 'lab', operator: 'equals' } })).toEqual([]);
    expect(await col({ fromAddress: { value: 'LAB@Quest.direct.example.com', operator: 'equals' } })).toEqual(['Lab results']);
    expect(await col({ fromAddress: { value: 'quest', operator: 'equals' } })).toEqual([]);
    expect(await col({ fromAddress: { value: 'riverview.example', operator: 'contains' }, subject: { value: 'scanned', operator: 'contains' } })).toEqual(['Scanned chart']);
    expect(await col({ toAddress: { value: RIVERVIEW_FAX, operator: 'equals' } })).toEqual(['Fax from 5035550101']);
    expect(await col({ patientName: { value: 'alvarez', operator: 'contains' } })).toEqual(['Referral Alvarez']);
    // An empty value is no filter.
    expect(await col({ patientName: { value: '  ', operator: 'equals' } })).toHaveLength(5);

    const multi = await inbound({ subject: 'Two recipients', to: RIVERVIEW_DIRECT });
    try {
      await db().update(messages).set({ toAddress: `other@riverview.direct.example.org;${RIVERVIEW_DIRECT.toUpperCase()}` }).where(eq(messages.id, multi));
      expect(await col({ toAddress: { value: RIVERVIEW_DIRECT, operator: 'equals' }, subject: { value: 'two', operator: 'contains' } })).toEqual(['Two recipients']);
      expect(await col({ toAddress: { value: 'riverview.direct.example.org', operator: 'equals' }, subject: { value: 'two', operator: 'contains' } })).toEqual([]);
    } finally {
      await t.call(RIVERVIEW_ADMIN, 'DELETE', `/api/messages/${multi}`);
    }
  });

  it('shows an administrator the whole organization whatever the assignment flags say, unless narrowed to unassigned', async () => {
    expect(await subjects({ isAll: true })).toHaveLength(5);
    expect(await subjects({ isAll: false })).toHaveLength(5);
    expect(await subjects({ isUnassigned: true })).toHaveLength(5);
    expect(await subjects({ isAssignedToSelf: true })).toEqual([]);
  });

  it('never shows Riverview’s messages to Lakeside, nor Lakeside’s to Riverview', async () => {
    expect(await subjects({}, LAKESIDE_USER)).toEqual(['Lakeside own']);
    expect(await subjects({}, LAKESIDE_ADMIN)).toEqual(['Lakeside own']);
    expect(await subjects({ filter: `${TAG} Lakeside own` })).toEqual([]);
    expect(await subjects({ sources: [sourceIdOf[RIVERVIEW_DIRECT]] }, LAKESIDE_USER)).toEqual([]);
  });

  it('refuses an invalid filter with 400 and says what is wrong', async () => {
    const rules = await list({ rules: '{not json' });
    expect(rules.statusCode).toBe(400);
    // One problem: the message is that problem (issue 9).
    expect(rules.json()).toEqual({ message: 'Rules are invalid.', modelState: { rules: ['Rules are invalid.'] } });
    expect((await list({ rules: JSON.stringify([{ sourceType: 'Carrier pigeon' }]) })).json().modelState).toEqual({ rules: ['Rules are invalid.'] });
    expect((await list({ rules: JSON.stringify({ toAddress: 'x' }) })).statusCode).toBe(400);

    const bad = await list({ startDate: '2026-02-30', orderBy: 'subject', pageStart: 0, pageSize: 101, statuses: [13] });
    expect(bad.statusCode).toBe(400);
    const body = bad.json();
    expect(body.message).toBe('The request is invalid.');
    expect(Object.keys(body.modelState).sort()).toEqual(['orderBy', 'pageSize', 'pageStart', 'startDate', 'statuses.0']);
    expect(body.modelState.startDate).toEqual(['Date is invalid.']);

    const operator = await list({ columnFilters: { fromAddress: { value: 'lab', operator: 'startsWith' } } });
    expect(operator.statusCode).toBe(400);
    expect(Object.keys(operator.json().modelState)).toEqual(['columnFilters.fromAddress.operator']);
    expect((await list({ columnFilters: { status: { value: 'x', operator: 'equals' } } })).statusCode).toBe(400);
    expect((await list({ columnFilters: { subject: { value: 'x'.repeat(201), operator: 'contains' } } })).statusCode).toBe(400);
  });
});
