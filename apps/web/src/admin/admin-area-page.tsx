import { Stack, Text, Title } from '@mantine/core';
import { usePageTitle } from '../app/page-title.ts';

interface AdminAreaPageProps {
  title: string;
  /** What the finished screen will hold. */
  summary: string;
}

// Stands in for a back-office screen until its issue is built; shows no data by design.
export function AdminAreaPage({ title, summary }: AdminAreaPageProps) {
  usePageTitle(title);
  return (
    <Stack gap="xs">
      <Title order={1}>{title}</Title>
      <Text c="dimmed">{summary}</Text>
    </Stack>
  );
}
