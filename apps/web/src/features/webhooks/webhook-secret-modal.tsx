import { Alert, Button, Code, CopyButton, Group, Modal, Stack } from '@mantine/core';
import { webhookMessages } from '@clinicrelay/contracts/webhooks.ts';

/** The HMAC secret of a webhook just added: shown this once, never again. */
export function WebhookSecretModal({ secret, onClose }: { secret: string | null; onClose: () => void }) {
  return (
    <Modal opened={secret !== null} onClose={onClose} title="Signing secret" size="lg">
      <Stack>
        <Alert color="yellow">{webhookMessages.secretOnce}</Alert>
        <Code block>
          {secret}
        </Code>
        <Group justify="flex-end">
          <CopyButton value={secret ?? ''}>{({ copied, copy }) => <Button variant="light" onClick={copy}>{copied ? 'Copied' : 'Copy secret'}</Button>}</CopyButton>
          <Button onClick={onClose}>Done</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
