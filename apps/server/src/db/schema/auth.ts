import { boolean, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './organizations.ts';
import { users } from './users.ts';

// A signed-in session: every access token carries its id, and every request checks it is still live.
export const sessions = pgTable(
  'sessions',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid().notNull().references(() => users.id, { onDelete: 'cascade' }),
    // The organization the user is working in; switched by POST /api/account/change.
    organizationId: uuid().references(() => organizations.id, { onDelete: 'set null' }),
    ip: text().notNull(),
    userAgent: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    // Absolute end (SESSION_MAX_HOURS after sign-in).
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    // Last request (written at most once a minute); the session ends idleTimeoutMinutes after it.
    lastSeenAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    // SESSION_IDLE_MINUTES when the session began, so every reader applies the same automatic logoff.
    idleTimeoutMinutes: integer().notNull().default(30),
    revokedAt: timestamp({ withTimezone: true }),
    revokedReason: text(),
  },
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_created_idx').on(t.createdAt, t.id)],
);

// Only the SHA-256 of a refresh token is stored; each is used once (rotation).
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: uuid().primaryKey().defaultRandom(),
    sessionId: uuid().notNull().references(() => sessions.id, { onDelete: 'cascade' }),
    tokenHash: text().notNull().unique(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index('refresh_tokens_session_idx').on(t.sessionId)],
);

// Every sign-in attempt, by the normalized user name typed (known or not), so lockout cannot reveal
// which user names exist.
export const loginAttempts = pgTable(
  'login_attempts',
  {
    id: uuid().primaryKey().defaultRandom(),
    userName: text().notNull(),
    userId: uuid().references(() => users.id, { onDelete: 'set null' }),
    ip: text().notNull(),
    outcome: text({ enum: ['success', 'failure', 'lockout', 'locked', 'disabled', 'two-factor'] }).notNull(),
    succeeded: boolean().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('login_attempts_user_name_idx').on(t.userName, t.createdAt)],
);

// One-time codes sent by email (sign-in and enrolment); only a hash is kept, each is used once.
export const twoFactorCodes = pgTable(
  'two_factor_codes',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid().notNull().references(() => users.id, { onDelete: 'cascade' }),
    purpose: text({ enum: ['SignIn', 'Enable'] }).notNull(),
    codeHash: text().notNull(),
    attempts: integer().notNull().default(0),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index('two_factor_codes_user_idx').on(t.userId, t.createdAt)],
);

// Ten recovery codes per enrolment; each signs in once in place of a code.
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid().notNull().references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    usedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index('recovery_codes_user_idx').on(t.userId)],
);
