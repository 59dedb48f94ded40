import { X509Certificate } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { AddressInfo } from 'node:net';
import { createTransport } from 'nodemailer';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certificates, trustAnchors } from '../../db/schema/certificates.ts';
import { auditEvents } from '../../db/schema/audit.ts';
import { messages } from '../../db/schema/messages.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { seedDemoCertificates } from '../../db/seed/demo-certificates.ts';
import { describeAnchorCertificate } from '../../modules/trust-anchors/trust-files.ts';
import { parseClamdUrl } from '../../platform/antivirus/clamd.ts';
import { createBlobStore } from '../../platform/blobs/blob-store.ts';
import { createCertificateAuthority, issueDirectCertificate, type IssuedCertificate } from '../../platform/direct/certificate-authority.ts';
import type { WorkflowLogger } from '../../platform/workflows/context.ts';
import { workflowHandlers } from '../../platform/workflows/registry.ts';
import { runOnce } from '../../platform/workflows/runner.ts';
import { createTestApp, type TestContext } from '../../test/app.ts';
import { openssl, opensslMissing } from '../../test/openssl.ts';
import { blobs as blobRows } from '../../db/schema/blobs.ts';
import { clamdMissing, EICAR, EICAR_SIGNATURE, freePort, startClamd } from '../../test/clamd.ts';
import { createDirectDeps } from './direct-deps.ts';
import { startDirectListener, type DirectListener } from './listener.ts';

// Issue 12 §3 and §5: messages another HISP builds with OpenSSL reach Intake when they are signed and encrypted as
// Direct requires (RSA-OAEP or PKCS#1 v1.5 key transport), and are refused during the SMTP session, with a 5.7.x
// reply in plain words, when they are signed with SHA-1, by an untrusted CA, by a certificate for another address,
// or encrypted with 3DES in strict mode.

const missing = opensslMissing();
const quiet: WorkflowLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };
const LAKESIDE = 'intake@lakeside.direct.example.org';
const SENDER = 'doctor@hisp.sender.example.com';

const pem = (der: Uint8Array) => new X509Certificate(der).toString();
const keyPem = (issued: IssuedCertificate) => issued.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

