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
  entryAuthor: 'urn:uuid:93606bcf-9494-43ec-9b4e-a7748d1a838d',
  healthcareFacilityTypeCode: 'urn:uuid:f33fb8ac-18af-42cc-ae0e-ed0b0bdb91e1',
  practiceSettingCode: 'urn:uuid:cccf5598-8b07-4b77-a05e-ae952c785ead',
  submissionSet: 'urn:uuid:a54d6aa5-d40d-43f9-88c5-b4633d873bdd',
  submissionSetAuthor: 'urn:uuid:a7058bb9-b4e4-4307-ba5b-e3f0ab85e12d',
  submissionSetUniqueId: 'urn:uuid:96fdda7c-d067-4183-912e-bf5ee74998a8',
  submissionSetSourceId: 'urn:uuid:554ac39e-e3fe-47fe-b233-965d2a147832',
  submissionSetPatientId: 'urn:uuid:6b5aea1a-874d-4603-a4bc-96a0a7b38446',
} as const;
const STABLE_DOCUMENT_ENTRY = 'urn:uuid:7edca82f-054d-47f2-a032-9b2a5b5186c1';
const LOINC = '2.16.840.1.113883.6.1';
const CONFIDENTIALITY_SYSTEM = '2.16.840.1.113883.5.25';
// IHE's format code system, which also holds HL7's C-CDA format codes (IHE ITI TF-3 §4.2.3.2.9).
const FORMAT_CODES = '1.3.6.1.4.1.19376.1.2.3';
const FORMAT = {
  xdsSdPdf: { code: 'urn:ihe:iti:xds-sd:pdf:2008', display: 'Scanned Documents (PDF)' },
  xdsSdText: { code: 'urn:ihe:iti:xds-sd:text:2008', display: 'Scanned Documents (text)' },
  xphr: { code: 'urn:ihe:pcc:xphr:2007', display: 'Exchange of Personal Health Records' },
  ccda21Structured: { code: 'urn:hl7-org:sdwg:ccda-structuredBody:2.1', display: 'Documents following C-CDA R2.1 constraints using a structured body' },
  ccda21NonXml: { code: 'urn:hl7-org:sdwg:ccda-nonXMLBody:2.1', display: 'Documents following C-CDA R2.1 constraints using a non-structured body' },
  ccda11Structured: { code: 'urn:hl7-org:sdwg:ccda-structuredBody:1.1', display: 'Documents following C-CDA R1.1 constraints using a structured body' },
  ccda11NonXml: { code: 'urn:hl7-org:sdwg:ccda-nonXMLBody:1.1', display: 'Documents following C-CDA R1.1 constraints using a non-structured body' },
  // For documents whose media type says all a reader needs (PDF, images, text, a CDA of no known template).
  mimeTypeSufficient: { code: 'urn:ihe:iti:xds:2017:mimeTypeSufficient', display: 'mimeType Sufficient' },
} as const;
const TEMPLATE = {
  xdsSd: '1.3.6.1.4.1.19376.1.2.20',
  xphr: '1.3.6.1.4.1.19376.1.5.3.1.1.5',
  usRealmHeader: '2.16.840.1.113883.10.20.22.1.1',
  ccdaR21: '2015-08-01',
} as const;
// LOINC 34109-9 "Note", the root of the LOINC Document Ontology: the type of a document nobody typed, claiming nothing.
const UNTYPED = { code: '34109-9', display: 'Note' } as const;
// HITSP C80 Document Class (LOINC) of the types the product seeds; any other type is its own class.
const CLASS_OF_TYPE: Record<string, { code: string; display: string }> = {
  '11488-4': { code: '11488-4', display: 'Consult note' },
  '18842-5': { code: '18842-5', display: 'Discharge summary' },
  '34117-2': { code: '34117-2', display: 'History and physical note' },
  '11506-3': { code: '11506-3', display: 'Progress note' },
  '18748-4': { code: '18726-0', display: 'Radiology studies (set)' },
  '11502-2': { code: '26436-6', display: 'Laboratory studies (set)' },
  '34133-9': { code: '34133-9', display: 'Summary of episode note' },
};
// Where and in which specialty the documents were made: no organization records either, so the least specific
// codes of the value sets US exchanges use (HL7 RoleCode "Outpatient facility"; SNOMED CT "Clinical specialty").
const FACILITY_TYPE = { code: 'OF', scheme: '2.16.840.1.113883.5.111', display: 'Outpatient facility' } as const;
const PRACTICE_SETTING = { code: '394658006', scheme: '2.16.840.1.113883.6.96', display: 'Clinical specialty' } as const;
const LOINC_CODE = /^\d{1,7}-\d$/;

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
  /** The LOINC code of the document's type (its document type's), when known; a CDA document's own code comes first. */
  loincCode?: string | null;
  documentDate: Date | null;
}

/** A fresh OID under 2.25 (ITU-T X.667: a UUID as one decimal arc). */
export const randomOid = () => `2.25.${BigInt(`0x${randomUUID().replaceAll('-', '')}`).toString()}`;

