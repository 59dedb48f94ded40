import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import UTIF, { type IFD } from 'utif';

// Test and benchmark support: files an outside probe sends (a decompression bomb, password-protected
// and damaged PDFs) and a long fax, made byte by byte so no tool has to be installed.

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (bytes: Uint8Array) => {
  let c = 0xffffffff;
  for (const b of bytes) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};

function pngChunk(type: string, data: Uint8Array): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const out = Buffer.alloc(body.length + 8);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE(crc32(body), body.length + 4);
  return out;
}

// A valid PNG header announcing width x height grey pixels, with a few KB of compressed rows: the shape
// of a decompression bomb (a 30000 x 30000 PNG of 150 KB decodes to gigabytes).
export function pngBomb(width: number, height: number): Uint8Array {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8);
  // The first rows only: a decoder would have to allocate the whole image before finding out.
  const rows = deflateSync(Buffer.alloc((width + 1) * Math.min(height, 64)));
  return new Uint8Array(
    Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), pngChunk('IHDR', header), pngChunk('IDAT', rows), pngChunk('IEND', new Uint8Array(0))]),
  );
}

// A fax as scanners and fax servers write it: `pages` bilevel pages of 1728 x 2200 (fine resolution,
// 204 x 196 dpi), uncompressed, each with a few lines of "text" so pages are not blank.
export function faxTiff(pages: number, size = { width: 1728, height: 2200 }): Uint8Array {
  const rowBytes = Math.ceil(size.width / 8);
  const pageBytes = rowBytes * size.height;
  const page = new Uint8Array(pageBytes);
  // WhiteIsZero: set bits are black; a few bands of "text" lines.
  for (let y = 200; y < size.height - 200; y += 60) page.fill(0x5a, y * rowBytes + 20, y * rowBytes + rowBytes - 20);
  const start = 8192 + pages * 256;
  const ifds = Array.from({ length: pages }, (_, i) => ({
    t256: [size.width],
    t257: [size.height],
    t258: [1],
    t259: [1],
    t262: [0],
    t273: [start + i * pageBytes],
    t277: [1],
    t278: [size.height],
    t279: [pageBytes],
    t282: [204],
    t283: [196],
    t296: [2],
  }));
  const header = new Uint8Array(UTIF.encode(ifds as unknown as IFD[]));
  if (header.length > start) throw new Error('TIFF header larger than planned.');
  const tiff = new Uint8Array(start + pages * pageBytes);
  tiff.set(header);
  for (let i = 0; i < pages; i++) tiff.set(page, start + i * pageBytes);
  return tiff;
}

// --- PDFs -----------------------------------------------------------------------------------------

const PAD = Buffer.from('28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a', 'hex');
const md5 = (...parts: Uint8Array[]) => createHash('md5').update(Buffer.concat(parts)).digest();
const padded = (password: string) => Buffer.concat([Buffer.from(password, 'latin1'), PAD]).subarray(0, 32);

function rc4(key: Uint8Array, data: Uint8Array): Buffer {
  const s = Array.from({ length: 256 }, (_, i) => i);
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i]! + key[i % key.length]!) & 0xff;
    [s[i], s[j]] = [s[j]!, s[i]!];
  }
  const out = Buffer.alloc(data.length);
  for (let n = 0, i = 0, j = 0; n < data.length; n++) {
    i = (i + 1) & 0xff;
    j = (j + s[i]!) & 0xff;
    [s[i], s[j]] = [s[j]!, s[i]!];
    out[n] = data[n]! ^ s[(s[i]! + s[j]!) & 0xff]!;
  }
  return out;
}

interface PdfObject {
  dict: string;
  stream?: Uint8Array;
}

