import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { count, eq } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachmentMessages } from '@clinicrelay/contracts/attachments.ts';
import { auditEvents } from '../../db/schema/audit.ts';
import { blobs } from '../../db/schema/blobs.ts';
import { attachments } from '../../db/schema/messages.ts';
import { createTestApp, uploadAttachment, type TestContext } from '../../test/app.ts';
import { clamdMissing, EICAR, EICAR_SIGNATURE, freePort, startClamd, type RunningClamd } from '../../test/clamd.ts';

const LAKESIDE_USER = 'user@lakeside.example.org';
const NOT_SCANNED = 'not configured — uploads are not scanned';
const referral = {
  subject: 'Referral with documents',
  fromAddress: 'intake@lakeside.direct.example.org',
  toAddress: 'referrals@riverview.direct.example.org',
  patient: { firstName: 'Maria', lastName: 'Alvarez', birthDate: '1958-04-12', gender: 'F' },
};

async function cleanPdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.addPage().drawText('Cardiology referral for Maria Alvarez');
  return pdf.save();
}

// Everything an upload could leave behind: blob rows, blob files (temp files too) and attachment rows.
async function stored(t: TestContext, dataDir: string, messageId: string) {
  const root = path.join(dataDir, 'blobs');
  const files = existsSync(root) ? readdirSync(root, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).length : 0;
  const [blobRows] = await t.handle.db.select({ n: count() }).from(blobs);
  const [attachmentRows] = await t.handle.db.select({ n: count() }).from(attachments).where(eq(attachments.messageId, messageId));
  return { files, blobRows: blobRows!.n, attachmentRows: attachmentRows!.n };
}

// An app on its own data folder, scanning with clamd at `clamdUrl` (none: not configured).
async function appScanningWith(clamdUrl: string | undefined) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'clinicrelay-antivirus-'));
  const t = await createTestApp({ config: { DATA_DIR: dataDir, ...(clamdUrl ? { CLAMD_URL: clamdUrl } : {}) } });
  const token = (await t.login(LAKESIDE_USER)).accessToken;
  const newDraft = async () => {
    const res = await t.call(token, 'PUT', '/api/messages', referral);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().id as string;
  };
  const upload = (messageId: string, fileName: string, bytes: Uint8Array) => uploadAttachment(t.app, token, messageId, fileName, bytes);
  // The first upload makes the blob folder; the counts compare from there.
  const warmUp = await upload(await newDraft(), 'warm-up.pdf', await cleanPdf());
  return { t, dataDir, newDraft, upload, warmUp };
}

describe('uploads without a virus scanner', () => {
  it('are stored unscanned, and health says that uploads are not scanned', async () => {
    const { t, warmUp } = await appScanningWith(undefined);
    try {
      expect(warmUp.statusCode, warmUp.body).toBe(200);
      const health = await t.call(null, 'GET', '/api/health');
      expect(health.json()).toMatchObject({ status: 'ok', antivirus: NOT_SCANNED });
    } finally {
      await t.close();
    }
  });

  it('are refused with 503 and Retry-After, and nothing stored, when the configured clamd does not answer', async () => {
    const { t, dataDir, newDraft, upload } = await appScanningWith(`tcp://127.0.0.1:${await freePort()}`);
    try {
      const draftId = await newDraft();
      const before = await stored(t, dataDir, draftId);
      const res = await upload(draftId, 'referral.pdf', await cleanPdf());
      expect(res.statusCode, res.body).toBe(503);
      expect(res.headers['retry-after']).toBe('60');
      expect(res.json()).toEqual({ message: attachmentMessages.scannerUnavailable });
      expect(await stored(t, dataDir, draftId)).toEqual(before);
      const health = await t.call(null, 'GET', '/api/health');
      expect(health.json()).toMatchObject({ status: 'ok', database: 'ok', antivirus: 'unreachable' });
    } finally {
      await t.close();
    }
  });
});

const missing = clamdMissing();

describe.skipIf(missing)(`uploads scanned by a real clamd${missing ? ` (skipped: ${missing})` : ''}`, () => {
  let clamd: RunningClamd;
  let app: Awaited<ReturnType<typeof appScanningWith>>;
  beforeAll(async () => {
    clamd = await startClamd();
    app = await appScanningWith(clamd.url);
  });
  afterAll(async () => {
    await app?.t.close();
    await clamd?.stop();
  });

  it('health says the scanner answers', async () => {
    const health = await app.t.call(null, 'GET', '/api/health');
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok', database: 'ok', antivirus: 'ok' });
  });

  it('Lakeside attaches the EICAR test file: refused with the virus named, audited, and nothing of it stored', async () => {
    const { t, dataDir, newDraft, upload } = app;
    const draftId = await newDraft();
    const before = await stored(t, dataDir, draftId);
    const res = await upload(draftId, 'lab-results.txt', new TextEncoder().encode(EICAR));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual({ message: attachmentMessages.infected(EICAR_SIGNATURE) });
    expect(res.json().message).toBe(`This file contains a virus or malware (${EICAR_SIGNATURE}) and was not attached.`);
    expect(await stored(t, dataDir, draftId)).toEqual(before);
    const audit = await t.handle.db.select().from(auditEvents).where(eq(auditEvents.eventType, 'UploadRefusedInfected'));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ userName: LAKESIDE_USER, correlationId: draftId, details: { signature: EICAR_SIGNATURE, sizeInBytes: EICAR.length } });
    // The file's name may name the patient: it is not in the audit row.
    expect(JSON.stringify(audit[0])).not.toContain('lab-results');
    const draft = await t.call(LAKESIDE_USER, 'GET', `/api/messages/${draftId}`);
    expect(draft.statusCode).toBe(200);
    expect(draft.json().attachments).toEqual([]);
  });

  it('a clean PDF passes the scan and is attached', async () => {
    const { t, dataDir, newDraft, upload, warmUp } = app;
    expect(warmUp.statusCode, warmUp.body).toBe(200);
    const draftId = await newDraft();
    const before = await stored(t, dataDir, draftId);
    const res = await upload(draftId, 'referral.pdf', await cleanPdf());
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ fileName: 'referral.pdf', mimeType: 'application/pdf' });
    const after = await stored(t, dataDir, draftId);
    expect(after.attachmentRows).toBe(before.attachmentRows + 1);
    expect(after.blobRows).toBe(before.blobRows + 1);
    expect(after.files).toBe(before.files + 1);
  });

  it('uploads wait for clamd again once it is stopped: 503, nothing stored', async () => {
    const { t, dataDir, newDraft, upload } = app;
    const draftId = await newDraft();
    const before = await stored(t, dataDir, draftId);
    await clamd.stop();
    const res = await upload(draftId, 'referral.pdf', await cleanPdf());
    expect(res.statusCode, res.body).toBe(503);
    expect(res.headers['retry-after']).toBe('60');
    expect(await stored(t, dataDir, draftId)).toEqual(before);
    expect((await t.call(null, 'GET', '/api/health')).json()).toMatchObject({ antivirus: 'unreachable' });
  });
});
