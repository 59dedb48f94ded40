import { bigint, boolean, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { auditColumns, organizations } from './organizations.ts';

// The User entity of back-office-a §3 (password fields are the hash; roles live in memberships).
export const users = pgTable('users', {
  id: uuid().primaryKey().defaultRandom(),
  // Stored lower-case: sign-in is case-insensitive on the user name.
  userName: text().notNull().unique(),
  email: text().notNull(),
  firstName: text().notNull(),
  lastName: text().notNull(),
  phoneNumber: text(),
  passwordHash: text(),
  isDisabled: boolean().notNull().default(false),
  disabledDateTime: timestamp({ withTimezone: true }),
  idProofStatus: text(),
  idProofed: boolean().notNull().default(false),
  idProofFileName: text(),
  // The uploaded identification's blob (blob store); idProofFileName is the name it was uploaded under.
  idProofBlobId: uuid(),
  twoFactorEnabled: boolean().notNull().default(false),
  // Base32 TOTP secret of the authenticator app (sealed at rest); tokenAuthEnabled says it is the method in use.
  twoFactorSecret: text(),
  // An enrolment not yet confirmed with a code: it becomes twoFactorSecret when the first code matches.
  twoFactorPendingSecret: text(),
  // The last TOTP time step accepted at sign-in: a code of that step or an earlier one is never taken again.
  lastTotpStep: bigint({ mode: 'number' }),
  tokenAuthEnabled: boolean().notNull().default(false),
  lockoutEnabled: boolean().notNull().default(true),
  // Null only for a self-registered account until the verification mail's link is opened; sign-in waits for it.
  // Accounts someone else makes (administrators, the seed) are confirmed when made.
  emailConfirmedAt: timestamp({ withTimezone: true }).defaultNow(),
  passwordChangedAt: timestamp({ withTimezone: true }),
  defaultOrganizationId: uuid().references(() => organizations.id, { onDelete: 'set null' }),
  ...auditColumns,
});

export const jobFunctions = pgTable('job_functions', {
  id: integer().primaryKey(),
  name: text().notNull().unique(),
});

export const memberships = pgTable(
  'memberships',
  {
    userId: uuid().notNull().references(() => users.id, { onDelete: 'cascade' }),
    organizationId: uuid().notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    role: text({ enum: ['Administrator', 'User'] }).notNull(),
    primaryJobFunctionId: integer().references(() => jobFunctions.id),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.organizationId] })],
);

export const userSystemRoles = pgTable(
  'user_system_roles',
  {
    userId: uuid().notNull().references(() => users.id, { onDelete: 'cascade' }),
    role: text({ enum: ['SysAdmin', 'SysAdminReporting'] }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.role] })],
);

export const userPreferences = pgTable('user_preferences', {
  userId: uuid().primaryKey().references(() => users.id, { onDelete: 'cascade' }),
  emailNewMessages: boolean().notNull().default(true),
  emailUnprocessedMessages: boolean().notNull().default(false),
  emailSystemNotifications: boolean().notNull().default(true),
  emailUnassignedMessages: boolean().notNull().default(false),
  emailFailedMessagesDigest: boolean().notNull().default(false),
  sidebarCollapsed: boolean().notNull().default(false),
  hideActivationDelayDialog: boolean().notNull().default(false),
  modifiedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
