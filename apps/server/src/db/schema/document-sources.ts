import { boolean, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './organizations.ts';

// An organization's From addresses (end-user §3 "Document source"): Direct addresses and fax numbers.
// status: 0 Provisioning, 1 Activated, 2 Pending Update, 3 Pending Deletion, 4 Deleted, 5 Failed.
// The Release issue adds what sending needs.
export const documentSources = pgTable(
  'document_sources',
  {
    id: uuid().primaryKey().defaultRandom(),
    organizationId: uuid().notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    type: text({ enum: ['Direct', 'Fax'] }).notNull(),
    // Direct addresses lower-case; fax numbers digits only.
    fullAddress: text().notNull().unique(),
    status: integer().notNull().default(0),
    // Every active user of the organization, present and future, may send from it (receiving is the intake rules').
    isGlobal: boolean().notNull().default(false),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('document_sources_org_idx').on(t.organizationId)],
);
