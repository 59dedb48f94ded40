import { AppShell, Box, Burger, Button, Group, Menu, NavLink, ScrollArea, Select, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { messages } from '@clinicrelay/contracts/errors.ts';
import { ApiError } from '../api/client.ts';
import { useChangeOrganization, useUpdatePreferences } from '../api/session.ts';
import { notifyError } from '../components/notify.ts';
import { isActiveEntry, visibleNavigation } from './navigation.ts';
import { LOGIN_PATH, LOGOUT_PATH } from './paths.ts';
import { storeRedirect, urlOf } from './redirect.ts';
import { useSession } from './session-context.ts';

/** The signed-in frame: header, collapsible sidebar, page, footer. */
export function AppLayout() {
  const { profile, features, preferences } = useSession();
  const location = useLocation();
  const [mobileOpened, mobile] = useDisclosure(false);
  const updatePreferences = useUpdatePreferences();
  const collapsed = preferences.sidebarCollapsed;
  const groups = visibleNavigation(profile.roles, features);

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
            <Burger opened={mobileOpened} onClick={mobile.toggle} hiddenFrom="sm" size="sm" aria-label="Toggle navigation" />
            <Burger
              opened={!collapsed}
              onClick={() => updatePreferences.mutate({ sidebarCollapsed: !collapsed })}
              visibleFrom="sm"
              size="sm"
              aria-label={collapsed ? 'Expand sidebar' : 'Collapse sidebar'}
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

      <AppShell.Navbar p="sm" aria-label="Main navigation">
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
        {/* Keyed by organization so switching remounts the page: the current route reloads for the new one. */}
        <Box key={profile.organizationId ?? 'none'}>
          <Outlet />
        </Box>
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

function OrganizationSwitcher() {
  const { profile } = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const changeOrganization = useChangeOrganization();

  return (
    <Select
      aria-label="Organization"
      data={profile.organizations.map((organization) => ({ value: organization.id, label: organization.name }))}
      value={profile.organizationId}
      allowDeselect={false}
      disabled={changeOrganization.isPending}
      w={240}
      onChange={(orgId) => {
        if (!orgId || orgId === profile.organizationId) return;
        changeOrganization.mutate(orgId, {
          onSuccess: (next) => {
            // No profile for the new organization: sign in again, then come back here.
            if (next === null) {
              storeRedirect(urlOf(location));
              void navigate(LOGIN_PATH, { replace: true });
            }
          },
          onError: (error) => {
            const authError = error instanceof ApiError && (error.status === 401 || error.status === 403);
            if (!authError) notifyError(error instanceof ApiError ? error.message : messages.serverError);
          },
        });
      }}
    />
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
