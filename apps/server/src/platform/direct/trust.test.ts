import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { createPublicKey, generateKeyPairSync, webcrypto } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { openssl, opensslMissing } from '../../test/openssl.ts';
import { fixture, itWithFixtures } from '../../test/shared-fixtures.ts';
import {
  createCertificateAuthority,
  issueDirectCertificate,
  randomSerialNumber,
  signingCryptoKey,
  type CertificateAuthority,
  type IssuedCertificate,
} from './certificate-authority.ts';
import { buildChain, matchesAddress, verifyChain } from './trust.ts';

// Lakeside trusts the demo anchor: its own certificates pass; expired, foreign, weak-key and SHA-1
// certificates are refused with a reason a person can act on.

const DAY = 86_400_000;
const crypto = webcrypto;
let ca: CertificateAuthority;
let otherCa: CertificateAuthority;
let forAddress: IssuedCertificate;
let forDomain: IssuedCertificate;

beforeAll(async () => {
  [ca, otherCa] = await Promise.all([
    createCertificateAuthority({ commonName: 'Lakeside Demo CA', organization: 'Lakeside', validDays: 3650 }),
    createCertificateAuthority({ commonName: 'Stranger CA', organization: 'Stranger', validDays: 3650 }),
  ]);
  [forAddress, forDomain] = await Promise.all([
    issueDirectCertificate(ca, { address: 'ann.carter@direct.lakeside.example.org', usage: 'both', validDays: 365 }),
    issueDirectCertificate(ca, { domain: 'direct.lakeside.example.org', usage: 'both', validDays: 365 }),
  ]);
});

// A leaf signed by the CA with what the library itself never makes: another key size or hash.
async function unusualLeaf(options: { modulusLength?: number; hash?: string }): Promise<Uint8Array> {
  const { publicKey } = generateKeyPairSync('rsa', { modulusLength: options.modulusLength ?? 2048 });
  const hash = options.hash ?? 'SHA-256';
  const certificate = await x509.X509CertificateGenerator.create(
    {
      serialNumber: randomSerialNumber(),
      subject: 'CN=weak@direct.lakeside.example.org',
      issuer: new x509.X509Certificate(ca.certificateDer).subjectName,
      notBefore: new Date(Date.now() - DAY),
      notAfter: new Date(Date.now() + 30 * DAY),
      publicKey: publicKey.export({ type: 'spki', format: 'der' }),
      signingKey: await signingCryptoKey(ca.privateKey, hash),
      signingAlgorithm: { name: 'RSASSA-PKCS1-v1_5', hash },
      extensions: [new x509.SubjectAlternativeNameExtension([{ type: 'email', value: 'weak@direct.lakeside.example.org' }])],
    },
    crypto,
  );
  return new Uint8Array(certificate.rawData);
}

const mmddyyyy = (date: Date) =>
  `${String(date.getUTCMonth() + 1).padStart(2, '0')}/${String(date.getUTCDate()).padStart(2, '0')}/${date.getUTCFullYear()}`;

