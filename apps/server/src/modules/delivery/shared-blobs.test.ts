import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { documentSources } from '../../db/schema/document-sources.ts';
import { attachments, messages } from '../../db/schema/messages.ts';
import { createBlobStore, type BlobStore } from '../../platform/blobs/blob-store.ts';
import { sweepBlobs } from '../../platform/blobs/blob-sweep.ts';
import type { WorkflowLogger } from '../../platform/workflows/context.ts';
import { workflowHandlers } from '../../platform/workflows/registry.ts';
import { runOnce } from '../../platform/workflows/runner.ts';
import { testConfig, useTestApp } from '../../test/app.ts';
import { referralDraft } from '../../test/referral.ts';

const LAKESIDE_USER = 'user@lakeside.example.org';
const RIVERVIEW_USER = 'user@riverview.example.org';
const RIVERVIEW_DIRECT = 'referrals@riverview.direct.example.org';
const LAKESIDE_DIRECT = 'intake@lakeside.direct.example.org';
const quiet: WorkflowLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };
const DAY_MS = 86_400_000;

async function referralPdf() {
  const doc = await PDFDocument.create();
  doc.addPage([200, 200]).drawText('Referral: Alvarez, Maria', { x: 10, y: 100, size: 10 });
  return doc.save();
}

describe('a local delivery shares the sent file instead of copying it', () => {
  // The app, its workers and this test's blob store share one DATA_DIR.
  const dataDir = mkdtempSync(path.join(tmpdir(), 'clinicrelay-shared-blobs-'));
  const t = useTestApp({ config: { DATA_DIR: dataDir } });
  const config = testConfig({ DATA_DIR: dataDir });
  const db = () => t.handle.db;
  let blobs: BlobStore;
  let pdf: Uint8Array;
  let lakeside: string;
  const runWorkers = () => runOnce({ db: db(), handlers: workflowHandlers({ config, db: db(), now: () => t.clock.now }), logger: quiet });
  const blobFiles = () =>
    (existsSync(path.join(config.dataDir, 'blobs')) ? readdirSync(path.join(config.dataDir, 'blobs'), { withFileTypes: true }) : [])
      .filter((d) => d.isDirectory())
      .flatMap((d) => readdirSync(path.join(config.dataDir, 'blobs', d.name)));
  const fileOf = (blobId: string) => path.join(config.dataDir, 'blobs', blobId.slice(0, 2), blobId);
  const download = (user: string, messageId: string, attachmentId: string) => t.call(user, 'GET', `/api/messages/${messageId}/attachments/${attachmentId}?native=true`);

  beforeAll(async () => {
    blobs = createBlobStore({ db: db(), dataDir: config.dataDir, key: config.blobEncryptionKey });
    pdf = await referralPdf();
    const [source] = await db().select().from(documentSources).where(eq(documentSources.fullAddress, LAKESIDE_DIRECT));
    lakeside = source!.organizationId;
  });

  // Lakeside's sent referral with one PDF, delivered to Riverview; the ids of both messages and attachments.
  async function sendReferral() {
    const releaseTypeId = (await t.call(LAKESIDE_USER, 'GET', '/api/releasetypes')).json()[0].id;
    const saved = await t.call(LAKESIDE_USER, 'PUT', '/api/messages', referralDraft(releaseTypeId, RIVERVIEW_DIRECT, { fromAddress: LAKESIDE_DIRECT, properties: undefined }));
    expect(saved.statusCode, saved.body).toBe(200);
    const sentId = saved.json().id as string;
    const blob = await blobs.put(pdf, { organizationId: lakeside });
    const [sentFile] = await db()
      .insert(attachments)
      .values({
        messageId: sentId,
        organizationId: lakeside,
        fileName: 'referral.pdf',
        mimeType: 'application/pdf',
        sizeInBytes: pdf.length,
        originalBlobId: blob.id,
        currentBlobId: blob.id,
        previewBlobId: blob.id,
        previewStatus: 'Available',
        meta: { documentType: 'Referral Letter', documentDate: '2026-01-15', documentDateType: 'selected', confidentiality: 'Normal', documentDescription: null, patient: null },
      })
      .returning();
    const sent = await t.call(LAKESIDE_USER, 'POST', `/api/messages/${sentId}/send`);
    expect(sent.statusCode, sent.body).toBe(200);
    await runWorkers();
    const [received] = await db().select().from(messages).where(and(eq(messages.originalObjectId, sentId), eq(messages.direction, 'Inbound')));
    const [receivedFile] = await db().select().from(attachments).where(eq(attachments.messageId, received!.id));
    return { sentId, sentFile: sentFile!, receivedId: received!.id, receivedFile: receivedFile!, blobId: blob.id };
  }

  it('gives Riverview’s copy the same stored file: one file on disk, read by both organizations', async () => {
    const before = blobFiles().length;
    const { sentId, sentFile, receivedId, receivedFile, blobId } = await sendReferral();
    expect(receivedFile).toMatchObject({ organizationId: expect.not.stringMatching(lakeside), currentBlobId: blobId, originalBlobId: blobId, previewBlobId: blobId, sizeInBytes: pdf.length });
    // Only the file Lakeside attached was written: the delivery wrote none.
    expect(blobFiles().length).toBe(before + 1);
    for (const [user, messageId, attachmentId] of [
      [LAKESIDE_USER, sentId, sentFile.id],
      [RIVERVIEW_USER, receivedId, receivedFile.id],
    ] as const) {
      const res = await download(user, messageId, attachmentId);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.rawPayload.equals(Buffer.from(pdf))).toBe(true);
    }
    // Riverview cannot reach Lakeside's message for it, sharing or not.
    expect((await download(RIVERVIEW_USER, sentId, sentFile.id)).statusCode).toBe(404);
  });

  it('never removes a file another message still reads, whichever message goes first', async () => {
    const { sentId, sentFile, receivedId, receivedFile, blobId } = await sendReferral();

    // Riverview's copy goes for good (its attachment rows with it): Lakeside's message still refers to the file.
    await db().delete(messages).where(eq(messages.id, receivedId));
    expect(await blobs.delete(blobId)).toBe(false);
    expect(existsSync(fileOf(blobId))).toBe(true);
    // Nor does the sweep of leftover files take it, a day later or not.
    await sweepBlobs({ db: db(), dataDir: config.dataDir, now: new Date(Date.now() + 2 * DAY_MS) });
    expect(existsSync(fileOf(blobId))).toBe(true);
    const res = await download(LAKESIDE_USER, sentId, sentFile.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.rawPayload.equals(Buffer.from(pdf))).toBe(true);
    expect(receivedFile.currentBlobId).toBe(blobId);

    // Once no message refers to it, it can go.
    await db().delete(messages).where(eq(messages.id, sentId));
    expect(await blobs.delete(blobId)).toBe(true);
    expect(existsSync(fileOf(blobId))).toBe(false);
  });

  it('the other way round: the sender’s message goes, Riverview keeps reading its copy', async () => {
    const { sentId, receivedId, receivedFile, blobId } = await sendReferral();
    await db().delete(messages).where(eq(messages.id, sentId));
    expect(await blobs.delete(blobId)).toBe(false);
    const res = await download(RIVERVIEW_USER, receivedId, receivedFile.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.rawPayload.equals(Buffer.from(pdf))).toBe(true);
  });
});
