import type { InboundPatient } from '../../transports/local.ts';
import { patientFromInfoLines, patientInfoLines } from './xdm-metadata.ts';

// The patient of a Direct message without documents (issue 26: a reply without attachment lost its patient): XDM
// metadata describes a patient only on a document, so the inner message (signed with it) carries the same
// sourcePatientInfo lines (ITI TF-3 §4.2.3.2.23) in this header, base64 (UTF-8) and folded. Other HISPs ignore it.
export const PATIENT_HEADER = 'X-ClinicRelay-Patient';

// Far above any real patient; a larger header is not read.
const MAX_HEADER_CHARS = 16 * 1024;

export function patientHeaderValue(patient: InboundPatient): string {
  const encoded = Buffer.from(patientInfoLines(patient).join('\n'), 'utf8').toString('base64');
  return (encoded.match(/.{1,76}/g) ?? []).join('\r\n ');
}

export function readPatientHeader(value: string | null): InboundPatient | null {
  if (!value || value.length > MAX_HEADER_CHARS) return null;
  const compact = value.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact)) return null;
  return patientFromInfoLines(Buffer.from(compact, 'base64').toString('utf8').split('\n'));
}
