import { inflateSync } from 'node:zlib';
import fontkit from '@pdf-lib/fontkit';
import { PDFDict, PDFDocument, PDFName, PDFRawStream } from 'pdf-lib';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { describe, expect, it } from 'vitest';
import { INTERNATIONAL_NAMES, pdfLines } from '../../test/pdf-lines.ts';
import { faceFor } from './fonts.ts';
import { PdfText, type TextStyle } from './text.ts';

async function draw(lines: string[], style: TextStyle = 'regular'): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const text = new PdfText(pdf);
  const page = pdf.addPage([612, 792]);
  lines.forEach((line, i) => text.draw(page, line, { x: 40, y: 750 - i * 20, size: 12, style }));
  return pdf.save();
}

// The TrueType programs the document embeds, read back by fontkit: what a viewer draws glyphs from.
async function embeddedFonts(bytes: Uint8Array) {
  const pdf = await PDFDocument.load(bytes);
  return pdf.context
    .enumerateIndirectObjects()
    .map(([, object]) => object)
    .filter((object): object is PDFDict => object instanceof PDFDict && object.get(PDFName.of('Type')) === PDFName.of('FontDescriptor'))
    .map((descriptor) => {
      const stream = pdf.context.lookup(descriptor.get(PDFName.of('FontFile2'))) as PDFRawStream;
      const font = fontkit.create(inflateSync(stream.contents)) as unknown as { numGlyphs: number; getGlyph(id: number): { path: { commands: unknown[] } } };
      return { name: String(descriptor.get(PDFName.of('FontName'))), font };
    });
}

describe('text in generated PDFs', () => {
  it('gives back names in any script as they were drawn, regular and bold, with no "?"', async () => {
    for (const style of ['regular', 'bold'] as const) {
      const [page] = await pdfLines(await draw([...INTERNATIONAL_NAMES], style));
      expect(page).toEqual([...INTERNATIONAL_NAMES]);
      expect(page!.join('')).not.toContain('?');
    }
  });

  it('embeds only the fonts a document uses, each a subset whose glyphs have outlines', async () => {
    const latin = await embeddedFonts(await draw(['Zoë Ångström, Lakeside Family Medicine']));
    expect(latin.map((f) => f.name)).toEqual([expect.stringMatching(/^\/NotoSans-Regular/)]);
    expect(latin[0]!.font.numGlyphs).toBeLessThan(30);

    // Arabic among them: its font's glyphs have odd lengths, which a subset must not shift (they drew nothing).
    // (No spaces here: a space is the one glyph without an outline.)
    const all = await embeddedFonts(await draw(INTERNATIONAL_NAMES.map((name) => name.replace(/ /g, ''))));
    expect(all.map((f) => f.name.replace(/-\d+$/, '')).sort()).toEqual(
      expect.arrayContaining(['/NotoEmoji-Regular', '/NotoSans-Regular', '/NotoSansArabic-Regular', '/NotoSansHebrew-Regular', '/NotoSansSC-Regular']),
    );
    for (const { font } of all) {
      for (let id = 1; id < font.numGlyphs; id++) expect(font.getGlyph(id).path.commands.length).toBeGreaterThan(0);
    }
  });

  it('measures a line as it draws it: right-aligned text ends at the margin', async () => {
    const pdf = await PDFDocument.create();
    const text = new PdfText(pdf);
    const page = pdf.addPage([612, 792]);
    const samples = [...INTERNATIONAL_NAMES, 'Patient: שלום עולם 12 (ok)'];
    samples.forEach((line, i) => text.draw(page, line, { x: 560 - text.width(line, 12), y: 750 - i * 20, size: 12 }));
    const task = getDocument({ data: await pdf.save(), verbosity: 0 });
    try {
      const content = await (await (await task.promise).getPage(1)).getTextContent();
      const rights = new Map<number, number>();
      for (const item of content.items) {
        if (!('str' in item) || !item.str.trim()) continue;
        const y = Math.round(item.transform[5] as number);
        rights.set(y, Math.max(rights.get(y) ?? 0, (item.transform[4] as number) + item.width));
      }
      expect([...rights.values()].map((right) => right.toFixed(1))).toEqual(samples.map(() => '560.0'));
    } finally {
      await task.destroy();
    }
  });

  it('keeps the characters of a glyph that a subset first took as part of another (the "e" inside "ë")', async () => {
    await draw(['Zoë']);
    const [page] = await pdfLines(await draw(['Name e']));
    expect(page).toEqual(['Name e']);
  });

  it('draws a character no font has as a visible replacement, never "?" and never an error', async () => {
    const [page] = await pdfLines(await draw(['A\uE000B', 'ꯀ'])); // a private-use character; Meetei Mayek, not in Noto Sans
    expect(page).toEqual(['A\uFFFDB', '\uFFFD']);
  });

  it('puts right-to-left text in reading order', async () => {
    const [page] = await pdfLines(await draw(['שלום עולם', 'Name: שלום עולם', 'مرحبا بك', 'Patient: مرحبا 42']));
    // PDF.js turns each right-to-left text item back into logical order, and a run of Hebrew or Arabic
    // words is one item (the spaces between them are drawn in the same font), so they come back as typed.
    expect(page!.slice(0, 3)).toEqual(['שלום עולם', 'Name: שלום עולם', 'مرحبا بك']);
    // A number inside right-to-left text is drawn to its left, as the bidi algorithm orders it ("42 مرحبا"
    // read right to left); the number and the Arabic are separate items, which PDF.js lists left to right.
    expect(page![3]).toBe('Patient: 42 مرحبا');
  });

  it('wraps mixed scripts within the width and breaks a word wider than the line', async () => {
    const pdf = await PDFDocument.create();
    const text = new PdfText(pdf);
    const paragraph = `${INTERNATIONAL_NAMES.join(' ')} ${'患者姓名'.repeat(30)} Ångström`;
    const lines = text.wrap(paragraph, 11, 200);
    expect(lines.length).toBeGreaterThan(3);
    for (const line of lines) expect(text.width(line, 11)).toBeLessThanOrEqual(200);
    expect(lines.join('').replace(/\s/g, '')).toBe(paragraph.replace(/\s/g, ''));
  });

  it('reads each font file once per process: the same face serves every document', () => {
    const style = { weight: 400, italic: false } as const;
    expect(faceFor(0x05e9, style)).toBe(faceFor(0x05d0, style));
    expect(faceFor(0x0041, { weight: 700, italic: false })).not.toBe(faceFor(0x0041, style));
    expect(faceFor(0xe000, style)).toBeNull();
  });
});
