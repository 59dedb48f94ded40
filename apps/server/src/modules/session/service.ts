import { networkFeatureStatusOf } from '@clinicrelay/contracts/networks.ts';
import { isSystemAdmin, uiResourcesFor } from '@clinicrelay/contracts/roles.ts';
import type { CurrentUser, Profile, UserPreferences } from '@clinicrelay/contracts/session.ts';
import type { Database } from '../../db/client.ts';
import { writeAudit } from '../../platform/audit.ts';
import type { AuthContext } from '../../platform/auth/guard.ts';
import { notFound, unauthorized } from '../../platform/errors.ts';
import * as q from './queries.ts';
import { enabledFeatures } from '../feature-toggles/cache.ts';

export interface SessionDeps {
  db: Database;
  now: () => Date;
  publicUrl: string | undefined;
}

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

// The Profile of end-user §3. Values owned by later features (support chat) stay empty.
export async function getProfile(deps: SessionDeps, session: AuthContext, requestHost: string): Promise<Profile> {
  const user = await q.findProfileData(deps.db, session.userId, session.organizationId);
  if (!user) throw unauthorized();
  const { org, organizations: orgs, networkId } = user;
  const now = deps.now();
  const inGracePeriod = !!org?.gracePeriodEndsAt && org.gracePeriodEndsAt > now;
  const host = requestHost.replace(/:\d+$/, '');
  return {
    userId: user.id,
    userName: user.userName,
    fullName: `${user.firstName} ${user.lastName}`.trim(),
    organizationId: org?.id ?? null,
    organizationName: org?.name ?? null,
    organizations: orgs.map(({ id, subDomain, name }) => ({ id, subDomain, name })),
    // The installation's domain (from PUBLIC_URL) and the host this request came to.
    domain: deps.publicUrl ? new URL(deps.publicUrl).hostname : host,
    host,
    roles: session.roles,
    uiResources: uiResourcesFor(session.roles),
    administerOfNetworkObjectId: networkId,
    isNetworkAdmin: networkId !== null,
    networkFeatures: networkFeatureStatusOf(user.networkFeatureIds ?? []),
    authStrategy: org?.loginType ?? 'Password',
    isAdmin: session.roles.includes('Administrator'),
    // The brand's active EULA accepted by this user (a new version asks everyone again); without one, the organization's flag.
    orgIsAcceptedEULA: org ? (user.acceptedActiveEula ?? org.isAcceptedEula) : false,
    orgIsIdProofed: org?.isIdProofed ?? false,
    idProofedAttemptDate: iso(org?.idProofedAttemptDate),
    orgIsActivated: org?.isActivated ?? false,
    orgIsCancelled: !!org?.cancelledAt && !inGracePeriod,
    orgIsInGracePeriod: inGracePeriod,
    orgGracePeriodEndDate: iso(org?.gracePeriodEndsAt),
    subscriptionReference: org?.subscriptionReference ?? null,
    planId: org?.planId ?? null,
    orgIsPlanRestricted: org?.settings?.planRestricted === true,
    resellerBypassTos: user.resellerBypassTos ?? false,
    intercomAppId: null,
    intercomUserHash: null,
    twoFactorEnrolmentRequired: session.twoFactorEnrolmentRequired ?? false,
  };
}

export async function getCurrentUser(deps: SessionDeps, session: AuthContext): Promise<CurrentUser> {
  const user = await q.findUserById(deps.db, session.userId);
  if (!user) throw unauthorized();
  return {
    id: user.id,
    userName: user.userName,
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    phoneNumber: user.phoneNumber,
    twoFactorEnabled: user.twoFactorEnabled,
    tokenAuthEnabled: user.tokenAuthEnabled,
    organizationId: session.organizationId,
    roles: session.roles,
  };
}

// Switches the session to another of the user's organizations; any other id is not found.
export async function changeOrganization(deps: SessionDeps, session: AuthContext, orgId: string, ip: string, requestHost: string): Promise<Profile> {
  const target = (await q.findMemberships(deps.db, session.userId)).find((o) => o.id === orgId && o.isEnabled);
  if (!target) throw notFound();
  await q.updateSessionOrganization(deps.db, session.sessionId, orgId);
  await writeAudit(deps.db, {
    eventType: 'OrganizationSwitched',
    userId: session.userId,
    userName: session.userName,
    organizationId: orgId,
    ip,
    correlationId: session.sessionId,
    details: { fromOrganizationId: session.organizationId },
  });
  const roles = session.roles.filter((r) => isSystemAdmin([r]));
  return getProfile(deps, { ...session, organizationId: orgId, roles: [...roles, target.role] }, requestHost);
}

export const getFeatures = async (deps: SessionDeps, session: AuthContext) => ({
  enabled: await enabledFeatures(deps.db, session.organizationId),
});

const preferenceDefaults: UserPreferences = {
  emailNewMessages: true,
  emailUnprocessedMessages: false,
  emailSystemNotifications: true,
  emailUnassignedMessages: false,
  emailFailedMessagesDigest: false,
  sidebarCollapsed: false,
  hideActivationDelayDialog: false,
};

const pickPreferences = (row: UserPreferences): UserPreferences =>
  Object.fromEntries(Object.keys(preferenceDefaults).map((k) => [k, row[k as keyof UserPreferences]])) as UserPreferences;

export async function getPreferences(deps: SessionDeps, session: AuthContext): Promise<UserPreferences> {
  const row = await q.findPreferences(deps.db, session.userId);
  return row ? pickPreferences(row) : preferenceDefaults;
}

export async function updatePreferences(deps: SessionDeps, session: AuthContext, values: Partial<UserPreferences>): Promise<UserPreferences> {
  return pickPreferences(await q.upsertPreferences(deps.db, session.userId, values));
}
