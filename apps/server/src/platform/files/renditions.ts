import { deflateSync } from 'node:zlib';
import { GifReader } from 'omggif';
import {
  beginText,
  concatTransformationMatrix,
  degrees,
  drawObject,
  endText,
  moveText,
  nextLine,
  PDFDocument,
  popGraphicsState,
  pushGraphicsState,
  setLineHeight,
  type PDFImage,
  type PDFRef,
} from 'pdf-lib';
import UTIF, { type IFD } from 'utif';
import { attachmentMessages, MAX_IMAGE_PIXELS, type SupportedExtension } from '@clinicrelay/contracts/attachments.ts';
import { badRequest } from '../errors.ts';
import { PdfText } from '../pdf/text.ts';
import { decodeText } from './file-types.ts';
import { tiffPageChain } from './image-frames.ts';
import { asOrientation, imageBudgetRefusal, imageOrientations, type Orientation } from './image-size.ts';

// US Letter in points: what US clinics print and fax on, so every preview page has one predictable size.
const LETTER = { width: 612, height: 792 };
const IMAGE_MARGIN = 18;

// The PDF the viewer shows for an attachment; null for structured files, which are previewed as text.
export async function makePdfRendition(
  bytes: Uint8Array,
  file: { extension: SupportedExtension; fileName: string },
): Promise<Uint8Array | null> {
  // Files stored before the upload checked the budget are held to it too.
  const overBudget = imageBudgetRefusal(bytes, file.extension);
  if (overBudget) throw badRequest(overBudget);
  switch (file.extension) {
    case 'pdf':
      return bytes;
    case 'png':
      return imagesToPdf(async (pdf) => [fromPdfImage(await pdf.embedPng(bytes), imageOrientations(bytes, 'png')[0])]);
    case 'jpg':
    case 'jpeg':
      return imagesToPdf(async (pdf) => [fromPdfImage(await pdf.embedJpg(bytes), imageOrientations(bytes, 'jpg')[0])]);
    case 'gif':
      return imagesToPdf(async (pdf) => [fromRaster(pdf, gifFirstFrame(bytes))]);
    case 'tif':
    case 'tiff':
      return imagesToPdf(function* (pdf) {
        for (const page of tiffPages(bytes)) yield fromRaster(pdf, page);
      });
    case 'txt':
      return textToPdf(decodeText(bytes), file.fileName);
    case 'xml':
    case 'cda':
    case 'ccd':
    case 'hl7':
      return null;
  }
}

interface Dpi {
  x: number;
  y: number;
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

// An image ready to be placed: its stored pixel size, resolution and EXIF orientation, and the image XObject.
interface PageImage {
  width: number;
  height: number;
  dpi: Dpi;
  orientation: Orientation;
  ref: PDFRef;
}

interface Raster {
  width: number;
  height: number;
  rgba: Uint8Array;
  dpi: Dpi;
  orientation: Orientation;
}

const SCREEN_DPI = { x: 72, y: 72 };

async function imagesToPdf(embed: (pdf: PDFDocument) => Iterable<PageImage> | Promise<Iterable<PageImage>>): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  for (const image of await embed(pdf)) addImagePage(pdf, image);
  return pdf.save();
}

// One Letter page per image, turned landscape for wide images; scaled down to fit but never enlarged, so a
// small image stays sharp and a 300 dpi scan or a fax page (its own x and y resolution) keeps its proportions.
// The image is shown as its EXIF orientation says (a phone photo of a letter, stored landscape and tagged
// "turn 90°", is a portrait page), by the matrix that places it: the stored pixels (a JPEG's own DCT data) are
// embedded as they are, nothing is decoded or re-encoded.
function addImagePage(pdf: PDFDocument, image: PageImage): void {
  const stored = { width: (image.width * 72) / image.dpi.x, height: (image.height * 72) / image.dpi.y };
  const natural = image.orientation >= 5 ? { width: stored.height, height: stored.width } : stored;
  const size = natural.width > natural.height ? { width: LETTER.height, height: LETTER.width } : LETTER;
  const scale = Math.min(1, (size.width - 2 * IMAGE_MARGIN) / natural.width, (size.height - 2 * IMAGE_MARGIN) / natural.height);
  const width = natural.width * scale;
  const height = natural.height * scale;
  const page = pdf.addPage([size.width, size.height]);
  const box = { x: (size.width - width) / 2, y: (size.height - height) / 2, width, height };
  const name = page.node.newXObject('Image', image.ref);
  page.pushOperators(pushGraphicsState(), concatTransformationMatrix(...imageMatrix(box, image.orientation)), drawObject(name), popGraphicsState());
}

