import { X509Certificate } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { and, eq, sql } from 'drizzle-orm';
import { createTransport } from 'nodemailer';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveryReasons } from '@clinicrelay/contracts/delivery.ts';
import { certificates, trustAnchors } from '../../db/schema/certificates.ts';
import { deliveries, deliveryEvents, messages } from '../../db/schema/messages.ts';
import { workflows } from '../../db/schema/workflows.ts';
import { seedDemoCertificates } from '../../db/seed/demo-certificates.ts';
import { describeAnchorCertificate } from '../../modules/trust-anchors/trust-files.ts';
import { createBlobStore } from '../../platform/blobs/blob-store.ts';
import { createCertificateAuthority, issueDirectCertificate, type IssuedCertificate } from '../../platform/direct/certificate-authority.ts';
import type { WorkflowLogger } from '../../platform/workflows/context.ts';
import { workflowHandlers } from '../../platform/workflows/registry.ts';
import { runOnce } from '../../platform/workflows/runner.ts';
import { createTestApp, type TestContext } from '../../test/app.ts';
import { openssl, opensslMissing } from '../../test/openssl.ts';
import { referralDraft } from '../../test/referral.ts';
import { createDirectDeps } from './direct-deps.ts';
import { startDirectListener, type DirectListener } from './listener.ts';

// Issue 28 §1: the delivery notices another HISP sends, built as the outside tools build them (ONC's Edge Testing Tool
// MDN generator: a multipart/report with Reporting-UA, Final-Recipient, Original-Recipient, Original-Message-ID and
// Disposition, signed, then encrypted; the Direct Project security agent's DSN: X-Original-Message-ID and per-recipient
// Action/Status), signed and encrypted by OpenSSL and handed over on the SMTP listener. A DSN or a failed MDN fails the
// recipient at once; none is filed in Intake or answered; an MDN is matched on Original-Message-ID and the recipient it
// names, from any address of the recipient's domain (ETT's "different sender" case), never from another domain.

const missing = opensslMissing();
const quiet: WorkflowLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };
const LAKESIDE = 'intake@lakeside.direct.example.org';
const LAKESIDE_USER = 'user@lakeside.example.org';
const DOCTOR = 'doctor@hisp.sender.example.com';
const POSTMASTER = 'postmaster@hisp.sender.example.com';
const COLLEAGUE = 'colleague@hisp.sender.example.com';
const STRANGER = 'notices@elsewhere.example.net';

const pem = (der: Uint8Array) => new X509Certificate(der).toString();
const keyPem = (issued: IssuedCertificate) => issued.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const crlf = (lines: string[]) => lines.join('\r\n');

// ETT's MDNGenerator (onc-healthit/ett, direct/messageGenerator/MDNGenerator.java): a text part and the notification.
// ETT itself puts the MDN's To in Final-Recipient and the original recipient in Original-Recipient; both forms are sent here.
function mdnEntity(o: { from: string; to: string; originalMessageId: string; disposition: string; finalRecipient?: string; originalRecipient?: string; failure?: string }) {
  const fields = [
    'Reporting-UA: smtp.hisp.sender.example.com; Security Agent',
    ...(o.finalRecipient ? [`Final-Recipient: rfc822; ${o.finalRecipient}`] : []),
    ...(o.originalRecipient ? [`Original-Recipient: rfc822; ${o.originalRecipient}`] : []),
    `Original-Message-ID: ${o.originalMessageId}`,
    `Disposition: automatic-action/MDN-sent-automatically;${o.disposition}`,
    ...(o.failure ? [`Failure: ${o.failure}`] : []),
  ];
  return crlf([
    `From: ${o.from}`,
    `To: ${o.to}`,
    'Subject: Automatic MDN',
    `Message-ID: <mdn-${Math.random().toString(36).slice(2)}@hisp.sender.example.com>`,
    'MIME-Version: 1.0',
    'Content-Type: multipart/report; report-type=disposition-notification; boundary="----=_Part_1"',
    '',
    '------=_Part_1',
    'Content-Type: text/plain; charset=us-ascii',
    '',
    'Your message was successfully processed.',
    '------=_Part_1',
    'Content-Type: message/disposition-notification',
    '',
    ...fields,
    '',
    '------=_Part_1--',
    '',
  ]);
}

