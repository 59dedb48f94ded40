import { expect, it } from 'vitest';
import { describeWithFixtures, fixture, fixtureText } from '../../test/shared-fixtures.ts';
import { validateCda } from '../../test/validate-cda.ts';
import { countByRule, validateSchematron } from '../../test/validate-schematron.ts';
import { encryptedPdf } from '../files/sample-files.ts';
import { buildXdsSdDocument, DEFAULT_DOCUMENT_CODE, escapeXml, organizationOid, PATIENT_ID_ARC, pdfWrapRefusal, type XdsSdDocumentInput } from './cda-document.ts';

// Shared fixtures are read in place (never copied into the project): the CDA schema and ud-sample.pdf.
const udSamplePdf = fixture('pdf/ud-sample.pdf');

const lakesideId = '6f1c2a9e-3b4d-4e5f-8a7b-9c0d1e2f3a4b';

const henryLevin = (overrides: Partial<XdsSdDocumentInput> = {}): XdsSdDocumentInput => ({
  title: 'Discharge Summary',
  documentTypeName: 'Discharge summary',
  loincCode: '18842-5',
  confidentiality: 'Normal',
  effectiveTime: new Date('2026-03-04T05:06:07.890Z'),
  patient: {
    ids: [{ root: '2.16.840.1.113883.19.5.99999.2', id: '998991' }],
    firstName: 'Henry',
    middleName: 'L',
    lastName: 'Levin',
    birthDate: '1953-03-02',
    gender: 'M',
    streetAddress1: '1357 Amber Drive',
    city: 'Beaverton',
    state: 'OR',
    postalCode: '97867',
    country: 'US',
    telephone: '(816) 276-6909',
  },
  author: { fullName: 'Lena Park', userId: 'a4a0f0d6-1f53-4b55-9f0c-5b7c3d1e2f10' },
  organization: { id: lakesideId, name: 'Lakeside Family Medicine', telephone: '503-555-0100', address: { streetAddress1: '1 Lake Way', city: 'Portland', state: 'OR', postalCode: '97201', country: 'US' } },
  pdf: udSamplePdf,
  ...overrides,
});

const embeddedPdf = (xml: string) => {
  const b64 = /<text mediaType="application\/pdf" representation="B64">([^<]*)<\/text>/.exec(xml)?.[1];
  return b64 === undefined ? undefined : Buffer.from(b64, 'base64');
};

describeWithFixtures('the CDA schema validator', () => {
  it('accepts HL7 example documents, one of them an Unstructured Document with an embedded PDF', async () => {
    for (const name of ['ccd-1.xml', 'unstructured-embedded-pdf.xml']) {
      const result = await validateCda(fixtureText(`cda/${name}`));
      expect(result, name).toEqual({ valid: true, errors: [] });
    }
  });

  it('names what is wrong in an invalid document', async () => {
    const broken = buildXdsSdDocument(henryLevin()).replace('<languageCode code="en-US"/>', '<languageCode code="en-US"/><shoeSize value="9"/>');
    const result = await validateCda(broken);
    expect(result.valid).toBe(false);
    expect(result.errors.join('\n')).toMatch(/shoeSize.*not expected/);
  });
});

