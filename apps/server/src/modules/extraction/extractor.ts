import { createRequire } from 'node:module';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { getDocument, ImageKind, OPS, VerbosityLevel, type PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { MAX_IMAGE_PIXELS } from '@clinicrelay/contracts/attachments.ts';
import type { ExtractedPatient, ExtractionHits } from '../../db/schema/intake.ts';
import { findPatient, PATIENT_FIELDS, type PatientField } from './find-patient.ts';
import { WorkerFailure, type WorkerPool } from '../../platform/workers/worker-pool.ts';
import { tesseractOcr, type OcrEngine } from './ocr.ts';

// Patient extraction from a PDF: the text layer of each page (pdfjs), and for pages without one (scans,
// faxes) OCR of the page's images. pdfjs cannot rasterize a page in Node without a canvas package,
// which is not installed; a scanned page is a full-page image though, so the images drawn by the page's
// operator list (decoded by pdfjs: JPEG, CCITT fax, Flate) are handed to tesseract instead.

export interface ExtractionMeasures {
  elapsedMs: number;
  noText: boolean;
  error: boolean;
  noMatch: boolean;
  conflicts: boolean;
  perfectMatch: boolean;
  confidenceIsVeryHigh: boolean;
  hits: ExtractionHits;
}

export interface ExtractionResult extends ExtractionMeasures {
  patient: ExtractedPatient;
  confidence: Record<PatientField, number>;
  // Pages read by OCR (1-based), for diagnostics and tests.
  ocrPages: number[];
}

export interface ExtractOptions {
  // null: no OCR (pages without text stay unread).
  ocr: OcrEngine | null;
  // OCR is the slow part: only pages among the first few are read by it.
  maxOcrPages?: number;
  today?: Date;
}

export const MAX_OCR_PAGES = 3;
// A page with fewer characters than this in its text layer is treated as a scan (a fax header line is not text).
const MIN_TEXT_CHARS = 40;
// Images smaller than this (logos, signatures) are not a scanned page.
const MIN_IMAGE_PIXELS = 120_000;
// A field this sure, in a perfect match, makes the run's confidence very high.
const VERY_HIGH = 0.9;

const pdfjsDir = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
const standardFontDataUrl = `${path.join(pdfjsDir, 'standard_fonts')}${path.sep}`;

export async function openPdf(bytes: Uint8Array) {
  // pdfjs may take over the buffer it is given: it gets a copy.
  // Images over the upload's pixel budget are skipped, not decoded: a PDF can hold a decompression bomb too.
  const task = getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, disableFontFace: true, standardFontDataUrl, maxImageSize: MAX_IMAGE_PIXELS, verbosity: VerbosityLevel.ERRORS });
  return { task, document: await task.promise };
}

interface PositionedText {
  str: string;
  transform: number[];
  width: number;
  hasEOL: boolean;
}

// The page's text in reading lines: a new line when the baseline moves, a space for a gap, two for a
// column gap (the patterns read a wide gap as the end of a value).
export async function pageText(page: PDFPageProxy): Promise<string> {
  const content = await page.getTextContent();
  let out = '';
  let lastY: number | undefined;
  let lastEnd: number | undefined;
  for (const item of content.items as PositionedText[]) {
    if (typeof item.str !== 'string') continue;
    // Spaces are judged from the gap between words, so a column gap pdfjs fills with one space still reads as one.
    if (!item.str.trim()) {
      if (item.hasEOL && !out.endsWith('\n')) out = `${out.trimEnd()}\n`;
      continue;
    }
    const [, , , d = 10, x = 0, y = 0] = item.transform;
    const size = Math.abs(d) || 10;
    if (lastY !== undefined && Math.abs(y - lastY) > size * 0.5) {
      if (!out.endsWith('\n')) out = `${out.trimEnd()}\n`;
    } else if (lastEnd !== undefined && item.str && !out.endsWith('\n')) {
      const gap = x - lastEnd;
      if (gap > size * 1.5) out = `${out.trimEnd()}  `;
      else if (gap > size * 0.15 && !out.endsWith(' ') && !item.str.startsWith(' ')) out += ' ';
    }
    out += item.str;
    if (item.hasEOL && !out.endsWith('\n')) out = `${out.trimEnd()}\n`;
    lastY = y;
    lastEnd = x + item.width;
  }
  return out.trim();
}

interface DecodedImage {
  width: number;
  height: number;
  kind?: number;
  data?: Uint8Array | Uint8ClampedArray;
}