// The Direct Project security agent's DSN (DSNMessageGenerator): X-Original-Message-ID per message, Action/Status per recipient.
function dsnEntity(o: { from: string; to: string; originalMessageId: string; finalRecipient: string; action: string; status: string; diagnostic?: string }) {
  return crlf([
    `From: ${o.from}`,
    `To: ${o.to}`,
    'Subject: Not Delivered: Referral',
    `Message-ID: <dsn-${Math.random().toString(36).slice(2)}@hisp.sender.example.com>`,
    'MIME-Version: 1.0',
    'Content-Type: multipart/report; report-type=delivery-status; boundary="dsn"',
    '',
    '--dsn',
    'Content-Type: text/plain',
    '',
    'Your message could not be delivered to the recipient.',
    '--dsn',
    'Content-Type: message/delivery-status',
    '',
    'Reporting-MTA: dns;hisp.sender.example.com',
    `X-Original-Message-ID: ${o.originalMessageId}`,
    '',
    `Final-Recipient: rfc822;${o.finalRecipient}`,
    `Action: ${o.action}`,
    `Status: ${o.status}`,
    ...(o.diagnostic ? [`Diagnostic-Code: smtp; ${o.diagnostic}`] : []),
    '',
    '--dsn',
    'Content-Type: text/rfc822-headers',
    '',
    `Message-ID: ${o.originalMessageId}`,
    `To: ${o.finalRecipient}`,
    '',
    '--dsn--',
    '',
  ]);
}

