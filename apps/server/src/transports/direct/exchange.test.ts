import { and, eq } from 'drizzle-orm';
import { createTransport } from 'nodemailer';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveryReasons } from '@clinicrelay/contracts/delivery.ts';
import { DOCUMENT_SOURCE_STATUS } from '@clinicrelay/contracts/document-sources.ts';
import { trustAnchors } from '../../db/schema/certificates.ts';
import { documentSources } from '../../db/schema/document-sources.ts';
import { attachments, messages, patients } from '../../db/schema/messages.ts';
import { workflowSteps } from '../../db/schema/workflows.ts';
import { DEMO_CA_NAME, seedDemoCertificates } from '../../db/seed/demo-certificates.ts';
import { createBlobStore } from '../../platform/blobs/blob-store.ts';
import type { WorkflowLogger } from '../../platform/workflows/context.ts';
import { workflowHandlers } from '../../platform/workflows/registry.ts';
import { runOnce } from '../../platform/workflows/runner.ts';
import { createTestApp, type TestContext } from '../../test/app.ts';
import type { DnsServer } from '../../platform/direct/dns-server.ts';
import { createDirectDeps } from './direct-deps.ts';
import { startDnsPublisher } from './dns-publisher.ts';
import { startDirectListener, type DirectListener } from './listener.ts';
import { makePeerWorld } from '../../db/seed/demo-peer.ts';
import { attachReadyPdf } from '../../test/attach-pdf.ts';
import { failOverdueDeliveries } from './timeline.ts';
import { mdnOutcomesTotal } from '../../platform/metrics/metrics.ts';

// Issue 12 §5: two installations on one machine (their own databases, data folders, Direct domains and SMTP ports),
// each trusting the other's demo anchor, exchange a message with a PDF both ways over real SMTP on loopback, with
// the MDNs coming back into the sender's timeline. Certificates are found in DNS: each installation publishes its
// CERT records on a loopback responder and asks its own, then the other's.

const quiet: WorkflowLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };
const LAKESIDE_USER = 'user@lakeside.example.org';
const RIVERVIEW_USER = 'user@riverview.example.org';
const A_LAKESIDE = 'intake@lakeside.direct.example.org';
const B_RIVERVIEW = 'referrals@riverview.peer.example.net';
const patient = { firstName: 'Maria', lastName: 'Alvarez', birthDate: '1958-04-12', gender: 'F' };

async function samplePdf(text: string): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([612, 792]);
  page.drawText(text, { x: 72, y: 700, size: 14, font: await pdf.embedFont(StandardFonts.Helvetica) });
  return pdf.save();
}

interface Installation {
  t: TestContext;
  listener: DirectListener;
  publisher: DnsServer;
  run(): Promise<number>;
}

