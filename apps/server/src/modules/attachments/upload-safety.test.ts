import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { count, eq } from 'drizzle-orm';
import UTIF, { type IFD } from 'utif';
import { describe, expect, it } from 'vitest';
import { attachmentMessages, previewMessages } from '@clinicrelay/contracts/attachments.ts';
import { blobs } from '../../db/schema/blobs.ts';
import { attachments, messages } from '../../db/schema/messages.ts';
import { workflows } from '../../db/schema/workflows.ts';
import { createBlobStore } from '../../platform/blobs/blob-store.ts';
import {
  apngFrameBomb,
  bmpHeader,
  brokenXrefPdf,
  encryptedPdf,
  faxTiff,
  gifFrameBomb,
  jpegSecondFrameBomb,
  pngBomb,
  simplePdf,
  tiffOutOfLineSecondPage,
  truncatedPdf,
  webpHeader,
} from '../../platform/files/sample-files.ts';
import { workflowHandlers } from '../../platform/workflows/registry.ts';
import { runOnce } from '../../platform/workflows/runner.ts';
import { testConfig, uploadAttachment, useTestApp, type TestContext } from '../../test/app.ts';
import * as q from './queries.ts';
import { enqueueRendition } from './rendition-workflow.ts';

const LAKESIDE_USER = 'user@lakeside.example.org';
const silent = { info: () => {}, warn: () => {}, error: () => {} };
const referral = {
  subject: 'Referral with documents',
  fromAddress: 'intake@lakeside.direct.example.org',
  toAddress: 'referrals@riverview.direct.example.org',
  patient: { firstName: 'Maria', lastName: 'Alvarez', birthDate: '1958-04-12', gender: 'F' },
};

// A TIFF whose pages announce their size in their IFDs and hold no pixels: only headers are read.
function tiffOfPages(pages: { width: number; height: number }[]): Uint8Array {
  const ifds = pages.map(({ width, height }) => ({ t256: [width], t257: [height], t258: [1], t259: [1], t262: [0], t273: [0], t277: [1], t278: [height], t279: [0] }));
  return new Uint8Array(UTIF.encode(ifds as unknown as IFD[]));
}

function helpers(t: TestContext, dataDir: string, config: Record<string, string> = {}) {
  const runWorkflows = () => runOnce({ db: t.handle.db, handlers: workflowHandlers({ config: testConfig({ DATA_DIR: dataDir, ...config }), db: t.handle.db, now: () => t.clock.now }), logger: silent });
  const newDraft = async () => {
    const res = await t.call(LAKESIDE_USER, 'PUT', '/api/messages', referral);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().id as string;
  };
  const upload = async (messageId: string, fileName: string, bytes: Uint8Array) =>
    uploadAttachment(t.app, (await t.login(LAKESIDE_USER)).accessToken, messageId, fileName, bytes);
  // A file stored before uploads were inspected: straight into the blob store and the attachments table.
  const storedBefore = async (messageId: string, fileName: string, bytes: Uint8Array, mimeType: string) => {
    const store = createBlobStore({ db: t.handle.db, dataDir, key: testConfig().blobEncryptionKey });
    const [message] = await t.handle.db.select({ organizationId: messages.organizationId }).from(messages).where(eq(messages.id, messageId));
    const owner = message!.organizationId;
    const blob = await store.put(bytes, { organizationId: owner });
    const pdf = mimeType === 'application/pdf';
    return q.insert(t.handle.db, {
      messageId,
      organizationId: owner,
      position: await q.nextPosition(t.handle.db, messageId),
      fileName,
      mimeType,
      sizeInBytes: bytes.length,
      originalBlobId: blob.id,
      currentBlobId: blob.id,
      previewBlobId: pdf ? blob.id : null,
      previewStatus: pdf ? 'Available' : 'Processing',
      meta: null,
      createdAt: t.clock.now,
    });
  };
  const counts = async () => ({
    blobs: (await t.handle.db.select({ n: count() }).from(blobs))[0]!.n,
    attachments: (await t.handle.db.select({ n: count() }).from(attachments))[0]!.n,
    workflows: (await t.handle.db.select({ n: count() }).from(workflows))[0]!.n,
  });
  return { runWorkflows, newDraft, upload, storedBefore, counts };
}

