import { createRequire } from 'node:module';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { getDocument, ImageKind, OPS, VerbosityLevel, type PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { MAX_IMAGE_PIXELS } from '@clinicrelay/contracts/attachments.ts';
import type { ExtractionHits } from '../../db/schema/intake.ts';
import { findPatient, isCueLabel, PATIENT_FIELDS, type PatientField } from './find-patient.ts';
import { nothingFound, unreadable, type ExtractionResult } from './extract-in-worker.ts';
import { tesseractOcr, type OcrEngine, type OcrPage, type OcrWord } from './ocr.ts';

// Patient extraction from a PDF: the text layer of each page (pdfjs), and for pages without one (scans,
// faxes) OCR of the page's images. pdfjs cannot rasterize a page in Node without a canvas package,
// which is not installed; a scanned page is a full-page image though, so the images drawn by the page's
// operator list (decoded by pdfjs: JPEG, CCITT fax, Flate) are handed to tesseract instead.

export interface ExtractOptions {
  // null: no OCR (pages without text stay unread).
  ocr: OcrEngine | null;
  // OCR is the slow part: only pages among the first few are read by it.
  maxOcrPages?: number;
  today?: Date;
  // Below these a field is left empty (the bench passes zeros to see every value with its confidence).
  minConfidence?: Record<PatientField, number>;
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

export interface PositionedText {
  str: string;
  transform: number[];
  width: number;
  hasEOL: boolean;
}

// The page's text in reading lines: a new line when the baseline moves, a space for a gap, two for a
// column gap (the patterns read a wide gap as the end of a value).
export async function pageText(page: PDFPageProxy): Promise<string> {
  return itemsText((await page.getTextContent()).items as PositionedText[]);
}

function itemsText(items: PositionedText[]): string {
  let out = '';
  let lastY: number | undefined;
  let lastEnd: number | undefined;
  for (const item of items) {
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

// A run of text on one baseline, without a column gap inside it (x, y in page space, y up).
export interface Cell {
  text: string;
  x: number;
  end: number;
  y: number;
  size: number;
}

// The page's cells grouped in rows, top to bottom and left to right, from the text items' positions
// (transform[4], transform[5]) rather than their order in the content stream.
export function layoutRows(items: PositionedText[]): Cell[][] {
  const words = items
    .filter((i) => typeof i.str === 'string' && i.str.trim())
    .map((i) => {
      const [, , , d = 10, x = 0, y = 0] = i.transform;
      return { text: i.str, x, end: x + i.width, y, size: Math.abs(d) || 10 };
    })
    .sort((a, b) => b.y - a.y || a.x - b.x);
  const rows: Cell[][] = [];
  for (const word of words) {
    const row = rows.find((r) => Math.abs(r[0]!.y - word.y) <= word.size * 0.4);
    if (row) row.push(word);
    else rows.push([word]);
  }
  return rows
    .sort((a, b) => b[0]!.y - a[0]!.y)
    .map((row) => {
      const cells: Cell[] = [];
      for (const word of row.sort((a, b) => a.x - b.x)) {
        const last = cells.at(-1);
        if (last && word.x - last.end <= word.size * 1.2) {
          last.text = `${last.text}${word.x - last.end > word.size * 0.15 && !last.text.endsWith(' ') && !word.text.startsWith(' ') ? ' ' : ''}${word.text}`;
          last.end = Math.max(last.end, word.end);
        } else cells.push({ ...word });
      }
      return cells.map((c) => ({ ...c, text: c.text.trim() }));
    });
}

// A cell that is only a label of a patient field, its value elsewhere: "Patient Name", "DOB", "Sex",
// "2. PATIENT'S NAME (Last Name, First Name, Middle Initial)", "3. PATIENT'S BIRTH DATE".
const BARE_LABEL =
  /^(?:\d{1,2}[a-z]?\.\s*)?(?:(?:Patient|Pt\.?|Child|Student|Camper|Member|Client|Resident)(?:['’]s)?\s+)?(?:(?:Full\s+|Legal\s+|First\s+|Given\s+|Last\s+|Family\s+|Middle\s+)?Name|Patient|Surname|Middle\s+Initial|MI|DOB|D\.O\.B\.?|Date\s+of\s+Birth|Birth\s*Date|Birthdate|Sex|Gender)(?:\s*\([^)]*\))?\s*:?$/i;
// Words of a table's or a form's column headings; a row of cells that all have one (no digits, few words) is a label row.
const HEADING_WORD =
  /\b(?:name|dob|birth|sex|gender|age|mrn|id|no|number|account|acct|accession|collected|received|reported|specimen|ordering|provider|physician|doctor|location|room|date|visit|encounter|phone|telephone|address|ssn|insurance|status|test|result|units|reference|range|flag|member|group|policy|insured|relationship|city|state|zip|signature|mi|race|ethnicity|language)\b|#/i;
// A label by its words ("Client", "Birthdate", "Sex (M/F)"), not only by the list above.
const bareLabel = (text: string) => BARE_LABEL.test(text) || isCueLabel(text);
const isLabelCell = (cell: Cell) => {
  const text = cell.text.replace(/^\d{1,2}[a-z]?\.\s*/, '');
  return bareLabel(cell.text) || (HEADING_WORD.test(text) && !/\d/.test(text.replace(/\([^)]*\)/g, '')) && text.split(/\s+/).length <= 8);
};
// A row of format hints under a label ("MM DD YY", "mm/dd/yyyy"): the values are in the row after it.
const FORMAT_HINT = /^(?:[MDY]{2,4}[\s/.|-]*)+$/i;

// Labels above their values, read by column: a table's header row with the values in the row below (lab
// reports), or a form's label with its boxes under it (claim forms). Each pair comes out as a
// "Label: value" line; the heading above the label row is repeated first so a "Care Team" section stays
// someone else's.
export function columnPairs(rows: Cell[][]): string[] {
  const out: string[] = [];
  rows.forEach((row, r) => {
    // Only a row of labels is read by column: "Patient Name    Jane Public" has its value beside the label.
    // One cell may be a word no label list has (an OCR misreading like "Phane") when two others are patient labels.
    const others = row.filter((cell) => !isLabelCell(cell));
    const oneUnknownWord = others.length === 1 && /^\p{L}+$/u.test(others[0]!.text) && row.filter((cell) => bareLabel(cell.text)).length >= 2;
    if (others.length && !oneUnknownWord) return;
    // "Name:  Chen, Wei" has its value beside it in the row: only labels without one are read by column.
    const labels = row
      .map((cell, i) => ({ cell, i }))
      .filter(({ cell, i }) => bareLabel(cell.text) && !(cell.text.endsWith(':') && row[i + 1] && !bareLabel(row[i + 1]!.text)));
    if (!labels.length) return;
    // The values: the next row within two lines' height, past a row of format hints.
    let below = rows[r + 1];
    const size = row[0]!.size;
    if (below && below.every((c) => FORMAT_HINT.test(c.text.replace(/\s+/g, ' ')))) below = rows[r + 2];
    if (!below || row[0]!.y - below[0]!.y > size * 4) return;
    const pairs: string[] = [];
    for (const { cell, i } of labels) {
      const next = row[i + 1];
      // The label's column: from its start (less a little, values may start just left of it) to the next cell of the row.
      const from = cell.x - size;
      const to = next ? next.x - size * 0.5 : Infinity;
      // A cell that is itself "Label: value" is no value of the label above it.
      const values = below.filter((v) => v.x >= from && v.x < to && !bareLabel(v.text) && !/^[^:]{1,40}:(?:\s|$)/.test(v.text));
      if (values.length) pairs.push(`${cell.text.replace(/\s*:$/, '')}: ${values.map((v) => v.text).join(' ')}`);
    }
    if (!pairs.length) return;
    const heading = rows
      .slice(Math.max(0, r - 3), r)
      .reverse()
      .find((h) => h.length === 1 && !/[:\d]/.test(h[0]!.text));
    // A page break line first, so the headings of the text above are not taken for this block's.
    out.push('\f', ...(heading ? [heading[0]!.text] : []), ...pairs);
  });
  return out;
}

const withPairs = (text: string, rows: Cell[][]) => {
  const pairs = columnPairs(rows);
  return pairs.length ? `${text}\n${pairs.join('\n')}`.trim() : text;
};

// The text of a page for the patterns: its reading lines, then the label/value pairs read by column.
export async function pageLayoutText(page: PDFPageProxy): Promise<string> {
  const items = (await page.getTextContent()).items as PositionedText[];
  return withPairs(itemsText(items), layoutRows(items));
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

// The label words the patterns look for, and real words one letter away from them that must stay as they are.
const LABEL_WORDS = ['Patient', 'Name', 'DOB', 'Sex', 'Gender', 'Birth', 'Birthdate', 'Date', 'First', 'Last', 'Middle'];
const REAL_WORDS = new Set(['dos', 'doa', 'sec', 'age', 'fax', 'tax', 'same', 'game', 'late', 'data', 'list', 'fast', 'mast', 'past', 'vast', 'cast', 'lost', 'firth']);

// Levenshtein distance up to 2 (more is reported as 2).
function nearlySame(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 1) return 2;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return Math.min(2, previous[b.length]!);
}

// An unsure OCR word one letter off a label ("Fatient Name:", "DCB:", "Narne:") is that label when it ends with a
// colon or comes right before a label that does; real words one letter away ("DOS:", "Age:") are left alone.
function correctLabel(word: OcrWord, next: string | undefined): string {
  const [, stem = '', colon = ''] = /^(.*?)([:;]?)$/.exec(word.text) ?? [];
  if (word.confidence >= 93 || stem.length < 3 || REAL_WORDS.has(stem.toLowerCase())) return word.text;
  if (!colon && !(next && /^(?:Name|DOB|Date|Sex|Gender|Birth)[:;]$/i.test(next))) return word.text;
  const label = LABEL_WORDS.find((l) => l.length === 3 === (stem.length === 3) && nearlySame(stem.toLowerCase(), l.toLowerCase()) === 1);
  return label ? `${stem === stem.toUpperCase() && stem.length > 3 ? label.toUpperCase() : label}${colon}` : word.text;
}

// OCR's usual slips on a form's labels, undone: a label run into its value ("SexF"), its colon read as a full
// stop, comma or semicolon ("Patient. Anne-Marie", "Sex, Male", "Name;"), a letter misread ("Fatient").
function ocrWords(word: OcrWord, next: string | undefined): OcrWord[] {
  const joined = /^(Sex|Gender|DOB)([A-Z\d].*)$/.exec(word.text);
  if (joined) {
    const split = word.x0 + ((word.x1 - word.x0) * joined[1]!.length) / word.text.length;
    // Half a letter apart, so the two read as two words.
    const half = (word.x1 - word.x0) / word.text.length / 2;
    return [{ ...word, text: `${joined[1]}:`, x1: split - half }, { ...word, text: joined[2]!, x0: split + half }];
  }
  if (next && /^(?:Patient|Name|DOB|Sex|Gender)[.,;]$/.test(word.text)) return [{ ...word, text: `${word.text.slice(0, -1)}:` }];
  return [{ ...word, text: correctLabel(word, next).replace(/;$/, ':') }];
}

// OCR's words as text items in page space (y up), so a scanned page is read by row and column like a text
// layer: a wide gap between words is a column, a label's value may be in the row below. Speck-made "words"
// (much smaller than the page's letters, or a few letters smeared over a wide box) are dropped.
export function ocrItems(page: OcrPage): PositionedText[] {
  const words = page.lines.flatMap((l) => l.words);
  const sure = words.filter((w) => w.confidence >= 60 && /\p{L}{2}/u.test(w.text));
  const height = median(sure.map((w) => w.y1 - w.y0)) || 20;
  const charWidth = median(sure.map((w) => (w.x1 - w.x0) / w.text.length)) || height / 2;
  const items: PositionedText[] = [];
  for (const line of page.lines) {
    const kept = line.words.filter(
      (w) =>
        w.text.trim() &&
        w.y1 - w.y0 >= height * 0.45 &&
        (w.x1 - w.x0) / w.text.length <= charWidth * 2.5 &&
        // Unsure marks without a letter or digit ("~~", "©") or with brackets no name or date has ("Il}") are noise.
        (w.confidence >= 50 || /[\p{L}\d]/u.test(w.text)) &&
        (w.confidence >= 60 || !/[{}[\]|~©®«»_]/.test(w.text)),
    );
    const size = median(kept.map((w) => w.y1 - w.y0)) || height;
    const { x0, y0, x1, y1 } = line.baseline;
    // The baseline under the word's middle (tesseract follows a slanted line).
    const baseline = (x: number) => (x1 === x0 ? y0 : y0 + ((y1 - y0) * (x - x0)) / (x1 - x0));
    for (const w of kept.flatMap((word, i) => ocrWords(word, kept[i + 1]?.text))) {
      items.push({ str: w.text, transform: [size, 0, 0, size, w.x0, -baseline((w.x0 + w.x1) / 2)], width: w.x1 - w.x0, hasEOL: false });
    }
  }
  return items;
}

// A scanned page's text: its rows top to bottom, cells two spaces apart (a column gap), then the pairs read by column.
export function ocrPageText(page: OcrPage): string {
  const rows = layoutRows(ocrItems(page));
  return withPairs(rows.map((row) => row.map((c) => c.text).join('  ')).join('\n'), rows);
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
  despeckle(grey, width, height);
  return grey;
}

// Fax and scanner specks made paper: dark blobs of a few pixels (smaller than a full stop at this
// resolution) that tesseract would otherwise read as "Co", "oo" or ":" between a label and its value.
function despeckle(grey: Uint8Array, width: number, height: number): void {
  const maxSpeck = Math.max(2, Math.round(width / 600));
  const seen = new Uint8Array(grey.length);
  const blob: number[] = [];
  for (let start = 0; start < grey.length; start++) {
    if (seen[start] || grey[start]! >= 128) continue;
    blob.length = 0;
    blob.push(start);
    seen[start] = 1;
    // Flood fill (8-connected), given up once the blob is bigger than a speck.
    for (let k = 0; k < blob.length && blob.length <= maxSpeck; k++) {
      const at = blob[k]!;
      const x = at % width;
      const y = (at - x) / width;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          const ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
          const n = ny * width + nx;
          if (!seen[n] && grey[n]! < 128) {
            seen[n] = 1;
            blob.push(n);
          }
        }
      }
    }
    if (blob.length <= maxSpeck) for (const at of blob) grey[at] = 255;
  }
}

interface Pixels {
  grey: Uint8Array;
  width: number;
  height: number;
}

// The pixels resampled (bilinear) by sx and sy: a standard-resolution fax is 204 x 98 dpi, so its rows are
// doubled for letters to keep their shape.
function resample({ grey, width, height }: Pixels, sx: number, sy: number): Pixels {
  const w = Math.round(width * sx);
  const h = Math.round(height * sy);
  if (w === width && h === height) return { grey, width, height };
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    const fy = Math.min(height - 1, Math.max(0, (y + 0.5) / sy - 0.5));
    const y0 = Math.floor(fy);
    const y1 = Math.min(height - 1, y0 + 1);
    const ty = fy - y0;
    for (let x = 0; x < w; x++) {
      const fx = Math.min(width - 1, Math.max(0, (x + 0.5) / sx - 0.5));
      const x0 = Math.floor(fx);
      const x1 = Math.min(width - 1, x0 + 1);
      const tx = fx - x0;
      const top = grey[y0 * width + x0]! * (1 - tx) + grey[y0 * width + x1]! * tx;
      const bottom = grey[y1 * width + x0]! * (1 - tx) + grey[y1 * width + x1]! * tx;
      out[y * w + x] = Math.round(top * (1 - ty) + bottom * ty);
    }
  }
  return { grey: out, width: w, height: h };
}

// The pixels as the page shows them: a photo placed turned or mirrored (an EXIF orientation the rendition
// honoured) is turned the same way, or OCR would read a sideways page. Only quarter turns and mirrors.
function asDrawn(pixels: Pixels, ctm: Matrix): Pixels {
  const [a, b, c, d] = ctm;
  const swap = Math.abs(b) > Math.abs(a) && Math.abs(c) > Math.abs(d);
  if (!swap && a > 0 && d > 0) return pixels;
  const { grey, width, height } = pixels;
  const [w, h] = swap ? [height, width] : [width, height];
  const out = new Uint8Array(w * h);
  // The unit square's u (along a stored row) and v (up from the last stored row) axes, on the page (y up).
  const ux = swap ? Math.sign(b) : Math.sign(a);
  const vx = swap ? Math.sign(c) : 0;
  for (let j = 0; j < height; j++) {
    for (let i = 0; i < width; i++) {
      // u along the row, v from the top row down (stored row 0 is drawn at v = 1).
      const u = i;
      const v = height - 1 - j;
      let X: number;
      let Y: number;
      if (swap) {
        // u runs along the page's y, v along its x.
        X = vx > 0 ? v : height - 1 - v;
        Y = Math.sign(b) > 0 ? width - 1 - u : u;
      } else {
        X = ux > 0 ? u : width - 1 - u;
        Y = Math.sign(d) > 0 ? height - 1 - v : v;
      }
      out[Y * w + X] = grey[j * width + i]!;
    }
  }
  return { grey: out, width: w, height: h };
}

// A PGM file: the simplest format tesseract's image reader takes.
function toPgm({ grey, width, height }: Pixels): Uint8Array {
  const header = new TextEncoder().encode(`P5\n${width} ${height}\n255\n`);
  const out = new Uint8Array(header.length + grey.length);
  out.set(header);
  out.set(grey, header.length);
  return out;
}

// A scanned page ready for OCR: a PGM file and its resolution (from the size it is drawn at).
export interface PageImage {
  pgm: Uint8Array;
  dpi: number;
}

// The large images a page draws (a scanned page), biggest first.
export async function pageImages(page: PDFPageProxy, limit = 2): Promise<PageImage[]> {
  const operators = await page.getOperatorList();
  const found: { image: DecodedImage; scaleX: number; scaleY: number; ctm: Matrix }[] = [];
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
      found.push({ image, scaleX: Math.hypot(ctm[0], ctm[1]), scaleY: Math.hypot(ctm[2], ctm[3]), ctm });
    }
  }
  found.sort((a, b) => b.image.width * b.image.height - a.image.width * a.image.height);
  const files: PageImage[] = [];
  for (const { image, scaleX, scaleY, ctm } of found.slice(0, limit)) {
    const grey = toGrey(image);
    if (!grey) continue;
    const ratio = scaleY / image.height / (scaleX / image.width);
    const stretched = resample({ grey, width: image.width, height: image.height }, 1, Number.isFinite(ratio) && ratio >= 1.5 ? Math.min(4, Math.round(ratio)) : 1);
    const pgm = toPgm(asDrawn(stretched, ctm));
    files.push({ pgm, dpi: Math.round(image.width / (scaleX / 72)) });
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
      let text = await pageLayoutText(page);
      if (countChars(text) < MIN_TEXT_CHARS && options.ocr && number <= maxOcrPages) {
        try {
          const read: string[] = [];
          for (const image of await pageImages(page)) read.push(ocrPageText(await options.ocr.recognize(image.pgm, image.dpi)));
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
  const found = findPatient(text, options.today, options.minConfidence);
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
    noMatch: !PATIENT_FIELDS.some((f) => hits[f]) && !found.conflicts,
    conflicts: found.conflicts,
    conflictingFields: found.conflicting,
    inferredFields: found.inferred,
    severalPeople: found.severalPeople,
    perfectMatch,
    confidenceIsVeryHigh: perfectMatch && PATIENT_FIELDS.every((f) => found.confidence[f] >= VERY_HIGH),
    ocrPages: read.ocrPages,
  };
}

// Called in a file worker: the PDF is parsed, its images decoded and read by OCR there.
export const extractPatientWithOcr = (bytes: Uint8Array, today: Date | undefined) => extractPatient(bytes, { ocr: tesseractOcr, today });
