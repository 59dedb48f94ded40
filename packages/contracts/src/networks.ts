import { z } from 'zod';
import { pageOf, pageQuery } from './paging.ts';
import { text } from './text.ts';

// back-office-a §2 "Networks", §3, §4, §5, §7, §8.
export const networkMessages = {
  saved: 'The Network was saved successfully.',
  saveFailed: 'There was an error saving this Network.',
  deleted: 'The Network was deleted successfully.',
  deleteFailed: 'There was an error deleting this network.',
  organizationSaved: 'The organization was saved successfully.',
  organizationRemoved: 'The organization was successfully removed.',
  userSaved: 'The user was saved successfully.',
  userRemoved: 'The user was successfully removed.',
  featuresUpdated: 'Network features updated successfully.',
  chooseFromList: 'Please enter a valid value for this field.',
  // Not worded in the spec.
  nameTaken: 'A network with this name already exists, please enter a different one.',
  featureLocked: 'SSO and SCIM cannot be turned off once they are on.',
  childNeedsParent: 'A feature can be turned on only with the feature it belongs to.',
  organizationInOtherNetwork: 'This organization belongs to another network.',
  notAUser: 'Choose a user of an organization or a system administrator from the list.',
} as const;

// The network features (§3 "Known features: SSO and SCIM"); SCIM provisioning works through the SSO connection,
// so it is SSO's child. Neither can be turned off once on (§4).
export const NETWORK_FEATURES = [
  { id: 1, name: 'SSO', description: 'Single sign-on through the network’s identity provider.', locked: true, parentId: null },
  { id: 2, name: 'SCIM', description: 'User provisioning from the identity provider (SCIM 2.0).', locked: true, parentId: 1 },
] as const;

export interface NetworkFeature {
  id: number;
  name: string;
  description: string;
  childNetworkFeatures: NetworkFeature[];
}
export const networkFeature: z.ZodType<NetworkFeature> = z.lazy(() =>
  z.object({ id: z.number().int(), name: text(), description: text(), childNetworkFeatures: z.array(networkFeature) }),
);

// end-user §3 "Network feature status": in the profile, so the UI can show what the network's features allow
// (a child counts only with its parent on).
export interface NetworkFeatureStatus {
  name: string;
  isEnabled: boolean;
  childNetworkFeatures: NetworkFeatureStatus[];
}
export const networkFeatureStatus: z.ZodType<NetworkFeatureStatus> = z.lazy(() =>
  z.object({ name: text(), isEnabled: z.boolean(), childNetworkFeatures: z.array(networkFeatureStatus) }),
);
export function networkFeatureStatusOf(enabledIds: readonly number[], parentId: number | null = null, parentOn = true): NetworkFeatureStatus[] {
  return NETWORK_FEATURES.filter((f) => f.parentId === parentId).map((f) => {
    const isEnabled = parentOn && enabledIds.includes(f.id);
    return { name: f.name, isEnabled, childNetworkFeatures: networkFeatureStatusOf(enabledIds, f.id, isEnabled) };
  });
}

// PUT /api/networks/{id}/features: a network's administrators (and system administrators) turn its features on.
export const networkFeaturesUpdate = z.object({ enabledNetworkFeatureIds: z.array(z.number().int()).max(20) });
export const networkFeatureSettings = z.object({
  id: text(),
  name: text(),
  organizations: z.array(z.object({ id: text(), name: text() })),
  enabledNetworkFeatureIds: z.array(z.number().int()),
  features: z.array(networkFeature),
});
export type NetworkFeatureSettings = z.infer<typeof networkFeatureSettings>;

export const networkListItem = z.object({ id: text(), name: text(), organizationCount: z.number().int(), administratorCount: z.number().int() });
export const networkPage = pageOf(networkListItem);
export const networkQuery = pageQuery.extend({
  pageNumber: z.coerce.number().int().min(1).optional(),
  pageSize: z.coerce.number().int().min(1).max(100).optional(),
});

export const networkOrganization = z.object({ id: text(), name: text() });
export const networkAdministrator = z.object({ id: text(), fullName: text(), userName: text() });
export const network = z.object({
  id: text(),
  name: text(),
  organizations: z.array(networkOrganization),
  administrators: z.array(networkAdministrator),
  enabledNetworkFeatureIds: z.array(z.number().int()),
  identityProvider: z.object({ connectionName: text().nullable() }),
});
export type Network = z.infer<typeof network>;

export const networkName = text('Name').trim().min(1).max(255);
export const networkCreate = z.object({ name: networkName });
export const networkUpdate = z.object({
  name: networkName,
  // Absent: the features stay as they are (the edit modal sends the name only).
  enabledNetworkFeatureIds: z.array(z.number().int()).max(20).optional(),
});
export const networkOrganizationAssign = z.object({ organizationId: text().uuid() });
export const networkAdminAssign = z.object({ networkId: text().uuid().optional(), userId: text().uuid() });
export const networkAdminSearch = z.object({ search: text().trim().max(200).optional() });
export const networkIdParams = z.object({ networkId: text().uuid() });
export const networkOrganizationParams = z.object({ networkId: text().uuid(), organizationId: text().uuid() });
export const networkAdminParams = z.object({ networkId: text().uuid(), userId: text().uuid() });
