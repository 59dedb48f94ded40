import { createHash, randomUUID } from 'node:crypto';
import type { AttachmentMeta, PatientIdentifier } from '../../db/schema/messages.ts';
import type { InboundPatient } from '../../transports/local.ts';
import { escapeXml } from '../cda/cda-document.ts';
import { childrenNamed, descendants, parseXml, type XmlElement } from './xml-reader.ts';

// XDM's METADATA.XML (IHE ITI TF-3 §4.2, ebRIM 3.0): one ExtrinsicObject per document, with slots and
// classifications named by the fixed scheme UUIDs below. Read leniently (a missing or odd field is
// skipped, never fatal), written with the fields XDM requires or recommends that this product knows.

const SCHEME = {
  classCode: 'urn:uuid:41a5887f-8865-4c09-adf7-e362475b143a',
  typeCode: 'urn:uuid:f0306f51-975f-434e-a61c-c59651d33983',
  confidentialityCode: 'urn:uuid:f4f85eac-e6cb-4883-b524-f2705394840f',
  formatCode: 'urn:uuid:a09d5840-386c-46f2-b5ad-9c3699a4309d',
  entryUniqueId: 'urn:uuid:2e82c1f6-a085-4c72-9da3-8640a32e42ab',
  entryPatientId: 'urn:uuid:58a6f841-87b3-4a3e-92fd-a8ffeff98427',
  submissionSet: 'urn:uuid:a54d6aa5-d40d-43f9-88c5-b4633d873bdd',
  submissionSetAuthor: 'urn:uuid:a7058bb9-b4e4-4307-ba5b-e3f0ab85e12d',
  submissionSetContentType: 'urn:uuid:aa543740-bdda-424e-8c96-df4873be8500',
  submissionSetUniqueId: 'urn:uuid:96fdda7c-d067-4183-912e-bf5ee74998a8',
  submissionSetSourceId: 'urn:uuid:554ac39e-e3fe-47fe-b233-965d2a147832',
  submissionSetPatientId: 'urn:uuid:6b5aea1a-874d-4603-a4bc-96a0a7b38446',
} as const;
const STABLE_DOCUMENT_ENTRY = 'urn:uuid:7edca82f-054d-47f2-a032-9b2a5b5186c1';
// XDS's format code for documents whose media type says all a reader needs (PDF, images, text).
const MIME_TYPE_SUFFICIENT = 'urn:ihe:iti:xds:2017:mimeTypeSufficient';

const CONFIDENTIALITY_BY_CODE = { N: 'Normal', R: 'Restricted', V: 'Very Restricted' } as const;
const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

/** What METADATA.XML says about one document. */
export interface XdmEntry {
  uri: string;
  mimeType: string | null;
  meta: AttachmentMeta;
  patient: InboundPatient | null;
}

// ---- HL7 v2 data types in sourcePatientInfo (PID-3, -5, -7, -8, -11, -13) ----

const HL7_ESCAPES: Record<string, string> = { F: '|', S: '^', T: '&', R: '~', E: '\\' };
const unescapeHl7 = (value: string) => value.replace(/\\([FSTRE])\\/g, (_, code: string) => HL7_ESCAPES[code]!);
const escapeHl7 = (value: string) => value.replace(/[\\|^&~]/g, (c) => `\\${Object.keys(HL7_ESCAPES).find((k) => HL7_ESCAPES[k] === c)}\\`);

// A CX (id^^^&oid&ISO): the identifier and the OID of its assigning authority.
function readCx(value: string): PatientIdentifier | null {
  const components = value.split('~')[0]!.split('^');
  const id = unescapeHl7(components[0] ?? '').trim();
  if (!id) return null;
  const authority = (components[3] ?? '').split('&');
  return { id, root: unescapeHl7(authority[1] || authority[0] || '').trim() };
}

const writeCx = (identifier: PatientIdentifier) =>
  identifier.root ? `${escapeHl7(identifier.id)}^^^&${escapeHl7(identifier.root)}&ISO` : escapeHl7(identifier.id);

// HL7 dates are YYYYMMDD[HHMM[SS]]; only a real calendar date becomes YYYY-MM-DD.
function hl7DateToIso(value: string): string | null {
  const match = /^(\d{4})(\d{2})(\d{2})/.exec(value.trim());
  if (!match) return null;
  const iso = `${match[1]}-${match[2]}-${match[3]}`;
  const date = new Date(`${iso}T00:00:00Z`);
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== iso ? null : iso;
}

