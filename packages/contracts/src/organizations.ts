import { z } from 'zod';
import { exportModes, exportOptions } from './organization-settings.ts';
import { directoryStates } from './directory.ts';
import { pageOf, pageQuery } from './paging.ts';
import { text } from './text.ts';

// back-office-a §2 "Organizations", §3 Organization and NPI result, §4, §5, §7 "Organizations", §8.
export const organizationMessages = {
  activationUpdated: 'Organization Activation Status has been updated.',
  activationFailed: 'There was an error updating the organization activation status.',
  cancellationCleared: 'The cancellation was cleared successfully.',
  cancellationClearFailed: 'There was an error clearing the cancellation for this organization.',
  deleted: 'The organization was deleted successfully.',
  deleteFailed: 'There was an error deleting this organization.',
  loginAbilityUpdated: 'Organization Login Ability has been updated.',
  loginAbilityFailed: 'There was an error updating the organization login ability.',
  apiUpdated: 'Organization API settings updated.',
  apiFailed: 'There was an error updating the organization API setting.',
  syncStarted: 'Organization Intercom Sync has been initialized.',
  syncFailed: 'There was an error trying to sync organization with Intercom.',
  saved: 'The organization was saved successfully.',
  saveFailed: 'There was an error saving this organization.',
  npiApply: "Click 'Save Changes' to apply the new NPI",
  npiMismatch: (searched: string, found: string) => `Result does not match: Searched for ${searched}. Result was ${found}`,
  npiNoResults: 'There are no results matching your criteria.',
  npiNoAddresses: 'There are no addresses associated with this NPI.',
  licenserOverFreeLimit: "Can't remove Licenser because this organization exceeds the user limit for the free plan.",
  licenserRemovalWarning: 'Removing a Licensing Reseller will reset the organization to a Free Plan.',
  // Not worded in the spec: a reseller chosen for the other role.
  notAnAffiliate: 'Choose an affiliate reseller.',
  notALicenser: 'Choose a licensing reseller.',
  // §8 names this warning without its words.
  cardPaymentWarning: 'This organization has a plan under a non-licensing reseller: update its subscription in the card payment provider.',
  subdomainInvalid: 'This subdomain already exists, contains invalid characters or is a reserved word, please enter a different one.',
  invalidForm: 'Please fill out all required fields.',
  activationWarning:
    'An organization should not be activated before it has been provisioned with the messaging provider. Activation enables Intake and Release for its users.',
  // Not worded in the spec.
  npiInvalid: 'The NPI must be 10 digits (or 15 digits starting with 80840) and pass the NPI check digit.',
  streetInvalid: 'Enter a street address (number and street name); a P.O. Box is not accepted.',
  phoneInvalid: 'Enter the phone number as (999) 999-9999.',
  phoneTollFree: 'The phone number cannot be a toll-free (1-800) number.',
  faxInvalid: 'Enter the fax number as (999) 999-9999.',
  emailInvalid: 'Enter a valid email address.',
  chooseFromList: 'Please choose a value from the list.',
  planTooSmall: 'This plan allows fewer users than the organization has.',
  notPendingCancellation: 'This organization has no pending cancellation.',
  inUse: 'This organization has messages or other records and cannot be deleted; disable its login instead.',
  sandboxSync: 'Sandbox: the sync was recorded; no customer-messaging service was called.',
} as const;

// §9: more than 3 users blocks removing a licensing reseller (the free plan's limit); reseller type 1 is Licensing.
export const FREE_PLAN_USER_LIMIT = 3;
export const RESELLER_TYPE_LICENSING = 1;
export const RESELLER_TYPE_AFFILIATE = 0;
export const NPI_LOOKUP_LENGTH = 10;
export const NPI_LOOKUP_DEBOUNCE_MS = 500;
// The list's API column and the API capture row action show only when this feature toggle is on (§2).
export const API_CAPTURE_FEATURE = 'apiCaptureEnabled';
// The edit page's westfax tab shows only when this feature toggle is on (§2).
export const WESTFAX_FEATURE = 'WestFaxInterface';

