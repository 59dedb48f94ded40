import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_SEED, generateCorpus } from './corpus.ts';

// Writes the extraction corpus to a directory, each PDF with its truth beside it:
//   npx tsx apps/server/src/modules/extraction/corpus/cli.ts <dir> [seed]
// <id>.pdf, <id>.json ({ id, layout, kind, skewDegrees, truth, lines, pages }) and index.json.

const [dir, seedArg] = process.argv.slice(2);
if (!dir) {
  console.error('Usage: cli.ts <output directory> [seed]');
  process.exit(2);
}
const seed = seedArg ? Number(seedArg) : DEFAULT_SEED;
if (!Number.isInteger(seed)) {
  console.error(`The seed must be a whole number, not "${seedArg}".`);
  process.exit(2);
}
mkdirSync(dir, { recursive: true });
const docs = await generateCorpus({ seed });
for (const doc of docs) {
  writeFileSync(path.join(dir, `${doc.id}.pdf`), doc.pdf);
  const { pdf: _pdf, rows: _rows, ...meta } = doc;
  writeFileSync(path.join(dir, `${doc.id}.json`), `${JSON.stringify(meta, null, 2)}\n`);
}
writeFileSync(path.join(dir, 'index.json'), `${JSON.stringify({ seed, documents: docs.map((d) => ({ id: d.id, layout: d.layout, kind: d.kind, truth: d.truth })) }, null, 2)}\n`);
console.log(`${docs.length} documents (seed ${seed}) written to ${dir}`);