const isoToHl7Date = (date: Date) => date.toISOString().slice(0, 10).replaceAll('-', '');
const hl7Timestamp = (date: Date) => date.toISOString().replace(/[-:T]/g, '').slice(0, 14);

// HL7 administrative sex: M and F as they are; O, U, A, N and the like are "undifferentiated" here.
function genderOf(code: string | null | undefined): 'M' | 'F' | 'UN' | null {
  if (!code) return null;
  const upper = code.toUpperCase();
  return upper === 'M' || upper === 'F' ? upper : 'UN';
}

function readPatient(sourcePatientInfo: string[], identifiers: string[]): InboundPatient | null {
  const patient: InboundPatient = {};
  const ids: PatientIdentifier[] = [];
  const addId = (value: string) => {
    const cx = readCx(value);
    if (cx && !ids.some((known) => known.id === cx.id && known.root === cx.root)) ids.push(cx);
  };
  for (const line of sourcePatientInfo) {
    const bar = line.indexOf('|');
    if (bar < 0) continue;
    const field = line.slice(0, bar).trim().toUpperCase();
    const value = line.slice(bar + 1);
    const parts = value.split('~')[0]!.split('^').map((part) => unescapeHl7(part).trim() || null);
    if (field === 'PID-3') addId(value);
    else if (field === 'PID-5') [patient.lastName, patient.firstName, patient.middleName] = [parts[0], parts[1], parts[2]];
    else if (field === 'PID-7') patient.birthDate = hl7DateToIso(value);
    else if (field === 'PID-8') patient.gender = genderOf(parts[0]);
    else if (field === 'PID-11') {
      [patient.streetAddress1, patient.streetAddress2, patient.city, patient.state, patient.postalCode, patient.country] = parts;
    } else if (field === 'PID-13') patient.telephone = parts[0] ?? null;
  }
  identifiers.forEach(addId);
  if (ids.length) [patient.patientIds, patient.patientId] = [ids, ids[0]!.id];
  for (const key of Object.keys(patient) as (keyof InboundPatient)[]) if (patient[key] === null || patient[key] === undefined) delete patient[key];
  return Object.keys(patient).length ? patient : null;
}

function writePatientInfo(patient: InboundPatient): string[] {
  const lines: string[] = [];
  for (const id of patient.patientIds ?? []) lines.push(`PID-3|${writeCx(id)}`);
  if (!patient.patientIds?.length && patient.patientId) lines.push(`PID-3|${escapeHl7(patient.patientId)}`);
  const name = [patient.lastName, patient.firstName, patient.middleName].map((part) => escapeHl7(part ?? ''));
  if (name.some(Boolean)) lines.push(`PID-5|${name.join('^')}^^`);
  if (patient.birthDate) lines.push(`PID-7|${patient.birthDate.replaceAll('-', '')}`);
  if (patient.gender) lines.push(`PID-8|${patient.gender === 'UN' ? 'U' : patient.gender}`);
  const address = [patient.streetAddress1, patient.streetAddress2, patient.city, patient.state, patient.postalCode, patient.country];
  if (address.some(Boolean)) lines.push(`PID-11|${address.map((part) => escapeHl7(part ?? '')).join('^')}`);
  if (patient.telephone) lines.push(`PID-13|${escapeHl7(patient.telephone)}`);
  return lines;
}

// The patient as sourcePatientInfo lines, and back: also carried in a header when a message has no XDM (issue 26).
export const patientInfoLines = (patient: InboundPatient) => writePatientInfo(patient);
export const patientFromInfoLines = (lines: string[]) => readPatient(lines, []);

// ---- reading ----

const slotValues = (element: XmlElement, name: string) =>
  childrenNamed(element, 'Slot')
    .filter((slot) => slot.attributes.name?.toLowerCase() === name.toLowerCase())
    .flatMap((slot) => descendants(slot, 'Value').map((value) => value.text.trim()));

const localizedString = (element: XmlElement | undefined) =>
  (element && descendants(element, 'LocalizedString')[0]?.attributes.value?.trim()) || null;

