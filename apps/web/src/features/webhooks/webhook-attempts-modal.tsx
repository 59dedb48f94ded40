import { Alert, Badge, Loader, Modal, Table, Text } from '@mantine/core';
import { webhookEventNames, type WebhookSummary } from '@clinicrelay/contracts/webhooks.ts';
import { errorDetails } from '../../components/error-details.ts';
import { formatDateTime } from '../../components/format.ts';
import { useWebhook } from './api.ts';

/** A webhook's latest delivery attempts (up to 50): when, which event, and what the receiver answered. */
export function WebhookAttemptsModal({ webhook, onClose }: { webhook: WebhookSummary | null; onClose: () => void }) {
  const detail = useWebhook(webhook?.id ?? null);
  const attempts = detail.data?.attempts ?? [];
  return (
    <Modal opened={webhook !== null} onClose={onClose} title={webhook ? `Recent deliveries to ${webhook.url}` : ''} size="xl">
      {detail.isLoading && <Loader size="sm" aria-label="Loading deliveries" />}
      {detail.error && <Alert color="red">{errorDetails(detail.error).message}</Alert>}
      {detail.data && attempts.length === 0 && <Text c="dimmed">No deliveries yet.</Text>}
      {attempts.length > 0 && (
        <Table striped aria-label="Recent deliveries">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Time</Table.Th>
              <Table.Th>Event</Table.Th>
              <Table.Th>Event id</Table.Th>
              <Table.Th>Try</Table.Th>
              <Table.Th>Result</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {attempts.map((a) => {
              const ok = a.statusCode !== null && a.statusCode >= 200 && a.statusCode < 300;
              return (
                <Table.Tr key={a.id}>
                  <Table.Td>{formatDateTime(a.attemptedAt)}</Table.Td>
                  <Table.Td>{webhookEventNames[a.eventType]}</Table.Td>
                  <Table.Td>
                    <Text size="xs" ff="monospace">
                      {a.eventId}
                    </Text>
                  </Table.Td>
                  <Table.Td>{a.attempt}</Table.Td>
                  <Table.Td>
                    <Badge color={ok ? 'green' : 'red'} variant="light">
                      {a.statusCode ?? 'Not delivered'}
                    </Badge>{' '}
                    {a.error && (
                      <Text span size="sm">
                        {a.error}
                      </Text>
                    )}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      )}
    </Modal>
  );
}