const XML_DECODE: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const decodeXml = (value: string) => value.replace(/&(amp|lt|gt|quot|apos);/g, (_, name: string) => XML_DECODE[name]!);
const attribute = (tag: string, name: string) => {
  const match = new RegExp(`\\s${name}\\s*=\\s*("([^"]*)"|'([^']*)')`).exec(tag);
  return match ? decodeXml(match[2] ?? match[3] ?? '').trim() : null;
};

interface CdaFacts {
  format: { code: string; display: string };
  type: { code: string; display: string } | null;
}

// What a CDA document's header says about it (its templates, its LOINC code, its kind of body), read from the text
// before the body, or null when the bytes are not a CDA document.
function cdaFacts(bytes: Uint8Array): CdaFacts | null {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 1024 * 1024)).toString('utf8');
  const root = /<(?:[\w.-]+:)?ClinicalDocument[\s>]/.exec(head);
  if (!root) return null;
  const bodyAt = head.slice(root.index).search(/<(?:[\w.-]+:)?component[\s>]/);
  const header = bodyAt < 0 ? head.slice(root.index) : head.slice(root.index, root.index + bodyAt);
  const body = bodyAt < 0 ? '' : head.slice(root.index + bodyAt);
  const templates = [...header.matchAll(/<(?:[\w.-]+:)?templateId\b[^>]*>/g)].map((m) => ({ root: attribute(m[0], 'root'), extension: attribute(m[0], 'extension') }));
  const has = (templateRoot: string, extension?: string) => templates.some((t) => t.root === templateRoot && (extension === undefined || t.extension === extension));
  const nonXml = /<(?:[\w.-]+:)?nonXMLBody[\s>]/.test(body);
  let format: CdaFacts['format'] = FORMAT.mimeTypeSufficient;
  if (has(TEMPLATE.xdsSd)) {
    const text = /<(?:[\w.-]+:)?text\b[^>]*>/.exec(body.slice(body.search(/<(?:[\w.-]+:)?nonXMLBody[\s>]/)));
    format = text && attribute(text[0], 'mediaType') === 'text/plain' ? FORMAT.xdsSdText : FORMAT.xdsSdPdf;
  } else if (has(TEMPLATE.usRealmHeader, TEMPLATE.ccdaR21)) format = nonXml ? FORMAT.ccda21NonXml : FORMAT.ccda21Structured;
  else if (has(TEMPLATE.usRealmHeader)) format = nonXml ? FORMAT.ccda11NonXml : FORMAT.ccda11Structured;
  else if (has(TEMPLATE.xphr)) format = FORMAT.xphr;
  const codeTag = /<(?:[\w.-]+:)?code\s[^>]*>/.exec(header)?.[0];
  const code = codeTag && attribute(codeTag, 'codeSystem') === LOINC ? attribute(codeTag, 'code') : null;
  const type = code && LOINC_CODE.test(code) ? { code, display: attribute(codeTag!, 'displayName') || code } : null;
  return { format, type };
}

const isXmlType = (mimeType: string) => /^(text|application)\/([\w.+-]+\+)?xml$/i.test(mimeType.trim());

const slot = (name: string, values: string[]) =>
  `<rim:Slot name="${escapeXml(name)}"><rim:ValueList>${values.map((v) => `<rim:Value>${escapeXml(v)}</rim:Value>`).join('')}</rim:ValueList></rim:Slot>`;
const name = (value: string) => `<rim:Name><rim:LocalizedString value="${escapeXml(value)}"/></rim:Name>`;

function classification(scheme: string, classifiedObject: string, code: string, codingScheme: string, display: string): string {
  return (
    `<rim:Classification id="urn:uuid:${randomUUID()}" classificationScheme="${scheme}" classifiedObject="${classifiedObject}" nodeRepresentation="${escapeXml(code)}">` +
    `${slot('codingScheme', [codingScheme])}${name(display)}</rim:Classification>`
  );
}

const externalIdentifier = (scheme: string, registryObject: string, value: string, label: string) =>
  `<rim:ExternalIdentifier id="urn:uuid:${randomUUID()}" identificationScheme="${scheme}" registryObject="${registryObject}" value="${escapeXml(value)}">${name(label)}</rim:ExternalIdentifier>`;

// An XTN holding an e-mail address (the Direct XDR/XDM specification's authorTelecommunication and intendedRecipient).
const internetXtn = (address: string) => `^^Internet^${escapeHl7(address)}`;

// The author (a person's name or the sender's address) with the sender's Direct address, as a classification of the object.
function author(scheme: string, classifiedObject: string, person: string, address: string | null): string {
  return (
    `<rim:Classification id="urn:uuid:${randomUUID()}" classificationScheme="${scheme}" classifiedObject="${classifiedObject}" nodeRepresentation="">` +
    slot('authorPerson', [person]) +
    (address ? slot('authorTelecommunication', [internetXtn(address)]) : '') +
    '</rim:Classification>'
  );
}

/**
 * METADATA.XML for one submission set holding the given documents, all about the given patient, in the codes the
 * IHE XDM profile and the Direct XDR/XDM specification name: LOINC type and class, IHE/HL7 format codes per kind
 * of document, text/xml for CDA, the recipient's and the sender's Direct addresses.
 */