const classifications = (entry: XmlElement, scheme: string) =>
  childrenNamed(entry, 'Classification').filter((c) => c.attributes.classificationScheme?.toLowerCase() === scheme);

const displayName = (classification: XmlElement | undefined) =>
  classification ? (localizedString(childrenNamed(classification, 'Name')[0]) ?? (classification.attributes.nodeRepresentation?.trim() || null)) : null;

function readEntry(entry: XmlElement): XdmEntry | null {
  // The URI slot's value may be split over several Values ("1|part", "2|part") when longer than a slot allows.
  const uriParts = slotValues(entry, 'URI');
  const uri = (uriParts.length > 1 && uriParts.every((part) => /^\d+\|/.test(part)) ? uriParts.map((part) => part.replace(/^\d+\|/, '')).join('') : uriParts[0])?.trim();
  if (!uri) return null;
  const mimeType = entry.attributes.mimeType?.trim().toLowerCase();
  const confidentialityCode = classifications(entry, SCHEME.confidentialityCode)[0]?.attributes.nodeRepresentation?.trim().toUpperCase();
  const documentDate = hl7DateToIso(slotValues(entry, 'creationTime')[0] ?? '');
  const patientIds = [
    ...slotValues(entry, 'sourcePatientId'),
    ...childrenNamed(entry, 'ExternalIdentifier')
      .filter((e) => e.attributes.identificationScheme?.toLowerCase() === SCHEME.entryPatientId)
      .map((e) => e.attributes.value ?? ''),
  ];
  return {
    uri,
    mimeType: mimeType && MEDIA_TYPE.test(mimeType) ? mimeType : null,
    meta: {
      documentType: displayName(classifications(entry, SCHEME.typeCode)[0]) ?? displayName(classifications(entry, SCHEME.classCode)[0]),
      documentDate,
      documentDateType: documentDate ? 'selected' : null,
      confidentiality: confidentialityCode && confidentialityCode in CONFIDENTIALITY_BY_CODE ? CONFIDENTIALITY_BY_CODE[confidentialityCode as keyof typeof CONFIDENTIALITY_BY_CODE] : null,
      documentDescription: localizedString(childrenNamed(entry, 'Name')[0]),
      patient: null,
    },
    patient: readPatient(slotValues(entry, 'sourcePatientInfo'), patientIds),
  };
}

/** The documents METADATA.XML describes; throws an Error saying why when it is not XML this reader accepts. */
export function readXdmMetadata(xml: string): XdmEntry[] {
  return descendants(parseXml(xml), 'ExtrinsicObject')
    .map(readEntry)
    .filter((entry) => entry !== null);
}

// ---- writing ----

export interface XdmMetadataDocument {
  uri: string;
  mimeType: string;
  bytes: Uint8Array;
  title: string;
  documentType: string | null;
  documentDate: Date | null;
}

/** A fresh OID under 2.25 (ITU-T X.667: a UUID as one decimal arc). */
export const randomOid = () => `2.25.${BigInt(`0x${randomUUID().replaceAll('-', '')}`).toString()}`;

const slot = (name: string, values: string[]) =>
  `<rim:Slot name="${escapeXml(name)}"><rim:ValueList>${values.map((v) => `<rim:Value>${escapeXml(v)}</rim:Value>`).join('')}</rim:ValueList></rim:Slot>`;
const name = (value: string) => `<rim:Name><rim:LocalizedString value="${escapeXml(value)}"/></rim:Name>`;

function classification(scheme: string, classifiedObject: string, code: string, codingScheme: string, display: string): string {
  return (
    `<rim:Classification id="${randomUUID()}" classificationScheme="${scheme}" classifiedObject="${classifiedObject}" nodeRepresentation="${escapeXml(code)}">` +
    `${slot('codingScheme', [codingScheme])}${name(display)}</rim:Classification>`
  );
}

const externalIdentifier = (scheme: string, registryObject: string, value: string, label: string) =>
  `<rim:ExternalIdentifier id="${randomUUID()}" identificationScheme="${scheme}" registryObject="${registryObject}" value="${escapeXml(value)}">${name(label)}</rim:ExternalIdentifier>`;