type Matrix = [number, number, number, number, number, number];
const multiply = (m: Matrix, n: Matrix): Matrix => [
  m[0] * n[0] + m[2] * n[1],
  m[1] * n[0] + m[3] * n[1],
  m[0] * n[2] + m[2] * n[3],
  m[1] * n[2] + m[3] * n[3],
  m[0] * n[4] + m[2] * n[5] + m[4],
  m[1] * n[4] + m[3] * n[5] + m[5],
];

// 8-bit grey pixels from a pdfjs image object (1-bit, RGB or RGBA), mostly white like a page.
function toGrey(image: DecodedImage): Uint8Array | null {
  const { width, height, data } = image;
  if (!data) return null;
  const grey = new Uint8Array(width * height);
  if (image.kind === ImageKind.GRAYSCALE_1BPP || image.kind === undefined) {
    const rowBytes = (width + 7) >> 3;
    if (data.length < rowBytes * height) return null;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) grey[y * width + x] = data[y * rowBytes + (x >> 3)]! & (0x80 >> (x & 7)) ? 255 : 0;
    }
  } else {
    const channels = image.kind === ImageKind.RGBA_32BPP ? 4 : 3;
    if (data.length < width * height * channels) return null;
    for (let i = 0, o = 0; o < grey.length; i += channels, o++) grey[o] = Math.round(0.299 * data[i]! + 0.587 * data[i + 1]! + 0.114 * data[i + 2]!);
  }
  // Masks and some fax encodings come out inverted: a page is mostly paper.
  let dark = 0;
  for (let i = 0; i < grey.length; i += 7) if (grey[i]! < 128) dark++;
  if (dark * 7 > grey.length / 2) for (let i = 0; i < grey.length; i++) grey[i] = 255 - grey[i]!;
  return grey;
}

// A PGM file (the simplest format tesseract's image reader takes). Rows are repeated when the image was
// drawn taller than its pixels say (a standard-resolution fax is 204 x 98 dpi), so letters keep their shape.
function toPgm(grey: Uint8Array, width: number, height: number, rowRepeat: number): Uint8Array {
  const header = new TextEncoder().encode(`P5\n${width} ${height * rowRepeat}\n255\n`);
  const out = new Uint8Array(header.length + width * height * rowRepeat);
  out.set(header);
  for (let y = 0; y < height; y++) {
    const row = grey.subarray(y * width, (y + 1) * width);
    for (let r = 0; r < rowRepeat; r++) out.set(row, header.length + (y * rowRepeat + r) * width);
  }
  return out;
}

// The large images a page draws (a scanned page), biggest first, as PGM files ready for OCR.
export async function pageImages(page: PDFPageProxy, limit = 2): Promise<Uint8Array[]> {
  const operators = await page.getOperatorList();
  const found: { image: DecodedImage; scaleX: number; scaleY: number }[] = [];
  const stack: Matrix[] = [];
  let ctm: Matrix = [1, 0, 0, 1, 0, 0];
  const objectOf = (id: string) =>
    new Promise<DecodedImage | null>((resolve) => {
      const objs = id.startsWith('g_') ? page.commonObjs : page.objs;
      try {
        objs.get(id, (value: unknown) => resolve((value as DecodedImage | null) ?? null));
      } catch {
        resolve(null);
      }
    });
  for (let i = 0; i < operators.fnArray.length; i++) {
    const fn = operators.fnArray[i];
    const args = operators.argsArray[i] as unknown[];
    if (fn === OPS.save) stack.push(ctm);
    else if (fn === OPS.restore) ctm = stack.pop() ?? ctm;
    else if (fn === OPS.transform) ctm = multiply(ctm, args as Matrix);
    else if (fn === OPS.paintImageXObject || fn === OPS.paintInlineImageXObject || fn === OPS.paintImageMaskXObject) {
      const image = typeof args[0] === 'string' ? await objectOf(args[0]) : (args[0] as DecodedImage | undefined);
      if (!image?.data || image.width * image.height < MIN_IMAGE_PIXELS) continue;
      // The unit square the image fills, in page space: its drawn width and height.
      found.push({ image, scaleX: Math.hypot(ctm[0], ctm[1]), scaleY: Math.hypot(ctm[2], ctm[3]) });
    }
  }
  found.sort((a, b) => b.image.width * b.image.height - a.image.width * a.image.height);
  const files: Uint8Array[] = [];
  for (const { image, scaleX, scaleY } of found.slice(0, limit)) {
    const grey = toGrey(image);
    if (!grey) continue;
    const ratio = scaleY / image.height / (scaleX / image.width);
    files.push(toPgm(grey, image.width, image.height, Number.isFinite(ratio) && ratio >= 1.5 ? Math.min(4, Math.round(ratio)) : 1));
  }
  return files;
}

