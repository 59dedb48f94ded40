import { performance } from 'node:perf_hooks';
import type { ExtractedPatient, ExtractionHits } from '../../db/schema/intake.ts';
import { WorkerFailure, type WorkerPool } from '../../platform/workers/worker-pool.ts';
import type { PatientField } from './find-patient.ts';

// The API's side of extraction. extractor.ts is loaded by the file workers only, never imported here: pdfjs-dist's
// legacy build brings core-js, which replaces Array.prototype.push, JSON.parse and JSON.stringify with JavaScript in
// the realm that loads it, and in the API's thread that slowed every request (main-builtins.test.ts).
const extractorModule = new URL('./extractor.ts', import.meta.url).href;

// One run's measures, stored per run (patient_extractions) and summed per organization by the back
// office's "Sift metrics" (count, average elapsed ms, and each flag as a percentage of the runs):
// - elapsedMs: wall time of the whole run (text, OCR and rules), averaged by the screen;
// - noText: the PDF was read but had no text, even after OCR (nothing to look at);
// - error: the PDF could not be read (damaged, encrypted, its worker died), or OCR failed and left it without text;
// - noMatch: there was text but no candidate for any field (a run whose only candidates conflicted is
//   `conflicts`, not `noMatch`);
// - conflicts: at least one field had two disagreeing candidates and was therefore left empty;
// - perfectMatch: all five fields were returned (first, middle, last, DOB, gender) and nothing conflicted;
// - confidenceIsVeryHigh: a perfect match whose every field came from a label at 0.9 or more (a gender
//   read from words, or a name from a letter's narrative, never counts);
// - hits.<field>: a value was returned for the field. A hit is not a checked right answer (that needs a
//   truth only the bench has); a field in conflict is no hit.
// The percentages are of all runs in the period, the same denominator for every column.
export interface ExtractionMeasures {
  elapsedMs: number;
  noText: boolean;
  error: boolean;
  noMatch: boolean;
  conflicts: boolean;
  perfectMatch: boolean;
  confidenceIsVeryHigh: boolean;
  hits: ExtractionHits;
  // Diagnostics, not summed: the fields left empty by a conflict, and those read from words (lower confidence).
  conflictingFields: PatientField[];
  inferredFields: PatientField[];
  // The page names more than one person who could be the patient.
  severalPeople: boolean;
}

export interface ExtractionResult extends ExtractionMeasures {
  patient: ExtractedPatient;
  confidence: Record<PatientField, number>;
  // Pages read by OCR (1-based), for diagnostics and tests.
  ocrPages: number[];
}

const noHits = (): ExtractionHits => ({ first: false, middle: false, last: false, dob: false, gender: false });
const emptyPatient = (): ExtractedPatient => ({ firstName: null, middleName: null, lastName: null, birthDate: null, gender: null });

export const nothingFound = () => ({
  patient: emptyPatient(),
  confidence: { first: 0, middle: 0, last: 0, dob: 0, gender: 0 },
  hits: noHits(),
  noMatch: false,
  conflicts: false,
  perfectMatch: false,
  confidenceIsVeryHigh: false,
  conflictingFields: [],
  inferredFields: [],
  severalPeople: false,
});
export const unreadable = (elapsedMs: number): ExtractionResult => ({ ...nothingFound(), elapsedMs, noText: false, error: true, ocrPages: [] });

// The run in a worker of the pool, in the organization's turn; a PDF that ends its worker (memory, time) is unreadable, like a broken one.
export async function extractInWorker(pool: WorkerPool, bytes: Uint8Array, today: Date, organizationId: string): Promise<ExtractionResult> {
  const started = performance.now();
  try {
    return await pool.run<ExtractionResult>({ module: extractorModule, fn: 'extractPatientWithOcr', args: [bytes, today], organizationId });
  } catch (error) {
    if (error instanceof WorkerFailure) return unreadable(Math.round(performance.now() - started));
    throw error;
  }
}
