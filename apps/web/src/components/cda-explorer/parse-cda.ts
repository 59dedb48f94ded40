// Reads a C-CDA document (HL7 CDA R2) into plain data for the CDA Explorer: the header, every section
// with its narrative block reduced to a whitelisted tree, and a nonXMLBody's embedded file. No React
// here, no stylesheet from the document, nothing loaded from outside: the XML is only read.

export const HL7_NS = 'urn:hl7-org:v3';
export const SDTC_NS = 'urn:hl7-org:sdtc';

/** Larger documents are refused rather than parsed (an embedded PDF of ~35 MB still fits). */
export const MAX_CDA_CHARS = 50_000_000;
// Deeper nesting is hostile or broken: sections below it are not read, narrative below it becomes text.
const MAX_SECTION_DEPTH = 24;
const MAX_NARRATIVE_DEPTH = 48;
const MAX_SPAN = 100;

export const cdaErrors = {
  hostile:
    'This document declares a DTD or entities (<!DOCTYPE>, <!ENTITY>). Such XML can be hostile (entity expansion, external files), so it is not shown.',
  tooLarge: 'This document is too large to show in the CDA Explorer.',
  notWellFormed: 'This file is not well-formed XML.',
  notCda: 'This file is not a CDA document: its root element is not an HL7 v3 ClinicalDocument.',
} as const;

export class CdaParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CdaParseError';
  }
}

// ---------------------------------------------------------------------------------------------------
// Model

export interface CdaCode {
  code?: string;
  displayName?: string;
  codeSystemName?: string;
}

export interface CdaId {
  root?: string;
  extension?: string;
  /** The assigning authority when its OID is a well-known one (SSN, NPI). */
  label?: string;
}

export interface CdaName {
  prefix: string[];
  given: string[];
  family: string[];
  suffix: string[];
  /** The whole name for display ("Eve Betterhalf"). */
  text: string;
}

export interface CdaAddress {
  use?: string;
  lines: string[];
  city?: string;
  state?: string;
  postalCode?: string;
  country?: string;
  text: string;
}

export interface CdaTelecom {
  use?: string;
  value: string;
}

export interface CdaPeriod {
  /** HL7 TS values as written (YYYYMMDDHHMMSS±ZZZZ, partial precision allowed). */
  value?: string;
  low?: string;
  high?: string;
}

export interface CdaPatient {
  name?: CdaName;
  otherNames: CdaName[];
  birthTime?: string;
  gender?: string;
  ids: CdaId[];
  addresses: CdaAddress[];
  telecoms: CdaTelecom[];
  race: string[];
  ethnicity: string[];
  maritalStatus?: string;
  language?: string;
}

export interface CdaParty {
  /** A person's name, or a device's model and software when a system wrote the document. */
  name?: string;
  organization?: string;
  time?: string;
}

export interface CdaServiceEvent {
  code?: CdaCode;
  period?: CdaPeriod;
  performers: string[];
}

export interface CdaEncounter {
  ids: CdaId[];
  code?: CdaCode;
  period?: CdaPeriod;
  location?: string;
  responsibleParty?: string;
  dischargeDisposition?: string;
}

export interface CdaHeader {
  title: string;
  code?: CdaCode;
  effectiveTime?: string;
  confidentiality?: string;
  patients: CdaPatient[];
  authors: CdaParty[];
  custodian?: string;
  legalAuthenticator?: CdaParty;
  serviceEvents: CdaServiceEvent[];
  encounter?: CdaEncounter;
}

export const narrativeTags = [
  'paragraph',
  'content',
  'list',
  'item',
  'table',
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'th',
  'td',
  'br',
  'sub',
  'sup',
  'caption',
  'linkHtml',
  'renderMultiMedia',
  'footnote',
  'footnoteRef',
] as const;
export type NarrativeTag = (typeof narrativeTags)[number];

export type NarrativeStyle = 'bold' | 'italic' | 'underline';

