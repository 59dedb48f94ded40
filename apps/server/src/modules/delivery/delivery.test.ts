import { and, eq, sql } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { deliveryReasons, recipientCheckTexts, sendNotices } from '@clinicrelay/contracts/delivery.ts';
import { releaseMessages } from '@clinicrelay/contracts/messages.ts';
import { documentSources } from '../../db/schema/document-sources.ts';
import { featureToggles, organizationFeatures } from '../../db/schema/features.ts';
import { addressCache, attachments, conversations, deliveries, messages } from '../../db/schema/messages.ts';
import { workflowSteps, workflows } from '../../db/schema/workflows.ts';
import { createBlobStore, type BlobStore } from '../../platform/blobs/blob-store.ts';
import { pdfPageCount } from '../../platform/files/renditions.ts';
import { workflowContext, type WorkflowLogger } from '../../platform/workflows/context.ts';
import { workflowHandlers } from '../../platform/workflows/registry.ts';
import { claimNext, runOnce } from '../../platform/workflows/runner.ts';
import { testConfig, useTestApp } from '../../test/app.ts';
import { describeWithFixtures, fixture } from '../../test/shared-fixtures.ts';
import { validateSchematron } from '../../test/validate-schematron.ts';
import { createSandboxFaxProvider } from '../../transports/fax/sandbox-fax-provider.ts';
import { localFaxLine } from '../../transports/local.ts';
import { sendMessageWorkflow } from './send-workflow.ts';
import { SEND_WORKFLOW } from './service.ts';

const LAKESIDE_USER = 'user@lakeside.example.org';
const RIVERVIEW_USER = 'user@riverview.example.org';
const RIVERVIEW_DIRECT = 'referrals@riverview.direct.example.org';
const LAKESIDE_FAX = '5035550101';
const RIVERVIEW_FAX = '5035550202';
const OTHER_DIRECT = 'someone@other.example.com';
const EXTERNAL_FAX = '5551234567';
const samplePdf = fixture('pdf/ud-sample.pdf');
const quiet: WorkflowLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

const patient = { firstName: 'Maria', lastName: 'Alvarez', birthDate: '1958-04-12', gender: 'F' };

