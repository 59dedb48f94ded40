import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { encode as encodePng } from 'fast-png';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { attachmentMessages, attachmentToasts, MAX_ATTACHMENT_BYTES, supportedExtensions } from '@clinicrelay/contracts/attachments.ts';
import { releaseMessages } from '@clinicrelay/contracts/messages.ts';
import { subscriptionMessages } from '@clinicrelay/contracts/subscriptions.ts';
import { attachments } from '../../db/schema/messages.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { workflowHandlers } from '../../platform/workflows/registry.ts';
import { runOnce } from '../../platform/workflows/runner.ts';
import { testConfig, uploadAttachment, useTestApp } from '../../test/app.ts';
import { fixture, itWithFixtures } from '../../test/shared-fixtures.ts';
import { validateCda } from '../../test/validate-cda.ts';
import { validateSchematron } from '../../test/validate-schematron.ts';
import { createBlobStore } from '../../platform/blobs/blob-store.ts';
import { encryptedPdf } from '../../platform/files/sample-files.ts';

const LAKESIDE_USER = 'user@lakeside.example.org';
const RIVERVIEW_USER = 'user@riverview.example.org';

const referral = {
  subject: 'Referral with documents',
  fromAddress: 'intake@lakeside.direct.example.org',
  toAddress: 'referrals@riverview.direct.example.org',
  patient: { firstName: 'Maria', lastName: 'Alvarez', birthDate: '1958-04-12', gender: 'F' },
};
const meta = { documentType: 'Referral Letter', documentDate: '2026-01-15', documentDateType: 'selected', confidentiality: 'Normal', documentDescription: 'Cardiology referral' };

const pageCount = async (bytes: Uint8Array) => (await PDFDocument.load(bytes)).getPageCount();
const silent = { info: () => {}, warn: () => {}, error: () => {} };

function png(): Uint8Array {
  const width = 40;
  const height = 30;
  const data = new Uint8Array(width * height * 3).map((_, i) => (i * 7) % 256);
  return encodePng({ width, height, data, channels: 3, depth: 8 });
}