/** A narrative block after the whitelist: only these shapes reach the renderer. */
export type NarrativeNode =
  | { kind: 'text'; text: string }
  | {
      kind: 'element';
      tag: NarrativeTag;
      children: NarrativeNode[];
      styles?: NarrativeStyle[];
      ordered?: boolean;
      colSpan?: number;
      rowSpan?: number;
      /** linkHtml: the address as written, shown as text (never followed unless https). */
      href?: string;
    };

export interface CdaSection {
  /** Derived from the section's position ("2.1"), never from the document's content. */
  key: string;
  title: string;
  code?: CdaCode;
  narrative: NarrativeNode[];
  sections: CdaSection[];
}

export interface CdaNonXmlBody {
  mediaType: string;
  /** Decoded size of an embedded (B64) file. */
  sizeBytes?: number;
  /** Base64 of the embedded file, whitespace removed. */
  base64?: string;
  /** Plain text carried inline (representation TXT). */
  text?: string;
  /** A reference to a file outside the document: reported, never fetched. */
  reference?: string;
}

export interface CdaDocument {
  header: CdaHeader;
  sections: CdaSection[];
  nonXmlBody?: CdaNonXmlBody;
}

// ---------------------------------------------------------------------------------------------------
// Safe parsing

// Any markup declaration: DOCTYPE (internal or external subset), ENTITY, ATTLIST, ELEMENT, NOTATION.
const DECLARATION = /^<!\s*(DOCTYPE|ENTITY|ATTLIST|ELEMENT|NOTATION)\b/i;

/**
 * Whether the XML declares a DTD or entities, as markup: a lexical pass that skips comments, CDATA
 * sections, processing instructions and attribute values, where the same text is only characters (a
 * document quoting "<!DOCTYPE" in CDATA, or "<!ENTITY" in a comment, is not hostile). Outside them a
 * raw "<!" can only be a declaration (text must escape "<"), so one anywhere is refused.
 */
export function declaresDtd(xml: string): boolean {
  let position = 0;
  const skipPast = (terminator: string, from: number) => {
    const end = xml.indexOf(terminator, from);
    // Unclosed: the parser will call the document not well-formed; nothing after it is markup.
    return end < 0 ? xml.length : end + terminator.length;
  };
  while (position < xml.length) {
    const open = xml.indexOf('<', position);
    if (open < 0) return false;
    if (xml.startsWith('<!--', open)) position = skipPast('-->', open + 4);
    else if (xml.startsWith('<![CDATA[', open)) position = skipPast(']]>', open + 9);
    else if (xml.startsWith('<?', open)) position = skipPast('?>', open + 2);
    else if (xml.startsWith('<!', open)) {
      if (DECLARATION.test(xml.slice(open, open + 64))) return true;
      position = open + 2;
    } else {
      // A tag: its end is the first ">" outside a quoted attribute value.
      let i = open + 1;
      while (i < xml.length && xml[i] !== '>') {
        const c = xml[i];
        i = c === '"' || c === "'" ? skipPast(c, i + 1) : i + 1;
      }
      position = i + 1;
    }
  }
  return false;
}

/** Parses the XML text of a CDA document, refusing DTDs and entity declarations before any parser sees them. */
export function parseCdaXml(xml: string): Document {
  if (xml.length > MAX_CDA_CHARS) throw new CdaParseError(cdaErrors.tooLarge);
  if (declaresDtd(xml)) throw new CdaParseError(cdaErrors.hostile);
  const doc = new DOMParser().parseFromString(xml, 'application/xml');
  // Browsers report errors as a <parsererror> element in (or instead of) the document.
  const failure = doc.getElementsByTagName('parsererror')[0];
  if (failure) {
    const detail = (failure.textContent ?? '').replace(/\s+/g, ' ').replace(/^This page contains the following errors:/, '').trim();
    throw new CdaParseError(detail ? `${cdaErrors.notWellFormed} ${detail.slice(0, 300)}` : cdaErrors.notWellFormed);
  }
  const root = doc.documentElement;
  if (root?.localName !== 'ClinicalDocument' || root.namespaceURI !== HL7_NS) throw new CdaParseError(cdaErrors.notCda);
  return doc;
}

export function parseCda(xml: string): CdaDocument {
  const root = parseCdaXml(xml).documentElement;
  return { header: readHeader(root), sections: readBodySections(root), nonXmlBody: readNonXmlBody(root) };
}

