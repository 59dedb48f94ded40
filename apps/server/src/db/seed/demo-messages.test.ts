import { and, count, eq, inArray } from 'drizzle-orm';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { beforeAll, expect, it } from 'vitest';
import { attachments, deliveries, messages, patients } from '../schema/messages.ts';
import { organizations } from '../schema/organizations.ts';
import { workflows } from '../schema/workflows.ts';
import { createBlobStore, type BlobStore } from '../../platform/blobs/blob-store.ts';
import type { WorkflowLogger } from '../../platform/workflows/context.ts';
import { workflowHandlers } from '../../platform/workflows/registry.ts';
import { runOnce } from '../../platform/workflows/runner.ts';
import { testConfig, useTestApp } from '../../test/app.ts';
import { describeWithFixtures } from '../../test/shared-fixtures.ts';
import { validateCda } from '../../test/validate-cda.ts';
import { seedDemoMessages } from './demo-messages.ts';

const quiet: WorkflowLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

// Text as a reader sees it, through PDF.js (a different parser than the writer).
async function pdfText(bytes: Uint8Array): Promise<{ text: string; pages: number }> {
  const task = getDocument({ data: new Uint8Array(bytes), verbosity: 0 });
  try {
    const document = await task.promise;
    const pages: string[] = [];
    for (let n = 1; n <= document.numPages; n++) {
      const content = await (await document.getPage(n)).getTextContent();
      pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
    }
    return { text: pages.join('\n'), pages: document.numPages };
  } finally {
    await task.destroy();
  }
}

