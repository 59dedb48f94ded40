import { createHash } from 'node:crypto';
import { Hl7Message, Hl7Segment } from '@medplum/core';

// HL7 v2.5.1 messages that carry one document to a system that takes HL7 instead of Direct (issue 29 §3): MDM^T02
// (original document notification and content) or ORU^R01 (an observation result), the document as an encapsulated
// base64 OBX (ED). Built and parsed with @medplum/core's Hl7Message; values are escaped here (it does not).

export type Hl7DocumentKind = 'MDM' | 'ORU';

export interface Hl7Patient {
  patientId?: string | null;
  patientIds?: { id: string; assigningAuthority?: string | null; type?: string | null }[] | null;
  firstName?: string | null;
  middleName?: string | null;
  lastName?: string | null;
  birthDate?: string | null;
  gender?: string | null;
  streetAddress1?: string | null;
  city?: string | null;
  state?: string | null;
  postalCode?: string | null;
  telephone?: string | null;
}

export interface Hl7Document {
  fileName: string;
  mimeType: string;
  bytes: Uint8Array;
  title: string;
  loincCode: string | null;
  documentDate: string | null;
}

export interface Hl7DocumentMessage {
  kind: Hl7DocumentKind;
  // MSH-10: the same for every try of one document, so the receiver can tell a resend from a new message.
  controlId: string;
  at: Date;
  sendingFacility: string;
  receivingApplication: string | null;
  receivingFacility: string | null;
  patient: Hl7Patient | null;
  // The message's subject and body when it carries no document (sent as text).
  subject: string;
  body: string;
  document: Hl7Document | null;
  // TXA-12 / OBR-3: the document's unique number at the sender.
  documentNumber: string;
}

const ESCAPES: [RegExp, string][] = [
  [/\\/g, '\\E\\'],
  [/\|/g, '\\F\\'],
  [/\^/g, '\\S\\'],
  [/&/g, '\\T\\'],
  [/~/g, '\\R\\'],
];

/** A value as HL7 v2 text: the delimiters escaped (\F\ \S\ \T\ \R\ \E\), line breaks as spaces. */
export function escapeHl7(value: string | null | undefined): string {
  if (!value) return '';
  let out = value.replace(/[\r\n]+/g, ' ');
  for (const [pattern, escaped] of ESCAPES) out = out.replace(pattern, escaped);
  return out;
}

/** The reverse of escapeHl7 for the texts we read back (ACK messages). */
export function unescapeHl7(value: string): string {
  return value.replace(/\\([FSTRE])\\/g, (_, c: string) => ({ F: '|', S: '^', T: '&', R: '~', E: '\\' })[c] ?? '').replace(/\\\.br\\/g, ' ');
}

const component = (...parts: (string | null | undefined)[]) => parts.map(escapeHl7).join('^').replace(/\^+$/, '');

// YYYYMMDDHHMMSS in UTC with its offset, as TS fields take it.
const timestamp = (at: Date) => `${at.toISOString().replace(/[-:T]/g, '').slice(0, 14)}+0000`;
const dateOf = (isoDate: string | null | undefined) => (isoDate ? isoDate.replace(/-/g, '').slice(0, 8) : '');

/** A control id (MSH-10, at most 20 characters) derived from what is sent, so every retry repeats it. */
export const controlIdOf = (...parts: string[]) => createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 20).toUpperCase();

function pid(patient: Hl7Patient | null): Hl7Segment {
  const ids = [
    ...(patient?.patientId ? [component(patient.patientId, '', '', 'ClinicRelay', 'MR')] : []),
    ...(patient?.patientIds ?? []).map((p) => component(p.id, '', '', p.assigningAuthority ?? '', p.type ?? 'MR')),
  ];
  const gender = patient?.gender === 'M' || patient?.gender === 'F' ? patient.gender : patient?.gender ? 'U' : '';
  return new Hl7Segment([
    'PID',
    '1',
    '',
    ids.join('~'),
    '',
    component(patient?.lastName, patient?.firstName, patient?.middleName),
    '',
    dateOf(patient?.birthDate),
    gender,
    '',
    '',
    component(patient?.streetAddress1, '', patient?.city, patient?.state, patient?.postalCode),
    '',
    escapeHl7(patient?.telephone),
  ]);
}

