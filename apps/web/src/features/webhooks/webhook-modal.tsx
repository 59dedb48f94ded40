import { Checkbox, Group, PasswordInput, Select, Stack, Switch, Text, TextInput } from '@mantine/core';
import type { z } from 'zod';
import { webhookBody, webhookMessages, type WebhookSaved, type WebhookSummary } from '@clinicrelay/contracts/webhooks.ts';
import { EntityModal } from '../../components/entity-modal.tsx';
import { useSaveWebhook, useWebhookAuthenticationTypes, useWebhookEvents } from './api.ts';

type Values = z.output<typeof webhookBody>;

interface WebhookModalProps {
  opened: boolean;
  onClose: () => void;
  /** The webhook to edit; null adds one. */
  webhook: WebhookSummary | null;
  /** Called with the saved webhook; a new HMAC secret is in it once. */
  onSaved: (saved: WebhookSaved) => void;
}

const blank: Values = { url: '', events: ['message.received'], authenticationType: 'HmacSha256', isEnabled: true, token: '', userName: '', password: '' };

/** Adds or edits a webhook. Stored credentials are never shown: left empty on an edit, they stay as they are. */
export function WebhookModal({ opened, onClose, webhook, onSaved }: WebhookModalProps) {
  const events = useWebhookEvents(opened);
  const authenticationTypes = useWebhookAuthenticationTypes(opened);
  const save = useSaveWebhook();
  const entity: Values = webhook
    ? { id: webhook.id, url: webhook.url, events: webhook.events, authenticationType: webhook.authenticationType, isEnabled: webhook.isEnabled, token: '', userName: '', password: '' }
    : blank;
  const editing = webhook !== null;
  return (
    <EntityModal<Values>
      opened={opened}
      onClose={onClose}
      entityName="webhook"
      size="lg"
      entity={entity}
      schema={webhookBody}
      onSubmit={async (values) => onSaved(await save.mutateAsync(values))}
      successMessage={webhookMessages.saved}
    >
      {(form) => (
        <Stack gap="sm">
          <TextInput label="URL" required maxLength={2000} placeholder="https://" data-autofocus {...form.getInputProps('url')} />
          <Checkbox.Group label="Events" required {...form.getInputProps('events')}>
            <Group mt="xs">
              {(events.data ?? []).map((event) => (
                <Checkbox key={event.value} value={event.value} label={event.name} />
              ))}
            </Group>
          </Checkbox.Group>
          <Select
            label="Authentication"
            required
            allowDeselect={false}
            data={(authenticationTypes.data ?? []).map((type) => ({ value: type.value, label: type.name }))}
            {...form.getInputProps('authenticationType')}
          />
          {form.values.authenticationType === 'HmacSha256' && (
            <Text size="sm" c="dimmed">
              {editing && webhook.authenticationType === 'HmacSha256'
                ? 'Deliveries stay signed with the secret shown when this webhook was added.'
                : 'A secret is made when you save and shown once; each delivery is signed with it.'}
            </Text>
          )}
          {form.values.authenticationType === 'Bearer' && (
            <PasswordInput
              label="Bearer token"
              required={!editing}
              maxLength={2000}
              description={editing ? 'Leave empty to keep the stored token.' : undefined}
              {...form.getInputProps('token')}
            />
          )}
          {form.values.authenticationType === 'Basic' && (
            <>
              <TextInput label="User name" required maxLength={256} {...form.getInputProps('userName')} />
              <PasswordInput
                label="Password"
                required={!editing}
                maxLength={256}
                description={editing ? 'Leave empty to keep the stored password.' : undefined}
                {...form.getInputProps('password')}
              />
            </>
          )}
          <Switch label="Enabled" {...form.getInputProps('isEnabled', { type: 'checkbox' })} />
        </Stack>
      )}
    </EntityModal>
  );
}

