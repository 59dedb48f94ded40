import { digitsOnly, nameKey, normalizeOrNull } from '../normalize.ts';
import { isValidNpi } from './nppes-format.ts';

// One NPPES row → one directory entry (or one Direct address), or the reason it is refused.

export type FileKind = 'npidata' | 'endpoint';

/** A directory entry as staged for the upsert. hasData false: a deactivation without names, which keeps the stored values. */
export interface EntryRow {
  line: number;
  npi: string;
  entityType: 1 | 2 | null;
  active: boolean;
  hasData: boolean;
  lastName: string | null;
  firstName: string | null;
  middleName: string | null;
  organizationName: string | null;
  clinicName: string | null;
  phonePrimary: string | null;
  fax: string | null;
  addressLine1: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  taxonomy: string | null;
  officialLastName: string | null;
  officialFirstName: string | null;
  officialMiddleName: string | null;
  officialNamePrefix: string | null;
  officialNameSuffix: string | null;
  officialCredential: string | null;
  officialTitle: string | null;
  officialPhone: string | null;
  organizationSubpart: string | null;
  nameNorm: string | null;
  lastNorm: string | null;
  firstNorm: string | null;
  orgNorm: string | null;
  cityNorm: string | null;
}

export interface EndpointRow {
  line: number;
  npi: string;
  address: string;
  affiliationName: string | null;
}

export interface Rejection {
  line: number;
  reason: string;
}

/** A row that is read and deliberately not loaded (an endpoint of another type than DIRECT). */
export const IGNORED = Symbol('ignored');

const npidataColumns = {
  npi: 'NPI',
  entityType: 'Entity Type Code',
  organizationName: 'Provider Organization Name (Legal Business Name)',
  lastName: 'Provider Last Name (Legal Name)',
  firstName: 'Provider First Name',
  middleName: 'Provider Middle Name',
  otherOrganizationName: 'Provider Other Organization Name',
  otherOrganizationNameType: 'Provider Other Organization Name Type Code',
  mailingLine1: 'Provider First Line Business Mailing Address',
  mailingCity: 'Provider Business Mailing Address City Name',
  mailingState: 'Provider Business Mailing Address State Name',
  mailingZip: 'Provider Business Mailing Address Postal Code',
  mailingPhone: 'Provider Business Mailing Address Telephone Number',
  mailingFax: 'Provider Business Mailing Address Fax Number',
  practiceLine1: 'Provider First Line Business Practice Location Address',
  practiceCity: 'Provider Business Practice Location Address City Name',
  practiceState: 'Provider Business Practice Location Address State Name',
  practiceZip: 'Provider Business Practice Location Address Postal Code',
  practicePhone: 'Provider Business Practice Location Address Telephone Number',
  practiceFax: 'Provider Business Practice Location Address Fax Number',
  deactivationDate: 'NPI Deactivation Date',
  reactivationDate: 'NPI Reactivation Date',
  taxonomy1: 'Healthcare Provider Taxonomy Code_1',
  taxonomySwitch1: 'Healthcare Provider Primary Taxonomy Switch_1',
} as const;

// Read when the header has them (every NPPES file since 2007 does; a trimmed extract may not).
const npidataOptionalColumns = {
  officialLastName: 'Authorized Official Last Name',
  officialFirstName: 'Authorized Official First Name',
  officialMiddleName: 'Authorized Official Middle Name',
  officialNamePrefix: 'Authorized Official Name Prefix Text',
  officialNameSuffix: 'Authorized Official Name Suffix Text',
  officialCredential: 'Authorized Official Credential Text',
  officialTitle: 'Authorized Official Title or Position',
  officialPhone: 'Authorized Official Telephone Number',
  organizationSubpart: 'Is Organization Subpart',
} as const;

const endpointColumns = {
  npi: 'NPI',
  type: 'Endpoint Type',
  endpoint: 'Endpoint',
  affiliationName: 'Affiliation Legal Business Name',
} as const;

type Indexes<T> = { [K in keyof T]: number };

export interface NpidataLayout {
  kind: 'npidata';
  width: number;
  at: Indexes<typeof npidataColumns>;
  /** -1 where the header lacks the column. */
  optional: Indexes<typeof npidataOptionalColumns>;
  taxonomies: { code: number; primary: number }[];
}

export interface EndpointLayout {
  kind: 'endpoint';
  width: number;
  at: Indexes<typeof endpointColumns>;
}

export type Layout = NpidataLayout | EndpointLayout;

