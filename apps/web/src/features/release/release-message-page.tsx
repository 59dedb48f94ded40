import { useState } from 'react';
import { Alert, Badge, Button, Card, Group, Loader, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { Link, useNavigate, useParams } from 'react-router';
import { releaseMessages, splitAddresses, type Message } from '@clinicrelay/contracts/messages.ts';
import { ApiError } from '../../api/client.ts';
import { ConfirmModal } from '../../components/confirm-modal.tsx';
import { errorDetails } from '../../components/error-details.ts';
import { formatDate, formatDateTime } from '../../components/format.ts';
import { useDeleteMessage, useReleaseMessage } from './api.ts';
import { AttachmentList } from './attachment-list.tsx';
import { ReferralNotice, ReleaseMessageActions } from './release-message-actions.tsx';
import { deliveryStatusColor, formatAddress } from './release-text.ts';
import { ReadOnlyField } from '../../components/read-only-field.tsx';

// Each recipient's own state, with its reason as the server words it (e.g. 'Awaiting Direct transport'
// for Direct addresses outside this installation, which stay Pending until that transport exists).
function Deliveries({ message }: { message: Message }) {
  const recipients = splitAddresses(message.toAddress);
  const rows = recipients.map((recipient) => ({
    recipient,
    delivery: message.deliveries.find((d) => d.recipient.toLowerCase() === recipient.toLowerCase()),
  }));
  for (const delivery of message.deliveries) {
    if (!rows.some((row) => row.delivery === delivery)) rows.push({ recipient: delivery.recipient, delivery });
  }
  return (
    <Table>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Recipient</Table.Th>
          <Table.Th>Status</Table.Th>
          <Table.Th>Updated</Table.Th>
          <Table.Th>Delivered</Table.Th>
          <Table.Th>Reason</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map(({ recipient, delivery }) => (
          <Table.Tr key={recipient}>
            <Table.Td>{formatAddress(recipient)}</Table.Td>
            <Table.Td style={{ whiteSpace: 'nowrap' }}>
              <Badge variant="light" color={delivery ? deliveryStatusColor[delivery.status] : 'gray'}>
                {delivery?.status ?? message.status}
              </Badge>
            </Table.Td>
            <Table.Td>{formatDateTime(delivery?.updatedAt)}</Table.Td>
            <Table.Td>{formatDateTime(delivery?.deliveredAt)}</Table.Td>
            <Table.Td>{delivery?.reason ?? ''}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function patientSummary(patient: Message['patient'], name: string | null) {
  if (!patient) return name ?? '';
  const full = [patient.firstName, patient.middleName, patient.lastName].filter(Boolean).join(' ') || name || '';
  const details = [patient.birthDate ? `born ${formatDate(patient.birthDate)}` : null, patient.gender].filter(Boolean).join(', ');
  return details ? `${full} (${details})` : full;
}

/** /release/:id: a sent message, its attachments and where each recipient's copy stands. */
export function ReleaseMessagePage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const query = useReleaseMessage(id);
  const remove = useDeleteMessage();
  const [deleteOpen, setDeleteOpen] = useState(false);

  if (query.isPending) return <Loader aria-label="Loading message" />;
  if (query.error) {
    const notFound = query.error instanceof ApiError && query.error.status === 404;
    return (
      <Stack gap="xs">
        <Title order={1}>Sent message</Title>
        <Alert color="red">{notFound ? 'This message was not found.' : errorDetails(query.error).message}</Alert>
      </Stack>
    );
  }
  const message = query.data;

  return (
    <Stack>
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Title order={1}>{message.subject || '(no subject)'}</Title>
          <Group gap="xs">
            {message.isUrgent && <Badge color="red">Urgent</Badge>}
            {message.isDraft && <Badge color="gray">Draft</Badge>}
          </Group>
        </Stack>
        <Group>
          {message.isDraft ? (
            <Button component={Link} to={`/release/draft/${message.id}`}>
              Edit draft
            </Button>
          ) : (
            <Button component={Link} to={`/release/forward/${message.id}`}>
              Forward
            </Button>
          )}
          <ReleaseMessageActions message={message} />
          <Button variant="default" color="red" onClick={() => setDeleteOpen(true)}>
            Delete
          </Button>
        </Group>
      </Group>

      <ReferralNotice message={message} />

      <Card withBorder>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <ReadOnlyField label="From" value={message.fromAddress ? formatAddress(message.fromAddress) : ''} />
          <ReadOnlyField label="To" value={splitAddresses(message.toAddress).map(formatAddress).join('; ')} />
          <ReadOnlyField label="Date" value={formatDateTime(message.messageDate ?? message.createdDate)} />
          <ReadOnlyField label="Patient" value={patientSummary(message.patient, message.patientName)} />
        </SimpleGrid>
        {message.body && (
          <Text mt="md" style={{ whiteSpace: 'pre-wrap' }}>
            {message.body}
          </Text>
        )}
      </Card>

      <Title order={2} size="h4">
        Attachments
      </Title>
      <AttachmentList messageId={message.id} attachments={message.attachments} mode="view" />

      <Title order={2} size="h4">
        Delivery
      </Title>
      <Deliveries message={message} />

      <ConfirmModal
        opened={deleteOpen}
        onClose={() => setDeleteOpen(false)}
        title="Delete message"
        message="Delete this message?"
        confirmLabel="Delete"
        danger
        successMessage={releaseMessages.messageDeleted}
        onConfirm={async () => {
          await remove.mutateAsync(message.id);
          void navigate('/release');
        }}
      />
    </Stack>
  );
}
