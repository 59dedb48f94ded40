import { Stack, Text, Title } from '@mantine/core';

// The system admins' landing page; the messaging dashboard issue fills it.
export function MessagingDashboardPage() {
  return (
    <Stack gap="xs">
      <Title order={1}>Messaging dashboard</Title>
      <Text c="dimmed">System alerts and inbound and outbound messaging per channel will appear here.</Text>
    </Stack>
  );
}
