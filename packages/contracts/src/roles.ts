import { z } from 'zod';

export const systemRoles = ['SysAdmin', 'SysAdminReporting'] as const;
export const organizationRoles = ['Administrator', 'User'] as const;
export const roles = [...systemRoles, ...organizationRoles] as const;
export const role = z.enum(roles);
export type Role = z.infer<typeof role>;
export type SystemRole = (typeof systemRoles)[number];
export type OrganizationRole = (typeof organizationRoles)[number];

export const isSystemAdmin = (userRoles: readonly string[]): boolean =>
  userRoles.some((r) => (systemRoles as readonly string[]).includes(r));

// end-user §6: Administrator → account dashboard, system admins → messaging dashboard, others → intake.
export function defaultRouteFor(userRoles: readonly string[]): string {
  if (isSystemAdmin(userRoles)) return '/admin/dashboard/messaging';
  if (userRoles.includes('Administrator')) return '/account/dashboard';
  return '/intake';
}

// Per-resource UI actions carried in the profile's uiResources (end-user §6). The spec does not list
// resources; these are the product's areas and what each role may do in them.
export const uiResourcesByRole: Record<Role, Record<string, readonly string[]>> = {
  SysAdmin: {
    admin: ['view', 'edit'],
    networks: ['view', 'edit', 'delete'],
    organizations: ['view', 'edit', 'delete'],
    users: ['view', 'edit', 'delete'],
    reports: ['view', 'export'],
    workflows: ['view', 'retry'],
    features: ['view', 'edit'],
  },
  SysAdminReporting: {
    admin: ['view'],
    reports: ['view', 'export'],
  },
  Administrator: {
    intake: ['view', 'process', 'forward', 'reply', 'delete', 'activity'],
    release: ['view', 'send', 'delete', 'activity'],
    directory: ['view', 'invite'],
    account: ['view', 'edit'],
    users: ['view', 'edit'],
  },
  User: {
    intake: ['view', 'process', 'forward', 'reply', 'delete'],
    release: ['view', 'send', 'delete'],
    directory: ['view', 'invite'],
    account: ['view'],
  },
};

export function uiResourcesFor(userRoles: readonly Role[]): Record<string, string[]> {
  const merged: Record<string, Set<string>> = {};
  for (const r of userRoles) {
    for (const [resource, actions] of Object.entries(uiResourcesByRole[r])) {
      const set = (merged[resource] ??= new Set());
      actions.forEach((a) => set.add(a));
    }
  }
  return Object.fromEntries(Object.entries(merged).map(([k, v]) => [k, [...v]]));
}
