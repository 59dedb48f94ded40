import { randomBytes, type KeyObject } from 'node:crypto';
import { createEnvelopedData, openEnvelopedData, type ContentCipher, type KeyTransport } from './cms-enveloped-data.ts';
import { createDetachedSignedData, verifySignedData, type SignedDataVerification } from './cms-signed-data.ts';
import { malformed } from './cms.ts';
import { SmimeError } from './smime-error.ts';

// S/MIME for Direct (RFC 5751, RFC 1847): MIME entities signed as multipart/signed and encrypted as
// application/pkcs7-mime, and the reverse. Signed bytes are exactly the bytes sent and received: the first
// part is signed and verified as the raw bytes between its boundary lines, never re-serialised.
// The CMS structures are in cms*.ts; RSA, AES and the digests run in Node's native crypto (OpenSSL).

export { SmimeError, type SmimeErrorCode } from './smime-error.ts';
export type { ContentCipher } from './cms-enveloped-data.ts';

export interface SignerKey {
  certificate: Uint8Array; // DER
  privateKey: KeyObject;
  chain?: Uint8Array[]; // DER, the certificates above the signer's, sent with the signature
}

export interface RecipientKey {
  certificate: Uint8Array; // DER
  privateKey: KeyObject;
}

export interface DecryptedEntity {
  entity: Buffer; // the decrypted MIME entity, bytes exactly as decrypted
  cipher: string; // 'aes-128-cbc' | 'aes-192-cbc' | 'aes-256-cbc' | 'des-ede3-cbc' | 'aes-128-gcm' | 'aes-192-gcm' | 'aes-256-gcm'
  keyTransport: KeyTransport;
  recipientCertificate: Uint8Array; // the certificate of the key that opened it
}

export type VerifiedEntity = SignedDataVerification;

const CR = 0x0d;
const LF = 0x0a;
const SPACE = 0x20;
const TAB = 0x09;
const HYPHEN = 0x2d;
const BASE64_LINE_LENGTH = 76;
const PKCS7_MIME = new Set(['application/pkcs7-mime', 'application/x-pkcs7-mime']);
const PKCS7_SIGNATURE = new Set(['application/pkcs7-signature', 'application/x-pkcs7-signature']);
const ENVELOPED_HEADER =
  'Content-Type: application/pkcs7-mime; smime-type=enveloped-data; name="smime.p7m"\r\n' +
  'Content-Transfer-Encoding: base64\r\n' +
  'Content-Disposition: attachment; filename="smime.p7m"\r\n\r\n';
const SIGNATURE_PART_HEADER =
  'Content-Type: application/pkcs7-signature; name="smime.p7s"\r\n' +
  'Content-Transfer-Encoding: base64\r\n' +
  'Content-Disposition: attachment; filename="smime.p7s"\r\n\r\n';

const asBuffer = (bytes: Uint8Array): Buffer => (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
const ascii = (text: string) => Buffer.from(text, 'latin1');

/** CRLF normalisation: every lone LF or CR becomes CRLF. Always a new buffer. */
export function toCrlf(bytes: Uint8Array): Buffer {
  const input = asBuffer(bytes);
  const lone: number[] = [];
  for (let at = input.indexOf(LF); at !== -1; at = input.indexOf(LF, at + 1)) if (input[at - 1] !== CR) lone.push(at);
  for (let at = input.indexOf(CR); at !== -1; at = input.indexOf(CR, at + 1)) if (input[at + 1] !== LF) lone.push(at);
  if (lone.length === 0) return Buffer.from(input);
  lone.sort((a, b) => a - b);
  const output = Buffer.allocUnsafe(input.length + lone.length);
  let read = 0;
  let written = 0;
  for (const at of lone) {
    written += input.copy(output, written, read, at);
    output[written++] = CR;
    output[written++] = LF;
    read = at + 1;
  }
  input.copy(output, written, read);
  return output;
}

/** Splits a message or entity at its first blank line: the header block (text) and the body (raw bytes). */
export function splitEntity(entity: Uint8Array): { header: string; body: Buffer } {
  const bytes = asBuffer(entity);
  // An entity without headers starts with the blank line.
  if (bytes[0] === LF) return { header: '', body: bytes.subarray(1) };
  if (bytes[0] === CR && bytes[1] === LF) return { header: '', body: bytes.subarray(2) };
  const ends = [
    { at: bytes.indexOf('\n\r\n'), blank: 3 },
    { at: bytes.indexOf('\n\n'), blank: 2 },
  ].filter(({ at }) => at !== -1);
  if (ends.length === 0) return { header: bytes.toString('utf8'), body: bytes.subarray(bytes.length) };
  const { at, blank } = ends.reduce((first, end) => (end.at < first.at ? end : first));
  const headerEnd = bytes[at - 1] === CR ? at - 1 : at;
  return { header: bytes.toString('utf8', 0, headerEnd), body: bytes.subarray(at + blank) };
}

/** One header field's value, unfolded and trimmed (the first when repeated); undefined when absent. */
export function headerValue(header: string, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const line of header.replace(/\r?\n(?=[ \t])/g, '').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0 && line.slice(0, colon).trimEnd().toLowerCase() === wanted) return line.slice(colon + 1).trim();
  }
  return undefined;
}

