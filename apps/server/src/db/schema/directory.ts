import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, primaryKey, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './organizations.ts';
import { users } from './users.ts';

// The provider directory (issue 10): every NPPES provider and organization, loaded by `npm run directory:import`.
// Organizations hosted here are not copied in: search reads them live from organizations and document sources,
// so they are always current. *_norm columns hold the search form of a value (modules/directory/normalize.ts:
// lower case, accents and punctuation removed), written by the importer so that search is index range scans.
export const directoryEntries = pgTable(
  'directory_entries',
  {
    id: uuid().primaryKey().defaultRandom(),
    npi: text().notNull().unique(),
    // NPPES Entity Type Code: 1 an individual provider, 2 an organization.
    entityType: smallint().notNull(),
    // A deactivated NPI (NPPES deactivation date without a later reactivation) stays, out of search.
    active: boolean().notNull().default(true),
    lastName: text(),
    firstName: text(),
    middleName: text(),
    organizationName: text(),
    // An organization's other name (doing business as); an individual's none.
    clinicName: text(),
    phonePrimary: text(),
    fax: text(),
    addressLine1: text(),
    city: text(),
    state: text(),
    // Digits only, 5 or 9.
    zip: text(),
    taxonomy: text(),
    // An organization's authorized official, as NPPES lists it (NPPES fills these for entity type 2 only).
    officialLastName: text(),
    officialFirstName: text(),
    officialMiddleName: text(),
    officialNamePrefix: text(),
    officialNameSuffix: text(),
    officialCredential: text(),
    officialTitle: text(),
    // Digits only.
    officialPhone: text(),
    // NPPES "Is Organization Subpart" as the file gives it: Y, N, or null when blank.
    organizationSubpart: text(),
    // The first Direct address the endpoint file lists for the NPI (directory_endpoints holds them all).
    directAddress: text(),
    hasDirect: boolean().generatedAlwaysAs(sql`"direct_address" is not null`).notNull(),
    // Individuals: "last first middle"; organizations: the legal business name. Orders every result.
    nameNorm: text().notNull(),
    lastNorm: text(),
    firstNorm: text(),
    orgNorm: text(),
    cityNorm: text(),
    // The file that last changed the row (its base name) and when.
    sourceFile: text(),
    importedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // One index per way a search starts (modules/directory/queries.ts): each answers a page and a capped count
    // from an index range, entries with a Direct address (has_direct) first.
    index('directory_by_name_idx').on(t.entityType, t.hasDirect, t.nameNorm).where(sql`${t.active}`),
    index('directory_by_state_name_idx').on(t.entityType, t.hasDirect, t.state, t.nameNorm).where(sql`${t.active}`),
    index('directory_by_city_idx').on(t.entityType, t.hasDirect, t.cityNorm, t.nameNorm).where(sql`${t.active}`),
    index('directory_by_zip_idx').on(t.entityType, t.hasDirect, t.zip, t.nameNorm).where(sql`${t.active}`),
    index('directory_by_first_idx').on(t.entityType, t.hasDirect, t.firstNorm, t.nameNorm).where(sql`${t.active}`),
  ],
);

// Direct addresses from the NPPES endpoint file (Endpoint Type DIRECT), several per NPI possible.
export const directoryEndpoints = pgTable(
  'directory_endpoints',
  {
    npi: text().notNull(),
    address: text().notNull(),
    affiliationName: text(),
    sourceFile: text(),
  },
  (t) => [primaryKey({ columns: [t.npi, t.address] }), index('directory_endpoints_address_idx').on(t.address)],
);

// Entries an organization adds by hand (/api/addressbook): searched with the directory, seen only by it.
export const directoryContacts = pgTable(
  'directory_contacts',
  {
    id: uuid().primaryKey().defaultRandom(),
    organizationId: uuid().notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    entityType: smallint().notNull(),
    npi: text(),
    lastName: text(),
    firstName: text(),
    middleName: text(),
    organizationName: text(),
    clinicName: text(),
    phonePrimary: text(),
    fax: text(),
    addressLine1: text(),
    city: text(),
    state: text(),
    zip: text(),
    taxonomy: text(),
    directAddress: text(),
    nameNorm: text().notNull(),
    lastNorm: text(),
    firstNorm: text(),
    orgNorm: text(),
    cityNorm: text(),
    createdBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('directory_contacts_org_idx').on(t.organizationId, t.nameNorm), index('directory_contacts_address_idx').on(t.directAddress)],
);

// Invitations sent from the Send an Invite dialog; the code lets registration (issue 14) prefill its form.
export const invitations = pgTable(
  'invitations',
  {
    id: uuid().primaryKey().defaultRandom(),
    organizationId: uuid().notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    invitedBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    fullName: text().notNull(),
    emailAddress: text().notNull(),
    directAddress: text(),
    code: text().notNull().unique(),
    mailId: uuid(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('invitations_org_idx').on(t.organizationId, t.createdAt)],
);
