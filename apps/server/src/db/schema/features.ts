import { sql } from 'drizzle-orm';
import { boolean, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { auditColumns, organizations } from './organizations.ts';

// back-office-b §3 Feature: createDate/createdBy/modifiedBy/modifiedDate are the audit columns. A change to this table
// or organization_features notifies every server process (migration 0037: trigger on channel feature_toggles_changed).
export const featureToggles = pgTable(
  'feature_toggles',
  {
    id: uuid().primaryKey().defaultRandom(),
    name: text().notNull().unique(),
    description: text().notNull().default(''),
    isEnabled: boolean().notNull().default(false),
    // Whether an organization's own setting (organization_features) applies; otherwise only the global one does.
    isOrganizationFeature: boolean().notNull().default(false),
    ...auditColumns,
  },
  (t) => [uniqueIndex('feature_toggles_name_lower_idx').on(sql`lower(${t.name})`)],
);

// A per-organization setting overrides the global one (for an organization feature).
export const organizationFeatures = pgTable(
  'organization_features',
  {
    featureId: uuid().notNull().references(() => featureToggles.id, { onDelete: 'cascade' }),
    organizationId: uuid().notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    isEnabled: boolean().notNull(),
  },
  (t) => [primaryKey({ columns: [t.featureId, t.organizationId] })],
);