export function writeXdmMetadata(input: {
  documents: XdmMetadataDocument[];
  patient: InboundPatient | null;
  author: string;
  /** The sender's Direct address (authorTelecommunication). */
  authorAddress?: string | null;
  /** The recipient's Direct address (intendedRecipient). */
  recipient?: string | null;
  sourceId: string;
  now: Date;
}): string {
  const patient = input.patient;
  const firstId = patient?.patientIds?.[0] ?? (patient?.patientId ? { id: patient.patientId, root: '' } : null);
  const patientCx = firstId ? writeCx(firstId) : null;
  const authorAddress = input.authorAddress?.trim() || null;
  const setId = `urn:uuid:${randomUUID()}`;
  const ids = input.documents.map(() => `urn:uuid:${randomUUID()}`);
  const entries = input.documents.map((document, index) => {
    const id = ids[index]!;
    const cda = isXmlType(document.mimeType) ? cdaFacts(document.bytes) : null;
    const typeName = document.documentType?.trim() || null;
    const loinc = document.loincCode?.trim();
    const type =
      cda?.type ?? (loinc && LOINC_CODE.test(loinc) ? { code: loinc, display: typeName ?? loinc } : { code: UNTYPED.code, display: typeName ?? UNTYPED.display });
    // The name the sender gave the type travels as its display name, so a reader here gets it back.
    const typeDisplay = typeName ?? type.display;
    const documentClass = CLASS_OF_TYPE[type.code] ?? { code: type.code, display: typeDisplay };
    const format = cda?.format ?? FORMAT.mimeTypeSufficient;
    return (
      `<rim:ExtrinsicObject id="${id}" mimeType="${cda ? 'text/xml' : escapeXml(document.mimeType)}" objectType="${STABLE_DOCUMENT_ENTRY}" status="urn:oasis:names:tc:ebxml-regrep:StatusType:Approved">` +
      (document.documentDate ? slot('creationTime', [isoToHl7Date(document.documentDate)]) : '') +
      slot('hash', [createHash('sha1').update(document.bytes).digest('hex')]) +
      slot('languageCode', ['en-US']) +
      slot('size', [String(document.bytes.length)]) +
      (patientCx ? slot('sourcePatientId', [patientCx]) : '') +
      (patient ? slot('sourcePatientInfo', writePatientInfo(patient)) : '') +
      slot('URI', [document.uri]) +
      name(document.title) +
      author(SCHEME.entryAuthor, id, input.author, authorAddress) +
      classification(SCHEME.classCode, id, documentClass.code, LOINC, documentClass.display) +
      classification(SCHEME.confidentialityCode, id, 'N', CONFIDENTIALITY_SYSTEM, 'Normal') +
      classification(SCHEME.formatCode, id, format.code, FORMAT_CODES, format.display) +
      classification(SCHEME.healthcareFacilityTypeCode, id, FACILITY_TYPE.code, FACILITY_TYPE.scheme, FACILITY_TYPE.display) +
      classification(SCHEME.practiceSettingCode, id, PRACTICE_SETTING.code, PRACTICE_SETTING.scheme, PRACTICE_SETTING.display) +
      classification(SCHEME.typeCode, id, type.code, LOINC, typeDisplay) +
      (patientCx ? externalIdentifier(SCHEME.entryPatientId, id, patientCx, 'XDSDocumentEntry.patientId') : '') +
      externalIdentifier(SCHEME.entryUniqueId, id, randomOid(), 'XDSDocumentEntry.uniqueId') +
      '</rim:ExtrinsicObject>'
    );
  });
  const recipient = input.recipient?.trim();
  // No contentTypeCode: optional since XDS 2017 (ITI TF-3 Table 4.3.1-3), and nothing here says which clinical activity it would be.
  const submissionSet =
    `<rim:RegistryPackage id="${setId}">` +
    (recipient ? slot('intendedRecipient', [`||${internetXtn(recipient)}`]) : '') +
    slot('submissionTime', [hl7Timestamp(input.now)]) +
    name('Documents') +
    author(SCHEME.submissionSetAuthor, setId, input.author, authorAddress) +
    externalIdentifier(SCHEME.submissionSetUniqueId, setId, randomOid(), 'XDSSubmissionSet.uniqueId') +
    externalIdentifier(SCHEME.submissionSetSourceId, setId, input.sourceId, 'XDSSubmissionSet.sourceId') +
    (patientCx ? externalIdentifier(SCHEME.submissionSetPatientId, setId, patientCx, 'XDSSubmissionSet.patientId') : '') +
    '</rim:RegistryPackage>' +
    `<rim:Classification id="urn:uuid:${randomUUID()}" classifiedObject="${setId}" classificationNode="${SCHEME.submissionSet}"/>`;
  const associations = ids.map(
    (documentId) =>
      `<rim:Association id="urn:uuid:${randomUUID()}" associationType="urn:oasis:names:tc:ebxml-regrep:AssociationType:HasMember" sourceObject="${setId}" targetObject="${documentId}">${slot('SubmissionSetStatus', ['Original'])}</rim:Association>`,
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
