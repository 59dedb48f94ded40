import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { ExtractedPatient } from '../apps/server/src/db/schema/intake.ts';
import { extractPatient, openPdf, pageText } from '../apps/server/src/modules/extraction/extractor.ts';
import { tesseractOcr, terminateOcr } from '../apps/server/src/modules/extraction/ocr.ts';
import { wrap } from '../apps/server/src/modules/extraction/corpus/layouts.ts';
import { scannedPdf } from '../apps/server/src/modules/extraction/scanned-page.ts';
import { corpusBenchmarks } from './extraction-corpus.ts';
import { familyBenchmarks } from './extraction-families.ts';
import { sized, TINY } from './size.ts';

// Patient extraction accuracy and time: ud-sample.pdf, and PDFs rendered here from the header of each
// C-CDA fixture (the header's recordTarget is the truth) in three label styles, plus a scanned (image
// only, OCR) version of each. The baseline is bare pdfjs text extraction of the same PDFs in this run.
// Then the project's extraction corpus with its per-field accuracy, wrong-value and empty rates (extraction-corpus.ts),
// and leave-one-family-out on random layout families (extraction-families.ts).

const FIXTURES = path.resolve(import.meta.dirname, '../../shared/fixtures');
const FIELDS = ['firstName', 'middleName', 'lastName', 'birthDate', 'gender'] as const;
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

interface Sample {
  name: string;
  pdf: Uint8Array;
  truth: ExtractedPatient;
}

const stripComments = (xml: string) => xml.replace(/<!--[\s\S]*?-->/g, '');
const textOf = (xml: string) => xml.replace(/<[^>]+>/g, ' ').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&').replace(/\s+/g, ' ').trim();
const attr = (tag: string | undefined, name: string) => tag && new RegExp(`\\b${name}="([^"]*)"`).exec(tag)?.[1];

// recordTarget/patientRole/patient of a C-CDA document: the legal name's given names (the first is the
// first name, the rest the middle; a call-me name "CL" is not part of it), family, birthTime, gender.
function cdaHeader(xml: string) {
  const doc = stripComments(xml);
  const patient = /<recordTarget[\s\S]*?<patient\b[^>]*>([\s\S]*?)<\/patient>/.exec(doc)![1]!;
  const names = [...patient.matchAll(/<name\b([^>]*)>([\s\S]*?)<\/name>/g)];
  const legal = (names.find((n) => /use="L"/.test(n[1]!)) ?? names[0])![2]!;
  const given = [...legal.matchAll(/<given\b([^>]*)>([^<]*)<\/given>/g)].filter((g) => !/qualifier="CL"/.test(g[1]!)).map((g) => g[2]!.trim());
  const family = /<family\b[^>]*>([^<]*)<\/family>/.exec(legal)![1]!.trim();
  const birth = attr(/<birthTime\b[^>]*>/.exec(patient)?.[0], 'value') ?? '';
  const gender = attr(/<administrativeGenderCode\b[^>]*>/.exec(patient)?.[0], 'code');
  const truth: ExtractedPatient = {
    firstName: given[0] ?? null,
    middleName: given.slice(1).join(' ') || null,
    lastName: family,
    birthDate: birth.length >= 8 ? `${birth.slice(0, 4)}-${birth.slice(4, 6)}-${birth.slice(6, 8)}` : null,
    gender: gender === 'M' || gender === 'F' ? gender : gender ? 'UN' : null,
  };
  const title = textOf(/<title>([\s\S]*?)<\/title>/.exec(doc)?.[1] ?? 'Clinical Document');
  const authorName = /<author>[\s\S]*?<assignedPerson>\s*<name>([\s\S]*?)<\/name>/.exec(doc)?.[1];
  const custodian = textOf(/<representedCustodianOrganization>[\s\S]*?<name>([\s\S]*?)<\/name>/.exec(doc)?.[1] ?? 'Community Health Clinic');
  const body = [...doc.matchAll(/<section>[\s\S]*?<title>([\s\S]*?)<\/title>[\s\S]*?<text>([\s\S]*?)<\/text>/g)].slice(0, 4).flatMap((s) => [textOf(s[1]!).toUpperCase(), textOf(s[2]!).slice(0, 400)]);
  const effective = attr(/<effectiveTime\b[^>]*>/.exec(doc)?.[0], 'value') ?? '';
  return { truth, title, author: authorName ? textOf(authorName) : 'Henry Seven', custodian, body, effective };
}

const usDate = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;
const longDate = (iso: string) => `${MONTHS[Number(iso.slice(5, 7)) - 1]} ${Number(iso.slice(8, 10))}, ${iso.slice(0, 4)}`;
const genderWord = (g: ExtractedPatient['gender']) => (g === 'M' ? 'Male' : g === 'F' ? 'Female' : 'Unknown');

// The header lines in one of three styles clinics print: two label columns are joined by a wide gap.
function headerLines(h: ReturnType<typeof cdaHeader>, style: number): (string | [string, string])[] {
  const p = h.truth;
  const middle = p.middleName ?? '';
  const service = h.effective.length >= 8 ? usDate(`${h.effective.slice(0, 4)}-${h.effective.slice(4, 6)}-${h.effective.slice(6, 8)}`) : '01/01/2020';
  const name = [
    [`Patient Name: ${[`${p.lastName!.toUpperCase()},`, p.firstName!.toUpperCase(), middle.toUpperCase()].filter(Boolean).join(' ')}`, 'MRN: 0048213'],
    [`Patient: ${[p.firstName, middle && `${middle[0]}.`, p.lastName].filter(Boolean).join(' ')}`, `Date of Service: ${service}`],
    [`Name: ${p.lastName}, ${[p.firstName, middle].filter(Boolean).join(' ')}`, 'Account: 77120'],
  ][style]! as [string, string];
  const birth = [`DOB: ${usDate(p.birthDate!)}`, `Date of Birth: ${longDate(p.birthDate!)}`, `Birth Date: ${p.birthDate}`][style]!;
  const sex = [`Sex: ${p.gender === 'UN' ? 'U' : p.gender}`, `Gender: ${genderWord(p.gender)}`, `Sex: ${genderWord(p.gender)}`][style]!;
  return [h.custodian, h.title, name, [birth, sex], [`Author: ${h.author}, MD`, `Date of Service: ${service}`], ''];
}

