import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { X509Certificate } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { openssl, opensslMissing } from '../../test/openssl.ts';
import {
  createCertificateAuthority,
  issueDirectCertificate,
  randomSerialNumber,
  toPkcs12,
  type CertificateAuthority,
  type IssuedCertificate,
} from './certificate-authority.ts';

// The demo certificate authority: a root and Direct certificates for an address and a domain, read back
// by Node and by OpenSSL as another HISP would.

let ca: CertificateAuthority;
let forAddress: IssuedCertificate;
let forDomain: IssuedCertificate;

beforeAll(async () => {
  ca = await createCertificateAuthority({ commonName: 'ClinicRelay Demo CA', organization: 'ClinicRelay Demo', validDays: 3650 });
  forAddress = await issueDirectCertificate(ca, {
    address: 'Ann.Carter@direct.lakeside.example.org',
    usage: 'signing',
    validDays: 365,
    crlUrl: 'http://crl.lakeside.example.org/demo.crl',
  });
  forDomain = await issueDirectCertificate(ca, { domain: 'direct.lakeside.example.org', usage: 'encryption', validDays: 365 });
});

describe('the demo certificate authority', () => {
  it('is a self-signed RSA 2048 root with SHA-256, CA:true (critical), keyCertSign and cRLSign, and a key identifier', async () => {
    const root = new x509.X509Certificate(ca.certificateDer);
    expect(root.subject).toBe('CN=ClinicRelay Demo CA, O=ClinicRelay Demo');
    expect(await root.isSelfSigned()).toBe(true);
    expect(root.signatureAlgorithm).toMatchObject({ name: 'RSASSA-PKCS1-v1_5', hash: { name: 'SHA-256' } });
    expect(ca.privateKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
    const constraints = root.getExtension(x509.BasicConstraintsExtension);
    expect(constraints).toMatchObject({ ca: true, critical: true });
    expect(root.getExtension(x509.KeyUsagesExtension)?.usages).toBe(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign);
    expect(root.getExtension(x509.SubjectKeyIdentifierExtension)?.keyId).toMatch(/^[0-9a-f]{40}$/);
    // The PEM and the DER are the same certificate, and the key is the certificate's.
    const node = new X509Certificate(ca.certificatePem);
    expect(new Uint8Array(node.raw)).toEqual(ca.certificateDer);
    expect(node.checkPrivateKey(ca.privateKey)).toBe(true);
  });

  it('issues an address certificate (SAN rfc822Name, digitalSignature, emailProtection, CRL point) signed by the root', async () => {
    const leaf = new x509.X509Certificate(forAddress.certificateDer);
    const root = new x509.X509Certificate(ca.certificateDer);
    expect(leaf.issuer).toBe(root.subject);
    expect(await leaf.verify({ publicKey: root.publicKey, signatureOnly: true })).toBe(true);
    expect(leaf.getExtension(x509.SubjectAlternativeNameExtension)?.names.toJSON()).toEqual([
      { type: 'email', value: 'Ann.Carter@direct.lakeside.example.org' },
    ]);
    expect(leaf.getExtension(x509.KeyUsagesExtension)?.usages).toBe(x509.KeyUsageFlags.digitalSignature);
    expect(leaf.getExtension(x509.ExtendedKeyUsageExtension)?.usages).toEqual([x509.ExtendedKeyUsage.emailProtection]);
    expect(leaf.getExtension(x509.AuthorityKeyIdentifierExtension)?.keyId).toBe(
      root.getExtension(x509.SubjectKeyIdentifierExtension)?.keyId,
    );
    expect(leaf.getExtension(x509.BasicConstraintsExtension)?.ca).toBe(false);
    expect(new X509Certificate(forAddress.certificatePem).checkPrivateKey(forAddress.privateKey)).toBe(true);
    expect(forAddress.privateKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
  });

  it('issues a domain certificate (SAN dNSName, keyEncipherment) and one for both usages', async () => {
    const leaf = new x509.X509Certificate(forDomain.certificateDer);
    expect(leaf.getExtension(x509.SubjectAlternativeNameExtension)?.names.toJSON()).toEqual([
      { type: 'dns', value: 'direct.lakeside.example.org' },
    ]);
    expect(leaf.getExtension(x509.KeyUsagesExtension)?.usages).toBe(x509.KeyUsageFlags.keyEncipherment);
    expect(leaf.getExtension(x509.CRLDistributionPointsExtension)).toBeNull();
    const both = await issueDirectCertificate(ca, { domain: 'direct.riverview.example.org', usage: 'both', validDays: 30 });
    expect(new x509.X509Certificate(both.certificateDer).getExtension(x509.KeyUsagesExtension)?.usages).toBe(
      x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment,
    );
  });

  it('is valid for the days asked, backdated an hour for clocks a little behind', () => {
    const leaf = new x509.X509Certificate(forDomain.certificateDer);
    const now = Date.now();
    expect(now - leaf.notBefore.getTime()).toBeGreaterThan(3_500_000);
    expect(now - leaf.notBefore.getTime()).toBeLessThan(3_700_000);
    // X.509 times have whole seconds.
    expect(Math.abs(leaf.notAfter.getTime() - leaf.notBefore.getTime() - 365 * 86_400_000)).toBeLessThan(1000);
  });

  it('draws 16-byte serial numbers that are positive, minimal DER integers', () => {
    const root = new X509Certificate(ca.certificatePem);
    expect(root.serialNumber).toMatch(/^[4-7][0-9A-F]{31}$/);
    // No 0x00 padding and no dropped leading zero, whatever the random bytes (1 in 256 would fail otherwise).
    for (let i = 0; i < 2000; i++) expect(randomSerialNumber()).toMatch(/^[4-7][0-9a-f]{31}$/);
  });
});

const missing = opensslMissing();

describe.skipIf(missing)(`OpenSSL reads the demo certificates${missing ? ` (skipped: ${missing})` : ''}`, () => {
  it('verifies both leaves against the root, for S/MIME signing and encryption, and shows their names and usages', async () => {
    const files = { 'ca.pem': ca.certificatePem, 'address.pem': forAddress.certificatePem, 'domain.pem': forDomain.certificatePem };
    const verified = await openssl(['verify', '-CAfile', 'ca.pem', 'address.pem', 'domain.pem'], files);
    expect(verified.stderr).toBe('');
    expect(verified.stdout).toBe('address.pem: OK\ndomain.pem: OK\n');
    // The purposes check keyUsage and extendedKeyUsage as an S/MIME peer does.
    expect((await openssl(['verify', '-CAfile', 'ca.pem', '-purpose', 'smimesign', 'address.pem'], files)).stdout).toBe('address.pem: OK\n');
    expect((await openssl(['verify', '-CAfile', 'ca.pem', '-purpose', 'smimeencrypt', 'domain.pem'], files)).stdout).toBe('domain.pem: OK\n');
    // And refuses the wrong one: an encryption-only certificate cannot sign.
    expect((await openssl(['verify', '-CAfile', 'ca.pem', '-purpose', 'smimesign', 'domain.pem'], files)).code).not.toBe(0);

    const address = (await openssl(['x509', '-in', 'address.pem', '-noout', '-text'], files)).stdout;
    expect(address).toContain('email:Ann.Carter@direct.lakeside.example.org');
    expect(address).toMatch(/X509v3 Key Usage: critical\s+Digital Signature\n/);
    expect(address).toMatch(/X509v3 Extended Key Usage: \s+E-mail Protection\n/);
    expect(address).toContain('URI:http://crl.lakeside.example.org/demo.crl');
    expect(address).toContain('Signature Algorithm: sha256WithRSAEncryption');
    expect(address).toContain('Public-Key: (2048 bit)');

    const domain = (await openssl(['x509', '-in', 'domain.pem', '-noout', '-text'], files)).stdout;
    expect(domain).toContain('DNS:direct.lakeside.example.org');
    expect(domain).toMatch(/X509v3 Key Usage: critical\s+Key Encipherment\n/);

    const root = (await openssl(['x509', '-in', 'ca.pem', '-noout', '-text'], files)).stdout;
    expect(root).toMatch(/X509v3 Basic Constraints: critical\s+CA:TRUE\n/);
    expect(root).toMatch(/X509v3 Key Usage: critical\s+Certificate Sign, CRL Sign\n/);
    expect(root).toContain('X509v3 Subject Key Identifier');
  });

  it('opens the PKCS#12 file with its password: the key, the certificate paired with it, and the chain', async () => {
    const pfx = await toPkcs12(forAddress.certificateDer, forAddress.privateKey, [ca.certificateDer], 'correct horse é');
    const info = await openssl(['pkcs12', '-in', 'ann.pfx', '-passin', 'pass:correct horse é', '-info', '-nodes'], { 'ann.pfx': pfx });
    expect(info.code).toBe(0);
    expect(info.stderr).toContain('MAC: sha256');
    expect(info.stderr).toMatch(/Shrouded Keybag: PBES2, PBKDF2, AES-256-CBC/);
    expect(info.stderr).toMatch(/PKCS7 Encrypted data: PBES2, PBKDF2, AES-256-CBC/);
    expect(info.stdout).toContain('subject=CN = Ann.Carter@direct.lakeside.example.org');
    expect(info.stdout).toContain('subject=CN = ClinicRelay Demo CA, O = ClinicRelay Demo');
    expect(info.stdout).toContain('-----BEGIN PRIVATE KEY-----');
    // The key printed is the certificate's own: its modulus matches.
    const keyOnly = await openssl(['pkcs12', '-in', 'ann.pfx', '-passin', 'pass:correct horse é', '-nocerts', '-nodes'], { 'ann.pfx': pfx });
    const certificateOnly = await openssl(['pkcs12', '-in', 'ann.pfx', '-passin', 'pass:correct horse é', '-clcerts', '-nokeys'], { 'ann.pfx': pfx });
    const keyModulus = await openssl(['rsa', '-in', 'key.pem', '-noout', '-modulus'], { 'key.pem': keyOnly.stdout });
    const certificateModulus = await openssl(['x509', '-in', 'cert.pem', '-noout', '-modulus'], { 'cert.pem': certificateOnly.stdout });
    expect(keyModulus.stdout).toMatch(/^Modulus=[0-9A-F]{512}\n$/);
    expect(keyModulus.stdout).toBe(certificateModulus.stdout);
    // The wrong password opens nothing.
    expect((await openssl(['pkcs12', '-in', 'ann.pfx', '-passin', 'pass:wrong', '-nodes'], { 'ann.pfx': pfx })).stderr).toContain('Mac verify error');
  });

  it('reads the private keys', async () => {
    const pem = forAddress.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const result = await openssl(['rsa', '-in', 'key.pem', '-check', '-noout'], { 'key.pem': pem });
    expect(result.stdout).toContain('RSA key ok');
  });
});
