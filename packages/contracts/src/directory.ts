import { z } from 'zod';
import { text } from './text.ts';

// end-user §2 "Find Provider dialog", §3 "Directory search request", §5 "Directory search", §7 "Directory", §9.

// end-user §3: US states, the District of Columbia, territories and the armed-forces codes.
export const directoryStates = [
  ['AL', 'Alabama'], ['AK', 'Alaska'], ['AZ', 'Arizona'], ['AR', 'Arkansas'], ['CA', 'California'], ['CO', 'Colorado'],
  ['CT', 'Connecticut'], ['DE', 'Delaware'], ['DC', 'District of Columbia'], ['FL', 'Florida'], ['GA', 'Georgia'],
  ['HI', 'Hawaii'], ['ID', 'Idaho'], ['IL', 'Illinois'], ['IN', 'Indiana'], ['IA', 'Iowa'], ['KS', 'Kansas'],
  ['KY', 'Kentucky'], ['LA', 'Louisiana'], ['ME', 'Maine'], ['MD', 'Maryland'], ['MA', 'Massachusetts'], ['MI', 'Michigan'],
  ['MN', 'Minnesota'], ['MS', 'Mississippi'], ['MO', 'Missouri'], ['MT', 'Montana'], ['NE', 'Nebraska'], ['NV', 'Nevada'],
  ['NH', 'New Hampshire'], ['NJ', 'New Jersey'], ['NM', 'New Mexico'], ['NY', 'New York'], ['NC', 'North Carolina'],
  ['ND', 'North Dakota'], ['OH', 'Ohio'], ['OK', 'Oklahoma'], ['OR', 'Oregon'], ['PA', 'Pennsylvania'], ['RI', 'Rhode Island'],
  ['SC', 'South Carolina'], ['SD', 'South Dakota'], ['TN', 'Tennessee'], ['TX', 'Texas'], ['UT', 'Utah'], ['VT', 'Vermont'],
  ['VA', 'Virginia'], ['WA', 'Washington'], ['WV', 'West Virginia'], ['WI', 'Wisconsin'], ['WY', 'Wyoming'],
  ['AS', 'American Samoa'], ['GU', 'Guam'], ['MP', 'Northern Mariana Islands'], ['PR', 'Puerto Rico'], ['VI', 'U.S. Virgin Islands'],
  ['UM', 'U.S. Minor Outlying Islands'], ['FM', 'Federated States of Micronesia'], ['MH', 'Marshall Islands'], ['PW', 'Palau'],
  ['AA', 'Armed Forces Americas'], ['AE', 'Armed Forces Europe'], ['AP', 'Armed Forces Pacific'],
] as const satisfies readonly (readonly [string, string])[];
export const directoryStateCodes = directoryStates.map(([code]) => code) as [string, ...string[]];

// end-user §9: 10 a page, infinite scroll; a tab's count is never counted past this (the dialog shows "99+").
export const DIRECTORY_PAGE_SIZE = 10;
export const DIRECTORY_COUNT_CAP = 100;
export const DIRECTORY_COUNT_SHOWN_MAX = 99;
// Deep paging is refused: nobody scrolls 500 rows of a directory; they narrow the search.
export const DIRECTORY_MAX_PAGE_START = 500;

export const directoryMessages = {
  // end-user §5 "Directory search": runs only if at least one field has a value. Not worded in the spec.
  searchNeedsValue: 'Enter at least one of first name, last name, organization name, city, state or zip.',
  stateFromList: 'Choose a state from the list.',
  zipDigits: 'Zip must be digits only, at most 9.',
  // end-user §2 "Find Provider dialog".
  noDirectAddress: 'DIRECT address is not available.',
  notFoundLink: "Don't see the provider you're looking for?",
  entryNotFound: 'The directory entry was not found.',
  entryNeedsName: 'A directory entry needs a last name or an organization name.',
  entryAddressInvalid: 'The Direct address is not valid.',
} as const;

const nameField = (label: string) => text(label).trim().max(100).optional();

// POST /api/directory/search (§3 "Directory search request"). pageSize is fixed at 10 by §9 but accepted up to 50.
export const directorySearchRequest = z.object({
  firstName: nameField('First name'),
  lastName: nameField('Last name'),
  organizationName: nameField('Organization name'),
  city: nameField('City'),
  // An empty choice is no choice.
  state: z.preprocess((v) => (v === '' || v === null ? undefined : v), z.enum(directoryStateCodes, { error: directoryMessages.stateFromList }).optional()),
  zip: text('Zip').trim().regex(/^\d{0,9}$/, directoryMessages.zipDigits).optional(),
  providerPageStart: z.coerce.number().int().min(0).max(DIRECTORY_MAX_PAGE_START).default(0),
  organizationPageStart: z.coerce.number().int().min(0).max(DIRECTORY_MAX_PAGE_START).default(0),
  pageSize: z.coerce.number().int().min(1).max(50).default(DIRECTORY_PAGE_SIZE),
});
export type DirectorySearchRequest = z.input<typeof directorySearchRequest>;

