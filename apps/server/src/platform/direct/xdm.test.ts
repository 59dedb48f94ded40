import fc from 'fast-check';
import { Zip, ZipDeflate, strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { parseXml } from './xml-reader.ts';
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
    expect(documents[0]!.meta).toMatchObject({ documentType: null });
    expect(patient).toBeNull();
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
