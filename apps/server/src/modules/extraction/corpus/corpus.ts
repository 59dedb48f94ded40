import type { ExtractedPatient } from '../../../db/schema/intake.ts';
import { CHILD_LAYOUTS, coverSheet, LAYOUTS, type LayoutName, type Row } from './layouts.ts';
import { person, seededRng } from './people.ts';
import { faxPdf, rowsAsLines, scannedPdf, textPdf } from './render.ts';

// The patient-extraction corpus (issue 15 §2): letters in 12 layouts drawn as text PDFs, plus scanned
// (skewed, grainy 200 dpi JPEG) and fax (1-bit, 200 x 100 dpi; every third behind a cover sheet) pages of
// the same layouts, each with the truth beside it. Deterministic: the same seed gives the same documents, byte for byte.
// `npx tsx apps/server/src/modules/extraction/corpus/cli.ts <dir>` writes them out as PDF + JSON.

export const DEFAULT_SEED = 15_02;

export type CorpusKind = 'text' | 'scanned' | 'fax';

export interface CorpusDocument {
  id: string;
  layout: LayoutName;
  kind: CorpusKind;
  // Image pages: how far the page is turned (degrees).
  skewDegrees?: number;
  truth: ExtractedPatient;
  // What was drawn: the rows (text PDFs) and the same rows as typed lines (image pages).
  rows: Row[];
  lines: string[];
  pdf: Uint8Array;
  // A fax behind a cover sheet has two pages (the document is the last).
  pages: number;
}

export interface CorpusOptions {
  seed?: number;
  // Documents per layout as text PDFs (5 by default: 60 letters).
  perLayout?: number;
  // Scanned and fax pages (24 each by default: each layout twice), the layouts taken in turn.
  scanned?: number;
  fax?: number;
}

export const LAYOUT_NAMES = Object.keys(LAYOUTS) as LayoutName[];

export async function generateCorpus(options: CorpusOptions = {}): Promise<CorpusDocument[]> {
  const { seed = DEFAULT_SEED, perLayout = 5, scanned = 24, fax = 24 } = options;
  const rng = seededRng(seed);
  const docs: CorpusDocument[] = [];
  for (const layout of LAYOUT_NAMES) {
    for (let n = 1; n <= perLayout; n++) {
      const p = person(rng, { child: CHILD_LAYOUTS.includes(layout) });
      const drawn = LAYOUTS[layout](p, rng);
      docs.push({ id: `${layout}-${n}`, layout, kind: 'text', truth: drawn.truth, rows: drawn.rows, lines: rowsAsLines(drawn.rows), pdf: await textPdf(drawn.rows), pages: 1 });
    }
  }
  const images: [CorpusKind, number][] = [
    ['scanned', scanned],
    ['fax', fax],
  ];
  let turn = 0;
  for (const [kind, count] of images) {
    for (let n = 1; n <= count; n++) {
      const layout = LAYOUT_NAMES[turn++ % LAYOUT_NAMES.length]!;
      const p = person(rng, { child: CHILD_LAYOUTS.includes(layout), ascii: true });
      const drawn = LAYOUTS[layout](p, rng);
      // A fax carries the sending machine's header line (its date and number are not the patient's).
      const lines = [...(kind === 'fax' ? [`${rng.pick(['NOV', 'DEC', 'JAN'])}-${rng.int(10, 28)}-2026 ${rng.int(10, 17)}:${rng.int(10, 59)}  FROM: ${rng.int(201, 989)} ${rng.int(200, 999)} ${rng.int(1000, 9999)}   P. 1/${rng.int(2, 6)}`, ''] : []), ...rowsAsLines(drawn.rows)];
      // 1 to 3 degrees either way.
      const skewDegrees = Math.round((1 + 2 * rng.next()) * (rng.chance(0.5) ? 1 : -1) * 10) / 10;
      // Every third fax comes behind a cover sheet: two pages, the patient on the second.
      const cover = kind === 'fax' && n % 3 === 0 ? coverSheet(rng) : undefined;
      const pdf = await (kind === 'fax' ? faxPdf : scannedPdf)(lines, { skewDegrees, rng, cover });
      docs.push({ id: `${kind}-${layout}-${n}`, layout, kind, skewDegrees, truth: drawn.truth, rows: drawn.rows, lines, pdf, pages: cover ? 2 : 1 });
    }
  }
  return docs;
}
