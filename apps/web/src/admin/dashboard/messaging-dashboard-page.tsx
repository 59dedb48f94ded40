import { Anchor, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { DASHBOARD_REFRESH_MS, DASHBOARD_STATS_REFRESH_MS } from '@clinicrelay/contracts/messaging-dashboard.ts';
import { ORGANIZATION_QUEUES, organizationQueueLabels } from '@clinicrelay/contracts/organizations.ts';
import { fetchMessageCounts, fetchMessagingStats, messagingDashboardKeys } from '../../api/messaging-dashboard.ts';
import { fetchQueueCounts, organizationKeys } from '../../api/organizations.ts';
import { useProfile } from '../../api/session.ts';
import { usePageTitle } from '../../app/page-title.ts';
import { ChannelMessaging } from './channel-messaging.tsx';
import { SystemAlerts } from './system-alerts.tsx';
import { Workers } from './workers.tsx';

const STATS_HOURS = 24;

// The system admins' landing page (back-office-b §2): System Alerts, then inbound and outbound messaging per channel
// with their 24-hour charts; figures every 10 s, charts every 30 s (§9).
export function MessagingDashboardPage() {
  usePageTitle('Messaging dashboard');
  const isSysAdmin = useProfile().data?.roles.includes('SysAdmin') ?? false;
  const counts = useQuery({ queryKey: messagingDashboardKeys.counts(), queryFn: ({ signal }) => fetchMessageCounts(signal), refetchInterval: DASHBOARD_REFRESH_MS });
  const stats = useQuery({ queryKey: messagingDashboardKeys.stats(STATS_HOURS), queryFn: ({ signal }) => fetchMessagingStats(STATS_HOURS, signal), refetchInterval: DASHBOARD_STATS_REFRESH_MS });
  const loading = counts.isPending;
  const error = counts.error ?? stats.error;
  return (
    <Stack gap="lg">
      <Title order={1}>Messaging dashboard</Title>
      <SystemAlerts />
      <ChannelMessaging direction="inbound" channels={counts.data?.inboundMessages} series={stats.data?.inboundMessages} loading={loading} error={error} />
      <ChannelMessaging direction="outbound" channels={counts.data?.outboundMessages} series={stats.data?.outboundMessages} loading={loading} error={error} />
      <Workers />
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
