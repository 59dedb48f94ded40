import { boolean, index, jsonb, pgTable, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

// Directory entries of the directory service (/api/kno2directory, /admin/directory, issue 29 §7): free JSON published
// to the provider directory by platform operators. The JSON is kept as given; the columns below are what the end
// users' directory search reads from it (modules/directory-entries/entry-fields.ts), *_norm in search form.
export const directoryServiceEntries = pgTable(
  'directory_service_entries',
  {
    id: uuid().primaryKey().defaultRandom(),
    tenantId: text().notNull(),
    entryType: text().notNull(),
    isSystemGenerated: boolean().notNull().default(false),
    data: jsonb().$type<Record<string, unknown>>().notNull(),
    // NPPES entity type: 1 Provider, 2 Organization.
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
  (t) => [index('directory_service_entries_name_idx').on(t.entityType, t.nameNorm), index('directory_service_entries_address_idx').on(t.directAddress)],
);
