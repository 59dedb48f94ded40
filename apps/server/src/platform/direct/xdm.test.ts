import fc from 'fast-check';
import { Zip, ZipDeflate, strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { ebRimErrors, XDS, xdmRuleErrors } from '../../test/validate-xdm-metadata.ts';
import { buildXdsSdDocument } from '../cda/cda-document.ts';
import { childrenNamed, descendants, parseXml, type XmlElement } from './xml-reader.ts';
import { buildXdmPackage, isXdmPackage, readXdmPackage } from './xdm.ts';

// Riverview sends Lakeside a referral and a CCD as an XDM package: Lakeside reads back every document with
// its name, type and date, and the patient. Packages from other systems are read leniently; zips that
// are not XDM, or that are zip bombs, are told apart or refused with a reason.

const pdf = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const ccd = Buffer.from('<?xml version="1.0"?><ClinicalDocument xmlns="urn:hl7-org:v3"/>');
const maria = {
  firstName: 'Maria',
  lastName: 'Alvarez',
  birthDate: '1958-04-12',
  gender: 'F' as const,
  patientId: 'MRN-1001',
  patientIds: [{ root: '2.16.840.1.113883.19.5', id: 'MRN-1001' }],
};

function referralPackage(): Buffer {
  return buildXdmPackage({
    documents: [
      { fileName: 'referral.pdf', mimeType: 'application/pdf', bytes: pdf, title: 'Referral to cardiology', documentType: 'Referral note', documentDate: new Date('2024-03-05T00:00:00Z') },
      { fileName: 'summary.xml', mimeType: 'text/xml', bytes: ccd, documentType: 'Summary of episode note', documentDate: null },
    ],
    patient: maria,
    author: 'Dr. Ann Carter',
  });
}

// A zip from the pieces given, as another system would make it.
const zipOf = (files: Record<string, string | Uint8Array>) =>
  zipSync(Object.fromEntries(Object.entries(files).map(([name, content]) => [name, typeof content === 'string' ? strToU8(content) : content])));

// The least METADATA.XML that lists the given files.
const listing = (uris: string[]) =>
  `<SubmitObjectsRequest xmlns="urn:oasis:names:tc:ebxml-regrep:xsd:lcm:3.0" xmlns:rim="urn:oasis:names:tc:ebxml-regrep:xsd:rim:3.0"><rim:RegistryObjectList>${uris
    .map((uri) => `<rim:ExtrinsicObject id="${uri}"><rim:Slot name="URI"><rim:ValueList><rim:Value>${uri}</rim:Value></rim:ValueList></rim:Slot></rim:ExtrinsicObject>`)
    .join('')}</rim:RegistryObjectList></SubmitObjectsRequest>`;

// Rewrites the uncompressed size a zip declares for its (single) entry, in the local header and the central directory.
function declareSize(zip: Uint8Array, size: number): Uint8Array {
  const patched = new Uint8Array(zip);
  const view = new DataView(patched.buffer);
  view.setUint32(22, size, true);
  const central = Buffer.from(patched).indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
  view.setUint32(central + 24, size, true);
  return patched;
}

describe('an XDM package built here', () => {
  it('has the layout XDM requires: INDEX.HTM, README.TXT, and METADATA.XML beside the documents', () => {
    expect(Object.keys(unzipSync(referralPackage())).sort()).toEqual([
      'IHE_XDM/SUBSET01/METADATA.XML',
      'IHE_XDM/SUBSET01/referral.pdf',
      'IHE_XDM/SUBSET01/summary.xml',
      'INDEX.HTM',
      'README.TXT',
    ]);
  });

  it('reads back both documents with their names, types, dates and bytes, and the patient', () => {
    const zip = referralPackage();
    expect(isXdmPackage(zip)).toBe(true);
    const { documents, patient } = readXdmPackage(zip);
    expect(documents).toEqual([
      {
        fileName: 'referral.pdf',
        mimeType: 'application/pdf',
        bytes: pdf,
        meta: { documentType: 'Referral note', documentDate: '2024-03-05', documentDateType: 'selected', confidentiality: 'Normal', documentDescription: 'Referral to cardiology', patient: null },
      },
      {
        fileName: 'summary.xml',
        mimeType: 'text/xml',
        bytes: ccd,
        meta: { documentType: 'Summary of episode note', documentDate: null, documentDateType: null, confidentiality: 'Normal', documentDescription: 'summary.xml', patient: null },
      },
    ]);
    expect(patient).toEqual(maria);
  });

  it('gives two documents of the same name distinct names in the package', () => {
    const zip = buildXdmPackage({
      documents: [
        { fileName: 'scan.pdf', mimeType: 'application/pdf', bytes: pdf },
        { fileName: 'scan.pdf', mimeType: 'application/pdf', bytes: pdf },
      ],
      patient: null,
    });
    const { documents, patient } = readXdmPackage(zip);
    expect(documents.map((d) => d.fileName)).toEqual(['scan.pdf', 'scan-2.pdf']);
    // A document nobody typed travels as LOINC 34109-9 "Note", the Document Ontology's root, and reads back so.
    expect(documents[0]!.meta).toMatchObject({ documentType: 'Note' });
    expect(patient).toBeNull();
  });
});

// A C-CDA R2.1 document with a structured body (a CCD's header, trimmed), and an XPHR one (IHE PCC).
const ccdaHeader = (templates: string, code: string) =>
  `<?xml version="1.0"?><ClinicalDocument xmlns="urn:hl7-org:v3"><realmCode code="US"/><typeId root="2.16.840.1.113883.1.3" extension="POCD_HD000040"/>${templates}` +
  `<id root="2.16.840.1.113883.19.5.99999.1"/>${code}<title>Summary</title><component><structuredBody/></component></ClinicalDocument>`;
const structuredCcda = ccdaHeader(
  '<templateId root="2.16.840.1.113883.10.20.22.1.1"/><templateId root="2.16.840.1.113883.10.20.22.1.1" extension="2015-08-01"/><templateId root="2.16.840.1.113883.10.20.22.1.2" extension="2015-08-01"/>',
  '<code code="34133-9" codeSystem="2.16.840.1.113883.6.1" codeSystemName="LOINC" displayName="Summarization of Episode Note"/>',
);
const xphr = ccdaHeader('<templateId root="1.3.6.1.4.1.19376.1.5.3.1.1.5"/>', '<code code="34133-9" codeSystem="2.16.840.1.113883.6.1"/>');

describe('XDM metadata in the codes receivers understand (IHE XDM, Direct XDR/XDM specification)', () => {
  const xdsSd = buildXdsSdDocument({
    title: 'Referral',
    documentTypeName: 'Referral Letter',
    loincCode: '57133-1',
    confidentiality: 'Normal',
    effectiveTime: new Date('2026-03-04T05:06:07Z'),
    patient: { ids: maria.patientIds, firstName: 'Maria', lastName: 'Alvarez' },
    author: { fullName: 'Ann Carter', userId: 'u1' },
    organization: { id: '6f1c2a9e-3b4d-4e5f-8a7b-9c0d1e2f3a4b', name: 'Lakeside Family Medicine' },
    pdf,
  });
  const built = () =>
    buildXdmPackage({
      documents: [
        { fileName: 'referral.pdf', mimeType: 'application/pdf', bytes: pdf, documentType: 'Referral Letter', loincCode: '57133-1', documentDate: new Date('2024-03-05T00:00:00Z') },
        // The product stores its CDA as application/xml; XDM types CDA as text/xml.
        { fileName: 'referral.xml', mimeType: 'application/xml', bytes: Buffer.from(xdsSd), documentType: 'Referral Letter', loincCode: '57133-1' },
        { fileName: 'ccd.xml', mimeType: 'text/xml', bytes: Buffer.from(structuredCcda), documentType: null },
        { fileName: 'phr.xml', mimeType: 'text/xml', bytes: Buffer.from(xphr) },
        { fileName: 'labs.pdf', mimeType: 'application/pdf', bytes: pdf, documentType: 'Laboratory Report', loincCode: '11502-2' },
        { fileName: 'note.txt', mimeType: 'text/plain', bytes: Buffer.from('Call me.'), documentType: 'Clinic note without a code' },
      ],
      patient: maria,
      author: 'Dr. Ann Carter',
      authorAddress: 'ann.carter@direct.riverview.example',
      recipient: 'intake@direct.lakeside.example',
    });
  const subset = (zip: Buffer) =>
    Object.fromEntries(Object.entries(unzipSync(zip)).filter(([name]) => name.startsWith('IHE_XDM/SUBSET01/')).map(([name, bytes]) => [name.slice('IHE_XDM/SUBSET01/'.length), bytes]));
  const code = (entry: XmlElement, scheme: string) => {
    const c = childrenNamed(entry, 'Classification').find((x) => x.attributes.classificationScheme === scheme)!;
    return [c.attributes.nodeRepresentation, descendants(c, 'Value')[0]?.text, descendants(c, 'LocalizedString')[0]?.attributes.value];
  };

  it('validates against the ebRIM 3.0 schema and keeps the XDM metadata rules (uniqueId, patientId, hash, size, author, intendedRecipient …)', async () => {
    const files = subset(built());
    const metadata = Buffer.from(files['METADATA.XML']!).toString('utf8');
    expect(await ebRimErrors(metadata)).toEqual([]);
    expect(xdmRuleErrors(metadata, files)).toEqual([]);
    expect(metadata).not.toContain('ClinicRelay');
  });

  it('codes each document in LOINC (type and class) and the format code of its kind; CDA as text/xml', () => {
    const metadata = Buffer.from(subset(built())['METADATA.XML']!).toString('utf8');
    const entries = descendants(parseXml(metadata), 'ExtrinsicObject');
    const described = entries.map((entry) => ({
      uri: descendants(childrenNamed(entry, 'Slot').find((x) => x.attributes.name === 'URI')!, 'Value')[0]!.text,
      mimeType: entry.attributes.mimeType,
      type: code(entry, XDS.entry.typeCode),
      class: code(entry, XDS.entry.classCode)[0],
      format: code(entry, XDS.entry.formatCode)[0],
    }));
    const loinc = '2.16.840.1.113883.6.1';
    expect(described).toEqual([
      { uri: 'referral.pdf', mimeType: 'application/pdf', type: ['57133-1', loinc, 'Referral Letter'], class: '57133-1', format: 'urn:ihe:iti:xds:2017:mimeTypeSufficient' },
      { uri: 'referral.xml', mimeType: 'text/xml', type: ['57133-1', loinc, 'Referral Letter'], class: '57133-1', format: 'urn:ihe:iti:xds-sd:pdf:2008' },
      { uri: 'ccd.xml', mimeType: 'text/xml', type: ['34133-9', loinc, 'Summarization of Episode Note'], class: '34133-9', format: 'urn:hl7-org:sdwg:ccda-structuredBody:2.1' },
      { uri: 'phr.xml', mimeType: 'text/xml', type: ['34133-9', loinc, '34133-9'], class: '34133-9', format: 'urn:ihe:pcc:xphr:2007' },
      { uri: 'labs.pdf', mimeType: 'application/pdf', type: ['11502-2', loinc, 'Laboratory Report'], class: '26436-6', format: 'urn:ihe:iti:xds:2017:mimeTypeSufficient' },
      // A type without a LOINC code is the LOINC Document Ontology's root, "Note", under its own name.
      { uri: 'note.txt', mimeType: 'text/plain', type: ['34109-9', loinc, 'Clinic note without a code'], class: '34109-9', format: 'urn:ihe:iti:xds:2017:mimeTypeSufficient' },
    ]);
    expect(code(entries[0]!, XDS.entry.healthcareFacilityTypeCode)).toEqual(['OF', '2.16.840.1.113883.5.111', 'Outpatient facility']);
    expect(code(entries[0]!, XDS.entry.practiceSettingCode)).toEqual(['394658006', '2.16.840.1.113883.6.96', 'Clinical specialty']);
  });

  it('names the recipient (intendedRecipient) and the sender (authorTelecommunication) by their Direct addresses', () => {
    const metadata = Buffer.from(subset(built())['METADATA.XML']!).toString('utf8');
    expect(metadata).toContain('<rim:Slot name="intendedRecipient"><rim:ValueList><rim:Value>||^^Internet^intake@direct.lakeside.example</rim:Value></rim:ValueList></rim:Slot>');
    const telecoms = descendants(parseXml(metadata), 'Slot').filter((x) => x.attributes.name === 'authorTelecommunication');
    expect(telecoms.map((x) => descendants(x, 'Value')[0]!.text)).toEqual(Array(7).fill('^^Internet^ann.carter@direct.riverview.example'));
  });

  it('reads its own package back: the document types by their names, CDA as text/xml', () => {
    const { documents } = readXdmPackage(built());
    expect(documents.map((d) => [d.fileName, d.mimeType, d.meta?.documentType])).toEqual([
      ['referral.pdf', 'application/pdf', 'Referral Letter'],
      ['referral.xml', 'text/xml', 'Referral Letter'],
      ['ccd.xml', 'text/xml', 'Summarization of Episode Note'],
      ['phr.xml', 'text/xml', '34133-9'],
      ['labs.pdf', 'application/pdf', 'Laboratory Report'],
      ['note.txt', 'text/plain', 'Clinic note without a code'],
    ]);
  });

  it('the checks find what is wrong: a slot value past 256 characters, a missing recipient, a hash that does not match', async () => {
    const files = subset(built());
    const metadata = Buffer.from(files['METADATA.XML']!).toString('utf8');
    const long = metadata.replace('<rim:Value>en-US</rim:Value>', `<rim:Value>${'x'.repeat(257)}</rim:Value>`);
    expect((await ebRimErrors(long)).join('\n')).toMatch(/Value.*(length|facet)/i);
    const misordered = metadata.replace(/(<rim:Name><rim:LocalizedString value="referral.pdf"\/><\/rim:Name>)(<rim:Classification[^]*?<\/rim:Classification>)/, '$2$1');
    expect((await ebRimErrors(misordered)).join('\n')).toMatch(/Name.*not expected/);
    const withoutRecipient = metadata.replace(/<rim:Slot name="intendedRecipient">.*?<\/rim:Slot>/, '');
    expect(xdmRuleErrors(withoutRecipient, files)).toEqual([expect.stringMatching(/^SubmissionSet: intendedRecipient/)]);
    expect(xdmRuleErrors(metadata, { ...files, 'labs.pdf': Buffer.from('changed') })).toEqual(['DocumentEntry labs.pdf: hash does not match the file', 'DocumentEntry labs.pdf: size does not match the file']);
  });
});

describe('an XDM package from another system', () => {
  // Written the way other HISPs write it: default namespace, sourcePatientInfo lines, a class code but no type code.
  const metadata = `<?xml version="1.0" encoding="UTF-8"?>
<SubmitObjectsRequest xmlns="urn:oasis:names:tc:ebxml-regrep:xsd:lcm:3.0" xmlns:rim="urn:oasis:names:tc:ebxml-regrep:xsd:rim:3.0">
 <rim:RegistryObjectList>
  <rim:ExtrinsicObject id="Doc1" mimeType="application/pdf" objectType="urn:uuid:7edca82f-054d-47f2-a032-9b2a5b5186c1">
   <rim:Slot name="creationTime"><rim:ValueList><rim:Value>20230817143000</rim:Value></rim:ValueList></rim:Slot>
   <rim:Slot name="sourcePatientId"><rim:ValueList><rim:Value>4411^^^&amp;1.2.3.4&amp;ISO</rim:Value></rim:ValueList></rim:Slot>
   <rim:Slot name="sourcePatientInfo"><rim:ValueList>
    <rim:Value>PID-3|4411^^^&amp;1.2.3.4&amp;ISO</rim:Value>
    <rim:Value>PID-5|Nguyễn^Thi^^^</rim:Value>
    <rim:Value>PID-7|19700102</rim:Value>
    <rim:Value>PID-8|F</rim:Value>
   </rim:ValueList></rim:Slot>
   <rim:Slot name="URI"><rim:ValueList><rim:Value>DOC0001.PDF</rim:Value></rim:ValueList></rim:Slot>
   <rim:Name><rim:LocalizedString value="Discharge &amp; follow-up"/></rim:Name>
   <rim:Classification classificationScheme="urn:uuid:41a5887f-8865-4c09-adf7-e362475b143a" classifiedObject="Doc1" nodeRepresentation="18842-5">
    <rim:Name><rim:LocalizedString value="Discharge summary"/></rim:Name>
   </rim:Classification>
   <rim:Classification classificationScheme="urn:uuid:f4f85eac-e6cb-4883-b524-f2705394840f" classifiedObject="Doc1" nodeRepresentation="R"/>
  </rim:ExtrinsicObject>
 </rim:RegistryObjectList>
</SubmitObjectsRequest>`;

  it('is read leniently: any subset folder, names matched regardless of case, the patient from sourcePatientInfo', () => {
    const zip = zipOf({
      'INDEX.HTM': '<html></html>',
      'README.TXT': 'Sent by another HISP',
      'IHE_XDM/PKG_A/METADATA.XML': metadata,
      'IHE_XDM/PKG_A/doc0001.pdf': pdf,
      'IHE_XDM/PKG_A/NOTES.TXT': 'not described in the metadata',
    });
    expect(isXdmPackage(zip)).toBe(true);
    const { documents, patient, unlisted } = readXdmPackage(zip);
    expect(documents).toEqual([
      {
        fileName: 'DOC0001.PDF',
        mimeType: 'application/pdf',
        bytes: pdf,
        meta: { documentType: 'Discharge summary', documentDate: '2023-08-17', documentDateType: 'selected', confidentiality: 'Restricted', documentDescription: 'Discharge & follow-up', patient: null },
      },
    ]);
    // Present in the subset but not in the metadata: not a document.
    expect(unlisted).toEqual(['NOTES.TXT']);
    expect(patient).toEqual({ lastName: 'Nguyễn', firstName: 'Thi', birthDate: '1970-01-02', gender: 'F', patientIds: [{ id: '4411', root: '1.2.3.4' }], patientId: '4411' });
  });

  it('yields no documents when METADATA.XML is broken or missing: its files are named as unlisted', () => {
    const zip = zipOf({ 'IHE_XDM/SUBSET01/METADATA.XML': '<SubmitObjectsRequest><ExtrinsicObject', 'IHE_XDM/SUBSET01/DOC0001.PDF': pdf });
    expect(readXdmPackage(zip)).toEqual({ documents: [], patient: null, unlisted: ['DOC0001.PDF'] });
    expect(readXdmPackage(zipOf({ 'IHE_XDM/SUBSET01/DOC0001.PDF': pdf }))).toEqual({ documents: [], patient: null, unlisted: ['DOC0001.PDF'] });
  });

  it('imports only what METADATA.XML lists: a .DS_Store, a __MACOSX fork or a stray file beside the documents is not a document', () => {
    const built = unzipSync(referralPackage());
    const zip = zipOf({
      ...built,
      'IHE_XDM/.DS_Store': new Uint8Array([0, 0, 0, 1, 66, 117, 100, 49]),
      'IHE_XDM/SUBSET01/.DS_Store': new Uint8Array([0, 0, 0, 1, 66, 117, 100, 49]),
      '__MACOSX/IHE_XDM/SUBSET01/._referral.pdf': new Uint8Array([0, 5, 22, 7]),
      'IHE_XDM/SUBSET01/Thumbs.db': new Uint8Array([0xd0, 0xcf, 0x11, 0xe0]),
      'IHE_XDM/SUBSET01/extra/notes.txt': 'not listed',
    });
    const { documents, unlisted } = readXdmPackage(zip);
    expect(documents.map((d) => d.fileName)).toEqual(['referral.pdf', 'summary.xml']);
    expect(unlisted.sort()).toEqual(['.DS_Store', 'Thumbs.db', 'notes.txt']);
  });

  it('never processes a DTD: metadata that declares one (an XXE attempt) is ignored, its files are not documents', () => {
    const hostile = `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r>&x;</r>`;
    expect(() => parseXml(hostile)).toThrowError('The XML could not be read: it declares a DTD (DOCTYPE), which is not accepted.');
    const zip = zipOf({ 'IHE_XDM/SUBSET01/METADATA.XML': hostile, 'IHE_XDM/SUBSET01/DOC0001.PDF': pdf });
    expect(readXdmPackage(zip)).toEqual({ documents: [], patient: null, unlisted: ['DOC0001.PDF'] });
  });

  it('reads metadata quoting "<!DOCTYPE" in CDATA or "<!ENTITY" in a comment: only a real declaration is refused', () => {
    const quoted = `<?xml version="1.0"?><!-- made from <!ENTITY nbsp "&#160;"> --><r a="x"><![CDATA[<!DOCTYPE html>]]><!-- <!DOCTYPE r> --></r>`;
    expect(parseXml(quoted)).toMatchObject({ name: 'r', text: '<!DOCTYPE html>' });
    expect(() => parseXml(`<!-- ok --><!DOCTYPE r><r/>`)).toThrowError('The XML could not be read: it declares a DTD (DOCTYPE), which is not accepted.');
    expect(() => parseXml(`<r><![CDATA[x]]><!ENTITY x "y"></r>`)).toThrowError(/declaration that is not accepted/);
  });

  it('is read when written as a stream, with data descriptors after each file', () => {
    const chunks: Uint8Array[] = [];
    const zip = new Zip((error, chunk) => {
      if (error) throw error;
      chunks.push(chunk);
    });
    for (const [name, content] of [['IHE_XDM/SUBSET01/METADATA.XML', Buffer.from(listing(['DOC0001.PDF', 'DOC0002.XML']))], ['IHE_XDM/SUBSET01/DOC0001.PDF', pdf], ['IHE_XDM/SUBSET01/DOC0002.XML', ccd]] as const) {
      const file = new ZipDeflate(name, { level: 6 });
      zip.add(file);
      file.push(content, true);
    }
    zip.end();
    const { documents } = readXdmPackage(Buffer.concat(chunks));
    expect(documents.map((d) => [d.fileName, d.mimeType, d.bytes])).toEqual([
      ['DOC0001.PDF', 'application/pdf', pdf],
      ['DOC0002.XML', 'application/xml', ccd],
    ]);
  });
});

describe('zips that are not XDM packages', () => {
  it('a zip without an IHE_XDM folder is not XDM', () => {
    const zip = zipOf({ 'referral.pdf': pdf, 'README.TXT': 'hello' });
    expect(isXdmPackage(zip)).toBe(false);
    expect(() => readXdmPackage(zip)).toThrowError('The zip file is not an XDM package: it has no IHE_XDM folder.');
  });

  it('a file that is not a zip, or a damaged one, is not XDM and is refused with a plain reason', () => {
    expect(isXdmPackage(pdf)).toBe(false);
    expect(() => readXdmPackage(pdf)).toThrowError('The XDM package is not a zip file.');
    const truncated = referralPackage().subarray(0, 300);
    expect(isXdmPackage(truncated)).toBe(false);
    expect(() => readXdmPackage(truncated)).toThrowError('The XDM package is not a readable zip file.');
  });
});

describe('zip bombs and oversized packages', () => {
  const zeros = (bytes: number) => zipSync({ 'IHE_XDM/SUBSET01/DOC0001.PDF': new Uint8Array(bytes) }, { level: 9 });

  it('refuses an entry whose declared size is far beyond what it packs, before inflating it', () => {
    expect(() => readXdmPackage(zeros(30 * 1024 * 1024))).toThrowError(
      'The XDM package was refused: "DOC0001.PDF" claims to unpack 500 times larger than it is packed, as a zip bomb does.',
    );
  });

  it('refuses a package that declares more than 200 MB', () => {
    expect(() => readXdmPackage(declareSize(zeros(1024), 300 * 1024 * 1024))).toThrowError('The XDM package unpacks to more than 200 MB.');
  });

  it('stops inflating an entry that grows past the size it declared (one entry that inflates past the limit)', () => {
    // The lying entry first (declareSize patches the first entry), listed in METADATA.XML so that it is inflated at all.
    const listed = zipSync({ 'IHE_XDM/SUBSET01/DOC0001.PDF': new Uint8Array(20 * 1024 * 1024), 'IHE_XDM/SUBSET01/METADATA.XML': strToU8(listing(['DOC0001.PDF'])) }, { level: 9 });
    const lying = declareSize(listed, 1000);
    const started = performance.now();
    let refusal: unknown;
    try {
      readXdmPackage(lying);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(Error);
    expect((refusal as Error).message).toBe('The XDM package was refused: "DOC0001.PDF" unpacks larger than the zip declares.');
    expect(Object.keys(refusal as Error)).toEqual([]); // a plain Error: no code or library fields
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('refuses more than 500 files', () => {
    const files = Object.fromEntries(Array.from({ length: 501 }, (_, i) => [`IHE_XDM/SUBSET01/DOC${i}.TXT`, 'x']));
    expect(isXdmPackage(zipOf(files))).toBe(false);
    expect(() => readXdmPackage(zipOf(files))).toThrowError('The XDM package holds more than 500 files.');
  });
});

describe('damaged input', () => {
  // Whatever the bytes, the answer is documents or an Error whose message is one of this module's own sentences.
  const failsPlainly = (read: () => unknown, sentence: RegExp) => {
    try {
      read();
    } catch (error) {
      expect(error).toBeInstanceOf(Error);
      expect(Object.keys(error as Error)).toEqual([]);
      expect((error as Error).message).toMatch(sentence);
    }
  };

  it('a package with bytes changed here and there is read or refused with a plain reason, never anything else', () => {
    const zip = referralPackage();
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(zip.length - 1), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }), (changes) => {
        const damaged = Buffer.from(zip);
        for (const [at, value] of changes) damaged[at] = value;
        expect(typeof isXdmPackage(damaged)).toBe('boolean');
        failsPlainly(() => readXdmPackage(damaged), /^The (XDM package|zip file) /);
      }),
      { numRuns: 300 },
    );
  });

  it('any text given as METADATA.XML is read or refused with a plain reason', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.stringMatching(/^(<[a-z:!?/]{0,4}( [a-z]+="[^"]{0,3}")?\/?>|&[a-z#0-9]{0,5};|[a-z ]{0,3}){0,12}$/)), (xml) => {
        failsPlainly(() => parseXml(xml), /^The XML could not be read: /);
      }),
      { numRuns: 500 },
    );
  });
});
