import { useState } from 'react';
import { Alert, Anchor, Badge, Center, Group, Loader, MultiSelect, SimpleGrid, Stack, Table, Tabs, Text, Title } from '@mantine/core';
import { Link, useParams, useSearchParams } from 'react-router';
import { USER_EVENTS_PAGE_SIZE, USER_REQUESTS_PAGE_SIZE, userDetailMessages as text, type OrgUserDetail } from '@clinicrelay/contracts/users.ts';
import { usePageTitle } from '../../app/page-title.ts';
import { EmptyState } from '../../components/empty-state.tsx';
import { errorDetails } from '../../components/error-details.ts';
import { formatDate, formatDateTime } from '../../components/format.ts';
import { Pager } from '../../components/pager.tsx';
import { ReadOnlyField } from '../../components/read-only-field.tsx';
import { useOrgUser, useUserEvents, useUserEventTypes, useUserRequests, type UserEventsFilter } from './api.ts';
import { ActivityTime } from '../../components/activity-time.tsx';
import { UserSecuritySection } from './user-security-section.tsx';

const TABS = ['activity', 'requests', 'security'] as const;
type Tab = (typeof TABS)[number];
const LABELS: Record<Tab, string> = { activity: 'Activity', requests: 'Requests', security: 'Security' };

/** /settings/users/{id} (issue 13 §2): one user of the organization — their activity, requests and security; the tab in the URL. */
export function UserDetailPage() {
  const { id = '' } = useParams();
  const user = useOrgUser(id);
  usePageTitle(user.data?.fullName || 'User');
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab') as Tab | null;
  const tab: Tab = requested && TABS.includes(requested) ? requested : 'activity';
  const showTab = (next: string | null) =>
    setParams(
      (previous) => {
        const p = new URLSearchParams(previous);
        p.set('tab', next ?? 'activity');
        return p;
      },
      { replace: true },
    );

  if (user.error) return <Alert color="red">{errorDetails(user.error).message}</Alert>;
  if (!user.data) return <Loader aria-label="Loading the user" />;
  return (
    <Stack>
      <Anchor component={Link} to="/settings/users" size="sm">
        ← Users
      </Anchor>
      <UserHeader user={user.data} />
      <Tabs value={tab} onChange={showTab} keepMounted={false}>
        <Tabs.List>
          {TABS.map((t) => (
            <Tabs.Tab key={t} value={t}>
              {LABELS[t]}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="activity" pt="md">
          <UserActivitySection userId={id} />
        </Tabs.Panel>
        <Tabs.Panel value="requests" pt="md">
          <UserRequestsSection userId={id} />
        </Tabs.Panel>
        <Tabs.Panel value="security" pt="md">
          <UserSecuritySection user={user.data} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

function UserHeader({ user }: { user: OrgUserDetail }) {
  return (
    <Stack gap="xs">
      <Group gap="sm">
        <Title order={1}>{user.fullName || user.userName}</Title>
        {!user.enabled && <Badge color="gray">Disabled</Badge>}
        {user.invitationStatus === 'Pending' && <Badge color="yellow">Invitation pending</Badge>}
      </Group>
      <SimpleGrid cols={{ base: 2, md: 4 }}>
        <ReadOnlyField label="Username" value={user.userName} />
        <ReadOnlyField label="Role" value={user.role} />
        <ReadOnlyField label="Job function" value={user.jobFunction ?? ''} />
        <ReadOnlyField label="Last sign-in" value={user.lastSignIn ? formatDateTime(user.lastSignIn) : 'Never'} />
      </SimpleGrid>
    </Stack>
  );
}

/** The user's own actions over the last 14 days (GET /api/users/{id}/events), newest first, filtered by type. */
function UserActivitySection({ userId }: { userId: string }) {
  const [filter, setFilter] = useState<UserEventsFilter>({ eventTypes: [], page: 1 });
  const types = useUserEventTypes(userId);
  const events = useUserEvents(userId, filter);
  const items = events.data?.items ?? [];
  const totalPages = Math.ceil((events.data?.totalCount ?? 0) / USER_EVENTS_PAGE_SIZE);
  return (
    <Stack>
      <MultiSelect
        label="Activity type"
        placeholder={filter.eventTypes.length === 0 ? 'All activity' : undefined}
        data={(types.data ?? []).map((t) => ({ value: t.eventType, label: t.name }))}
        value={filter.eventTypes}
        onChange={(eventTypes) => setFilter({ eventTypes, page: 1 })}
        clearable
        searchable
        w={280}
      />
      {events.error ? <Alert color="red">{errorDetails(events.error).message}</Alert> : null}
      {items.length > 0 && (
        <Table striped aria-label="Activity">
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={100}>When</Table.Th>
              <Table.Th>Activity</Table.Th>
              <Table.Th>IP address</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((event) => (
              <Table.Tr key={event.id}>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  <ActivityTime at={event.createdOn} />
                </Table.Td>
                <Table.Td>{event.name}</Table.Td>
                <Table.Td>{event.ipAddress ?? ''}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {events.isLoading ? (
        <Center py="lg">
          <Loader aria-label="Loading activity" />
        </Center>
      ) : (
        items.length === 0 && !events.error && <EmptyState text={filter.eventTypes.length ? undefined : text.noEvents} />
      )}
      <Pager page={filter.page} totalPages={totalPages} onChange={(page) => setFilter((previous) => ({ ...previous, page }))} />
    </Stack>
  );
}

const REQUEST_TYPES: Record<string, string> = { Invitation: 'Invitation', DirectAddress: 'Direct address', FaxNumber: 'Fax number', Reactivation: 'Reactivation' };

/** What the user asked for and its state (GET /api/users/{id}/requests). */
function UserRequestsSection({ userId }: { userId: string }) {
  const [page, setPage] = useState(1);
  const requests = useUserRequests(userId, page);
  const items = requests.data?.items ?? [];
  const totalPages = Math.ceil((requests.data?.totalCount ?? 0) / USER_REQUESTS_PAGE_SIZE);
  if (requests.error) return <Alert color="red">{errorDetails(requests.error).message}</Alert>;
  if (requests.isLoading) return <Loader aria-label="Loading requests" />;
  if (items.length === 0) return <EmptyState text={text.noRequests} />;
  return (
    <Stack>
      <Table striped aria-label="Requests">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={120}>Requested</Table.Th>
            <Table.Th w={140}>Type</Table.Th>
            <Table.Th>Request</Table.Th>
            <Table.Th w={140}>Status</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((request) => (
            <Table.Tr key={request.id}>
              <Table.Td title={formatDateTime(request.requestedOn)}>{formatDate(request.requestedOn)}</Table.Td>
              <Table.Td>{REQUEST_TYPES[request.type] ?? request.type}</Table.Td>
              <Table.Td>
                <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {request.description}
                </Text>
              </Table.Td>
              <Table.Td>{request.status}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Pager page={page} totalPages={totalPages} onChange={setPage} />
    </Stack>
  );
}
