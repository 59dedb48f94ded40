import 'reflect-metadata';
import { createHash, X509Certificate as NodeX509, type KeyObject } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import * as asn1js from 'asn1js';
import { Certificate as PkijsCertificate, RSASSAPSSParams } from 'pkijs';
import { certificateMessages as text } from '@clinicrelay/contracts/certificates.ts';
import { badRequest } from '../../platform/errors.ts';
import { Pkcs12Error, readPkcs12 } from './pkcs12.ts';

export interface CheckedCertificate {
  der: Buffer;
  chain: Buffer[];
  privateKey: KeyObject;
  usage: 'signing' | 'encryption' | 'both';
  subject: string;
  sanEmails: string[];
  sanDnsNames: string[];
  thumbprint: string;
  thumbprintSha256: string;
  notBefore: Date;
  notAfter: Date;
}

// Direct (Applicability Statement §5) wants RSA of 2048 bits or more and SHA-256 or better.
const MIN_RSA_BITS = 2048;
const WEAK_SIGNATURES = new Set([
  '1.2.840.113549.1.1.2', // md2WithRSAEncryption
  '1.2.840.113549.1.1.3', // md4WithRSAEncryption
  '1.2.840.113549.1.1.4', // md5WithRSAEncryption
  '1.2.840.113549.1.1.5', // sha1WithRSAEncryption
  '1.3.14.3.2.29', // sha1WithRSASignature (OIW)
  '1.2.840.10045.4.1', // ecdsa-with-SHA1
  '1.2.840.10040.4.3', // dsa-with-sha1
]);
const RSASSA_PSS = '1.2.840.113549.1.1.10';
const SHA1 = '1.3.14.3.2.26';

const fileError = (message: string) => badRequest(message, { file: [message] });

function hasWeakSignature(der: Buffer) {
  const { signatureAlgorithm } = PkijsCertificate.fromBER(der);
  if (WEAK_SIGNATURES.has(signatureAlgorithm.algorithmId)) return true;
  if (signatureAlgorithm.algorithmId !== RSASSA_PSS) return false;
  // RSASSA-PSS without parameters means SHA-1 (RFC 4055).
  const params = signatureAlgorithm.algorithmParams instanceof asn1js.Sequence ? new RSASSAPSSParams({ schema: signatureAlgorithm.algorithmParams }) : new RSASSAPSSParams();
  return params.hashAlgorithm.algorithmId === SHA1;
}

function usageOf(certificate: x509.X509Certificate): CheckedCertificate['usage'] {
  const keyUsage = certificate.getExtension(x509.KeyUsagesExtension);
  if (!keyUsage) return 'both';
  const signs = (keyUsage.usages & (x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.nonRepudiation)) !== 0;
  const encrypts = (keyUsage.usages & x509.KeyUsageFlags.keyEncipherment) !== 0;
  if (signs && !encrypts) return 'signing';
  if (encrypts && !signs) return 'encryption';
  return 'both';
}

/**
 * A PKCS#12 file read and checked for Direct: one private key, the certificate that matches it, RSA ≥ 2048, signed
 * with SHA-256 or better, not expired, naming a Direct address or domain. Any refusal is a 400 with the reason.
 */
export async function checkCertificateFile(bytes: Uint8Array, password: string, now: Date): Promise<CheckedCertificate> {
  const contents = await readPkcs12(bytes, password).catch((error: unknown) => {
    if (!(error instanceof Pkcs12Error)) throw error;
    if (error.reason === 'wrongPassword') throw badRequest(text.wrongPassword, { password: [text.wrongPassword] });
    throw fileError(error.reason === 'unsupported' ? text.unsupportedEncryption : text.notAPkcs12);
  });
  return checkCertificate(contents, now);
}

/** The same checks on keys and certificates from elsewhere (the demo world's, made by its certificate authority). */
export function checkCertificate(contents: { privateKeys: KeyObject[]; certificates: Buffer[] }, now: Date): CheckedCertificate {
  const [privateKey, ...otherKeys] = contents.privateKeys;
  if (!privateKey) throw fileError(text.noPrivateKey);
  if (contents.certificates.length === 0) throw fileError(text.noCertificate);
  // A file of several keys is not a Direct certificate's export; the one key must have its certificate.
  const parsed = contents.certificates.map((der) => ({ der, node: new NodeX509(der) }));
  const leaf = otherKeys.length === 0 ? parsed.find((c) => c.node.checkPrivateKey(privateKey)) : undefined;
  if (!leaf) throw fileError(text.keyMismatch);
  if (privateKey.asymmetricKeyType !== 'rsa') throw fileError(text.notRsa);
  if ((privateKey.asymmetricKeyDetails?.modulusLength ?? 0) < MIN_RSA_BITS) throw fileError(text.weakKey);
  if (hasWeakSignature(leaf.der)) throw fileError(text.weakSignature);
  const notAfter = new Date(leaf.node.validTo);
  if (notAfter.getTime() <= now.getTime()) throw fileError(text.expired);

  const certificate = new x509.X509Certificate(leaf.der);
  const names = certificate.getExtension(x509.SubjectAlternativeNameExtension)?.names.items ?? [];
  const sanEmails = [...new Set(names.filter((n) => n.type === 'email').map((n) => n.value.toLowerCase()))];
  const sanDnsNames = [...new Set(names.filter((n) => n.type === 'dns').map((n) => n.value.toLowerCase()))];
  if (sanEmails.length === 0 && sanDnsNames.length === 0) throw fileError(text.noSubjectAltName);
  return {
    der: leaf.der,
    chain: parsed.filter((c) => c !== leaf).map((c) => c.der),
    privateKey,
    usage: usageOf(certificate),
    subject: certificate.subject,
    sanEmails,
    sanDnsNames,
    thumbprint: createHash('sha1').update(leaf.der).digest('hex').toUpperCase(),
    thumbprintSha256: createHash('sha256').update(leaf.der).digest('hex').toUpperCase(),
    notBefore: new Date(leaf.node.validFrom),
    notAfter,
  };
}
