import { z } from 'zod';
import { role } from './roles.ts';

// Profile (session) of end-user §3, returned by GET /api/users/profiledata and POST /api/account/change.
export const profile = z.object({
  userId: z.string(),
  userName: z.string(),
  fullName: z.string(),
  organizationId: z.string().nullable(),
  organizationName: z.string().nullable(),
  organizations: z.array(z.object({ id: z.string(), subDomain: z.string(), name: z.string() })),
  domain: z.string(),
  host: z.string(),
  roles: z.array(role),
  uiResources: z.record(z.string(), z.array(z.string())),
  administerOfNetworkObjectId: z.string().nullable(),
  isNetworkAdmin: z.boolean(),
  authStrategy: z.string(),
  isAdmin: z.boolean(),
  orgIsAcceptedEULA: z.boolean(),
  orgIsIdProofed: z.boolean(),
  idProofedAttemptDate: z.string().nullable(),
  orgIsActivated: z.boolean(),
  orgIsCancelled: z.boolean(),
  orgIsInGracePeriod: z.boolean(),
  // End of the grace period, so the grace-period modal can show the final date.
  orgGracePeriodEndDate: z.string().nullable(),
  subscriptionReference: z.string().nullable(),
  resellerBypassTos: z.boolean(),
  intercomAppId: z.string().nullable(),
  intercomUserHash: z.string().nullable(),
});
export type Profile = z.infer<typeof profile>;

// GET /api/users/current: response shape not shown; the signed-in user's own record.
export const currentUser = z.object({
  id: z.string(),
  userName: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phoneNumber: z.string().nullable(),
  twoFactorEnabled: z.boolean(),
  organizationId: z.string().nullable(),
  roles: z.array(role),
});
export type CurrentUser = z.infer<typeof currentUser>;

// GET /api/users/ipaddress: response shape not shown; the caller's address as the server sees it.
export const ipAddressResponse = z.object({ ipAddress: z.string() });

export const changeOrganizationRequest = z.object({ orgId: z.string().uuid().max(64) });

// Not shown in the spec: the abstract state's "features" and "user preferences" loads.
export const featureNames = [
  'PatientExtractionAPI',
  'IntakeCdaViewer',
  'AutomatedCarePlans',
  'WestFaxInterface',
  'UseOptimizedIntake',
] as const;
export const featuresResponse = z.object({ enabled: z.array(z.string()) });
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
