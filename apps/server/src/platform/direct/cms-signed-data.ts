import * as asn1js from 'asn1js';
import { createHash, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import {
  OID,
  algorithm,
  certificateIdentity,
  constructedTag,
  contentInfo,
  elements,
  embed,
  encode,
  encodingOf,
  identifies,
  isContext,
  isSequence,
  issuerAndSerialNumber,
  malformed,
  octets,
  oid,
  readContentInfo,
  rsaPublicKey,
  tagged,
  type Asn1,
} from './cms.ts';
import { SmimeError } from './smime-error.ts';

// CMS SignedData (RFC 5652 §5) as S/MIME uses it: built detached with SHA-256 and RSA (PKCS#1 v1.5), and
// verified over the exact content bytes given. RSA and the digests run in Node's native crypto.

export interface SignedDataSigner {
  certificate: Uint8Array;
  privateKey: KeyObject;
  chain?: Uint8Array[];
}

export interface SignedDataVerification {
  content: Buffer;
  signer: Buffer;
  certificates: Buffer[];
  digestAlgorithm: string;
  signingTime: Date | null;
}

interface Digest {
  node: string; // Node's name for the hash
  label: string; // the RFC 5751 micalg name
}

const DIGESTS: Record<string, Digest> = {
  [OID.sha256]: { node: 'sha256', label: 'sha-256' },
  '2.16.840.1.101.3.4.2.2': { node: 'sha384', label: 'sha-384' },
  '2.16.840.1.101.3.4.2.3': { node: 'sha512', label: 'sha-512' },
  '2.16.840.1.101.3.4.2.4': { node: 'sha224', label: 'sha-224' },
};
const WEAK_DIGESTS: Record<string, string> = { [OID.sha1]: 'SHA-1', '1.2.840.113549.2.5': 'MD5' };
// RSA signature algorithms a signer may name: plain rsaEncryption, or RSA with a named hash.
const RSA_SIGNATURES = new Set([OID.rsaEncryption, '1.2.840.113549.1.1.11', '1.2.840.113549.1.1.12', '1.2.840.113549.1.1.13', '1.2.840.113549.1.1.14']);
const WEAK_RSA_SIGNATURES: Record<string, string> = { '1.2.840.113549.1.1.5': 'SHA-1', '1.2.840.113549.1.1.4': 'MD5' };
// UTCTime covers 1950 to 2049; RFC 5652 §11.3 asks for GeneralizedTime outside it.
const UTC_TIME_LAST_YEAR = 2049;

const signAsync = (hash: string, data: Buffer, key: KeyObject) =>
  new Promise<Buffer>((resolve, reject) => sign(hash, data, key, (error, signature) => (error ? reject(error) : resolve(signature))));
const verifyAsync = (hash: string, data: Buffer, key: KeyObject, signature: Buffer) =>
  new Promise<boolean>((resolve, reject) => verify(hash, data, key, signature, (error, ok) => (error ? reject(error) : resolve(ok))));

const attribute = (type: string, value: Asn1) =>
  new asn1js.Sequence({ value: [new asn1js.ObjectIdentifier({ value: type }), new asn1js.Set({ value: [value] })] });

const time = (at: Date): Asn1 =>
  at.getUTCFullYear() <= UTC_TIME_LAST_YEAR ? new asn1js.UTCTime({ valueDate: at }) : new asn1js.GeneralizedTime({ valueDate: at });

function assertSignerKey(signer: SignedDataSigner) {
  const { privateKey } = signer;
  if (privateKey.type !== 'private' || privateKey.asymmetricKeyType !== 'rsa') {
    throw new SmimeError('Malformed', 'The signing key must be an RSA private key.');
  }
  const spki = (key: KeyObject) => key.export({ type: 'spki', format: 'der' });
  if (!spki(createPublicKey(privateKey)).equals(spki(rsaPublicKey(signer.certificate, 'signer')))) {
    throw new SmimeError('Malformed', 'The signing key does not belong to the signer certificate.');
  }
}

/**
 * A detached SignedData (DER) over the content: SHA-256, RSA PKCS#1 v1.5, signed attributes contentType,
 * signingTime and messageDigest, the signer certificate and its chain included.
 */
export async function createDetachedSignedData(content: Uint8Array, signer: SignedDataSigner, signingTime: Date): Promise<Buffer> {
  assertSignerKey(signer);
  const identity = certificateIdentity(signer.certificate, 'signer');
  const chain = signer.chain ?? [];
  const digest = createHash('sha256').update(content).digest();
  // DER orders a SET OF by encoding (X.690 §11.6); OpenSSL re-encodes the attributes that way before checking.
  const attributes = [
    attribute(OID.contentType, new asn1js.ObjectIdentifier({ value: OID.data })),
    attribute(OID.signingTime, time(signingTime)),
    attribute(OID.messageDigest, new asn1js.OctetString({ valueHex: digest })),
  ]
    .map((node) => ({ node, der: encode(node) }))
    .sort((a, b) => Buffer.compare(a.der, b.der))
    .map(({ node }) => node);
  const signature = await signAsync('sha256', encode(new asn1js.Set({ value: attributes })), signer.privateKey);
  const signerInfo = new asn1js.Sequence({
    value: [
      new asn1js.Integer({ value: 1 }),
      issuerAndSerialNumber(identity),
      algorithm(OID.sha256),
      constructedTag(0, attributes),
      algorithm(OID.rsaEncryption, new asn1js.Null()),
      new asn1js.OctetString({ valueHex: signature }),
    ],
  });
  const signedData = new asn1js.Sequence({
    value: [
      new asn1js.Integer({ value: 1 }),
      new asn1js.Set({ value: [algorithm(OID.sha256)] }),
      new asn1js.Sequence({ value: [new asn1js.ObjectIdentifier({ value: OID.data })] }),
      constructedTag(0, [signer.certificate, ...chain].map((der, index) => embed(der, index === 0 ? 'The signer certificate' : 'A chain certificate'))),
      new asn1js.Set({ value: [signerInfo] }),
    ],
  });
  return contentInfo(OID.signedData, signedData);
}

interface SignedDataParts {
  contentType: string; // eContentType
  encapsulatedContent: Buffer | null; // eContent, absent when detached
  certificates: Buffer[];
  signerInfos: Asn1[];
}

function readSignedData(der: Uint8Array): SignedDataParts {
  const { type, content } = readContentInfo(der, 'the signature');
  if (type === OID.envelopedData) throw new SmimeError('NotSigned', 'The message is encrypted: decrypt it before checking its signature.');
  if (type !== OID.signedData) throw new SmimeError('NotSigned', 'The message carries no CMS signature (SignedData), so it is not signed.');
  const [, , encapsulated, ...rest] = elements(content, 'the SignedData');
  const [contentType, encapsulatedContent] = elements(encapsulated, 'the signed content information');
  const certificates = rest.find((node) => isContext(node, 0));
  return {
    contentType: oid(contentType, 'the signed content type'),
    encapsulatedContent:
      encapsulatedContent && isContext(encapsulatedContent, 0) ? octets(tagged(encapsulatedContent, 'the signed content')[0], 'the signed content') : null,
    // Only X.509 certificates (a SEQUENCE); attribute certificates and other choices are tagged.
    certificates: certificates ? tagged(certificates, 'the certificates').filter(isSequence).map((node) => Buffer.from(encodingOf(node))) : [],
    signerInfos: elements(rest.at(-1), 'the signer information'),
  };
}

const badSignature = (message: string) => new SmimeError('BadSignature', message);

const readableIdentity = (der: Buffer) => {
  try {
    return certificateIdentity(der, 'carried');
  } catch {
    return null; // a certificate that cannot be read cannot be the signer's; others may still be
  }
};

function signerPublicKey(der: Buffer): KeyObject {
  try {
    return rsaPublicKey(der, 'signer');
  } catch (error) {
    throw badSignature(error instanceof Error ? error.message : 'The signer certificate could not be read.');
  }
}

interface SignedAttributes {
  bytes: Buffer; // what the signature covers
  signingTime: Date | null;
}

function checkSignedAttributes(node: Asn1, contentType: string, contentDigest: Buffer): SignedAttributes {
  const what = 'the signed attributes';
  const values = new Map<string, Asn1 | undefined>();
  for (const entry of tagged(node, what)) {
    const [type, set] = elements(entry, what);
    values.set(oid(type, what), elements(set, what)[0]);
  }
  const messageDigest = values.get(OID.messageDigest);
  const signedContentType = values.get(OID.contentType);
  if (!messageDigest || !signedContentType) throw badSignature('The signature lacks its message digest or content type attribute.');
  if (oid(signedContentType, what) !== contentType) throw badSignature('The signature was made for another type of content.');
  if (!octets(messageDigest, what).equals(contentDigest)) {
    throw badSignature('The signed content was changed after it was signed: its digest does not match the signature.');
  }
  const signingTime = values.get(OID.signingTime);
  // The signature covers the attributes' DER with the SET OF tag in place of [0] IMPLICIT (RFC 5652 §5.4).
  const bytes = Buffer.from(encodingOf(node));
  bytes[0] = 0x31;
  // GeneralizedTime is a subclass of UTCTime in asn1js.
  return { bytes, signingTime: signingTime instanceof asn1js.UTCTime ? signingTime.toDate() : null };
}

async function verifySignerInfo(signerInfo: Asn1, content: Buffer, parts: SignedDataParts) {
  const what = 'the signer information';
  const [, signerIdentifier, digestAlgorithm, ...rest] = elements(signerInfo, what);
  const signedAttributes = isContext(rest[0], 0) ? rest.shift() : undefined;
  const [signatureAlgorithm, signature] = rest;
  if (!signerIdentifier) throw malformed(`${what} is missing`);

  const digestId = oid(elements(digestAlgorithm, what)[0], what);
  const signatureId = oid(elements(signatureAlgorithm, what)[0], what);
  const weak = WEAK_DIGESTS[digestId] ?? WEAK_RSA_SIGNATURES[signatureId];
  if (weak) throw new SmimeError('WeakDigest', `The message is signed with a ${weak} digest, which is no longer accepted. SHA-256 or better is required.`);
  const digest = DIGESTS[digestId];
  if (!digest) throw badSignature(`The message is signed with a digest algorithm that is not supported (${digestId}).`);
  if (!RSA_SIGNATURES.has(signatureId)) throw badSignature(`The message is signed with an algorithm that is not supported (${signatureId}); Direct uses RSA.`);

  const signer = parts.certificates.find((der) => {
    const identity = readableIdentity(der);
    return identity !== null && identifies(signerIdentifier, identity);
  });
  if (!signer) throw badSignature("The signer's certificate is not included in the message, so the signature cannot be checked.");
  const publicKey = signerPublicKey(signer);

  const contentDigest = createHash(digest.node).update(content).digest();
  const attributes = signedAttributes ? checkSignedAttributes(signedAttributes, parts.contentType, contentDigest) : null;
  const verified = await verifyAsync(digest.node, attributes?.bytes ?? content, publicKey, octets(signature, what)).catch(() => false);
  if (!verified) throw badSignature("The signature does not match the signed content and the signer's certificate.");
  return { signer, digestAlgorithm: digest.label, signingTime: attributes?.signingTime ?? null };
}

/**
 * Verifies a SignedData (DER or BER) over the detached content, or over the content it carries when none is
 * given: digest, signed attributes and RSA signature, with the signer certificate found among those it
 * carries. Trust in that certificate is the caller's to judge. The first signer that verifies is returned.
 */
export async function verifySignedData(der: Uint8Array, detachedContent: Buffer | null): Promise<SignedDataVerification> {
  const parts = readSignedData(der);
  const content = detachedContent ?? parts.encapsulatedContent;
  if (!content) throw malformed('the signed content is missing');
  if (parts.signerInfos.length === 0) throw new SmimeError('NotSigned', 'The message carries a signature block without any signature in it.');
  let failure: unknown;
  for (const signerInfo of parts.signerInfos) {
    try {
      return { content, certificates: parts.certificates, ...(await verifySignerInfo(signerInfo, content, parts)) };
    } catch (error) {
      failure ??= error;
    }
  }
  throw failure;
}
