import jpeg from 'jpeg-js';
import { concatTransformationMatrix, drawObject, PDFDocument, type PDFFont, type PDFPage, popGraphicsState, pushGraphicsState, rgb, StandardFonts } from 'pdf-lib';
import { typedPage } from '../scanned-page.ts';
import type { Row } from './layouts.ts';
import type { Rng } from './people.ts';

// Renders a corpus layout: as a text PDF (pdf-lib, each cell at its x and y), as a scanned page (8-bit JPEG
// at 200 dpi, skewed, speckled) or as a standard-resolution fax (1-bit, 200 x 100 dpi, skewed, speckled).

const FIXED_DATE = new Date('2026-01-15T12:00:00Z');

// pdf-lib stamps the time of saving: a fixed one keeps the bytes the same for the same seed.
async function newPdf(): Promise<PDFDocument> {
  const pdf = await PDFDocument.create();
  pdf.setCreationDate(FIXED_DATE);
  pdf.setModificationDate(FIXED_DATE);
  pdf.setProducer('ClinicRelay extraction corpus');
  return pdf;
}

export const textPdf = (rows: Row[]) => textPdfPages([rows]);

// Several pages of rows (a letter whose header and footer repeat on every page).
export async function textPdfPages(pages: Row[][]): Promise<Uint8Array> {
  const pdf = await newPdf();
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  for (const rows of pages) drawRows(pdf.addPage([612, 792]), rows, regular, bold);
  return pdf.save();
}

function drawRows(page: PDFPage, rows: Row[], regular: PDFFont, bold: PDFFont): void {
  let y = 750;
  for (const r of rows) {
    y -= r.gap ?? 15;
    if (y < 40) break;
    for (const cell of r.cells) page.drawText(cell.text, { x: cell.x, y, size: cell.size ?? 10, font: cell.bold ? bold : regular });
    if (r.boxes) {
      for (let i = 0; i + 1 < r.boxes.length; i++) {
        page.drawRectangle({ x: r.boxes[i]!, y: y - 5, width: r.boxes[i + 1]! - r.boxes[i]!, height: 5 + (r.boxReach ?? 12), borderColor: rgb(0, 0, 0), borderWidth: 0.6 });
      }
    }
    if (r.rule) page.drawLine({ start: { x: 54, y: y - 5 }, end: { x: 558, y: y - 5 }, thickness: 0.8 });
  }
}

// A row as one typed line: each cell starts near its x (in characters of a 10-point face), or after a wide gap.
export function rowsAsLines(rows: Row[]): string[] {
  return rows.map((r) => {
    let line = '';
    for (const cell of [...r.cells].sort((a, b) => a.x - b.x)) {
      const column = Math.round((cell.x - 54) / 5.5);
      line = line ? (line.length + 4 <= column ? line.padEnd(column) : `${line}    `) : ' '.repeat(Math.max(0, Math.min(column, 6)));
      line += cell.text;
    }
    return line;
  });
}

// The page turned by `degrees` about its centre (nearest pixel; paper shows where the page had none).
function rotate(pixels: Uint8Array, width: number, height: number, degrees: number): Uint8Array {
  const out = new Uint8Array(width * height).fill(255);
  const a = (degrees * Math.PI) / 180;
  const cos = Math.cos(a);
  const sin = Math.sin(a);
  const cx = width / 2;
  const cy = height / 2;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const sx = Math.round(cos * (x - cx) + sin * (y - cy) + cx);
      const sy = Math.round(-sin * (x - cx) + cos * (y - cy) + cy);
      if (sx >= 0 && sx < width && sy >= 0 && sy < height) out[y * width + x] = pixels[sy * width + sx]!;
    }
  }
  return out;
}

// Scanner grain and dust: a little grey noise on every pixel and rare dark specks.
function speckle(pixels: Uint8Array, rng: Rng, specks: number, grain: number): void {
  for (let i = 0; i < pixels.length; i++) {
    if (grain) pixels[i] = Math.max(0, Math.min(255, pixels[i]! + Math.round((rng.next() - 0.5) * grain)));
  }
  for (let n = 0; n < specks; n++) {
    const at = Math.floor(rng.next() * pixels.length);
    pixels[at] = 0;
    if (at + 1 < pixels.length) pixels[at + 1] = 0;
  }
}

export interface ImageOptions {
  skewDegrees: number;
  rng: Rng;
  // A fax's cover sheet, sent as the first page (the document is the second).
  cover?: string[];
}

// A scanned page: 200 dpi grey, skewed, grainy, as a JPEG filling the page.
export async function scannedPdf(lines: string[], { skewDegrees, rng }: ImageOptions): Promise<Uint8Array> {
  const page = typedPage(lines.slice(0, 36), { size: 30 });
  const pixels = rotate(page.pixels, page.width, page.height, skewDegrees);
  speckle(pixels, rng, 1000, 40);
  const rgba = new Uint8Array(page.width * page.height * 4);
  for (let i = 0; i < pixels.length; i++) rgba.set([pixels[i]!, pixels[i]!, pixels[i]!, 255], i * 4);
  const image = jpeg.encode({ width: page.width, height: page.height, data: rgba }, 75);
  const pdf = await newPdf();
  const embedded = await pdf.embedJpg(image.data);
  pdf.addPage([612, 792]).drawImage(embedded, { x: 0, y: 0, width: 612, height: 792 });
  return pdf.save();
}

// A standard-resolution fax: typed at 200 dpi, skewed and speckled, thresholded to black and white, then
// every two rows made one (200 x 100 dpi, a dark pixel in either wins), stored as a 1-bit grey image
// (Flate; fax machines use CCITT G3/G4, which pdfjs decodes to the same 1-bit pixels).
export async function faxPdf(lines: string[], { skewDegrees, rng, cover }: ImageOptions): Promise<Uint8Array> {
  const pdf = await newPdf();
  for (const page of cover ? [cover, lines] : [lines]) addFaxPage(pdf, page, skewDegrees, rng);
  return pdf.save();
}

function addFaxPage(pdf: PDFDocument, lines: string[], skewDegrees: number, rng: Rng): void {
  const page = typedPage(lines.slice(0, 36), { size: 30 });
  const pixels = rotate(page.pixels, page.width, page.height, skewDegrees);
  speckle(pixels, rng, 1000, 0);
  const width = page.width;
  const height = Math.floor(page.height / 2);
  const rowBytes = (width + 7) >> 3;
  // DeviceGray, 1 bit: 1 is white.
  const packed = new Uint8Array(rowBytes * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const dark = pixels[2 * y * width + x]! < 160 || pixels[(2 * y + 1) * width + x]! < 160;
      if (!dark) packed[y * rowBytes + (x >> 3)]! |= 0x80 >> (x & 7);
    }
  }
  const stream = pdf.context.flateStream(packed, { Type: 'XObject', Subtype: 'Image', Width: width, Height: height, ColorSpace: 'DeviceGray', BitsPerComponent: 1 });
  const ref = pdf.context.register(stream);
  const pdfPage = pdf.addPage([612, 792]);
  const name = pdfPage.node.newXObject('Fax', ref);
  pdfPage.pushOperators(pushGraphicsState(), concatTransformationMatrix(612, 0, 0, 792, 0, 0), drawObject(name), popGraphicsState());
}
