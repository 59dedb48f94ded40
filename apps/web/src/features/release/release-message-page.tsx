import { Stack, Text, Title } from '@mantine/core';

// Placeholder until the Release issue builds the sent-message view.
export function ReleaseMessagePage() {
  return (
    <Stack gap="xs">
      <Title order={1}>Sent message</Title>
      <Text c="dimmed">The sent message, its attachments and its delivery details will appear here.</Text>
    </Stack>
  );
}