// ---------------------------------------------------------------------------------------------------
// Element helpers: walk children by namespace and local name (happy-dom's getElementsByTagNameNS
// misses prefixed elements, and a descendant search would cross into entries).

const isHl7 = (el: Element, name: string, ns = HL7_NS) => el.localName === name && el.namespaceURI === ns;

function children(el: Element | undefined, name: string, ns = HL7_NS): Element[] {
  if (!el) return [];
  return Array.from(el.children).filter((c) => isHl7(c, name, ns));
}

const child = (el: Element | undefined, name: string, ns = HL7_NS): Element | undefined => children(el, name, ns)[0];

/** Follows a path of child names: path(root, 'recordTarget', 'patientRole'). */
function path(el: Element | undefined, ...names: string[]): Element | undefined {
  let current = el;
  for (const name of names) current = child(current, name);
  return current;
}

const attr = (el: Element | undefined, name: string): string | undefined => {
  const value = el?.getAttribute(name)?.trim();
  return value ? value : undefined;
};

const text = (el: Element | undefined): string | undefined => {
  const value = el?.textContent?.replace(/\s+/g, ' ').trim();
  return value ? value : undefined;
};

const compact = <T>(values: (T | undefined)[]): T[] => values.filter((v): v is T => v !== undefined);

function readCode(el: Element | undefined): CdaCode | undefined {
  if (!el) return undefined;
  const code = { code: attr(el, 'code'), displayName: attr(el, 'displayName') ?? text(child(el, 'originalText')), codeSystemName: attr(el, 'codeSystemName') };
  return code.code || code.displayName ? code : undefined;
}

const codeLabel = (el: Element | undefined) => {
  const code = readCode(el);
  return code?.displayName ?? code?.code;
};

const KNOWN_ID_ROOTS: Record<string, string> = {
  '2.16.840.1.113883.4.1': 'SSN',
  '2.16.840.1.113883.4.6': 'NPI',
};

function readIds(parent: Element | undefined, name = 'id', ns = HL7_NS): CdaId[] {
  return children(parent, name, ns)
    .filter((el) => !attr(el, 'nullFlavor') && (attr(el, 'root') || attr(el, 'extension')))
    .map((el) => {
      const root = attr(el, 'root');
      return { root, extension: attr(el, 'extension'), label: root ? KNOWN_ID_ROOTS[root] : undefined };
    });
}

function readName(el: Element | undefined): CdaName | undefined {
  if (!el || attr(el, 'nullFlavor')) return undefined;
  const parts = (name: string) => compact(children(el, name).map(text));
  const name = { prefix: parts('prefix'), given: parts('given'), family: parts('family'), suffix: parts('suffix') };
  const composed = [...name.prefix, ...name.given, ...name.family].join(' ') + (name.suffix.length ? `, ${name.suffix.join(' ')}` : '');
  // A name may also be written as plain text, without parts.
  const whole = composed || text(el);
  return whole ? { ...name, text: whole } : undefined;
}

/** The legal name first (use L), else the first one given. */
function preferredName(parent: Element | undefined): CdaName | undefined {
  const names = children(parent, 'name');
  const legal = names.find((n) => (attr(n, 'use') ?? '').split(/\s+/).includes('L'));
  return readName(legal ?? names[0]);
}

const personName = (person: Element | undefined) => preferredName(person)?.text;
const organizationName = (org: Element | undefined) => text(child(org, 'name'));

function readAddress(el: Element): CdaAddress | undefined {
  if (attr(el, 'nullFlavor')) return undefined;
  const part = (name: string) => text(child(el, name));
  const lines = compact(children(el, 'streetAddressLine').map(text));
  const address = { use: attr(el, 'use'), lines, city: part('city'), state: part('state'), postalCode: part('postalCode'), country: part('country') };
  const cityLine = [[address.city, address.state].filter(Boolean).join(', '), address.postalCode].filter(Boolean).join(' ');
  const composed = [...lines, cityLine, address.country].filter(Boolean).join(', ');
  const whole = composed || text(el);
  return whole ? { ...address, text: whole } : undefined;
}

