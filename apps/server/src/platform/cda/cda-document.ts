import { randomUUID } from 'node:crypto';

export type CdaConfidentiality = 'Normal' | 'Restricted' | 'Very Restricted';

export interface CdaAddress {
  streetAddress1?: string | null;
  streetAddress2?: string | null;
  city?: string | null;
  state?: string | null;
  postalCode?: string | null;
  country?: string | null;
}

export interface CdaPatientId {
  root: string;
  id: string;
}

/** A coded value of the CDC Race and Ethnicity code system (2.16.840.1.113883.6.238), e.g. 2106-3 White. */
export interface CdaCode {
  code: string;
  displayName?: string | null;
}

export interface CdaPatient extends CdaAddress {
  ids: CdaPatientId[];
  /** The organization's medical record number for the patient: an id of the patient role under its patient arc. */
  patientId?: string | null;
  firstName: string;
  middleName?: string | null;
  lastName: string;
  /** YYYY-MM-DD; unknown (birthTime nullFlavor UNK) when absent, as real referrals often are. */
  birthDate?: string | null;
  /** Unknown (administrativeGenderCode nullFlavor UNK) when absent. */
  gender?: 'M' | 'F' | 'UN' | null;
  telephone?: string | null;
  /** OMB race category; unknown (nullFlavor UNK) when absent, as the header requires one. */
  raceCode?: CdaCode | null;
  /** OMB ethnicity; unknown (nullFlavor UNK) when absent. */
  ethnicGroupCode?: CdaCode | null;
}

export interface XdsSdDocumentInput {
  /** A UUID; a new one when absent. */
  documentId?: string | null;
  title: string;
  documentTypeName?: string | null;
  loincCode?: string | null;
  confidentiality: CdaConfidentiality;
  /** When the document is made (authoring and signing time); the document's own time when documentDate is absent. */
  effectiveTime: Date;
  /** YYYY-MM-DD the document is dated (the attachment's meta "Document Date"): the ClinicalDocument's effectiveTime. */
  documentDate?: string | null;
  /** YYYY-MM-DD of the care the document records (e.g. the visit date); becomes documentationOf/serviceEvent. */
  serviceDate?: string | null;
  patient: CdaPatient;
  author: { fullName: string; userId: string };
  /** The sender who takes responsibility for the document: its legalAuthenticator. Absent when the sender is not known. */
  legalAuthenticator?: { fullName: string; userId: string } | null;
  organization: { id: string; name: string; telephone?: string | null; address?: CdaAddress | null };
  pdf: Uint8Array;
}

export const CDA_TEMPLATE_IDS = {
  usRealmHeader: '2.16.840.1.113883.10.20.22.1.1',
  unstructuredDocument: '2.16.840.1.113883.10.20.22.1.10',
  xdsScannedDocument: '1.3.6.1.4.1.19376.1.2.20',
} as const;
export const CCDA_TEMPLATE_EXTENSION = '2015-08-01';

const LOINC = '2.16.840.1.113883.6.1';
const CONFIDENTIALITY_SYSTEM = '2.16.840.1.113883.5.25';
const GENDER_SYSTEM = '2.16.840.1.113883.5.1';
const RACE_AND_ETHNICITY_SYSTEM = '2.16.840.1.113883.6.238';
const RACE_AND_ETHNICITY_CODE_PATTERN = /^\d{4}-\d$/;

// LOINC 34109-9 "Note" is the root of the LOINC Document Ontology: it claims nothing about the
// content, whereas 34133-9 "Summary of episode note" is the CCD's code and makes receivers expect one.
export const DEFAULT_DOCUMENT_CODE = { code: '34109-9', displayName: 'Note' } as const;

// Identifiers we assign live under the organization's OID, derived from its UUID as 2.25.<uuid as a
// decimal integer> (ITU-T X.667): globally unique per organization and needing no OID registration.
// The constant arcs below separate what the organization numbers.
export const PATIENT_ID_ARC = '1';
export const USER_ID_ARC = '2';
export const DEVICE_ID_ARC = '3';
export const CONVERTER_SOFTWARE_NAME = 'ClinicRelay CDA conversion';