describe('verifyChain', () => {
  it('accepts certificates for an address and for a domain that chain to the anchor', async () => {
    const now = new Date();
    expect(verifyChain(forAddress.certificateDer, [ca.certificateDer], now)).toEqual({ ok: true });
    expect(verifyChain(forDomain.certificateDer, [otherCa.certificateDer, ca.certificateDer], now)).toEqual({ ok: true });
  });

  it('refuses a certificate from another authority, and one when no anchor is configured', async () => {
    const refused = { ok: false, reason: 'The certificate was not issued by a trusted authority (no chain to a trust anchor).' };
    expect(verifyChain(forAddress.certificateDer, [otherCa.certificateDer], new Date())).toEqual(refused);
    expect(verifyChain(forAddress.certificateDer, [], new Date())).toEqual(refused);
  });

  it('refuses an expired certificate, and one not valid yet, naming the date', async () => {
    const leaf = new x509.X509Certificate(forAddress.certificateDer);
    const afterExpiry = new Date(leaf.notAfter.getTime() + DAY);
    expect(verifyChain(forAddress.certificateDer, [ca.certificateDer], afterExpiry)).toEqual({
      ok: false,
      reason: `The certificate expired on ${mmddyyyy(leaf.notAfter)}.`,
    });
    const lastYear = new Date(Date.now() - 365 * DAY);
    expect(verifyChain(forAddress.certificateDer, [ca.certificateDer], lastYear)).toEqual({
      ok: false,
      reason: `The certificate is not valid before ${mmddyyyy(leaf.notBefore)}.`,
    });
    // Issued already expired: the demo authority can make them for tests such as this one.
    const expired = await issueDirectCertificate(ca, {
      address: 'old@direct.lakeside.example.org',
      usage: 'signing',
      validDays: 30,
      notBefore: new Date(Date.UTC(2026, 0, 30)),
    });
    expect(verifyChain(expired.certificateDer, [ca.certificateDer], new Date(Date.UTC(2026, 5, 1)))).toEqual({
      ok: false,
      reason: 'The certificate expired on 03/01/2026.',
    });
  });

  it('refuses a chain whose anchor has expired, naming it', async () => {
    const oldCa = await createCertificateAuthority({ commonName: 'Old CA', organization: 'Old', validDays: 10, notBefore: new Date(Date.UTC(2025, 0, 1)) });
    const leaf = await issueDirectCertificate(oldCa, { address: 'a@old.example.org', usage: 'signing', validDays: 5, notBefore: new Date(Date.UTC(2025, 0, 2)) });
    expect(verifyChain(leaf.certificateDer, [oldCa.certificateDer], new Date(Date.UTC(2025, 0, 4)))).toEqual({ ok: true });
    expect(verifyChain(leaf.certificateDer, [oldCa.certificateDer], new Date(Date.UTC(2025, 0, 7, 12)))).toEqual({
      ok: false,
      reason: 'The certificate expired on 01/07/2025.',
    });
    // The anchor expires on 01/11/2025; a leaf still valid then is refused for its issuer.
    const longLeaf = await issueDirectCertificate(oldCa, { address: 'b@old.example.org', usage: 'signing', validDays: 100, notBefore: new Date(Date.UTC(2025, 0, 2)) });
    expect(verifyChain(longLeaf.certificateDer, [oldCa.certificateDer], new Date(Date.UTC(2025, 1, 1)))).toEqual({
      ok: false,
      reason: 'The issuing certificate "Old CA" expired on 01/11/2025.',
    });
  });

  it('refuses an RSA key under 2048 bits', async () => {
    const weak = await unusualLeaf({ modulusLength: 1024 });
    expect(verifyChain(weak, [ca.certificateDer], new Date())).toEqual({
      ok: false,
      reason: 'The certificate has a 1024-bit RSA key. At least 2048 bits are required.',
    });
  });

  it('refuses a certificate signed with SHA-1 (and accepts SHA-384 and SHA-512)', async () => {
    const sha1 = await unusualLeaf({ hash: 'SHA-1' });
    expect(verifyChain(sha1, [ca.certificateDer], new Date())).toEqual({
      ok: false,
      reason: 'The certificate is signed with SHA-1, which is no longer accepted. SHA-256 or better is required.',
    });
    for (const hash of ['SHA-384', 'SHA-512']) {
      expect(verifyChain(await unusualLeaf({ hash }), [ca.certificateDer], new Date())).toEqual({ ok: true });
    }
  });

  it('follows intermediates a message carries, and refuses bytes that are not a certificate', async () => {
    // An intermediate authority signed by the root, then a leaf signed by the intermediate.
    const intermediateKey = (await createCertificateAuthority({ commonName: 'Lakeside Issuing CA', organization: 'Lakeside', validDays: 365 })).privateKey;
    const root = new x509.X509Certificate(ca.certificateDer);
    const intermediate = await x509.X509CertificateGenerator.create(
      {
        serialNumber: randomSerialNumber(),
        subject: 'CN=Lakeside Issuing CA',
        issuer: root.subjectName,
        notBefore: new Date(Date.now() - DAY),
        notAfter: new Date(Date.now() + 30 * DAY),
        publicKey: createPublicKey(intermediateKey).export({ type: 'spki', format: 'der' }),
        signingKey: await signingCryptoKey(ca.privateKey),
        extensions: [new x509.BasicConstraintsExtension(true, 0, true)],
      },
      crypto,
    );
    const issuing: CertificateAuthority = {
      certificateDer: new Uint8Array(intermediate.rawData),
      certificatePem: intermediate.toString('pem'),
      privateKey: intermediateKey,
    };
    const leaf = await issueDirectCertificate(issuing, { address: 'bob@direct.lakeside.example.org', usage: 'both', validDays: 10 });
    expect(verifyChain(leaf.certificateDer, [ca.certificateDer], new Date())).toMatchObject({ ok: false });
    expect(verifyChain(leaf.certificateDer, [ca.certificateDer], new Date(), [issuing.certificateDer])).toEqual({ ok: true });
    const chain = buildChain(new x509.X509Certificate(leaf.certificateDer), [root], [new x509.X509Certificate(issuing.certificateDer)]);
    expect(chain?.map((certificate) => certificate.subject)).toEqual([
      'CN=bob@direct.lakeside.example.org',
      'CN=Lakeside Issuing CA',
      'CN=Lakeside Demo CA, O=Lakeside',
    ]);
    expect(verifyChain(new Uint8Array([0x30, 0x03, 0x02, 0x01, 0x01]), [ca.certificateDer], new Date())).toEqual({
      ok: false,
      reason: 'The certificate could not be read.',
    });
  });

  const missing = opensslMissing();
  it.skipIf(missing)(`refuses a certificate signed with MD5, made by OpenSSL${missing ? ` (skipped: ${missing})` : ''}`, async () => {
    const caKey = ca.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const request = await openssl(['req', '-new', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'leaf.key', '-subj', '/CN=md5@direct.lakeside.example.org']);
    expect(request.code).toBe(0);
    const signed = await openssl(['x509', '-req', '-in', 'leaf.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-md5', '-days', '2', '-outform', 'PEM'], {
      'leaf.csr': request.stdout,
      'ca.pem': ca.certificatePem,
      'ca.key': caKey,
    });
    expect(signed.code).toBe(0);
    const der = new Uint8Array(new x509.X509Certificate(signed.stdout).rawData);
    expect(verifyChain(der, [ca.certificateDer], new Date())).toEqual({
      ok: false,
      reason: 'The certificate is signed with MD5, which is not accepted. SHA-256 or better is required.',
    });
  });

  itWithFixtures('chains the Direct Project reference certificate to its anchor, and refuses it for its SHA-1 signature', async () => {
    const ryan = fixture('direct/ryan.der');
    const anchor = fixture('direct/secureHealthEmailCACert.der');
    // Inside both certificates' validity (06/09/2021 to 10/24/2048).
    const at = new Date(Date.UTC(2026, 0, 1));
    const chain = buildChain(new x509.X509Certificate(ryan), [new x509.X509Certificate(anchor)]);
    expect(chain?.map((certificate) => certificate.getExtension(x509.SubjectAlternativeNameExtension)?.names.toJSON())).toEqual([
      [{ type: 'email', value: 'ryan@securehealthemail.com' }],
      [{ type: 'email', value: 'cmii@cerner.com' }],
    ]);
    // The reference implementation's leaf is signed with SHA-1: chained, then refused by the SHA-256 rule.
    expect(verifyChain(ryan, [anchor], at)).toEqual({
      ok: false,
      reason: 'The certificate is signed with SHA-1, which is no longer accepted. SHA-256 or better is required.',
    });
    expect(verifyChain(ryan, [ca.certificateDer], at)).toMatchObject({ ok: false, reason: expect.stringContaining('not issued by a trusted authority') });
    expect(matchesAddress(ryan, 'Ryan@SecureHealthEmail.com')).toBe(true);
    expect(matchesAddress(ryan, 'someone@securehealthemail.com')).toBe(false);
  });
});

