import { Stack, Text, Title } from '@mantine/core';
import { usePageTitle } from '../../app/page-title.ts';

// The system admins' landing page; the messaging dashboard issue fills it.
export function MessagingDashboardPage() {
  usePageTitle('Messaging dashboard');
  return (
    <Stack gap="xs">
      <Title order={1}>Messaging dashboard</Title>
      <Text c="dimmed">System alerts and inbound and outbound messaging per channel will appear here.</Text>
    </Stack>
  );
}