interface MediaType {
  type: string; // lower case, e.g. 'multipart/signed'
  parameters: Map<string, string>; // names in lower case, values unquoted
}

// RFC 2045: an entity without a Content-Type is text/plain.
function mediaTypeOf(header: string): MediaType {
  const value = headerValue(header, 'content-type') ?? 'text/plain';
  const semicolon = value.indexOf(';');
  const parameters = new Map<string, string>();
  if (semicolon !== -1) {
    for (const [, name, raw] of value.slice(semicolon).matchAll(/;\s*([^\s=;]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;\s]*)/g)) {
      const unquoted = raw!.startsWith('"') ? raw!.slice(1, -1).replace(/\\(.)/g, '$1') : raw!;
      parameters.set(name!.toLowerCase(), unquoted);
    }
  }
  return { type: (semicolon === -1 ? value : value.slice(0, semicolon)).trim().toLowerCase(), parameters };
}

function base64Lines(data: Uint8Array): Buffer {
  const encoded = ascii(asBuffer(data).toString('base64'));
  const output = Buffer.allocUnsafe(encoded.length + Math.ceil(encoded.length / BASE64_LINE_LENGTH) * 2);
  let written = 0;
  for (let from = 0; from < encoded.length; from += BASE64_LINE_LENGTH) {
    written += encoded.copy(output, written, from, Math.min(from + BASE64_LINE_LENGTH, encoded.length));
    output[written++] = CR;
    output[written++] = LF;
  }
  return output;
}

function transferDecoded(header: string, body: Buffer, what: string): Buffer {
  // DER cannot travel as 7bit text: without a Content-Transfer-Encoding, base64 is what senders mean.
  const encoding = (headerValue(header, 'content-transfer-encoding') ?? 'base64').toLowerCase();
  if (encoding === 'binary') return body;
  if (encoding !== 'base64') throw new SmimeError('Malformed', `The ${what} is not base64 encoded (Content-Transfer-Encoding: ${encoding}).`);
  return Buffer.from(body.toString('latin1'), 'base64');
}

/**
 * The body parts of a multipart body, as raw bytes (RFC 2046 §5.1.1): a delimiter is "--boundary" at the start
 * of a line, and the line break before it belongs to the delimiter, not to the part. Without a closing
 * delimiter the last part runs to the end.
 */
function multipartParts(body: Buffer, boundary: string): Buffer[] {
  const dashBoundary = ascii(`--${boundary}`);
  const parts: Buffer[] = [];
  let partStart = -1;
  for (let at = body.indexOf(dashBoundary); at !== -1; at = body.indexOf(dashBoundary, at + 1)) {
    if (at > 0 && body[at - 1] !== LF) continue;
    let end = at + dashBoundary.length;
    const closing = body[end] === HYPHEN && body[end + 1] === HYPHEN;
    if (!closing) {
      while (body[end] === SPACE || body[end] === TAB) end++; // transport padding
      if (end < body.length && body[end] !== CR && body[end] !== LF) continue; // a longer boundary, not ours
    }
    if (partStart !== -1) parts.push(body.subarray(partStart, Math.max(partStart, at > 1 && body[at - 2] === CR ? at - 2 : at - 1)));
    if (closing) return parts;
    if (body[end] === CR) end++;
    if (body[end] === LF) end++;
    partStart = end;
  }
  if (partStart !== -1) parts.push(body.subarray(partStart));
  return parts;
}

function uniqueBoundary(content: Buffer): string {
  for (;;) {
    const boundary = `----=_Signed_${randomBytes(16).toString('hex')}`;
    if (content.indexOf(boundary) === -1) return boundary;
  }
}

/**
 * The entity (CRLF-normalised) signed as multipart/signed: part 1 is the entity as given, part 2 a detached
 * CMS SignedData (SHA-256 with RSA, the signer certificate and chain included). Returns the new entity.
 */
export async function signEntity(entity: Uint8Array, signer: SignerKey): Promise<Buffer> {
  const content = toCrlf(entity);
  const signature = await createDetachedSignedData(content, signer, new Date());
  const boundary = uniqueBoundary(content);
  return Buffer.concat([
    ascii(
      `Content-Type: multipart/signed; protocol="application/pkcs7-signature"; micalg=sha-256;\r\n\tboundary="${boundary}"\r\n\r\n--${boundary}\r\n`,
    ),
    content,
    ascii(`\r\n--${boundary}\r\n${SIGNATURE_PART_HEADER}`),
    base64Lines(signature),
    ascii(`--${boundary}--\r\n`),
  ]);
}

/**
 * The entity (CRLF-normalised) encrypted as application/pkcs7-mime enveloped-data for every recipient
 * certificate: RSAES-OAEP key transport, AES-256-CBC unless told AES-128-CBC.
 */
