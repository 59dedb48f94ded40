import { pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

// E-signature connector accounts (/admin/docusign, issue 29 §7): an account of the e-signature provider the platform
// signed in to; the provider's tokens are sealed (platform/sealed-text.ts), never shown.
export const esignatureAccounts = pgTable(
  'esignature_accounts',
  {
    id: uuid().primaryKey().defaultRandom(),
    provider: text().notNull(),
    type: text().notNull(),
    externalAccountId: text().notNull(),
    accountName: text().notNull(),
    email: text().notNull(),
    accessTokenSealed: text().notNull(),
    createdBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique('esignature_accounts_provider_account_key').on(t.provider, t.externalAccountId)],
);
