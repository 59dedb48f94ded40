import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { validateXML } from 'xmllint-wasm';
import { childrenNamed, descendants, parseXml, type XmlElement } from '../platform/direct/xml-reader.ts';
import { fixturesDir } from './shared-fixtures.ts';

// XDM's METADATA.XML checked two ways: against the ebRIM 3.0 schema (the project's own subset in ./ebrim, and the
// official rim.xsd too when ../shared/fixtures/ebrim holds it), and against the XDM metadata rules of IHE ITI
// TF-3 §4.2/Table 4.3.1-3 and the Direct XDR/XDM specification that a schema cannot express.

const EBRIM_DIR = path.join(import.meta.dirname, 'ebrim');
const OFFICIAL_RIM = path.join(fixturesDir, 'ebrim/rim.xsd');

async function schemaErrors(xml: string, rim: string): Promise<string[]> {
  const result = await validateXML({
    xml: { fileName: 'METADATA.XML', contents: xml },
    schema: { fileName: 'lcm.xsd', contents: readFileSync(path.join(EBRIM_DIR, 'lcm.xsd'), 'utf8') },
    preload: [{ fileName: 'rim.xsd', contents: rim }],
  });
  return result.errors.map((e) => e.rawMessage);
}

/** Schema errors of METADATA.XML against ebRIM 3.0 (empty when valid). */
export async function ebRimErrors(xml: string): Promise<string[]> {
  const errors = await schemaErrors(xml, readFileSync(path.join(EBRIM_DIR, 'rim.xsd'), 'utf8'));
  if (existsSync(OFFICIAL_RIM)) errors.push(...(await schemaErrors(xml, readFileSync(OFFICIAL_RIM, 'utf8'))).map((e) => `official rim.xsd: ${e}`));
  return errors;
}

export const XDS = {
  documentEntry: 'urn:uuid:7edca82f-054d-47f2-a032-9b2a5b5186c1',
  submissionSet: 'urn:uuid:a54d6aa5-d40d-43f9-88c5-b4633d873bdd',
  entry: {
    author: 'urn:uuid:93606bcf-9494-43ec-9b4e-a7748d1a838d',
    classCode: 'urn:uuid:41a5887f-8865-4c09-adf7-e362475b143a',
    confidentialityCode: 'urn:uuid:f4f85eac-e6cb-4883-b524-f2705394840f',
    formatCode: 'urn:uuid:a09d5840-386c-46f2-b5ad-9c3699a4309d',
    healthcareFacilityTypeCode: 'urn:uuid:f33fb8ac-18af-42cc-ae0e-ed0b0bdb91e1',
    practiceSettingCode: 'urn:uuid:cccf5598-8b07-4b77-a05e-ae952c785ead',
    typeCode: 'urn:uuid:f0306f51-975f-434e-a61c-c59651d33983',
    patientId: 'urn:uuid:58a6f841-87b3-4a3e-92fd-a8ffeff98427',
    uniqueId: 'urn:uuid:2e82c1f6-a085-4c72-9da3-8640a32e42ab',
  },
  set: {
    author: 'urn:uuid:a7058bb9-b4e4-4307-ba5b-e3f0ab85e12d',
    patientId: 'urn:uuid:6b5aea1a-874d-4603-a4bc-96a0a7b38446',
    sourceId: 'urn:uuid:554ac39e-e3fe-47fe-b233-965d2a147832',
    uniqueId: 'urn:uuid:96fdda7c-d067-4183-912e-bf5ee74998a8',
  },
} as const;

const OID = /^[0-2](\.(0|[1-9]\d*))+$/;
const DTM = /^\d{4}(\d{2}(\d{2}(\d{2}(\d{2}(\d{2})?)?)?)?)?$/;
const CX = /^[^^]+\^\^\^&[0-2](\.(0|[1-9]\d*))+&ISO$/;
const XTN_INTERNET = /^\^\^Internet\^[^@\s]+@[^@\s]+$/;

const slotValues = (element: XmlElement, name: string) =>
  childrenNamed(element, 'Slot').filter((s) => s.attributes.name === name).flatMap((s) => descendants(s, 'Value').map((v) => v.text));
