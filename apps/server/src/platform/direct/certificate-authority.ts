import 'reflect-metadata'; // @peculiar/x509 throws at load time without it
import * as x509 from '@peculiar/x509';
import * as asn1js from 'asn1js';
import { createHash, generateKeyPair, randomBytes, webcrypto, type KeyObject } from 'node:crypto';
import * as pkijs from 'pkijs';
import { promisify } from 'node:util';

// The demo certificate authority (issue 12 §1): a self-signed root and Direct certificates for an
// address (SAN rfc822Name) or a domain (SAN dNSName), RSA 2048 with SHA-256, built with @peculiar/x509
// on Node's WebCrypto. Private keys are Node KeyObjects: one key object serves signing and decryption
// (RSA-OAEP and the PKCS#1 v1.5 path) on Node's native crypto and exports to encrypted PKCS#8 for storage,
// where a CryptoKey is bound to one algorithm; signingCryptoKey() converts when WebCrypto needs one.

const crypto = webcrypto;
const generateRsaKeyPair = promisify(generateKeyPair);
const DAY_MS = 86_400_000;
const SHA256_WITH_RSA = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' };
// Backdated so a peer whose clock is a little behind does not see a certificate that is "not yet valid".
const CLOCK_SKEW_MS = 3_600_000;

export interface IssuedCertificate {
  certificateDer: Uint8Array;
  certificatePem: string;
  privateKey: KeyObject;
}

/** A certificate authority is its own certificate and private key. */
export type CertificateAuthority = IssuedCertificate;

export interface CertificateAuthorityOptions {
  commonName: string;
  organization: string;
  validDays: number;
  notBefore?: Date;
}

export type DirectCertificateUsage = 'signing' | 'encryption' | 'both';

export type DirectCertificateOptions = ({ address: string; domain?: never } | { domain: string; address?: never }) & {
  usage: DirectCertificateUsage;
  validDays: number;
  organization?: string;
  crlUrl?: string;
  // Authority Information Access caIssuers: where the issuer's certificate can be fetched (issue 28 §1, DCDT D18).
  caIssuersUrl?: string;
  notBefore?: Date;
};

/** The private key as a WebCrypto key that signs with RSASSA-PKCS1-v1_5 and the given hash (SHA-256 unless told). */
export async function signingCryptoKey(privateKey: KeyObject, hash = 'SHA-256'): Promise<CryptoKey> {
  const pkcs8 = privateKey.export({ type: 'pkcs8', format: 'der' });
  return crypto.subtle.importKey('pkcs8', pkcs8, { name: 'RSASSA-PKCS1-v1_5', hash }, false, ['sign']);
}

/** 16 random bytes as a positive, minimal DER INTEGER (hex), as CA/Browser rules ask of serial numbers. */
export function randomSerialNumber(): string {
  const serial = randomBytes(16);
  // Top bit clear (positive) and the next one set, so no 0x00 padding is needed nor any leading zero dropped.
  serial[0] = (serial[0]! & 0x7f) | 0x40;
  return serial.toString('hex');
}

const distinguishedName = (commonName: string, organization?: string): x509.JsonName =>
  organization ? [{ CN: [commonName] }, { O: [organization] }] : [{ CN: [commonName] }];

const validity = (notBefore: Date | undefined, validDays: number) => {
  const from = notBefore ?? new Date(Date.now() - CLOCK_SKEW_MS);
  return { notBefore: from, notAfter: new Date(from.getTime() + validDays * DAY_MS) };
};

const issued = (certificate: x509.X509Certificate, privateKey: KeyObject): IssuedCertificate => ({
  certificateDer: new Uint8Array(certificate.rawData),
  certificatePem: `${certificate.toString('pem')}\n`,
  privateKey,
});

