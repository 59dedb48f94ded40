import { z } from 'zod';
import { networkFeatureStatus } from './networks.ts';
import { role } from './roles.ts';
import { text } from './text.ts';

// Profile (session) of end-user §3, returned by GET /api/users/profiledata and POST /api/account/change.
export const profile = z.object({
  userId: text(),
  userName: text(),
  fullName: text(),
  organizationId: text().nullable(),
  organizationName: text().nullable(),
  organizations: z.array(z.object({ id: text(), subDomain: text(), name: text() })),
  domain: text(),
  host: text(),
  roles: z.array(role),
  uiResources: z.record(text(), z.array(text())),
  administerOfNetworkObjectId: text().nullable(),
  isNetworkAdmin: z.boolean(),
  networkFeatures: z.array(networkFeatureStatus),
  authStrategy: text(),
  isAdmin: z.boolean(),
  orgIsAcceptedEULA: z.boolean(),
  orgIsIdProofed: z.boolean(),
  idProofedAttemptDate: text().nullable(),
  orgIsActivated: z.boolean(),
  orgIsCancelled: z.boolean(),
  orgIsInGracePeriod: z.boolean(),
  // End of the grace period, so the grace-period modal can show the final date.
  orgGracePeriodEndDate: text().nullable(),
  subscriptionReference: text().nullable(),
  // Not in the spec (issue 14 §4): the current organization's plan, for the Stay Connected upgrade prompt (§6), and
  // whether it may send only to fax or phone numbers or addresses hosted here (§5 "Release send"). Optional for old clients.
  planId: text().nullish(),
  orgIsPlanRestricted: z.boolean().optional(),
  resellerBypassTos: z.boolean(),
  intercomAppId: text().nullable(),
  intercomUserHash: text().nullable(),
  // Issue 14 §6: an administrator without two-factor while REQUIRE_ADMIN_TWO_FACTOR is on; only enrolment answers.
  twoFactorEnrolmentRequired: z.boolean(),
});
export type Profile = z.infer<typeof profile>;

// GET /api/users/current: response shape not shown; the signed-in user's own record.
export const currentUser = z.object({
  id: text(),
  userName: text(),
  firstName: text(),
  lastName: text(),
  email: text(),
  phoneNumber: text().nullable(),
  twoFactorEnabled: z.boolean(),
  // The two-factor method is the authenticator app (else codes by email), issue 14 §6.
  tokenAuthEnabled: z.boolean(),
  organizationId: text().nullable(),
  roles: z.array(role),
});
export type CurrentUser = z.infer<typeof currentUser>;

// GET /api/users/ipaddress: response shape not shown; the caller's address as the server sees it.
export const ipAddressResponse = z.object({ ipAddress: text() });

export const changeOrganizationRequest = z.object({ orgId: text().uuid().max(64) });

// Not shown in the spec: the abstract state's "features" and "user preferences" loads.
export const featureNames = [
  'PatientExtractionAPI',
  'IntakeCdaViewer',
  'AutomatedCarePlans',
  'WestFaxInterface',
  'UseOptimizedIntake',
  // Back office: the organizations list's API column and API capture action (back-office-a §2).
  'apiCaptureEnabled',
] as const;
export const featuresResponse = z.object({ enabled: z.array(text()) });
export type FeaturesResponse = z.infer<typeof featuresResponse>;

export const userPreferences = z.object({
  emailNewMessages: z.boolean(),
  emailUnprocessedMessages: z.boolean(),
  emailSystemNotifications: z.boolean(),
  emailUnassignedMessages: z.boolean(),
  emailFailedMessagesDigest: z.boolean(),
  sidebarCollapsed: z.boolean(),
  hideActivationDelayDialog: z.boolean(),
});
export type UserPreferences = z.infer<typeof userPreferences>;
export const userPreferencesUpdate = userPreferences.partial();
