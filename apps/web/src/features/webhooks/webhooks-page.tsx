import { useState } from 'react';
import { Badge, Button, Group, Text, Tooltip } from '@mantine/core';
import { webhookAuthenticationNames, webhookEventNames, webhookMessages, webhookPausedNote, type WebhookSummary } from '@clinicrelay/contracts/webhooks.ts';
import { usePageTitle } from '../../app/page-title.ts';
import { ConfirmModal } from '../../components/confirm-modal.tsx';
import { formatDateTime } from '../../components/format.ts';
import { ListPage, type ListColumn } from '../../components/list-page.tsx';
import { useListState } from '../../components/list-state.ts';
import { useDeleteWebhook, useWebhooks } from './api.ts';
import { WebhookAttemptsModal } from './webhook-attempts-modal.tsx';
import { WebhookModal } from './webhook-modal.tsx';
import { WebhookSecretModal } from './webhook-secret-modal.tsx';

const STATUS_COLORS = { Pending: 'yellow', Delivered: 'green', Failed: 'red', Skipped: 'gray' } as const;

/**
 * /settings/webhooks (issue 13 §6): where the organization's other systems are told that messages arrive. The list is
 * short (the server answers it whole), so search and paging happen here; the page's state is in the URL as elsewhere.
 */
export function WebhooksPage() {
  usePageTitle('Webhooks');
  const [state, setState] = useListState();
  const query = useWebhooks();
  const remove = useDeleteWebhook();
  const [editing, setEditing] = useState<WebhookSummary | null | undefined>(undefined);
  const [removing, setRemoving] = useState<WebhookSummary | null>(null);
  const [showingAttempts, setShowingAttempts] = useState<WebhookSummary | null>(null);
  const [secret, setSecret] = useState<string | null>(null);

  const search = state.search.trim().toLowerCase();
  const matching = (query.data ?? []).filter((row) => !search || row.url.toLowerCase().includes(search));
  const ordered = state.sortDir === 'desc' ? [...matching].reverse() : matching;
  const page = ordered.slice((state.page - 1) * state.pageSize, state.page * state.pageSize);

  const columns: ListColumn<WebhookSummary>[] = [
    { key: 'url', header: 'URL', render: (row) => <Text size="sm" style={{ wordBreak: 'break-all' }}>{row.url}</Text> },
    { key: 'events', header: 'Events', render: (row) => row.events.map((event) => webhookEventNames[event]).join(', ') },
    { key: 'authenticationType', header: 'Authentication', render: (row) => webhookAuthenticationNames[row.authenticationType] },
    {
      key: 'isEnabled',
      header: 'Enabled',
      width: 110,
      render: (row) =>
        row.isEnabled && row.pausedUntil && new Date(row.pausedUntil) > new Date() ? (
          // The circuit is open after failed tries in a row (issue 26): deliveries wait, then one is tried.
          <Tooltip label={webhookPausedNote(formatDateTime(row.pausedUntil))}>
            <Badge color="orange" variant="light">
              Paused
            </Badge>
          </Tooltip>
        ) : row.isEnabled ? (
          <Badge color="green" variant="light">
            Enabled
          </Badge>
        ) : (
          <Tooltip label={row.disabledReason ?? 'Disabled by an Administrator.'}>
            <Badge color="gray" variant="light">
              Disabled
            </Badge>
          </Tooltip>
        ),
    },
    {
      key: 'lastDelivery',
      header: 'Last delivery',
      width: 200,
      render: (row) =>
        row.lastDeliveryStatus ? (
          <Group gap={6}>
            <Badge color={STATUS_COLORS[row.lastDeliveryStatus]} variant="light">
              {row.lastDeliveryStatus}
            </Badge>
            <Text size="sm">{formatDateTime(row.lastDeliveryAt)}</Text>
          </Group>
        ) : (
          <Text size="sm" c="dimmed">
            None yet
          </Text>
        ),
    },
    {
      key: 'actions',
      header: 'Actions',
      width: 210,
      render: (row) => (
        <Group gap={4} wrap="nowrap">
          <Button size="compact-xs" variant="subtle" aria-label={`Edit ${row.url}`} onClick={() => setEditing(row)}>
            Edit
          </Button>
          <Button size="compact-xs" variant="subtle" aria-label={`Deliveries to ${row.url}`} onClick={() => setShowingAttempts(row)}>
            Deliveries
          </Button>
          <Button size="compact-xs" variant="subtle" color="red" aria-label={`Delete ${row.url}`} onClick={() => setRemoving(row)}>
            Delete
          </Button>
        </Group>
      ),
    },
  ];

  return (
    <>
      <ListPage
        title="Webhooks"
        columns={columns}
        query={{ items: query.data ? page : undefined, totalCount: query.data ? matching.length : undefined, isLoading: query.isLoading, error: query.error }}
        state={state}
        onStateChange={setState}
        emptyText={webhookMessages.empty}
        actions={<Button onClick={() => setEditing(null)}>Add webhook</Button>}
      />
      <WebhookModal
        opened={editing !== undefined}
        onClose={() => setEditing(undefined)}
        webhook={editing ?? null}
        onSaved={(saved) => {
          if (saved.secret) setSecret(saved.secret);
        }}
      />
      <WebhookSecretModal secret={secret} onClose={() => setSecret(null)} />
      <WebhookAttemptsModal webhook={showingAttempts} onClose={() => setShowingAttempts(null)} />
      <ConfirmModal
        opened={removing !== null}
        onClose={() => setRemoving(null)}
        title="Delete webhook"
        message={removing ? `Delete the webhook to ${removing.url}? It will receive no more events.` : ''}
        confirmLabel="Delete"
        danger
        onConfirm={() => removing && remove.mutateAsync(removing.id)}
        successMessage={webhookMessages.deleted}
      />
    </>
  );
}