const classificationsOf = (element: XmlElement, scheme: string) => childrenNamed(element, 'Classification').filter((c) => c.attributes.classificationScheme === scheme);
const identifiersOf = (element: XmlElement, scheme: string) => childrenNamed(element, 'ExternalIdentifier').filter((c) => c.attributes.identificationScheme === scheme);

/** The XDM metadata rules a METADATA.XML breaks, one sentence each (empty when it keeps them all). */
export function xdmRuleErrors(xml: string, files: Record<string, Uint8Array>): string[] {
  const errors: string[] = [];
  const root = parseXml(xml);
  const list = descendants(root, 'RegistryObjectList')[0];
  if (!list) return ['no RegistryObjectList'];
  const ids = new Set(list.children.map((c) => c.attributes.id));
  for (const child of list.children) if (!/^urn:uuid:[0-9a-f-]{36}$/.test(child.attributes.id ?? '')) errors.push(`${child.name} id is not a UUID URN: ${child.attributes.id}`);
  if (ids.size !== list.children.length) errors.push('object ids are not unique');

  const codedOnce = (owner: string, element: XmlElement, scheme: string, label: string, codingScheme?: RegExp) => {
    const found = classificationsOf(element, scheme);
    if (found.length !== 1) return errors.push(`${owner}: ${label} ${found.length} times, not once`);
    const c = found[0]!;
    if (!c.attributes.nodeRepresentation) errors.push(`${owner}: ${label} has no code`);
    const system = slotValues(c, 'codingScheme');
    if (system.length !== 1 || !(codingScheme ?? OID).test(system[0]!)) errors.push(`${owner}: ${label} codingScheme is ${system.join(',') || 'missing'}`);
    if (!descendants(c, 'LocalizedString')[0]?.attributes.value) errors.push(`${owner}: ${label} has no display name`);
    if (c.attributes.classifiedObject !== element.attributes.id) errors.push(`${owner}: ${label} classifies another object`);
  };
  const authorOnce = (owner: string, element: XmlElement, scheme: string) => {
    const found = classificationsOf(element, scheme);
    if (found.length !== 1) return errors.push(`${owner}: author ${found.length} times, not once`);
    const author = found[0]!;
    if (author.attributes.nodeRepresentation !== '') errors.push(`${owner}: author nodeRepresentation must be empty`);
    if (slotValues(author, 'authorPerson').length !== 1) errors.push(`${owner}: authorPerson missing`);
    const telecom = slotValues(author, 'authorTelecommunication');
    if (telecom.length !== 1 || !XTN_INTERNET.test(telecom[0]!)) errors.push(`${owner}: authorTelecommunication is not an Internet XTN: ${telecom.join(',')}`);
  };
  const identifiedOnce = (owner: string, element: XmlElement, scheme: string, label: string, pattern: RegExp) => {
    const found = identifiersOf(element, scheme);
    if (found.length !== 1) return errors.push(`${owner}: ${label} ${found.length} times, not once`);
    if (!pattern.test(found[0]!.attributes.value ?? '')) errors.push(`${owner}: ${label} malformed: ${found[0]!.attributes.value}`);
    if (found[0]!.attributes.registryObject !== element.attributes.id) errors.push(`${owner}: ${label} names another object`);
    if (!descendants(found[0]!, 'LocalizedString')[0]?.attributes.value) errors.push(`${owner}: ${label} has no name`);
  };

  const entries = childrenNamed(list, 'ExtrinsicObject');
  if (entries.length === 0) errors.push('no DocumentEntry');
  for (const entry of entries) {
    const uri = slotValues(entry, 'URI');
    const owner = `DocumentEntry ${uri[0] ?? entry.attributes.id}`;
    if (entry.attributes.objectType !== XDS.documentEntry) errors.push(`${owner}: objectType is not a stable DocumentEntry`);
    if (!entry.attributes.mimeType) errors.push(`${owner}: no mimeType`);
    // XDM requires URI, hash and size, and they must describe the file beside METADATA.XML.
    const bytes = uri.length === 1 ? files[uri[0]!] : undefined;
    if (!bytes) errors.push(`${owner}: URI does not name one file of the subset`);
    const hash = slotValues(entry, 'hash');
    if (hash.length !== 1 || !/^[0-9a-f]{40}$/.test(hash[0]!)) errors.push(`${owner}: hash is not a SHA-1 in hex`);
    else if (bytes && hash[0] !== createHash('sha1').update(bytes).digest('hex')) errors.push(`${owner}: hash does not match the file`);
    const size = slotValues(entry, 'size');
    if (size.length !== 1 || (bytes && size[0] !== String(bytes.length))) errors.push(`${owner}: size does not match the file`);
    const creationTime = slotValues(entry, 'creationTime');
    if (creationTime.length > 1 || (creationTime[0] !== undefined && !DTM.test(creationTime[0]))) errors.push(`${owner}: creationTime is not one DTM`);
    if (slotValues(entry, 'languageCode').length !== 1) errors.push(`${owner}: languageCode missing`);
    const sourcePatientId = slotValues(entry, 'sourcePatientId');
    if (sourcePatientId.length !== 1 || !CX.test(sourcePatientId[0]!)) errors.push(`${owner}: sourcePatientId is not one CX with an ISO assigning authority`);
    authorOnce(owner, entry, XDS.entry.author);
    codedOnce(owner, entry, XDS.entry.classCode, 'classCode');
    codedOnce(owner, entry, XDS.entry.confidentialityCode, 'confidentialityCode', /^2\.16\.840\.1\.113883\.5\.25$/);
    codedOnce(owner, entry, XDS.entry.formatCode, 'formatCode');
    codedOnce(owner, entry, XDS.entry.healthcareFacilityTypeCode, 'healthcareFacilityTypeCode');
    codedOnce(owner, entry, XDS.entry.practiceSettingCode, 'practiceSettingCode');
    codedOnce(owner, entry, XDS.entry.typeCode, 'typeCode', /^2\.16\.840\.1\.113883\.6\.1$/);
    identifiedOnce(owner, entry, XDS.entry.patientId, 'patientId', CX);
    identifiedOnce(owner, entry, XDS.entry.uniqueId, 'uniqueId', OID);
  }

  const sets = childrenNamed(list, 'RegistryPackage');
  if (sets.length !== 1) errors.push(`${sets.length} RegistryPackages, not one SubmissionSet`);
  const set = sets[0];
  if (set) {
    const owner = 'SubmissionSet';
    const node = childrenNamed(list, 'Classification').filter((c) => c.attributes.classificationNode === XDS.submissionSet && c.attributes.classifiedObject === set.attributes.id);
    if (node.length !== 1) errors.push(`${owner}: not classified as a SubmissionSet`);
    if (set.attributes.status) errors.push(`${owner}: carries a status`);
    const time = slotValues(set, 'submissionTime');
    if (time.length !== 1 || !DTM.test(time[0]!)) errors.push(`${owner}: submissionTime is not one DTM`);
    const recipients = slotValues(set, 'intendedRecipient');
    if (recipients.length === 0 || !recipients.every((r) => /^[^|]*\|[^|]*\|\^\^Internet\^[^@\s]+@[^@\s]+$/.test(r))) errors.push(`${owner}: intendedRecipient is not XON|XCN|XTN with a Direct address: ${recipients.join(',')}`);
    authorOnce(owner, set, XDS.set.author);
    identifiedOnce(owner, set, XDS.set.uniqueId, 'uniqueId', OID);
    identifiedOnce(owner, set, XDS.set.sourceId, 'sourceId', OID);
    identifiedOnce(owner, set, XDS.set.patientId, 'patientId', CX);
    for (const entry of entries) {
      const members = childrenNamed(list, 'Association').filter(
        (a) =>
          a.attributes.associationType === 'urn:oasis:names:tc:ebxml-regrep:AssociationType:HasMember' &&
          a.attributes.sourceObject === set.attributes.id &&
          a.attributes.targetObject === entry.attributes.id,
      );
      if (members.length !== 1 || slotValues(members[0]!, 'SubmissionSetStatus')[0] !== 'Original') errors.push(`${owner}: ${entry.attributes.id} is not one Original member`);
    }
  }
  return errors;
}