function readTelecoms(parent: Element | undefined): CdaTelecom[] {
  return compact(
    children(parent, 'telecom').map((el) => {
      const value = attr(el, 'value');
      return value && !attr(el, 'nullFlavor') ? { use: attr(el, 'use'), value } : undefined;
    }),
  );
}

function readPeriod(el: Element | undefined): CdaPeriod | undefined {
  if (!el) return undefined;
  const period = { value: attr(el, 'value'), low: attr(child(el, 'low'), 'value'), high: attr(child(el, 'high'), 'value') };
  return period.value || period.low || period.high ? period : undefined;
}

// ---------------------------------------------------------------------------------------------------
// Header

function readPatient(recordTarget: Element): CdaPatient {
  const role = child(recordTarget, 'patientRole');
  const patient = child(role, 'patient');
  const names = compact(children(patient, 'name').map(readName));
  const name = preferredName(patient);
  const labels = (elements: Element[]) => [...new Set(compact(elements.map(codeLabel)))];
  return {
    name,
    otherNames: names.filter((n) => n.text !== name?.text),
    birthTime: attr(child(patient, 'birthTime'), 'value') ?? attr(child(patient, 'birthTime', SDTC_NS), 'value'),
    gender: genderLabel(child(patient, 'administrativeGenderCode')),
    ids: readIds(role),
    addresses: compact(children(role, 'addr').map(readAddress)),
    telecoms: readTelecoms(role),
    race: labels([...children(patient, 'raceCode'), ...children(patient, 'raceCode', SDTC_NS)]),
    ethnicity: labels([...children(patient, 'ethnicGroupCode'), ...children(patient, 'ethnicGroupCode', SDTC_NS)]),
    maritalStatus: codeLabel(child(patient, 'maritalStatusCode')),
    language: attr(path(patient, 'languageCommunication', 'languageCode'), 'code'),
  };
}

const GENDERS: Record<string, string> = { M: 'Male', F: 'Female', UN: 'Undifferentiated' };

function genderLabel(el: Element | undefined): string | undefined {
  if (!el) return undefined;
  const code = attr(el, 'code');
  return attr(el, 'displayName') ?? (code ? (GENDERS[code] ?? code) : undefined);
}

function readAuthor(author: Element): CdaParty {
  const assigned = child(author, 'assignedAuthor');
  const device = child(assigned, 'assignedAuthoringDevice');
  const deviceName = [text(child(device, 'manufacturerModelName')), text(child(device, 'softwareName'))].filter(Boolean).join(', ');
  return {
    name: personName(child(assigned, 'assignedPerson')) ?? (deviceName || undefined),
    organization: organizationName(child(assigned, 'representedOrganization')),
    time: attr(child(author, 'time'), 'value'),
  };
}

const CONFIDENTIALITY: Record<string, string> = { N: 'Normal', R: 'Restricted', V: 'Very Restricted' };

function readHeader(root: Element): CdaHeader {
  const confidentiality = child(root, 'confidentialityCode');
  const confidentialityCode = attr(confidentiality, 'code');
  const legal = child(root, 'legalAuthenticator');
  const legalEntity = child(legal, 'assignedEntity');
  const encounter = path(root, 'componentOf', 'encompassingEncounter');
  const code = readCode(child(root, 'code'));
  return {
    title: text(child(root, 'title')) ?? code?.displayName ?? 'Clinical document',
    code,
    effectiveTime: attr(child(root, 'effectiveTime'), 'value'),
    confidentiality: confidentialityCode ? (CONFIDENTIALITY[confidentialityCode] ?? attr(confidentiality, 'displayName') ?? confidentialityCode) : undefined,
    patients: children(root, 'recordTarget').map(readPatient),
    authors: children(root, 'author').map(readAuthor),
    custodian: organizationName(path(root, 'custodian', 'assignedCustodian', 'representedCustodianOrganization')),
    legalAuthenticator: legal
      ? {
          name: personName(child(legalEntity, 'assignedPerson')),
          organization: organizationName(child(legalEntity, 'representedOrganization')),
          time: attr(child(legal, 'time'), 'value'),
        }
      : undefined,
    serviceEvents: compact(
      children(root, 'documentationOf').map((d) => {
        const event = child(d, 'serviceEvent');
        if (!event) return undefined;
        return {
          code: readCode(child(event, 'code')),
          period: readPeriod(child(event, 'effectiveTime')),
          performers: compact(children(event, 'performer').map((p) => personName(path(p, 'assignedEntity', 'assignedPerson')))),
        };
      }),
    ),
    encounter: encounter ? readEncounter(encounter) : undefined,
  };
}

