import {
  attachmentMessages,
  MAX_ATTACHMENT_BYTES,
  supportedExtensions,
  type SupportedExtension,
} from '@clinicrelay/contracts/attachments.ts';

export type FileKind = 'pdf' | 'image' | 'text' | 'structured';

export interface FileType {
  mimeType: string;
  kind: FileKind;
}

// The set and its reasons live with supportedExtensions in contracts; this adds what the server needs.
export const fileTypes: Record<SupportedExtension, FileType> = {
  pdf: { mimeType: 'application/pdf', kind: 'pdf' },
  png: { mimeType: 'image/png', kind: 'image' },
  jpg: { mimeType: 'image/jpeg', kind: 'image' },
  jpeg: { mimeType: 'image/jpeg', kind: 'image' },
  gif: { mimeType: 'image/gif', kind: 'image' },
  tif: { mimeType: 'image/tiff', kind: 'image' },
  tiff: { mimeType: 'image/tiff', kind: 'image' },
  txt: { mimeType: 'text/plain', kind: 'text' },
  xml: { mimeType: 'application/xml', kind: 'structured' },
  cda: { mimeType: 'application/xml', kind: 'structured' },
  ccd: { mimeType: 'application/xml', kind: 'structured' },
  // The media type HL7's "HL7 over HTTP" uses for pipe-delimited (ER7) v2 messages.
  hl7: { mimeType: 'x-application/hl7-v2+er7', kind: 'structured' },
};

export type DetectedFileType =
  | { ok: true; extension: SupportedExtension; mimeType: string; kind: FileKind }
  | { ok: false; message: string };

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));
const signatures = {
  png: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  jpeg: [0xff, 0xd8, 0xff],
  gif87: ascii('GIF87a'),
  gif89: ascii('GIF89a'),
  tiffLittleEndian: [0x49, 0x49, 0x2a, 0x00],
  tiffBigEndian: [0x4d, 0x4d, 0x00, 0x2a],
  pdf: ascii('%PDF-'),
};

const startsWith = (bytes: Uint8Array, signature: number[]) => signature.every((b, i) => bytes[i] === b);

// Like Acrobat, accept a PDF header anywhere in the first 1024 bytes: some scanners write junk before it.
const hasPdfHeader = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 1024)).includes('%PDF-');

const isKnownBinary = (bytes: Uint8Array) => Object.values(signatures).some((s) => startsWith(bytes, s));

// Lower-cased extension without its dot; undefined when the name has none.
export function fileExtension(fileName: string): string | undefined {
  const dot = fileName.lastIndexOf('.');
  if (dot < 0 || dot === fileName.length - 1) return undefined;
  return fileName.slice(dot + 1).toLowerCase();
}

const isSupported = (extension: string): extension is SupportedExtension =>
  (supportedExtensions as readonly string[]).includes(extension);

// Text as clinics' systems write it: UTF-8, UTF-16 with a byte-order mark (Notepad "Unicode"), or Windows-1252.
export function decodeText(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

// A NUL character never occurs in text: its presence means a binary file renamed to .txt or .xml.
function readableText(bytes: Uint8Array): string | undefined {
  if (isKnownBinary(bytes)) return undefined;
  const text = decodeText(bytes);
  return text.includes('\0') ? undefined : text;
}

const looksLikeXml = (text: string) => text.trimStart().startsWith('<');
// HL7 v2 pipe-delimited (ER7): a message header, or a file/batch header, followed by the field separator.
const looksLikeHl7 = (text: string) => /^(MSH|FHS|BHS)[^\w\s]/.test(text.trimStart()) || looksLikeXml(text);

function contentMatches(extension: SupportedExtension, bytes: Uint8Array): boolean {
  switch (extension) {
    case 'pdf':
      return hasPdfHeader(bytes);
    case 'png':
      return startsWith(bytes, signatures.png);
    case 'jpg':
    case 'jpeg':
      return startsWith(bytes, signatures.jpeg);
    case 'gif':
      return startsWith(bytes, signatures.gif87) || startsWith(bytes, signatures.gif89);
    case 'tif':
    case 'tiff':
      return startsWith(bytes, signatures.tiffLittleEndian) || startsWith(bytes, signatures.tiffBigEndian);
    case 'txt':
      return readableText(bytes) !== undefined;
    case 'xml':
    case 'cda':
    case 'ccd': {
      const text = readableText(bytes);
      return text !== undefined && looksLikeXml(text);
    }
    case 'hl7': {
      const text = readableText(bytes);
      return text !== undefined && looksLikeHl7(text);
    }
  }
}

// The upload checks of end-user §5 in the order a user fixes them, plus the content (magic bytes) check,
// so a file's name never decides alone how the server treats its bytes.
export function detectFileType(bytes: Uint8Array, fileName: string): DetectedFileType {
  if (bytes.length === 0) return { ok: false, message: attachmentMessages.empty };
  if (bytes.length > MAX_ATTACHMENT_BYTES) return { ok: false, message: attachmentMessages.tooLarge };
  const extension = fileExtension(fileName);
  if (!extension || !isSupported(extension)) {
    return { ok: false, message: attachmentMessages.unsupportedType(extension && `.${extension}`) };
  }
  if (!contentMatches(extension, bytes)) return { ok: false, message: attachmentMessages.contentMismatch(fileName, extension) };
  return { ok: true, extension, ...fileTypes[extension] };
}