describe.skipIf(missing)(`Direct SMTP listener and messages built by OpenSSL${missing ? ` (skipped: ${missing})` : ''}`, () => {
  let t: TestContext;
  let listener: DirectListener;
  let files: Record<string, string>;
  // The sending HISP's mail server: where the MDNs go.
  const mdns: Buffer[] = [];
  let senderMta: SMTPServer;

  beforeAll(async () => {
    t = await createTestApp();
    await seedDemoCertificates(t.handle.db, t.config.blobEncryptionKey);
    const trustedCa = await createCertificateAuthority({ commonName: 'Sender HISP CA', organization: 'Sender HISP', validDays: 365 });
    const strangerCa = await createCertificateAuthority({ commonName: 'Unknown CA', organization: 'Nobody', validDays: 365 });
    const caDer = Buffer.from(trustedCa.certificateDer);
    const anchor = describeAnchorCertificate(caDer);
    await t.handle.db.insert(trustAnchors).values({ name: 'Sender HISP CA', subject: anchor.subject, thumbprintSha256: anchor.thumbprintSha256, notAfter: anchor.notAfter, certificateDer: caDer });
    const sender = await issueDirectCertificate(trustedCa, { address: SENDER, usage: 'both', validDays: 90 });
    const otherAddress = await issueDirectCertificate(trustedCa, { address: 'someone-else@hisp.sender.example.com', usage: 'both', validDays: 90 });
    const untrusted = await issueDirectCertificate(strangerCa, { address: SENDER, usage: 'both', validDays: 90 });
    const [lakeside] = await t.handle.db.select().from(certificates).where(sql`${LAKESIDE} = any(${certificates.sanEmails})`);
    files = {
      'sender.pem': pem(sender.certificateDer),
      'sender.key': keyPem(sender),
      'other.pem': pem(otherAddress.certificateDer),
      'other.key': keyPem(otherAddress),
      'untrusted.pem': pem(untrusted.certificateDer),
      'untrusted.key': keyPem(untrusted),
      'lakeside.pem': pem(lakeside!.certificateDer),
    };
    senderMta = new SMTPServer({
      authOptional: true,
      disabledCommands: ['AUTH', 'STARTTLS'],
      logger: false,
      onData(stream, _session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          mdns.push(Buffer.concat(chunks));
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => senderMta.listen(0, '127.0.0.1', resolve));
    t.config.direct.smarthosts.set('hisp.sender.example.com', { host: '127.0.0.1', port: (senderMta.server.address() as AddressInfo).port });
    const blobs = createBlobStore({ db: t.handle.db, dataDir: t.config.dataDir, key: t.config.blobEncryptionKey });
    listener = await startDirectListener(createDirectDeps({ config: t.config, db: t.handle.db, blobs, now: () => t.clock.now }), quiet, 0);
  }, 60_000);

  afterAll(async () => {
    await listener?.close();
    await new Promise<void>((resolve) => (senderMta ? senderMta.close(() => resolve()) : resolve()));
    await t?.close();
  });

  // What another HISP would put on the wire: the message wrapped as message/rfc822, signed, then encrypted.
  async function builtByOpenssl(subject: string, opts: { signer?: string; digest?: string; encrypt?: readonly string[]; attachment?: { name: string; text: string } } = {}) {
    const signer = opts.signer ?? 'sender';
    const headers = `From: ${SENDER}\r\nTo: ${LAKESIDE}\r\nSubject: ${subject}\r\nMessage-ID: <${subject.replace(/\W+/g, '-')}@hisp.sender.example.com>\r\nMIME-Version: 1.0\r\n`;
    const attached = opts.attachment
      ? `Content-Type: multipart/mixed; boundary="b1"\r\n\r\n--b1\r\nContent-Type: text/plain\r\n\r\nPlease see this patient.\r\n--b1\r\nContent-Type: application/octet-stream\r\nContent-Disposition: attachment; filename="${opts.attachment.name}"\r\nContent-Transfer-Encoding: base64\r\n\r\n${Buffer.from(opts.attachment.text).toString('base64')}\r\n--b1--\r\n`
      : 'Content-Type: text/plain\r\n\r\nPlease see this patient.\r\n';
    const inner = `${headers}${attached}`;
    const signed = await openssl(['cms', '-sign', '-md', opts.digest ?? 'sha256', '-signer', `${signer}.pem`, '-inkey', `${signer}.key`, '-in', 'inner.eml', '-crlfeol'], {
      ...files,
      'inner.eml': `Content-Type: message/rfc822\r\n\r\n${inner}`,
    });
    expect(signed.code, signed.stderr).toBe(0);
    // -keyopt applies to the -recip before it.
    const encrypted = await openssl(['cms', '-encrypt', '-from', SENDER, '-to', LAKESIDE, '-subject', subject, '-in', 'signed.eml', '-recip', 'lakeside.pem', ...(opts.encrypt ?? ['-aes256', '-keyopt', 'rsa_padding_mode:oaep'])], {
      ...files,
      'signed.eml': signed.stdout,
    });
    expect(encrypted.code, encrypted.stderr).toBe(0);
    return Buffer.from(encrypted.stdout.replace(/\r?\n/g, '\r\n'));
  }

  const handOver = async (raw: Buffer) => {
    const smtp = createTransport({ host: '127.0.0.1', port: listener.port, secure: false, tls: { rejectUnauthorized: false } });
    try {
      return await smtp.sendMail({ envelope: { from: SENDER, to: [LAKESIDE] }, raw });
    } finally {
      smtp.close();
    }
  };
  const runWorkflows = () => runOnce({ db: t.handle.db, handlers: workflowHandlers({ config: t.config, db: t.handle.db, now: () => t.clock.now }), logger: quiet });
  const inIntake = async (subject: string) =>
    t.handle.db.select().from(messages).where(and(eq(messages.direction, 'Inbound'), eq(messages.subject, subject)));

  it.each([
    ['RSA-OAEP key transport, AES-256', ['-aes256', '-keyopt', 'rsa_padding_mode:oaep']],
    ['PKCS#1 v1.5 key transport, AES-128', ['-aes128']],
    // Issue 28: AuthEnvelopedData (RFC 5083/5084) was refused as "not encrypted".
    ['AES-256-GCM (AuthEnvelopedData)', ['-aes-256-gcm', '-keyopt', 'rsa_padding_mode:oaep']],
  ])('accepts a message with %s into Lakeside’s Intake', async (label, encrypt) => {
    const subject = `OpenSSL ${label}`;
    const info = await handOver(await builtByOpenssl(subject, { encrypt }));
    expect(info.response).toMatch(/^250 /);
    await runWorkflows();
    const [received] = await inIntake(subject);
    expect(received).toMatchObject({ fromAddress: SENDER, toAddress: LAKESIDE, sourceType: 'Direct', body: expect.stringContaining('Please see this patient.') as string });

    // The sender's HISP gets a signed and encrypted MDN 'processed' for it, which OpenSSL opens with the sender's key.
    const mdn = mdns.at(-1)!;
    const decrypted = await openssl(['cms', '-decrypt', '-recip', 'sender.pem', '-inkey', 'sender.key', '-in', 'mdn.eml'], { ...files, 'mdn.eml': mdn });
    expect(decrypted.code, decrypted.stderr).toBe(0);
    expect(decrypted.stdout).toContain('multipart/signed');
    expect(decrypted.stdout).toContain('Content-Type: multipart/report');
    expect(decrypted.stdout).toMatch(/Disposition: automatic-action\/MDN-sent-automatically; ?processed/);
    expect(decrypted.stdout).toContain(`<${subject.replace(/\W+/g, '-')}@hisp.sender.example.com>`);
    expect(decrypted.stdout).toMatch(/Original-Message-ID:\s+<OpenSSL-/);
  });

  it.each([
    ['signed with SHA-1', { digest: 'sha1' }, /^554 5\.7\.7 .*SHA-1/],
    ['signed by a CA nobody here trusts', { signer: 'untrusted' }, /^554 5\.7\.7 The sender’s certificate is not trusted: .*no chain to a trust anchor/],
    ['signed with a certificate for another address', { signer: 'other' }, /^554 5\.7\.7 The sender’s certificate is not issued for doctor@hisp\.sender\.example\.com/],
    ['encrypted with 3DES (strict mode)', { encrypt: ['-des3'] }, /^554 5\.7\.5 .*3DES|^554 5\.7\.5 .*DES/i],
  ] as const)('refuses a message %s during the SMTP session', async (label, opts, reply) => {
    const subject = `Refused: ${label}`;
    const error = await handOver(await builtByOpenssl(subject, opts)).then(
      () => null,
      (caught: unknown) => caught as { response: string },
    );
    expect(error?.response).toMatch(reply);
    await runWorkflows();
    expect(await inIntake(subject)).toHaveLength(0);
  });

  it('refuses a message over DIRECT_MAX_MESSAGE_MB with 552, without keeping it', async () => {
    const blobs = createBlobStore({ db: t.handle.db, dataDir: t.config.dataDir, key: t.config.blobEncryptionKey });
    const config = { ...t.config, direct: { ...t.config.direct, maxMessageBytes: 4096 } };
    const small = await startDirectListener(createDirectDeps({ config, db: t.handle.db, blobs, now: () => t.clock.now }), quiet, 0);
    const smtp = createTransport({ host: '127.0.0.1', port: small.port, secure: false, tls: { rejectUnauthorized: false } });
    try {
      const error = await smtp.sendMail({ envelope: { from: SENDER, to: [LAKESIDE] }, raw: await builtByOpenssl('Too large') }).then(
        () => null,
        (caught: unknown) => caught as { responseCode: number; response: string },
      );
      expect(error).toMatchObject({ responseCode: 552 });
    } finally {
      smtp.close();
      await small.close();
    }
  });

  // Issue 26: mail to a hosted address of an organization that is not activated (or is canceled) is refused at RCPT.
  it.each([
    ['not activated', { isActivated: false }, "550 5.7.1 intake@lakeside.direct.example.org: The recipient's organization is not activated (activation enables Intake and Release)."],
    ['canceled', { cancelledAt: new Date(Date.now() - 86_400_000) }, "550 5.7.1 intake@lakeside.direct.example.org: The recipient's organization is canceled."],
  ] as const)('refuses mail for an organization that is %s with a 550 in ASCII', async (label, values, expected) => {
    await t.handle.db.update(organizations).set(values).where(eq(organizations.subdomain, 'lakeside'));
    try {
      const error = await handOver(await builtByOpenssl(`To an organization ${label}`)).then(
        () => null,
        (caught: unknown) => caught as { response: string },
      );
      expect(error?.response).toBe(expected);
    } finally {
      await t.handle.db.update(organizations).set({ isActivated: true, cancelledAt: null }).where(eq(organizations.subdomain, 'lakeside'));
    }
  });

  // Issue 26: a trusted message carrying EICAR was accepted (250) and served back. It is now refused during the SMTP
  // session, after decryption, with a 5.7.1 reply in ASCII, and nothing of it is kept; with clamd down, 4.3.0 (retry).
  describe.skipIf(clamdMissing())('with clamd scanning', () => {
    const listenWith = async (clamdUrl: string) => {
      const blobs = createBlobStore({ db: t.handle.db, dataDir: t.config.dataDir, key: t.config.blobEncryptionKey });
      const config = { ...t.config, clamd: parseClamdUrl(clamdUrl)! };
      return startDirectListener(createDirectDeps({ config, db: t.handle.db, blobs, now: () => t.clock.now }), quiet, 0);
    };
    const sendTo = async (port: number, raw: Buffer) => {
      const smtp = createTransport({ host: '127.0.0.1', port, secure: false, tls: { rejectUnauthorized: false } });
      try {
        return await smtp.sendMail({ envelope: { from: SENDER, to: [LAKESIDE] }, raw }).then(
          (info) => ({ response: info.response }),
          (caught: unknown) => ({ response: (caught as { response: string }).response }),
        );
      } finally {
        smtp.close();
      }
    };
    const blobCount = async () => (await t.handle.db.select({ id: blobRows.id }).from(blobRows)).length;

    it('refuses a message with the EICAR file with 554 5.7.1 in ASCII, keeps nothing, and accepts a clean one', async () => {
      const clamd = await startClamd();
      const scanning = await listenWith(clamd.url);
      try {
        const before = await blobCount();
        const infected = await sendTo(scanning.port, await builtByOpenssl('Infected referral', { attachment: { name: 'eicar.com', text: EICAR } }));
        expect(infected.response).toBe(`554 5.7.1 Refused: the attachment eicar.com contains a virus (${EICAR_SIGNATURE}).`);
        expect(infected.response).toMatch(/^[\x20-\x7e]+$/);
        expect(await blobCount()).toBe(before);
        await runWorkflows();
        expect(await inIntake('Infected referral')).toHaveLength(0);

        const clean = await sendTo(scanning.port, await builtByOpenssl('Clean referral', { attachment: { name: 'note.txt', text: 'A clean note.' } }));
        expect(clean.response).toMatch(/^250 /);
        await runWorkflows();
        expect(await inIntake('Clean referral')).toHaveLength(1);
      } finally {
        await scanning.close();
        await clamd.stop();
      }
    }, 120_000);

    it('quarantines a message found infected after the SMTP session (newer signatures): nothing in Intake, an MDN failed, an audit row', async () => {
      const clamd = await startClamd();
      try {
        // Accepted by a listener that did not scan (no CLAMD_URL then), received by workers that do.
        const blobsBefore = await blobCount();
        const accepted = await sendTo(listener.port, await builtByOpenssl('Infected later', { attachment: { name: 'eicar.com', text: EICAR } }));
        expect(accepted.response).toMatch(/^250 /);
        const before = mdns.length;
        const config = { ...t.config, clamd: parseClamdUrl(clamd.url)! };
        await runOnce({ db: t.handle.db, handlers: workflowHandlers({ config, db: t.handle.db, now: () => t.clock.now }), logger: quiet });
        expect(await inIntake('Infected later')).toHaveLength(0);
        // The message as received over SMTP is gone too.
        expect(await blobCount()).toBe(blobsBefore);
        const mdn = await openssl(['cms', '-decrypt', '-recip', 'sender.pem', '-inkey', 'sender.key', '-in', 'mdn.eml'], { ...files, 'mdn.eml': mdns.at(-1)! });
        expect(mdns.length).toBe(before + 1);
        expect(mdn.stdout).toMatch(/Disposition: automatic-action\/MDN-sent-automatically; ?failed/);
        expect(mdn.stdout).toContain('contains a virus');
        const [audit] = await t.handle.db.select().from(auditEvents).where(eq(auditEvents.eventType, 'InfectedMessageRefused'));
        expect(audit?.details).toMatchObject({ from: SENDER, recipient: LAKESIDE, signature: EICAR_SIGNATURE });
      } finally {
        await clamd.stop();
      }
    }, 120_000);

    it('answers 451 4.3.0 (try again later) while clamd does not answer, and keeps nothing', async () => {
      const scanning = await listenWith(`tcp://127.0.0.1:${await freePort()}`);
      try {
        const before = await blobCount();
        const result = await sendTo(scanning.port, await builtByOpenssl('Scanner down', { attachment: { name: 'note.txt', text: 'A clean note.' } }));
        expect(result.response).toBe('451 4.3.0 The virus scanner is unavailable, try again later');
        expect(await blobCount()).toBe(before);
      } finally {
        await scanning.close();
      }
      // OpenSSL builds the message and a listener starts: as slow as its sibling on a loaded machine.
    }, 120_000);
  });
});
