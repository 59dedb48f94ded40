import 'reflect-metadata'; // @peculiar/x509 throws at load time without it
import { createHash, X509Certificate as NodeX509 } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { TRUST_NAME_MAX, trustAnchorMessages as text } from '@clinicrelay/contracts/trust-anchors.ts';
import { badRequest } from '../../platform/errors.ts';

/** What a trust anchor row keeps of its certificate. */
export interface AnchorCertificate {
  der: Buffer;
  subject: string;
  /** The subject's common name (else the whole subject), as a bundle's anchors are named. */
  commonName: string;
  thumbprintSha256: string;
  notAfter: Date;
}

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/g;
const SIGNED_DATA = '1.2.840.113549.1.7.2';

/** A refusal of a file, under the form field it came from (`file`, or `url` for a downloaded bundle). */
export const fileError = (message: string, field = 'file') => badRequest(message, { [field]: [message] });

const looksLikePem = (bytes: Uint8Array) => Buffer.from(bytes.subarray(0, 1024)).toString('latin1').includes('-----BEGIN ');

function pemBlocks(bytes: Uint8Array): { label: string; der: Buffer }[] {
  const pem = Buffer.from(bytes).toString('latin1');
  return [...pem.matchAll(PEM_BLOCK)].map(([, label, body]) => ({ label: label!, der: Buffer.from(body!.replace(/\s+/g, ''), 'base64') }));
}

/** The anchor row's view of a CA certificate (also what the demo seed stores). */
export function describeAnchorCertificate(der: Buffer): AnchorCertificate {
  const certificate = new x509.X509Certificate(der);
  const subject = certificate.subject;
  const commonName = certificate.subjectName.getField('CN')[0] ?? subject;
  return {
    der,
    subject,
    commonName: commonName.slice(0, TRUST_NAME_MAX),
    thumbprintSha256: createHash('sha256').update(der).digest('hex').toUpperCase(),
    notAfter: certificate.notAfter,
  };
}

// basicConstraints cA, or a root that issued itself (older roots carry no extensions at all).
function isCertificateAuthority(certificate: NodeX509): boolean {
  if (certificate.ca) return true;
  try {
    return certificate.checkIssued(certificate) && certificate.verify(certificate.publicKey);
  } catch {
    return false;
  }
}

/**
 * One certificate authority's certificate from a .cer/.crt/.der/.pem file (DER or PEM), not expired. Any refusal is a
 * 400 with the reason under `file`.
 */
export function readAnchorCertificate(bytes: Uint8Array, now: Date): AnchorCertificate {
  let der: Buffer;
  if (looksLikePem(bytes)) {
    const certificates = pemBlocks(bytes).filter((block) => block.label === 'CERTIFICATE' || block.label === 'X509 CERTIFICATE');
    if (certificates.length === 0) throw fileError(text.notACertificate);
    if (certificates.length > 1) throw fileError(text.severalCertificates);
    der = certificates[0]!.der;
  } else der = Buffer.from(bytes);
  let certificate: NodeX509;
  let described: AnchorCertificate;
  try {
    certificate = new NodeX509(der);
    described = describeAnchorCertificate(der);
  } catch {
    throw fileError(text.notACertificate);
  }
  if (!isCertificateAuthority(certificate)) throw fileError(text.notACertificateAuthority);
  if (described.notAfter.getTime() <= now.getTime()) throw fileError(text.expired);
  return described;
}

// The certificates of a CMS SignedData (a "certs-only" PKCS#7 holds nothing else); null when it is not one.
function signedDataCertificates(der: Buffer): Buffer[] | null {
  const parsed = asn1js.fromBER(der);
  if (parsed.offset === -1) return null;
  try {
    const info = new pkijs.ContentInfo({ schema: parsed.result });
    if (info.contentType !== SIGNED_DATA) return null;
    const signedData = new pkijs.SignedData({ schema: info.content });
    return (signedData.certificates ?? []).filter((c) => c instanceof pkijs.Certificate).map((c) => Buffer.from(c.toSchema().toBER()));
  } catch {
    return null;
  }
}

/**
 * The certificates of a trust bundle: a PKCS#7 certs-only SignedData in DER or PEM (PKCS7 or CMS label), or a PEM
 * file of certificates; each once. A refusal is a 400 under `field`.
 */
export function readBundle(bytes: Uint8Array, field = 'file'): AnchorCertificate[] {
  const found: Buffer[] = [];
  if (looksLikePem(bytes)) {
    const blocks = pemBlocks(bytes).filter((block) => ['CERTIFICATE', 'PKCS7', 'CMS'].includes(block.label));
    if (blocks.length === 0) throw fileError(text.notABundle, field);
    for (const block of blocks) {
      const certificates = block.label === 'CERTIFICATE' ? [block.der] : signedDataCertificates(block.der);
      if (!certificates) throw fileError(text.notABundle, field);
      found.push(...certificates);
    }
  } else {
    const certificates = signedDataCertificates(Buffer.from(bytes));
    if (!certificates) throw fileError(text.notABundle, field);
    found.push(...certificates);
  }
  const anchors = new Map<string, AnchorCertificate>();
  for (const der of found) {
    let anchor: AnchorCertificate;
    try {
      anchor = describeAnchorCertificate(der);
    } catch {
      throw fileError(text.notABundle, field);
    }
    anchors.set(anchor.thumbprintSha256, anchor);
  }
  if (anchors.size === 0) throw fileError(text.emptyBundle, field);
  return [...anchors.values()];
}

/** SHA-256 of a bundle's bytes, lower-case hex: an unchanged download is recognised by it. */
export const bundleChecksum = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
