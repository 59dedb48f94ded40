import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openPdf, pageText, readPdfText } from '../extractor.ts';
import { generateCorpus, LAYOUT_NAMES, type CorpusDocument } from './corpus.ts';
import { DATE_STYLES, usDate } from './people.ts';

// The extraction corpus is a measuring stick: the same seed must give the same documents, and each
// document's truth must be what was drawn on it. No OCR here (the benchmark runs it).

const digest = (docs: CorpusDocument[]) => docs.map((d) => `${d.id} ${createHash('sha256').update(d.pdf).digest('hex')} ${JSON.stringify(d.truth)}`);

async function textOf(pdf: Uint8Array): Promise<string> {
  const { task, document } = await openPdf(pdf);
  try {
    return await pageText(await document.getPage(1));
  } finally {
    await task.destroy();
  }
}

// Names compared without case: some layouts print them in capitals.
const holds = (haystack: string, needle: string) => haystack.toLowerCase().includes(needle.toLowerCase());
const printedDate = (text: string, iso: string) => DATE_STYLES.some((style) => text.includes(usDate(iso, style)));

describe('extraction corpus', () => {
  it('has at least 60 letters in at least 12 layouts, with scanned and fax pages besides', async () => {
    const docs = await generateCorpus({ scanned: 0, fax: 0 });
    expect(docs.length).toBeGreaterThanOrEqual(60);
    expect(new Set(docs.map((d) => d.layout)).size).toBeGreaterThanOrEqual(12);
    expect(LAYOUT_NAMES).toHaveLength(12);
    expect(new Set(docs.map((d) => d.id)).size).toBe(docs.length);
  });

  it('is the same, byte for byte, for the same seed, and another for another seed', async () => {
    const options = { perLayout: 1, scanned: 1, fax: 1 };
    const first = digest(await generateCorpus({ seed: 7, ...options }));
    expect(digest(await generateCorpus({ seed: 7, ...options }))).toEqual(first);
    expect(digest(await generateCorpus({ seed: 8, ...options }))).not.toEqual(first);
  });

  it('draws the truth in the text layer of every text PDF', async () => {
    const docs = await generateCorpus({ scanned: 0, fax: 0 });
    for (const doc of docs) {
      const text = await textOf(doc.pdf);
      const { firstName, middleName, lastName, birthDate, gender } = doc.truth;
      expect(holds(text, lastName!), `${doc.id}: last name ${lastName}`).toBe(true);
      expect(holds(text, firstName!), `${doc.id}: first name ${firstName}`).toBe(true);
      if (middleName) expect(new RegExp(`\\b${middleName}\\b`, 'i').test(text), `${doc.id}: middle ${middleName}`).toBe(true);
      expect(printedDate(text, birthDate!), `${doc.id}: birth date ${birthDate}`).toBe(true);
      // The gender is printed under a Sex or Gender label (beside it, or below it on forms), or (fax covers) not at all.
      const labelled = /\b(?:Sex|Gender)\b:?\s+(M|F|Male|Female)\b/i.exec(text);
      if (!gender) expect(/\b(?:Sex|Gender)\b/i.test(text), `${doc.id}: no gender`).toBe(false);
      else if (labelled) expect(labelled[1]![0]!.toUpperCase(), `${doc.id}: gender`).toBe(gender);
      else expect(new RegExp(`\\b(?:${gender === 'M' ? 'M|Male' : 'F|Female'})\\b`, 'i').test(text.split(/\bSex\b/)[1] ?? ''), `${doc.id}: gender below its label`).toBe(true);
    }
  });

  it('types the truth on the scanned and fax pages, unaccented, turned 1 to 3 degrees', async () => {
    const docs = await generateCorpus({ perLayout: 0, scanned: 3, fax: 3 });
    expect(docs.map((d) => d.kind)).toEqual(['scanned', 'scanned', 'scanned', 'fax', 'fax', 'fax']);
    for (const doc of docs) {
      const typed = doc.lines.join('\n');
      expect(holds(typed, doc.truth.lastName!), doc.id).toBe(true);
      expect(holds(typed, doc.truth.firstName!), doc.id).toBe(true);
      expect(printedDate(typed, doc.truth.birthDate!), doc.id).toBe(true);
      expect(`${doc.truth.firstName}${doc.truth.middleName ?? ''}${doc.truth.lastName}`).toMatch(/^[\x20-\x7e]+$/);
      expect(Math.abs(doc.skewDegrees!)).toBeGreaterThanOrEqual(1);
      expect(Math.abs(doc.skewDegrees!)).toBeLessThanOrEqual(3);
    }
  });

  it('makes image-only pages the extractor hands to OCR: a 200 dpi scan, and a 1-bit 200 x 100 dpi fax stretched back to shape', async () => {
    const [scan, fax] = await generateCorpus({ perLayout: 0, scanned: 1, fax: 1 });
    const seen: string[] = [];
    const ocr = {
      recognize: async (image: Uint8Array) => {
        seen.push(new TextDecoder().decode(image.subarray(0, 20)).split('\n').slice(0, 2).join(' '));
        return { text: '', lines: [] };
      },
    };
    expect((await readPdfText(scan!.pdf, { ocr })).ocrPages).toEqual([1]);
    expect((await readPdfText(fax!.pdf, { ocr })).ocrPages).toEqual([1]);
    // The fax's 1,100 rows are drawn over the page's height: it is resampled to twice as many, as tall as it was typed.
    expect(seen).toEqual(['P5 1700 2200', 'P5 1700 2200']);
    // Every third fax comes behind a cover sheet: both pages are images, both go to OCR.
    const [, , covered] = await generateCorpus({ perLayout: 0, scanned: 0, fax: 3 });
    expect(covered!.pages).toBe(2);
    expect((await readPdfText(covered!.pdf, { ocr })).ocrPages).toEqual([1, 2]);
  });
});
