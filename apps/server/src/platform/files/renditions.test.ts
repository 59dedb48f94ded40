import { randomUUID } from 'node:crypto';
import { encode as encodePng } from 'fast-png';
import { encode as encodeJpeg } from 'jpeg-js';
import { GifWriter } from 'omggif';
import { PDFDict, PDFDocument, PDFName } from 'pdf-lib';
import { getDocument, ImageKind, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';
import UTIF, { type IFD } from 'utif';
import { describe, expect, it } from 'vitest';
import { attachmentMessages } from '@clinicrelay/contracts/attachments.ts';
import { AppError } from '../errors.ts';
import { INTERNATIONAL_NAMES, pdfLines } from '../../test/pdf-lines.ts';
import { describeWithFixtures, fixture, itWithFixtures } from '../../test/shared-fixtures.ts';
import { createWorkerPool } from '../workers/worker-pool.ts';
import { renderPdf } from './file-jobs.ts';
import { detectFileType } from './file-types.ts';
import { makePdfRendition, pdfPageCount, transformPdf } from './renditions.ts';
import { apngFrameBomb, gifFrameBomb, tiffOutOfLineSecondPage, withExifOrientation } from './sample-files.ts';

const dischargeSummary = fixture('pdf/ud-sample.pdf');
const labResult = fixture('pdf/lab-result-164947.pdf');

// The rendition as an upload makes it: type from the bytes and name, then the PDF.
async function rendition(bytes: Uint8Array, fileName: string): Promise<Uint8Array | null> {
  const type = detectFileType(bytes, fileName);
  if (!type.ok) throw new Error(type.message);
  return makePdfRendition(bytes, { extension: type.extension, fileName });
}

async function renditionPdf(bytes: Uint8Array, fileName: string): Promise<PDFDocument> {
  const pdf = await rendition(bytes, fileName);
  expect(pdf).not.toBeNull();
  return PDFDocument.load(pdf!);
}

// Text as a reader sees it, one string per page, through PDF.js (a different parser than the writer).
async function pdfText(bytes: Uint8Array): Promise<string[]> {
  const task = getDocument({ data: bytes.slice(), verbosity: 0 });
  try {
    const document = await task.promise;
    const pages: string[] = [];
    for (let n = 1; n <= document.numPages; n++) {
      const content = await (await document.getPage(n)).getTextContent();
      pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join('\n'));
    }
    return pages;
  } finally {
    await task.destroy();
  }
}

interface DecodedImage {
  width: number;
  height: number;
  kind: number;
  data: Uint8Array;
}

// The image each page paints, decoded by PDF.js as a viewer would: checks the pixels, not how they are stored.
async function pageImages(bytes: Uint8Array): Promise<DecodedImage[]> {
  const task = getDocument({ data: bytes.slice(), verbosity: 0 });
  try {
    const document = await task.promise;
    const images: DecodedImage[] = [];
    for (let n = 1; n <= document.numPages; n++) {
      const page = await document.getPage(n);
      const operators = await page.getOperatorList();
      const id = operators.argsArray[operators.fnArray.indexOf(OPS.paintImageXObject)][0];
      images.push(await new Promise((resolve) => page.objs.get(id, resolve)));
    }
    return images;
  } finally {
    await task.destroy();
  }
}

const pageSizes = (pdf: PDFDocument) => pdf.getPages().map((p) => [p.getWidth(), p.getHeight()]);

function rgba(width: number, height: number, [r, g, b]: [number, number, number]): Uint8Array {
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < data.length; i += 4) data.set([r, g, b, 255], i);
  return data;
}