// Objects numbered from 1, a classic cross-reference table, and the trailer entries given.
function writePdf(objects: PdfObject[], trailer: string): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  const offsets: number[] = [];
  let length = parts[0]!.length;
  objects.forEach((object, i) => {
    offsets.push(length);
    const body = object.stream
      ? Buffer.concat([Buffer.from(`${i + 1} 0 obj\n${object.dict.replace(/>>$/, `/Length ${object.stream.length}>>`)}\nstream\n`, 'latin1'), object.stream, Buffer.from('\nendstream\nendobj\n')])
      : Buffer.from(`${i + 1} 0 obj\n${object.dict}\nendobj\n`, 'latin1');
    parts.push(body);
    length += body.length;
  });
  const xref = [`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`, ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`)].join('');
  parts.push(Buffer.from(`${xref}trailer\n<</Size ${objects.length + 1}/Root 1 0 R${trailer}>>\nstartxref\n${length}\n%%EOF\n`, 'latin1'));
  return Buffer.concat(parts);
}

const letterPage = (content: string): PdfObject[] => [
  { dict: '<</Type/Catalog/Pages 2 0 R>>' },
  { dict: '<</Type/Pages/Kids[3 0 R]/Count 1>>' },
  { dict: '<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]/Contents 4 0 R/Resources<</Font<</F1 5 0 R>>>>>>' },
  { dict: '<<>>', stream: Buffer.from(content, 'latin1') },
  { dict: '<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>' },
];

const PAGE_TEXT = 'BT /F1 18 Tf 72 700 Td (Referral for Maria Alvarez) Tj ET';

// A one-page PDF, well formed.
export const simplePdf = (): Uint8Array => new Uint8Array(writePdf(letterPage(PAGE_TEXT), ''));

// A one-page PDF encrypted with the standard security handler (RC4, 40 bits): with a user password it
// cannot be opened without it; with only an owner password it opens but restricts changes.
export function encryptedPdf(passwords: { user?: string; owner: string }): Uint8Array {
  const id = md5(Buffer.from(`${passwords.user ?? ''}:${passwords.owner}`));
  const permissions = -44; // printing only
  const ownerKey = md5(padded(passwords.owner)).subarray(0, 5);
  const o = rc4(ownerKey, padded(passwords.user ?? ''));
  const p = Buffer.alloc(4);
  p.writeInt32LE(permissions);
  const key = md5(padded(passwords.user ?? ''), o, p, id).subarray(0, 5);
  const u = rc4(key, PAD);
  const objects = letterPage(PAGE_TEXT);
  // Streams are encrypted with a key of their own object number.
  const objectKey = (n: number) => md5(key, Buffer.from([n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, 0, 0])).subarray(0, 10);
  objects[3] = { dict: '<<>>', stream: rc4(objectKey(4), Buffer.from(PAGE_TEXT, 'latin1')) };
  objects.push({ dict: `<</Filter/Standard/V 1/R 2/O<${o.toString('hex')}>/U<${u.toString('hex')}>/P ${permissions}>>` });
  const hex = id.toString('hex');
  return new Uint8Array(writePdf(objects, `/Encrypt ${objects.length} 0 R/ID[<${hex}><${hex}>]`));
}

// A PDF whose cross-reference table points at the wrong offsets (as some scanners write): readers
// rebuild the table by scanning the objects.
export function brokenXrefPdf(): Uint8Array {
  const text = writePdf(letterPage(PAGE_TEXT), '').toString('latin1');
  return new Uint8Array(Buffer.from(text.replace(/^(\d{10}) 00000 n $/gm, (_, offset: string) => `${String(Number(offset) + 7).padStart(10, '0')} 00000 n `), 'latin1'));
}

// The first half of a PDF: a download or a transfer cut off midway.
export const truncatedPdf = (pdf: Uint8Array): Uint8Array => pdf.slice(0, Math.floor(pdf.length / 2));

// The EXIF of a phone photo reduced to its Orientation tag: a big-endian TIFF structure with one IFD entry.
function exifOrientationTiff(orientation: number): Buffer {
  const tiff = Buffer.alloc(26);
  tiff.write('MM', 0, 'latin1');
  tiff.writeUInt16BE(42, 2);
  tiff.writeUInt32BE(8, 4);
  tiff.writeUInt16BE(1, 8);
  tiff.writeUInt16BE(0x0112, 10); // Orientation
  tiff.writeUInt16BE(3, 12); // SHORT
  tiff.writeUInt32BE(1, 14);
  tiff.writeUInt16BE(orientation, 18);
  return tiff;
}

// A JPEG or PNG with an EXIF Orientation (as a camera writes it: the pixels stored as the sensor saw them,
// the tag saying how to turn them): an APP1 segment after the JPEG's SOI, an eXIf chunk after the PNG's IHDR.
export function withExifOrientation(image: Uint8Array, orientation: number): Uint8Array {
  const exif = exifOrientationTiff(orientation);
  const bytes = Buffer.from(image.buffer, image.byteOffset, image.byteLength);
  if (bytes[0] === 0xff && bytes[1] === 0xd8) {
    const app1 = Buffer.alloc(4);
    app1.writeUInt16BE(0xffe1, 0);
    app1.writeUInt16BE(2 + 6 + exif.length, 2);
    return new Uint8Array(Buffer.concat([bytes.subarray(0, 2), app1, Buffer.from('Exif\0\0', 'latin1'), exif, bytes.subarray(2)]));
  }
  // Signature (8) and IHDR (4 + 4 + 13 + 4).
  const afterHeader = 33;
  return new Uint8Array(Buffer.concat([bytes.subarray(0, afterHeader), pngChunk('eXIf', exif), bytes.subarray(afterHeader)]));
}

// --- Images whose frames announce more than their first header -----------------------------------

// The GIF of the outside probe, 35 bytes: a 100 x 100 screen holding one 65535 x 65535 frame (a frame
// may be larger than the screen; decoders allocate the frame).
export function gifFrameBomb(): Uint8Array {
  const screen = [...Buffer.from('GIF89a', 'latin1'), 100, 0, 100, 0, 0, 0, 0];
  const frame = [0x2c, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0];
  // LZW code size 2, one sub-block of 8 bytes, its end, the trailer.
  return new Uint8Array([...screen, ...frame, 2, 8, 0x84, 0x8f, 0xa9, 0xcb, 0xed, 0x0f, 0xa3, 0x9c, 0, 0x3b]);
}

// An animated PNG: a 10 x 10 default image, then a frame control chunk announcing width x height.
export function apngFrameBomb(width: number, height: number): Uint8Array {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(10, 0);
  ihdr.writeUInt32BE(10, 4);
  ihdr.set([8, 0, 0, 0, 0], 8);
  const actl = Buffer.alloc(8);
  actl.writeUInt32BE(1, 0);
  const fctl = Buffer.alloc(26);
  fctl.writeUInt32BE(0, 0);
  fctl.writeUInt32BE(width, 4);
  fctl.writeUInt32BE(height, 8);
  const rows = deflateSync(Buffer.alloc(11 * 10));
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      pngChunk('IHDR', ihdr),
      pngChunk('acTL', actl),
      pngChunk('fcTL', fctl),
      pngChunk('IDAT', rows),
      pngChunk('IEND', new Uint8Array(0)),
    ]),
  );
}

// A JPEG whose first frame header is 100 x 100 and a second one, after the first scan, width x height.
export function jpegSecondFrameBomb(width: number, height: number): Uint8Array {
  const sof = (marker: number, w: number, h: number) => [0xff, marker, 0x00, 0x0b, 8, h >> 8, h & 0xff, w >> 8, w & 0xff, 1, 1, 0x11, 0];
  const sos = [0xff, 0xda, 0x00, 0x08, 1, 1, 0, 0, 0x3f, 0];
  // Entropy-coded bytes, with a stuffed 0xFF and a restart marker as real scans have.
  const scan = [0x12, 0x34, 0xff, 0x00, 0x56, 0xff, 0xd0, 0x78];
  return new Uint8Array([0xff, 0xd8, ...sof(0xc0, 100, 100), ...sos, ...scan, ...sof(0xc2, width, height), ...sos, ...scan, 0xff, 0xd9]);
}

// A little-endian TIFF of a 1728 x 2200 page, then a page whose width and height are stored as TIFF
// decoders also read them: SHORT values held out of line (three of them, at an offset), the first one counts.
export function tiffOutOfLineSecondPage(width: number, height: number): Uint8Array {
  const tiff = Buffer.alloc(128);
  tiff.write('II', 0, 'latin1');
  tiff.writeUInt16LE(42, 2);
  tiff.writeUInt32LE(8, 4);
  const entry = (at: number, tag: number, type: number, count: number, value: number) => {
    tiff.writeUInt16LE(tag, at);
    tiff.writeUInt16LE(type, at + 2);
    tiff.writeUInt32LE(count, at + 4);
    tiff.writeUInt32LE(value, at + 8);
  };
  // Page 1 at 8: two LONG entries, then the offset of page 2 (38).
  tiff.writeUInt16LE(2, 8);
  entry(10, 256, 4, 1, 1728);
  entry(22, 257, 4, 1, 2200);
  tiff.writeUInt32LE(38, 34);
  // Page 2 at 38: width and height as three SHORTs each, at 80 and 88; no page after it.
  tiff.writeUInt16LE(2, 38);
  entry(40, 256, 3, 3, 80);
  entry(52, 257, 3, 3, 88);
  tiff.writeUInt32LE(0, 64);
  tiff.writeUInt16LE(width, 80);
  tiff.writeUInt16LE(height, 88);
  return new Uint8Array(tiff);
}

const riffChunk = (type: string, data: Buffer) => {
  const header = Buffer.alloc(8);
  header.write(type, 0, 'latin1');
  header.writeUInt32LE(data.length, 4);
  return Buffer.concat([header, data, Buffer.alloc(data.length & 1)]);
};

const uint24 = (value: number) => Buffer.from([value & 0xff, (value >> 8) & 0xff, (value >> 16) & 0xff]);

// A WebP header only: an extended (VP8X) canvas, or a lossless (VP8L) image, of width x height.
export function webpHeader(kind: 'VP8X' | 'VP8L', width: number, height: number): Uint8Array {
  const chunk =
    kind === 'VP8X'
      ? riffChunk('VP8X', Buffer.concat([Buffer.alloc(4), uint24(width - 1), uint24(height - 1)]))
      : riffChunk('VP8L', (() => {
          const data = Buffer.alloc(5);
          data[0] = 0x2f;
          data.writeUInt32LE(((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14), 1);
          return data;
        })());
  const riff = Buffer.alloc(12);
  riff.write('RIFF', 0, 'latin1');
  riff.writeUInt32LE(4 + chunk.length, 4);
  riff.write('WEBP', 8, 'latin1');
  return new Uint8Array(Buffer.concat([riff, chunk]));
}

// A BMP header only (BITMAPINFOHEADER, 24 bits per pixel) announcing width x height.
export function bmpHeader(width: number, height: number): Uint8Array {
  const bmp = Buffer.alloc(54);
  bmp.write('BM', 0, 'latin1');
  bmp.writeUInt32LE(54, 2);
  bmp.writeUInt32LE(54, 10);
  bmp.writeUInt32LE(40, 14);
  bmp.writeInt32LE(width, 18);
  bmp.writeInt32LE(height, 22);
  bmp.writeUInt16LE(1, 26);
  bmp.writeUInt16LE(24, 28);
  return new Uint8Array(bmp);
}