describeWithFixtures('an XDS-SD document made from a PDF', () => {
  it('validates against CDA_SDTC.xsd and carries the headers of C-CDA R2.1 and XDS-SD', async () => {
    const xml = buildXdsSdDocument(henryLevin());

    expect(await validateCda(xml)).toEqual({ valid: true, errors: [] });
    expect(xml).toContain('<realmCode code="US"/>');
    expect(xml).toContain('<typeId root="2.16.840.1.113883.1.3" extension="POCD_HD000040"/>');
    expect(xml).toContain('<templateId root="2.16.840.1.113883.10.20.22.1.1"/>\n<templateId root="2.16.840.1.113883.10.20.22.1.1" extension="2015-08-01"/>');
    expect(xml).toContain('<templateId root="2.16.840.1.113883.10.20.22.1.10"/>\n<templateId root="2.16.840.1.113883.10.20.22.1.10" extension="2015-08-01"/>');
    expect(xml).toContain('<templateId root="2.16.840.1.113883.10.20.22.1.10" extension="2015-08-01"/>');
    expect(xml).toContain('<templateId root="1.3.6.1.4.1.19376.1.2.20"/>');
    expect(xml).toMatch(/<id root="[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}"\/>/);
    expect(xml).toContain('<code code="18842-5" codeSystem="2.16.840.1.113883.6.1" codeSystemName="LOINC" displayName="Discharge summary"><originalText>Discharge summary</originalText></code>');
    expect(xml).toContain('<effectiveTime value="20260304050607+0000"/>');
    expect(xml).toContain('<confidentialityCode code="N" codeSystem="2.16.840.1.113883.5.25" displayName="normal"/>');
    expect(xml).toContain('<languageCode code="en-US"/>');
  });

  it('names the patient, the author and the sending organization', () => {
    const xml = buildXdsSdDocument(henryLevin());

    expect(xml).toContain('<id root="2.16.840.1.113883.19.5.99999.2" extension="998991"/>');
    expect(xml).toContain('<name use="L"><given>Henry</given><given>L</given><family>Levin</family></name>');
    expect(xml).toContain('<administrativeGenderCode code="M" codeSystem="2.16.840.1.113883.5.1" displayName="Male"/>');
    expect(xml).toContain('<birthTime value="19530302"/>');
    expect(xml).toContain('<addr use="HP"><streetAddressLine>1357 Amber Drive</streetAddressLine><city>Beaverton</city><state>OR</state><postalCode>97867</postalCode><country>US</country></addr>');
    expect(xml).toContain('<telecom use="HP" value="tel:(816)276-6909"/>');
    expect(xml).toContain('<assignedPerson><name><given>Lena</given><family>Park</family></name></assignedPerson>');
    expect(xml).toContain('<softwareName>ClinicRelay CDA conversion</softwareName>');
    const custodian = /<representedCustodianOrganization>([\s\S]*?)<\/representedCustodianOrganization>/.exec(xml)?.[1];
    expect(custodian).toContain(`<id root="${organizationOid(lakesideId)}"/><name>Lakeside Family Medicine</name>`);
  });

  it('embeds the exact bytes of the PDF', () => {
    const bytes = embeddedPdf(buildXdsSdDocument(henryLevin()));
    expect(bytes?.equals(Buffer.from(udSamplePdf))).toBe(true);
  });

  it('escapes markup in names and titles, and the document still validates', async () => {
    const input = henryLevin({ title: 'Labs <final> & "signed"' });
    input.patient = { ...input.patient, firstName: `Zoë "Z" <b>`, lastName: "O'Brien & Sons" };
    input.organization = { ...input.organization, name: 'Smith & Jones <Clinic>' };
    const xml = buildXdsSdDocument(input);

    expect(await validateCda(xml)).toEqual({ valid: true, errors: [] });
    expect(xml).toContain('<given>Zoë &quot;Z&quot; &lt;b&gt;</given>');
    expect(xml).toContain('<family>O&apos;Brien &amp; Sons</family>');
    expect(xml).toContain('<name>Smith &amp; Jones &lt;Clinic&gt;</name>');
    expect(xml).toContain('<title>Labs &lt;final&gt; &amp; &quot;signed&quot;</title>');
    expect(xml).not.toContain('<b>');
  });

  it('gives a patient with no usable identifier one under the organization, and keeps a free-text root as its authority', async () => {
    const patientRoot = `${organizationOid(lakesideId)}.${PATIENT_ID_ARC}`;
    const none = henryLevin();
    none.patient = { ...none.patient, ids: [{ root: '', id: '  ' }] };
    const free = henryLevin();
    free.patient = { ...free.patient, ids: [{ root: 'Lakeside MRN', id: 'A&1' }] };

    const generated = buildXdsSdDocument(none);
    const kept = buildXdsSdDocument(free);

    expect(generated).toMatch(new RegExp(`<id root="${patientRoot.replaceAll('.', '\\.')}" extension="[0-9A-F-]{36}"/>`));
    expect(kept).toContain(`<id root="${patientRoot}" extension="A&amp;1" assigningAuthorityName="Lakeside MRN"/>`);
    expect(await validateCda(generated)).toEqual({ valid: true, errors: [] });
    expect(await validateCda(kept)).toEqual({ valid: true, errors: [] });
  });

  it('falls back to the generic LOINC "Note" and says unknown for what the header requires but nobody entered', async () => {
    const input = henryLevin({ loincCode: null, documentTypeName: 'Intake packet', confidentiality: 'Very Restricted', serviceDate: '2026-02-27' });
    input.patient = { ids: [], firstName: 'Ann', lastName: 'Lee', birthDate: '1990-01-31', gender: 'UN' };
    input.organization = { id: lakesideId, name: 'Lakeside Family Medicine' };
    const xml = buildXdsSdDocument(input);

    expect(await validateCda(xml)).toEqual({ valid: true, errors: [] });
    expect(xml).toContain(`<code code="${DEFAULT_DOCUMENT_CODE.code}" codeSystem="2.16.840.1.113883.6.1" codeSystemName="LOINC" displayName="Note"><originalText>Intake packet</originalText></code>`);
    expect(xml).toContain('<confidentialityCode code="V" codeSystem="2.16.840.1.113883.5.25" displayName="very restricted"/>');
    expect(xml).toContain('<administrativeGenderCode code="UN" codeSystem="2.16.840.1.113883.5.1" displayName="Undifferentiated"/>');
    expect(xml).toContain('<addr use="HP" nullFlavor="UNK"/>');
    expect(xml).toContain('<telecom use="HP" nullFlavor="UNK"/>');
    expect(xml).toContain('<raceCode nullFlavor="UNK"/>\n<ethnicGroupCode nullFlavor="UNK"/>');
    expect(xml).not.toContain('<legalAuthenticator>');
    expect(xml).toContain('<serviceEvent><effectiveTime><low value="20260227"/></effectiveTime></serviceEvent>');
  });

  it('drops characters XML cannot carry at all', () => {
    expect(escapeXml('a\u0000b\u0007c\tok\uFFFE')).toBe('abc\tok');
  });
});