const digits = (value: string) => value.replace(/\D/g, '');

/** The Luhn check NPPES uses: the NPI's 10 digits prefixed with 80840 (a 15-digit card number) must pass. */
export function isValidNpi(value: string): boolean {
  const full = /^\d{10}$/.test(value) ? `80840${value}` : /^80840\d{10}$/.test(value) ? value : null;
  if (!full) return false;
  let sum = 0;
  for (let i = 0; i < full.length; i++) {
    let d = Number(full[full.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

// A street needs a number and a name; P.O. boxes are not a physical location.
const PO_BOX = /\b(p\.?\s*o\.?\s*box|post\s+office\s+box|pob)\b/i;
export const isValidStreet = (value: string) => /\S\s+\S/.test(value.trim()) && !PO_BOX.test(value);

// 1-800-style numbers (§5 "cannot be a 1800 number"): every North American toll-free prefix.
export const TOLL_FREE_PREFIXES = ['800', '888', '877', '866', '855', '844', '833'] as const;
export const isTollFree = (phoneDigits: string) => (TOLL_FREE_PREFIXES as readonly string[]).includes(phoneDigits.slice(0, 3));

/** (999) 999-9999 from stored digits; anything else as it is. */
export const formatPhone = (value: string | null | undefined) => {
  const d = digits(value ?? '');
  return d.length === 10 ? `(${d.slice(0, 3)}) ${d.slice(3, 6)}-${d.slice(6)}` : (value ?? '');
};

// Subdomains are DNS labels: letters, digits and inner hyphens (stored lower-case).
export const SUBDOMAIN_PATTERN = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;

const optionalText = (label: string, max = 255) =>
  text(label)
    .trim()
    .max(max)
    .nullish()
    .transform((v) => (v ? v : null));
const requiredId = (label: string) => z.number({ error: `${label} is required.` }).int().min(1, `${label} is required.`);
// A phone typed with the mask or as digits; stored as its 10 digits.
const phoneField = (message: string, refuseTollFree: boolean) =>
  text('Phone')
    .trim()
    .max(20)
    .refine((v) => digits(v).length === 10 && /^[\d\s()+.-]*$/.test(v), message)
    .refine((v) => !refuseTollFree || !isTollFree(digits(v)), organizationMessages.phoneTollFree)
    .transform(digits);

const US_STATE_CODES: ReadonlySet<string> = new Set(directoryStates.map(([code]) => code));

export const organizationAddress = z.object({
  street: text('Street').trim().min(1).max(255).refine(isValidStreet, organizationMessages.streetInvalid),
  unit: optionalText('Unit'),
  city: text('City').trim().min(1).max(255),
  // NPPES and Direct are US-only: a state is one of the codes the directory uses.
  state: text('State').trim().min(1).max(255).refine((v) => US_STATE_CODES.has(v.toUpperCase()), 'State must be a US state or territory.').transform((v) => v.toUpperCase()),
  zip: text('Zip').trim().min(1).max(10).regex(/^\d{5}(-?\d{4})?$/, 'Zip must be 5 or 9 digits.'),
  country: text('Country').trim().max(255).default('US'),
});

// The settings tab: end-user §3 interoperability settings, the fax suppress settings (§9 of end-user) and the plan
// restriction; stored in organizations.settings, the column GET /api/organizationsettings serves to end users.
export const organizationAdminSettings = z.object({
  exportMode: z.enum(exportModes),
  exportOption: z.enum(exportOptions).nullable(),
  exportDirectoryType: text('Export directory type').trim().max(100).nullable(),
  exportVisitDirectory: z.boolean(),
  nonPatientExport: z.boolean(),
  deliverySummaryEnableDownload: z.boolean(),
  suppressCoverPage: z.boolean(),
  suppressMessageBody: z.boolean(),
  suppressAttachmentDescriptions: z.boolean(),
  // Plan restriction: the organization's users are held to its plan's limits (the spec names the setting only).
  planRestricted: z.boolean(),
});
export type OrganizationAdminSettings = z.infer<typeof organizationAdminSettings>;

// POST /api/organizations and PUT /api/organizations/{id}: the details and Primary Contact tabs (and, from the
// settings tab, `settings`). enabledFeatures are feature toggle names (the toggle's unique name is its id here).
export const organizationInput = z.object({
  name: text('Name').trim().min(3).max(50),
  subdomain: text('Subdomain')
    .trim()
    .min(1)
    .max(255)
    .refine((v) => SUBDOMAIN_PATTERN.test(v), organizationMessages.subdomainInvalid)
    .transform((v) => v.toLowerCase()),
  brandId: text('Brand').trim().min(1, 'Brand is required.').max(100),
  organizationTypeId: requiredId('Type'),
  organizationSpecialtyId: requiredId('Specialty'),
  planId: optionalText('Plan', 100),
  // §3 "affiliate and licensing reseller": each must be a reseller of its type (RESELLER_TYPE_AFFILIATE, _LICENSING).
  affiliateResellerId: text().uuid(organizationMessages.chooseFromList).nullish().transform((v) => v ?? null),
  licensingResellerId: text().uuid(organizationMessages.chooseFromList).nullish().transform((v) => v ?? null),
  tierCode: optionalText('Tier code', 50),
  enabledFeatures: z.array(text().max(100)).max(50).default([]),
  allowedPurposeOfUseCodes: z.array(text().trim().max(100)).max(50).default([]),
  organizationNpi: text('NPI')
    .trim()
    .max(15)
    .refine((v) => v === '' || isValidNpi(v), organizationMessages.npiInvalid)
    .nullish()
    .transform((v) => v || null),
  organizationEmr: optionalText('EMR'),
  hispProviderId: requiredId('HISP'),
  address: organizationAddress,
  primaryPhone: phoneField(organizationMessages.phoneInvalid, true),
  primaryFax: z
    .union([z.literal(''), phoneField(organizationMessages.faxInvalid, false)])
    .nullish()
    .transform((v) => v || null),
  primaryContactFirstName: text('First name').trim().min(2).max(255),
  primaryContactLastName: text('Last name').trim().min(2).max(255),
  primaryContactEmail: text('Email').trim().min(1).max(255).email(organizationMessages.emailInvalid),
  primaryContactTitle: optionalText('Title'),
  primaryContactNpi: optionalText('Contact NPI', 10),
  homeCommunityId: optionalText('Home community id'),
  preferredGroupName: optionalText('Preferred group name'),
  isActivated: z.boolean({ error: 'Activation status is required.' }).default(false),
  settings: organizationAdminSettings.optional(),
});
export type OrganizationInput = z.input<typeof organizationInput>;

export const organization = z.object({
  id: text(),
  orgId: z.number().int(),
  name: text(),
  subdomain: text(),
  brandId: text().nullable(),
  organizationTypeId: z.number().int().nullable(),
  organizationSpecialtyId: z.number().int().nullable(),
  networkDbId: text().nullable(),
  networkName: text().nullable(),
  plan: z.object({ id: text(), allowedUsersDescription: text() }).nullable(),
  planId: text().nullable(),
  // The organization's reseller as §3 names it (reseller, resellerId, resellerName): the licensing reseller when
  // there is one, else the affiliate; the two roles follow.
  reseller: z.object({ id: text(), type: z.number().int() }).nullable(),
  resellerId: text().nullable(),
  resellerName: text().nullable(),
  affiliateResellerId: text().nullable(),
  affiliateResellerName: text().nullable(),
  licensingResellerId: text().nullable(),
  licensingResellerName: text().nullable(),
  tierCode: text().nullable(),
  numberOfUsers: z.number().int(),
  enabledFeatures: z.array(text()),
  allowedPurposeOfUseCodes: z.array(text()),
  organizationNpi: text().nullable(),
  organizationEmr: text().nullable(),
  hispProviderId: z.number().int().nullable(),
  address: z.object({ street: text().nullable(), unit: text().nullable(), city: text().nullable(), state: text().nullable(), zip: text().nullable(), country: text() }),
  primaryPhone: text().nullable(),
  primaryFax: text().nullable(),
  phone: text().nullable(),
  primaryContactFirstName: text().nullable(),
  primaryContactLastName: text().nullable(),
  primaryContactEmail: text().nullable(),
  primaryContactTitle: text().nullable(),
  primaryContactNpi: text().nullable(),
  homeCommunityId: text().nullable(),
  preferredGroupName: text().nullable(),
  isActivated: z.boolean(),
  isEnabled: z.boolean(),
  loginType: text(),
  apiCapture: z.boolean(),
  isPendingCancellation: z.boolean(),
  cancelledAt: text().nullable(),
  settings: organizationAdminSettings,
  createdBy: text().nullable(),
  createDate: text(),
  modifiedBy: text().nullable(),
  modifiedDate: text(),
});
export type Organization = z.infer<typeof organization>;

// What an activated organization can send, and what is still pending (issue 26 §3b): the activation mail and the
// Administrator's dashboard say the same sentences.
export const sendingTexts = {
  title: 'Still pending',
  noAddress: 'Your organization has no Direct address in service yet. A system administrator adds one; you can send and receive in Release and Intake as soon as it is activated.',
  needsCertificate: (addresses: readonly string[], brand: string) =>
    `Sending to Direct addresses at other providers needs a Direct certificate for ${addresses.join(', ')}; a system administrator imports it under Certificates. Until then you send to and receive from organizations on ${brand}.`,
} as const;
export const sendingStatus = z.object({
  addresses: z.array(z.object({ fullAddress: text(), hasCertificate: z.boolean() })),
  pending: z.array(text()),
});
export type SendingStatus = z.infer<typeof sendingStatus>;

// The list's Status filter (issue 26 §3b): the operators' queues, and the words the list and the dashboard show.
export const ORGANIZATION_QUEUES = ['awaitingActivation', 'awaitingReview'] as const;
export type OrganizationQueue = (typeof ORGANIZATION_QUEUES)[number];
export const organizationQueueCounts = z.object({ awaitingActivation: z.number().int(), awaitingReview: z.number().int() });
export const organizationQueueLabels: Record<OrganizationQueue, string> = { awaitingActivation: 'Awaiting activation', awaitingReview: 'Awaiting review' };

// The list's columns (§2).
export const organizationListItem = z.object({
  id: text(),
  orgId: z.number().int(),
  name: text(),
  networkName: text().nullable(),
  subdomain: text(),
  resellerName: text().nullable(),
  tierCode: text().nullable(),
  isActivated: z.boolean(),
  isEnabled: z.boolean(),
  loginType: text(),
  apiCapture: z.boolean(),
  isPendingCancellation: z.boolean(),
  isCancelled: z.boolean(),
});
export type OrganizationListItem = z.infer<typeof organizationListItem>;
export const organizationPage = pageOf(organizationListItem);
// Without pageNumber and pageSize the call is the organization typeahead (search from the second character).
export const organizationQuery = pageQuery.extend({
  pageNumber: z.coerce.number().int().min(1).optional(),
  pageSize: z.coerce.number().int().min(1).max(100).optional(),
  // true: only canceled organizations and those cancelling soon (pending cancellation).
  cancelling: z.enum(['true', 'false']).transform((v) => v === 'true').optional(),
  // true: the activation queue (issue 14 §3): ID-proofed, terms accepted, not activated yet.
  awaitingActivation: z.enum(['true', 'false']).transform((v) => v === 'true').optional(),
  // The operators' queues (issue 26 §3b): awaitingActivation as above; awaitingReview: not ID-proofed, with an
  // identification uploaded after a failed check, for the ID Proofing modal.
  status: z.enum(ORGANIZATION_QUEUES).optional(),
  // The list's Id column (orgId): /admin/organizations/{orgId} finds the organization it names.
  orgId: z.coerce.number().int().min(1).max(2147483647).optional(),
});

export const organizationOption = z.object({ id: text(), name: text() });
export const organizationType = z.object({ id: z.number().int(), name: text() });

export const organizationParams = z.object({ id: text().uuid() });
// GET /api/organizations/{id} and GET /api/organizations/{userId}?search= share a path: with `search` the id is a
// user's and the answer is the organizations that user is not yet a member of (the user-organizations typeahead).
export const organizationGetQuery = z.object({ search: text().trim().max(200).optional() });

export const subdomainExistsQuery = z.object({ id: text().uuid().optional().or(z.literal('')), subdomain: text().trim().max(255) });
export const subdomainIsValidQuery = z.object({ organizationId: text().uuid().optional().or(z.literal('')), subdomain: text().trim().max(255) });

export const activationRequest = z.object({
  id: text().uuid().optional(),
  activated: z.boolean(),
  sendEmail: z.boolean().default(true),
  seedRecords: z.boolean().default(true),
});
// Absent: the call flips the flag (the list's row action); present: sets it.
export const enableRequest = z.object({ enabled: z.boolean().optional() }).nullish();
export const apiCaptureRequest = z.object({ apiCapture: z.boolean().optional() }).nullish();

export const syncResponse = z.object({ ok: z.literal(true), sandbox: z.boolean(), message: text() });

export const npiQuery = z.object({ npiNumber: text('NPI').trim().regex(/^\d{10}$/, organizationMessages.npiInvalid) });
// The NPI result of §3, read from the provider directory; null when the NPI is not in it.
export const npiResult = z
  .object({
    number: text(),
    basic: z.object({ authorizedOfficialFirstName: text().nullable(), authorizedOfficialMiddleName: text().nullable(), authorizedOfficialLastName: text().nullable() }),
    name: text(),
    organizationName: text().nullable(),
    fullName: text().nullable(),
    organizationalSubpart: text().nullable(),
    authorizedOfficialTelephoneNumber: text().nullable(),
    status: text(),
    addresses: z.array(z.object({ address_1: text().nullable(), address_2: text().nullable(), city: text().nullable(), state: text().nullable(), postalCode: text().nullable() })),
  })
  .nullable();
export type NpiResult = z.infer<typeof npiResult>;

export const organizationAdmin = z.object({ id: text(), userName: text(), fullName: text(), email: text() });
// Devices, licenses and integrations have no rows in the product yet: the calls answer empty lists of this shape.
export const organizationRecord = z.object({ id: text(), name: text() });

export const planOption = z.object({ id: text(), name: text(), allowedUsers: z.number().int(), allowedUsersDescription: text(), isFree: z.boolean() });
export const resellerOption = z.object({ id: text(), name: text(), type: z.number().int() });
export const hispOption = z.object({ id: z.number().int(), name: text() });
export const brandOption = z.object({ id: text(), name: text() });
// Not a call of the spec: the choices of the details tab in one read (brands, types, plans, resellers, HISPs,
// feature toggles), for the edit page; specialties come from GET /api/organizations/specialties.
export const organizationChoices = z.object({
  brands: z.array(brandOption),
  types: z.array(organizationType),
  plans: z.array(planOption),
  resellers: z.array(resellerOption),
  hisps: z.array(hispOption),
  features: z.array(z.object({ name: text(), description: text() })),
});
export type OrganizationChoices = z.infer<typeof organizationChoices>;