function indexes<T extends Record<string, string>>(header: readonly string[], columns: T): Indexes<T> | null {
  const position = new Map(header.map((name, i) => [name.trim(), i]));
  const found: Record<string, number> = {};
  for (const [key, name] of Object.entries(columns)) {
    const at = position.get(name);
    if (at === undefined) return null;
    found[key] = at;
  }
  return found as Indexes<T>;
}

/** What a file is, from its header (never its name); null when it is neither NPPES format. */
export function recognize(header: readonly string[]): Layout | null {
  const npidata = indexes(header, npidataColumns);
  if (npidata) {
    const taxonomies: NpidataLayout['taxonomies'] = [];
    for (let n = 1; ; n++) {
      const code = header.indexOf(`Healthcare Provider Taxonomy Code_${n}`);
      const primary = header.indexOf(`Healthcare Provider Primary Taxonomy Switch_${n}`);
      if (code < 0 || primary < 0) break;
      taxonomies.push({ code, primary });
    }
    const position = new Map(header.map((name, i) => [name.trim(), i]));
    const optional = Object.fromEntries(Object.entries(npidataOptionalColumns).map(([key, name]) => [key, position.get(name) ?? -1]));
    return { kind: 'npidata', width: header.length, at: npidata, optional: optional as NpidataLayout['optional'], taxonomies };
  }
  const endpoint = indexes(header, endpointColumns);
  return endpoint ? { kind: 'endpoint', width: header.length, at: endpoint } : null;
}

// NUL cannot be stored in a PostgreSQL text value; blank is no value.
const clean = (value: string | undefined): string | null => {
  if (!value) return null;
  const trimmed = (value.includes('\0') ? value.replaceAll('\0', '') : value).trim();
  return trimmed === '' ? null : trimmed;
};
const digits = (value: string | undefined): string | null => digitsOnly(value) || null;

/** Digits only, 5 or 9; a longer run keeps its first 5 (a malformed ZIP+4), a shorter one is no zip. */
function zipOf(value: string | undefined): string | null {
  const all = digitsOnly(value);
  if (all.length === 5 || all.length === 9) return all;
  return all.length > 5 ? all.slice(0, 5) : null;
}

/** MM/DD/YYYY → YYYYMMDD, comparable as a string; other shapes compare as given. */
const sortableDate = (value: string): string => {
  const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(value);
  return m ? `${m[3]}${m[1]}${m[2]}` : value;
};

function checkNpi(value: string | undefined): string {
  const npi = (value ?? '').trim();
  if (!/^\d{10}$/.test(npi)) return `NPI "${npi.slice(0, 20)}" is not 10 digits`;
  if (!isValidNpi(npi)) return `NPI ${npi} fails the check digit`;
  return '';
}

export function mapNpidataRow(record: string[], line: number, layout: NpidataLayout): EntryRow | Rejection {
  if (record.length !== layout.width) return { line, reason: `${record.length} columns, expected ${layout.width}` };
  const { at } = layout;
  const npiProblem = checkNpi(record[at.npi]);
  if (npiProblem) return { line, reason: npiProblem };
  const npi = record[at.npi]!.trim();

  const deactivated = clean(record[at.deactivationDate]);
  const reactivated = clean(record[at.reactivationDate]);
  const active = !deactivated || (!!reactivated && sortableDate(reactivated) >= sortableDate(deactivated));

  const typeCode = clean(record[at.entityType]);
  const entityType = typeCode === '1' ? 1 : typeCode === '2' ? 2 : null;
  // NPPES blanks every field of a deactivated NPI but the NPI and its dates, the entity type included.
  if (entityType === null && (active || typeCode !== null)) return { line, reason: `unknown entity type "${(typeCode ?? '').slice(0, 20)}"` };

  const lastName = entityType === 1 ? clean(record[at.lastName]) : null;
  const organizationName = entityType === 2 ? clean(record[at.organizationName]) : null;
  const named = entityType === 1 ? lastName !== null : organizationName !== null;
  if (!named && active) return { line, reason: entityType === 1 ? 'individual without a last name' : 'organization without a name' };
  if (!named || entityType === null) return { ...noData(line, npi, active), entityType };

  const firstName = entityType === 1 ? clean(record[at.firstName]) : null;
  const middleName = entityType === 1 ? clean(record[at.middleName]) : null;
  // The practice location, or the mailing address when the practice location is empty.
  const practice =
    clean(record[at.practiceLine1]) ?? clean(record[at.practiceCity]) ?? clean(record[at.practiceState]) ?? clean(record[at.practiceZip]);
  const pick = practice !== null ? 'practice' : 'mailing';
  const city = clean(record[at[`${pick}City`]]);
  return {
    line,
    npi,
    entityType,
    active,
    hasData: true,
    lastName,
    firstName,
    middleName,
    organizationName,
    clinicName: entityType === 2 ? clinicName(record, layout) : null,
    phonePrimary: digits(record[at[`${pick}Phone`]]),
    fax: digits(record[at[`${pick}Fax`]]),
    addressLine1: clean(record[at[`${pick}Line1`]]),
    city,
    state: clean(record[at[`${pick}State`]]),
    zip: zipOf(record[at[`${pick}Zip`]]),
    taxonomy: primaryTaxonomy(record, layout),
    ...officialOf(record, layout, entityType),
    nameNorm: nameKey({ entityType, lastName, firstName, middleName, organizationName }),
    lastNorm: normalizeOrNull(lastName),
    firstNorm: normalizeOrNull(firstName),
    orgNorm: normalizeOrNull(organizationName),
    cityNorm: normalizeOrNull(city),
  };
}