// A two-page fax as a TIFF: a colour page at 72 dpi, then a black-and-white page at fax resolution (204 x 98 dpi).
function twoPageTiff(): Uint8Array {
  const width = 24;
  const height = 16;
  const colour = new Uint8Array(width * height * 3).fill(180);
  const bilevel = new Uint8Array(Math.ceil(width / 8) * height).fill(0b10101010);
  const start = 1000;
  const common = { t256: [width], t257: [height], t259: [1], t278: [height], t296: [2] };
  const ifds = [
    { ...common, t258: [8, 8, 8], t262: [2], t273: [start], t277: [3], t279: [colour.length], t282: [72], t283: [72] },
    { ...common, t258: [1], t262: [0], t273: [start + colour.length], t277: [1], t279: [bilevel.length], t282: [204], t283: [98] },
  ];
  const header = new Uint8Array(UTIF.encode(ifds as unknown as IFD[]));
  const tiff = new Uint8Array(start + colour.length + bilevel.length);
  tiff.set(header);
  tiff.set(colour, start);
  tiff.set(bilevel, start + colour.length);
  return tiff;
}

describe('PDF renditions for preview', () => {
  itWithFixtures('keeps a PDF as it is', async () => {
    expect(await rendition(dischargeSummary, 'discharge-summary.pdf')).toBe(dischargeSummary);
  });

  it('puts a PNG on one Letter page, landscape when the image is wide', async () => {
    const wide = encodePng({ width: 60, height: 20, data: rgba(60, 20, [200, 30, 30]), channels: 4, depth: 8 });
    expect(pageSizes(await renditionPdf(wide, 'wound-photo.png'))).toEqual([[792, 612]]);
  });

  it('puts a JPEG on one Letter page', async () => {
    const jpeg = encodeJpeg({ data: rgba(20, 40, [30, 120, 200]), width: 20, height: 40 }, 80).data;
    expect(pageSizes(await renditionPdf(new Uint8Array(jpeg), 'scan.jpg'))).toEqual([[612, 792]]);
  });

  it('decodes a GIF into one page, transparent pixels on white paper', async () => {
    const buffer = new Uint8Array(1024);
    const writer = new GifWriter(buffer, 4, 2, { palette: [0xffffff, 0x000000, 0xff0000, 0x00ff00] });
    writer.addFrame(0, 0, 4, 2, [1, 2, 3, 0, 0, 0, 0, 1], { transparent: 3 });
    const pdf = await rendition(buffer.subarray(0, writer.end()), 'chart.gif');
    const [image] = await pageImages(pdf!);
    expect(image).toMatchObject({ width: 4, height: 2, kind: ImageKind.RGB_24BPP });
    expect([...image!.data.subarray(0, 12)]).toEqual([0, 0, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255]);
  });

  it('refuses an image whose frame or page is over the budget before decoding it, whoever stored it', async () => {
    for (const [bytes, extension] of [
      [gifFrameBomb(), 'gif'],
      [apngFrameBomb(60_000, 60_000), 'png'],
      [tiffOutOfLineSecondPage(60_000, 60_000), 'tif'],
    ] as const) {
      const refusal = await makePdfRendition(bytes, { extension, fileName: `stored.${extension}` }).catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(AppError);
      expect(refusal).toMatchObject({ statusCode: 400, message: attachmentMessages.imageTooLarge });
    }
  });

  it('fails a TIFF whose page chain loops back on itself instead of following it for ever', async () => {
    const tiff = twoPageTiff();
    const view = new DataView(tiff.buffer, tiff.byteOffset, tiff.byteLength);
    const little = view.getUint16(0) === 0x4949;
    const first = view.getUint32(4, little);
    // The last page's next-page offset points back at the first page.
    let last = first;
    for (let next = first; next !== 0; next = view.getUint32(next + 2 + view.getUint16(next, little) * 12, little)) last = next;
    view.setUint32(last + 2 + view.getUint16(last, little) * 12, first, little);
    await expect(makePdfRendition(tiff, { extension: 'tif', fileName: 'looping.tif' })).rejects.toThrow('The TIFF page chain is broken.');
  });

  it('turns every page of a multi-page TIFF (a fax) into a PDF page', async () => {
    const pdf = await renditionPdf(twoPageTiff(), 'incoming-fax.tif');
    expect(pdf.getPageCount()).toBe(2);
    // Same pixels, but the fax page's resolution makes it taller than wide: landscape, then portrait.
    expect(pageSizes(pdf)).toEqual([
      [792, 612],
      [612, 792],
    ]);
    expect(await pdfPageCount(await pdf.save())).toBe(2);

    const [colourPage, faxPage] = await pageImages(await pdf.save());
    expect(colourPage).toMatchObject({ width: 24, height: 16 });
    expect(new Set(colourPage!.data)).toEqual(new Set([180]));
    // Kept at 1 bit per pixel, black first: in PDF grey 0 is black, so the fax's 10101010 (white is zero) reads 01010101.
    expect(faxPage).toMatchObject({ width: 24, height: 16, kind: ImageKind.GRAYSCALE_1BPP });
    expect(new Set(faxPage!.data)).toEqual(new Set([0b01010101]));
  });

  it('sets plain text in pages a reader can search, with the file name and page numbers', async () => {
    const lines = [
      'DISCHARGE NOTE',
      'Patient: Levin, Henry L.    DOB: 01/02/1950',
      `Plan: ${'continue current medications and follow up with the primary care provider '.repeat(3)}`,
      'Allergies: penicillin → rash',
      ...Array.from({ length: 70 }, (_, i) => `Line ${i + 1}`),
    ];
    const pdf = await rendition(new TextEncoder().encode(lines.join('\r\n')), 'discharge-note.txt');
    const pages = await pdfText(pdf!);
    expect(pages).toHaveLength(2);
    expect(pages[0]).toContain('discharge-note.txt');
    expect(pages[0]).toContain('Page 1 of 2');
    expect(pages[0]).toContain('Patient: Levin, Henry L.');
    // Wrapped at a word, not cut through one.
    expect(pages[0]).toMatch(/primary care\nprovider|primary care provider\n/);
    // Characters Courier lacks are drawn in an embedded font (they printed as '?' before issue 9).
    expect((await pdfLines(pdf!))[0]).toContain('Allergies: penicillin → rash');
    expect(pages[1]).toContain('Page 2 of 2');
    expect(pages[1]).toContain('Line 70');
  });

  it('sets a UTF-8 text file in any script as it was written, file name included, with no "?"', async () => {
    const text = [...INTERNATIONAL_NAMES, `Patient: ${INTERNATIONAL_NAMES[0]}\tDOB: 01/02/1950`, 'Private use \uE000 has no glyph'].join('\n');
    const pdf = await rendition(new TextEncoder().encode(text), 'Καλημέρα 患者.txt');
    const [page] = await pdfLines(pdf!);
    expect(page).toEqual([
      'Καλημέρα 患者.txt Page 1 of 1',
      ...INTERNATIONAL_NAMES,
      `Patient: ${INTERNATIONAL_NAMES[0]} DOB: 01/02/1950`,
      // A character no font has is drawn as the replacement character, visibly.
      'Private use \uFFFD has no glyph',
    ]);
    expect(page!.join('')).not.toContain('?');
  });

  it('wraps long lines of mixed scripts within the page, and keeps Courier columns for Latin text', async () => {
    const words = Array.from({ length: 60 }, (_, i) => INTERNATIONAL_NAMES[i % INTERNATIONAL_NAMES.length]);
    const pdf = await rendition(new TextEncoder().encode(`${words.join(' ')}\n${'0123456789'.repeat(12)}`), 'mixed.txt');
    const document = await PDFDocument.load(pdf!);
    expect(document.getPageCount()).toBe(1);
    const [page] = await pdfLines(pdf!);
    // Every word comes back; an Arabic word next to a Hebrew one is one right-to-left stretch, drawn (and so
    // listed by PDF.js) Hebrew first from the left, hence compared as a set.
    expect(page!.slice(1, -2).join(' ').split(' ').sort()).toEqual(words.join(' ').split(' ').sort());
    // 84 Courier columns fit the line, as before.
    expect(page!.slice(-2)).toEqual(['0123456789'.repeat(12).slice(0, 84), '0123456789'.repeat(12).slice(84)]);
  });

  it('makes the text rendition in a file worker, whose thread loads the fonts itself', async () => {
    const pool = createWorkerPool({ size: 1, memoryMb: 256, timeoutMs: 60_000 });
    try {
      const pdf = await renderPdf(pool, new TextEncoder().encode(INTERNATIONAL_NAMES.join('\n')), { extension: 'txt', fileName: 'names.txt' }, randomUUID());
      const [page] = await pdfLines(pdf!);
      expect(page!.slice(1)).toEqual([...INTERNATIONAL_NAMES]);
    } finally {
      await pool.close();
    }
  });

  it('starts a new page at a form feed, as printed reports do', async () => {
    const pdf = await rendition(new TextEncoder().encode('Lab report page one\fLab report page two'), 'lab.txt');
    const pages = await pdfText(pdf!);
    expect(pages).toHaveLength(2);
    expect(pages[1]).toContain('Lab report page two');
  });

  itWithFixtures('makes no PDF for structured files: they are previewed as text', async () => {
    expect(await rendition(fixture('cda/ccd-1.xml'), 'ccd-1.xml')).toBeNull();
    expect(await rendition(fixture('cda/referral-note.xml'), 'referral.cda')).toBeNull();
    expect(await rendition(new TextEncoder().encode('MSH|^~\\&|LAB|RIVERVIEW\r'), 'result.hl7')).toBeNull();
  });
});