describe('uploads that must be refused before anything decodes them', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'clinicrelay-upload-safety-'));
  const t = useTestApp({ config: { DATA_DIR: dataDir } });
  const h = helpers(t, dataDir);

  it('refuses a 30000 x 30000 PNG of a few KB from its header: nothing is stored or queued for decoding', async () => {
    const draftId = await h.newDraft();
    const bomb = pngBomb(30_000, 30_000);
    expect(bomb.length).toBeLessThan(100_000);
    const before = await h.counts();
    const res = await h.upload(draftId, 'scan.png', bomb);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'This image is too large to process (over 50 megapixels). Reduce its size and attach it again.' });
    // No attachment row, no blob, and no rendition workflow: the decoder was never asked.
    expect(await h.counts()).toEqual(before);
    expect((await t.call(LAKESIDE_USER, 'GET', `/api/messages/${draftId}`)).json().attachments).toEqual([]);
  });

  it('refuses a multi-page TIFF over the budget of one page, or of all its pages together', async () => {
    const draftId = await h.newDraft();
    const onePageTooLarge = await h.upload(draftId, 'fax.tif', tiffOfPages([{ width: 1728, height: 2200 }, { width: 10_000, height: 6_000 }]));
    expect(onePageTooLarge.json()).toEqual({ message: attachmentMessages.imageTooLarge });
    const tooManyInAll = await h.upload(draftId, 'fax.tif', tiffOfPages(Array.from({ length: 5 }, () => ({ width: 7_000, height: 7_000 }))));
    expect(tooManyInAll.statusCode).toBe(400);
    expect(tooManyInAll.json()).toEqual({ message: attachmentMessages.imageTooLargeInAll });
    expect((await t.call(LAKESIDE_USER, 'GET', `/api/messages/${draftId}`)).json().attachments).toEqual([]);
  });

  it('refuses the 35-byte GIF whose 65535 x 65535 frame sits in a 100 x 100 screen, and every other image with a frame or page over the budget', async () => {
    const draftId = await h.newDraft();
    // As the outside probe sent it: the screen, one frame descriptor, 8 bytes of LZW data, the trailer.
    const gif = new Uint8Array([
      ...new TextEncoder().encode('GIF89a'), 100, 0, 100, 0, 0, 0, 0,
      0x2c, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0,
      2, 8, 0x84, 0x8f, 0xa9, 0xcb, 0xed, 0x0f, 0xa3, 0x9c, 0, 0x3b,
    ]);
    expect(gif.length).toBe(35);
    const hugeJpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xc0, 0x00, 0x0b, 8, 0xfd, 0xe8, 0xfd, 0xe8, 1, 1, 0x11, 0, 0xff, 0xd9]);
    const bombs: [string, Uint8Array][] = [
      ['chart.gif', gif],
      ['fax.tif', tiffOfPages([{ width: 1728, height: 2200 }, { width: 60_000, height: 60_000 }])],
      ['fax.tiff', tiffOutOfLineSecondPage(60_000, 60_000)],
      ['photo.png', pngBomb(60_000, 60_000)],
      ['animation.png', apngFrameBomb(60_000, 60_000)],
      ['photo.jpg', hugeJpeg],
      ['scan.jpeg', jpegSecondFrameBomb(65_000, 65_000)],
    ];
    const before = await h.counts();
    for (const [fileName, bytes] of bombs) {
      const res = await h.upload(draftId, fileName, bytes);
      expect(res.statusCode, fileName).toBe(400);
      expect(res.json(), fileName).toEqual({ message: 'This image is too large to process (over 50 megapixels). Reduce its size and attach it again.' });
    }
    // WebP and BMP are no accepted type, whatever their size; under an accepted name their content gives them away.
    expect((await h.upload(draftId, 'photo.webp', webpHeader('VP8X', 60_000, 60_000))).json()).toEqual({ message: attachmentMessages.unsupportedType('.webp') });
    expect((await h.upload(draftId, 'scan.bmp', bmpHeader(60_000, 60_000))).json()).toEqual({ message: attachmentMessages.unsupportedType('.bmp') });
    expect((await h.upload(draftId, 'photo.png', webpHeader('VP8L', 16_384, 16_384))).json()).toEqual({ message: attachmentMessages.contentMismatch('photo.png', 'png') });
    expect((await h.upload(draftId, 'scan.gif', bmpHeader(60_000, 60_000))).json()).toEqual({ message: attachmentMessages.contentMismatch('scan.gif', 'gif') });
    // Nothing stored and no rendition queued: no decoder was ever asked.
    expect(await h.counts()).toEqual(before);
    expect((await t.call(LAKESIDE_USER, 'GET', `/api/messages/${draftId}`)).json().attachments).toEqual([]);
  });

  it('fails the rendition of a GIF frame bomb stored before uploads read every frame, without decoding it', async () => {
    const draftId = await h.newDraft();
    const row = await h.storedBefore(draftId, 'old-chart.gif', gifFrameBomb(), 'image/gif');
    await enqueueRendition(t.handle.db, row);
    expect(await h.runWorkflows()).toBeGreaterThan(0);
    const [stored] = await t.handle.db.select().from(attachments).where(eq(attachments.id, row.id));
    expect(stored!.previewStatus).toBe('Failed');
    const preview = await t.call(LAKESIDE_USER, 'GET', `/api/messages/${draftId}/attachments/${row.id}`);
    expect(preview.json()).toEqual({ message: previewMessages.failed });
  });

  it('accepts a long fax within the budget and renders every page', async () => {
    const draftId = await h.newDraft();
    const res = await h.upload(draftId, 'fax.tif', faxTiff(3));
    expect(res.statusCode, res.body).toBe(200);
    await h.runWorkflows();
    const summary = (await t.call(LAKESIDE_USER, 'GET', `/api/messages/${draftId}`)).json().attachments[0];
    expect(summary.previewAvailable).toBe('Available');
  });

  it('refuses password-protected PDFs (user or owner password) and damaged ones; repairs a broken cross-reference table', async () => {
    const draftId = await h.newDraft();
    for (const pdf of [encryptedPdf({ user: 'secret', owner: 'boss' }), encryptedPdf({ owner: 'boss' })]) {
      const res = await h.upload(draftId, 'referral.pdf', pdf);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: 'This PDF is password-protected. Remove the password and attach it again.' });
    }
    const cut = await h.upload(draftId, 'referral.pdf', truncatedPdf(simplePdf()));
    expect(cut.statusCode).toBe(400);
    expect(cut.json()).toEqual({ message: 'This PDF is damaged and cannot be opened. Attach another copy.' });
    expect((await t.call(LAKESIDE_USER, 'GET', `/api/messages/${draftId}`)).json().attachments).toEqual([]);

    const repaired = await h.upload(draftId, 'scanner-output.pdf', brokenXrefPdf());
    expect(repaired.statusCode, repaired.body).toBe(200);
    expect(repaired.json()).toMatchObject({ fileName: 'scanner-output.pdf', previewAvailable: 'Available' });
  });

  it('answers page changes of an already stored protected or damaged PDF with a 4xx, never a 500', async () => {
    const draftId = await h.newDraft();
    const cases: [Uint8Array, string][] = [
      [encryptedPdf({ user: 'secret', owner: 'boss' }), attachmentMessages.pdfProtected],
      [encryptedPdf({ owner: 'boss' }), attachmentMessages.pdfProtected],
      [truncatedPdf(simplePdf()), attachmentMessages.pdfDamaged],
    ];
    for (const [bytes, message] of cases) {
      const row = await h.storedBefore(draftId, 'old.pdf', bytes, 'application/pdf');
      const url = `/api/messages/${draftId}/attachments/${row.id}/transforms`;
      const rotate = await t.call(LAKESIDE_USER, 'PUT', url, { rotations: [{ page: 1, degrees: 90 }] });
      expect(rotate.statusCode, rotate.body).toBe(400);
      expect(rotate.json()).toEqual({ message });
      const remove = await t.call(LAKESIDE_USER, 'PUT', url, { deletions: [1] });
      expect(remove.statusCode).toBe(400);
    }
  });
});

