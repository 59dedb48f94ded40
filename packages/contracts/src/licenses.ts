import { z } from 'zod';
import { messages } from './errors.ts';
import { pageOf, pageQuery } from './paging.ts';
import { limitError, text } from './text.ts';
import { EMAIL_PATTERN } from './users.ts';

// back-office-b §2-§9 "License keys" and "License types" (issue 29 §4). Texts in quotes in the spec are kept word for
// word; the rest follow the wording of the other back-office messages.
export const licenseMessages = {
  typeExists: 'This license type already exists',
  categoryRequired: 'Please select a category',
  typeNotFound: 'License type was not found',
  invalidFields: messages.invalidFields,
  namePattern: 'Name may contain only letters, digits, dashes and underscores.',
  subscriptionRequired: 'Subscription is required for a licensed plan.',
  subscriptionUnknown: 'Subscription is not a plan of the product.',
  durationRequired: 'Duration is required for a licensed plan.',
  durationInvalid: 'Duration must be a positive whole number of at most 3 digits.',
  typeSaved: 'The license type was saved successfully.',
  typeDeleted: 'The license type was deleted successfully.',
  typeInUse: (count: number) => `This license type has ${count} license key${count === 1 ? '' : 's'} and cannot be deleted.`,
  // §8: every refusal of POST /api/licenses/issue starts so; the reason follows.
  generateError: (reason: string) => `Error generating licenses: ${reason}`,
  emailInvalid: 'Email is not a valid email address.',
  organizationNotFound: 'Organization was not found.',
  organizationAmbiguous: 'More than one organization has this name; choose it from the list.',
  licenseTypeUnknown: 'License type was not found',
  applicationNameRequired: 'Application name is required unless the license type is a licensed plan.',
  licensedPlanMismatch: (type: string, isPlan: boolean) => `The license type ${type} ${isPlan ? 'is' : 'is not'} a licensed plan.`,
  generated: (count: number) => `${count} license key${count === 1 ? ' was' : 's were'} generated.`,
  keysShownOnce: 'Copy these keys now: they are stored hashed and cannot be shown again.',
  copied: 'Copied!',
  noLicenses: 'This organization has no license keys.',
} as const;

// The four categories of §3.
export const LICENSE_CATEGORIES = ['Device', 'App', 'LicensedPlan', 'LicensedConnector'] as const;
export type LicenseCategory = (typeof LICENSE_CATEGORIES)[number];

export const LICENSE_TEXT_MAX = 255;
// §5: letters, digits, dash and underscore only.
export const LICENSE_TYPE_NAME_PATTERN = /^[A-Za-z0-9_-]+$/;
// §5: duration a positive integer of at most 3 digits.
export const LICENSE_DURATION_MAX = 999;
// §9: the list shows 5 connector names (the rest behind "+N").
export const CONNECTOR_NAMES_SHOWN = 5;
export const LICENSE_NAMES_MAX = 50;
// §9 "License quick filter: expiring within 60 days"; "grids default to 20"; license types search waits 400 ms.
export const EXPIRING_SOON_DAYS = 60;
export const LICENSE_GRID_PAGE_SIZE = 20;
export const LICENSE_TYPES_SEARCH_DEBOUNCE_MS = 400;
// Not in the spec: keys issued by one request, and how long they may run (ten years and a bit).
export const LICENSE_QUANTITY_MAX = 500;
export const LICENSE_EXPIRES_IN_DAYS_MAX = 3700;

// A key is 30 Crockford base-32 characters (150 random bits) in six groups of five. Only its first group is stored in
// clear (the grid's LicenseKey column shows it as "K7QF2-…"); the key itself is stored as its SHA-256 and shown once,
// in the generated-list modal. 125 bits stay secret, so the visible group helps no one guess the rest.
export const LICENSE_KEY_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const LICENSE_KEY_GROUPS = 6;
export const LICENSE_KEY_GROUP_LENGTH = 5;
export const LICENSE_KEY_PATTERN = /^[0-9A-HJKMNP-TV-Z]{5}(?:-[0-9A-HJKMNP-TV-Z]{5}){5}$/;

const names = (label: string) =>
  z
    .array(text(label).trim().min(1).max(LICENSE_TEXT_MAX))
    .max(LICENSE_NAMES_MAX)
    // Blank and repeated entries are dropped rather than refused: they come from a tags input.
    .transform((list) => [...new Set(list.filter((n) => n !== ''))]);

// The duration as typed: a whole number, or blank (null) when the category needs none.
const duration = z.union([z.number(), z.literal(''), z.null()]).optional();

export const licenseTypeInput = z
  .object({
    name: text('Name').trim().min(1, { abort: true }).max(LICENSE_TEXT_MAX).regex(LICENSE_TYPE_NAME_PATTERN, licenseMessages.namePattern),
    description: text('Description').trim().min(1).max(LICENSE_TEXT_MAX),
    category: z.enum(LICENSE_CATEGORIES, { error: () => licenseMessages.categoryRequired }),
    // The productId of §3: the id of one of the product's plans.
    subscription: text('Subscription').trim().max(LICENSE_TEXT_MAX).nullish(),
    subscriptionDurationDays: duration,
    applicationNames: names('Application name').default([]),
    connectorNames: names('Connector name').default([]),
  })
  .superRefine((value, ctx) => {
    const plan = value.category === 'LicensedPlan';
    if (plan && !value.subscription) ctx.addIssue({ code: 'custom', path: ['subscription'], message: licenseMessages.subscriptionRequired });
    const days = value.subscriptionDurationDays;
    if (days === undefined || days === null || days === '') {
      if (plan) ctx.addIssue({ code: 'custom', path: ['subscriptionDurationDays'], message: licenseMessages.durationRequired });
    } else if (!Number.isInteger(days) || days < 1 || days > LICENSE_DURATION_MAX) {
      ctx.addIssue({ code: 'custom', path: ['subscriptionDurationDays'], message: licenseMessages.durationInvalid });
    }
  });
