import { boolean, integer, jsonb, pgTable, smallint, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { auditColumns, organizations } from './organizations.ts';

// Reference data and back-office entities of back-office-a §3 that organizations point to.

// A brand is the product name, logo and settings an organization is served under (GET /api/admin/brands).
export const brands = pgTable('brands', {
  id: text().primaryKey(),
  name: text().notNull(),
  // Brand settings: a UI element is removed when its setting is not 'true' (back-office-a §6).
  settings: jsonb().$type<Record<string, string>>().notNull().default({}),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

export const organizationTypes = pgTable('organization_types', {
  id: integer().primaryKey(),
  name: text().notNull().unique(),
});

// allowedUsers -1 is unlimited; the plan list of an organization offers plans with allowedUsers ≥ its user count.
export const subscriptionPlans = pgTable('subscription_plans', {
  id: text().primaryKey(),
  name: text().notNull(),
  allowedUsers: integer().notNull(),
  allowedUsersDescription: text().notNull(),
  isFree: boolean().notNull().default(false),
  // The monthly price the payment provider charges.
  priceCents: integer().notNull().default(0),
  sortOrder: integer().notNull().default(0),
});

// The HISPs and fax carriers an organization's document sources are provisioned with (documentsourceproviders).
export const documentSourceProviders = pgTable('document_source_providers', {
  id: integer().primaryKey(),
  name: text().notNull(),
  type: text({ enum: ['DirectMessaging', 'Fax'] }).notNull(),
});

export const partners = pgTable('partners', {
  id: uuid().primaryKey().defaultRandom(),
  name: text().notNull(),
  url: text(),
  // The logo's bytes are a blob of the blob store; its type and size were checked on upload.
  logoBlobId: uuid(),
  logoFileName: text(),
  logoContentType: text(),
  ...auditColumns,
});

// type: 0 Affiliate, 1 Licensing. urlCodeKey is the URL code in lower case, unique: /register/{urlCode}.
export const resellers = pgTable('resellers', {
  id: uuid().primaryKey().defaultRandom(),
  type: smallint().notNull().default(0),
  name: text().notNull(),
  affiliateUrlTag: text(),
  sponsor: text(),
  registrationText: text(),
  welcomeText: text(),
  welcomeMessageId: integer(),
  urlCode: text(),
  urlCodeKey: text().unique(),
  logoBlobId: uuid(),
  logoFileName: text(),
  logoContentType: text(),
  logoBackgroundColor: text(),
  bypassTos: boolean().notNull().default(false),
  faxHandledByReseller: boolean().notNull().default(false),
  ...auditColumns,
});

// An organization's API client (client credentials); allowedAddressCount is never below the IPs listed.
export const serviceAccounts = pgTable('service_accounts', {
  id: uuid().primaryKey().defaultRandom(),
  organizationId: uuid().notNull().references(() => organizations.id, { onDelete: 'cascade' }),
  clientId: text().notNull().unique(),
  serviceAccountEnabled: boolean().notNull().default(true),
  clientIpAddresses: text().array().notNull().default([]),
  allowedAddressCount: integer().notNull().default(0),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

// Carequality: alternate OIDs of an organization (one may be the default) and its directory entries.
export const alternateOids = pgTable('alternate_oids', {
  id: uuid().primaryKey().defaultRandom(),
  organizationId: uuid().notNull().references(() => organizations.id, { onDelete: 'cascade' }),
  value: text().notNull(),
  isDefault: boolean().notNull().default(false),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

export const carequalityDirectoryEntries = pgTable('carequality_directory_entries', {
  id: uuid().primaryKey().defaultRandom(),
  organizationId: uuid().notNull().references(() => organizations.id, { onDelete: 'cascade' }),
  parentOrgId: text(),
  isParent: boolean().notNull().default(false),
  isActive: boolean().notNull().default(true),
  responderType: text({ enum: ['DirectResponder', 'ChildLocation', 'GatewayResponder', 'GatewayMember', 'InitiatorOnly'] }).notNull(),
  address: text().notNull(),
  city: text().notNull(),
  state: text().notNull(),
  zipCode: text().notNull(),
  country: text().notNull().default('US'),
  purposeOfUseCodes: text().array().notNull().default([]),
  displayName: text().notNull(),
  legalName: text(),
  homeCommunityId: text(),
  otherNames: text().array().notNull().default([]),
  initiatorOnly: boolean().notNull().default(false),
  syncedAt: timestamp({ withTimezone: true }),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

// An organization's account with a fax provider (back-office-a §2 "Fax accounts"), one per provider: eFax (a sub group
// of the provider's group or the customer's own, by groupName) or WestFax (a sub account, by username, with numbers).
export const faxAccounts = pgTable(
  'fax_accounts',
  {
    id: uuid().primaryKey().defaultRandom(),
    organizationId: uuid().notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    provider: text({ enum: ['eFax', 'WestFax'] }).notNull(),
    accountType: text({ enum: ['Kno2EFaxAccount', 'EFaxAccount'] }),
    groupName: text().unique(),
    username: text().unique(),
    numbers: text().array().notNull().default([]),
    syncedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    modifiedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique('fax_accounts_organization_provider_unique').on(t.organizationId, t.provider)],
);