describeWithFixtures('page count and page transforms', () => {
  it('counts pages as PDF.js does', async () => {
    const task = getDocument({ data: dischargeSummary.slice(), verbosity: 0 });
    const { numPages } = await task.promise;
    await task.destroy();
    expect(await pdfPageCount(dischargeSummary)).toBe(numPages);
    expect(await pdfPageCount(labResult)).toBe(3);
  });

  it('rotates pages by adding to their rotation, and removes pages', async () => {
    const changed = await transformPdf(labResult, {
      rotations: [
        { page: 0, degrees: 90 },
        { page: 1, degrees: -90 },
      ],
      deletions: [2],
    });
    const pdf = await PDFDocument.load(changed);
    expect(pdf.getPages().map((p) => p.getRotation().angle)).toEqual([90, 270]);

    const again = await PDFDocument.load(await transformPdf(changed, { rotations: [{ page: 0, degrees: 90 }, { page: 1, degrees: 180 }] }));
    expect(again.getPages().map((p) => p.getRotation().angle)).toEqual([180, 90]);
    expect(await pdfPageCount(await again.save())).toBe(2);
  });

  it('keeps the text of the pages that stay', async () => {
    const pagesBefore = await pdfText(dischargeSummary);
    const kept = await pdfText(await transformPdf(dischargeSummary, { deletions: [0] }));
    expect(kept).toEqual(pagesBefore.slice(1));
  });

  it('refuses to remove every page, an unknown page or a rotation that is not a right angle', async () => {
    const refusal = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error);
    const everyPage = await refusal(transformPdf(labResult, { deletions: [0, 1, 2] }));
    expect(everyPage).toBeInstanceOf(AppError);
    expect(everyPage).toMatchObject({ statusCode: 400, message: 'A document must keep at least one page; every page cannot be removed.' });
    await expect(transformPdf(labResult, { deletions: [3] })).rejects.toThrow('Page 4 does not exist in this document.');
    await expect(transformPdf(labResult, { rotations: [{ page: 0, degrees: 45 }] })).rejects.toThrow(
      'Pages can only be rotated in steps of 90 degrees.',
    );
  });
});

