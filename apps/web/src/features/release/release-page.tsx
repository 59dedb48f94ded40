import { Stack, Text, Title } from '@mantine/core';

// Placeholder until the Release issue builds the sent-message list.
export function ReleasePage() {
  return (
    <Stack gap="xs">
      <Title order={1}>Release</Title>
      <Text c="dimmed">Sent messages will appear here.</Text>
    </Stack>
  );
}
