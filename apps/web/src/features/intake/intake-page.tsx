import { Stack, Text, Title } from '@mantine/core';

// Placeholder until the Intake issue builds the inbox.
export function IntakePage() {
  return (
    <Stack gap="xs">
      <Title order={1}>Intake</Title>
      <Text c="dimmed">Received messages will appear here.</Text>
    </Stack>
  );
}