export async function createCertificateAuthority(options: CertificateAuthorityOptions): Promise<CertificateAuthority> {
  const { publicKey, privateKey } = await generateRsaKeyPair('rsa', { modulusLength: 2048 });
  const spki = publicKey.export({ type: 'spki', format: 'der' });
  const name = distinguishedName(options.commonName, options.organization);
  const certificate = await x509.X509CertificateGenerator.create(
    {
      serialNumber: randomSerialNumber(),
      subject: name,
      issuer: name,
      ...validity(options.notBefore, options.validDays),
      publicKey: spki,
      signingKey: await signingCryptoKey(privateKey),
      signingAlgorithm: SHA256_WITH_RSA,
      extensions: [
        new x509.BasicConstraintsExtension(true, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
        await x509.SubjectKeyIdentifierExtension.create(spki, false, crypto),
      ],
    },
    crypto,
  );
  return issued(certificate, privateKey);
}

/** An intermediate certificate authority issued by `parent` (a Direct PKI's issuing CA below its root). */
export async function createIntermediateAuthority(parent: CertificateAuthority, options: CertificateAuthorityOptions & { caIssuersUrl?: string }): Promise<CertificateAuthority> {
  const parentCertificate = new x509.X509Certificate(parent.certificateDer);
  const { publicKey, privateKey } = await generateRsaKeyPair('rsa', { modulusLength: 2048 });
  const spki = publicKey.export({ type: 'spki', format: 'der' });
  const certificate = await x509.X509CertificateGenerator.create(
    {
      serialNumber: randomSerialNumber(),
      subject: distinguishedName(options.commonName, options.organization),
      issuer: parentCertificate.subjectName,
      ...validity(options.notBefore, options.validDays),
      publicKey: spki,
      signingKey: await signingCryptoKey(parent.privateKey),
      signingAlgorithm: SHA256_WITH_RSA,
      extensions: [
        new x509.BasicConstraintsExtension(true, 0, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
        await x509.SubjectKeyIdentifierExtension.create(spki, false, crypto),
        await x509.AuthorityKeyIdentifierExtension.create(parentCertificate.publicKey, false, crypto),
        ...(options.caIssuersUrl ? [new x509.AuthorityInfoAccessExtension({ caIssuers: options.caIssuersUrl })] : []),
      ],
    },
    crypto,
  );
  return issued(certificate, privateKey);
}

const KEY_USAGE: Record<DirectCertificateUsage, number> = {
  signing: x509.KeyUsageFlags.digitalSignature,
  encryption: x509.KeyUsageFlags.keyEncipherment,
  both: x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment,
};

/** A Direct end-entity certificate for an address or a whole domain, issued by the CA, with a fresh RSA 2048 key. */
export async function issueDirectCertificate(ca: CertificateAuthority, options: DirectCertificateOptions): Promise<IssuedCertificate> {
  const caCertificate = new x509.X509Certificate(ca.certificateDer);
  const { publicKey, privateKey } = await generateRsaKeyPair('rsa', { modulusLength: 2048 });
  const spki = publicKey.export({ type: 'spki', format: 'der' });
  const subjectName = options.address ?? options.domain;
  const alternativeName = options.address
    ? { type: 'email' as const, value: options.address }
    : { type: 'dns' as const, value: options.domain };
  const certificate = await x509.X509CertificateGenerator.create(
    {
      serialNumber: randomSerialNumber(),
      subject: distinguishedName(subjectName, options.organization),
      issuer: caCertificate.subjectName,
      ...validity(options.notBefore, options.validDays),
      publicKey: spki,
      signingKey: await signingCryptoKey(ca.privateKey),
      signingAlgorithm: SHA256_WITH_RSA,
      extensions: [
        new x509.BasicConstraintsExtension(false, undefined, true),
        new x509.KeyUsagesExtension(KEY_USAGE[options.usage], true),
        new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.emailProtection]),
        new x509.SubjectAlternativeNameExtension([alternativeName]),
        await x509.SubjectKeyIdentifierExtension.create(spki, false, crypto),
        await x509.AuthorityKeyIdentifierExtension.create(caCertificate.publicKey, false, crypto),
        ...(options.crlUrl ? [new x509.CRLDistributionPointsExtension([options.crlUrl])] : []),
        ...(options.caIssuersUrl ? [new x509.AuthorityInfoAccessExtension({ caIssuers: options.caIssuersUrl })] : []),
      ],
    },
    crypto,
  );
  return issued(certificate, privateKey);
}

export interface RevokedCertificate {
  /** The serial number as hex, as @peculiar/x509's X509Certificate.serialNumber gives it. */
  serialNumber: string;
  revocationDate?: Date;
}

const CRL_NUMBER = '2.5.29.20';

/**
 * A certificate revocation list (DER) signed by the CA, listing the revoked serial numbers (revoked at
 * thisUpdate unless told), with a CRL number and the CA's key identifier as RFC 5280 asks of a CRL.
 */
