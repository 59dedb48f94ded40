import { integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './organizations.ts';
import { users } from './users.ts';

export const networks = pgTable('networks', {
  id: uuid().primaryKey().defaultRandom(),
  name: text().notNull().unique(),
  identityProviderConnectionName: text(),
  enabledNetworkFeatureIds: integer().array().notNull().default([]),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

export const networkOrganizations = pgTable(
  'network_organizations',
  {
    networkId: uuid().notNull().references(() => networks.id, { onDelete: 'cascade' }),
    // An organization belongs to at most one network.
    organizationId: uuid().notNull().unique().references(() => organizations.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.networkId, t.organizationId] })],
);

export const networkAdministrators = pgTable(
  'network_administrators',
  {
    networkId: uuid().notNull().references(() => networks.id, { onDelete: 'cascade' }),
    userId: uuid().notNull().references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.networkId, t.userId] })],
);
