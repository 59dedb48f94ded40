import { AppShell, Box, Burger, Button, Group, Menu, NavLink, ScrollArea, Stack, Text, useMantineTheme } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { Link, Outlet, useLocation } from 'react-router';
import { useUpdatePreferences } from '../api/session.ts';
import { OnboardingDialogs } from '../features/onboarding/onboarding-dialogs.tsx';
import { TwoFactorEnrolmentModal } from '../features/security/two-factor-enrolment-modal.tsx';
import { CenteredLoader } from './centered-loader.tsx';
import { isActiveEntry, visibleNavigation } from './navigation.ts';
import { OrganizationStatusModal, organizationStatusOf } from './organization-status.tsx';
import { OrganizationSwitcher, useOrganizationSwitch } from './organization-switcher.tsx';
import { LOGOUT_PATH } from './paths.ts';
import { useSession } from './session-context.ts';

const NAVBAR_ID = 'main-navigation';

/** The signed-in frame: header, collapsible sidebar, page, footer. */
export function AppLayout() {
  const { profile, features, preferences } = useSession();
  const location = useLocation();
  const [mobileOpened, mobile] = useDisclosure(false);
  const updatePreferences = useUpdatePreferences();
  const collapsed = preferences.sidebarCollapsed;
  // A hidden sidebar is only moved off screen: inert keeps the keyboard out of links nobody can see.
  const desktop = useMediaQuery(`(min-width: ${useMantineTheme().breakpoints.sm})`);
  const sidebarHidden = desktop ? collapsed : !mobileOpened;
  const groups = visibleNavigation(profile.roles, features, undefined, profile.isNetworkAdmin);
  const switching = useOrganizationSwitch();
  const status = organizationStatusOf(profile);
  // A canceled organization's pages would only answer 403: its modal stands alone.
  const organizationBlocked = status === 'cancelled' || status === 'reactivation';
  // An administrator who must enrol in two-factor sign-in first gets only the enrolment (issue 14 §6).
  const enrolling = profile.twoFactorEnrolmentRequired && !organizationBlocked;
  const blocked = organizationBlocked || enrolling;

  return (
    <AppShell
      header={{ height: 60 }}
      footer={{ height: 40 }}
      navbar={{ width: 250, breakpoint: 'sm', collapsed: { mobile: !mobileOpened, desktop: collapsed } }}
      padding="lg"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={mobileOpened} onClick={mobile.toggle} hiddenFrom="sm" size="sm" aria-label="Toggle navigation" aria-expanded={mobileOpened} aria-controls={NAVBAR_ID} />
            {/* Always the three lines on desktop (an X reads as "close"); the state is in aria-expanded. */}
            <Burger
              opened={false}
              onClick={() => updatePreferences.mutate({ sidebarCollapsed: !collapsed })}
              visibleFrom="sm"
              size="sm"
              aria-label={collapsed ? 'Expand sidebar' : 'Collapse sidebar'}
              aria-expanded={!collapsed}
              aria-controls={NAVBAR_ID}
            />
            <Text fw={700} fz="xl" c="teal.8">
              ClinicRelay
            </Text>
            {profile.organizations.length <= 1 && profile.organizationName && (
              <Text c="dimmed" visibleFrom="xs" truncate>
                {profile.organizationName}
              </Text>
            )}
          </Group>
          <Group gap="sm" wrap="nowrap">
            {profile.organizations.length > 1 && <OrganizationSwitcher />}
            <UserMenu fullName={profile.fullName} userName={profile.userName} isSysAdmin={profile.roles.includes('SysAdmin')} />
          </Group>
        </Group>
      </AppShell.Header>

      <AppShell.Navbar id={NAVBAR_ID} p="sm" aria-label="Main navigation" inert={sidebarHidden}>
        <AppShell.Section grow component={ScrollArea}>
          <Stack gap="md">
            {groups.map((group) => (
              <Box key={group.title ?? 'main'}>
                {group.title && (
                  <Text size="xs" fw={600} tt="uppercase" c="dimmed" px="sm" mb={4}>
                    {group.title}
                  </Text>
                )}
                {group.entries.map((entry) => (
                  <NavLink
                    key={entry.path}
                    component={Link}
                    to={entry.path}
                    label={entry.label}
                    active={isActiveEntry(entry, location.pathname)}
                    onClick={mobile.close}
                  />
                ))}
              </Box>
            ))}
          </Stack>
        </AppShell.Section>
      </AppShell.Navbar>

      <AppShell.Main>
        {switching ? (
          <CenteredLoader label="Switching organization" />
        ) : (
          !blocked && (
            // Keyed by organization so switching remounts the page: the current route reloads for the new one.
            <Box key={profile.organizationId ?? 'none'}>
              <Outlet />
            </Box>
          )
        )}
        {enrolling && !switching && <TwoFactorEnrolmentModal userName={profile.userName} />}
        {status && !switching && !enrolling && <OrganizationStatusModal status={status} />}
        {/* end-user §4: the onboarding dialogs, never over an organization-status modal; per organization (a key of
            its own: siblings sharing the page's key made React render the page twice after a switch). */}
        {!status && !switching && !enrolling && <OnboardingDialogs key={`onboarding-${profile.organizationId ?? 'none'}`} />}
      </AppShell.Main>

      <AppShell.Footer>
        <Group h="100%" px="md" justify="space-between">
          <Text size="xs" c="dimmed">
            © {new Date().getFullYear()} ClinicRelay
          </Text>
          <Text size="xs" c="dimmed">
            Secure health information exchange
          </Text>
        </Group>
      </AppShell.Footer>
    </AppShell>
  );
}

function UserMenu({ fullName, userName, isSysAdmin }: { fullName: string; userName: string; isSysAdmin: boolean }) {
  return (
    <Menu position="bottom-end" withArrow>
      <Menu.Target>
        <Button variant="subtle" color="gray">
          {fullName || userName}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{userName}</Menu.Label>
        <Menu.Item component={Link} to="/settings/password">
          Change password
        </Menu.Item>
        <Menu.Item component={Link} to="/settings/security">
          Security
        </Menu.Item>
        {isSysAdmin && (
          // Served by the API itself (Swagger UI), so a plain link in a new tab rather than a route.
          <Menu.Item component="a" href="/api/docs" target="_blank" rel="noopener">
            API documentation
          </Menu.Item>
        )}
        <Menu.Item component={Link} to={LOGOUT_PATH}>
          Sign out
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
