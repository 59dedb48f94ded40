import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { auditColumns, organizations } from './organizations.ts';
import { users } from './users.ts';

// Terms documents of back-office-b ("EULA / TOS"): sanitized HTML per brand and version; one active per brand and type.
export const eulas = pgTable(
  'eulas',
  {
    id: uuid().primaryKey().defaultRandom(),
    brandId: text().notNull(),
    // Numeric with decimals, max 10 characters, unique per brand (back-office-b §5).
    version: text().notNull(),
    type: text({ enum: ['EULA', 'Privacy'] }).notNull(),
    isActive: boolean().notNull().default(false),
    // Sanitized on upload: what is stored is what is shown.
    html: text().notNull(),
    fileName: text().notNull(),
    activatedAt: timestamp({ withTimezone: true }),
    ...auditColumns,
  },
  (t) => [unique('eulas_brand_version_unique').on(t.brandId, t.version)],
);

// Who accepted which terms document, when and from where (issue 14 §2).
export const eulaAcceptances = pgTable(
  'eula_acceptances',
  {
    eulaId: uuid().notNull().references(() => eulas.id, { onDelete: 'restrict' }),
    userId: uuid().notNull().references(() => users.id, { onDelete: 'cascade' }),
    organizationId: uuid().references(() => organizations.id, { onDelete: 'set null' }),
    ip: text().notNull(),
    acceptedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.eulaId, t.userId] })],
);

// One knowledge-based identity check of an organization administrator (end-user §4 "Onboarding"). The identity
// itself is not kept: only what the decision and the back office need (no SSN, no date of birth).
export const identityProofingAttempts = pgTable(
  'identity_proofing_attempts',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid().notNull().references(() => users.id, { onDelete: 'cascade' }),
    organizationId: uuid().notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    // 'sandbox' today; the vendor's name when a real one is configured.
    provider: text().notNull(),
    // The vendor's reference for the check.
    reference: text().notNull(),
    status: text({ enum: ['Questions', 'Passed', 'Failed', 'Review'] }).notNull(),
    // The open quiz: its id and the questions asked; the expected answers stay with the provider state below.
    quizId: text(),
    providerState: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    questionRounds: integer().notNull().default(0),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index('identity_proofing_attempts_user_idx').on(t.userId, t.createdAt)],
);

// A plan purchase or change through the payment provider (issue 14 §4); the sandbox behaves like a test mode.
export const subscriptionPayments = pgTable(
  'subscription_payments',
  {
    id: uuid().primaryKey().defaultRandom(),
    organizationId: uuid().notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    planId: text().notNull(),
    provider: text().notNull(),
    // The provider's order or subscription reference (GET /api/subscriptionplans/fastspring/{id}).
    reference: text().notNull().unique(),
    status: text({ enum: ['Pending', 'Completed', 'Declined'] }).notNull(),
    amountCents: integer().notNull().default(0),
    cardLast4: text(),
    declineReason: text(),
    createdBy: uuid(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index('subscription_payments_org_idx').on(t.organizationId, t.createdAt)],
);
