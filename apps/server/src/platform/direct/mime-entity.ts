import { parseHeaderValue } from 'nodemailer/lib/mime-funcs';

// Just enough MIME to look at a Direct message's structure before (or instead of) mailparser: the header
// block of an entity, its Content-Type, the parts of a multipart body and a body's transfer decoding.
// Bytes are handled as latin1 strings, which map each byte to one character and back unchanged.

export interface MimeEntity {
  /** Header fields by lower-case name, unfolded, in the order they appear. */
  headers: Map<string, string[]>;
  body: Buffer;
}

const MAX_HEADER_BYTES = 1024 * 1024;
// Direct's "whole message wrapped" is one level; a few more are tolerated, a chain of them is not.
const MAX_WRAPPING_DEPTH = 4;

/** Splits an entity into its header fields and body; an entity that starts with a blank line has no headers. */
export function readEntity(bytes: Uint8Array): MimeEntity {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const head = buffer.subarray(0, MAX_HEADER_BYTES + 4).toString('latin1');
  const blankLine = /\r?\n\r?\n/.exec(head);
  const startsBlank = /^\r?\n/.exec(head);
  let headerText: string;
  let bodyStart: number;
  if (startsBlank) {
    headerText = '';
    bodyStart = startsBlank[0].length;
  } else if (blankLine) {
    headerText = head.slice(0, blankLine.index);
    bodyStart = blankLine.index + blankLine[0].length;
  } else if (buffer.length <= MAX_HEADER_BYTES) {
    headerText = head;
    bodyStart = buffer.length;
  } else {
    throw new Error(`The message's headers are longer than ${MAX_HEADER_BYTES / 1024} KB.`);
  }
  if (headerText.length > MAX_HEADER_BYTES) throw new Error(`The message's headers are longer than ${MAX_HEADER_BYTES / 1024} KB.`);

  const headers = new Map<string, string[]>();
  for (const field of headerText.split(/\r?\n(?![ \t])/)) {
    const colon = field.indexOf(':');
    if (colon <= 0) continue;
    const name = field.slice(0, colon).trim().toLowerCase();
    const value = field.slice(colon + 1).replace(/\r?\n[ \t]/g, ' ').trim();
    const values = headers.get(name);
    if (values) values.push(value);
    else headers.set(name, [value]);
  }
  return { headers, body: buffer.subarray(bodyStart) };
}

/** The first value of a header field, or null. */
export const headerValue = (entity: MimeEntity, name: string) => entity.headers.get(name.toLowerCase())?.[0] ?? null;

/** The entity's media type (lower case, text/plain when absent, as RFC 2045 says) and its parameters. */
export function contentTypeOf(entity: MimeEntity): { mediaType: string; params: Record<string, string> } {
  const header = headerValue(entity, 'content-type');
  if (!header) return { mediaType: 'text/plain', params: {} };
  const parsed = parseHeaderValue(header);
  return { mediaType: parsed.value.trim().toLowerCase() || 'text/plain', params: parsed.params };
}

/** The body with its Content-Transfer-Encoding (base64, quoted-printable) undone; other encodings are already bytes. */
export function decodedBody(entity: MimeEntity): Buffer {
  const encoding = (headerValue(entity, 'content-transfer-encoding') ?? '').trim().toLowerCase();
  if (encoding === 'base64') return Buffer.from(entity.body.toString('latin1').replace(/[^A-Za-z0-9+/=]/g, ''), 'base64');
  if (encoding === 'quoted-printable') {
    const text = entity.body.toString('latin1').replace(/=\r?\n/g, '');
    return Buffer.from(text.replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))), 'latin1');
  }
  return entity.body;
}

/**
 * The parts of a multipart body, split on its boundary (the preamble and epilogue dropped). Throws when there
 * are more than maxParts, so a message of a million empty parts costs nothing more than reading it.
 */
export function multipartParts(entity: MimeEntity, maxParts: number): MimeEntity[] {
  const boundary = contentTypeOf(entity).params.boundary;
  if (!boundary) throw new Error('A multipart part of the message has no boundary.');
  const body = entity.body.toString('latin1');
  const delimiter = `--${boundary}`;
  const parts: MimeEntity[] = [];
  const addPart = (start: number, end: number) => {
    if (parts.length >= maxParts) throw new Error(`The message has more than ${maxParts} parts.`);
    parts.push(readEntity(Buffer.from(body.slice(start, Math.max(start, end)), 'latin1')));
  };
  let partStart = -1;
  for (let at = body.indexOf(delimiter); at >= 0; at = body.indexOf(delimiter, at + delimiter.length)) {
    if (at > 0 && body[at - 1] !== '\n') continue;
    const lineEnd = body.indexOf('\n', at);
    const rest = body.slice(at + delimiter.length, lineEnd < 0 ? body.length : lineEnd).trimEnd();
    const isClose = rest === '--';
    if (rest && !isClose) continue; // a longer boundary that merely starts with this one
    if (partStart >= 0) addPart(partStart, at - (body[at - 2] === '\r' ? 2 : 1));
    partStart = isClose || lineEnd < 0 ? -1 : lineEnd + 1;
    if (partStart < 0) return parts;
  }
  // Without its closing delimiter (a truncated or careless sender), the last part runs to the end.
  if (partStart >= 0) addPart(partStart, body.length);
  return parts;
}

/**
 * The message inside Direct's "whole message wrapped" form (RFC 5751 §3.1: the signed content is a
 * message/rfc822 entity holding the full message), unwrapped as many levels as there are; other entities
 * are returned as they are.
 */
export function unwrapMessage(bytes: Uint8Array): Buffer {
  let current = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let depth = 0; ; depth++) {
    const entity = readEntity(current);
    if (contentTypeOf(entity).mediaType !== 'message/rfc822') return current;
    if (depth >= MAX_WRAPPING_DEPTH) throw new Error(`The message is wrapped in more than ${MAX_WRAPPING_DEPTH} message/rfc822 layers.`);
    current = decodedBody(entity);
  }
}
