import { X509Certificate } from 'node:crypto';
import { createTransport } from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trustAnchors } from '../../db/schema/certificates.ts';
import { findSigningCertificate, type DirectCertificate } from '../../modules/certificates/service.ts';
import { describeAnchorCertificate } from '../../modules/trust-anchors/trust-files.ts';
import { createBlobStore } from '../../platform/blobs/blob-store.ts';
import { createCertificateAuthority, issueDirectCertificate, toPkcs12, type CertificateAuthority, type IssuedCertificate } from '../../platform/direct/certificate-authority.ts';
import type { WorkflowLogger } from '../../platform/workflows/context.ts';
import { createTestApp, type TestContext } from '../../test/app.ts';
import { createDirectDeps } from './direct-deps.ts';
import { publishedRecords } from './dns-publisher.ts';
import { sealMessage } from './envelope.ts';
import { startDirectListener, type DirectListener } from './listener.ts';

// Issue 28 §1: a certificate rollover while messages are in flight, as a HISP certified with ONC's tools meets it. A
// sender looked Lakeside's certificate up yesterday and sends to it today, after Lakeside imported the next version:
// the message opens with the previous key, also once it has expired, for DIRECT_DECRYPT_GRACE_DAYS (default 14), and is
// refused after that. A domain-bound certificate beside the address's opens what is encrypted to it. DNS publishes and
// this HISP signs with the newest.

const quiet: WorkflowLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };
const LAKESIDE = 'intake@lakeside.direct.example.org';
const SENDER = 'doctor@hisp.sender.example.com';
const ADMIN = 'sysadmin@example.org';
const PASSWORD = 'rollover';
const DAY = 86_400_000;