export const hasDirectorySearchValue = (r: Partial<Record<'firstName' | 'lastName' | 'organizationName' | 'city' | 'state' | 'zip', string | undefined | null>>) =>
  [r.firstName, r.lastName, r.organizationName, r.city, r.state, r.zip].some((v) => !!v?.trim());

// Where an entry comes from: the national registry, an organization hosted on this installation, a contact an
// organization added by hand (visible to that organization only), or an entry the platform's operators published
// (/api/kno2directory, visible to all).
export const directorySources = ['NPPES', 'Hosted', 'Organization', 'Published'] as const;
export type DirectorySource = (typeof directorySources)[number];
// NPPES entity type codes: 1 an individual provider, 2 an organization.
export const directoryEntityTypes = [
  { id: 1, name: 'Provider' },
  { id: 2, name: 'Organization' },
] as const;

// §3 "Entry", plus what the issue adds: NPI, entity type, taxonomy, where it came from, hosted.
export const directoryEntry = z.object({
  id: text(),
  directAddress: text().nullable(),
  organizationName: text().nullable(),
  lastName: text().nullable(),
  firstName: text().nullable(),
  middleName: text().nullable(),
  clinicName: text().nullable(),
  phonePrimary: text().nullable(),
  fax: text().nullable(),
  standardizedAddressLine1: text().nullable(),
  standardizedCity: text().nullable(),
  standardizedState: text().nullable(),
  standardizedZip: text().nullable(),
  npi: text().nullable(),
  entityType: z.number().int(),
  taxonomy: text().nullable(),
  source: z.enum(directorySources),
  hosted: z.boolean(),
});
export type DirectoryEntry = z.infer<typeof directoryEntry>;

export const directorySearchResponse = z.object({
  providers: z.array(directoryEntry),
  totalProvidersCount: z.number().int(),
  organizations: z.array(directoryEntry),
  totalOrganizationsCount: z.number().int(),
});
export type DirectorySearchResponse = z.infer<typeof directorySearchResponse>;

/** A tab's count as the dialog shows it: "99+" past 99 (the server stops counting at 100). */
export const directoryCountLabel = (count: number) => (count > DIRECTORY_COUNT_SHOWN_MAX ? `${DIRECTORY_COUNT_SHOWN_MAX}+` : String(count));

// GET /api/directory/validate?addresses=a;b (not detailed in the spec): for each address whether it is a
// well-formed Direct address, hosted here, known to the directory (with the entry's name), or unknown.
export const DIRECTORY_VALIDATE_MAX = 50;
export const directoryValidateQuery = z.object({ addresses: text('Addresses').max(DIRECTORY_VALIDATE_MAX * 256) });
export const addressStatuses = ['Invalid', 'Hosted', 'Known', 'Unknown'] as const;
export const directoryAddressCheck = z.object({
  address: text(),
  status: z.enum(addressStatuses),
  valid: z.boolean(),
  hosted: z.boolean(),
  // The directory's name for the address: an organization's name or a provider's "First Last".
  name: text().nullable(),
  organizationName: text().nullable(),
});
export type DirectoryAddressCheck = z.infer<typeof directoryAddressCheck>;
export const directoryValidateResponse = z.array(directoryAddressCheck);

// /api/addressbook: entries an organization adds by hand (a contact not in NPPES). tenantId is the
// organization's id; an entry of another organization answers 404.
export const directoryContactInput = z.object({
  id: text().uuid().optional(),
  entityType: z.union([z.literal(1), z.literal(2)]).default(1),
  directAddress: text('Direct address').trim().max(254).nullish(),
  organizationName: text('Organization name').trim().max(200).nullish(),
  lastName: text('Last name').trim().max(100).nullish(),
  firstName: text('First name').trim().max(100).nullish(),
  middleName: text('Middle name').trim().max(100).nullish(),
  clinicName: text('Clinic name').trim().max(200).nullish(),
  phonePrimary: text('Phone').trim().max(30).nullish(),
  fax: text('Fax').trim().max(30).nullish(),
  standardizedAddressLine1: text('Address').trim().max(200).nullish(),
  standardizedCity: text('City').trim().max(100).nullish(),
  standardizedState: z.enum(directoryStateCodes, { error: directoryMessages.stateFromList }).nullish(),
  standardizedZip: text('Zip').trim().regex(/^\d{0,9}$/, directoryMessages.zipDigits).nullish(),
  npi: text('NPI').trim().regex(/^\d{10}$/, 'NPI must be 10 digits.').nullish(),
  taxonomy: text('Taxonomy').trim().max(20).nullish(),
});
export type DirectoryContactInput = z.input<typeof directoryContactInput>;
export const directoryContact = directoryEntry.extend({ tenantId: text(), createdAt: text(), updatedAt: text() });
export const directoryContactList = z.object({ items: z.array(directoryContact), totalCount: z.number().int() });
export const directoryContactParams = z.object({ tenantId: text().uuid(), id: text().uuid() });
export const directorySearchTermParams = z.object({ term: text('Search').trim().min(1).max(100) });
export const directoryEntryTypes = z.array(z.object({ id: z.number().int(), name: text() }));
