import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { createPrivateKey } from 'node:crypto';
import { beforeAll, expect } from 'vitest';
import { describeWithFixtures, fixture, itWithFixtures } from '../../test/shared-fixtures.ts';
import { createCertificateAuthority, issueDirectCertificate, type CertificateAuthority, type IssuedCertificate } from './certificate-authority.ts';
import { decryptEntity, encryptEntity, signEntity, splitEntity, verifySignedEntity } from './smime.ts';
import { buildChain, verifyChain } from './trust.ts';

// The Direct Project reference implementation's test vectors (../shared/fixtures/direct): its encrypted
// message opens with Ryan's key and carries Greg's valid signature, chained to the SimpleInterop anchor;
// its sample messages survive our sign, encrypt, decrypt and verify byte for byte.

const messageWithAttachment = () => fixture('direct/MessageWithAttachment.txt');

itWithFixtures('decrypts EncryptedMessage2 with ryanKey.der (PKCS#8) and verifies its SHA-256 signature, chained to the anchor', async () => {
  // ryanKey.der is an unencrypted PKCS#8 PrivateKeyInfo (version 0, rsaEncryption, then the PKCS#1 key).
  const privateKey = createPrivateKey({ key: Buffer.from(fixture('direct/ryanKey.der')), format: 'der', type: 'pkcs8' });
  const ryan = fixture('direct/ryan.der');
  const opened = await decryptEntity(fixture('direct/EncryptedMessage2.txt'), [{ certificate: ryan, privateKey }]);
  expect(opened.cipher).toBe('aes-128-cbc');
  expect(opened.keyTransport).toBe('RSAES-PKCS1-v1_5');
  expect(opened.recipientCertificate).toBe(ryan);

  const verified = await verifySignedEntity(opened.entity);
  expect(verified.digestAlgorithm).toBe('sha-256');
  expect(verified.signingTime).toEqual(new Date('2021-06-09T12:59:34Z'));
  const signer = new x509.X509Certificate(verified.signer);
  expect(signer.getExtension(x509.SubjectAlternativeNameExtension)?.names.toJSON()).toEqual([{ type: 'email', value: 'gm2552@securehealthemail.com' }]);
  // The signed content is the original message, wrapped as message/rfc822.
  const { header, body } = splitEntity(verified.content);
  expect(header).toBe('content-type: message/rfc822');
  expect(body.equals(Buffer.from(messageWithAttachment()))).toBe(true);

  // The signer's certificate is itself signed with SHA-1: it chains to the anchor (buildChain), and the
  // trust policy (verifyChain) then refuses it for that, as it would any SHA-1 certificate.
  const anchor = fixture('direct/secureHealthEmailCACert.der');
  const chain = buildChain(signer, [new x509.X509Certificate(anchor)], verified.certificates.map((der) => new x509.X509Certificate(der)));
  expect(chain?.map((certificate) => certificate.subject)).toEqual([signer.subject, new x509.X509Certificate(anchor).subject]);
  expect(verifyChain(verified.signer, [anchor], new Date(Date.UTC(2026, 0, 1)), verified.certificates)).toEqual({
    ok: false,
    reason: 'The certificate is signed with SHA-1, which is no longer accepted. SHA-256 or better is required.',
  });
});

describeWithFixtures('the reference sample messages, signed and encrypted by us', () => {
  let ca: CertificateAuthority;
  let sender: IssuedCertificate;
  let recipient: IssuedCertificate;

  beforeAll(async () => {
    ca = await createCertificateAuthority({ commonName: 'ClinicRelay Demo CA', organization: 'ClinicRelay Demo', validDays: 3650 });
    [sender, recipient] = await Promise.all([
      issueDirectCertificate(ca, { domain: 'direct.lakeside.example.org', usage: 'both', validDays: 365 }),
      issueDirectCertificate(ca, { address: 'ryan@direct.riverview.example.org', usage: 'both', validDays: 365 }),
    ]);
  });

  for (const name of ['MultipartMimeMessage.txt', 'MessageWithAttachment.txt', 'MDNMessage.txt']) {
    itWithFixtures(`${name} comes back byte for byte`, async () => {
      const message = fixture(`direct/${name}`);
      const wrapped = Buffer.concat([Buffer.from('Content-Type: message/rfc822\r\n\r\n'), message]);
      const signed = await signEntity(wrapped, { certificate: sender.certificateDer, privateKey: sender.privateKey, chain: [ca.certificateDer] });
      const encrypted = await encryptEntity(signed, [recipient.certificateDer], 'aes-128-cbc');
      const opened = await decryptEntity(encrypted, [{ certificate: recipient.certificateDer, privateKey: recipient.privateKey }]);
      expect(opened.entity.equals(signed)).toBe(true);
      const verified = await verifySignedEntity(opened.entity);
      expect(verified.content.equals(wrapped)).toBe(true);
      expect(verified.content.subarray(verified.content.length - message.length).equals(Buffer.from(message))).toBe(true);
    });
  }
});
