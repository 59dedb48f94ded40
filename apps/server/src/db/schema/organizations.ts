import { boolean, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

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
  // Plan restriction (back-office settings tab): the organization is held to its plan's limits.
  planRestricted?: boolean;
  // Issue 13 §5: when the daily reminders and digests go out, as HH:MM in an IANA time zone (modules/notifications).
  dailyNotificationTime?: string;
  dailyNotificationTimeZone?: string;
}

// The Organization entity of back-office-a §3. References to brands, types, specialties, plans, resellers and HISPs
// are plain columns checked by the service (their tables import this one).
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
  // back-office-a §3 "affiliate and licensing reseller": an Affiliate (type 0) refers the organization; a Licensing
  // one (type 1) licenses its plan, and removing it resets the plan to the free one (§4).
  affiliateResellerId: uuid(),
  licensingResellerId: uuid(),
  brandId: text(),
  settings: jsonb().$type<OrganizationSettingsColumn>().notNull().default({}),
  // The number shown as "Id" in the back office (orgId); the uuid stays the key every call uses.
  orgId: integer().generatedByDefaultAsIdentity().notNull().unique(),
  organizationTypeId: integer(),
  organizationSpecialtyId: integer(),
  tierCode: text(),
  allowedPurposeOfUseCodes: text().array().notNull().default([]),
  organizationNpi: text(),
  organizationEmr: text(),
  hispProviderId: integer(),
  addressStreet: text(),
  addressUnit: text(),
  addressCity: text(),
  addressState: text(),
  addressZip: text(),
  addressCountry: text().notNull().default('US'),
  primaryPhone: text(),
  primaryFax: text(),
  phone: text(),
  primaryContactFirstName: text(),
  primaryContactLastName: text(),
  primaryContactEmail: text(),
  primaryContactTitle: text(),
  primaryContactNpi: text(),
  homeCommunityId: text(),
  preferredGroupName: text(),
  apiCapture: boolean().notNull().default(false),
  // How many service accounts the organization may have.
  serviceAccountLimit: integer().notNull().default(1),
  ...audit,
});