const CONFIDENTIALITY_CODES: Record<CdaConfidentiality, { code: string; displayName: string }> = {
  Normal: { code: 'N', displayName: 'normal' },
  Restricted: { code: 'R', displayName: 'restricted' },
  'Very Restricted': { code: 'V', displayName: 'very restricted' },
};

const GENDER_NAMES = { M: 'Male', F: 'Female', UN: 'Undifferentiated' } as const;

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const OID_PATTERN = /^[0-2](\.(0|[1-9][0-9]*))+$/;
const LOINC_CODE_PATTERN = /^\d{1,7}-\d$/;
const ISO_DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

// Characters XML 1.0 forbids even when escaped (control characters, lone surrogates, U+FFFE/FFFF).
// eslint-disable-next-line no-control-regex
const INVALID_XML_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const XML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Escapes a value for XML text or a double- or single-quoted attribute, dropping characters XML cannot carry. */
export function escapeXml(value: string): string {
  return value.replace(INVALID_XML_CHARS, '').replace(/[&<>"']/g, (c) => XML_ENTITIES[c] ?? c);
}

/** The organization's OID: 2.25.<its UUID as an unsigned decimal integer>. */
export function organizationOid(organizationId: string): string {
  if (!UUID_PATTERN.test(organizationId)) throw new Error(`Organization id is not a UUID: ${organizationId}`);
  return `2.25.${BigInt(`0x${organizationId.replaceAll('-', '')}`).toString()}`;
}

/** HL7 TS in UTC to the second, with the offset the US Realm header asks for: YYYYMMDDHHMMSS+0000. */
export function toHl7Timestamp(date: Date): string {
  return `${date.toISOString().replace(/[-:T]/g, '').slice(0, 14)}+0000`;
}

/**
 * Why these bytes cannot be wrapped, or null. A cheap check of the bytes themselves (the full one, which
 * opens the file, runs at upload and before a conversion): an XDS-SD document must embed a PDF any
 * receiver can open, so neither something that is not a PDF nor an encrypted one is wrapped.
 */
export function pdfWrapRefusal(pdf: Uint8Array): 'damaged' | 'encrypted' | null {
  const text = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength).toString('latin1');
  // Readers accept the header anywhere in the first kilobyte.
  if (!text.slice(0, 1024).includes('%PDF-')) return 'damaged';
  // The trailer (or cross-reference stream) names an /Encrypt dictionary, by reference or inline.
  if (/\/Encrypt\s*(\d+\s+\d+\s+R|<<)/.test(text)) return 'encrypted';
  return null;
}

/** An organization row (its address and phone columns) as the CDA author's and custodian's organization. */
export function cdaOrganization(row: {
  id: string;
  name: string;
  addressStreet?: string | null;
  addressUnit?: string | null;
  addressCity?: string | null;
  addressState?: string | null;
  addressZip?: string | null;
  addressCountry?: string | null;
  primaryPhone?: string | null;
  phone?: string | null;
}): XdsSdDocumentInput['organization'] {
  return {
    id: row.id,
    name: row.name,
    telephone: row.primaryPhone || row.phone || null,
    address: {
      streetAddress1: row.addressStreet,
      streetAddress2: row.addressUnit,
      city: row.addressCity,
      state: row.addressState,
      postalCode: row.addressZip,
      country: row.addressCountry,
    },
  };
}

/** Builds a C-CDA R2.1 Unstructured Document conforming to IHE XDS-SD that embeds the PDF. */
export function buildXdsSdDocument(input: XdsSdDocumentInput): string {
  const refusal = pdfWrapRefusal(input.pdf);
  if (refusal) throw new Error(`The PDF cannot be wrapped in a CDA document: it is ${refusal}`);
  const orgOid = organizationOid(input.organization.id);
  const documentId = input.documentId ?? randomUUID();
  if (!UUID_PATTERN.test(documentId)) throw new Error(`Document id is not a UUID: ${documentId}`);
  const time = toHl7Timestamp(input.effectiveTime);
  const documentDate = input.documentDate ? ISO_DATE_PATTERN.exec(input.documentDate.trim()) : null;
  // The date the document bears, to the day (the US Realm date-time allows a day without a time zone).
  const documentTime = documentDate ? `${documentDate[1]}${documentDate[2]}${documentDate[3]}` : time;
  const confidentiality = CONFIDENTIALITY_CODES[input.confidentiality];
  const documentType = input.documentTypeName?.trim();
  // A malformed LOINC code would make the document invalid; the type's name still travels as originalText.
  const loincCode = LOINC_CODE_PATTERN.test(input.loincCode?.trim() ?? '') ? input.loincCode?.trim() : undefined;
  const code = loincCode ? { code: loincCode, displayName: documentType } : DEFAULT_DOCUMENT_CODE;
  const org = input.organization;
  const orgAddress = address(org.address, 'WP');
  const orgTelecom = telecom(org.telephone, 'WP');
  const author = personName(input.author.fullName);
  const userId = `<id root="${orgOid}.${USER_ID_ARC}" extension="${escapeXml(input.author.userId)}"/>`;

  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<ClinicalDocument xmlns="urn:hl7-org:v3" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:sdtc="urn:hl7-org:sdtc">',
    '<realmCode code="US"/>',
    '<typeId root="2.16.840.1.113883.1.3" extension="POCD_HD000040"/>',
    // C-CDA R2.1 asks for each R1.1-compatible template's id without an extension beside the R2.1 one.
    `<templateId root="${CDA_TEMPLATE_IDS.usRealmHeader}"/>`,
    `<templateId root="${CDA_TEMPLATE_IDS.usRealmHeader}" extension="${CCDA_TEMPLATE_EXTENSION}"/>`,
    `<templateId root="${CDA_TEMPLATE_IDS.unstructuredDocument}"/>`,
    `<templateId root="${CDA_TEMPLATE_IDS.unstructuredDocument}" extension="${CCDA_TEMPLATE_EXTENSION}"/>`,
    `<templateId root="${CDA_TEMPLATE_IDS.xdsScannedDocument}"/>`,
    // HL7 V3 data types write UUID roots in upper case.
    `<id root="${documentId.toUpperCase()}"/>`,
    `<code code="${escapeXml(code.code)}" codeSystem="${LOINC}" codeSystemName="LOINC"${optionalAttr('displayName', code.displayName)}` +
      // The organization's own name for the type survives even when it has no LOINC code.
      (documentType ? `><originalText>${escapeXml(documentType)}</originalText></code>` : '/>'),
    `<title>${escapeXml(input.title)}</title>`,
    `<effectiveTime value="${documentTime}"/>`,
    `<confidentialityCode code="${confidentiality.code}" codeSystem="${CONFIDENTIALITY_SYSTEM}" displayName="${confidentiality.displayName}"/>`,
    '<languageCode code="en-US"/>',
    recordTarget(input.patient, orgOid),
    // The person who sent the document in: XDS-SD's original author when no other is known.
    '<author>',
    `<time value="${time}"/>`,
    `<assignedAuthor>${userId}${orgAddress}${orgTelecom}<assignedPerson>${author}</assignedPerson>${organization(orgOid, org.name, orgTelecom, orgAddress)}</assignedAuthor>`,
    '</author>',
    // XDS-SD's second author: the converting software, representing the scanning facility.
    '<author>',
    `<time value="${time}"/>`,
    `<assignedAuthor><id root="${orgOid}.${DEVICE_ID_ARC}" extension="cda-conversion"/>${orgAddress}${orgTelecom}` +
      `<assignedAuthoringDevice><manufacturerModelName>ClinicRelay</manufacturerModelName><softwareName>${CONVERTER_SOFTWARE_NAME}</softwareName></assignedAuthoringDevice>` +
      `${organization(orgOid, org.name, orgTelecom, orgAddress)}</assignedAuthor>`,
    '</author>',
    // XDS-SD's scanner operator: the same user, who turned the file into this document.
    `<dataEnterer><time value="${time}"/><assignedEntity>${userId}${orgAddress}${orgTelecom}<assignedPerson>${author}</assignedPerson></assignedEntity></dataEnterer>`,
    '<custodian><assignedCustodian><representedCustodianOrganization>',
    `<id root="${orgOid}"/><name>${escapeXml(org.name)}</name>${orgTelecom}${orgAddress}`,
    '</representedCustodianOrganization></assignedCustodian></custodian>',
    legalAuthenticator(input.legalAuthenticator, orgOid, time, orgAddress, orgTelecom),
    serviceEvent(input.serviceDate),
    '<component><nonXMLBody>',
    `<text mediaType="application/pdf" representation="B64">${Buffer.from(input.pdf.buffer, input.pdf.byteOffset, input.pdf.byteLength).toString('base64')}</text>`,
    '</nonXMLBody></component>',
    '</ClinicalDocument>\n',
  ]
    .filter(Boolean)
    .join('\n');
}

