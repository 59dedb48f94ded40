import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { subscriptionPlans } from './back-office.ts';
import { auditColumns, organizations } from './organizations.ts';

// back-office-b §3 "License type" (issue 29 §4). nameKey is the lower-cased name: unique whatever its case.
export const licenseTypes = pgTable('license_types', {
  id: uuid().primaryKey().defaultRandom(),
  name: text().notNull(),
  nameKey: text().notNull().unique(),
  description: text().notNull(),
  // Device, App, LicensedPlan or LicensedConnector.
  category: text().notNull(),
  // The productId of §3: a plan of the product; set null if the plan goes.
  subscription: text().references(() => subscriptionPlans.id, { onDelete: 'set null' }),
  subscriptionDurationDays: integer(),
  applicationNames: text().array().notNull().default(sql`'{}'::text[]`),
  connectorNames: text().array().notNull().default(sql`'{}'::text[]`),
  ...auditColumns,
});

// back-office-b §3 "License": one issued key. The key itself is never stored: keyHash is its SHA-256 (the key has 150
// random bits, so a fast hash cannot be reversed by guessing) and keyPrefix its first group, shown in the grid.
export const licenses = pgTable(
  'licenses',
  {
    id: uuid().primaryKey().defaultRandom(),
    keyHash: text().notNull(),
    keyPrefix: text().notNull(),
    // Restrict: a type with keys is not deleted (the service says so first).
    licenseTypeId: uuid()
      .notNull()
      .references(() => licenseTypes.id, { onDelete: 'restrict' }),
    organizationId: uuid()
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    // The keys of one request share a batch.
    batchId: uuid().notNull(),
    licenseeName: text().notNull(),
    email: text().notNull(),
    internalProductName: text().notNull(),
    applicationName: text(),
    reference: text().notNull(),
    // Set when a connector activates the key (no call of the spec does it yet).
    connectorId: text(),
    connectorName: text(),
    issuedAt: timestamp({ withTimezone: true }).notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    issuedBy: uuid(),
  },
  (t) => [
    uniqueIndex('licenses_key_hash_idx').on(t.keyHash),
    index('licenses_organization_idx').on(t.organizationId, t.issuedAt),
    index('licenses_expires_idx').on(t.expiresAt),
    index('licenses_type_idx').on(t.licenseTypeId),
  ],
);
