import { TAXONOMY_SLOTS, endpointHeader, npidataHeader } from '../import/nppes-format.ts';

// A provider as NPPES describes it, and its npidata_pfile / endpoint_pfile rows. The generator and the importer's
// round-trip tests write files through these.

export interface NppesAddress {
  line1: string;
  line2?: string;
  city: string;
  state: string;
  postalCode: string;
  country?: string;
  phone?: string;
  fax?: string;
}

export interface NppesTaxonomy {
  code: string;
  license?: string;
  licenseState?: string;
  primary: boolean;
}

export interface NppesProvider {
  npi: string;
  /** Null (blank) only on a deactivated NPI's row, as NPPES writes them. */
  entityType: 1 | 2 | null;
  ein?: string;
  organizationName?: string;
  lastName?: string;
  firstName?: string;
  middleName?: string;
  namePrefix?: string;
  nameSuffix?: string;
  credential?: string;
  otherOrganizationName?: string;
  /** 3 doing business as, 4 former legal business name, 5 other. */
  otherOrganizationNameType?: string;
  mailing?: NppesAddress;
  practice?: NppesAddress;
  enumerationDate?: string;
  lastUpdateDate?: string;
  deactivationReason?: string;
  deactivationDate?: string;
  reactivationDate?: string;
  gender?: string;
  /** An organization's authorized official (NPPES lists one for entity type 2 only). */
  official?: { lastName: string; firstName: string; middleName?: string; title: string; phone: string; namePrefix?: string; nameSuffix?: string; credential?: string };
  taxonomies?: NppesTaxonomy[];
  soleProprietor?: string;
  organizationSubpart?: string;
}

export interface NppesEndpoint {
  npi: string;
  type: string;
  typeDescription: string;
  endpoint: string;
  affiliation?: string;
  affiliationName?: string;
  useCode?: string;
  useDescription?: string;
  contentType?: string;
  contentDescription?: string;
  address?: NppesAddress;
}

const header = npidataHeader();
const column = (name: string): number => {
  const at = header.indexOf(name);
  if (at < 0) throw new Error(`No NPPES column ${name}`);
  return at;
};

const C = {
  npi: column('NPI'),
  entityType: column('Entity Type Code'),
  ein: column('Employer Identification Number (EIN)'),
  organizationName: column('Provider Organization Name (Legal Business Name)'),
  lastName: column('Provider Last Name (Legal Name)'),
  firstName: column('Provider First Name'),
  middleName: column('Provider Middle Name'),
  namePrefix: column('Provider Name Prefix Text'),
  nameSuffix: column('Provider Name Suffix Text'),
  credential: column('Provider Credential Text'),
  otherOrganizationName: column('Provider Other Organization Name'),
  otherOrganizationNameType: column('Provider Other Organization Name Type Code'),
  mailing: column('Provider First Line Business Mailing Address'),
  practice: column('Provider First Line Business Practice Location Address'),
  enumerationDate: column('Provider Enumeration Date'),
  lastUpdateDate: column('Last Update Date'),
  deactivationReason: column('NPI Deactivation Reason Code'),
  deactivationDate: column('NPI Deactivation Date'),
  reactivationDate: column('NPI Reactivation Date'),
  gender: column('Provider Gender Code'),
  officialLast: column('Authorized Official Last Name'),
  taxonomy1: column('Healthcare Provider Taxonomy Code_1'),
  soleProprietor: column('Is Sole Proprietor'),
  organizationSubpart: column('Is Organization Subpart'),
  officialPrefix: column('Authorized Official Name Prefix Text'),
  officialSuffix: column('Authorized Official Name Suffix Text'),
  officialCredential: column('Authorized Official Credential Text'),
};

function putAddress(fields: string[], at: number, a: NppesAddress | undefined): void {
  if (!a) return;
  // The eight address columns, in header order (nppes-format.ts addressColumns).
  const values = [a.line1, a.line2, a.city, a.state, a.postalCode, a.country ?? 'US', a.phone, a.fax];
  for (let i = 0; i < 8; i++) fields[at + i] = values[i] ?? '';
}

/** The 330 fields of a provider's npidata_pfile row. */
export function npidataFields(p: NppesProvider): string[] {
  const f = new Array<string>(header.length).fill('');
  f[C.npi] = p.npi;
  f[C.entityType] = p.entityType === null ? '' : String(p.entityType);
  f[C.ein] = p.ein ?? '';
  f[C.organizationName] = p.organizationName ?? '';
  f[C.lastName] = p.lastName ?? '';
  f[C.firstName] = p.firstName ?? '';
  f[C.middleName] = p.middleName ?? '';
  f[C.namePrefix] = p.namePrefix ?? '';
  f[C.nameSuffix] = p.nameSuffix ?? '';
  f[C.credential] = p.credential ?? '';
  f[C.otherOrganizationName] = p.otherOrganizationName ?? '';
  f[C.otherOrganizationNameType] = p.otherOrganizationNameType ?? '';
  putAddress(f, C.mailing, p.mailing);
  putAddress(f, C.practice, p.practice);
  f[C.enumerationDate] = p.enumerationDate ?? '';
  f[C.lastUpdateDate] = p.lastUpdateDate ?? '';
  f[C.deactivationReason] = p.deactivationReason ?? '';
  f[C.deactivationDate] = p.deactivationDate ?? '';
  f[C.reactivationDate] = p.reactivationDate ?? '';
  f[C.gender] = p.gender ?? '';
  if (p.official) {
    const o = p.official;
    [o.lastName, o.firstName, o.middleName ?? '', o.title, o.phone].forEach((v, i) => (f[C.officialLast + i] = v));
    f[C.officialPrefix] = o.namePrefix ?? '';
    f[C.officialSuffix] = o.nameSuffix ?? '';
    f[C.officialCredential] = o.credential ?? '';
  }
  (p.taxonomies ?? []).slice(0, TAXONOMY_SLOTS).forEach((t, i) => {
    const at = C.taxonomy1 + i * 4;
    f[at] = t.code;
    f[at + 1] = t.license ?? '';
    f[at + 2] = t.licenseState ?? '';
    f[at + 3] = t.primary ? 'Y' : 'N';
  });
  f[C.soleProprietor] = p.soleProprietor ?? '';
  f[C.organizationSubpart] = p.organizationSubpart ?? '';
  return f;
}

/** The fields of one endpoint_pfile row. */
export function endpointFields(e: NppesEndpoint): string[] {
  const a = e.address;
  const values: Record<(typeof endpointHeader)[number], string> = {
    NPI: e.npi,
    'Endpoint Type': e.type,
    'Endpoint Type Description': e.typeDescription,
    Endpoint: e.endpoint,
    Affiliation: e.affiliation ?? 'N',
    'Endpoint Description': '',
    'Affiliation Legal Business Name': e.affiliationName ?? '',
    'Use Code': e.useCode ?? '',
    'Use Description': e.useDescription ?? '',
    'Other Use Description': '',
    'Content Type': e.contentType ?? '',
    'Content Description': e.contentDescription ?? '',
    'Other Content Description': '',
    'Affiliation Address Line One': a?.line1 ?? '',
    'Affiliation Address Line Two': a?.line2 ?? '',
    'Affiliation Address City': a?.city ?? '',
    'Affiliation Address State': a?.state ?? '',
    'Affiliation Address Country': a ? (a.country ?? 'US') : '',
    'Affiliation Address Postal Code': a?.postalCode ?? '',
  };
  return endpointHeader.map((name) => values[name]);
}
