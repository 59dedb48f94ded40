import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { releaseMessages } from '@clinicrelay/contracts/messages.ts';
import { auditEvents } from '../../db/schema/audit.ts';
import { attachments, deliveries, deliveryEvents, messages, patients } from '../../db/schema/messages.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { users } from '../../db/schema/users.ts';
import { workflowSteps, workflows } from '../../db/schema/workflows.ts';
import { createBlobStore, type BlobStore } from '../../platform/blobs/blob-store.ts';
import { workflowContext, type WorkflowLogger } from '../../platform/workflows/context.ts';
import { workflowHandlers } from '../../platform/workflows/registry.ts';
import { runOnce } from '../../platform/workflows/runner.ts';
import { testConfig, useTestApp } from '../../test/app.ts';
import { pdfLines } from '../../test/pdf-lines.ts';
import { DELIVERY_SUMMARY_WORKFLOW } from './service.ts';

const LAKESIDE_USER = 'user@lakeside.example.org';
const RIVERVIEW_USER = 'user@riverview.example.org';
const LAKESIDE_DIRECT = 'intake@lakeside.direct.example.org';
const RIVERVIEW_DIRECT = 'referrals@riverview.direct.example.org';
const EXTERNAL_FAX = '5551234567';
const LAKESIDE_FAX = '5035550101';
const quiet: WorkflowLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

// Text as a reader sees it, through PDF.js (a different parser than the writer).
async function pdfText(bytes: Uint8Array): Promise<string> {
  const task = getDocument({ data: bytes.slice(), verbosity: 0 });
  try {
    const document = await task.promise;
    const pages: string[] = [];
    for (let n = 1; n <= document.numPages; n++) {
      const content = await (await document.getPage(n)).getTextContent();
      pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join('\n'));
    }
    return pages.join('\n');
  } finally {
    await task.destroy();
  }
}

