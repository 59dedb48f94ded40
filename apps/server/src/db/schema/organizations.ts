import { boolean, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

const audit = {
  createdBy: uuid(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  modifiedBy: uuid(),
  modifiedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
};
export { audit as auditColumns };

// Settings the back office edits and Release and Intake read (fax suppress settings, interoperability).
export interface OrganizationSettingsColumn {
  suppressCoverPage?: boolean;
  suppressMessageBody?: boolean;
  suppressAttachmentDescriptions?: boolean;
  deliverySummaryEnableDownload?: boolean;
  exportMode?: 'Print' | 'Export';
  exportOption?: 'PatientFolder' | 'SingleFolder' | null;
  exportDirectoryType?: string | null;
  exportVisitDirectory?: boolean;
  nonPatientExport?: boolean;
}

// The Organization fields of back-office-a §3 that sessions need; the back-office issue adds the rest.
export const organizations = pgTable('organizations', {
  id: uuid().primaryKey().defaultRandom(),
  name: text().notNull(),
  subdomain: text().notNull().unique(),
  isActivated: boolean().notNull().default(false),
  // Login ability: false stops every member of the organization from signing in.
  isEnabled: boolean().notNull().default(true),
  loginType: text().notNull().default('Password'),
  isPendingCancellation: boolean().notNull().default(false),
  cancelledAt: timestamp({ withTimezone: true }),
  gracePeriodEndsAt: timestamp({ withTimezone: true }),
  isAcceptedEula: boolean().notNull().default(false),
  eulaAcceptedAt: timestamp({ withTimezone: true }),
  isIdProofed: boolean().notNull().default(false),
  idProofedAttemptDate: timestamp({ withTimezone: true }),
  subscriptionReference: text(),
  planId: text(),
  resellerId: uuid(),
  brandId: text(),
  settings: jsonb().$type<OrganizationSettingsColumn>().notNull().default({}),
  ...audit,
});
