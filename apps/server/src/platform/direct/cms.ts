import * as asn1js from 'asn1js';
import { X509Certificate, type KeyObject } from 'node:crypto';
import { SmimeError } from './smime-error.ts';

// The ASN.1 side of CMS (RFC 5652) shared by SignedData and EnvelopedData: reading BER with asn1js under
// explicit limits, building DER with asn1js, and naming certificates as CMS does (issuer and serial number,
// or subject key identifier). No cryptography here: that runs in Node's native crypto (OpenSSL).

export type Asn1 = asn1js.AsnType;

export const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  envelopedData: '1.2.840.113549.1.7.3',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
  rsaEncryption: '1.2.840.113549.1.1.1',
  rsaesOaep: '1.2.840.113549.1.1.7',
  mgf1: '1.2.840.113549.1.1.8',
  pSpecified: '1.2.840.113549.1.1.9',
  sha1: '1.3.14.3.2.26',
  sha256: '2.16.840.1.101.3.4.2.1',
  subjectKeyIdentifier: '2.5.29.14',
} as const;

// asn1js refuses more than 16 MB or 10 000 nodes by default; OpenSSL streams content as 1000-byte OCTET STRING
// pieces (one node each), so a 20 MB message needs more. These bounds still stop a hostile length or depth.
const MAX_CMS_BYTES = 128 * 1024 * 1024;
const MAX_CMS_NODES = 500_000;
const UNIVERSAL = 1;
const CONTEXT = 3;
const SEQUENCE = 16;
const SET = 17;

export function malformed(what: string): SmimeError {
  return new SmimeError('Malformed', `The S/MIME message is damaged or not in the expected form (${what}).`);
}

const childrenOf = (node: Asn1): Asn1[] | null => {
  const value = (node.valueBlock as { value?: unknown }).value;
  return node.idBlock.isConstructed && Array.isArray(value) ? (value as Asn1[]) : null;
};

// asn1js accepts an indefinite-length element cut short, with a warning only: that is how truncated BER looks.
function isComplete(node: Asn1): boolean {
  if (node.lenBlock.isIndefiniteForm && node.valueBlock.warnings.length > 0) return false;
  return (childrenOf(node) ?? []).every(isComplete);
}

/** Parses BER (DER included) without copying the input; damaged or truncated input is a 'Malformed' SmimeError. */
export function parseDer(bytes: Uint8Array, what: string): Asn1 {
  const parsed = asn1js.fromBER(bytes, {
    copyInput: false,
    parseEmbedded: false,
    maxContentLength: MAX_CMS_BYTES,
    maxNodes: MAX_CMS_NODES,
  });
  if (parsed.offset === -1 || !isComplete(parsed.result)) throw malformed(`${what} could not be read`);
  return parsed.result;
}

export const isContext = (node: Asn1 | undefined, tagNumber: number): node is Asn1 =>
  node?.idBlock.tagClass === CONTEXT && node.idBlock.tagNumber === tagNumber;

export const isSequence = (node: Asn1 | undefined): node is Asn1 =>
  node?.idBlock.tagClass === UNIVERSAL && node.idBlock.tagNumber === SEQUENCE && node.idBlock.isConstructed;

/** The elements of a SEQUENCE or SET. */
export function elements(node: Asn1 | undefined, what: string): Asn1[] {
  const universal = node?.idBlock.tagClass === UNIVERSAL && (node.idBlock.tagNumber === SEQUENCE || node.idBlock.tagNumber === SET);
  const children = universal ? childrenOf(node) : null;
  if (!children) throw malformed(`${what} is missing`);
  return children;
}

/** The elements inside a constructed context-specific tag ([n] EXPLICIT, or [n] IMPLICIT SET/SEQUENCE). */
export function tagged(node: Asn1, what: string): Asn1[] {
  const children = childrenOf(node);
  if (!children) throw malformed(`${what} is missing`);
  return children;
}

export function oid(node: Asn1 | undefined, what: string): string {
  if (!(node instanceof asn1js.ObjectIdentifier)) throw malformed(`${what} is missing`);
  return node.valueBlock.toString();
}

/** The bytes of an OCTET STRING (or an [n] IMPLICIT one), joining the pieces of a constructed (BER) one. */
export function octets(node: Asn1 | undefined, what: string): Buffer {
  if (!node) throw malformed(`${what} is missing`);
  const children = childrenOf(node);
  if (children) return Buffer.concat(children.map((child) => octets(child, what)));
  const view = (node.valueBlock as { valueHexView?: Uint8Array }).valueHexView;
  if (!view) throw malformed(`${what} is missing`);
  return Buffer.from(view.buffer, view.byteOffset, view.byteLength);
}

/** The element's own encoding (tag, length and value) as it was received, without copying. */
export const encodingOf = (node: Asn1): Buffer =>
  Buffer.from(node.valueBeforeDecodeView.buffer, node.valueBeforeDecodeView.byteOffset, node.valueBeforeDecodeView.byteLength);