export type LicenseTypeInput = z.input<typeof licenseTypeInput>;

export const licenseType = z.object({
  id: text(),
  name: text(),
  description: text(),
  category: z.enum(LICENSE_CATEGORIES),
  subscription: text().nullable(),
  // The plan's name, for the list's Subscription column.
  subscriptionName: text().nullable(),
  subscriptionDurationDays: z.number().int().nullable(),
  applicationNames: z.array(text()),
  // §3 names the same list "apps" too.
  apps: z.array(text()),
  connectorNames: z.array(text()),
});
export type LicenseType = z.infer<typeof licenseType>;

export const licenseTypeSortColumns = ['name', 'description', 'category', 'subscriptionDurationDays'] as const;
export const licenseTypeQuery = pageQuery.extend({ col: z.enum(licenseTypeSortColumns).optional() });
export const licenseTypePage = pageOf(licenseType);
export const licenseTypeParams = z.object({ id: text().uuid() });
export const licenseTypeExistsQuery = z.object({ name: text().trim().max(LICENSE_TEXT_MAX), id: text().uuid().optional() });

// POST /api/licenses/issue (form-encoded, so every value arrives as text).
const formText = (label: string) => text(label).trim().min(1).max(LICENSE_TEXT_MAX);
const formNumber = (label: string, max: number) =>
  text(label)
    .trim()
    .min(1, { abort: true })
    .regex(/^\d{1,9}$/, `${label} must be a number.`)
    .transform(Number)
    .pipe(z.number({ error: limitError(label) }).int().min(1).max(max));

export const licenseIssueRequest = z.object({
  name: formText('Name'),
  email: text('Email').trim().min(1, { abort: true }).max(254).regex(EMAIL_PATTERN, licenseMessages.emailInvalid),
  internalproductname: formText('Product name'),
  quantity: formNumber('Quantity', LICENSE_QUANTITY_MAX),
  expiresindays: formNumber('Expires in days', LICENSE_EXPIRES_IN_DAYS_MAX),
  // The organization the keys belong to (the modal's typeahead): its id, or its exact name from a store's callback.
  company: text('Organization').trim().min(1, { abort: true }).min(2).max(LICENSE_TEXT_MAX),
  // Whether the license type is a licensed plan: it must agree with the type's category.
  licensedPlan: text('Licensed plan')
    .trim()
    .toLowerCase()
    .pipe(z.enum(['true', 'false'], { error: () => 'Licensed plan must be true or false.' }))
    .transform((v) => v === 'true'),
  applicationname: text('Application name').trim().max(LICENSE_TEXT_MAX).optional(),
  licenseType: formText('License type'),
  reference: formText('Reference'),
})
  // §5: application name required unless the category is licensed plan (the server also checks the flag against it).
  .superRefine((value, ctx) => {
    if (!value.licensedPlan && !value.applicationname) ctx.addIssue({ code: 'custom', path: ['applicationname'], message: licenseMessages.applicationNameRequired });
  });
export type LicenseIssueForm = z.input<typeof licenseIssueRequest>;

export const issuedLicense = z.object({
  id: text(),
  // The whole key: in this answer only.
  licenseKey: text(),
  licenseType: text(),
  organization: text(),
  issuedDate: text(),
  expirationDate: text(),
});
export const issuedLicenses = z.object({ count: z.number().int(), licenses: z.array(issuedLicense) });
export type IssuedLicense = z.infer<typeof issuedLicense>;

// GET /api/adminlicenses: the grid's OData rows (§3 "License"), with Id as the key, OrganizationId for a filter and
// ExpiringSoon, the quick filter (expiring within 60 days from now, expired ones excluded).
export const licenseFields = [
  'Id',
  'LicenseKey',
  'LicenseType',
  'Organization',
  'OrganizationId',
  'ConnectorId',
  'ConnectorName',
  'IssuedDate',
  'ExpirationDate',
  'Reference',
  'ExpiringSoon',
] as const;
export const licenseRow = z.object({
  Id: text(),
  LicenseKey: text(),
  LicenseType: text(),
  Organization: text(),
  OrganizationId: text(),
  ConnectorId: text().nullable(),
  ConnectorName: text().nullable(),
  IssuedDate: text(),
  ExpirationDate: text(),
  Reference: text(),
  ExpiringSoon: z.boolean(),
});
export type LicenseRow = z.infer<typeof licenseRow>;
export const licenseFeed = z.object({
  '@odata.context': text(),
  '@odata.count': z.number().int().optional(),
  '@odata.nextLink': text().optional(),
  value: z.array(licenseRow.partial()),
});

// GET /api/admin/organizations/{id}/licenses: the organization's keys (name: the key's visible part, as the other
// record lists of the Info tab name their rows).
export const organizationLicense = z.object({
  id: text(),
  name: text(),
  licenseKey: text(),
  licenseType: text(),
  connectorId: text().nullable(),
  connectorName: text().nullable(),
  issuedDate: text(),
  expirationDate: text(),
});
export type OrganizationLicense = z.infer<typeof organizationLicense>;
