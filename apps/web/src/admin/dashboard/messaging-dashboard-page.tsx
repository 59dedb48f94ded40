import { Anchor, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ORGANIZATION_QUEUES, organizationQueueLabels } from '@clinicrelay/contracts/organizations.ts';
import { fetchQueueCounts, organizationKeys } from '../../api/organizations.ts';
import { useProfile } from '../../api/session.ts';
import { usePageTitle } from '../../app/page-title.ts';

// The system admins' landing page; the messaging dashboard issue fills the messaging part.
export function MessagingDashboardPage() {
  usePageTitle('Messaging dashboard');
  const isSysAdmin = useProfile().data?.roles.includes('SysAdmin') ?? false;
  return (
    <Stack gap="lg">
      <Stack gap="xs">
        <Title order={1}>Messaging dashboard</Title>
        <Text c="dimmed">System alerts and inbound and outbound messaging per channel will appear here.</Text>
      </Stack>
      {/* SysAdminReporting sees the dashboard but not the organizations (back-office-a §6). */}
      {isSysAdmin && <OrganizationQueues />}
    </Stack>
  );
}

// Issue 26 §3b: the clinics waiting for an operator, each count linking to the filtered organizations list.
function OrganizationQueues() {
  const counts = useQuery({ queryKey: organizationKeys.queues(), queryFn: ({ signal }) => fetchQueueCounts(signal), refetchInterval: 30_000 });
  return (
    <Stack gap="xs" component="section" aria-labelledby="organization-queues">
      <Title order={2} size="h3" id="organization-queues">
        Organizations waiting
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2 }} maw={640}>
        {ORGANIZATION_QUEUES.map((queue) => (
          <Card key={queue} withBorder padding="md" data-queue={queue}>
            <Group justify="space-between" align="baseline">
              <Anchor component={Link} to={`/admin/organizations?status=${queue}`} fw={500}>
                {organizationQueueLabels[queue]}
              </Anchor>
              <Text size="xl" fw={700}>
                {counts.data ? counts.data[queue] : counts.isError ? '—' : '…'}
              </Text>
            </Group>
          </Card>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
