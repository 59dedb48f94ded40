// The NPPES data dissemination file formats (https://download.cms.gov/nppes/NPI_Files.html): the monthly
// npidata_pfile and the endpoint_pfile, as far as the importer reads them and the generator writes them.

const numbered = (count: number, names: (n: number) => string[]): string[] =>
  Array.from({ length: count }, (_, i) => names(i + 1)).flat();

/** The 330 columns of npidata_pfile, in order, built from NPPES's naming patterns. */
export function npidataHeader(): string[] {
  return [
    'NPI',
    'Entity Type Code',
    'Replacement NPI',
    'Employer Identification Number (EIN)',
    'Provider Organization Name (Legal Business Name)',
    'Provider Last Name (Legal Name)',
    'Provider First Name',
    'Provider Middle Name',
    'Provider Name Prefix Text',
    'Provider Name Suffix Text',
    'Provider Credential Text',
    'Provider Other Organization Name',
    'Provider Other Organization Name Type Code',
    'Provider Other Last Name',
    'Provider Other First Name',
    'Provider Other Middle Name',
    'Provider Other Name Prefix Text',
    'Provider Other Name Suffix Text',
    'Provider Other Credential Text',
    'Provider Other Last Name Type Code',
    ...addressColumns('Mailing'),
    ...addressColumns('Practice Location'),
    'Provider Enumeration Date',
    'Last Update Date',
    'NPI Deactivation Reason Code',
    'NPI Deactivation Date',
    'NPI Reactivation Date',
    'Provider Gender Code',
    'Authorized Official Last Name',
    'Authorized Official First Name',
    'Authorized Official Middle Name',
    'Authorized Official Title or Position',
    'Authorized Official Telephone Number',
    ...numbered(TAXONOMY_SLOTS, (n) => [
      `Healthcare Provider Taxonomy Code_${n}`,
      `Provider License Number_${n}`,
      `Provider License Number State Code_${n}`,
      `Healthcare Provider Primary Taxonomy Switch_${n}`,
    ]),
    ...numbered(OTHER_IDENTIFIER_SLOTS, (n) => [
      `Other Provider Identifier_${n}`,
      `Other Provider Identifier Type Code_${n}`,
      `Other Provider Identifier State_${n}`,
      `Other Provider Identifier Issuer_${n}`,
    ]),
    'Is Sole Proprietor',
    'Is Organization Subpart',
    'Parent Organization LBN',
    'Parent Organization TIN',
    'Authorized Official Name Prefix Text',
    'Authorized Official Name Suffix Text',
    'Authorized Official Credential Text',
    ...numbered(TAXONOMY_SLOTS, (n) => [`Healthcare Provider Taxonomy Group_${n}`]),
    'Certification Date',
  ];
}

export const TAXONOMY_SLOTS = 15;
export const OTHER_IDENTIFIER_SLOTS = 50;

function addressColumns(kind: 'Mailing' | 'Practice Location'): string[] {
  return [
    `Provider First Line Business ${kind} Address`,
    `Provider Second Line Business ${kind} Address`,
    `Provider Business ${kind} Address City Name`,
    `Provider Business ${kind} Address State Name`,
    `Provider Business ${kind} Address Postal Code`,
    `Provider Business ${kind} Address Country Code (If outside U.S.)`,
    `Provider Business ${kind} Address Telephone Number`,
    `Provider Business ${kind} Address Fax Number`,
  ];
}

/** The columns of endpoint_pfile, in order. */
export const endpointHeader = [
  'NPI',
  'Endpoint Type',
  'Endpoint Type Description',
  'Endpoint',
  'Affiliation',
  'Endpoint Description',
  'Affiliation Legal Business Name',
  'Use Code',
  'Use Description',
  'Other Use Description',
  'Content Type',
  'Content Description',
  'Other Content Description',
  'Affiliation Address Line One',
  'Affiliation Address Line Two',
  'Affiliation Address City',
  'Affiliation Address State',
  'Affiliation Address Country',
  'Affiliation Address Postal Code',
] as const;

/** The Luhn sum of an NPI's prefix 80840 (ISO 7812 health card issuer), already doubled where Luhn doubles. */
const PREFIX_SUM = 24;

function luhnSumOfBase(base: string): number {
  let sum = PREFIX_SUM;
  // The check digit is the tenth; counted from it, the first, third … ninth digits are the doubled ones.
  for (let i = 0; i < 9; i++) {
    let digit = base.charCodeAt(i) - 48;
    if (i % 2 === 0) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum;
}

/** The check digit that completes a 9-digit NPI base. */
export function npiCheckDigit(base: string): number {
  return (10 - (luhnSumOfBase(base) % 10)) % 10;
}

/** Ten digits whose last is the Luhn check digit of 80840 + the first nine. */
export function isValidNpi(npi: string): boolean {
  return /^\d{10}$/.test(npi) && (luhnSumOfBase(npi) + npi.charCodeAt(9) - 48) % 10 === 0;
}

/** One CSV line as NPPES writes it: every field quoted, quotes doubled. */
export function csvLine(fields: readonly string[]): string {
  for (const value of fields) {
    if (value.includes('"')) return `"${fields.map((v) => v.replaceAll('"', '""')).join('","')}"`;
  }
  return `"${fields.join('","')}"`;
}