function readEncounter(encounter: Element): CdaEncounter {
  const facility = path(encounter, 'location', 'healthCareFacility');
  const location =
    text(path(facility, 'location', 'name')) ??
    organizationName(child(facility, 'serviceProviderOrganization')) ??
    codeLabel(child(facility, 'code'));
  const responsible = path(encounter, 'responsibleParty', 'assignedEntity');
  return {
    ids: readIds(encounter),
    code: readCode(child(encounter, 'code')),
    period: readPeriod(child(encounter, 'effectiveTime')),
    location,
    responsibleParty: personName(child(responsible, 'assignedPerson')) ?? organizationName(child(responsible, 'representedOrganization')),
    dischargeDisposition: codeLabel(child(encounter, 'dischargeDispositionCode')),
  };
}

// ---------------------------------------------------------------------------------------------------
// Body

function readBodySections(root: Element): CdaSection[] {
  const body = path(root, 'component', 'structuredBody');
  return readSections(body, '', 0);
}

function readSections(parent: Element | undefined, parentKey: string, depth: number): CdaSection[] {
  if (depth >= MAX_SECTION_DEPTH) return [];
  const sections = compact(children(parent, 'component').map((c) => child(c, 'section')));
  return sections.map((section, index) => {
    const key = parentKey ? `${parentKey}.${index + 1}` : `${index + 1}`;
    const code = readCode(child(section, 'code'));
    return {
      key,
      title: text(child(section, 'title')) ?? code?.displayName ?? 'Untitled section',
      code,
      narrative: readNarrative(child(section, 'text')),
      sections: readSections(section, key, depth + 1),
    };
  });
}

function readNonXmlBody(root: Element): CdaNonXmlBody | undefined {
  const body = path(root, 'component', 'nonXMLBody');
  if (!body) return undefined;
  const content = child(body, 'text');
  const mediaType = attr(content, 'mediaType') ?? 'text/plain';
  const reference = attr(child(content, 'reference'), 'value');
  if (attr(content, 'representation') === 'B64') {
    const base64 = (content?.textContent ?? '').replace(/\s+/g, '');
    const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
    return { mediaType, base64, sizeBytes: Math.max(0, Math.floor((base64.length * 3) / 4) - padding), reference };
  }
  return { mediaType, text: content?.textContent?.trim() || undefined, reference };
}