async function textPdf(lines: (string | [string, string])[]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([612, 792]);
  lines.slice(0, 44).forEach((line, i) => {
    const [left, right] = typeof line === 'string' ? [line, null] : line;
    // The standard fonts know Windows-1252 only.
    const safe = (s: string) => s.replace(/[^\x20-\x7e]/g, ' ');
    page.drawText(safe(left), { x: 54, y: 740 - i * 15, size: 10, font });
    if (right) page.drawText(safe(right), { x: 340, y: 740 - i * 15, size: 10, font });
  });
  return pdf.save();
}

async function samples(): Promise<{ text: Sample[]; scanned: Sample[] }> {
  const text: Sample[] = [
    {
      name: 'ud-sample.pdf',
      pdf: new Uint8Array(readFileSync(path.join(FIXTURES, 'pdf/ud-sample.pdf'))),
      // What the document says: "Patient Name: Levin, Henry L.", "a 56-year-old white male", no birth date.
      truth: { firstName: 'Henry', middleName: 'L', lastName: 'Levin', birthDate: null, gender: 'M' },
    },
  ];
  const scanned: Sample[] = [];
  const dir = path.join(FIXTURES, 'cda');
  for (const [index, file] of readdirSync(dir).filter((f) => f.endsWith('.xml')).sort().slice(0, sized(undefined, 1)).entries()) {
    const header = cdaHeader(readFileSync(path.join(dir, file), 'utf8'));
    const body = header.body.flatMap((b) => wrap(b));
    for (let style = 0; style < 3; style++) {
      text.push({ name: `${file} style ${style}`, pdf: await textPdf([...headerLines(header, style), ...body]), truth: header.truth });
    }
    const scanLines = headerLines(header, index % 3).map((l) => (typeof l === 'string' ? l : `${l[0]}        ${l[1]}`));
    scanned.push({ name: `${file} scanned`, pdf: await scannedPdf([...scanLines, ...body.slice(0, 12)]), truth: header.truth });
  }
  return { text, scanned };
}

const same = (a: string | null, b: string | null) => (a ?? '').toLowerCase().replace(/\./g, '').trim() === (b ?? '').toLowerCase().replace(/\./g, '').trim();

async function bareTextMs(pdf: Uint8Array): Promise<number> {
  const started = performance.now();
  const { task, document } = await openPdf(pdf);
  for (let n = 1; n <= document.numPages; n++) await pageText(await document.getPage(n));
  await task.destroy();
  return performance.now() - started;
}

async function score(label: string, set: Sample[]): Promise<string[]> {
  const correct = Object.fromEntries(FIELDS.map((f) => [f, 0])) as Record<(typeof FIELDS)[number], number>;
  let perfect = 0;
  let flagged = 0;
  let elapsed = 0;
  let baseline = 0;
  const misses: string[] = [];
  for (const sample of set) {
    // Both timed from outside the same way, the baseline first so neither gets a warmer start.
    baseline += await bareTextMs(sample.pdf);
    const started = performance.now();
    const result = await extractPatient(sample.pdf, { ocr: tesseractOcr });
    elapsed += performance.now() - started;
    if (result.perfectMatch) flagged++;
    const wrong = FIELDS.filter((f) => !same(result.patient[f], sample.truth[f]));
    for (const f of FIELDS) if (!wrong.includes(f)) correct[f]++;
    if (wrong.length === 0) perfect++;
    else misses.push(`    miss ${sample.name}: ${wrong.map((f) => `${f} ${JSON.stringify(result.patient[f])} ≠ ${JSON.stringify(sample.truth[f])}`).join(', ')}`);
  }
  const pct = (n: number) => `${((100 * n) / set.length).toFixed(0)}%`;
  const mean = elapsed / set.length;
  const meanBaseline = baseline / set.length;
  return [
    `Patient extraction, ${label} (${set.length} PDFs): ${FIELDS.map((f) => `${f} ${pct(correct[f])}`).join(', ')}; all five right ${pct(perfect)}; perfectMatch (all five found, no conflict) ${pct(flagged)}`,
    `  extractor: ${mean.toFixed(1)} ms/PDF`,
    `  baseline bare pdfjs text extraction: ${meanBaseline.toFixed(1)} ms/PDF`,
    `  ratio ${(mean / meanBaseline).toFixed(2)}x`,
    ...misses,
  ];
}

export async function extractionBenchmarks(): Promise<string[]> {
  const { text, scanned } = await samples();
  // Warm-up: pdfjs's first document and the tesseract worker's start are not part of a run's time (a tiny run has no times).
  if (!TINY) await extractPatient(scanned[0]!.pdf, { ocr: tesseractOcr });
  try {
    return [
      ...(await score('text layer (ud-sample.pdf + C-CDA headers, 3 styles)', text)),
      ...(await score('scanned, OCR (C-CDA headers)', scanned)),
      ...(await corpusBenchmarks()),
      // Beside the own corpus's figure: the same extractor on layout families it was not written from, each held out.
      ...(await familyBenchmarks()),
    ];
  } finally {
    await terminateOcr();
  }
}