function recordTarget(patient: CdaPatient, orgOid: string): string {
  const middle = patient.middleName?.trim();
  const birth = ISO_DATE_PATTERN.exec(patient.birthDate?.trim() ?? '');
  return [
    '<recordTarget><patientRole>',
    ...patientIds(patient, orgOid),
    address(patient, 'HP'),
    telecom(patient.telephone, 'HP'),
    '<patient>',
    '<name use="L">' +
      `<given>${escapeXml(patient.firstName.trim())}</given>` +
      (middle ? `<given>${escapeXml(middle)}</given>` : '') +
      `<family>${escapeXml(patient.lastName.trim())}</family></name>`,
    // The header requires both; a patient whose gender or birth date the sender does not know says so (nullFlavor UNK).
    patient.gender
      ? `<administrativeGenderCode code="${patient.gender}" codeSystem="${GENDER_SYSTEM}" displayName="${GENDER_NAMES[patient.gender]}"/>`
      : '<administrativeGenderCode nullFlavor="UNK"/>',
    birth ? `<birthTime value="${birth[1]}${birth[2]}${birth[3]}"/>` : '<birthTime nullFlavor="UNK"/>',
    // The header requires both; a patient whose race or ethnicity nobody recorded says so.
    raceOrEthnicity('raceCode', patient.raceCode),
    raceOrEthnicity('ethnicGroupCode', patient.ethnicGroupCode),
    '</patient>',
    '</patientRole></recordTarget>',
  ].join('\n');
}