type Matrix = [number, number, number, number, number, number];
// m1 then m2, as PDF concatenates matrices (row vectors: p' = p · m).
const multiply = ([a1, b1, c1, d1, e1, f1]: Matrix, [a2, b2, c2, d2, e2, f2]: Matrix): Matrix => [
  a1 * a2 + b1 * c2,
  a1 * b2 + b1 * d2,
  c1 * a2 + d1 * c2,
  c1 * b2 + d1 * d2,
  e1 * a2 + f1 * c2 + e2,
  e1 * b2 + f1 * d2 + f2,
];

interface Placement {
  page: { width: number; height: number };
  // A point of the stored image (u rightwards, v downwards, 0 to 1) → where PDF.js paints it on the page (y upwards).
  at(u: number, v: number): { x: number; y: number };
}

// Where the first page paints its image, from the transformation PDF.js applies when it paints it.
async function imagePlacement(bytes: Uint8Array): Promise<Placement> {
  const task = getDocument({ data: bytes.slice(), verbosity: 0 });
  try {
    const page = await (await task.promise).getPage(1);
    const [, , width, height] = page.view as [number, number, number, number];
    const operators = await page.getOperatorList();
    let ctm: Matrix = [1, 0, 0, 1, 0, 0];
    const saved: Matrix[] = [];
    for (let i = 0; i < operators.fnArray.length; i++) {
      const fn = operators.fnArray[i];
      if (fn === OPS.save) saved.push(ctm);
      else if (fn === OPS.restore) ctm = saved.pop()!;
      else if (fn === OPS.transform) ctm = multiply(operators.argsArray[i] as Matrix, ctm);
      else if (fn === OPS.paintImageXObject) {
        const [a, b, c, d, e, f] = ctm;
        // Image space is the unit square with the first row at the top: stored (u, v) is (u, 1 - v).
        return { page: { width, height }, at: (u, v) => ({ x: a * u + c * (1 - v) + e, y: b * u + d * (1 - v) + f }) };
      }
    }
    throw new Error('The page paints no image.');
  } finally {
    await task.destroy();
  }
}

