import { describe, expect, it } from 'vitest';
import { fixtureFiles, fixtureText, itWithFixtures } from '../../test/shared-fixtures.ts';
import { cdaErrors, declaresDtd, formatHl7Date, formatPeriod, parseCda, readNarrative, type NarrativeNode } from './parse-cda.ts';

// The C-CDA examples are shared fixtures outside the project: read by path, never copied in.
const fixture = (name: string) => fixtureText(`cda/${name}`);

const cda = (body: string, header = '') =>
  `<?xml version="1.0"?><ClinicalDocument xmlns="urn:hl7-org:v3" xmlns:sdtc="urn:hl7-org:sdtc"><title>Note</title>${header}<component><structuredBody>${body}</structuredBody></component></ClinicalDocument>`;
const section = (title: string, text: string, inner = '') => `<component><section><title>${title}</title><text>${text}</text>${inner}</section></component>`;

/** The narrative of the first section, as the renderer receives it. */
const narrative = (text: string) => parseCda(cda(section('S', text))).sections[0]?.narrative ?? [];
const tags = (nodes: NarrativeNode[]): string[] => nodes.flatMap((n) => (n.kind === 'text' ? [] : [n.tag, ...tags(n.children)]));
const plain = (nodes: NarrativeNode[]): string => nodes.map((n) => (n.kind === 'text' ? n.text : plain(n.children))).join('');