/** The embedded file's bytes (for the PDF viewer). */
export function decodeBase64(base64: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

// ---------------------------------------------------------------------------------------------------
// Narrative block: whitelist. Only the narrative elements of the CDA schema (in the HL7 namespace) keep
// their shape; anything else becomes its text. No attribute passes through except the few read here.

const TAGS = new Set<string>(narrativeTags);
const isNarrativeTag = (name: string): name is NarrativeTag => TAGS.has(name);

const STYLE_CODES: Record<string, NarrativeStyle> = { bold: 'bold', italics: 'italic', emphasis: 'italic', underline: 'underline' };

// Table and list containers only hold their own parts; stray content is wrapped so the HTML stays valid.
const ALLOWED_CHILDREN: Partial<Record<NarrativeTag, readonly NarrativeTag[]>> = {
  table: ['caption', 'thead', 'tbody', 'tfoot'],
  thead: ['tr'],
  tbody: ['tr'],
  tfoot: ['tr'],
  tr: ['th', 'td'],
  list: ['caption', 'item'],
};
const WRAPPER: Partial<Record<NarrativeTag, NarrativeTag>> = { table: 'tbody', thead: 'tr', tbody: 'tr', tfoot: 'tr', tr: 'td', list: 'item' };

export function readNarrative(block: Element | undefined): NarrativeNode[] {
  if (!block) return [];
  return readNodes(block, 0);
}

function readNodes(parent: Element, depth: number): NarrativeNode[] {
  const nodes: NarrativeNode[] = [];
  for (const node of Array.from(parent.childNodes)) {
    // Text and CDATA; comments and processing instructions are dropped.
    if (node.nodeType === 3 || node.nodeType === 4) {
      const value = node.nodeValue ?? '';
      if (value) nodes.push({ kind: 'text', text: value });
    } else if (node.nodeType === 1) {
      nodes.push(...readElement(node as Element, depth));
    }
  }
  return nodes;
}

function readElement(el: Element, depth: number): NarrativeNode[] {
  const name = el.localName;
  if (el.namespaceURI !== HL7_NS || !isNarrativeTag(name) || depth >= MAX_NARRATIVE_DEPTH) {
    const value = el.textContent ?? '';
    return value ? [{ kind: 'text', text: value }] : [];
  }
  const node: Extract<NarrativeNode, { kind: 'element' }> = { kind: 'element', tag: name, children: readNodes(el, depth + 1) };
  const styles = [...new Set(compact((attr(el, 'styleCode') ?? '').split(/\s+/).map((s) => STYLE_CODES[s.toLowerCase()])))];
  if (styles.length) node.styles = styles;
  if (name === 'list') node.ordered = attr(el, 'listType') === 'ordered';
  if (name === 'td' || name === 'th') {
    node.colSpan = span(attr(el, 'colspan'));
    node.rowSpan = span(attr(el, 'rowspan'));
  }
  if (name === 'linkHtml') node.href = attr(el, 'href');
  if (name === 'br') node.children = [];
  node.children = fitChildren(name, node.children);
  return [node];
}

function span(value: string | undefined): number | undefined {
  const n = value === undefined ? NaN : Number.parseInt(value, 10);
  return Number.isFinite(n) && n > 1 ? Math.min(n, MAX_SPAN) : undefined;
}

function fitChildren(tag: NarrativeTag, nodes: NarrativeNode[]): NarrativeNode[] {
  const allowed = ALLOWED_CHILDREN[tag];
  const wrapper = WRAPPER[tag];
  if (!allowed || !wrapper) return nodes;
  const fitted: NarrativeNode[] = [];
  let stray: NarrativeNode[] = [];
  const flush = () => {
    if (stray.some((n) => n.kind === 'element' || n.text.trim())) fitted.push({ kind: 'element', tag: wrapper, children: fitChildren(wrapper, stray) });
    stray = [];
  };
  for (const node of nodes) {
    if (node.kind === 'element' && allowed.includes(node.tag)) {
      flush();
      fitted.push(node);
    } else {
      stray.push(node);
    }
  }
  flush();
  return fitted;
}

// ---------------------------------------------------------------------------------------------------
// Dates: HL7 TS (YYYY[MM[DD[HH[MM[SS[.S]]]]]][±ZZZZ]) shown MM/DD/YYYY, with the time when present,
// as written in the document's own time zone.

const TS = /^(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?(?:\.\d+)?([+-]\d{4})?$/;

export function formatHl7Date(value: string | undefined): string {
  if (!value) return '';
  const match = TS.exec(value.trim());
  if (!match) return value;
  const [, year = '', month, day, hour, minute, , zone] = match;
  if (!month) return year;
  if (!day) return `${month}/${year}`;
  const date = `${month}/${day}/${year}`;
  if (!hour) return date;
  const h = Number(hour);
  const time = `${h % 12 === 0 ? 12 : h % 12}:${minute ?? '00'} ${h < 12 ? 'AM' : 'PM'}`;
  return `${date} ${time}${zone ? ` (UTC${zone.slice(0, 3)}:${zone.slice(3)})` : ''}`;
}

export function formatPeriod(period: CdaPeriod | undefined): string {
  if (!period) return '';
  if (period.value) return formatHl7Date(period.value);
  if (period.low && period.high) return `${formatHl7Date(period.low)} – ${formatHl7Date(period.high)}`;
  if (period.low) return `from ${formatHl7Date(period.low)}`;
  return `until ${formatHl7Date(period.high)}`;
}