describe('Release attachments', () => {
  // The app and the workers share one data folder, as in production.
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'clinicrelay-attachments-'));
  const t = useTestApp({ config: { DATA_DIR: dataDir } });
  const tokens = new Map<string, string>();
  const tokenOf = async (user: string) => {
    if (!tokens.has(user)) tokens.set(user, (await t.login(user)).accessToken);
    return tokens.get(user)!;
  };
  const runWorkflows = () => runOnce({ db: t.handle.db, handlers: workflowHandlers({ config: testConfig({ DATA_DIR: dataDir }), db: t.handle.db, now: () => t.clock.now }), logger: silent });

  const newDraft = async (user = LAKESIDE_USER) => {
    const res = await t.call(user, 'PUT', '/api/messages', referral);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().id as string;
  };

  const upload = async (messageId: string, fileName: string, bytes: Uint8Array, options: { user?: string; attachmentMeta?: object } = {}) =>
    uploadAttachment(t.app, await tokenOf(options.user ?? LAKESIDE_USER), messageId, fileName, bytes, options.attachmentMeta ?? meta);

  const uploaded = async (messageId: string, fileName: string, bytes: Uint8Array) => {
    const res = await upload(messageId, fileName, bytes);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ id: string; previewAvailable: string; fileName: string; isRestorable: boolean }>();
  };

  itWithFixtures('Lakeside attaches a PDF to a draft and reads it back as a PDF with its meta data', async () => {
    const draftId = await newDraft();
    const pdf = fixture('pdf/ud-sample.pdf');
    const summary = await uploaded(draftId, 'ud-sample.pdf', pdf);
    expect(summary).toMatchObject({ fileName: 'ud-sample.pdf', mimeType: 'application/pdf', sizeInBytes: pdf.length, previewAvailable: 'Available', isPreviewAvailable: true, isRestorable: false });

    const res = await t.call(LAKESIDE_USER, 'GET', `/api/messages/${draftId}/attachments/${summary.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-disposition']).toBe(`inline; filename="ud-sample.pdf"; filename*=UTF-8''ud-sample.pdf`);
    expect(new Uint8Array(res.rawPayload)).toEqual(pdf);

    const message = (await t.call(LAKESIDE_USER, 'GET', `/api/messages/${draftId}`)).json();
    expect(message.attachments).toEqual([expect.objectContaining({ id: summary.id, previewAvailable: 'Available', isPreviewAvailable: true, attachmentMeta: { ...meta, patient: null } })]);
  });

  it('makes a PDF of a PNG in the background: 202 with Retry-After until the rendition is ready', async () => {
    const draftId = await newDraft();
    const summary = await uploaded(draftId, 'wound photo.png', png());
    expect(summary.previewAvailable).toBe('Processing');
    const pending = await t.call(LAKESIDE_USER, 'GET', `/api/messages/${draftId}/attachments/${summary.id}`);
    expect(pending.statusCode).toBe(202);
    expect(pending.headers['retry-after']).toBe('1');
    expect(pending.json()).toEqual({ message: 'The preview is being prepared.', previewAvailable: 'Processing' });

    expect(await runWorkflows()).toBeGreaterThan(0);
    const ready = await t.call(LAKESIDE_USER, 'GET', `/api/messages/${draftId}/attachments/${summary.id}`);
    expect(ready.statusCode).toBe(200);
    expect(ready.headers['content-type']).toBe('application/pdf');
    expect(ready.headers['content-disposition']).toContain('filename="wound photo.pdf"');
    expect(await pageCount(new Uint8Array(ready.rawPayload))).toBe(1);
    const read = await t.call(LAKESIDE_USER, 'PUT', `/api/messages/${draftId}/attachments/${summary.id}/read`);
    expect(read.json()).toMatchObject({ previewAvailable: 'Available', isPreviewAvailable: true });
  });

  it('answers the file itself, as a download, for a native export (?native=true), even while its PDF is being made', async () => {
    const draftId = await newDraft();
    const bytes = png();
    const summary = await uploaded(draftId, 'wound photo.png', bytes);
    const native = await t.call(LAKESIDE_USER, 'GET', `/api/messages/${draftId}/attachments/${summary.id}?native=true`);
    expect(native.statusCode).toBe(200);
    expect(native.headers['content-type']).toBe('image/png');
    expect(native.headers['content-disposition']).toMatch(/^attachment; filename="wound photo.png"/);
    expect(new Uint8Array(native.rawPayload)).toEqual(new Uint8Array(bytes));
  });

  it('marks a preview Failed when the file cannot be rendered, and generatePreview asks again', async () => {
    const draftId = await newDraft();
    // A PNG signature followed by garbage passes the content check but cannot be drawn.
    const broken = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4, 5]);
    const summary = await uploaded(draftId, 'broken.png', broken);
    await runWorkflows();
    const failed = await t.call(LAKESIDE_USER, 'GET', `/api/messages/${draftId}/attachments/${summary.id}`);
    expect(failed.statusCode).toBe(422);
    const again = await t.call(LAKESIDE_USER, 'PUT', `/api/messages/${draftId}/attachments/${summary.id}/generatePreview`);
    expect(again.json().previewAvailable).toBe('Processing');
    await runWorkflows();
    expect((await t.call(LAKESIDE_USER, 'GET', `/api/messages/${draftId}`)).json().attachments[0].previewAvailable).toBe('Failed');
  });

  itWithFixtures('previews a structured CDA file as read-only text', async () => {
    const draftId = await newDraft();
    const xml = fixture('cda/referral-note.xml');
    const summary = await uploaded(draftId, 'referral-note.xml', xml);
    expect(summary.previewAvailable).toBe('NotApplicable');
    const res = await t.call(LAKESIDE_USER, 'GET', `/api/messages/${draftId}/attachments/${summary.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.body).toBe(Buffer.from(xml).toString('utf8'));
  });

  it('refuses empty, too large, unsupported and disguised files with the spec texts', async () => {
    const draftId = await newDraft();
    const cases: [string, Uint8Array, string][] = [
      ['empty.pdf', new Uint8Array(0), attachmentMessages.empty],
      ['huge.pdf', new Uint8Array(MAX_ATTACHMENT_BYTES + 1), attachmentMessages.tooLarge],
      ['setup.exe', new Uint8Array([0x4d, 0x5a, 0x90, 0x00]), 'Your attachment file type .exe is not supported'],
      ['README', new TextEncoder().encode('hello'), 'Your attachment file type is not supported'],
      ['report.pdf', new TextEncoder().encode('not a pdf at all'), attachmentMessages.contentMismatch('report.pdf', 'pdf')],
    ];
    for (const [name, bytes, text] of cases) {
      const res = await upload(draftId, name, bytes);
      // issue 8 §3: an upload over the size limit is 413 Payload Too Large.
      expect(res.statusCode, name).toBe(text === attachmentMessages.tooLarge ? 413 : 400);
      expect(res.json(), name).toEqual({ message: text });
    }
    expect((await t.call(LAKESIDE_USER, 'GET', `/api/messages/${draftId}`)).json().attachments).toEqual([]);
  });

  itWithFixtures('refuses bad meta data: notes over 255 characters and invalid dates', async () => {
    const draftId = await newDraft();
    const res = await upload(draftId, 'ud-sample.pdf', fixture('pdf/ud-sample.pdf'), { attachmentMeta: { documentDescription: 'x'.repeat(256), documentDate: '2026-02-30' } });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().modelState)).toEqual(expect.arrayContaining(['attachmentMeta.documentDescription', 'attachmentMeta.documentDate']));
  });

  itWithFixtures('updates selection, name and meta; a documentDate of 1753-01-01 is stored as empty', async () => {
    const draftId = await newDraft();
    const summary = await uploaded(draftId, 'ud-sample.pdf', fixture('pdf/ud-sample.pdf'));
    const res = await t.call(LAKESIDE_USER, 'PUT', `/api/messages/${draftId}/attachments`, [
      { id: summary.id, isSelected: false, fileName: 'Referral letter', attachmentMeta: { ...meta, documentDate: '1753-01-01', confidentiality: 'Restricted' } },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()[0]).toMatchObject({ isSelected: false, fileName: 'Referral letter.pdf', attachmentMeta: { documentDate: null, confidentiality: 'Restricted' } });
    const tooLong = await t.call(LAKESIDE_USER, 'PUT', `/api/messages/${draftId}/attachments`, [{ id: summary.id, attachmentMeta: { documentDescription: 'x'.repeat(256) } }]);
    expect(tooLong.statusCode).toBe(400);
  });

  itWithFixtures('rotates and removes pages, then restores the original keeping the meta data', async () => {
    const draftId = await newDraft();
    const original = fixture('pdf/ud-sample.pdf');
    const summary = await uploaded(draftId, 'ud-sample.pdf', original);
    const url = `/api/messages/${draftId}/attachments/${summary.id}`;
    const changed = await t.call(LAKESIDE_USER, 'PUT', `${url}/transforms`, { rotations: [{ page: 1, degrees: 90 }], deletions: [3] });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ isRestorable: true, previewAvailable: 'Available' });
    const served = await PDFDocument.load(new Uint8Array((await t.call(LAKESIDE_USER, 'GET', url)).rawPayload));
    expect(served.getPageCount()).toBe(2);
    expect(served.getPage(0).getRotation().angle).toBe(90);

    const everyPage = await t.call(LAKESIDE_USER, 'PUT', `${url}/transforms`, { deletions: [1, 2] });
    expect(everyPage.json()).toEqual({ message: attachmentMessages.cannotRemoveEveryPage });

    const restored = await t.call(LAKESIDE_USER, 'PUT', `${url}/restore`);
    expect(restored.json()).toEqual({ message: attachmentToasts.restored });
    expect(new Uint8Array((await t.call(LAKESIDE_USER, 'GET', url)).rawPayload)).toEqual(original);
    const [after] = (await t.call(LAKESIDE_USER, 'GET', `/api/messages/${draftId}`)).json().attachments;
    expect(after).toMatchObject({ isRestorable: false, fileName: 'ud-sample.pdf', attachmentMeta: { documentType: 'Referral Letter', documentDescription: 'Cardiology referral' } });
  });

  itWithFixtures('converts a PNG to PDF, and a PDF to a C-CDA that validates against the CDA schema; restore brings the PDF back', async () => {
    const draftId = await newDraft();
    const image = await uploaded(draftId, 'scan.png', png());
    await runWorkflows();
    const asPdf = await t.call(LAKESIDE_USER, 'PUT', `/api/messages/${draftId}/attachments/${image.id}/convert?type=Pdf`);
    expect(asPdf.json()).toMatchObject({ fileName: 'scan.pdf', mimeType: 'application/pdf', isRestorable: true });

    const pdf = await uploaded(draftId, 'ud-sample.pdf', fixture('pdf/ud-sample.pdf'));
    const url = `/api/messages/${draftId}/attachments/${pdf.id}`;
    const asCda = await t.call(LAKESIDE_USER, 'PUT', `${url}/convert?type=Cda`);
    expect(asCda.statusCode, asCda.body).toBe(200);
    expect(asCda.json()).toMatchObject({ fileName: 'ud-sample.xml', mimeType: 'application/xml', previewAvailable: 'NotApplicable', isRestorable: true });
    const xml = (await t.call(LAKESIDE_USER, 'GET', url)).body;
    expect(xml).toContain('<ClinicalDocument');
    expect(xml).toContain('Alvarez');
    const validation = await validateCda(xml);
    expect(validation.errors).toEqual([]);
    expect(validation.valid).toBe(true);

    await t.call(LAKESIDE_USER, 'PUT', `${url}/restore`);
    const back = await t.call(LAKESIDE_USER, 'GET', url);
    expect(back.headers['content-type']).toBe('application/pdf');
    expect((await t.call(LAKESIDE_USER, 'GET', `/api/messages/${draftId}`)).json().attachments[1]).toMatchObject({ fileName: 'ud-sample.pdf', mimeType: 'application/pdf' });
  });

  itWithFixtures('converts to C-CDA that passes the R2.1 Schematron: the type\'s LOINC code, the document date, the MRN, the organization, the signer', async () => {
    const res = await t.call(LAKESIDE_USER, 'PUT', '/api/messages', { ...referral, patient: { ...referral.patient, patientId: 'LK-20417', city: 'Portland', state: 'OR' } });
    const draftId = res.json().id as string;
    const pdf = await uploaded(draftId, 'ud-sample.pdf', fixture('pdf/ud-sample.pdf'));
    const url = `/api/messages/${draftId}/attachments/${pdf.id}`;
    const lakeside = eq(organizations.subdomain, 'lakeside');
    const [before] = await t.handle.db.select().from(organizations).where(lakeside);
    await t.handle.db.update(organizations).set({ addressStreet: '1 Lake Way', addressCity: 'Portland', addressState: 'OR', addressZip: '97201', primaryPhone: '503-555-0100' }).where(lakeside);
    try {
      expect((await t.call(LAKESIDE_USER, 'PUT', `${url}/convert?type=Cda`)).statusCode).toBe(200);
    } finally {
      await t.handle.db.update(organizations).set(before!).where(lakeside);
    }
    const xml = (await t.call(LAKESIDE_USER, 'GET', url)).body;

    expect(validateSchematron(xml).errors).toEqual([]);
    expect((await validateCda(xml)).errors).toEqual([]);
    expect(xml).toContain('<code code="57133-1" codeSystem="2.16.840.1.113883.6.1" codeSystemName="LOINC" displayName="Referral Letter">');
    expect(xml).toContain('<effectiveTime value="20260115"/>');
    expect(xml).toMatch(/<patientRole>\n<id root="2\.25\.\d+\.1" extension="LK-20417"\/>/);
    expect(xml).toContain('<addr use="HP"><streetAddressLine nullFlavor="UNK"/><city>Portland</city><state>OR</state><postalCode nullFlavor="UNK"/></addr>');
    expect(xml).toContain('<raceCode nullFlavor="UNK"/>');
    const custodian = /<representedCustodianOrganization>([\s\S]*?)<\/representedCustodianOrganization>/.exec(xml)?.[1];
    expect(custodian).toContain('<telecom use="WP" value="tel:503-555-0100"/><addr use="WP"><streetAddressLine>1 Lake Way</streetAddressLine><city>Portland</city><state>OR</state><postalCode>97201</postalCode>');
    expect(xml).toMatch(/<legalAuthenticator><time value="\d{14}\+0000"\/><signatureCode code="S"\/>/);
  });

  itWithFixtures('never wraps an encrypted PDF in a CDA document (one stored before uploads refused them)', async () => {
    const draftId = await newDraft();
    const pdf = await uploaded(draftId, 'ud-sample.pdf', fixture('pdf/ud-sample.pdf'));
    const blobs = createBlobStore({ db: t.handle.db, dataDir: t.config.dataDir, key: t.config.blobEncryptionKey });
    const [row] = await t.handle.db.select().from(attachments).where(eq(attachments.id, pdf.id));
    const locked = await blobs.put(encryptedPdf({ user: 'secret', owner: 'owner' }), { organizationId: row!.organizationId });
    await t.handle.db.update(attachments).set({ previewBlobId: locked.id }).where(eq(attachments.id, pdf.id));

    const refused = await t.call(LAKESIDE_USER, 'PUT', `/api/messages/${draftId}/attachments/${pdf.id}/convert?type=Cda`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ message: attachmentMessages.pdfPasswordProtected });
    expect((await t.call(LAKESIDE_USER, 'GET', `/api/messages/${draftId}`)).json().attachments[0]).toMatchObject({ mimeType: 'application/pdf' });
  });

  itWithFixtures('refuses a CDA conversion when the patient has no name', async () => {
    const res = await t.call(LAKESIDE_USER, 'PUT', '/api/messages', { ...referral, patient: { firstName: 'Maria' } });
    const draftId = res.json().id as string;
    const pdf = await uploaded(draftId, 'ud-sample.pdf', fixture('pdf/ud-sample.pdf'));
    const refused = await t.call(LAKESIDE_USER, 'PUT', `/api/messages/${draftId}/attachments/${pdf.id}/convert?type=Cda`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().modelState.patient).toEqual([releaseMessages.patientLastNameRequired]);
  });

  itWithFixtures('converts a patient without birth date or gender: both unknown (nullFlavor UNK), zero Schematron errors, schema-valid', async () => {
    const res = await t.call(LAKESIDE_USER, 'PUT', '/api/messages', { ...referral, patient: { firstName: 'Maria', lastName: 'Alvarez' } });
    const draftId = res.json().id as string;
    const pdf = await uploaded(draftId, 'ud-sample.pdf', fixture('pdf/ud-sample.pdf'));
    const url = `/api/messages/${draftId}/attachments/${pdf.id}`;
    expect((await t.call(LAKESIDE_USER, 'PUT', `${url}/convert?type=Cda`)).statusCode).toBe(200);
    const xml = (await t.call(LAKESIDE_USER, 'GET', url)).body;
    expect(xml).toContain('<administrativeGenderCode nullFlavor="UNK"/>\n<birthTime nullFlavor="UNK"/>');
    expect(validateSchematron(xml).errors).toEqual([]);
    expect((await validateCda(xml)).errors).toEqual([]);
  });

  itWithFixtures('deletes an attachment of a draft', async () => {
    const draftId = await newDraft();
    const summary = await uploaded(draftId, 'ud-sample.pdf', fixture('pdf/ud-sample.pdf'));
    const res = await t.call(LAKESIDE_USER, 'DELETE', `/api/messages/${draftId}/attachments/${summary.id}`);
    expect(res.json()).toEqual({ message: 'Attachment has been deleted.' });
    expect((await t.call(LAKESIDE_USER, 'GET', `/api/messages/${draftId}/attachments/${summary.id}`)).statusCode).toBe(404);
  });

  it('lists the supported extensions', async () => {
    expect((await t.call(LAKESIDE_USER, 'GET', '/api/attachments/extensions')).json()).toEqual([...supportedExtensions]);
  });

  itWithFixtures('refuses a CDA conversion on the Stay Connected plan (end-user §6), and still converts to PDF', async () => {
    const draftId = await newDraft();
    const pdf = await uploaded(draftId, 'ud-sample.pdf', fixture('pdf/ud-sample.pdf'));
    const lakeside = eq(organizations.subdomain, 'lakeside');
    await t.handle.db.update(organizations).set({ planId: 'stay-connected' }).where(lakeside);
    try {
      const refused = await t.call(LAKESIDE_USER, 'PUT', `/api/messages/${draftId}/attachments/${pdf.id}/convert?type=Cda`);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ message: subscriptionMessages.upgradeRequired });
      expect((await t.call(LAKESIDE_USER, 'PUT', `/api/messages/${draftId}/attachments/${pdf.id}/convert?type=Pdf`)).statusCode).toBe(200);
    } finally {
      await t.handle.db.update(organizations).set({ planId: 'professional' }).where(lakeside);
    }
  });

  itWithFixtures("keeps Lakeside's attachments invisible to Riverview: 404 everywhere, and nothing changes", async () => {
    const draftId = await newDraft();
    const summary = await uploaded(draftId, 'ud-sample.pdf', fixture('pdf/ud-sample.pdf'));
    const url = `/api/messages/${draftId}/attachments/${summary.id}`;
    const before = await t.handle.db.select().from(attachments).where(eq(attachments.messageId, draftId));
    const attempts = [
      ['GET', url, undefined],
      ['DELETE', url, undefined],
      ['PUT', `${url}/restore`, undefined],
      ['PUT', `${url}/transforms`, { deletions: [1] }],
      ['PUT', `${url}/convert?type=Cda`, undefined],
      ['PUT', `${url}/generatePreview`, undefined],
      ['PUT', `${url}/read`, undefined],
      ['PUT', `/api/messages/${draftId}/attachments`, [{ id: summary.id, isSelected: false }]],
    ] as const;
    for (const [method, target, body] of attempts) {
      const res = await t.call(RIVERVIEW_USER, method, target, body);
      expect(res.statusCode, `${method} ${target}`).toBe(404);
      expect(res.json()).toEqual({ message: 'The resource you are looking for was not found.' });
    }
    const stolen = await upload(draftId, 'ud-sample.pdf', fixture('pdf/ud-sample.pdf'), { user: RIVERVIEW_USER });
    expect(stolen.statusCode).toBe(404);
    // Riverview's own draft does not open Lakeside's attachment either.
    const riverviewDraft = await newDraft(RIVERVIEW_USER);
    expect((await t.call(RIVERVIEW_USER, 'GET', `/api/messages/${riverviewDraft}/attachments/${summary.id}`)).statusCode).toBe(404);
    expect(await t.handle.db.select().from(attachments).where(eq(attachments.messageId, draftId))).toEqual(before);
  });
});