// Most sends attach ud-sample.pdf: the whole block needs the shared fixtures.
describeWithFixtures('Release send and delivery', () => {
  const t = useTestApp();
  const config = testConfig();
  let blobs: BlobStore;
  let orgOf: Record<string, string>;
  let releaseTypeId: string;
  const db = () => t.handle.db;
  const runWorkers = () => runOnce({ db: db(), handlers: workflowHandlers({ config, db: db(), now: () => t.clock.now }), logger: quiet });

  beforeAll(async () => {
    blobs = createBlobStore({ db: db(), dataDir: config.dataDir, key: config.blobEncryptionKey });
    const sources = await db().select().from(documentSources);
    orgOf = Object.fromEntries(sources.map((s) => [s.fullAddress, s.organizationId]));
    releaseTypeId = (await t.call(LAKESIDE_USER, 'GET', '/api/releasetypes')).json()[0].id;
  });

  const saveDraft = async (body: object, user = LAKESIDE_USER) => {
    const res = await t.call(user, 'PUT', '/api/messages', body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().id as string;
  };
  const attachPdf = async (messageId: string, meta: { documentType?: string | null; documentDate?: string | null; confidentiality?: 'Normal' | null } | null = {}) => {
    const blob = await blobs.put(samplePdf, { organizationId: orgOf[LAKESIDE_FAX]! });
    const [row] = await db()
      .insert(attachments)
      .values({
        messageId,
        organizationId: orgOf[LAKESIDE_FAX]!,
        fileName: 'ud-sample.pdf',
        mimeType: 'application/pdf',
        sizeInBytes: samplePdf.length,
        originalBlobId: blob.id,
        currentBlobId: blob.id,
        previewBlobId: blob.id,
        previewStatus: 'Available',
        meta: meta && { documentType: 'Referral Letter', documentDate: '2026-01-15', documentDateType: 'selected', confidentiality: 'Normal', documentDescription: 'Referral letter', patient: null, ...meta },
      })
      .returning();
    return row!;
  };
  const readyDraft = async (to: string[], extra: object = {}) => {
    const id = await saveDraft({
      subject: 'Referral: cardiology consult',
      fromAddress: 'intake@lakeside.direct.example.org',
      toAddress: to.join('; '),
      body: 'Please see this patient for palpitations.',
      releaseTypeId,
      patient,
      properties: { includeCoverPage: true, includeMessageBody: true, includeAttachmentDescriptions: true },
      ...extra,
    });
    await attachPdf(id);
    return id;
  };
  const send = (id: string, user = LAKESIDE_USER, kind = 'send') => t.call(user, 'POST', `/api/messages/${id}/${kind}`);
  const inboundCopies = (sentId: string) => db().select().from(messages).where(and(eq(messages.originalObjectId, sentId), eq(messages.direction, 'Inbound')));

  describe('validation', () => {
    it('lists every missing field of an empty draft under the spec heading', async () => {
      const id = await saveDraft({});
      const res = await send(id);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        message: 'Please fix the following errors before sending.',
        modelState: {
          toAddress: ['"To" address is required.'],
          fromAddress: ['"From" address is required.'],
          releaseTypeId: ['"Release Type" is required.'],
          patient: ['"Patient Details" information is required.'],
        },
      });
    });

    it('names each invalid To address, a From that is not the organization’s, and each missing patient field', async () => {
      const id = await saveDraft({
        toAddress: 'not-an-address; a..b@example.org; 12345; (503) 555-0202; 1-503-555-0101',
        fromAddress: RIVERVIEW_DIRECT,
        releaseTypeId,
        patient: { middleName: 'J', telephone: '12' },
      });
      const res = await send(id);
      expect(res.statusCode).toBe(400);
      expect(res.json().modelState).toEqual({
        'toAddress:not-an-address': [releaseMessages.addressInvalid],
        'toAddress:a..b@example.org': [releaseMessages.addressInvalid],
        'toAddress:12345': [releaseMessages.addressInvalid],
        fromAddress: ['This address is not valid.'],
        'patient.firstName': ['"Patient First Name" is required.'],
        'patient.lastName': ['"Patient Last Name" is required.'],
        'patient.birthDate': ['"Patient Birth Date" is required.'],
        'patient.gender': ['"Patient Gender" is required.'],
        'patient.telephone': [releaseMessages.patientTelephoneInvalid],
      });
    });

    it('refuses a future birth date and checks each selected attachment’s document type (CDA) and date', async () => {
      const id = await saveDraft({
        toAddress: RIVERVIEW_DIRECT,
        fromAddress: 'intake@lakeside.direct.example.org',
        releaseTypeId,
        conversion: 'Cda',
        patient: { ...patient, birthDate: '2999-01-01' },
      });
      const noMeta = await attachPdf(id, { documentType: null, documentDate: null });
      const future = await attachPdf(id, { documentDate: '2999-12-31' });
      const res = await send(id);
      expect(res.statusCode).toBe(400);
      expect(Object.keys(res.json().modelState)[0]).toBe('attachments');
      expect(res.json().modelState).toEqual({
        attachments: ["An attachment's information is invalid."],
        'patient.birthDate': ['"Patient Birth Date" must be equal or less than today.'],
        [`attachments.${noMeta.id}.documentType`]: ['"Document Type" is required for file "ud-sample.pdf"'],
        [`attachments.${noMeta.id}.documentDate`]: ['"Document Date" is required for file "ud-sample.pdf"'],
        [`attachments.${future.id}.documentDate`]: ['Document Date must be equal or less than today.'],
      });
      expect((await t.call(LAKESIDE_USER, 'GET', `/api/messages/${id}`)).json()).toMatchObject({ isDraft: true, status: 'Draft', deliveries: [] });
    });

    it('asks a new or forwarded message for each attachment’s confidentiality, listing the attachment problem first; a reply does not', async () => {
      const id = await readyDraft([RIVERVIEW_DIRECT]);
      const [complete] = await db().select().from(attachments).where(eq(attachments.messageId, id));
      const missing = await attachPdf(id, { confidentiality: null });
      await attachPdf(id, null).then((a) => db().update(attachments).set({ isSelected: false }).where(eq(attachments.id, a.id)));
      const res = await send(id);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        message: 'Please fix the following errors before sending.',
        modelState: {
          attachments: ["An attachment's information is invalid."],
          [`attachments.${missing.id}.confidentiality`]: ['"Confidentiality" is required for file "ud-sample.pdf"'],
        },
      });
      expect(complete!.meta?.confidentiality).toBe('Normal');

      const original = await saveDraft({ subject: 'original' });
      const forward = await saveDraft({ toAddress: RIVERVIEW_DIRECT, fromAddress: 'intake@lakeside.direct.example.org', releaseTypeId, patient, originalObjectId: original });
      const noConfidentiality = await attachPdf(forward, { confidentiality: null });
      const forwarded = await send(forward, LAKESIDE_USER, 'forward');
      expect(forwarded.statusCode).toBe(400);
      expect(forwarded.json().modelState).toEqual({
        attachments: ["An attachment's information is invalid."],
        [`attachments.${noConfidentiality.id}.confidentiality`]: ['"Confidentiality" is required for file "ud-sample.pdf"'],
      });

      const reply = await saveDraft({ toAddress: RIVERVIEW_DIRECT, fromAddress: 'intake@lakeside.direct.example.org', originalObjectId: original });
      await attachPdf(reply, { confidentiality: null });
      expect((await send(reply, LAKESIDE_USER, 'reply')).statusCode).toBe(200);
    });

    it('does not ask a reply for a release type, and forward or reply needs a draft made from a message', async () => {
      const original = await saveDraft({ subject: 'original' });
      const reply = await saveDraft({ toAddress: RIVERVIEW_DIRECT, fromAddress: 'intake@lakeside.direct.example.org', originalObjectId: original });
      const res = await send(reply, LAKESIDE_USER, 'reply');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ message: 'The message was sent successfully.', id: reply, waiting: [], simulated: [] });

      const plain = await saveDraft({ toAddress: RIVERVIEW_DIRECT });
      expect((await send(plain, LAKESIDE_USER, 'forward')).statusCode).toBe(404);
      expect((await send(plain, LAKESIDE_USER, 'reply')).statusCode).toBe(404);
    });
  });

  it('Lakeside sends a referral: Riverview gets it by Direct, Lakeside’s own fax line gets a fax, the sandbox takes the outside fax, the outside Direct address without a certificate fails with why', async () => {
    const id = await readyDraft([RIVERVIEW_DIRECT, LAKESIDE_FAX, OTHER_DIRECT, EXTERNAL_FAX]);
    const res = await send(id);
    expect(res.statusCode, res.body).toBe(200);
    // Issue 9: the answer says which faxes are only simulated; issue 12: an outside Direct address is sent over Direct.
    expect(res.json()).toEqual({
      message: releaseMessages.sendSuccess,
      id,
      waiting: [],
      simulated: [LAKESIDE_FAX, EXTERNAL_FAX].map((recipient) => ({ recipient, channel: 'Fax', reason: sendNotices.sandboxFax })),
    });

    const sent = (await t.call(LAKESIDE_USER, 'GET', `/api/messages/${id}`)).json();
    expect(sent).toMatchObject({ isDraft: false, status: 'Pending' });
    expect(sent.deliveries.map((d: { recipient: string; status: string }) => [d.recipient, d.status]).sort()).toEqual(
      [LAKESIDE_FAX, EXTERNAL_FAX, RIVERVIEW_DIRECT, OTHER_DIRECT].map((r) => [r, 'Pending']).sort(),
    );
    const cache = await db().select().from(addressCache).where(eq(addressCache.address, RIVERVIEW_DIRECT));
    expect(cache[0]?.useCount).toBeGreaterThanOrEqual(1);
    expect(cache.map((c) => c.address)).toEqual([RIVERVIEW_DIRECT]);

    expect(await runWorkers()).toBeGreaterThanOrEqual(1);

    const copies = await inboundCopies(id);
    expect(copies).toHaveLength(2);
    const direct = copies.find((m) => m.organizationId === orgOf[RIVERVIEW_DIRECT])!;
    expect(direct).toMatchObject({ sourceType: 'Direct', status: 'Received', isDraft: false, toAddress: RIVERVIEW_DIRECT, fromAddress: 'intake@lakeside.direct.example.org', subject: 'Referral: cardiology consult' });
    const received = (await t.call(RIVERVIEW_USER, 'GET', `/api/messages/${direct.id}`)).json();
    expect(received.patient).toMatchObject(patient);
    expect(received.attachments).toHaveLength(1);
    expect(received.attachments[0]).toMatchObject({ fileName: 'ud-sample.pdf', previewAvailable: 'Available', attachmentMeta: { documentType: 'Referral Letter' } });
    const [copy] = await db().select().from(attachments).where(eq(attachments.messageId, direct.id));
    expect(copy!.organizationId).toBe(orgOf[RIVERVIEW_DIRECT]);
    const copyBytes = await blobs.get(copy!.currentBlobId);
    expect(Buffer.from(copyBytes).equals(Buffer.from(samplePdf))).toBe(true);
    expect((await PDFDocument.load(copyBytes)).getPageCount()).toBeGreaterThan(0);

    const fax = copies.find((m) => m.organizationId === orgOf[LAKESIDE_FAX])!;
    expect(fax).toMatchObject({ sourceType: 'Fax', status: 'Received', toAddress: LAKESIDE_FAX });
    const [faxFile] = await db().select().from(attachments).where(eq(attachments.messageId, fax.id));
    const faxPages = await pdfPageCount(await blobs.get(faxFile!.currentBlobId));
    // Cover sheet, message body page, attachment descriptions page, then the attachment.
    expect(faxPages).toBe(3 + (await pdfPageCount(samplePdf)));
    expect(fax.properties?.faxPageCount).toBe(faxPages);

    const after = (await t.call(LAKESIDE_USER, 'GET', `/api/messages/${id}`)).json();
    expect(after).toMatchObject({ status: 'Failed', isReadyForDeliverySummary: true });
    const byRecipient = Object.fromEntries(after.deliveries.map((d: { recipient: string }) => [d.recipient, d]));
    expect(byRecipient[RIVERVIEW_DIRECT]).toMatchObject({ status: 'Delivered', channel: 'Direct', reason: deliveryReasons.deliveredHere });
    expect(byRecipient[LAKESIDE_FAX]).toMatchObject({ status: 'Delivered', channel: 'Fax', reason: expect.stringContaining('sandbox') });
    expect(byRecipient[EXTERNAL_FAX]).toMatchObject({ status: 'Delivered', channel: 'Fax', reason: 'Delivered by the sandbox fax provider (no real fax was sent)' });
    for (const r of [RIVERVIEW_DIRECT, LAKESIDE_FAX, EXTERNAL_FAX]) expect(byRecipient[r].deliveredAt).toEqual(expect.any(String));
    // Certificate discovery (DNS, then LDAP) found nothing: the sender reads why, per recipient, and when.
    expect(byRecipient[OTHER_DIRECT]).toMatchObject({ status: 'Failed', reason: expect.stringContaining(recipientCheckTexts.NoCertificate), deliveredAt: null });
    expect(byRecipient[OTHER_DIRECT].timeline).toEqual([{ stage: 'Failed', at: expect.any(String), detail: byRecipient[OTHER_DIRECT].reason }]);
    // What the web shows as is: a sandbox fax is not a plain "Delivered".
    expect(byRecipient[EXTERNAL_FAX]).toMatchObject({ statusDetail: 'Delivered (sandbox: no real fax was sent)', isSimulated: true });
    expect(byRecipient[LAKESIDE_FAX]).toMatchObject({ statusDetail: 'Delivered to an organization on this installation (sandbox: no real fax was sent)', isSimulated: true });
    expect(byRecipient[RIVERVIEW_DIRECT]).toMatchObject({ statusDetail: 'Delivered to an organization on this installation', isSimulated: false });
    expect(byRecipient[OTHER_DIRECT]).toMatchObject({ statusDetail: `Failed: ${byRecipient[OTHER_DIRECT].reason}`, isSimulated: false });
    const [row] = await db().select().from(deliveries).where(and(eq(deliveries.messageId, id), eq(deliveries.recipient, RIVERVIEW_DIRECT)));
    expect(row!.deliveredMessageId).toBe(direct.id);

    // Sending it again: it is no longer a draft.
    const again = await send(id);
    expect(again.statusCode).toBe(409);
    expect(await runWorkers()).toBe(0);
    expect(await inboundCopies(id)).toHaveLength(2);
  });

  it('marks the message Delivered and ready for its delivery summary when every recipient is delivered', async () => {
    const id = await readyDraft([RIVERVIEW_DIRECT, EXTERNAL_FAX], { conversion: 'Pdf' });
    expect((await send(id)).statusCode).toBe(200);
    await runWorkers();
    expect((await t.call(LAKESIDE_USER, 'GET', `/api/messages/${id}`)).json()).toMatchObject({ status: 'Delivered', isReadyForDeliverySummary: true });
  });

  it('delivers a CDA conversion as a C-CDA XDS-SD document wrapping the PDF, previewed as the PDF', async () => {
    const id = await readyDraft([RIVERVIEW_DIRECT], { conversion: 'Cda' });
    expect((await send(id)).statusCode).toBe(200);
    await runWorkers();
    const [inbound] = await inboundCopies(id);
    const [copy] = await db().select().from(attachments).where(eq(attachments.messageId, inbound!.id));
    expect(copy).toMatchObject({ fileName: 'ud-sample.xml', mimeType: 'application/xml', previewStatus: 'Available' });
    const xml = new TextDecoder().decode(await blobs.get(copy!.currentBlobId));
    expect(xml).toContain('<templateId root="1.3.6.1.4.1.19376.1.2.20"/>');
    expect(xml).toContain(Buffer.from(samplePdf).toString('base64').slice(0, 200));
    expect(xml).toContain('Alvarez');
    // Issue 15: the official C-CDA R2.1 Schematron finds no error; the type's LOINC code, the document date, the sender signs.
    expect(validateSchematron(xml).errors).toEqual([]);
    expect(xml).toContain('<code code="57133-1" codeSystem="2.16.840.1.113883.6.1" codeSystemName="LOINC" displayName="Referral Letter">');
    expect(xml).toContain('<effectiveTime value="20260115"/>');
    expect(xml).toContain('<legalAuthenticator>');
    expect(Buffer.from(await blobs.get(copy!.previewBlobId!)).equals(Buffer.from(samplePdf))).toBe(true);
  });

  it('gives a Riverview user 404 on Lakeside’s draft, and nothing changes', async () => {
    const id = await readyDraft([RIVERVIEW_DIRECT]);
    for (const kind of ['send', 'forward', 'reply']) {
      const res = await send(id, RIVERVIEW_USER, kind);
      expect(res.statusCode).toBe(404);
    }
    expect((await t.call(LAKESIDE_USER, 'GET', `/api/messages/${id}`)).json()).toMatchObject({ isDraft: true, status: 'Draft', deliveries: [] });
    expect(await db().select().from(workflows).where(eq(workflows.correlationId, id))).toEqual([]);
  });

  it('survives a worker dying mid-delivery: restarted, every recipient ends with exactly one copy', async () => {
    const recipients = [RIVERVIEW_DIRECT, LAKESIDE_FAX, RIVERVIEW_FAX, EXTERNAL_FAX];
    const id = await readyDraft(recipients);
    expect((await send(id)).statusCode).toBe(200);

    // The first worker's fax line goes through; on the second fax it dies after the receiving
    // organization got the fax but before the step was recorded.
    const now = () => t.clock.now;
    const sandbox = createSandboxFaxProvider({ localLine: localFaxLine({ db: db(), blobs, now }) });
    let faxes = 0;
    const dying = sendMessageWorkflow({
      db: db(),
      blobs,
      now,
      fax: {
        name: 'sandbox',
        async send(fax, signal) {
          const result = await sandbox.send(fax, signal);
          if (++faxes === 2) throw new Error('the worker process died');
          return result;
        },
      },
    });
    const claimed = await claimNext(db(), { workerId: 'worker-that-dies', leaseMs: 60_000, types: [SEND_WORKFLOW] });
    expect(claimed).toMatchObject({ correlationId: id, status: 'Running' });
    await expect(dying(workflowContext({ db: db(), workflow: claimed!, now, signal: new AbortController().signal }))).rejects.toThrow('died');
    const halfway = await db().select().from(deliveries).where(eq(deliveries.messageId, id));
    expect(halfway.filter((d) => d.status === 'Delivered').map((d) => d.recipient)).toEqual([LAKESIDE_FAX]);
    expect(await inboundCopies(id)).toHaveLength(2);

    // Nobody touches it while the dead worker's lease runs; once it expires another worker takes over.
    expect(await runWorkers()).toBe(0);
    await db().update(workflows).set({ lockedUntil: sql`now() - interval '1 second'` }).where(eq(workflows.id, claimed!.id));
    expect(await runWorkers()).toBe(1);

    const copies = await inboundCopies(id);
    const perRecipient = copies.map((m) => `${m.organizationId}:${m.toAddress}`).sort();
    expect(perRecipient).toEqual(
      [
        `${orgOf[RIVERVIEW_DIRECT]}:${RIVERVIEW_DIRECT}`,
        `${orgOf[LAKESIDE_FAX]}:${LAKESIDE_FAX}`,
        `${orgOf[RIVERVIEW_FAX]}:${RIVERVIEW_FAX}`,
      ].sort(),
    );
    const decided = await db().select().from(deliveries).where(eq(deliveries.messageId, id));
    expect(decided.map((d) => [d.recipient, d.status]).sort()).toEqual(recipients.map((r) => [r, 'Delivered']).sort());
    const [workflow] = await db().select().from(workflows).where(eq(workflows.id, claimed!.id));
    expect(workflow).toMatchObject({ status: 'Completed', attempts: 2 });
    const steps = await db().select().from(workflowSteps).where(eq(workflowSteps.workflowId, claimed!.id));
    expect(Object.fromEntries(steps.map((s) => [s.key, s.attempts]))).toEqual({ [LAKESIDE_FAX]: 1, [RIVERVIEW_FAX]: 2, [EXTERNAL_FAX]: 1, [RIVERVIEW_DIRECT]: 1 });
    expect((await t.call(LAKESIDE_USER, 'GET', `/api/messages/${id}`)).json()).toMatchObject({ status: 'Delivered', isReadyForDeliverySummary: true });
  });

  describe('non-PHI fax', () => {
    const nonPhiDraft = (extra: object = {}) => saveDraft({ isNonPatient: true, ...extra });
    // Lakeside's fax number is not given to its User in the demo: made global, every user may send from it.
    const setFaxGlobal = async (isGlobal: boolean) => {
      const [fax] = await db().select().from(documentSources).where(eq(documentSources.fullAddress, LAKESIDE_FAX));
      return t.call('admin@lakeside.example.org', 'PUT', `/api/admin/documentsources/${fax!.id}/global`, { isGlobal });
    };
    beforeAll(() => setFaxGlobal(true));

    it('sends only from a fax number the user may send from: given to them, or global (issue 13 §2)', async () => {
      expect((await setFaxGlobal(false)).json()).toMatchObject({ fullAddress: LAKESIDE_FAX, isGlobal: false });
      const fromList = async () => (await t.call(LAKESIDE_USER, 'GET', '/api/documentsources')).json().find((s: { address: { fullAddress: string } }) => s.address.fullAddress === LAKESIDE_FAX);
      expect(await fromList()).toMatchObject({ canSend: false });
      const id = await nonPhiDraft({ subject: 'Office hours', toAddress: '(503) 555-0202', fromAddress: LAKESIDE_FAX });
      await attachPdf(id, null);
      expect((await send(id)).json()).toEqual({ message: 'Please fix the following errors before sending.', modelState: { fromAddress: [releaseMessages.fromNotPermitted] } });
      expect((await t.call(LAKESIDE_USER, 'PUT', `/api/admin/documentsources/${(await db().select().from(documentSources).where(eq(documentSources.fullAddress, LAKESIDE_FAX)))[0]!.id}/global`, { isGlobal: true })).statusCode).toBe(403);
      expect((await setFaxGlobal(true)).json()).toMatchObject({ isGlobal: true });
      expect(await fromList()).toMatchObject({ canSend: true });
      expect((await send(id)).statusCode).toBe(200);
    });

    it('checks only the non-PHI fax rules, with their own texts', async () => {
      const empty = await nonPhiDraft({ patient });
      const res = await send(empty);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        message: 'Please fix the following errors before sending.',
        modelState: {
          toAddress: ['"To" fax number is required.'],
          subject: ['"Subject" is required.'],
          fromAddress: ['"From" fax number is required.'],
          attachments: ['Missing file attachment.'],
        },
      });

      // Only fax numbers go, from one of the organization's own fax numbers.
      const wrong = await nonPhiDraft({ subject: 'Office hours', toAddress: `${RIVERVIEW_DIRECT}; 503-555-0202; 12345`, fromAddress: 'intake@lakeside.direct.example.org' });
      await attachPdf(wrong, null);
      expect((await send(wrong)).json()).toEqual({
        message: 'Please fix the following errors before sending.',
        modelState: {
          [`toAddress:${RIVERVIEW_DIRECT}`]: ['This address is not valid.'],
          'toAddress:12345': ['This address is not valid.'],
          fromAddress: ['"From" fax number is required.'],
        },
      });
      // Another organization's fax number is not a From either.
      expect((await t.call(LAKESIDE_USER, 'PUT', `/api/messages/${wrong}`, { fromAddress: RIVERVIEW_FAX })).statusCode).toBe(200);
      expect((await send(wrong)).json().modelState.fromAddress).toEqual(['"From" fax number is required.']);
    });

    it('sends a non-PHI fax without patient, release type or document details, and the sandbox fax provider delivers it', async () => {
      const id = await nonPhiDraft({ subject: 'Updated office hours', toAddress: '(503) 555-0202', fromAddress: LAKESIDE_FAX, body: 'We are open on Saturdays.', patient });
      const draft = (await t.call(LAKESIDE_USER, 'GET', `/api/messages/${id}`)).json();
      expect(draft).toMatchObject({ origin: 'ClinicRelay_non-patient', patient: null, patientName: null });
      await attachPdf(id, null);
      const res = await send(id);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({
        message: 'The message was sent successfully.',
        id,
        waiting: [],
        simulated: [{ recipient: RIVERVIEW_FAX, channel: 'Fax', reason: sendNotices.sandboxFax }],
      });
      await runWorkers();

      const sent = (await t.call(LAKESIDE_USER, 'GET', `/api/messages/${id}`)).json();
      expect(sent).toMatchObject({ status: 'Delivered', isDraft: false, trackFaxResponses: false, conversation: null });
      expect(sent.deliveries).toEqual([expect.objectContaining({ recipient: RIVERVIEW_FAX, channel: 'Fax', status: 'Delivered', reason: deliveryReasons.sandboxFaxDeliveredHere })]);
      const [copy] = await inboundCopies(id);
      expect(copy).toMatchObject({ organizationId: orgOf[RIVERVIEW_FAX], sourceType: 'Fax', toAddress: RIVERVIEW_FAX, fromAddress: LAKESIDE_FAX, patientName: null });
      // Riverview's administrator finds it in the Intake list (its fax number is assigned to no user).
      const intake = (await t.call('admin@riverview.example.org', 'POST', '/api/messages', { sourceTypes: ['Fax'], filter: LAKESIDE_FAX })).json();
      expect(intake.items.map((i: { id: string }) => i.id)).toContain(copy!.id);
    });
  });

  describe('tracked fax responses', () => {
    const enableTracking = async (isEnabled: boolean) => {
      const [feature] = await db().select().from(featureToggles).where(eq(featureToggles.name, 'AutomatedCarePlans'));
      await db()
        .insert(organizationFeatures)
        .values({ featureId: feature!.id, organizationId: orgOf[LAKESIDE_FAX]!, isEnabled })
        .onConflictDoUpdate({ target: [organizationFeatures.featureId, organizationFeatures.organizationId], set: { isEnabled } });
    };
    const sentMessage = async (to: string[]) => {
      const id = await readyDraft(to, { trackFaxResponses: true });
      const res = await send(id);
      expect(res.statusCode, res.body).toBe(200);
      return (await t.call(LAKESIDE_USER, 'GET', `/api/messages/${id}`)).json();
    };

    it('ignores Track Fax Responses while AutomatedCarePlans is off for the organization', async () => {
      await enableTracking(false);
      expect(await sentMessage([EXTERNAL_FAX])).toMatchObject({ trackFaxResponses: false, conversation: null });
    });

    it('opens a Draft referral conversation when the feature is on and a recipient is a fax number, and only then', async () => {
      await enableTracking(true);
      const tracked = await sentMessage([RIVERVIEW_DIRECT, EXTERNAL_FAX]);
      expect(tracked).toMatchObject({ trackFaxResponses: true, conversation: { conversationId: expect.any(String), type: 'Referral', conversationStatus: 'Draft' } });
      const [conversation] = await db().select().from(conversations).where(eq(conversations.id, tracked.conversation.conversationId));
      expect(conversation).toMatchObject({ organizationId: orgOf[LAKESIDE_FAX], type: 'Referral', conversationStatus: 'Draft' });

      expect(await sentMessage([RIVERVIEW_DIRECT])).toMatchObject({ trackFaxResponses: false, conversation: null });
      await enableTracking(false);
    });
  });
});
