import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { messages } from '@clinicrelay/contracts/errors.ts';
import { extractionSeveralPeople } from '@clinicrelay/contracts/intake.ts';
import { auditEvents } from '../../db/schema/audit.ts';
import { featureToggles, organizationFeatures } from '../../db/schema/features.ts';
import { patientExtractions } from '../../db/schema/intake.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { workflows } from '../../db/schema/workflows.ts';
import { workflowHandlers } from '../../platform/workflows/registry.ts';
import { runOnce } from '../../platform/workflows/runner.ts';
import { testConfig, uploadAttachment, useTestApp } from '../../test/app.ts';
import { fixture, itWithFixtures } from '../../test/shared-fixtures.ts';
import { terminateOcr } from './ocr.ts';
import { extractionMessages } from './service.ts';
import { EXTRACTION_WORKFLOW } from './workflow.ts';

const LAKESIDE_USER = 'user@lakeside.example.org';
const LAKESIDE_ADMIN = 'admin@lakeside.example.org';
const RIVERVIEW_USER = 'user@riverview.example.org';
const silent = { info: () => {}, warn: () => {}, error: () => {} };

async function consultNote(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([612, 792]);
  ['Riverview Cardiology Associates', 'Patient Name: ALVAREZ, MARIA E', 'DOB: 04/12/1958', 'Sex: F', 'Assessment: stable angina.'].forEach((line, i) =>
    page.drawText(line, { x: 54, y: 740 - i * 16, size: 10, font }),
  );
  return pdf.save();
}