/** ContentInfo ::= SEQUENCE { contentType, [0] EXPLICIT content }. */
export function readContentInfo(der: Uint8Array, what: string): { type: string; content: Asn1 | undefined } {
  const [type, content] = elements(parseDer(der, what), what);
  return { type: oid(type, `${what} content type`), content: content && isContext(content, 0) ? tagged(content, what)[0] : undefined };
}

// Building DER.

export const encode = (node: Asn1): Buffer => Buffer.from(node.toBER());

/** A DER element embedded as it is (asn1js re-encodes a parsed DER element byte for byte); `what` starts a sentence. */
export function embed(der: Uint8Array, what: string): Asn1 {
  const parsed = asn1js.fromBER(der);
  if (parsed.offset !== der.byteLength) throw new SmimeError('Malformed', `${what} could not be read.`);
  return parsed.result;
}

export const algorithm = (id: string, parameters?: Asn1): Asn1 =>
  new asn1js.Sequence({ value: [new asn1js.ObjectIdentifier({ value: id }), ...(parameters ? [parameters] : [])] });

/** [n] holding the elements: an EXPLICIT tag around one, or an IMPLICIT SET OF (signed attributes, certificates). */
export const constructedTag = (tagNumber: number, value: Asn1[]): Asn1 => new asn1js.Constructed({ idBlock: { tagClass: CONTEXT, tagNumber }, value });

export const contentInfo = (type: string, content: Asn1): Buffer =>
  encode(new asn1js.Sequence({ value: [new asn1js.ObjectIdentifier({ value: type }), constructedTag(0, [content])] }));

// Certificates, as CMS names them.

export interface CertificateIdentity {
  issuer: Buffer; // the issuer Name, DER
  serialNumber: Buffer; // the serial number INTEGER, DER
  subjectKeyIdentifier: Buffer | null;
}

/** Reads what CMS names a certificate by; a certificate that cannot be read is a 'Malformed' SmimeError naming its role. */
export function certificateIdentity(der: Uint8Array, role: string): CertificateIdentity {
  try {
    return readIdentity(der);
  } catch {
    throw new SmimeError('Malformed', `The ${role} certificate could not be read.`);
  }
}

function readIdentity(der: Uint8Array): CertificateIdentity {
  const what = 'the certificate';
  const [tbs] = elements(parseDer(der, what), what);
  const fields = elements(tbs, what);
  const first = isContext(fields[0], 0) ? 1 : 0; // [0] version, absent in v1 certificates
  const serialNumber = fields[first];
  const issuer = fields[first + 2];
  if (!serialNumber || !isSequence(issuer)) throw malformed(`${what} has no issuer`);
  const extensions = fields.find((field) => isContext(field, 3));
  let subjectKeyIdentifier: Buffer | null = null;
  for (const extension of extensions ? elements(tagged(extensions, what)[0], what) : []) {
    const [id, ...rest] = elements(extension, what);
    if (oid(id, what) === OID.subjectKeyIdentifier) subjectKeyIdentifier = octets(parseDer(octets(rest.at(-1), what), what), what);
  }
  return { issuer: encodingOf(issuer), serialNumber: encodingOf(serialNumber), subjectKeyIdentifier };
}

/** The certificate's RSA public key; any other key is a 'Malformed' SmimeError (Direct uses RSA). */
export function rsaPublicKey(der: Uint8Array, role: string): KeyObject {
  let publicKey: KeyObject;
  try {
    publicKey = new X509Certificate(der).publicKey;
  } catch {
    throw new SmimeError('Malformed', `The ${role} certificate could not be read.`);
  }
  if (publicKey.asymmetricKeyType !== 'rsa') {
    throw new SmimeError('Malformed', `The ${role} certificate does not have an RSA key, which Direct requires.`);
  }
  return publicKey;
}

/** IssuerAndSerialNumber ::= SEQUENCE { issuer Name, serialNumber INTEGER }. */
export const issuerAndSerialNumber = (identity: CertificateIdentity): Asn1 =>
  new asn1js.Sequence({ value: [embed(identity.issuer, 'The issuer name'), embed(identity.serialNumber, 'The serial number')] });

/** Whether a SignerIdentifier or RecipientIdentifier (issuerAndSerialNumber, or [0] subjectKeyIdentifier) names the certificate. */
export function identifies(identifier: Asn1, identity: CertificateIdentity): boolean {
  if (isContext(identifier, 0)) {
    return identity.subjectKeyIdentifier !== null && octets(identifier, 'the subject key identifier').equals(identity.subjectKeyIdentifier);
  }
  const [issuer, serialNumber] = elements(identifier, 'the issuer and serial number');
  return !!issuer && !!serialNumber && encodingOf(issuer).equals(identity.issuer) && encodingOf(serialNumber).equals(identity.serialNumber);
}