/** METADATA.XML for one submission set holding the given documents, all about the given patient. */
export function writeXdmMetadata(input: { documents: XdmMetadataDocument[]; patient: InboundPatient | null; author: string; sourceId: string; now: Date }): string {
  const patient = input.patient;
  const firstId = patient?.patientIds?.[0] ?? (patient?.patientId ? { id: patient.patientId, root: '' } : null);
  const patientCx = firstId ? writeCx(firstId) : null;
  const setId = 'SubmissionSet01';
  const entries = input.documents.map((document, index) => {
    const id = `Document${String(index + 1).padStart(2, '0')}`;
    // Document types here are names without a code system: they travel as this product's own vocabulary, and a
    // document without one gets no class or type rather than an invented one.
    const typeName = document.documentType;
    return (
      `<rim:ExtrinsicObject id="${id}" mimeType="${escapeXml(document.mimeType)}" objectType="${STABLE_DOCUMENT_ENTRY}" status="urn:oasis:names:tc:ebxml-regrep:StatusType:Approved">` +
      (document.documentDate ? slot('creationTime', [isoToHl7Date(document.documentDate)]) : '') +
      slot('hash', [createHash('sha1').update(document.bytes).digest('hex')]) +
      slot('languageCode', ['en-US']) +
      slot('size', [String(document.bytes.length)]) +
      (patientCx ? slot('sourcePatientId', [patientCx]) : '') +
      (patient ? slot('sourcePatientInfo', writePatientInfo(patient)) : '') +
      slot('URI', [document.uri]) +
      name(document.title) +
      (typeName
        ? classification(SCHEME.classCode, id, typeName, 'ClinicRelay document types', typeName) +
          classification(SCHEME.typeCode, id, typeName, 'ClinicRelay document types', typeName)
        : '') +
      classification(SCHEME.confidentialityCode, id, 'N', '2.16.840.1.113883.5.25', 'Normal') +
      classification(SCHEME.formatCode, id, MIME_TYPE_SUFFICIENT, '1.3.6.1.4.1.19376.1.2.3', 'Format from mimeType') +
      (patientCx ? externalIdentifier(SCHEME.entryPatientId, id, patientCx, 'XDSDocumentEntry.patientId') : '') +
      externalIdentifier(SCHEME.entryUniqueId, id, randomOid(), 'XDSDocumentEntry.uniqueId') +
      '</rim:ExtrinsicObject>'
    );
  });
  const submissionSet =
    `<rim:RegistryPackage id="${setId}">` +
    slot('submissionTime', [hl7Timestamp(input.now)]) +
    name('Documents') +
    `<rim:Classification id="${randomUUID()}" classificationScheme="${SCHEME.submissionSetAuthor}" classifiedObject="${setId}" nodeRepresentation="">${slot('authorPerson', [input.author])}</rim:Classification>` +
    classification(SCHEME.submissionSetContentType, setId, 'Documents', 'ClinicRelay content types', 'Documents') +
    externalIdentifier(SCHEME.submissionSetUniqueId, setId, randomOid(), 'XDSSubmissionSet.uniqueId') +
    externalIdentifier(SCHEME.submissionSetSourceId, setId, input.sourceId, 'XDSSubmissionSet.sourceId') +
    (patientCx ? externalIdentifier(SCHEME.submissionSetPatientId, setId, patientCx, 'XDSSubmissionSet.patientId') : '') +
    '</rim:RegistryPackage>' +
    `<rim:Classification id="${randomUUID()}" classifiedObject="${setId}" classificationNode="${SCHEME.submissionSet}"/>`;
  const associations = input.documents.map(
    (_, index) =>
      `<rim:Association id="${randomUUID()}" associationType="urn:oasis:names:tc:ebxml-regrep:AssociationType:HasMember" sourceObject="${setId}" targetObject="Document${String(index + 1).padStart(2, '0')}">${slot('SubmissionSetStatus', ['Original'])}</rim:Association>`,
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<lcm:SubmitObjectsRequest xmlns:lcm="urn:oasis:names:tc:ebxml-regrep:xsd:lcm:3.0" xmlns:rim="urn:oasis:names:tc:ebxml-regrep:xsd:rim:3.0">',
    '<rim:RegistryObjectList>',
    ...entries,
    submissionSet,
    ...associations,
    '</rim:RegistryObjectList>',
    '</lcm:SubmitObjectsRequest>',
    '',
  ].join('\n');
}