const countChars = (text: string) => text.replace(/\s+/g, '').length;

// The document's text, page by page: the text layer, or OCR of the page's images for a scan.
export async function readPdfText(bytes: Uint8Array, options: ExtractOptions): Promise<{ pages: string[]; ocrPages: number[]; ocrFailed: boolean }> {
  const { task, document } = await openPdf(bytes);
  const maxOcrPages = options.maxOcrPages ?? MAX_OCR_PAGES;
  const pages: string[] = [];
  const ocrPages: number[] = [];
  let ocrFailed = false;
  try {
    for (let number = 1; number <= document.numPages; number++) {
      const page = await document.getPage(number);
      let text = await pageText(page);
      if (countChars(text) < MIN_TEXT_CHARS && options.ocr && number <= maxOcrPages) {
        try {
          const read: string[] = [];
          for (const image of await pageImages(page)) read.push(await options.ocr.recognize(image));
          if (read.length) {
            ocrPages.push(number);
            text = [text, ...read].join('\n').trim();
          }
        } catch {
          ocrFailed = true;
        }
      }
      pages.push(text);
      page.cleanup();
    }
  } finally {
    await task.destroy();
  }
  return { pages, ocrPages, ocrFailed };
}

const noHits = (): ExtractionHits => ({ first: false, middle: false, last: false, dob: false, gender: false });
const emptyPatient = (): ExtractedPatient => ({ firstName: null, middleName: null, lastName: null, birthDate: null, gender: null });

const nothingFound = () => ({ patient: emptyPatient(), confidence: { first: 0, middle: 0, last: 0, dob: 0, gender: 0 }, hits: noHits(), noMatch: false, conflicts: false, perfectMatch: false, confidenceIsVeryHigh: false });
const unreadable = (elapsedMs: number): ExtractionResult => ({ ...nothingFound(), elapsedMs, noText: false, error: true, ocrPages: [] });

// The whole run, with the measures recorded per organization. Never throws: an unreadable PDF is `error`.
export async function extractPatient(bytes: Uint8Array, options: ExtractOptions): Promise<ExtractionResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const nothing = nothingFound();
  let read: Awaited<ReturnType<typeof readPdfText>>;
  try {
    read = await readPdfText(bytes, options);
  } catch {
    return unreadable(elapsed());
  }
  const text = read.pages.join('\n\f\n');
  if (countChars(text) === 0) return { ...nothing, elapsedMs: elapsed(), noText: true, error: read.ocrFailed, ocrPages: read.ocrPages };
  const found = findPatient(text, options.today);
  const hits: ExtractionHits = {
    first: !!found.patient.firstName,
    middle: !!found.patient.middleName,
    last: !!found.patient.lastName,
    dob: !!found.patient.birthDate,
    gender: !!found.patient.gender,
  };
  const perfectMatch = PATIENT_FIELDS.every((f) => hits[f]) && !found.conflicts;
  return {
    patient: found.patient,
    confidence: found.confidence,
    hits,
    elapsedMs: elapsed(),
    noText: false,
    error: false,
    noMatch: !PATIENT_FIELDS.some((f) => hits[f]),
    conflicts: found.conflicts,
    perfectMatch,
    confidenceIsVeryHigh: perfectMatch && PATIENT_FIELDS.every((f) => found.confidence[f] >= VERY_HIGH),
    ocrPages: read.ocrPages,
  };
}

// Called in a file worker: the PDF is parsed, its images decoded and read by OCR there.
export const extractPatientWithOcr = (bytes: Uint8Array, today: Date | undefined) => extractPatient(bytes, { ocr: tesseractOcr, today });

// The run in a worker of the pool; a PDF that ends its worker (memory, time) is unreadable, like a broken one.
export async function extractInWorker(pool: WorkerPool, bytes: Uint8Array, today: Date): Promise<ExtractionResult> {
  const started = performance.now();
  try {
    return await pool.run<ExtractionResult>({ module: import.meta.url, fn: 'extractPatientWithOcr', args: [bytes, today] });
  } catch (error) {
    if (error instanceof WorkerFailure) return unreadable(Math.round(performance.now() - started));
    throw error;
  }
}