// ED (encapsulated data): source application, type of data, subtype, encoding, data. Base64 has no delimiter in it.
function encapsulated(document: Hl7Document): string {
  const base64 = Buffer.from(document.bytes).toString('base64');
  if (document.mimeType === 'application/pdf') return `^AP^PDF^Base64^${base64}`;
  if (/xml/i.test(document.mimeType)) return `^TEXT^XML^Base64^${base64}`;
  return `^AP^OCTET-STREAM^Base64^${base64}`;
}

// The document's code: its LOINC (with its title) when known, otherwise its title under a local code.
const documentCode = (document: Hl7Document | null, subject: string) =>
  document?.loincCode ? component(document.loincCode, document.title, 'LN') : component('DOC', document?.title ?? subject, 'L');

function observation(message: Hl7DocumentMessage): Hl7Segment {
  const code = documentCode(message.document, message.subject);
  if (message.document) return new Hl7Segment(['OBX', '1', 'ED', code, '', encapsulated(message.document), '', '', '', '', '', 'F']);
  // No document: the message's text, one repetition per line.
  const lines = message.body.split(/\r?\n/).map(escapeHl7).join('~');
  return new Hl7Segment(['OBX', '1', 'TX', code, '', lines, '', '', '', '', '', 'F']);
}

/** The HL7 v2 message that carries one document (or the message's text) for a routing rule's convertToFormat. */
export function buildDocumentMessage(message: Hl7DocumentMessage): Hl7Message {
  const type = message.kind === 'MDM' ? 'MDM^T02^MDM_T02' : 'ORU^R01^ORU_R01';
  const when = timestamp(message.at);
  const msh = new Hl7Segment([
    'MSH',
    '^~\\&',
    'ClinicRelay',
    escapeHl7(message.sendingFacility),
    escapeHl7(message.receivingApplication),
    escapeHl7(message.receivingFacility),
    when,
    '',
    type,
    message.controlId,
    'P',
    '2.5.1',
    '',
    '',
    'AL',
    'NE',
  ]);
  const evn = new Hl7Segment(['EVN', message.kind === 'MDM' ? 'T02' : 'R01', when]);
  const documentDate = dateOf(message.document?.documentDate) || when;
  if (message.kind === 'MDM') {
    const contentType = message.document ? 'AP' : 'TX';
    // TXA-2 document type, -3 content presentation, -4 activity time, -12 unique document number, -17 completion
    // status (AU: authenticated, sent by its author's organization), -19 availability (AV: available).
    const txa = new Hl7Segment([
      'TXA',
      '1',
      documentCode(message.document, message.subject),
      contentType,
      documentDate,
      '',
      '',
      '',
      '',
      '',
      '',
      '',
      escapeHl7(message.documentNumber),
      '',
      '',
      '',
      escapeHl7(message.document?.fileName ?? ''),
      'AU',
      '',
      'AV',
    ]);
    return new Hl7Message([msh, evn, pid(message.patient), new Hl7Segment(['PV1', '1', 'N']), txa, observation(message)]);
  }
  // ORU^R01: PID, OBR (the document as an order's result), OBX.
  const obr = new Hl7Segment(['OBR', '1', '', escapeHl7(message.documentNumber), documentCode(message.document, message.subject), '', '', documentDate, '', '', '', '', '', '', '', '', '', '', '', '', '', '', when, '', '', 'F']);
  return new Hl7Message([msh, pid(message.patient), obr, observation(message)]);
}

export interface AckOutcome {
  // MSA-1: AA/CA accepted; AE/CE error; AR/CR rejected.
  code: string;
  accepted: boolean;
  // MSA-3 and ERR-8 (user message) or ERR-3 (error code's text), as one sentence.
  text: string;
  // MSA-2: must be the control id we sent.
  controlId: string;
}

/** What an ACK says about the message it answers. */
export function readAck(ack: Hl7Message): AckOutcome {
  const msa = ack.getSegment('MSA');
  const code = msa?.getField(1).toString().trim().toUpperCase() ?? '';
  const err = ack.getSegment('ERR');
  const texts = [msa?.getField(3).toString(), err?.getField(8).toString(), err?.getComponent(3, 2)].map((t) => unescapeHl7(t ?? '').trim()).filter(Boolean);
  return { code, accepted: code === 'AA' || code === 'CA', text: [...new Set(texts)].join(' '), controlId: msa?.getField(2).toString() ?? '' };
}