type Corner = 'top-left' | 'top-right' | 'bottom-right' | 'bottom-left';
function cornerOf(placement: Placement, u: number, v: number): Corner {
  const { x, y } = placement.at(u, v);
  const top = y > placement.page.height / 2;
  const left = x < placement.page.width / 2;
  return `${top ? 'top' : 'bottom'}-${left ? 'left' : 'right'}`;
}

// A landscape picture 40 x 20 as the camera stored it: white, a red square in its top-left corner and a green
// one in its top-right corner.
function markedPixels(): Uint8Array {
  const [width, height] = [40, 20];
  const data = rgba(width, height, [255, 255, 255]);
  for (let y = 0; y < 8; y++) {
    for (let x = 0; x < 8; x++) {
      data.set([255, 0, 0, 255], (y * width + x) * 4);
      data.set([0, 255, 0, 255], (y * width + width - 1 - x) * 4);
    }
  }
  return data;
}

const markedJpeg = () => new Uint8Array(encodeJpeg({ data: markedPixels(), width: 40, height: 20 }, 95).data);
const markedPng = () => encodePng({ width: 40, height: 20, data: markedPixels(), channels: 4, depth: 8 });

// EXIF 2.3, Orientation: where the stored first row and first column are to be seen. The stored top-left
// corner (red) and top-right corner (green) land in these corners of the page.
const ORIENTED_CORNERS: Record<number, { red: Corner; green: Corner }> = {
  1: { red: 'top-left', green: 'top-right' },
  2: { red: 'top-right', green: 'top-left' },
  3: { red: 'bottom-right', green: 'bottom-left' },
  4: { red: 'bottom-left', green: 'bottom-right' },
  5: { red: 'top-left', green: 'bottom-left' },
  6: { red: 'top-right', green: 'bottom-right' },
  7: { red: 'bottom-right', green: 'top-right' },
  8: { red: 'bottom-left', green: 'top-left' },
};

