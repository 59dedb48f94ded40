import { Stack, Text, Title } from '@mantine/core';

export type ReleaseComposeMode = 'new' | 'draft' | 'forward' | 'forwardDraft' | 'reply' | 'replyDraft';

const titles: Record<ReleaseComposeMode, string> = {
  new: 'New message',
  draft: 'Edit draft',
  forward: 'Forward message',
  forwardDraft: 'Forward draft',
  reply: 'Reply',
  replyDraft: 'Reply draft',
};

// Placeholder until the Release issue builds the message form shared by these routes.
export function ReleaseComposePage({ mode }: { mode: ReleaseComposeMode }) {
  return (
    <Stack gap="xs">
      <Title order={1}>{titles[mode]}</Title>
      <Text c="dimmed">The message form will appear here.</Text>
    </Stack>
  );
}