export async function issueCrl(
  ca: CertificateAuthority,
  revoked: RevokedCertificate[],
  dates: { thisUpdate: Date; nextUpdate: Date },
): Promise<Uint8Array> {
  const caCertificate = new x509.X509Certificate(ca.certificateDer);
  // The CRL number must grow with each CRL: thisUpdate in seconds does, as a positive DER INTEGER.
  const crlNumber = new asn1js.Integer({ value: Math.floor(dates.thisUpdate.getTime() / 1000) }).toBER();
  const crl = await x509.X509CrlGenerator.create(
    {
      issuer: caCertificate.subjectName,
      thisUpdate: dates.thisUpdate,
      nextUpdate: dates.nextUpdate,
      signingKey: await signingCryptoKey(ca.privateKey),
      signingAlgorithm: SHA256_WITH_RSA,
      entries: revoked.map((entry) => ({ serialNumber: entry.serialNumber, revocationDate: entry.revocationDate ?? dates.thisUpdate })),
      extensions: [
        new x509.Extension(CRL_NUMBER, false, crlNumber),
        await x509.AuthorityKeyIdentifierExtension.create(caCertificate.publicKey, false, crypto),
      ],
    },
    crypto,
  );
  return new Uint8Array(crl.rawData);
}

const CERT_BAG = '1.2.840.113549.1.12.10.1.3';
const PKCS8_SHROUDED_KEY_BAG = '1.2.840.113549.1.12.10.1.2';
const LOCAL_KEY_ID = '1.2.840.113549.1.9.21';
// PBKDF2 runs natively; pkijs computes the PKCS#12 MAC key in JavaScript, so its count stays at OpenSSL's default.
const PBKDF2_ITERATIONS = 100_000;
const MAC_ITERATIONS = 2048;

/**
 * A PKCS#12 (.pfx) file holding the certificate, its private key and the chain above it (DER), protected by
 * the password: AES-256-CBC with PBKDF2-SHA-256 for the key and the certificates, an HMAC-SHA-256 MAC, as
 * OpenSSL 3 writes by default. The key and its certificate share a localKeyId, which importers pair them by.
 */
export async function toPkcs12(
  certificateDer: Uint8Array,
  privateKey: KeyObject,
  chainDer: Uint8Array[],
  password: string,
): Promise<Uint8Array> {
  const passwordBytes = new TextEncoder().encode(password).buffer;
  const localKeyId = new pkijs.Attribute({
    type: LOCAL_KEY_ID,
    values: [new asn1js.OctetString({ valueHex: createHash('sha1').update(certificateDer).digest() })],
  });
  const certificateBag = (der: Uint8Array, bagAttributes?: pkijs.Attribute[]) =>
    new pkijs.SafeBag({ bagId: CERT_BAG, bagValue: new pkijs.CertBag({ parsedValue: pkijs.Certificate.fromBER(der) }), bagAttributes });
  const keyBag = new pkijs.PKCS8ShroudedKeyBag({
    parsedValue: pkijs.PrivateKeyInfo.fromBER(privateKey.export({ type: 'pkcs8', format: 'der' })),
  });
  const keys = new pkijs.SafeContents({
    safeBags: [new pkijs.SafeBag({ bagId: PKCS8_SHROUDED_KEY_BAG, bagValue: keyBag, bagAttributes: [localKeyId] })],
  });
  const certificates = new pkijs.SafeContents({
    safeBags: [certificateBag(certificateDer, [localKeyId]), ...chainDer.map((der) => certificateBag(der))],
  });
  // The key bag is encrypted itself (privacy mode 0: plain container); the certificates by password (mode 1).
  const authenticatedSafe = new pkijs.AuthenticatedSafe({
    parsedValue: { safeContents: [{ privacyMode: 0, value: keys }, { privacyMode: 1, value: certificates }] },
  });
  const encryption = {
    password: passwordBytes,
    contentEncryptionAlgorithm: { name: 'AES-CBC', length: 256 },
    hmacHashAlgorithm: 'SHA-256',
    iterationCount: PBKDF2_ITERATIONS,
  };
  // pkijs uses Node's WebCrypto (globalThis.crypto) by default; its engine type no longer matches Node's SubtleCrypto type.
  await keyBag.makeInternalValues(encryption);
  await authenticatedSafe.makeInternalValues({ safeContents: [{}, encryption] });
  const pfx = new pkijs.PFX({ parsedValue: { integrityMode: 0, authenticatedSafe } });
  await pfx.makeInternalValues({
    password: passwordBytes,
    iterations: MAC_ITERATIONS,
    pbkdf2HashAlgorithm: 'SHA-256',
    hmacHashAlgorithm: 'SHA-256',
  });
  return new Uint8Array(pfx.toSchema().toBER());
}