describe('parseCda on hostile or broken XML', () => {
  it('refuses a DOCTYPE with an internal entity (billion laughs) before parsing', () => {
    const laughs = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]><ClinicalDocument xmlns="urn:hl7-org:v3"><title>&lol2;</title></ClinicalDocument>`;
    expect(() => parseCda(laughs)).toThrow(cdaErrors.hostile);
  });

  it('refuses external entities and bare DTD references', () => {
    expect(() => parseCda(`<!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><ClinicalDocument xmlns="urn:hl7-org:v3">&xxe;</ClinicalDocument>`)).toThrow(cdaErrors.hostile);
    expect(() => parseCda(`<!DOCTYPE ClinicalDocument SYSTEM "https://evil.example/cda.dtd"><ClinicalDocument xmlns="urn:hl7-org:v3"/>`)).toThrow(cdaErrors.hostile);
    expect(() => parseCda(`<ClinicalDocument xmlns="urn:hl7-org:v3"><!ENTITY x "y"></ClinicalDocument>`)).toThrow(cdaErrors.hostile);
  });

  it('reads a document that quotes "<!DOCTYPE" in CDATA or "<!ENTITY" in a comment: only real declarations are hostile', () => {
    const quoted = cda(
      section('Notes', '<paragraph>Plain</paragraph>') + '<!-- template said: <!ENTITY nbsp "&#160;"> and <!DOCTYPE x> -->',
      '<?xml-stylesheet href="x.xsl" type="text/xsl"?>',
    ).replace('<?xml version="1.0"?>', '');
    const document = parseCda(`<!-- exported; no <!DOCTYPE here -->\n${quoted}`);
    expect(document.sections.map((s) => s.title)).toEqual(['Notes']);
    // happy-dom's XML parser has no CDATA sections (browsers do), so the scan is checked on its own here.
    expect(declaresDtd(cda(section('Notes', '<paragraph><![CDATA[The sender pasted <!DOCTYPE html><html>...</html> here.]]></paragraph>')))).toBe(false);
    expect(declaresDtd(`<a><![CDATA[<!DOCTYPE x [<!ENTITY y "z">]>]]></a>`)).toBe(false);
    expect(declaresDtd(`<a title='<!ENTITY'>x</a>`)).toBe(false);
  });

  it('still refuses a real DOCTYPE after a comment or before the root, and an ENTITY right after a CDATA section', () => {
    expect(() => parseCda(`<?xml version="1.0"?><!-- c --><!DOCTYPE x [<!ENTITY e "e">]><ClinicalDocument xmlns="urn:hl7-org:v3"/>`)).toThrow(cdaErrors.hostile);
    expect(() => parseCda(`<ClinicalDocument xmlns="urn:hl7-org:v3"><title><![CDATA[x]]></title><!ENTITY x "y"></ClinicalDocument>`)).toThrow(cdaErrors.hostile);
    expect(declaresDtd(`<!--a--><!DOCTYPE x>`)).toBe(true);
    expect(declaresDtd(`<a b=">"><!ENTITY x "y"></a>`)).toBe(true);
  });

  it('says when the XML is not well-formed or not a CDA document', () => {
    expect(() => parseCda('<ClinicalDocument xmlns="urn:hl7-org:v3"><title>x</ClinicalDocument>')).toThrow(cdaErrors.notWellFormed);
    expect(() => parseCda('<ClinicalDocument><title>no namespace</title></ClinicalDocument>')).toThrow(cdaErrors.notCda);
    expect(() => parseCda('<html xmlns="http://www.w3.org/1999/xhtml"/>')).toThrow(cdaErrors.notCda);
  });
});

describe('parseCda header', () => {
  itWithFixtures('reads the referral note: patient, authors, custodian, dates', () => {
    const { header, sections } = parseCda(fixture('referral-note.xml'));
    expect(header.title).toBe('Referral Note');
    expect(header.code).toMatchObject({ code: '57113-1', displayName: 'Referral Note' });
    expect(formatHl7Date(header.effectiveTime)).toBe('09/21/2013 5:00 AM (UTC-08:00)');
    expect(header.confidentiality).toBe('Normal');
    const patient = header.patients[0]!;
    expect(patient.name?.text).toBe('Eve Betterhalf');
    expect(patient.otherNames.map((n) => n.text)).toEqual(['Eve Everywoman']);
    expect(formatHl7Date(patient.birthTime)).toBe('05/01/1975');
    expect(patient.gender).toBe('Female');
    expect(patient.ids).toContainEqual({ root: '2.16.840.1.113883.4.1', extension: '444222222', label: 'SSN' });
    expect(patient.addresses[0]?.text).toBe('2222 Home Street, Beaverton, OR 97867, US');
    expect(patient.telecoms).toContainEqual({ use: 'HP', value: 'tel:+1(555)555-2003' });
    // raceCode and the SDTC extension's second race.
    expect(patient.race).toEqual(['White', 'Native Hawaiian or Other Pacific Islander']);
    expect(patient.ethnicity).toEqual(['Not Hispanic or Latino']);
    expect(header.authors.length).toBeGreaterThan(0);
    expect(header.authors[0]?.name).toBeTruthy();
    expect(header.custodian).toBeTruthy();
    expect(header.legalAuthenticator?.name).toBeTruthy();
    expect(sections.map((s) => s.title)).toContain('REASON FOR REFERRAL');
    expect(sections.map((s) => s.key)).toEqual(sections.map((_, i) => String(i + 1)));
  });

  itWithFixtures('reads the encompassing encounter and the service event period', () => {
    const { header } = parseCda(fixture('discharge-summary.xml'));
    expect(formatPeriod(header.encounter?.period)).toBe('09/09/2014 7:04 PM (UTC-05:00) – 09/16/2014 7:04 PM (UTC-05:00)');
    expect(header.encounter?.dischargeDisposition).toBe('Routine Discharge');
    const ccd = parseCda(fixture('ccd-1.xml')).header;
    expect(formatPeriod(ccd.serviceEvents[0]?.period)).toBe('05/01/1975 – 08/15/2013');
  });

  itWithFixtures('reports an embedded PDF (nonXMLBody) with its decoded size', () => {
    const doc = parseCda(fixture('unstructured-embedded-pdf.xml'));
    expect(doc.sections).toEqual([]);
    expect(doc.nonXmlBody?.mediaType).toBe('application/pdf');
    expect(atob(doc.nonXmlBody!.base64!.slice(0, 8))).toBe('%PDF-1');
    expect(doc.nonXmlBody!.sizeBytes).toBe(atob(doc.nonXmlBody!.base64!).length);
  });

  itWithFixtures('reads every fixture with a patient name and titled sections or an embedded body', () => {
    const files = fixtureFiles('cda').filter((f) => f.endsWith('.xml'));
    expect(files.length).toBeGreaterThanOrEqual(7);
    for (const file of files) {
      const doc = parseCda(fixture(file));
      expect(doc.header.patients[0]?.name?.text, file).toBeTruthy();
      expect(doc.sections.length > 0 || doc.nonXmlBody !== undefined, file).toBe(true);
      for (const s of doc.sections) expect(s.title, file).not.toBe('Untitled section');
    }
  });

  it('keeps nested sections with ids from their position', () => {
    const doc = parseCda(cda(section('A', 'a', section('A1', 'x') + section('A2', 'y')) + section('B', 'b')));
    expect(doc.sections.map((s) => [s.key, s.title, s.sections.map((c) => `${c.key} ${c.title}`)])).toEqual([
      ['1', 'A', ['1.1 A1', '1.2 A2']],
      ['2', 'B', []],
    ]);
  });
});

describe('HL7 dates', () => {
  it('shows MM/DD/YYYY with the time when present, at any precision', () => {
    expect(formatHl7Date('1975')).toBe('1975');
    expect(formatHl7Date('197505')).toBe('05/1975');
    expect(formatHl7Date('19750501')).toBe('05/01/1975');
    expect(formatHl7Date('201309211430')).toBe('09/21/2013 2:30 PM');
    expect(formatHl7Date('20130921003015+0100')).toBe('09/21/2013 12:30 AM (UTC+01:00)');
    expect(formatHl7Date('20130921120000.123-0500')).toBe('09/21/2013 12:00 PM (UTC-05:00)');
    expect(formatHl7Date('not a date')).toBe('not a date');
    expect(formatHl7Date(undefined)).toBe('');
  });
});

describe('narrative whitelist', () => {
  it('keeps the narrative elements with bounded attributes only', () => {
    const nodes = narrative(
      '<paragraph>P <content styleCode="Bold Italics Xyz" ID="c1">b</content><sub>2</sub><sup>3</sup><br/></paragraph>' +
        '<list listType="ordered"><caption>Cap</caption><item>one</item></list>' +
        '<table border="1" onclick="x()"><thead><tr><th colspan="5000">H</th></tr></thead><tbody><tr><td rowspan="2" style="color:red">D</td></tr></tbody></table>',
    );
    expect(tags(nodes)).toEqual(['paragraph', 'content', 'sub', 'sup', 'br', 'list', 'caption', 'item', 'table', 'thead', 'tr', 'th', 'tbody', 'tr', 'td']);
    const content = (nodes[0] as Extract<NarrativeNode, { kind: 'element' }>).children[1];
    expect(content).toEqual({ kind: 'element', tag: 'content', styles: ['bold', 'italic'], children: [{ kind: 'text', text: 'b' }] });
    expect(JSON.stringify(nodes)).not.toMatch(/onclick|"style"|border|"ID"|c1|color/);
    expect(JSON.stringify(nodes)).toMatch(/"colSpan":100/);
    expect(JSON.stringify(nodes)).toMatch(/"ordered":true/);
  });

  it('turns anything else into its text: scripts, HTML elements, other namespaces', () => {
    const nodes = narrative(
      '<paragraph>a<script>alert(1)</script><img src="x" onerror="alert(2)"/><h:iframe xmlns:h="http://www.w3.org/1999/xhtml" src="https://evil.example">f</h:iframe><!-- c --><?pi x?></paragraph>',
    );
    expect(tags(nodes)).toEqual(['paragraph']);
    expect(plain(nodes)).toBe('aalert(1)f');
  });

  it('wraps stray content of tables and lists so the structure stays valid', () => {
    const nodes = narrative('<table><tr><td>bare row</td></tr><tbody>  <tr>text<td>x</td></tr></tbody></table><list>loose<item>i</item></list>');
    expect(tags(nodes)).toEqual(['table', 'tbody', 'tr', 'td', 'tbody', 'tr', 'td', 'td', 'list', 'item', 'item']);
  });

  it('flattens narrative nested beyond the depth bound into text', () => {
    const deep = '<content>'.repeat(200) + 'deep' + '</content>'.repeat(200);
    const nodes = readNarrative(new DOMParser().parseFromString(`<text xmlns="urn:hl7-org:v3">${deep}</text>`, 'application/xml').documentElement);
    expect(plain(nodes)).toBe('deep');
    expect(tags(nodes).length).toBeLessThan(60);
  });
});
