import { matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { isActiveEntry, navigation, visibleNavigation } from './navigation.ts';
import { appRoutes } from './router.tsx';

const labels = (roles: string[], features: string[] = []) =>
  visibleNavigation(roles, new Set(features)).flatMap((group) => group.entries.map((entry) => entry.label));
// The entries above any heading (an organization's Settings come under their own).
const mainLabels = (roles: string[]) => visibleNavigation(roles, new Set()).filter((group) => group.title === null).flatMap((group) => group.entries.map((entry) => entry.label));

describe('sidebar navigation', () => {
  it('links only to routes the router has', () => {
    for (const entry of navigation) {
      const matches = matchRoutes(appRoutes, entry.path) ?? [];
      expect(matches.at(-1)?.route.path, entry.path).not.toBe('*');
    }
  });

  it('shows org users Intake and Release, and Administrators their dashboard too', () => {
    expect(labels(['User'])).toEqual(['Intake', 'Release', 'Notifications', 'Downloads']);
    expect(mainLabels(['Administrator'])).toEqual(['Dashboard', 'Intake', 'Release']);
  });

  it("shows Administrators their organization's settings, and Users only their own notifications", () => {
    const settings = visibleNavigation(['Administrator'], new Set()).find((g) => g.title === 'Settings');
    expect(settings?.entries.map((e) => e.label)).toEqual(expect.arrayContaining(['Addresses and fax numbers', 'Intake rules', 'Notifications']));
    expect(visibleNavigation(['User'], new Set()).find((g) => g.title === 'Settings')?.entries.map((e) => e.label)).toEqual(['Notifications']);
  });

  it("shows a network's administrators their network, and no one else", () => {
    const network = (isNetworkAdmin: boolean) => visibleNavigation(['Administrator'], new Set(), navigation, isNetworkAdmin).filter((g) => g.title === null).flatMap((g) => g.entries.map((e) => e.label));
    expect(network(true)).toEqual(['Dashboard', 'Intake', 'Release', 'Network']);
    expect(network(false)).not.toContain('Network');
  });

  it("lists the platform's downloads for an organization's users under Resources, not for system admins", () => {
    const resources = visibleNavigation(['User'], new Set()).find((g) => g.title === 'Resources');
    expect(resources?.entries.map((e) => e.path)).toEqual(['/downloads']);
    expect(visibleNavigation(['SysAdmin'], new Set()).find((g) => g.title === 'Resources')).toBeUndefined();
  });

  it('shows reporting admins only the messaging dashboard, reports and sift metrics', () => {
    expect(labels(['SysAdminReporting'])).toEqual(['Messaging dashboard', 'Reports', 'Sift metrics']);
  });

  it('shows system admins the back office and no end-user areas', () => {
    const sysAdmin = labels(['SysAdmin']);
    expect(sysAdmin).toEqual(expect.arrayContaining(['Messaging dashboard', 'Networks', 'Organizations', 'Users', 'Workflows', 'Reports', 'Feature toggles']));
    expect(sysAdmin).not.toContain('Intake');
  });

  it('hides entries whose features are not all enabled', () => {
    const entries = [{ label: 'CDA', path: '/intake', roles: ['User'] as const, features: ['IntakeCdaViewer', 'UseOptimizedIntake'] }];
    expect(visibleNavigation(['User'], new Set(['IntakeCdaViewer']), entries)).toEqual([]);
    expect(visibleNavigation(['User'], new Set(['IntakeCdaViewer', 'UseOptimizedIntake']), entries)).toHaveLength(1);
  });

  it('marks an entry active on its page and the pages below it, in any case', () => {
    const release = { label: 'Release', path: '/release', roles: ['User'] as const };
    expect(isActiveEntry(release, '/Release/new')).toBe(true);
    expect(isActiveEntry(release, '/release/')).toBe(true);
    expect(isActiveEntry(release, '/releases')).toBe(false);
  });
});