describe('more than one certificate per address or domain (issue 28 §1)', () => {
  let t: TestContext;
  let listener: DirectListener;
  let lakesideCa: CertificateAuthority;
  let sender: DirectCertificate;
  let oldCertificate: IssuedCertificate;
  let newCertificate: IssuedCertificate;
  let domainCertificate: IssuedCertificate;
  const t0 = new Date();
  const at = (days: number) => new Date(t0.getTime() + days * DAY);

  async function importCertificate(name: string, issued: IssuedCertificate, useExistingName = false) {
    const form = new FormData();
    form.append('name', name);
    form.append('password', PASSWORD);
    if (useExistingName) form.append('useExistingName', 'true');
    const pfx = await toPkcs12(issued.certificateDer, issued.privateKey, [lakesideCa.certificateDer], PASSWORD);
    form.append('file', new Blob([Buffer.from(pfx)]), `${name}.pfx`);
    const request = new Response(form);
    const { accessToken } = await t.login(ADMIN);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/configuration/certificates',
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': request.headers.get('content-type')! },
      payload: Buffer.from(await request.arrayBuffer()),
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ version: number }>();
  }

  // What the sending HISP puts on the wire: signed by the sender, encrypted to the certificate it found for Lakeside.
  async function sendEncryptedTo(recipientCertificate: IssuedCertificate, subject: string) {
    const inner = Buffer.from(`From: ${SENDER}\r\nTo: ${LAKESIDE}\r\nSubject: ${subject}\r\nMessage-ID: <${subject.replace(/\W+/g, '-')}@hisp.sender.example.com>\r\nContent-Type: text/plain\r\n\r\nPlease see this patient.\r\n`);
    const raw = await sealMessage(inner, { from: SENDER, to: [LAKESIDE], subject, messageId: `<outer-${subject.replace(/\W+/g, '-')}@hisp.sender.example.com>`, date: t.clock.now }, sender, [recipientCertificate.certificateDer], 'aes-256-cbc');
    const smtp = createTransport({ host: '127.0.0.1', port: listener.port, secure: false, tls: { rejectUnauthorized: false } });
    try {
      return await smtp.sendMail({ envelope: { from: SENDER, to: [LAKESIDE] }, raw });
    } finally {
      smtp.close();
    }
  }

  const published = async (name: string) => (await publishedRecords(t.handle.db, name, 'CERT', t.clock.now)).answers.map((a) => Buffer.from((a as { data: Buffer }).data.subarray(5)));

  beforeAll(async () => {
    t = await createTestApp();
    t.clock.now = t0;
    lakesideCa = await createCertificateAuthority({ commonName: 'Lakeside Direct CA', organization: 'Lakeside', validDays: 3650, notBefore: at(-1) });
    const senderCa = await createCertificateAuthority({ commonName: 'Sender HISP CA', organization: 'Sender HISP', validDays: 3650, notBefore: at(-1) });
    const anchor = describeAnchorCertificate(Buffer.from(senderCa.certificateDer));
    await t.handle.db.insert(trustAnchors).values({ name: 'Sender HISP CA', subject: anchor.subject, thumbprintSha256: anchor.thumbprintSha256, notAfter: anchor.notAfter, certificateDer: Buffer.from(senderCa.certificateDer) });
    const senderIssued = await issueDirectCertificate(senderCa, { address: SENDER, usage: 'both', validDays: 365, notBefore: at(-1) });
    sender = { name: 'sender', certificate: new X509Certificate(senderIssued.certificateDer), der: Buffer.from(senderIssued.certificateDer), chain: [], privateKey: senderIssued.privateKey };
    // Old: valid 30 days from t0 (less an hour); new: issued on day 20 for a year; a domain-bound one beside them.
    [oldCertificate, newCertificate, domainCertificate] = await Promise.all([
      issueDirectCertificate(lakesideCa, { address: LAKESIDE, usage: 'both', validDays: 30, notBefore: new Date(t0.getTime() - 3_600_000) }),
      issueDirectCertificate(lakesideCa, { address: LAKESIDE, usage: 'both', validDays: 365, notBefore: new Date(at(20).getTime() - 3_600_000) }),
      issueDirectCertificate(lakesideCa, { domain: 'lakeside.direct.example.org', usage: 'both', validDays: 365, notBefore: at(-1) }),
    ]);
    const blobs = createBlobStore({ db: t.handle.db, dataDir: t.config.dataDir, key: t.config.blobEncryptionKey });
    listener = await startDirectListener(createDirectDeps({ config: t.config, db: t.handle.db, blobs, now: () => t.clock.now }), quiet, 0);
  }, 60_000);

  afterAll(async () => {
    await listener?.close();
    await t?.close();
  });

  it('publishes the only certificate on day 0, and a sender encrypts to it', async () => {
    expect((await importCertificate('lakeside-intake', oldCertificate)).version).toBe(1);
    expect(await published('intake.lakeside.direct.example.org')).toEqual([Buffer.from(oldCertificate.certificateDer)]);
    await expect(sendEncryptedTo(oldCertificate, 'Day 0 to the old certificate')).resolves.toMatchObject({ response: expect.stringMatching(/^250/) as string });
  });

  it('after the next version is imported (day 20): publishes and signs with the new one, opens messages to either', async () => {
    t.clock.now = at(20);
    expect((await importCertificate('lakeside-intake', newCertificate, true)).version).toBe(2);
    expect(await published('intake.lakeside.direct.example.org')).toEqual([Buffer.from(newCertificate.certificateDer)]);
    const signer = await findSigningCertificate({ db: t.handle.db, masterKey: t.config.blobEncryptionKey, now: () => t.clock.now }, LAKESIDE);
    expect(signer?.der).toEqual(Buffer.from(newCertificate.certificateDer));
    // In flight: encrypted yesterday to the certificate DNS then published.
    await expect(sendEncryptedTo(oldCertificate, 'In flight to the old certificate')).resolves.toMatchObject({ response: expect.stringMatching(/^250/) as string });
    await expect(sendEncryptedTo(newCertificate, 'To the new certificate')).resolves.toMatchObject({ response: expect.stringMatching(/^250/) as string });
  });

  it('opens a message encrypted to a domain-bound certificate imported beside the address’s, and DNS publishes it at the domain', async () => {
    await importCertificate('lakeside-domain', domainCertificate);
    expect(await published('lakeside.direct.example.org')).toEqual([Buffer.from(domainCertificate.certificateDer)]);
    await expect(sendEncryptedTo(domainCertificate, 'To the domain certificate')).resolves.toMatchObject({ response: expect.stringMatching(/^250/) as string });
    // The address's own certificate still signs.
    const signer = await findSigningCertificate({ db: t.handle.db, masterKey: t.config.blobEncryptionKey, now: () => t.clock.now }, LAKESIDE);
    expect(signer?.der).toEqual(Buffer.from(newCertificate.certificateDer));
  });

  it('opens a message to the old certificate after it expired, within the grace period (day 35 of 30 + 14)', async () => {
    t.clock.now = at(35);
    expect(t.config.direct.decryptGraceDays).toBe(14);
    await expect(sendEncryptedTo(oldCertificate, 'Late, to the expired certificate')).resolves.toMatchObject({ response: expect.stringMatching(/^250/) as string });
  });

  it('refuses it once the grace period is over (day 45), with the reason', async () => {
    t.clock.now = at(45);
    await expect(sendEncryptedTo(oldCertificate, 'Too late for the old certificate')).rejects.toMatchObject({
      responseCode: 554,
      response: expect.stringContaining('5.7.5 The message is not encrypted for this address’s certificate.') as string,
    });
    await expect(sendEncryptedTo(newCertificate, 'Still fine with the new one')).resolves.toMatchObject({ response: expect.stringMatching(/^250/) as string });
  });
});