// The header requires at least one patient id: the organization's MRN comes first, under its patient
// arc; ids without a usable root are numbered there too (the root text kept as the assigning
// authority), and a patient with none gets a fresh one there.
function patientIds(patient: CdaPatient, orgOid: string): string[] {
  const patientRoot = `${orgOid}.${PATIENT_ID_ARC}`;
  const mrn = patient.patientId?.trim();
  const ids = [...(mrn ? [{ root: patientRoot, id: mrn }] : []), ...patient.ids];
  const lines = ids
    .map(({ root, id }) => ({ root: root.trim(), id: id.trim() }))
    .filter(({ id }) => id !== '')
    .map(({ root, id }) => {
      if (OID_PATTERN.test(root) || UUID_PATTERN.test(root)) return `<id root="${root}" extension="${escapeXml(id)}"/>`;
      return `<id root="${patientRoot}" extension="${escapeXml(id)}"${optionalAttr('assigningAuthorityName', root)}/>`;
    });
  const unique = [...new Set(lines)];
  return unique.length > 0 ? unique : [`<id root="${patientRoot}" extension="${randomUUID().toUpperCase()}"/>`];
}

function raceOrEthnicity(tag: 'raceCode' | 'ethnicGroupCode', value: CdaCode | null | undefined): string {
  const code = value?.code.trim();
  if (!code || !RACE_AND_ETHNICITY_CODE_PATTERN.test(code)) return `<${tag} nullFlavor="UNK"/>`;
  return `<${tag} code="${code}" codeSystem="${RACE_AND_ETHNICITY_SYSTEM}" codeSystemName="Race &amp; Ethnicity - CDC"${optionalAttr('displayName', value?.displayName?.trim())}/>`;
}

