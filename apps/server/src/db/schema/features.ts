import { boolean, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './organizations.ts';

export const featureToggles = pgTable('feature_toggles', {
  id: uuid().primaryKey().defaultRandom(),
  name: text().notNull().unique(),
  description: text().notNull().default(''),
  isEnabled: boolean().notNull().default(false),
});

// A per-organization setting overrides the global one.
export const organizationFeatures = pgTable(
  'organization_features',
  {
    featureId: uuid().notNull().references(() => featureToggles.id, { onDelete: 'cascade' }),
    organizationId: uuid().notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    isEnabled: boolean().notNull(),
  },
  (t) => [primaryKey({ columns: [t.featureId, t.organizationId] })],
);