// Where each EXIF orientation puts a point of the stored image (u rightwards, v downwards, 0 to 1) in the
// image as shown (u', v'): u' = p0 + pu·u + pv·v and v' = q0 + qu·u + qv·v, as [p0, pu, pv, q0, qu, qv].
const ORIENTATION_MAPS: Record<Orientation, readonly [number, number, number, number, number, number]> = {
  1: [0, 1, 0, 0, 0, 1],
  2: [1, -1, 0, 0, 0, 1],
  3: [1, -1, 0, 1, 0, -1],
  4: [0, 1, 0, 1, 0, -1],
  5: [0, 0, 1, 0, 1, 0],
  6: [1, 0, -1, 0, 1, 0],
  7: [1, 0, -1, 1, -1, 0],
  8: [0, 0, 1, 1, -1, 0],
};

// The matrix that paints the image (PDF image space: the unit square, its first row at the top) into the
// box of the page (y upwards), turned and mirrored as its orientation says.
function imageMatrix(box: Box, orientation: Orientation): [number, number, number, number, number, number] {
  const [p0, pu, pv, q0, qu, qv] = ORIENTATION_MAPS[orientation];
  // Image space (s, t) is stored (u, v) = (s, 1 - t).
  return [box.width * pu, -box.height * qu, -box.width * pv, box.height * qv, box.x + box.width * (p0 + pv), box.y + box.height * (1 - q0 - qv)];
}

const fromPdfImage = (image: PDFImage, orientation: Orientation = 1): PageImage => ({
  width: image.width,
  height: image.height,
  dpi: SCREEN_DPI,
  orientation,
  ref: image.ref,
});

// Decoded pixels go into the PDF as one Flate image, grey or 1-bit when they allow it, compressed with
// Node's zlib: re-encoding them as PNG for pdf-lib would expand a fax page to RGB and take seconds per page.
function fromRaster(pdf: PDFDocument, raster: Raster): PageImage {
  const { data, colorSpace, bitsPerComponent } = compactPixels(raster);
  const stream = pdf.context.stream(deflateSync(data), {
    Type: 'XObject',
    Subtype: 'Image',
    Width: raster.width,
    Height: raster.height,
    ColorSpace: colorSpace,
    BitsPerComponent: bitsPerComponent,
    Filter: 'FlateDecode',
  });
  return { width: raster.width, height: raster.height, dpi: raster.dpi, orientation: raster.orientation, ref: pdf.context.register(stream) };
}

// Transparent pixels are laid on white paper, so no soft mask is needed; a black-and-white fax page
// becomes 1 bit per pixel, a grey image 8, anything else RGB.
function compactPixels({ width, height, rgba }: Raster): { data: Uint8Array; colorSpace: string; bitsPerComponent: number } {
  const rgb = new Uint8Array(width * height * 3);
  let grey = true;
  let bilevel = true;
  for (let i = 0, o = 0; i < rgba.length; i += 4, o += 3) {
    const alpha = rgba[i + 3]! / 255;
    const r = Math.round(rgba[i]! * alpha + 255 * (1 - alpha));
    const g = Math.round(rgba[i + 1]! * alpha + 255 * (1 - alpha));
    const b = Math.round(rgba[i + 2]! * alpha + 255 * (1 - alpha));
    rgb[o] = r;
    rgb[o + 1] = g;
    rgb[o + 2] = b;
    if (r !== g || r !== b) grey = false;
    if (r !== 0 && r !== 255) bilevel = false;
  }
  if (!grey) return { data: rgb, colorSpace: 'DeviceRGB', bitsPerComponent: 8 };
  if (!bilevel) return { data: rgb.filter((_, i) => i % 3 === 0), colorSpace: 'DeviceGray', bitsPerComponent: 8 };
  const rowBytes = Math.ceil(width / 8);
  const bits = new Uint8Array(rowBytes * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (rgb[(y * width + x) * 3] === 255) bits[y * rowBytes + (x >> 3)]! |= 0x80 >> (x & 7);
    }
  }
  return { data: bits, colorSpace: 'DeviceGray', bitsPerComponent: 1 };
}

// The decoder's own reading of a frame's size, held to the budget just before it allocates the pixels
// (the upload's header check reads the same fields; this holds whatever the two might read differently).
function assertWithinBudget(width: unknown, height: unknown): void {
  const pixels = Math.abs(Number(width) * Number(height));
  if (!(pixels <= MAX_IMAGE_PIXELS)) throw badRequest(attachmentMessages.imageTooLarge);
}