describe('Patient extraction API (feature PatientExtractionAPI)', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'clinicrelay-extraction-'));
  const t = useTestApp({ config: { DATA_DIR: dataDir } });
  afterAll(() => terminateOcr());
  const db = () => t.handle.db;
  const runWorkflows = () => runOnce({ db: db(), handlers: workflowHandlers({ config: testConfig({ DATA_DIR: dataDir }), db: db(), now: () => t.clock.now }), logger: silent });
  const orgId = async (subdomain: string) => (await db().select({ id: organizations.id }).from(organizations).where(eq(organizations.subdomain, subdomain)))[0]!.id;
  const enable = async (subdomain: string) => {
    const [feature] = await db().select().from(featureToggles).where(eq(featureToggles.name, 'PatientExtractionAPI'));
    await db().insert(organizationFeatures).values({ featureId: feature!.id, organizationId: await orgId(subdomain), isEnabled: true }).onConflictDoNothing();
  };

  // A draft of the user's organization with one attachment uploaded as the web client does.
  const attached = async (user: string, fileName: string, bytes: Uint8Array) => {
    const fromAddress = user.includes('riverview') ? 'referrals@riverview.direct.example.org' : 'intake@lakeside.direct.example.org';
    const draft = await t.call(user, 'PUT', '/api/messages', { subject: 'Consult note', fromAddress, toAddress: 'someone@direct.example.com' });
    expect(draft.statusCode, draft.body).toBe(200);
    const messageId = draft.json().id as string;
    const res = await uploadAttachment(t.app, (await t.login(user)).accessToken, messageId, fileName, bytes);
    expect(res.statusCode, res.body).toBe(200);
    const attachmentId = res.json().id as string;
    const base = `/api/messages/${messageId}/attachments/${attachmentId}`;
    return { messageId, attachmentId, extract: `${base}/patient/extract`, status: `${base}/patient` };
  };

  it('is refused with a clear 404 while the feature is off for the organization', async () => {
    const doc = await attached(RIVERVIEW_USER, 'consult.pdf', await consultNote());
    for (const [method, url] of [['PUT', doc.extract], ['GET', doc.status]] as const) {
      const res = await t.call(RIVERVIEW_USER, method, url);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: extractionMessages.notEnabled });
    }
    expect(await db().select().from(patientExtractions).where(eq(patientExtractions.attachmentId, doc.attachmentId))).toEqual([]);
  });

  it('Lakeside extracts the patient of a consult note: Processing, then Completed with the fields after the workflow', async () => {
    await enable('lakeside');
    const doc = await attached(LAKESIDE_USER, 'consult.pdf', await consultNote());
    expect((await t.call(LAKESIDE_USER, 'GET', doc.status)).statusCode).toBe(404);

    const started = await t.call(LAKESIDE_USER, 'PUT', doc.extract);
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json()).toEqual({ status: 'Processing', patient: null, warning: null });
    expect((await t.call(LAKESIDE_USER, 'GET', doc.status)).json()).toEqual({ status: 'Processing', patient: null, warning: null });
    // A second PUT while the run is Processing answers the same run: no second workflow.
    expect((await t.call(LAKESIDE_ADMIN, 'PUT', doc.extract)).json()).toEqual({ status: 'Processing', patient: null, warning: null });
    expect(await db().select().from(workflows).where(and(eq(workflows.type, EXTRACTION_WORKFLOW), eq(workflows.correlationId, doc.attachmentId)))).toHaveLength(1);

    expect(await runWorkflows()).toBeGreaterThan(0);
    const done = await t.call(LAKESIDE_USER, 'GET', doc.status);
    expect(done.json()).toEqual({ status: 'Completed', patient: { firstName: 'Maria', middleName: 'E', lastName: 'Alvarez', birthDate: '1958-04-12', gender: 'F' }, warning: null });

    // The run's measures, per organization, for the back office's sift metrics.
    const [row] = await db().select().from(patientExtractions).where(eq(patientExtractions.attachmentId, doc.attachmentId));
    expect(row).toMatchObject({
      organizationId: await orgId('lakeside'),
      messageId: doc.messageId,
      status: 'Completed',
      noText: false,
      error: false,
      noMatch: false,
      conflicts: false,
      perfectMatch: true,
      confidenceIsVeryHigh: true,
      hits: { first: true, middle: true, last: true, dob: true, gender: true },
    });
    expect(row!.elapsedMs).toBeGreaterThanOrEqual(0);
    expect(row!.completedAt).not.toBeNull();

    // Both calls are audited on the message, without PHI.
    const audit = await db().select().from(auditEvents).where(eq(auditEvents.correlationId, doc.messageId));
    const types = audit.map((a) => a.eventType);
    expect(types).toContain('PatientExtractionStarted');
    expect(types).toContain('PatientExtractionViewed');
    // The birth date in full: a bare "1958" also turns up inside the random UUIDs the details carry.
    expect(JSON.stringify(audit.map((a) => a.details))).not.toMatch(/alvarez|maria|1958-04-12/i);
  });

  it('starts a new run after a completed one and answers the latest', async () => {
    const doc = await attached(LAKESIDE_USER, 'consult.pdf', await consultNote());
    await t.call(LAKESIDE_USER, 'PUT', doc.extract);
    await runWorkflows();
    t.clock.now = new Date(t.clock.now.getTime() + 1000);
    expect((await t.call(LAKESIDE_USER, 'PUT', doc.extract)).json()).toEqual({ status: 'Processing', patient: null, warning: null });
    expect((await t.call(LAKESIDE_USER, 'GET', doc.status)).json().status).toBe('Processing');
    await runWorkflows();
    expect((await t.call(LAKESIDE_USER, 'GET', doc.status)).json().status).toBe('Completed');
    expect(await db().select().from(patientExtractions).where(eq(patientExtractions.attachmentId, doc.attachmentId))).toHaveLength(2);
  });

  it('records noMatch for a PDF without patient labels and still completes with an empty patient', async () => {
    const pdf = await PDFDocument.create();
    pdf.addPage().drawText('Committee minutes: the meeting started at noon.', { x: 54, y: 700, size: 12, font: await pdf.embedFont(StandardFonts.Helvetica) });
    const doc = await attached(LAKESIDE_USER, 'minutes.pdf', await pdf.save());
    await t.call(LAKESIDE_USER, 'PUT', doc.extract);
    await runWorkflows();
    expect((await t.call(LAKESIDE_USER, 'GET', doc.status)).json()).toEqual({
      status: 'Completed',
      patient: { firstName: null, middleName: null, lastName: null, birthDate: null, gender: null },
      warning: null,
    });
    const [row] = await db().select().from(patientExtractions).where(eq(patientExtractions.attachmentId, doc.attachmentId));
    expect(row).toMatchObject({ noMatch: true, perfectMatch: false, hits: { first: false, middle: false, last: false, dob: false, gender: false } });
  });

  it("warns when the page names more than one person, and never fills a field from the other one", async () => {
    const pdf = await PDFDocument.create();
    const page = pdf.addPage();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    const lines = ['RE: Maria Alvarez', 'DOB: 04/12/1958', 'Thank you for seeing Ms. Alvarez today. Her husband, Mr. Robert Lee Johnson, will drive her.'];
    lines.forEach((line, i) => page.drawText(line, { x: 54, y: 700 - i * 18, size: 11, font }));
    const doc = await attached(LAKESIDE_USER, 'letter.pdf', await pdf.save());
    await t.call(LAKESIDE_USER, 'PUT', doc.extract);
    await runWorkflows();
    expect((await t.call(LAKESIDE_USER, 'GET', doc.status)).json()).toEqual({
      status: 'Completed',
      patient: { firstName: 'Maria', middleName: null, lastName: 'Alvarez', birthDate: '1958-04-12', gender: 'F' },
      warning: extractionSeveralPeople,
    });
    const [row] = await db().select().from(patientExtractions).where(eq(patientExtractions.attachmentId, doc.attachmentId));
    expect(row).toMatchObject({ severalPeople: true });
  });

  itWithFixtures('refuses a structured attachment, which has no PDF', async () => {
    const doc = await attached(LAKESIDE_USER, 'referral-note.xml', fixture('cda/referral-note.xml'));
    const res = await t.call(LAKESIDE_USER, 'PUT', doc.extract);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(extractionMessages.noPdf);
  });

  it('answers 404 to another organization, even with the feature on there, and 403 to a caller without an organization role', async () => {
    const doc = await attached(LAKESIDE_USER, 'consult.pdf', await consultNote());
    await t.call(LAKESIDE_USER, 'PUT', doc.extract);
    await enable('riverview');
    for (const [method, url] of [['PUT', doc.extract], ['GET', doc.status]] as const) {
      const res = await t.call(RIVERVIEW_USER, method, url);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: messages.notFound });
      expect((await t.call('sysadmin@example.org', method, url)).statusCode).toBe(403);
    }
    expect(await db().select().from(patientExtractions).where(eq(patientExtractions.organizationId, await orgId('riverview')))).toEqual([]);
  });
});