// The tests build on each other and two validate C-CDAs against the shared CDA schema: one block.
describeWithFixtures('demo messages', () => {
  const t = useTestApp();
  const config = testConfig();
  let blobs: BlobStore;
  const org: Record<string, string> = {};
  const db = () => t.handle.db;
  const seed = () => seedDemoMessages({ db: db(), blobs, now: () => t.clock.now });
  const drain = async () => {
    let ran = 0;
    for (let batch = -1; batch !== 0; ran += batch) batch = await runOnce({ db: db(), handlers: workflowHandlers({ config, db: db(), now: () => t.clock.now }), logger: quiet });
    return ran;
  };
  const inbound = (organizationId: string) =>
    db().select().from(messages).where(and(eq(messages.organizationId, organizationId), eq(messages.direction, 'Inbound'))).orderBy(messages.subject);
  const filesOf = (messageId: string) => db().select().from(attachments).where(eq(attachments.messageId, messageId)).orderBy(attachments.position);
  const messageCount = async () => (await db().select({ n: count() }).from(messages))[0]!.n;

  beforeAll(async () => {
    blobs = createBlobStore({ db: db(), dataDir: config.dataDir, key: config.blobEncryptionKey });
    for (const o of await db().select().from(organizations)) org[o.subdomain] = o.id;
  });

  it('commits four sends (Pending, deliveries Pending, send workflows queued) and a draft', async () => {
    expect(await seed()).toBe(5);
    const outbound = await db().select().from(messages).where(eq(messages.direction, 'Outbound')).orderBy(messages.messageDate);
    expect(outbound.map((m) => [m.subject, m.isDraft, m.status])).toEqual([
      ['Cardiology referral: palpitations', false, 'Pending'],
      ['Lab results for Thomas Nguyen', false, 'Pending'],
      ['Consult note: Evelyn Brooks', false, 'Pending'],
      ['Continuity of care document for Evelyn Brooks', false, 'Pending'],
      ['Draft: records request for Maria Alvarez', true, 'Draft'],
    ]);
    const sent = outbound.filter((m) => !m.isDraft);
    const week = t.clock.now.getTime() - 7 * 86_400_000;
    for (const m of sent) expect(m.messageDate!.getTime()).toBeGreaterThan(week);
    expect(m(sent, 'Lab results for Thomas Nguyen').conversion).toBe('Cda');
    const rows = await db().select().from(deliveries).where(inArray(deliveries.messageId, sent.map((s) => s.id)));
    expect(rows.map((d) => [d.recipient, d.channel, d.status]).sort()).toEqual([
      ['5035550101', 'Fax', 'Pending'],
      ['intake@lakeside.direct.example.org', 'Direct', 'Pending'],
      ['referrals@riverview.direct.example.org', 'Direct', 'Pending'],
      ['referrals@riverview.direct.example.org', 'Direct', 'Pending'],
    ]);
    const queued = await db().select().from(workflows).where(eq(workflows.type, 'send-message'));
    expect(queued.map((w) => w.correlationId).sort()).toEqual(sent.map((s) => s.id).sort());
    const draft = outbound.find((x) => x.isDraft)!;
    expect(await filesOf(draft.id)).toEqual([]);
    expect((await db().select().from(patients).where(eq(patients.messageId, draft.id)))[0]).toMatchObject({ firstName: 'Maria', lastName: 'Alvarez', birthDate: '1958-04-12', gender: 'F' });
  });

  it('is delivered by the workers: Riverview gets the referral and the lab results as a valid C-CDA', async () => {
    expect(await drain()).toBe(4);
    const received = await inbound(org.riverview!);
    expect(received.map((r) => [r.subject, r.sourceType, r.fromAddress, r.patientName])).toEqual([
      ['Cardiology referral: palpitations', 'Direct', 'intake@lakeside.direct.example.org', 'Alvarez, Maria'],
      ['Lab results for Thomas Nguyen', 'Direct', 'intake@lakeside.direct.example.org', 'Nguyen, Thomas'],
    ]);
    const [referral] = await filesOf(m(received, 'Cardiology referral: palpitations').id);
    expect(referral).toMatchObject({ mimeType: 'application/pdf', previewStatus: 'Available' });
    expect(referral!.meta).toMatchObject({ documentType: 'Referral Letter', confidentiality: 'Normal' });
    const letter = await pdfText(await blobs.get(referral!.currentBlobId));
    expect(letter.pages).toBe(1);
    expect(letter.text).toContain('Alvarez');
    expect(letter.text).toContain('palpitations and intermittent chest tightness');
    expect(letter.text).toContain('Laura Lake, MD');

    const [lab] = await filesOf(m(received, 'Lab results for Thomas Nguyen').id);
    expect(lab).toMatchObject({ mimeType: 'application/xml', fileName: 'Lab report - Nguyen, Thomas.xml', previewStatus: 'Available' });
    const xml = new TextDecoder().decode(await blobs.get(lab!.currentBlobId));
    expect(await validateCda(xml)).toEqual({ valid: true, errors: [] });
    expect(xml).toContain('<family>Nguyen</family>');
    const report = await pdfText(await blobs.get(lab!.previewBlobId!));
    expect(report.pages).toBe(2);
    expect(report.text).toContain('Nguyen');
    expect(report.text).toContain('Hemoglobin');
    expect(report.text).toContain('Creatinine');
  });

  it('Lakeside gets the consult note as a fax with its cover sheet, and the C-CDA as a structured file', async () => {
    const received = await inbound(org.lakeside!);
    expect(received.map((r) => [r.sourceType, r.fromAddress])).toEqual([
      ['Direct', 'referrals@riverview.direct.example.org'],
      ['Fax', '5035550202'],
    ]);
    const fax = received.find((r) => r.sourceType === 'Fax')!;
    expect(fax.properties!.faxPageCount).toBeGreaterThanOrEqual(2);
    const [faxFile] = await filesOf(fax.id);
    const faxPages = await pdfText(await blobs.get(faxFile!.currentBlobId));
    expect(faxPages.pages).toBe(fax.properties!.faxPageCount);
    expect(faxPages.text).toContain('Brooks');
    expect(faxPages.text).toContain('Rachel Rivers, MD');

    const ccd = m(received, 'Continuity of care document for Evelyn Brooks');
    expect(ccd.patientName).toBe('Brooks, Evelyn');
    const files = await filesOf(ccd.id);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatchObject({ mimeType: 'application/xml', previewStatus: 'NotApplicable', previewBlobId: null });
    const xml = new TextDecoder().decode(await blobs.get(files[0]!.currentBlobId));
    expect(await validateCda(xml)).toEqual({ valid: true, errors: [] });
    expect(xml).toContain('<family>Brooks</family>');
    expect(xml).toContain('code="11488-4"');
    // The embedded PDF is the consult note.
    const embedded = /<text mediaType="application\/pdf" representation="B64">([^<]+)<\/text>/.exec(xml)![1]!;
    const note = await pdfText(new Uint8Array(Buffer.from(embedded, 'base64')));
    expect(note.pages).toBe(1);
    expect(note.text).toContain('Brooks');
    expect(note.text).toContain('atrial fibrillation');
  });

  it('every sent PDF is readable and names its patient', async () => {
    const sent = await db().select().from(messages).where(and(eq(messages.direction, 'Outbound'), eq(messages.isDraft, false)));
    const pdfs = (await db().select().from(attachments).where(inArray(attachments.messageId, sent.map((s) => s.id)))).filter((a) => a.mimeType === 'application/pdf');
    expect(pdfs).toHaveLength(3);
    for (const a of pdfs) {
      expect(a).toMatchObject({ previewStatus: 'Available', previewBlobId: a.currentBlobId });
      const bytes = await blobs.get(a.currentBlobId);
      expect(new TextDecoder().decode(bytes.subarray(0, 5))).toBe('%PDF-');
      const patientName = sent.find((s) => s.id === a.messageId)!.patientName!.split(',')[0]!;
      expect((await pdfText(bytes)).text).toContain(patientName);
    }
  });

  it('shows the sent messages Delivered in Lakeside’s Release list', async () => {
    const res = await t.call('user@lakeside.example.org', 'GET', '/api/messages?isDraft=false');
    expect(res.statusCode, res.body).toBe(200);
    const items = res.json().items as { subject: string; status: string; deliveries: { status: string }[] }[];
    expect(items.map((i) => [i.subject, i.status]).sort()).toEqual([
      ['Cardiology referral: palpitations', 'Delivered'],
      ['Lab results for Thomas Nguyen', 'Delivered'],
    ]);
    for (const i of items) expect(i.deliveries.map((d) => d.status)).toEqual(['Delivered']);
    const riverview = (await t.call('user@riverview.example.org', 'GET', '/api/messages?isDraft=false')).json().items as { status: string }[];
    expect(riverview.map((i) => i.status)).toEqual(['Delivered', 'Delivered']);
  });

  it('is idempotent: seeding twice adds nothing', async () => {
    const before = await messageCount();
    expect(await seed()).toBe(0);
    expect(await drain()).toBe(0);
    expect(await messageCount()).toBe(before);
  });
});

function m<T extends { subject: string }>(rows: T[], subject: string): T {
  const row = rows.find((r) => r.subject === subject);
  if (!row) throw new Error(`no message ${subject}`);
  return row;
}