// A GIF in a document is a still image: only its first frame is kept.
function gifFirstFrame(bytes: Uint8Array): Raster {
  const gif = new GifReader(bytes);
  assertWithinBudget(gif.width, gif.height);
  for (let frame = 0; frame < gif.numFrames(); frame++) assertWithinBudget(gif.frameInfo(frame).width, gif.frameInfo(frame).height);
  const rgba = new Uint8Array(gif.width * gif.height * 4);
  gif.decodeAndBlitFrameRGBA(0, rgba);
  return { width: gif.width, height: gif.height, rgba, dpi: SCREEN_DPI, orientation: 1 };
}

// Every page of a TIFF (a fax is one TIFF of many pages), skipping embedded thumbnails; decoded one page
// at a time, so a long fax never holds all its pages' pixels in memory.
function* tiffPages(bytes: Uint8Array): Generator<Raster> {
  // UTIF reads offsets from the ArrayBuffer's start, so hand it a buffer of its own.
  const buffer = bytes.slice().buffer;
  // UTIF follows the page chain without end: a chain that loops is refused before it is handed over.
  if (!tiffPageChain(new DataView(buffer)).complete) throw new Error('The TIFF page chain is broken.');
  const ifds = UTIF.decode(buffer).filter((ifd) => ifd.t256 !== undefined && ((firstNumber(ifd.t254) ?? 0) & 1) === 0);
  if (ifds.length === 0) throw new Error('The TIFF file holds no image.');
  for (const ifd of ifds) assertWithinBudget(firstValue(ifd.t256), firstValue(ifd.t257));
  for (const ifd of ifds) {
    UTIF.decodeImage(buffer, ifd);
    const rgba = UTIF.toRGBA8(ifd);
    ifd.data = new Uint8Array(0);
    yield { width: ifd.width, height: ifd.height, rgba, dpi: tiffDpi(ifd), orientation: asOrientation(firstNumber(ifd.t274)) };
  }
}

// The first value of a tag as the decoder uses it (an array, or bytes for BYTE and UNDEFINED tags).
const firstValue = (value: unknown): unknown => (Array.isArray(value) || value instanceof Uint8Array ? value[0] : value);

const firstNumber = (value: unknown): number | undefined =>
  Array.isArray(value) && typeof value[0] === 'number' ? value[0] : undefined;

// Fax pages are 204 x 98 or 204 x 196 dpi: without the resolution a standard fax page is drawn twice as tall.
function tiffDpi(ifd: IFD): Dpi {
  const x = firstNumber(ifd.t282);
  const y = firstNumber(ifd.t283);
  if (!x || !y) return SCREEN_DPI;
  const perInch = firstNumber(ifd.t296) === 3 ? 2.54 : 1;
  return { x: x * perInch, y: y * perInch };
}

const TEXT = { size: 10, lineHeight: 12, margin: 54, headerSize: 8, tabStop: 8 };

// Plain text on Letter pages in Courier (columns of reports and lab printouts stay aligned), wrapped at
// words, a form feed starting a new page as printers do, with the file name and page number in a header.
// Characters Courier lacks (Greek, Cyrillic, CJK, Arabic, Hebrew, emoji…) are drawn in embedded Noto fonts.
async function textToPdf(text: string, fileName: string): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const body = new PdfText(pdf, { monospace: true });
  const header = new PdfText(pdf);
  const lineWidth = LETTER.width - 2 * TEXT.margin;
  // A window of the line is searched for the cut, so a huge line without breaks costs linear time.
  const window = 4 * Math.floor(lineWidth / body.width('M', TEXT.size));
  const rows = Math.floor((LETTER.height - 2 * TEXT.margin - TEXT.lineHeight) / TEXT.lineHeight);

  const pages: string[][] = [];
  // CRLF (Windows) and a lone CR (old Mac) end lines as LF does.
  const normalized = text.replace(/\r\n?/g, '\n');
  const sections = normalized.split('\f');
  // A report that ends with a form feed (as printed ones do) has no blank page after it.
  if (sections.length > 1 && sections.at(-1)!.trim() === '') sections.pop();
  for (const section of sections) {
    const lines = section.split('\n').flatMap((line) => wrap(expandTabs(line), body, lineWidth, window));
    for (let i = 0; i < Math.max(lines.length, 1); i += rows) pages.push(lines.slice(i, i + rows));
  }

  const title = fileName.replace(/[\n\f]/g, ' ');
  const top = LETTER.height - TEXT.margin;
  pages.forEach((lines, index) => {
    const page = pdf.addPage([LETTER.width, LETTER.height]);
    const pageLabel = `Page ${index + 1} of ${pages.length}`;
    const headerWidth = header.width(pageLabel, TEXT.headerSize);
    header.draw(page, title, { x: TEXT.margin, y: top, size: TEXT.headerSize });
    header.draw(page, pageLabel, { x: LETTER.width - TEXT.margin - headerWidth, y: top, size: TEXT.headerSize });
    // One text object per page rather than drawText per line: four times faster on long files.
    const current = {};
    page.pushOperators(
      beginText(),
      setLineHeight(TEXT.lineHeight),
      moveText(TEXT.margin, top - 2 * TEXT.lineHeight),
      ...lines.flatMap((line) => [...body.operators(page, line, TEXT.size, 'regular', current), nextLine()]),
      endText(),
    );
  });
  return pdf.save();
}