// The US Realm Address: an addr nobody entered is unknown as a whole; a partial one keeps every part the
// template requires (a street line, city, state, postal code), unknown ones as nullFlavor elements.
function address(value: CdaAddress | null | undefined, use: 'HP' | 'WP'): string {
  const parts = [
    ['streetAddressLine', value?.streetAddress1, true],
    ['streetAddressLine', value?.streetAddress2, false],
    ['city', value?.city, true],
    ['state', value?.state, true],
    ['postalCode', value?.postalCode, true],
    ['country', value?.country, false],
  ].map(([tag, text, required]) => ({ tag, text: (text as string | null | undefined)?.trim(), required }));
  if (!parts.some((p) => p.text)) return `<addr use="${use}" nullFlavor="UNK"/>`;
  const xml = parts
    .filter((p) => p.text || p.required)
    .map(({ tag, text }) => (text ? `<${tag}>${escapeXml(text)}</${tag}>` : `<${tag} nullFlavor="UNK"/>`));
  return `<addr use="${use}">${xml.join('')}</addr>`;
}

function telecom(telephone: string | null | undefined, use: 'HP' | 'WP'): string {
  // RFC 3966 allows only digits, '+' and the visual separators - . ( ) in a tel: URI.
  const number = telephone?.replace(/[^0-9+\-.()]/g, '');
  // The header asks for @use on every telecom, an unknown one included.
  return number ? `<telecom use="${use}" value="tel:${escapeXml(number)}"/>` : `<telecom use="${use}" nullFlavor="UNK"/>`;
}

// The sender who put the document in takes legal responsibility for it (signatureCode S: signed, on file).
function legalAuthenticator(signer: XdsSdDocumentInput['legalAuthenticator'], orgOid: string, time: string, orgAddress: string, orgTelecom: string): string {
  if (!signer) return '';
  const id = `<id root="${orgOid}.${USER_ID_ARC}" extension="${escapeXml(signer.userId)}"/>`;
  return (
    `<legalAuthenticator><time value="${time}"/><signatureCode code="S"/>` +
    `<assignedEntity>${id}${orgAddress}${orgTelecom}<assignedPerson>${personName(signer.fullName)}</assignedPerson></assignedEntity></legalAuthenticator>`
  );
}

function organization(orgOid: string, name: string, orgTelecom: string, orgAddress: string): string {
  return `<representedOrganization><id root="${orgOid}"/><name>${escapeXml(name)}</name>${orgTelecom}${orgAddress}</representedOrganization>`;
}

// A user's full name is one string: the last word is taken as the family name, the rest as given names.
function personName(fullName: string): string {
  const words = fullName.trim().split(/\s+/).filter(Boolean);
  const family = words.pop();
  if (!family) return '<name nullFlavor="UNK"/>';
  return `<name>${words.map((w) => `<given>${escapeXml(w)}</given>`).join('')}<family>${escapeXml(family)}</family></name>`;
}

function serviceEvent(serviceDate: string | null | undefined): string {
  const date = serviceDate ? ISO_DATE_PATTERN.exec(serviceDate.trim()) : null;
  if (!date) return '';
  return `<documentationOf><serviceEvent><effectiveTime><low value="${date[1]}${date[2]}${date[3]}"/></effectiveTime></serviceEvent></documentationOf>`;
}

function optionalAttr(name: string, value: string | null | undefined): string {
  return value ? ` ${name}="${escapeXml(value)}"` : '';
}