describe('EXIF orientation in image renditions', () => {
  it('shows a portrait photo stored landscape with Orientation 6 as a portrait page, turned clockwise', async () => {
    const photo = withExifOrientation(markedJpeg(), 6);
    const pdf = (await rendition(photo, 'referral-photo.jpg'))!;
    const document = await PDFDocument.load(pdf);
    expect(pageSizes(document)).toEqual([[612, 792]]);
    const placement = await imagePlacement(pdf);
    // 40 x 20 stored, so 20 wide and 40 high as shown, centred on the page at its own size.
    const topLeft = placement.at(0, 0);
    expect(topLeft.x).toBeCloseTo(316);
    expect(topLeft.y).toBeCloseTo(416);
    const bottomRight = placement.at(1, 1);
    expect(bottomRight.x).toBeCloseTo(296);
    expect(bottomRight.y).toBeCloseTo(376);
    expect(cornerOf(placement, 0.1, 0.2)).toBe('top-right');
  });

  it.each(Object.entries(ORIENTED_CORNERS))('places a JPEG of orientation %s as EXIF says', async (orientation, corners) => {
    const pdf = (await rendition(withExifOrientation(markedJpeg(), Number(orientation)), 'photo.jpeg'))!;
    const turned = Number(orientation) >= 5;
    expect(pageSizes(await PDFDocument.load(pdf))).toEqual([turned ? [612, 792] : [792, 612]]);
    const placement = await imagePlacement(pdf);
    expect({ red: cornerOf(placement, 0.1, 0.2), green: cornerOf(placement, 0.9, 0.2) }).toEqual(corners);
  });

  it('leaves a JPEG without EXIF, or with an orientation out of range, as it is stored', async () => {
    for (const photo of [markedJpeg(), withExifOrientation(markedJpeg(), 9), withExifOrientation(markedJpeg(), 0)]) {
      const pdf = (await rendition(photo, 'photo.jpg'))!;
      expect(pageSizes(await PDFDocument.load(pdf))).toEqual([[792, 612]]);
      expect(cornerOf(await imagePlacement(pdf), 0.1, 0.2)).toBe('top-left');
    }
  });

  it('honours the eXIf orientation of a PNG, the pixels kept as stored', async () => {
    const pdf = (await rendition(withExifOrientation(markedPng(), 8), 'scan.png'))!;
    expect(pageSizes(await PDFDocument.load(pdf))).toEqual([[612, 792]]);
    const placement = await imagePlacement(pdf);
    expect({ red: cornerOf(placement, 0.1, 0.2), green: cornerOf(placement, 0.9, 0.2) }).toEqual(ORIENTED_CORNERS[8]);
    // The image itself is the stored one (red top-left): only the way it is painted turns it.
    const [image] = await pageImages(pdf);
    expect(image).toMatchObject({ width: 40, height: 20 });
    expect([...image!.data.subarray(0, 3)]).toEqual([255, 0, 0]);
  });

  it('honours the Orientation tag of each TIFF page', async () => {
    const [width, height] = [24, 16];
    const pixels = new Uint8Array(width * height * 3).fill(180);
    const ifd = { t256: [width], t257: [height], t258: [8, 8, 8], t259: [1], t262: [2], t273: [1000], t274: [6], t277: [3], t278: [height], t279: [pixels.length], t282: [72], t283: [72], t296: [2] };
    const header = new Uint8Array(UTIF.encode([ifd] as unknown as IFD[]));
    const tiff = new Uint8Array(1000 + pixels.length);
    tiff.set(header);
    tiff.set(pixels, 1000);
    const pdf = (await rendition(tiff, 'photo.tif'))!;
    expect(pageSizes(await PDFDocument.load(pdf))).toEqual([[612, 792]]);
    expect(cornerOf(await imagePlacement(pdf), 0.1, 0.1)).toBe('top-right');
  });
});