function noData(line: number, npi: string, active: boolean): EntryRow {
  return {
    line,
    npi,
    entityType: null,
    active,
    hasData: false,
    lastName: null,
    firstName: null,
    middleName: null,
    organizationName: null,
    clinicName: null,
    phonePrimary: null,
    fax: null,
    addressLine1: null,
    city: null,
    state: null,
    zip: null,
    taxonomy: null,
    ...noOfficial,
    nameNorm: null,
    lastNorm: null,
    firstNorm: null,
    orgNorm: null,
    cityNorm: null,
  };
}

type Official = Pick<EntryRow, keyof typeof npidataOptionalColumns>;
const noOfficial: Official = {
  officialLastName: null,
  officialFirstName: null,
  officialMiddleName: null,
  officialNamePrefix: null,
  officialNameSuffix: null,
  officialCredential: null,
  officialTitle: null,
  officialPhone: null,
  organizationSubpart: null,
};

// The authorized official belongs to an organization (NPPES leaves the columns blank for individuals).
function officialOf(record: string[], { optional }: NpidataLayout, entityType: 1 | 2): Official {
  if (entityType !== 2) return noOfficial;
  const read = (at: number) => (at < 0 ? null : clean(record[at]));
  const subpart = read(optional.organizationSubpart)?.toUpperCase() ?? null;
  return {
    officialLastName: read(optional.officialLastName),
    officialFirstName: read(optional.officialFirstName),
    officialMiddleName: read(optional.officialMiddleName),
    officialNamePrefix: read(optional.officialNamePrefix),
    officialNameSuffix: read(optional.officialNameSuffix),
    officialCredential: read(optional.officialCredential),
    officialTitle: read(optional.officialTitle),
    officialPhone: optional.officialPhone < 0 ? null : digits(record[optional.officialPhone]),
    organizationSubpart: subpart === 'Y' || subpart === 'N' ? subpart : null,
  };
}

// The name a clinic goes by: the other organization name when NPPES types it 3 (doing business as) or 5 (other
// name); 4 is a former legal business name, which no one would look for today.
function clinicName(record: string[], { at }: NpidataLayout): string | null {
  const type = clean(record[at.otherOrganizationNameType]);
  return type === '3' || type === '5' ? clean(record[at.otherOrganizationName]) : null;
}

/** The taxonomy whose primary switch is Y, else the first one given. */
function primaryTaxonomy(record: string[], layout: NpidataLayout): string | null {
  let first: string | null = null;
  for (const slot of layout.taxonomies) {
    const code = clean(record[slot.code]);
    if (!code) continue;
    if (clean(record[slot.primary])?.toUpperCase() === 'Y') return code;
    first ??= code;
  }
  return first;
}

export function mapEndpointRow(record: string[], line: number, layout: EndpointLayout): EndpointRow | Rejection | typeof IGNORED {
  if (record.length !== layout.width) return { line, reason: `${record.length} columns, expected ${layout.width}` };
  const { at } = layout;
  if (clean(record[at.type])?.toUpperCase() !== 'DIRECT') return IGNORED;
  const npiProblem = checkNpi(record[at.npi]);
  if (npiProblem) return { line, reason: npiProblem };
  const endpoint = clean(record[at.endpoint]) ?? '';
  const address = endpoint.replace(/^mailto:/i, '').trim().toLowerCase();
  if (!/^[^\s@]+@[^\s@]+$/.test(address)) return { line, reason: `Direct endpoint "${endpoint.slice(0, 80)}" is not an address` };
  return { line, npi: record[at.npi]!.trim(), address, affiliationName: clean(record[at.affiliationName]) };
}