describe('matchesAddress', () => {
  it('matches an address certificate to its own address only, ignoring case', () => {
    expect(matchesAddress(forAddress.certificateDer, 'ann.carter@direct.lakeside.example.org')).toBe(true);
    expect(matchesAddress(forAddress.certificateDer, 'Ann.Carter@Direct.Lakeside.Example.org')).toBe(true);
    expect(matchesAddress(forAddress.certificateDer, 'bob@direct.lakeside.example.org')).toBe(false);
    expect(matchesAddress(forAddress.certificateDer, 'ann.carter@direct.riverview.example.org')).toBe(false);
  });

  it('matches a domain certificate to every address at that domain, and to no other domain', () => {
    expect(matchesAddress(forDomain.certificateDer, 'bob@direct.lakeside.example.org')).toBe(true);
    expect(matchesAddress(forDomain.certificateDer, 'BOB@DIRECT.LAKESIDE.EXAMPLE.ORG')).toBe(true);
    expect(matchesAddress(forDomain.certificateDer, 'bob@lakeside.example.org')).toBe(false);
    expect(matchesAddress(forDomain.certificateDer, 'bob@evil-direct.lakeside.example.org.attacker.example')).toBe(false);
    expect(matchesAddress(forDomain.certificateDer, 'direct.lakeside.example.org')).toBe(false);
  });
});
