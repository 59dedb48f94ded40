import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { auditColumns, organizations } from './organizations.ts';
import { users } from './users.ts';

// back-office-b "Client application" (issue 29 §1): an OAuth 2.0 client of the product's API.
export const clientApplications = pgTable('client_applications', {
  id: uuid().primaryKey().defaultRandom(),
  name: text().notNull(),
  logoUrl: text().notNull(),
  redirectUri: text().notNull(),
  applicationUrl: text().notNull(),
  clientId: text().notNull().unique(),
  // SHA-256 (hex) of the secret: a 256-bit random secret needs no slow hash, and the token endpoint checks it on every call.
  secretHash: text().notNull(),
  // Raised by every regeneration: tokens carry the version they were issued under and an older one is refused.
  credentialsVersion: integer().notNull().default(1),
  credentialsIssuedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  // The organization a client-credentials integration acts for (null: the application has no client-credentials grant).
  organizationId: uuid().references(() => organizations.id, { onDelete: 'set null' }),
  // The user without a password a client-credentials call acts as (audit, senders), member of organizationId as User.
  integrationUserId: uuid().references(() => users.id, { onDelete: 'set null' }),
  ...auditColumns,
});

// oidc-provider's models (codes, tokens, grants, sessions, interactions), one row per model instance.
export const oauthModels = pgTable(
  'oauth_models',
  {
    kind: text().notNull(),
    id: text().notNull(),
    payload: jsonb().$type<Record<string, unknown>>().notNull(),
    grantId: text(),
    userCode: text(),
    uid: text(),
    clientId: text(),
    expiresAt: timestamp({ withTimezone: true }),
    consumedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.kind, t.id] }),
    index('oauth_models_grant_idx').on(t.grantId),
    index('oauth_models_uid_idx').on(t.uid),
    index('oauth_models_client_idx').on(t.clientId),
    index('oauth_models_expires_idx').on(t.expiresAt),
  ],
);

// The authorization server's signing key (a private JWK), made once by the first process and shared by all.
export const oauthKeys = pgTable('oauth_keys', {
  id: text().primaryKey(),
  jwk: jsonb().$type<Record<string, unknown>>().notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