// The official C-CDA R2.1 Schematron (errors phase = SHALL) over documents made by the real generator.
describeWithFixtures('generated documents and the C-CDA R2.1 Schematron', () => {
  const full = henryLevin({ documentDate: '2026-02-27', legalAuthenticator: { fullName: 'Lena Park', userId: 'a4a0f0d6-1f53-4b55-9f0c-5b7c3d1e2f10' } });
  full.patient = {
    ...full.patient,
    patientId: 'LK-20417',
    raceCode: { code: '2106-3', displayName: 'White' },
    ethnicGroupCode: { code: '2186-5', displayName: 'Not Hispanic or Latino' },
  };
  const cases: [string, XdsSdDocumentInput][] = [
    ['full data, race and ethnicity, MRN, signer', full],
    ['a partial address (city only), no race or ethnicity', henryLevin({ loincCode: '57133-1', documentTypeName: 'Referral Letter', title: 'Referral' })],
    ['no address, no phone, no identifiers, no organization address', { ...henryLevin({ loincCode: null, documentTypeName: null }), organization: { id: lakesideId, name: 'Lakeside Family Medicine' } }],
    ['a street and postal code but no city or state, a foreign country', henryLevin({ loincCode: '11502-2', documentTypeName: 'Laboratory Report', confidentiality: 'Restricted' })],
    ['an MRN only, a consultation note with a visit date', henryLevin({ loincCode: '11488-4', documentTypeName: 'Consultation Note', serviceDate: '2026-02-01', documentDate: '2026-02-02' })],
    ['no birth date and no gender (a referral that misses them)', henryLevin()],
    ['a birth date but no gender', henryLevin()],
    ['a gender but no birth date', henryLevin()],
  ];
  cases[1]![1].patient = { ...cases[1]![1].patient, streetAddress1: null, state: null, postalCode: null, country: null, telephone: null };
  cases[2]![1].patient = { ids: [], firstName: 'Ann', lastName: 'Lee', birthDate: '1990-01-31', gender: 'UN' };
  cases[3]![1].patient = { ...cases[3]![1].patient, city: '', state: undefined, country: 'CA', postalCode: 'K1A 0B1' };
  cases[4]![1].patient = { ...cases[4]![1].patient, ids: [], patientId: 'MRN-77' };
  cases[5]![1].patient = { ...cases[5]![1].patient, birthDate: null, gender: null };
  cases[6]![1].patient = { ...cases[6]![1].patient, gender: undefined };
  cases[7]![1].patient = { ...cases[7]![1].patient, birthDate: '' };

  it.each(cases)('%s: zero Schematron errors, and schema-valid', async (_name, input) => {
    const xml = buildXdsSdDocument(input);
    const result = validateSchematron(xml);
    expect(result.errors.map((e) => `${e.id} at ${e.location}: ${e.message}`)).toEqual([]);
    expect(await validateCda(xml)).toEqual({ valid: true, errors: [] });
  });

  it('writes a birth date or gender nobody recorded as unknown (nullFlavor UNK), the known one as it is', () => {
    expect(buildXdsSdDocument(cases[5]![1])).toContain('<administrativeGenderCode nullFlavor="UNK"/>\n<birthTime nullFlavor="UNK"/>');
    expect(buildXdsSdDocument(cases[6]![1])).toContain('<administrativeGenderCode nullFlavor="UNK"/>\n<birthTime value="19530302"/>');
    expect(buildXdsSdDocument(cases[7]![1])).toContain('<administrativeGenderCode code="M" codeSystem="2.16.840.1.113883.5.1" displayName="Male"/>\n<birthTime nullFlavor="UNK"/>');
  });

  it('carries the document type, the document date, the MRN, race and ethnicity, the signer', () => {
    const xml = buildXdsSdDocument(full);
    expect(xml).toContain('<effectiveTime value="20260227"/>');
    expect(xml).toContain(`<patientRole>\n<id root="${organizationOid(lakesideId)}.${PATIENT_ID_ARC}" extension="LK-20417"/>`);
    expect(xml).toContain('<raceCode code="2106-3" codeSystem="2.16.840.1.113883.6.238" codeSystemName="Race &amp; Ethnicity - CDC" displayName="White"/>');
    expect(xml).toContain('<ethnicGroupCode code="2186-5" codeSystem="2.16.840.1.113883.6.238" codeSystemName="Race &amp; Ethnicity - CDC" displayName="Not Hispanic or Latino"/>');
    expect(xml).toContain('<legalAuthenticator><time value="20260304050607+0000"/><signatureCode code="S"/><assignedEntity>');
    expect(xml).toContain('<telecom use="WP" value="tel:503-555-0100"/>');
    const partial = buildXdsSdDocument(cases[1]![1]);
    expect(partial).toContain('<addr use="HP"><streetAddressLine nullFlavor="UNK"/><city>Beaverton</city><state nullFlavor="UNK"/><postalCode nullFlavor="UNK"/></addr>');
    expect(partial).toContain('<code code="57133-1" codeSystem="2.16.840.1.113883.6.1" codeSystemName="LOINC" displayName="Referral Letter">');
  });

  it('the runner finds what the Schematron forbids: the HL7 example lacks the R1.1 templateIds, a bare header lacks race', () => {
    expect(countByRule(validateSchematron(fixtureText('cda/unstructured-embedded-pdf.xml')).errors)).toEqual({ 'hasCompatibleR1.1TemplateId': 2 });
    const bare = buildXdsSdDocument(full).replace(/<raceCode [^>]*\/>\n/, '').replace('<templateId root="2.16.840.1.113883.10.20.22.1.1"/>\n', '');
    const counts = countByRule(validateSchematron(bare).errors);
    expect(counts).toMatchObject({ 'hasCompatibleR1.1TemplateId': 1, 'a-1198-5322': 2 });
  });

  it('never wraps an encrypted or damaged PDF', () => {
    const locked = encryptedPdf({ user: 'secret', owner: 'owner' });
    expect(pdfWrapRefusal(locked)).toBe('encrypted');
    expect(pdfWrapRefusal(new TextEncoder().encode('<html>not a pdf</html>'))).toBe('damaged');
    expect(pdfWrapRefusal(udSamplePdf)).toBeNull();
    expect(() => buildXdsSdDocument(henryLevin({ pdf: locked }))).toThrow(/encrypted/);
  });
});