export async function encryptEntity(entity: Uint8Array, recipientCertificates: Uint8Array[], cipher: ContentCipher = 'aes-256-cbc'): Promise<Buffer> {
  const envelope = createEnvelopedData(toCrlf(entity), recipientCertificates, cipher);
  return Buffer.concat([ascii(ENVELOPED_HEADER), base64Lines(envelope)]);
}

/**
 * Decrypts an application/pkcs7-mime (or x-pkcs7-mime) enveloped-data or authEnveloped-data entity with whichever
 * key it names. RSAES-OAEP (SHA-1 to SHA-512) or RSAES-PKCS1-v1_5 key transport; AES-CBC content (3DES only when
 * allowed), or AES-GCM in an AuthEnvelopedData (RFC 5083/5084).
 */
export function decryptEntity(entity: Uint8Array, keys: RecipientKey[], opts: { allowTripleDes?: boolean } = {}): Promise<DecryptedEntity> {
  return onlySmimeErrors(async () => {
    const { header, body } = splitEntity(entity);
    const { type, parameters } = mediaTypeOf(header);
    if (!PKCS7_MIME.has(type)) throw new SmimeError('NotEncrypted', `The message is not encrypted (its content type is ${type}).`);
    const smimeType = parameters.get('smime-type')?.toLowerCase();
    // authEnveloped-data (RFC 8551 §3.2.2): AES-GCM in a CMS AuthEnvelopedData.
    if (smimeType !== undefined && smimeType !== 'enveloped-data' && smimeType !== 'authenveloped-data') {
      throw new SmimeError('NotEncrypted', `The message is not encrypted (it is S/MIME ${smimeType}).`);
    }
    const opened = openEnvelopedData(transferDecoded(header, body, 'encrypted message'), keys, opts.allowTripleDes ?? false);
    return { entity: opened.content, cipher: opened.cipher, keyTransport: opened.keyTransport, recipientCertificate: opened.recipientCertificate };
  });
}

// What arrives from another HISP is untrusted: a parser's own error deep in asn1js (about 1 in 400 random signatures
// throws "Wrong input string for conversion") is still a damaged message, never an unexpected failure.
async function onlySmimeErrors<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof SmimeError) throw error;
    throw malformed('it could not be parsed');
  }
}

async function verifyMultipartSigned(body: Buffer, parameters: Map<string, string>): Promise<SignedDataVerification> {
  const protocol = parameters.get('protocol')?.toLowerCase();
  if (protocol !== undefined && !PKCS7_SIGNATURE.has(protocol)) {
    throw new SmimeError('NotSigned', `The message is signed with ${protocol}, not with S/MIME.`);
  }
  const boundary = parameters.get('boundary');
  if (!boundary) throw new SmimeError('Malformed', 'The signed message has no boundary parameter, so its parts cannot be found.');
  const parts = multipartParts(body, boundary);
  const [content, signaturePart] = parts;
  if (!content || !signaturePart || parts.length !== 2) {
    throw new SmimeError('Malformed', `A signed message has two parts, the content and its signature; this one has ${parts.length}.`);
  }
  const signature = splitEntity(signaturePart);
  if (!PKCS7_SIGNATURE.has(mediaTypeOf(signature.header).type)) {
    throw new SmimeError('Malformed', 'The second part of the signed message is not an S/MIME signature.');
  }
  return verifySignedData(transferDecoded(signature.header, signature.body, 'signature'), content);
}

/**
 * Verifies a multipart/signed entity over the raw bytes of its first part (or an opaque application/pkcs7-mime
 * signed-data entity): digest, signature, and the signer certificate carried in the message. Refuses an
 * unsigned entity ('NotSigned'), a signature that does not verify ('BadSignature'), SHA-1 or MD5 ('WeakDigest').
 * Trust in the signer is the caller's to judge (trust.ts verifyChain, with `certificates` as intermediates).
 */
export function verifySignedEntity(entity: Uint8Array): Promise<VerifiedEntity> {
  return onlySmimeErrors(async () => {
    const { header, body } = splitEntity(entity);
    const { type, parameters } = mediaTypeOf(header);
    let verified: SignedDataVerification;
    if (type === 'multipart/signed') verified = await verifyMultipartSigned(body, parameters);
    else if (PKCS7_MIME.has(type)) {
      const smimeType = parameters.get('smime-type')?.toLowerCase();
      if (smimeType === 'enveloped-data' || smimeType === 'authenveloped-data') throw new SmimeError('NotSigned', 'The message is encrypted: decrypt it before checking its signature.');
      if (smimeType !== undefined && smimeType !== 'signed-data') throw new SmimeError('NotSigned', `The message is not signed (it is S/MIME ${smimeType}).`);
      verified = await verifySignedData(transferDecoded(header, body, 'signed message'), null);
    } else throw new SmimeError('NotSigned', `The message is not signed (its content type is ${type}).`);
    return { ...verified, content: Buffer.from(verified.content) };
  });
}
