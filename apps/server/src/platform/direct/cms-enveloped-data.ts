import * as asn1js from 'asn1js';
import { constants, createCipheriv, createDecipheriv, privateDecrypt, publicEncrypt, randomBytes, type CipherGCMTypes, type KeyObject } from 'node:crypto';
import {
  OID,
  algorithm,
  certificateIdentity,
  contentInfo,
  elements,
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

// CMS EnvelopedData (RFC 5652 §6) with key transport recipients: built with RSAES-OAEP and AES-CBC, opened
// with RSAES-OAEP or RSAES-PKCS1-v1_5 and AES-CBC (3DES when allowed); AuthEnvelopedData (RFC 5083) with AES-GCM
// (RFC 5084) is opened too. RSA and the ciphers run in Node's native crypto (OpenSSL).

export type ContentCipher = 'aes-128-cbc' | 'aes-256-cbc';
export type KeyTransport = 'RSAES-OAEP' | 'RSAES-PKCS1-v1_5';

export interface RecipientKeyPair {
  certificate: Uint8Array;
  privateKey: KeyObject;
}

export interface OpenedEnvelope {
  content: Buffer;
  cipher: string;
  keyTransport: KeyTransport;
  recipientCertificate: Uint8Array;
}

interface CipherSpec {
  name: string; // Node's (OpenSSL's) name
  keyLength: number;
  blockLength: number; // also the IV length in CBC mode
  gcm?: true; // authenticated (AuthEnvelopedData): the IV is GCMParameters' nonce, the tag is the MAC
}

const AUTH_ENVELOPED_DATA = '1.2.840.113549.1.9.16.1.23';
// RFC 5084 §3.2: a nonce of 12 octets is recommended; tags of 12 to 16 octets are allowed.
const GCM_TAG_LENGTHS = new Set([12, 13, 14, 15, 16]);
const GCM_CIPHERS: Record<string, CipherSpec> = {
  '2.16.840.1.101.3.4.1.6': { name: 'aes-128-gcm', keyLength: 16, blockLength: 16, gcm: true },
  '2.16.840.1.101.3.4.1.26': { name: 'aes-192-gcm', keyLength: 24, blockLength: 16, gcm: true },
  '2.16.840.1.101.3.4.1.46': { name: 'aes-256-gcm', keyLength: 32, blockLength: 16, gcm: true },
};

const AES_128_CBC = '2.16.840.1.101.3.4.1.2';
const AES_256_CBC = '2.16.840.1.101.3.4.1.42';
const TRIPLE_DES_CBC = '1.2.840.113549.3.7';
const CONTENT_CIPHERS: Record<string, CipherSpec> = {
  [AES_128_CBC]: { name: 'aes-128-cbc', keyLength: 16, blockLength: 16 },
  '2.16.840.1.101.3.4.1.22': { name: 'aes-192-cbc', keyLength: 24, blockLength: 16 },
  [AES_256_CBC]: { name: 'aes-256-cbc', keyLength: 32, blockLength: 16 },
  [TRIPLE_DES_CBC]: { name: 'des-ede3-cbc', keyLength: 24, blockLength: 8 },
};
const CIPHER_IDS: Record<ContentCipher, string> = { 'aes-128-cbc': AES_128_CBC, 'aes-256-cbc': AES_256_CBC };
const WEAK_CIPHERS: Record<string, string> = { '1.3.14.3.2.7': 'DES', '1.2.840.113549.3.2': 'RC2' };
const OAEP_HASHES: Record<string, string> = {
  [OID.sha1]: 'sha1',
  '2.16.840.1.101.3.4.2.4': 'sha224',
  [OID.sha256]: 'sha256',
  '2.16.840.1.101.3.4.2.2': 'sha384',
  '2.16.840.1.101.3.4.2.3': 'sha512',
};
// RFC 5751 §3.1: what S/MIME encrypts is a MIME entity, so it starts with a header field (or the blank line
// of an entity without headers). A wrong key whose garbage still ends in valid CBC padding (about 1 in 256)
// is caught here instead of being handed on as a message.
const MIME_ENTITY_START = /^(?:[!-9;-~]+[ \t]*:|\r?\n)/;
const MAX_HEADER_NAME_LENGTH = 998;

// One message for every failure after the key was chosen, so no failure tells an attacker more than another.
const decryptFailed = () =>
  new SmimeError('DecryptFailed', 'The message could not be decrypted with our key: it was encrypted for another key, or it is damaged.');

/** EnvelopedData (DER) of the content for each recipient certificate: RSAES-OAEP (SHA-1, MGF1-SHA-1) and AES-CBC. */
export function createEnvelopedData(content: Uint8Array, recipientCertificates: Uint8Array[], cipher: ContentCipher): Buffer {
  const cipherId = CIPHER_IDS[cipher] as string | undefined;
  const spec = cipherId ? CONTENT_CIPHERS[cipherId] : undefined;
  if (!cipherId || !spec) throw new SmimeError('Malformed', 'The content cipher must be aes-128-cbc or aes-256-cbc.');
  if (recipientCertificates.length === 0) throw new SmimeError('Malformed', 'At least one recipient certificate is needed to encrypt a message.');
  const contentKey = randomBytes(spec.keyLength);
  const iv = randomBytes(spec.blockLength);
  const recipientInfos = recipientCertificates.map((certificate) => {
    const encryptedKey = publicEncrypt(
      { key: rsaPublicKey(certificate, 'recipient'), padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha1' },
      contentKey,
    );
    return new asn1js.Sequence({
      value: [
        new asn1js.Integer({ value: 0 }),
        issuerAndSerialNumber(certificateIdentity(certificate, 'recipient')),
        // All RSAES-OAEP-params at their defaults (SHA-1, MGF1-SHA-1, empty label): an empty SEQUENCE, as OpenSSL writes.
        algorithm(OID.rsaesOaep, new asn1js.Sequence()),
        new asn1js.OctetString({ valueHex: encryptedKey }),
      ],
    });
  });
  const encipher = createCipheriv(spec.name, contentKey, iv);
  const encryptedContent = Buffer.concat([encipher.update(content), encipher.final()]);
  const envelopedData = new asn1js.Sequence({
    value: [
      new asn1js.Integer({ value: 0 }),
      new asn1js.Set({ value: recipientInfos }),
      new asn1js.Sequence({
        value: [
          new asn1js.ObjectIdentifier({ value: OID.data }),
          algorithm(cipherId, new asn1js.OctetString({ valueHex: iv })),
          new asn1js.Primitive({ idBlock: { tagClass: 3, tagNumber: 0 }, valueHex: encryptedContent }),
        ],
      }),
    ],
  });
  return contentInfo(OID.envelopedData, envelopedData);
}

interface Recipient {
  identifier: Asn1;
  keyAlgorithm: string;
  keyParameters: Asn1 | undefined;
  encryptedKey: Buffer;
}

function readRecipient(node: Asn1): Recipient {
  const what = 'the recipient information';
  const [, identifier, keyAlgorithm, encryptedKey] = elements(node, what);
  const [keyAlgorithmId, keyParameters] = elements(keyAlgorithm, what);
  if (!identifier) throw malformed(`${what} is missing`);
  return { identifier, keyAlgorithm: oid(keyAlgorithmId, what), keyParameters, encryptedKey: octets(encryptedKey, what) };
}

function readEnvelopedData(der: Uint8Array) {
  const { type, content } = readContentInfo(der, 'the encrypted message');
  const authenticated = type === AUTH_ENVELOPED_DATA;
  if (type !== OID.envelopedData && !authenticated) throw new SmimeError('NotEncrypted', 'The message is not encrypted: it holds no CMS EnvelopedData.');
  const fields = elements(content, authenticated ? 'the AuthEnvelopedData' : 'the EnvelopedData');
  // version, then an optional [0] originatorInfo
  const [recipientInfos, encryptedContentInfo, ...rest] = fields.slice(isContext(fields[1], 0) ? 2 : 1);
  const [, contentAlgorithm, encryptedContent] = elements(encryptedContentInfo, 'the encrypted content information');
  const [cipherId, iv] = elements(contentAlgorithm, 'the content encryption algorithm');
  // AuthEnvelopedData goes on with an optional [1] authAttrs, then the MAC (RFC 5083 §2.1).
  const authAttrs = rest[0] && isContext(rest[0], 1) ? rest[0] : undefined;
  const mac = authenticated ? octets(rest[authAttrs ? 1 : 0], 'the message authentication code') : null;
  return {
    authenticated,
    // RFC 5083 §2.2: the authenticated attributes enter GCM as additional data, DER-encoded with the SET OF tag.
    additionalData: authAttrs ? Buffer.concat([Buffer.from([0x31]), encodingOf(authAttrs).subarray(1)]) : null,
    mac,
    // Key transport recipients are the untagged choice; key agreement, KEK and password recipients ([1] to [4]) are not ours.
    recipients: elements(recipientInfos, 'the recipient information').filter(isSequence).map(readRecipient),
    cipherId: oid(cipherId, 'the content encryption algorithm'),
    iv,
    encryptedContent: encryptedContent && isContext(encryptedContent, 0) ? octets(encryptedContent, 'the encrypted content') : null,
  };
}

function contentCipher(id: string, allowTripleDes: boolean, authenticated: boolean): CipherSpec {
  if (authenticated) {
    const spec = GCM_CIPHERS[id];
    if (!spec) throw new SmimeError('DecryptFailed', `The message is encrypted (authenticated) with a cipher that is not supported (${id}).`);
    return spec;
  }
  const refused = id === TRIPLE_DES_CBC && !allowTripleDes ? 'Triple DES' : WEAK_CIPHERS[id];
  if (refused) throw new SmimeError('WeakCipher', `The message is encrypted with ${refused}, which is not accepted. AES-128 or AES-256 is required.`);
  const spec = CONTENT_CIPHERS[id];
  if (!spec) throw new SmimeError('DecryptFailed', `The message is encrypted with a cipher that is not supported (${id}).`);
  return spec;
}

/** The hash and label of RSAES-OAEP-params (RFC 8017 A.2.1), whose fields default to SHA-1, MGF1-SHA-1 and an empty label. */
function oaepParameters(parameters: Asn1 | undefined): { hash: string; label: Buffer | undefined } {
  const what = 'the RSA-OAEP parameters';
  let hash: string = OID.sha1;
  let maskHash: string = OID.sha1;
  let label: Buffer | undefined;
  let supported = true;
  // Absent or NULL parameters mean every default.
  for (const field of isSequence(parameters) ? elements(parameters, what) : []) {
    const [id, value] = elements(tagged(field, what)[0], what);
    if (isContext(field, 0)) hash = oid(id, what);
    else if (isContext(field, 1)) {
      supported &&= oid(id, what) === OID.mgf1;
      maskHash = oid(elements(value, what)[0], what);
    } else if (isContext(field, 2)) {
      supported &&= oid(id, what) === OID.pSpecified;
      label = octets(value, what);
    }
  }
  const nodeHash = OAEP_HASHES[hash];
  // OpenSSL, through Node, masks with MGF1 over the OAEP hash: a different mask hash cannot be decrypted.
  if (!supported || !nodeHash || maskHash !== hash) {
    throw new SmimeError('DecryptFailed', "The message's key is encrypted with RSA-OAEP parameters that are not supported.");
  }
  return { hash: nodeHash, label: label?.length ? label : undefined };
}

/**
 * The content key from a PKCS#1 v1.5 encrypted key, or a random one of the same length.
 * Node 20 refuses v1.5 decryption (CVE-2023-46809, the Marvin attack), so the padding is checked here on the raw
 * RSA result without branches on secret data, and a bad padding or a key of the wrong length yields a random key
 * (RFC 3218 §2.3.2, implicit rejection): content decryption then fails exactly as with a wrong key, telling an
 * attacker nothing about the padding.
 */
function pkcs1v15ContentKey(privateKey: KeyObject, encryptedKey: Buffer, keyLength: number): Buffer {
  const substitute = randomBytes(keyLength);
  let encoded: Buffer;
  try {
    encoded = privateDecrypt({ key: privateKey, padding: constants.RSA_NO_PADDING }, encryptedKey);
  } catch {
    return substitute; // a ciphertext that does not fit the modulus: public knowledge, yet treated as bad padding
  }
  const length = encoded.length;
  // EM = 00 || 02 || PS (at least 8 non-zero bytes) || 00 || key
  let bad = encoded[0]! | (encoded[1]! ^ 0x02);
  let separator = 0;
  let seen = 0;
  for (let i = 2; i < length; i++) {
    const isZero = (encoded[i]! - 1) >>> 31;
    separator |= i & -(isZero & (seen ^ 1));
    seen |= isZero;
  }
  bad |= seen ^ 1;
  bad |= (separator - 10) >>> 31;
  bad |= (length - separator - 1) ^ keyLength;
  const keep = ((bad | -bad) >>> 31) - 1; // every bit set when the padding is good, else 0
  const candidate = encoded.subarray(length - keyLength);
  const contentKey = Buffer.alloc(keyLength);
  for (let i = 0; i < keyLength; i++) contentKey[i] = (candidate[i]! & keep) | (substitute[i]! & ~keep);
  return contentKey;
}

function unwrapContentKey(recipient: Recipient, privateKey: KeyObject, keyLength: number): { contentKey: Buffer; keyTransport: KeyTransport } {
  if (recipient.keyAlgorithm === OID.rsaEncryption) {
    return { contentKey: pkcs1v15ContentKey(privateKey, recipient.encryptedKey, keyLength), keyTransport: 'RSAES-PKCS1-v1_5' };
  }
  if (recipient.keyAlgorithm !== OID.rsaesOaep) {
    throw new SmimeError('DecryptFailed', `The message's key is encrypted with an algorithm that is not supported (${recipient.keyAlgorithm}).`);
  }
  const { hash, label } = oaepParameters(recipient.keyParameters);
  let contentKey: Buffer;
  try {
    contentKey = privateDecrypt({ key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: hash, oaepLabel: label }, recipient.encryptedKey);
  } catch {
    throw decryptFailed();
  }
  if (contentKey.length !== keyLength) throw decryptFailed();
  return { contentKey, keyTransport: 'RSAES-OAEP' };
}

function decryptContent(spec: CipherSpec, contentKey: Buffer, iv: Buffer, encryptedContent: Buffer, gcm?: { tag: Buffer; additionalData: Buffer | null }): Buffer {
  let content: Buffer;
  try {
    let decipher;
    if (gcm) {
      const gcmDecipher = createDecipheriv(spec.name as CipherGCMTypes, contentKey, iv, { authTagLength: gcm.tag.length });
      gcmDecipher.setAuthTag(gcm.tag);
      if (gcm.additionalData) gcmDecipher.setAAD(gcm.additionalData);
      decipher = gcmDecipher;
    } else decipher = createDecipheriv(spec.name, contentKey, iv);
    // GCM's final() throws unless the tag matches: content altered or under another key is never handed on.
    content = Buffer.concat([decipher.update(encryptedContent), decipher.final()]);
  } catch {
    throw decryptFailed();
  }
  if (!MIME_ENTITY_START.test(content.subarray(0, MAX_HEADER_NAME_LENGTH + 2).toString('latin1'))) throw decryptFailed();
  return content;
}

/**
 * Opens an EnvelopedData (DER or BER) with whichever key a recipient information names (issuer and serial
 * number, or subject key identifier). Refusals are SmimeErrors: 'NotEncrypted', 'NoMatchingKey', 'WeakCipher',
 * 'DecryptFailed', 'Malformed'.
 */
export function openEnvelopedData(der: Uint8Array, keys: RecipientKeyPair[], allowTripleDes: boolean): OpenedEnvelope {
  const envelope = readEnvelopedData(der);
  const identities = keys.map((key) => ({ key, identity: certificateIdentity(key.certificate, 'recipient key') }));
  const candidates = envelope.recipients.flatMap((recipient) =>
    identities.filter(({ identity }) => identifies(recipient.identifier, identity)).map(({ key }) => ({ recipient, key })),
  );
  if (candidates.length === 0) {
    throw new SmimeError('NoMatchingKey', 'The message is not encrypted for any of our certificates, so it cannot be decrypted here.');
  }
  const spec = contentCipher(envelope.cipherId, allowTripleDes, envelope.authenticated);
  const { encryptedContent } = envelope;
  let iv: Buffer;
  let gcm: { tag: Buffer; additionalData: Buffer | null } | undefined;
  if (spec.gcm) {
    // GCMParameters ::= SEQUENCE { aes-nonce OCTET STRING, aes-ICVlen INTEGER DEFAULT 12 }
    const [nonce, icvLength] = elements(envelope.iv, 'the GCM parameters');
    iv = octets(nonce, 'the GCM nonce');
    const tagLength = icvLength instanceof asn1js.Integer ? icvLength.valueBlock.valueDec : 12;
    const tag = envelope.mac!;
    if (iv.length === 0 || tag.length !== tagLength || !GCM_TAG_LENGTHS.has(tag.length)) throw malformed('the GCM parameters are invalid');
    if (!encryptedContent || encryptedContent.length === 0) throw malformed('the encrypted content is missing');
    gcm = { tag, additionalData: envelope.additionalData };
  } else {
    iv = octets(envelope.iv, 'the content encryption parameters');
    if (iv.length !== spec.blockLength) throw malformed('the content encryption parameters are invalid');
    if (!encryptedContent || encryptedContent.length === 0 || encryptedContent.length % spec.blockLength !== 0) {
      throw malformed('the encrypted content is missing or truncated');
    }
  }
  let failure: SmimeError | undefined;
  for (const { recipient, key } of candidates) {
    try {
      const { contentKey, keyTransport } = unwrapContentKey(recipient, key.privateKey, spec.keyLength);
      return { content: decryptContent(spec, contentKey, iv, encryptedContent, gcm), cipher: spec.name, keyTransport, recipientCertificate: key.certificate };
    } catch (error) {
      if (!(error instanceof SmimeError) || error.code !== 'DecryptFailed') throw error;
      failure ??= error;
    }
  }
  throw failure ?? decryptFailed();
}