describe('Direct between two installations over SMTP', () => {
  let a: Installation;
  let b: Installation;

  async function install(t: TestContext): Promise<Installation> {
    const db = t.handle.db;
    const now = () => t.clock.now;
    const publisher = await startDnsPublisher({ db, now, host: '127.0.0.1', port: 0 });
    const config = { ...t.config, direct: { ...t.config.direct, dnsServers: [`127.0.0.1:${publisher.port}`], smarthosts: new Map(), hostname: `hisp-${t.config.dataDir.slice(-6)}.test` } };
    const blobs = createBlobStore({ db, dataDir: config.dataDir, key: config.blobEncryptionKey });
    const listener = await startDirectListener(createDirectDeps({ config, db, blobs, now }), quiet, 0);
    const handlers = workflowHandlers({ config, db, now });
    return { t: Object.assign(t, { config }), listener, publisher, run: () => runOnce({ db, handlers, logger: quiet }) };
  }

  // Runs both installations' workflows until neither has anything left (a message, then its MDNs, cross over).
  async function settle() {
    for (let round = 0; round < 10; round++) if ((await a.run()) + (await b.run()) === 0) return;
  }

  const anchorOf = async (t: TestContext) => (await t.handle.db.select().from(trustAnchors).where(eq(trustAnchors.name, DEMO_CA_NAME)))[0]!;

  beforeAll(async () => {
    const [ta, tb] = await Promise.all([createTestApp(), createTestApp()]);
    // The peer's demo world lives on its own Direct domain (its addresses and intake rules), as `npm run demo:peer` makes it.
    await makePeerWorld(tb.handle.db);
    await seedDemoCertificates(ta.handle.db, ta.config.blobEncryptionKey);
    await seedDemoCertificates(tb.handle.db, tb.config.blobEncryptionKey);
    // Introduced to each other by exchanging anchors.
    const [anchorA, anchorB] = [await anchorOf(ta), await anchorOf(tb)];
    await ta.handle.db.insert(trustAnchors).values({ ...anchorB, id: undefined, name: 'Peer demo CA' });
    await tb.handle.db.insert(trustAnchors).values({ ...anchorA, id: undefined, name: 'Peer demo CA' });
    a = await install(ta);
    b = await install(tb);
    a.t.config.direct.smarthosts.set('peer.example.net', { host: '127.0.0.1', port: b.listener.port });
    b.t.config.direct.smarthosts.set('direct.example.org', { host: '127.0.0.1', port: a.listener.port });
    a.t.config.direct.dnsServers!.push(`127.0.0.1:${b.publisher.port}`);
    b.t.config.direct.dnsServers!.push(`127.0.0.1:${a.publisher.port}`);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([a?.listener.close(), b?.listener.close(), a?.publisher.close(), b?.publisher.close()]);
    await Promise.all([a?.t.close(), b?.t.close()]);
  });

  async function sendWithPdf(from: Installation, user: string, fromAddress: string, to: string, subject: string) {
    const { t } = from;
    const releaseTypeId = (await t.call(user, 'GET', '/api/releasetypes')).json()[0].id as string;
    const draft = await t.call(user, 'PUT', '/api/messages', { subject, fromAddress, toAddress: to, body: 'Please see the attached letter.', releaseTypeId, patient });
    expect(draft.statusCode, draft.body).toBe(200);
    const id = draft.json().id as string;
    const [source] = await t.handle.db.select().from(documentSources).where(eq(documentSources.fullAddress, fromAddress));
    const pdf = await samplePdf(`${subject} for Maria Alvarez`);
    await attachReadyPdf(t.handle.db, t.config, { messageId: id, organizationId: source!.organizationId }, pdf, 'referral-letter.pdf');
    const sent = await t.call(user, 'POST', `/api/messages/${id}/send`);
    expect(sent.statusCode, sent.body).toBe(200);
    return { id, pdf };
  }

  const received = async (to: Installation, subject: string) => {
    const [row] = await to.t.handle.db.select().from(messages).where(and(eq(messages.direction, 'Inbound'), eq(messages.subject, subject)));
    return row;
  };

  it('Lakeside (here) sends a referral with a PDF to Riverview on the peer, which answers with processed and dispatched', async () => {
    const { id, pdf } = await sendWithPdf(a, LAKESIDE_USER, A_LAKESIDE, B_RIVERVIEW, 'Referral over Direct');
    await settle();

    const inbound = await received(b, 'Referral over Direct');
    expect(inbound).toMatchObject({ fromAddress: A_LAKESIDE, toAddress: B_RIVERVIEW, sourceType: 'Direct', status: 'Received' });
    const [file] = await b.t.handle.db.select().from(attachments).where(eq(attachments.messageId, inbound!.id));
    expect(file).toMatchObject({ fileName: 'referral-letter.pdf', mimeType: 'application/pdf', sizeInBytes: pdf.length });
    // Riverview's user sees it in Intake through the API, with the PDF as sent.
    const intake = await b.t.call(RIVERVIEW_USER, 'GET', `/api/messages/${inbound!.id}`);
    expect(intake.statusCode, intake.body).toBe(200);
    expect(intake.json()).toMatchObject({ subject: 'Referral over Direct', fromAddress: A_LAKESIDE });

    const sender = await a.t.call(LAKESIDE_USER, 'GET', `/api/messages/${id}`);
    const delivery = sender.json().deliveries[0];
    expect(delivery).toMatchObject({ recipient: B_RIVERVIEW, status: 'Delivered', reason: deliveryReasons.directDispatched });
    expect(delivery.timeline.map((e: { stage: string }) => e.stage)).toEqual(['Queued', 'Sent', 'Processed', 'Dispatched']);
    expect(sender.json().status).toBe('Delivered');
  });

  it('Riverview on the peer sends back to Lakeside here, and a second SMTP hand-over of the same message is stored once', async () => {
    const { id } = await sendWithPdf(b, RIVERVIEW_USER, B_RIVERVIEW, A_LAKESIDE, 'Consult note back');
    await settle();
    const inbound = await received(a, 'Consult note back');
    expect(inbound).toMatchObject({ fromAddress: B_RIVERVIEW, toAddress: A_LAKESIDE });
    // The patient and the document's type travel in the XDM package's metadata.
    const [who] = await a.t.handle.db.select().from(patients).where(eq(patients.messageId, inbound!.id));
    expect(who).toMatchObject({ firstName: 'Maria', lastName: 'Alvarez', birthDate: '1958-04-12', gender: 'F' });
    const [file] = await a.t.handle.db.select().from(attachments).where(eq(attachments.messageId, inbound!.id));
    expect(file).toMatchObject({ fileName: 'referral-letter.pdf', mimeType: 'application/pdf', meta: expect.objectContaining({ documentType: 'Referral Letter', documentDate: '2026-01-15' }) as unknown });
    const delivery = (await b.t.call(RIVERVIEW_USER, 'GET', `/api/messages/${id}`)).json().deliveries[0];
    expect(delivery.timeline.map((e: { stage: string }) => e.stage)).toEqual(['Queued', 'Sent', 'Processed', 'Dispatched']);

    // The sender retries after a crash between SMTP and recording it: the same bytes (same Message-ID) arrive again.
    const [sealStep] = await b.t.handle.db.select().from(workflowSteps).where(eq(workflowSteps.name, 'direct-seal'));
    const raw = await createBlobStore({ db: b.t.handle.db, dataDir: b.t.config.dataDir, key: b.t.config.blobEncryptionKey }).get(String(sealStep!.result!.blobId));
    const smtp = createTransport({ host: '127.0.0.1', port: a.listener.port, secure: false, tls: { rejectUnauthorized: false } });
    await smtp.sendMail({ envelope: { from: B_RIVERVIEW, to: [A_LAKESIDE] }, raw: Buffer.from(raw) });
    smtp.close();
    await settle();
    const copies = await a.t.handle.db.select().from(messages).where(and(eq(messages.direction, 'Inbound'), eq(messages.subject, 'Consult note back')));
    expect(copies).toHaveLength(1);
  });

  // Issue 26: a message without attachment lost its patient (XDM metadata describes a patient only on a document).
  it('carries the patient of a message without attachment (non-ASCII names included) from the peer to here', async () => {
    const { t } = b;
    const releaseTypeId = (await t.call(RIVERVIEW_USER, 'GET', '/api/releasetypes')).json()[0].id as string;
    const who = { firstName: 'José', middleName: 'Ángel', lastName: 'Nguyễn', birthDate: '1971-02-03', gender: 'M', telephone: '5035550123', city: 'Salem' };
    const draft = await t.call(RIVERVIEW_USER, 'PUT', '/api/messages', { subject: 'No attachment, a patient', fromAddress: B_RIVERVIEW, toAddress: A_LAKESIDE, body: 'Seen today; no documents.', releaseTypeId, patient: who });
    expect(draft.statusCode, draft.body).toBe(200);
    const sent = await t.call(RIVERVIEW_USER, 'POST', `/api/messages/${draft.json().id as string}/send`);
    expect(sent.statusCode, sent.body).toBe(200);
    await settle();
    const inbound = await received(a, 'No attachment, a patient');
    expect(await a.t.handle.db.select().from(attachments).where(eq(attachments.messageId, inbound!.id))).toHaveLength(0);
    const intake = (await a.t.call(LAKESIDE_USER, 'GET', `/api/messages/${inbound!.id}`)).json();
    expect(intake.patient).toMatchObject(who);
  });

  it('refuses, during the SMTP session, a message for an address not hosted here and mail that is not S/MIME', async () => {
    const smtp = createTransport({ host: '127.0.0.1', port: a.listener.port, secure: false, tls: { rejectUnauthorized: false } });
    await expect(smtp.sendMail({ from: B_RIVERVIEW, to: 'nobody@lakeside.direct.example.org', subject: 'x', text: 'x' })).rejects.toMatchObject({ responseCode: 550 });
    await expect(smtp.sendMail({ from: B_RIVERVIEW, to: A_LAKESIDE, subject: 'plain', text: 'not encrypted' })).rejects.toMatchObject({
      responseCode: 554,
      response: expect.stringContaining('5.7.5') as string,
    });
    smtp.close();
  });

  it('marks a recipient failed when no delivery notification comes within the hour, and a late one corrects it', async () => {
    const { id } = await sendWithPdf(a, LAKESIDE_USER, A_LAKESIDE, B_RIVERVIEW, 'Nobody answers yet');
    // Only the sender works: the peer accepts over SMTP but has not processed it, so no MDN comes back.
    while ((await a.run()) > 0);
    const deliveryOf = async () => (await a.t.call(LAKESIDE_USER, 'GET', `/api/messages/${id}`)).json().deliveries[0];
    expect(await deliveryOf()).toMatchObject({ status: 'Pending', reason: deliveryReasons.directSent });

    // Issue 27 §5: /metrics counts MDN outcomes, a timeout among them.
    const mdnCount = async (outcome: string) => (await mdnOutcomesTotal.get()).values.find((v) => v.labels.outcome === outcome)?.value ?? 0;
    const [timeoutsBefore, dispatchedBefore] = [await mdnCount('timeout'), await mdnCount('dispatched')];
    const sentAt = a.t.clock.now.getTime();
    a.t.clock.now = new Date(sentAt + 59 * 60_000);
    expect(await failOverdueDeliveries(a.t.handle.db, a.t.clock.now)).toBe(0);
    a.t.clock.now = new Date(sentAt + 61 * 60_000);
    expect(await failOverdueDeliveries(a.t.handle.db, a.t.clock.now)).toBe(1);
    const failed = await deliveryOf();
    expect(failed).toMatchObject({ status: 'Failed', reason: deliveryReasons.noNotification, statusDetail: `Failed: ${deliveryReasons.noNotification}` });
    expect(failed.timeline.map((e: { stage: string }) => e.stage)).toEqual(['Queued', 'Sent', 'Failed']);

    a.t.clock.now = new Date(sentAt + 62 * 60_000);
    await settle();
    const late = await deliveryOf();
    expect(late).toMatchObject({ status: 'Delivered', reason: deliveryReasons.directDispatched });
    expect(late.timeline.map((e: { stage: string }) => e.stage)).toEqual(['Queued', 'Sent', 'Failed', 'Processed', 'Dispatched']);
    expect(await mdnCount('timeout')).toBe(timeoutsBefore + 1);
    expect(await mdnCount('dispatched')).toBeGreaterThan(dispatchedBefore);
  });

  it('tells the sender with an MDN "failed" when the address went out of service after the SMTP hand-over, and with the SMTP refusal before it', async () => {
    const setRiverviewStatus = (status: number) =>
      b.t.handle.db.update(documentSources).set({ status }).where(eq(documentSources.fullAddress, B_RIVERVIEW));
    const { id } = await sendWithPdf(a, LAKESIDE_USER, A_LAKESIDE, B_RIVERVIEW, 'Address retired meanwhile');
    while ((await a.run()) > 0);
    await setRiverviewStatus(DOCUMENT_SOURCE_STATUS.PendingDeletion);
    await settle();
    const afterMdn = (await a.t.call(LAKESIDE_USER, 'GET', `/api/messages/${id}`)).json().deliveries[0];
    expect(afterMdn).toMatchObject({ status: 'Failed', reason: `The recipient’s HISP could not deliver it: ${B_RIVERVIEW} is no longer in service.` });
    expect(afterMdn.timeline.map((e: { stage: string }) => e.stage)).toEqual(['Queued', 'Sent', 'Failed']);
    expect(await received(b, 'Address retired meanwhile')).toBeUndefined();

    // Sent again now: the peer refuses the recipient during the SMTP session, and the reason reaches the sender.
    const again = await sendWithPdf(a, LAKESIDE_USER, A_LAKESIDE, B_RIVERVIEW, 'Address retired before');
    await settle();
    await setRiverviewStatus(DOCUMENT_SOURCE_STATUS.Activated);
    const refused = (await a.t.call(LAKESIDE_USER, 'GET', `/api/messages/${again.id}`)).json().deliveries[0];
    expect(refused).toMatchObject({ status: 'Failed', reason: expect.stringMatching(/refused the message: 550 5\.1\.1 referrals@riverview\.peer\.example\.net is not a Direct address hosted here/) as string });
  });
});