describe('text renditions keep every character', () => {
  const everyScript = [
    'Latin: Zoë Ångström, François Ñúñez, Łukasz Żółć',
    'Vietnamese: Nguyễn Thị Hương, Trần Đức Thắng',
    'Greek: Καλημέρα, Παπαδόπουλος',
    'Cyrillic: Здравствуйте, Иванова Ольга',
    'Hebrew: שלום',
    'Arabic: مرحبا',
    'CJK: 患者姓名 山田太郎',
    'Emoji: 🙂 💊',
  ];

  it('draws Latin accents, Vietnamese, Greek, Cyrillic, Hebrew, Arabic, CJK and emoji in embedded fonts, no "?"', async () => {
    const pdf = (await rendition(new TextEncoder().encode(everyScript.join('\n')), 'scripts.txt'))!;
    const [page] = await pdfLines(pdf);
    expect(page!.slice(1)).toEqual(everyScript);
    const text = page!.join('\n');
    expect(text).not.toContain('?');
    expect(text).not.toContain('\uFFFD');
    // What Courier (Windows-1252) lacks is drawn in Noto fonts (Sans, Hebrew, Arabic, Emoji, SC), each
    // embedded as a subset: the PDF shows the same on every reader, none substitutes a font of its own.
    const document = await PDFDocument.load(pdf);
    const dicts = document.context.enumerateIndirectObjects().flatMap(([, object]) => (object instanceof PDFDict ? [object] : []));
    const composite = dicts.filter((dict) => dict.get(PDFName.of('Subtype')) === PDFName.of('Type0'));
    expect(composite.length).toBeGreaterThanOrEqual(5);
    expect(composite.map((dict) => String(dict.get(PDFName.of('BaseFont')))).filter((name) => !name.startsWith('/Noto'))).toEqual([]);
    expect(dicts.filter((dict) => dict.has(PDFName.of('FontFile2')))).toHaveLength(composite.length);
  });

  it('reads CRLF and CR line ends, sets tabs at stops of 8 columns, and starts a page at each form feed', async () => {
    const text = 'Test\tResult\tFlag\r\nSodium\t139\tN\r\nK\t5.9\tH\rOld Mac line\fPage two\r\n\f';
    const pdf = (await rendition(new TextEncoder().encode(text), 'lab.txt'))!;
    const pages = await pdfText(pdf);
    // The trailing form feed ends the report: no blank third page.
    expect(pages).toHaveLength(2);
    const [first] = await pdfLines(pdf);
    expect(first!.slice(1)).toEqual(['Test Result Flag', 'Sodium 139 N', 'K 5.9 H', 'Old Mac line']);
    expect(pages[1]).toContain('Page two');
    // Columns after tabs start at the same place on every row.
    const task = getDocument({ data: pdf.slice(), verbosity: 0 });
    try {
      const content = await (await (await task.promise).getPage(1)).getTextContent();
      const xOf = (word: string) => content.items.flatMap((item) => ('str' in item && item.str.includes(word) ? [item.transform[4] + item.str.indexOf(word) * 6] : []))[0];
      expect(xOf('Result')).toBeCloseTo(xOf('139'));
      expect(xOf('Result')).toBeCloseTo(xOf('5.9'));
      expect(xOf('Flag')).toBeCloseTo(xOf('H'));
    } finally {
      await task.destroy();
    }
  });

  it('wraps a very long line within the page, keeping every character', async () => {
    const words = Array.from({ length: 400 }, (_, i) => `word${i}-Nguyễn-患者`);
    const unbroken = 'x'.repeat(500);
    const pdf = (await rendition(new TextEncoder().encode(`${words.join(' ')}\n${unbroken}`), 'long.txt'))!;
    const pages = await pdfLines(pdf);
    const lines = pages.flatMap((page) => page.filter((line) => !line.includes('long.txt')));
    expect(lines.length).toBeGreaterThan(20);
    expect(lines.filter((line) => /^x+$/.test(line)).join('')).toBe(unbroken);
    expect(lines.join(' ').split(' ').filter((word) => word.startsWith('word'))).toEqual(words);
  });

  it('makes one page with the file name for a 0-byte file', async () => {
    const pdf = (await makePdfRendition(new Uint8Array(0), { extension: 'txt', fileName: 'empty.txt' }))!;
    expect(await pdfPageCount(pdf)).toBe(1);
    expect(await pdfLines(pdf)).toEqual([['empty.txt Page 1 of 1']]);
  });
});