describe('renditions in a file worker with a memory limit', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'clinicrelay-upload-safety-'));
  const limits = { FILE_WORKER_MEMORY_MB: '64' };
  const t = useTestApp({ config: { DATA_DIR: dataDir, ...limits } });
  const h = helpers(t, dataDir, limits);

  it('fails a rendition that needs more memory than allowed, cleanly, while /api/health keeps answering', async () => {
    const draftId = await h.newDraft();
    // 49 megapixels (within the budget) of 1-bit pixels: 6 MB on disk, about 200 MB once decoded to RGBA.
    const res = await h.upload(draftId, 'large-scan.tif', faxTiff(1, { width: 7_000, height: 7_000 }));
    expect(res.statusCode, res.body).toBe(200);
    const attachmentId = res.json().id as string;
    let finished = false;
    const rendering = h.runWorkflows().then((ran) => ((finished = true), ran));
    const health = await t.call(null, 'GET', '/api/health');
    expect(health.statusCode).toBe(200);
    // The API answered while the file was still being worked on: nothing ran on its event loop.
    expect(finished).toBe(false);
    expect(await rendering).toBeGreaterThan(0);

    const [row] = await t.handle.db.select().from(attachments).where(eq(attachments.id, attachmentId));
    expect(row!.previewStatus).toBe('Failed');
    const preview = await t.call(LAKESIDE_USER, 'GET', `/api/messages/${draftId}/attachments/${attachmentId}`);
    expect(preview.statusCode).toBe(422);
    expect(preview.json()).toEqual({ message: previewMessages.failed });
    expect((await t.call(null, 'GET', '/api/health')).statusCode).toBe(200);
  });
});
