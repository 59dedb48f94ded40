import { Stack, Text, Title } from '@mantine/core';

// The Administrator's landing page; the account dashboard issue fills it.
export function DashboardPage() {
  return (
    <Stack gap="xs">
      <Title order={1}>Dashboard</Title>
      <Text c="dimmed">Message activity for your organization will appear here.</Text>
    </Stack>
  );
}
