import type { Role } from '@clinicrelay/contracts/roles.ts';
import { hasAllFeatures, hasAnyRole } from './access.ts';

/** One sidebar entry; later issues add theirs here. Only paths that exist in the router belong here. */
export interface NavigationEntry {
  label: string;
  path: string;
  /** Shown to users with any of these roles. */
  roles: readonly Role[];
  /** Shown only when all of these feature toggles are enabled. */
  features?: readonly string[];
  /** Heading the entry is listed under; entries without one come first. */
  group?: string;
  /** Shown only to a network's administrators (profile isNetworkAdmin). */
  networkAdmin?: boolean;
}

const ORG_USERS: readonly Role[] = ['Administrator', 'User'];
const SYS_ADMIN: readonly Role[] = ['SysAdmin'];
const SYS_ADMIN_AND_REPORTING: readonly Role[] = ['SysAdmin', 'SysAdminReporting'];

export const navigation: readonly NavigationEntry[] = [
  { label: 'Dashboard', path: '/account/dashboard', roles: ['Administrator'] },
  { label: 'Intake', path: '/intake', roles: ORG_USERS },
  { label: 'Release', path: '/release', roles: ORG_USERS },
  { label: 'Network', path: '/account/network', roles: ORG_USERS, networkAdmin: true },
  { label: 'Users', path: '/settings/users', roles: ['Administrator'], group: 'Settings' },
  { label: 'Addresses and fax numbers', path: '/settings/addresses', roles: ['Administrator'], group: 'Settings' },
  { label: 'Intake rules', path: '/settings/rules', roles: ['Administrator'], group: 'Settings' },
  { label: 'Webhooks', path: '/settings/webhooks', roles: ['Administrator'], group: 'Settings' },
  { label: 'Subscription', path: '/settings/subscription', roles: ['Administrator'], group: 'Settings' },
  { label: 'Notifications', path: '/settings/notifications', roles: ORG_USERS, group: 'Settings' },
  { label: 'Downloads', path: '/downloads', roles: ORG_USERS, group: 'Resources' },

  { label: 'Messaging dashboard', path: '/admin/dashboard/messaging', roles: SYS_ADMIN_AND_REPORTING, group: 'Monitoring' },
  { label: 'Messages', path: '/admin/messages', roles: SYS_ADMIN, group: 'Monitoring' },
  { label: 'Reports', path: '/admin/reports', roles: SYS_ADMIN_AND_REPORTING, group: 'Monitoring' },
  { label: 'Generated reports', path: '/admin/generatedreports', roles: SYS_ADMIN, group: 'Monitoring' },
  { label: 'Sift metrics', path: '/admin/siftmetrics', roles: SYS_ADMIN_AND_REPORTING, group: 'Monitoring' },
  { label: 'Audits', path: '/admin/audits', roles: SYS_ADMIN, group: 'Monitoring' },
  { label: 'Secure logs', path: '/admin/securelogs', roles: SYS_ADMIN, group: 'Monitoring' },
  { label: 'API capture', path: '/admin/apicapture', roles: SYS_ADMIN, group: 'Monitoring' },

  { label: 'Networks', path: '/admin/networks', roles: SYS_ADMIN, group: 'Customers' },
  { label: 'Organizations', path: '/admin/organizations', roles: SYS_ADMIN, group: 'Customers' },
  { label: 'Users', path: '/admin/users', roles: SYS_ADMIN, group: 'Customers' },
  { label: 'Partners', path: '/admin/partners', roles: SYS_ADMIN, group: 'Customers' },
  { label: 'Resellers', path: '/admin/resellers', roles: SYS_ADMIN, group: 'Customers' },
  { label: 'Emergencies', path: '/admin/emergencies', roles: SYS_ADMIN, group: 'Customers' },
  { label: 'Specialties', path: '/admin/specialties', roles: SYS_ADMIN, group: 'Customers' },

  { label: 'Workflows', path: '/admin/workflows', roles: SYS_ADMIN, group: 'Messaging' },
  { label: 'Message routing rules', path: '/admin/messageroutingrules', roles: SYS_ADMIN, group: 'Messaging' },
  { label: 'Certificates', path: '/admin/certificates', roles: SYS_ADMIN, group: 'Messaging' },
  { label: 'Trust anchors', path: '/admin/trust-anchors', roles: SYS_ADMIN, group: 'Messaging' },
  { label: 'Directory', path: '/admin/directory', roles: SYS_ADMIN, group: 'Messaging' },
  { label: 'Directory downloads', path: '/admin/directorydownloads', roles: SYS_ADMIN, group: 'Messaging' },
  { label: 'Health referral regions', path: '/admin/healthreferralregions', roles: SYS_ADMIN, group: 'Messaging' },
  { label: 'Health service areas', path: '/admin/healthserviceareas', roles: SYS_ADMIN, group: 'Messaging' },

  { label: 'Feature toggles', path: '/admin/featureToggle', roles: SYS_ADMIN, group: 'Platform' },
  { label: 'Terms of service', path: '/admin/eulas', roles: SYS_ADMIN, group: 'Platform' },
  { label: 'Downloads', path: '/admin/downloads', roles: SYS_ADMIN, group: 'Platform' },
  { label: 'License keys', path: '/admin/licensekeys', roles: SYS_ADMIN, group: 'Platform' },
  { label: 'License types', path: '/admin/licensetypes', roles: SYS_ADMIN, group: 'Platform' },
  { label: 'Client applications', path: '/admin/clientapplications', roles: SYS_ADMIN, group: 'Platform' },
  { label: 'E-signature accounts', path: '/admin/docusign', roles: SYS_ADMIN, group: 'Platform' },
  { label: 'Batch imports', path: '/admin/batchimports', roles: SYS_ADMIN, group: 'Platform' },
  { label: 'Reserved words', path: '/admin/reservedwords', roles: SYS_ADMIN, group: 'Platform' },
  { label: 'Utilities', path: '/admin/utils', roles: SYS_ADMIN, group: 'Platform' },
];

export interface NavigationGroup {
  /** null for the ungrouped entries at the top. */
  title: string | null;
  entries: NavigationEntry[];
}

/** The entries a user may see, grouped in declaration order. */
export function visibleNavigation(
  userRoles: readonly string[],
  enabledFeatures: ReadonlySet<string>,
  entries: readonly NavigationEntry[] = navigation,
  isNetworkAdmin = false,
): NavigationGroup[] {
  const groups: NavigationGroup[] = [];
  for (const entry of entries) {
    if (!hasAnyRole(userRoles, entry.roles) || !hasAllFeatures(enabledFeatures, entry.features ?? [])) continue;
    if (entry.networkAdmin && !isNetworkAdmin) continue;
    const title = entry.group ?? null;
    let group = groups.find((candidate) => candidate.title === title);
    if (!group) {
      group = { title, entries: [] };
      if (title === null) groups.unshift(group);
      else groups.push(group);
    }
    group.entries.push(entry);
  }
  return groups;
}

/** Whether path is the entry's page or one below it (paths are case-insensitive). */
export function isActiveEntry(entry: NavigationEntry, pathname: string): boolean {
  const current = pathname.toLowerCase().replace(/\/+$/, '');
  const target = entry.path.toLowerCase();
  return current === target || current.startsWith(`${target}/`);
}