// Tabs to the next stop of 8 columns, as printers and `expand` set them, so tab-separated columns stay aligned.
function expandTabs(line: string): string {
  if (!line.includes('\t')) return line;
  let out = '';
  let column = 0;
  for (const char of line) {
    const spaces = char === '\t' ? TEXT.tabStop - (column % TEXT.tabStop) : 0;
    out += spaces ? ' '.repeat(spaces) : char;
    column += spaces || 1;
  }
  return out;
}

// Cuts a line where it passes the width, at the last space that keeps it within (else mid-word).
function wrap(line: string, body: PdfText, width: number, window: number): string[] {
  const out: string[] = [];
  let rest = line.trimEnd();
  for (;;) {
    // Never end the window inside a surrogate pair.
    const head = rest.length > window ? rest.slice(0, /[\uD800-\uDBFF]/.test(rest[window - 1]!) ? window - 1 : window) : rest;
    if (head === rest && body.width(rest, TEXT.size) <= width) break;
    const fits = body.fit(head, TEXT.size, width);
    const space = rest.lastIndexOf(' ', fits.length);
    const cut = space > 0 ? space : fits.length || String.fromCodePoint(rest.codePointAt(0)!).length;
    out.push(rest.slice(0, cut));
    rest = rest.slice(cut).replace(/^ /, '');
  }
  out.push(rest);
  return out;
}

export async function pdfPageCount(bytes: Uint8Array): Promise<number> {
  // Counting pages does not need the password: most protected PDFs only restrict changes.
  const pdf = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false });
  return pdf.getPageCount();
}

export interface PdfTransforms {
  // Zero-based page indexes of the document as it is before this change.
  rotations?: { page: number; degrees: number }[];
  deletions?: number[];
}

// Rotations add to a page's current rotation; deletions name pages of the original numbering.
export async function transformPdf(bytes: Uint8Array, transforms: PdfTransforms): Promise<Uint8Array> {
  const pdf = await loadForChange(bytes);
  const count = pdf.getPageCount();
  const checkPage = (page: number) => {
    if (!Number.isInteger(page) || page < 0 || page >= count) throw badRequest(attachmentMessages.pageNotFound(page + 1));
  };
  for (const { page, degrees: angle } of transforms.rotations ?? []) {
    checkPage(page);
    if (!Number.isInteger(angle) || angle % 90 !== 0) throw badRequest(attachmentMessages.rotationNotRightAngle);
    const target = pdf.getPage(page);
    target.setRotation(degrees((((target.getRotation().angle + angle) % 360) + 360) % 360));
  }
  const deletions = [...new Set(transforms.deletions ?? [])].sort((a, b) => b - a);
  deletions.forEach(checkPage);
  if (deletions.length >= count) throw badRequest(attachmentMessages.cannotRemoveEveryPage);
  for (const page of deletions) pdf.removePage(page);
  return pdf.save();
}

// pdf-lib's EncryptedPDFError is compiled to ES5 and fails `instanceof`: encryption is asked of the
// loaded document instead.
async function loadForChange(bytes: Uint8Array): Promise<PDFDocument> {
  let pdf: PDFDocument;
  try {
    pdf = await PDFDocument.load(bytes, { updateMetadata: false, ignoreEncryption: true });
  } catch {
    // Only parsing happens here: a file pdf-lib cannot parse is damaged, not a server fault.
    throw badRequest(attachmentMessages.pdfDamaged);
  }
  if (pdf.isEncrypted) throw badRequest(attachmentMessages.pdfProtected);
  return pdf;
}