describe.skipIf(missing)(`Direct delivery notices from another HISP${missing ? ` (skipped: ${missing})` : ''}`, () => {
  let t: TestContext;
  let listener: DirectListener;
  let files: Record<string, string>;
  const received: Buffer[] = [];
  let senderMta: SMTPServer;
  let releaseTypeId: string;

  beforeAll(async () => {
    t = await createTestApp();
    await seedDemoCertificates(t.handle.db, t.config.blobEncryptionKey);
    const ca = await createCertificateAuthority({ commonName: 'Sender HISP CA', organization: 'Sender HISP', validDays: 365 });
    const caDer = Buffer.from(ca.certificateDer);
    const anchor = describeAnchorCertificate(caDer);
    await t.handle.db.insert(trustAnchors).values({ name: 'Sender HISP CA', subject: anchor.subject, thumbprintSha256: anchor.thumbprintSha256, notAfter: anchor.notAfter, certificateDer: caDer });
    const issued = await Promise.all([DOCTOR, POSTMASTER, COLLEAGUE, STRANGER].map((address) => issueDirectCertificate(ca, { address, usage: 'both', validDays: 90 })));
    const [lakeside] = await t.handle.db.select().from(certificates).where(sql`${LAKESIDE} = any(${certificates.sanEmails})`);
    files = { 'lakeside.pem': pem(lakeside!.certificateDer) };
    for (const [i, name] of ['doctor', 'postmaster', 'colleague', 'stranger'].entries()) {
      files[`${name}.pem`] = pem(issued[i]!.certificateDer);
      files[`${name}.key`] = keyPem(issued[i]!);
    }
    senderMta = new SMTPServer({
      authOptional: true,
      disabledCommands: ['AUTH', 'STARTTLS'],
      logger: false,
      onData(stream, _session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          received.push(Buffer.concat(chunks));
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => senderMta.listen(0, '127.0.0.1', resolve));
    const port = (senderMta.server.address() as AddressInfo).port;
    for (const domain of ['hisp.sender.example.com', 'elsewhere.example.net']) t.config.direct.smarthosts.set(domain, { host: '127.0.0.1', port });
    const blobs = createBlobStore({ db: t.handle.db, dataDir: t.config.dataDir, key: t.config.blobEncryptionKey });
    listener = await startDirectListener(createDirectDeps({ config: t.config, db: t.handle.db, blobs, now: () => t.clock.now }), quiet, 0);
    releaseTypeId = (await t.call(LAKESIDE_USER, 'GET', '/api/releasetypes')).json()[0].id as string;
  }, 60_000);

  afterAll(async () => {
    await listener?.close();
    await new Promise<void>((resolve) => (senderMta ? senderMta.close(() => resolve()) : resolve()));
    await t?.close();
  });

  // Signed by `signer`, wrapped as message/rfc822 as Direct does, encrypted for Lakeside.
  async function sealedByOpenssl(inner: string, signer: string, encrypt: string[] = ['-aes256', '-keyopt', 'rsa_padding_mode:oaep']) {
    const signed = await openssl(['cms', '-sign', '-md', 'sha256', '-signer', `${signer}.pem`, '-inkey', `${signer}.key`, '-in', 'inner.eml', '-crlfeol'], {
      ...files,
      'inner.eml': `Content-Type: message/rfc822\r\n\r\n${inner}`,
    });
    expect(signed.code, signed.stderr).toBe(0);
    const encrypted = await openssl(['cms', '-encrypt', '-in', 'signed.eml', '-recip', 'lakeside.pem', ...encrypt], { ...files, 'signed.eml': signed.stdout });
    expect(encrypted.code, encrypted.stderr).toBe(0);
    return Buffer.from(encrypted.stdout.replace(/\r?\n/g, '\r\n'));
  }

  const handOver = async (from: string, raw: Buffer) => {
    const smtp = createTransport({ host: '127.0.0.1', port: listener.port, secure: false, tls: { rejectUnauthorized: false } });
    try {
      return await smtp.sendMail({ envelope: { from, to: [LAKESIDE] }, raw });
    } finally {
      smtp.close();
    }
  };
  const runWorkflows = () => runOnce({ db: t.handle.db, handlers: workflowHandlers({ config: t.config, db: t.handle.db, now: () => t.clock.now }), logger: quiet });
  const inboundCount = async () => (await t.handle.db.select({ id: messages.id }).from(messages).where(eq(messages.direction, 'Inbound'))).length;

  // A referral Lakeside sent over Direct to the doctor: the recipient waits for its notification (as deliverOverDirect leaves it).
  async function sentReferral(recipient = DOCTOR) {
    const draft = await t.call(LAKESIDE_USER, 'PUT', '/api/messages', referralDraft(releaseTypeId, recipient));
    expect(draft.statusCode, draft.body).toBe(200);
    const messageId = draft.json<{ id: string }>().id;
    const [message] = await t.handle.db.select().from(messages).where(eq(messages.id, messageId));
    const [row] = await t.handle.db
      .insert(deliveries)
      .values({
        messageId,
        organizationId: message!.organizationId,
        recipient,
        channel: 'Direct',
        reason: deliveryReasons.directSent,
        notificationDueAt: new Date(t.clock.now.getTime() + 3_600_000),
      })
      .returning();
    const directMessageId = `<${row!.id}@hisp.lakeside.test>`;
    await t.handle.db.update(deliveries).set({ directMessageId }).where(eq(deliveries.id, row!.id));
    await t.handle.db.update(messages).set({ isDraft: false, status: 'Pending' }).where(eq(messages.id, messageId));
    return { deliveryId: row!.id, directMessageId };
  }
  const deliveryOf = async (id: string) => {
    const [row] = await t.handle.db.select().from(deliveries).where(eq(deliveries.id, id));
    const stages = await t.handle.db.select({ stage: deliveryEvents.stage }).from(deliveryEvents).where(eq(deliveryEvents.deliveryId, id)).orderBy(deliveryEvents.createdAt);
    return { ...row!, stages: stages.map((s) => s.stage) };
  };

  // Hands the notice over, runs the receive workflow, and checks it was neither filed in Intake nor answered.
  async function deliverNotice(from: string, raw: Buffer) {
    const [intakeBefore, answersBefore] = [await inboundCount(), received.length];
    expect((await handOver(from, raw)).response).toMatch(/^250 /);
    await runWorkflows();
    expect(await inboundCount()).toBe(intakeBefore);
    expect(received.length).toBe(answersBefore);
  }

  it('fails the recipient at once on a DSN from the recipient’s HISP (Direct security agent form), files nothing and answers nothing', async () => {
    const { deliveryId, directMessageId } = await sentReferral();
    const dsn = dsnEntity({ from: POSTMASTER, to: LAKESIDE, originalMessageId: directMessageId, finalRecipient: DOCTOR, action: 'failed', status: '5.1.1', diagnostic: '550 5.1.1 Mailbox unavailable' });
    await deliverNotice(POSTMASTER, await sealedByOpenssl(dsn, 'postmaster'));
    const delivery = await deliveryOf(deliveryId);
    expect(delivery).toMatchObject({ status: 'Failed', reason: 'The recipient’s HISP could not deliver it: 5.1.1 550 5.1.1 Mailbox unavailable', notificationDueAt: null });
    expect(delivery.stages).toEqual(['Failed']);
    // The referral itself turned Failed with its only recipient.
    const sent = await t.call(LAKESIDE_USER, 'GET', `/api/messages/${(await t.handle.db.select().from(deliveries).where(eq(deliveries.id, deliveryId)))[0]!.messageId}`);
    expect(sent.json()).toMatchObject({ status: 'Failed' });
  });

  it('changes nothing on a DSN that only says "delayed", and still files and answers nothing', async () => {
    const { deliveryId, directMessageId } = await sentReferral();
    const dsn = dsnEntity({ from: POSTMASTER, to: LAKESIDE, originalMessageId: directMessageId, finalRecipient: DOCTOR, action: 'delayed', status: '4.4.1' });
    await deliverNotice(POSTMASTER, await sealedByOpenssl(dsn, 'postmaster'));
    expect(await deliveryOf(deliveryId)).toMatchObject({ status: 'Pending', reason: deliveryReasons.directSent, stages: [] });
  });

  it('fails the recipient at once on an MDN "failed", with its Failure text', async () => {
    const { deliveryId, directMessageId } = await sentReferral();
    const mdn = mdnEntity({ from: DOCTOR, to: LAKESIDE, originalMessageId: directMessageId, disposition: 'failed', finalRecipient: DOCTOR, failure: 'Quarantined: unknown recipient' });
    await deliverNotice(DOCTOR, await sealedByOpenssl(mdn, 'doctor'));
    expect(await deliveryOf(deliveryId)).toMatchObject({ status: 'Failed', reason: 'The recipient’s HISP could not deliver it: Quarantined: unknown recipient', stages: ['Failed'] });
  });

  it('matches an MDN sent by another address of the recipient’s HISP (ETT’s different sender) on Original-Message-ID and Final-Recipient', async () => {
    const { deliveryId, directMessageId } = await sentReferral();
    const processed = mdnEntity({ from: POSTMASTER, to: LAKESIDE, originalMessageId: directMessageId, disposition: 'processed', finalRecipient: DOCTOR, originalRecipient: DOCTOR });
    await deliverNotice(POSTMASTER, await sealedByOpenssl(processed, 'postmaster'));
    expect(await deliveryOf(deliveryId)).toMatchObject({ status: 'Pending', reason: deliveryReasons.directProcessed, stages: ['Processed'] });
    // ETT's own MDNs name the MDN's To in Final-Recipient and the original recipient in Original-Recipient.
    const dispatched = mdnEntity({ from: POSTMASTER, to: LAKESIDE, originalMessageId: directMessageId, disposition: 'dispatched', finalRecipient: LAKESIDE, originalRecipient: DOCTOR });
    await deliverNotice(POSTMASTER, await sealedByOpenssl(dispatched, 'postmaster'));
    expect(await deliveryOf(deliveryId)).toMatchObject({ status: 'Delivered', reason: deliveryReasons.directDispatched, stages: ['Processed', 'Dispatched'] });
  });

  it('ignores an MDN that names another recipient, or is signed for another domain, or names a Message-ID never sent', async () => {
    const { deliveryId, directMessageId } = await sentReferral();
    const cases = [
      // The recipient's HISP, but about a colleague this message was not sent to.
      ['colleague', COLLEAGUE, mdnEntity({ from: COLLEAGUE, to: LAKESIDE, originalMessageId: directMessageId, disposition: 'failed', finalRecipient: COLLEAGUE })],
      // A HISP of another domain (trusted, validly signed) claiming to speak for the doctor.
      ['stranger', STRANGER, mdnEntity({ from: STRANGER, to: LAKESIDE, originalMessageId: directMessageId, disposition: 'failed', finalRecipient: DOCTOR })],
      ['stranger', STRANGER, dsnEntity({ from: STRANGER, to: LAKESIDE, originalMessageId: directMessageId, finalRecipient: DOCTOR, action: 'failed', status: '5.0.0' })],
      ['doctor', DOCTOR, mdnEntity({ from: DOCTOR, to: LAKESIDE, originalMessageId: '<never-sent@hisp.lakeside.test>', disposition: 'failed', finalRecipient: DOCTOR })],
    ] as const;
    for (const [signer, from, entity] of cases) await deliverNotice(from, await sealedByOpenssl(entity, signer));
    expect(await deliveryOf(deliveryId)).toMatchObject({ status: 'Pending', reason: deliveryReasons.directSent, stages: [] });
  });

  it('sends MDNs that ask for no notification themselves (no Disposition-Notification-To or -Options, outside or inside)', async () => {
    const inner = crlf([`From: ${DOCTOR}`, `To: ${LAKESIDE}`, 'Subject: Please see', 'Message-ID: <dno-1@hisp.sender.example.com>', `Disposition-Notification-To: ${DOCTOR}`, 'Disposition-Notification-Options: X-DIRECT-FINAL-DESTINATION-DELIVERY=optional,true', 'MIME-Version: 1.0', 'Content-Type: text/plain', '', 'Please see this patient.', '']);
    const before = received.length;
    expect((await handOver(DOCTOR, await sealedByOpenssl(inner, 'doctor'))).response).toMatch(/^250 /);
    await runWorkflows();
    // processed, then dispatched (asked for with X-DIRECT-FINAL-DESTINATION-DELIVERY).
    const answers = received.slice(before);
    expect(answers).toHaveLength(2);
    for (const answer of answers) {
      expect(answer.toString('latin1')).not.toMatch(/^Disposition-Notification-/im);
      const opened = await openssl(['cms', '-decrypt', '-recip', 'doctor.pem', '-inkey', 'doctor.key', '-in', 'mdn.eml'], { ...files, 'mdn.eml': answer });
      expect(opened.code, opened.stderr).toBe(0);
      expect(opened.stdout).toContain('Content-Type: multipart/report');
      expect(opened.stdout).not.toMatch(/^Disposition-Notification-/im);
    }
  });

  it('keys duplicates on the sender and the Message-ID: another sender’s message with the same Message-ID is a message of its own', async () => {
    const message = (from: string, subject: string) =>
      crlf([`From: ${from}`, `To: ${LAKESIDE}`, `Subject: ${subject}`, 'Message-ID: <1@localhost>', 'MIME-Version: 1.0', 'Content-Type: text/plain', '', 'Please see this patient.', '']);
    const subjects = async () =>
      (await t.handle.db.select({ subject: messages.subject }).from(messages).where(and(eq(messages.direction, 'Inbound'), sql`${messages.subject} like 'Same id%'`))).map((m) => m.subject).sort();
    await handOver(DOCTOR, await sealedByOpenssl(message(DOCTOR, 'Same id from the doctor'), 'doctor'));
    await handOver(COLLEAGUE, await sealedByOpenssl(message(COLLEAGUE, 'Same id from a colleague'), 'colleague'));
    // The doctor's HISP hands the same message over again (a retry after a lost reply).
    await handOver(DOCTOR, await sealedByOpenssl(message(DOCTOR, 'Same id from the doctor'), 'doctor'));
    await runWorkflows();
    expect(await subjects()).toEqual(['Same id from a colleague', 'Same id from the doctor']);
  });

  // ETT's "cannot deliver": trusted and accepted at RCPT, then Intake cannot take it. A NUL in the text (quoted-printable
  // =00) is what PostgreSQL refuses to store in a text column: every try fails, and the last one tells the sender.
  it('answers with an MDN "failed" when Intake cannot store an accepted message even on the last try', async () => {
    const inner = crlf([`From: ${DOCTOR}`, `To: ${LAKESIDE}`, 'Subject: Cannot be stored', 'Message-ID: <nul-1@hisp.sender.example.com>', 'MIME-Version: 1.0', 'Content-Type: text/plain', 'Content-Transfer-Encoding: quoted-printable', '', 'Before=00after', '']);
    const [intakeBefore, answersBefore] = [await inboundCount(), received.length];
    expect((await handOver(DOCTOR, await sealedByOpenssl(inner, 'doctor'))).response).toMatch(/^250 /);
    for (let round = 0; round < 10; round++) {
      await runWorkflows();
      const [workflow] = await t.handle.db.select().from(workflows).where(and(eq(workflows.type, 'receive-direct'), eq(workflows.status, 'Pending')));
      if (!workflow) break;
      // The retry's backoff, skipped.
      await t.handle.db.update(workflows).set({ runAfter: sql`now()` }).where(eq(workflows.id, workflow.id));
    }
    expect(await inboundCount()).toBe(intakeBefore);
    const answers = received.slice(answersBefore);
    expect(answers).toHaveLength(1);
    const opened = await openssl(['cms', '-decrypt', '-recip', 'doctor.pem', '-inkey', 'doctor.key', '-in', 'mdn.eml'], { ...files, 'mdn.eml': answers[0]! });
    expect(opened.code, opened.stderr).toBe(0);
    expect(opened.stdout).toMatch(/Disposition: automatic-action\/MDN-sent-automatically; ?failed/);
    // The field is folded at 76 characters.
    expect(opened.stdout).toMatch(/Failure: The message was accepted but could not be stored for the\s+recipient\./);
    expect(opened.stdout).toContain('Original-Message-ID: <nul-1@hisp.sender.example.com>');
  });
});
