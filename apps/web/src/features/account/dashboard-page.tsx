import { Stack, Text, Title } from '@mantine/core';
import { usePageTitle } from '../../app/page-title.ts';

// The Administrator's landing page; the account dashboard issue fills it.
export function DashboardPage() {
  usePageTitle('Dashboard');
  return (
    <Stack gap="xs">
      <Title order={1}>Dashboard</Title>
      <Text c="dimmed">Message activity for your organization will appear here.</Text>
    </Stack>
  );
}
