import { formatIsoDate } from '@clinicrelay/contracts/dates.ts';
import { EXTRACTION_MAX_POLLS, EXTRACTION_POLL_MS, type extractedPatient } from '@clinicrelay/contracts/intake.ts';
import type { z } from 'zod';
import { fetchExtraction, startPatientExtraction } from './api.ts';

// Patient extraction from a PDF attachment (feature PatientExtractionAPI, end-user §4 "Attachments").

export type ExtractedPatient = z.infer<typeof extractedPatient>;
export const EXTRACTED_FIELDS = ['firstName', 'middleName', 'lastName', 'birthDate', 'gender'] as const;
export type ExtractedField = (typeof EXTRACTED_FIELDS)[number];

export class ExtractionFailed extends Error {
  constructor(readonly reason: 'failed' | 'timedOut') {
    super(reason === 'failed' ? 'Patient details could not be read from this attachment.' : 'The request timed out. Please try again.');
  }
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts an extraction and polls every 1 s, up to 10 times, while it is Processing; warning when the page names several people. */
export async function extractPatient(
  messageId: string,
  attachmentId: string,
  pollMs: number = EXTRACTION_POLL_MS,
): Promise<{ patient: ExtractedPatient; warning: string | null }> {
  await startPatientExtraction(messageId, attachmentId);
  for (let poll = 0; poll < EXTRACTION_MAX_POLLS; poll += 1) {
    if (poll > 0) await wait(pollMs);
    const answer = await fetchExtraction(messageId, attachmentId);
    if (answer.status === 'Completed') {
      if (!answer.patient) throw new ExtractionFailed('failed');
      return { patient: answer.patient, warning: answer.warning ?? null };
    }
    if (answer.status === 'Failed') throw new ExtractionFailed('failed');
  }
  throw new ExtractionFailed('timedOut');
}

/** The form's patient fields as text, birth date as MM/DD/YYYY. */
export type PatientDraft = Record<ExtractedField | 'telephone' | 'streetAddress1' | 'city' | 'state' | 'postalCode' | 'visitId' | 'visitDate', string>;

/** Completed extraction: fills only the empty fields, and says which ones it filled. */
export function fillEmptyFields(draft: PatientDraft, found: ExtractedPatient): { draft: PatientDraft; filled: ExtractedField[] } {
  const next = { ...draft };
  const filled: ExtractedField[] = [];
  for (const field of EXTRACTED_FIELDS) {
    const value = field === 'birthDate' ? formatIsoDate(found.birthDate) : (found[field] ?? '');
    if (next[field].trim() === '' && value) {
      next[field] = value;
      filled.push(field);
    }
  }
  return { draft: next, filled };
}