describe('Delivery summary', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'clinicrelay-summary-'));
  const t = useTestApp({ config: { DATA_DIR: dataDir } });
  const config = testConfig({ DATA_DIR: dataDir });
  const db = () => t.handle.db;
  let blobs: BlobStore;
  let lakeside: string;
  const runWorkers = () => runOnce({ db: db(), handlers: workflowHandlers({ config, db: db(), now: () => t.clock.now }), logger: quiet });

  beforeAll(async () => {
    blobs = createBlobStore({ db: db(), dataDir, key: config.blobEncryptionKey });
    lakeside = (await db().select().from(organizations).where(eq(organizations.subdomain, 'lakeside')))[0]!.id;
  });

  // A message Lakeside sent on 03/02/2026, with its patient, two recipients and one attachment.
  const sentMessage = async (opts: { ready?: boolean; isDraft?: boolean; direction?: 'Outbound' | 'Inbound' } = {}) => {
    const sentAt = new Date('2026-03-02T15:04:00Z');
    const [message] = await db()
      .insert(messages)
      .values({
        organizationId: lakeside,
        direction: opts.direction ?? 'Outbound',
        subject: 'Referral: cardiology consult',
        fromAddress: LAKESIDE_DIRECT,
        toAddress: `${RIVERVIEW_DIRECT};${EXTERNAL_FAX}`,
        isDraft: opts.isDraft ?? false,
        status: opts.ready === false ? 'Pending' : 'Delivered',
        messageDate: sentAt,
        patientName: 'Alvarez, Maria',
        isReadyForDeliverySummary: opts.ready ?? true,
      })
      .returning();
    const id = message!.id;
    await db().insert(patients).values({ messageId: id, organizationId: lakeside, firstName: 'Maria', lastName: 'Alvarez', birthDate: '1958-04-12', gender: 'F' });
    await db()
      .insert(deliveries)
      .values([
        { messageId: id, organizationId: lakeside, recipient: RIVERVIEW_DIRECT, channel: 'Direct', status: 'Delivered', reason: 'Delivered', createdAt: sentAt, updatedAt: sentAt, deliveredAt: sentAt },
        { messageId: id, organizationId: lakeside, recipient: EXTERNAL_FAX, channel: 'Fax', status: opts.ready === false ? 'Pending' : 'Failed', reason: 'Busy line', createdAt: sentAt, updatedAt: sentAt },
      ]);
    const blob = await blobs.put(new TextEncoder().encode('%PDF-1.4 placeholder'), { organizationId: lakeside });
    await db().insert(attachments).values({
      messageId: id,
      organizationId: lakeside,
      fileName: 'referral-letter.pdf',
      mimeType: 'application/pdf',
      sizeInBytes: 48_213,
      originalBlobId: blob.id,
      currentBlobId: blob.id,
      previewStatus: 'Available',
      meta: { documentType: 'Referral Letter', documentDate: '2026-02-27', documentDateType: 'selected', confidentiality: 'Normal', documentDescription: null, patient: null },
    });
    return id;
  };
  const download = (id: string, user = LAKESIDE_USER) => t.call(user, 'GET', `/api/messages/${id}/deliverysummary`);
  const sendToIntake = (id: string, user = LAKESIDE_USER) => t.call(user, 'POST', `/api/messages/${id}/deliverysummary/sendtointake`);
  const summariesOf = (id: string) =>
    db().select().from(messages).where(and(eq(messages.originalObjectId, id), eq(messages.sourceType, 'DeliverySummary')));

  it('Lakeside downloads the summary of a sent message: a PDF naming the recipients, their status and the attachment', async () => {
    const id = await sentMessage();
    const res = await download(id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe('attachment; filename="delivery-summary-2026-03-02.pdf"');
    const text = await pdfText(new Uint8Array(res.rawPayload));
    for (const expected of [
      'Delivery Summary',
      'Lakeside Family Medicine',
      'Referral: cardiology consult',
      LAKESIDE_DIRECT,
      '03/02/2026 15:04 UTC',
      'Maria Alvarez',
      '04/12/1958',
      RIVERVIEW_DIRECT,
      EXTERNAL_FAX,
      'Delivered',
      'Failed',
      'Busy line',
      'referral-letter.pdf',
      'Referral Letter',
      '02/27/2026',
      '47.1 k',
    ]) {
      expect(text).toContain(expected);
    }

    const [audit] = await db().select().from(auditEvents).where(and(eq(auditEvents.correlationId, id), eq(auditEvents.eventType, 'DeliverySummaryDownloaded')));
    expect(audit).toMatchObject({ organizationId: lakeside, details: null });
  });

  it('prints the Direct recipient’s timeline from its delivery events, oldest first, under its row (issue 12 §4)', async () => {
    const id = await sentMessage();
    const [direct] = await db().select().from(deliveries).where(and(eq(deliveries.messageId, id), eq(deliveries.recipient, RIVERVIEW_DIRECT)));
    const event = (stage: 'Queued' | 'Sent' | 'Processed' | 'Dispatched', at: string, detail: string | null = null) => ({
      deliveryId: direct!.id,
      organizationId: lakeside,
      stage,
      detail,
      createdAt: new Date(at),
    });
    // Written out of order: the PDF orders them by time.
    await db()
      .insert(deliveryEvents)
      .values([
        event('Dispatched', '2026-03-02T15:07:00Z'),
        event('Queued', '2026-03-02T15:04:00Z'),
        event('Sent', '2026-03-02T15:05:00Z', '250 2.0.0 Ok'),
        event('Processed', '2026-03-02T15:06:00Z'),
      ]);

    const res = await download(id);
    expect(res.statusCode, res.body).toBe(200);
    const lines = (await pdfLines(new Uint8Array(res.rawPayload))).flat();
    const queued = lines.indexOf('Queued · 03/02/2026 15:04 UTC');
    expect(lines.slice(queued, queued + 4)).toEqual([
      'Queued · 03/02/2026 15:04 UTC',
      'Sent to the recipient’s mail server · 03/02/2026 15:05 UTC · 250 2.0.0 Ok',
      'Processed by the recipient’s HISP · 03/02/2026 15:06 UTC',
      'Delivered to the recipient · 03/02/2026 15:07 UTC',
    ]);
    // Under the Direct recipient's row (the row nearest above), and nowhere under the fax recipient's.
    const rowAbove = lines.slice(0, queued).findLast((line) => line.startsWith(RIVERVIEW_DIRECT) || line.startsWith(EXTERNAL_FAX));
    expect(rowAbove?.startsWith(`${RIVERVIEW_DIRECT} Direct Delivered`)).toBe(true);
    expect(lines.filter((line) => line.startsWith('Queued'))).toHaveLength(1);
  });

  it('answers 409 while recipients are pending, and 403 when the organization turned downloads off', async () => {
    const pending = await sentMessage({ ready: false });
    for (const res of [await download(pending), await sendToIntake(pending)]) {
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ message: releaseMessages.deliverySummaryNotReady });
    }

    const ready = await sentMessage();
    const [org] = await db().select().from(organizations).where(eq(organizations.id, lakeside));
    await db().update(organizations).set({ settings: {} }).where(eq(organizations.id, lakeside));
    try {
      const res = await download(ready);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ message: releaseMessages.deliverySummaryDisabled });
    } finally {
      await db().update(organizations).set({ settings: org!.settings }).where(eq(organizations.id, lakeside));
    }
  });

  it('has no summary for a draft or a received message (404)', async () => {
    for (const id of [await sentMessage({ isDraft: true }), await sentMessage({ direction: 'Inbound' })]) {
      expect((await download(id)).statusCode).toBe(404);
      expect((await sendToIntake(id)).statusCode).toBe(404);
    }
  });

  it('gives a Riverview user 404 for Lakeside’s message, and nothing is queued or audited', async () => {
    const id = await sentMessage();
    expect((await download(id, RIVERVIEW_USER)).statusCode).toBe(404);
    const res = await sendToIntake(id, RIVERVIEW_USER);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: expect.any(String) });
    expect(await db().select().from(workflows).where(eq(workflows.correlationId, id))).toEqual([]);
    expect(await db().select().from(auditEvents).where(eq(auditEvents.correlationId, id))).toEqual([]);
  });

  it('sends the summary to Lakeside’s own Intake: one PDF copy per request, even when the worker retries', async () => {
    const id = await sentMessage();
    const res = await sendToIntake(id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: releaseMessages.deliverySummaryQueued });
    expect(await summariesOf(id)).toEqual([]);

    expect(await runWorkers()).toBeGreaterThanOrEqual(1);
    const [summary] = await summariesOf(id);
    expect(summary).toMatchObject({
      organizationId: lakeside,
      direction: 'Inbound',
      isDraft: false,
      status: 'Received',
      subject: 'Delivery Summary: Referral: cardiology consult',
      fromAddress: LAKESIDE_DIRECT,
      patientName: 'Alvarez, Maria',
    });

    // What a Lakeside user opening it in Intake sees.
    const opened = await t.call(LAKESIDE_USER, 'GET', `/api/messages/${summary!.id}`);
    expect(opened.statusCode).toBe(200);
    expect(opened.json()).toMatchObject({ sourceType: 'DeliverySummary', patient: { firstName: 'Maria', lastName: 'Alvarez', birthDate: '1958-04-12' } });
    const [file] = opened.json().attachments;
    expect(file).toMatchObject({ fileName: 'delivery-summary-2026-03-02.pdf', mimeType: 'application/pdf', previewAvailable: 'Available' });
    const content = await t.call(LAKESIDE_USER, 'GET', `/api/messages/${summary!.id}/attachments/${file.id}`);
    expect(content.statusCode).toBe(200);
    const text = await pdfText(new Uint8Array(content.rawPayload));
    expect(text).toContain(RIVERVIEW_DIRECT);
    expect(text).toContain(EXTERNAL_FAX);
    expect((await t.call(RIVERVIEW_USER, 'GET', `/api/messages/${summary!.id}`)).statusCode).toBe(404);

    // The worker dies after delivering but before recording its step: the rerun finds the copy.
    const [workflow] = await db().select().from(workflows).where(and(eq(workflows.correlationId, id), eq(workflows.type, DELIVERY_SUMMARY_WORKFLOW)));
    await db().delete(workflowSteps).where(eq(workflowSteps.workflowId, workflow!.id));
    const handler = workflowHandlers({ config, db: db(), now: () => t.clock.now }).get(DELIVERY_SUMMARY_WORKFLOW)!;
    await handler(workflowContext({ db: db(), workflow: workflow!, now: () => t.clock.now, signal: new AbortController().signal }));
    expect(await summariesOf(id)).toHaveLength(1);

    // A second request is a second summary.
    expect((await sendToIntake(id)).statusCode).toBe(200);
    await runWorkers();
    expect(await summariesOf(id)).toHaveLength(2);
    expect(await db().select().from(auditEvents).where(and(eq(auditEvents.correlationId, id), eq(auditEvents.eventType, 'DeliverySummaryRequested')))).toHaveLength(2);
  });

  it('puts the summary under My Intake of the user who asked for it, though it is addressed to a number their Intake does not get', async () => {
    // Sent from Lakeside's fax number, which is not one of Leo's (user@lakeside has the Direct address only).
    const id = await sentMessage();
    await db().update(messages).set({ fromAddress: LAKESIDE_FAX }).where(eq(messages.id, id));
    const myIntake = async () => {
      const res = await t.call(LAKESIDE_USER, 'POST', '/api/messages', { isAssignedToSelf: true, sourceTypes: ['DeliverySummary'] });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().items as { id: string; subject: string }[]).map((item) => item.id);
    };
    const before = await myIntake();

    expect((await sendToIntake(id)).statusCode).toBe(200);
    await runWorkers();
    const [summary] = await summariesOf(id);
    const [leo] = await db().select().from(users).where(eq(users.userName, LAKESIDE_USER));
    expect(summary).toMatchObject({ toAddress: LAKESIDE_FAX, assignedUserId: leo!.id });
    expect((await myIntake()).sort()).toEqual([summary!.id, ...before].sort());
    expect((await t.call(LAKESIDE_USER, 'GET', `/api/messages/${summary!.id}`)).statusCode).toBe(200);
  });
});
