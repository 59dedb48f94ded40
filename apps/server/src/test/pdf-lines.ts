import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

// Names in the scripts a clinic's patients write them in: the strings every PDF the product draws must
// give back as they went in (issue 9).
export const INTERNATIONAL_NAMES = [
  "O'Connor-Nguyễn",
  'Zoë Ångström',
  '🙂',
  'Καλημέρα',
  'Здравствуйте',
  '患者姓名',
  'مرحبا',
  'שלום',
] as const;

// The text of each page as a reader extracts it through PDF.js (a different parser than the writer), one
// string per line: a line's text items joined as PDF.js places them, whitespace collapsed.
export async function pdfLines(bytes: Uint8Array): Promise<string[][]> {
  const task = getDocument({ data: bytes.slice(), verbosity: 0 });
  try {
    const document = await task.promise;
    const pages: string[][] = [];
    for (let n = 1; n <= document.numPages; n++) {
      const content = await (await document.getPage(n)).getTextContent();
      const lines: string[] = [];
      let line = '';
      for (const item of content.items) {
        if (!('str' in item)) continue;
        line += item.str;
        if (item.hasEOL) {
          lines.push(line);
          line = '';
        }
      }
      lines.push(line);
      pages.push(lines.map((l) => l.replace(/\s+/g, ' ').trim()).filter(Boolean));
    }
    return pages;
  } finally {
    await task.destroy();
  }
}
