import { sql } from 'drizzle-orm';
import { integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './organizations.ts';
import { users } from './users.ts';

export const networks = pgTable(
  'networks',
  {
    id: uuid().primaryKey().defaultRandom(),
    name: text().notNull(),
    identityProviderConnectionName: text(),
    enabledNetworkFeatureIds: integer().array().notNull().default([]),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  // Names are unique whatever their case (issue 26 §3b): "North" and "north" are one network.
  (t) => [uniqueIndex('networks_name_lower_key').on(sql`lower(${t.name})`)],
);

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
