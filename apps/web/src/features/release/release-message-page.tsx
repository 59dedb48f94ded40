import { useState } from 'react';
import { Alert, Badge, Button, Card, Group, Loader, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { Link, useNavigate, useParams } from 'react-router';
import { releaseMessages, splitAddresses, type Message } from '@clinicrelay/contracts/messages.ts';
import { ApiError } from '../../api/client.ts';
import { usePageTitle } from '../../app/page-title.ts';
import { ConfirmModal } from '../../components/confirm-modal.tsx';
import { errorDetails } from '../../components/error-details.ts';
import { formatDate, formatDateTime } from '../../components/format.ts';
import { useDeleteMessage, useReleaseMessage } from './api.ts';
import { AttachmentList } from './attachment-list.tsx';
import { DeliveryTimeline } from './delivery-timeline.tsx';
import { ReferralNotice, ReleaseMessageActions } from './release-message-actions.tsx';
import { deliveryStatusColor, formatAddress } from './release-text.ts';

const wrap = { overflowWrap: 'anywhere' } as const;

// A label above a value that wraps anywhere: a 300-character address or name never widens the page.
function Field({ label, value }: { label: string; value: string }) {
  return (
    <div style={{ minWidth: 0 }}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text style={wrap}>{value || '—'}</Text>
    </div>
  );
}

// Each recipient's own state as the server words it: "Delivered (sandbox: no real fax was sent)" for
// a sandbox fax, why a Direct address outside this installation waits, a failure's reason; under it a
// Direct recipient's timeline over SMTP.
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
    <Table layout="fixed">
      <Table.Thead>
        <Table.Tr>
          <Table.Th w="30%">Recipient</Table.Th>
          <Table.Th>Status</Table.Th>
          <Table.Th w={180}>Updated</Table.Th>
          <Table.Th w={180}>Delivered</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map(({ recipient, delivery }) => {
          const timeline = delivery?.channel === 'Direct' && delivery.timeline.length > 0 ? delivery.timeline : null;
          return (
            <Table.Tr key={recipient} style={{ verticalAlign: 'top' }}>
              <Table.Td style={wrap}>{formatAddress(recipient)}</Table.Td>
              <Table.Td>
                <Stack gap={2} align="flex-start">
                  <Group gap={4}>
                    <Badge variant="light" color={delivery ? deliveryStatusColor[delivery.status] : 'gray'}>
                      {delivery?.status ?? message.status}
                    </Badge>
                    {delivery?.isSimulated && (
                      <Badge variant="outline" color="gray">
                        Sandbox
                      </Badge>
                    )}
                  </Group>
                  {/* A Direct timeline says it stage by stage, the failure's reason included. */}
                  {delivery && !timeline && delivery.statusDetail !== delivery.status && (
                    <Text size="sm" style={wrap}>
                      {delivery.statusDetail}
                    </Text>
                  )}
                  {timeline && <DeliveryTimeline recipient={recipient} timeline={timeline} />}
                </Stack>
              </Table.Td>
              <Table.Td>{formatDateTime(delivery?.updatedAt)}</Table.Td>
              <Table.Td>{formatDateTime(delivery?.deliveredAt)}</Table.Td>
            </Table.Tr>
          );
        })}
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
  usePageTitle(query.data ? query.data.subject || '(no subject)' : 'Sent message');
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
      {/* The actions under the title, as Intake has them: a long subject keeps the page's width. */}
      <Stack gap="xs">
        <Title order={1} style={wrap}>
          {message.subject || '(no subject)'}
        </Title>
        {(message.isUrgent || message.isDraft) && (
          <Group gap="xs">
            {message.isUrgent && <Badge color="red">Urgent</Badge>}
            {message.isDraft && <Badge color="gray">Draft</Badge>}
          </Group>
        )}
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
      </Stack>

      <ReferralNotice message={message} />

      <Card withBorder>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Field label="From" value={message.fromAddress ? formatAddress(message.fromAddress) : ''} />
          <Field label="To" value={splitAddresses(message.toAddress).map(formatAddress).join('; ')} />
          <Field label="Date" value={formatDateTime(message.messageDate ?? message.createdDate)} />
          <Field label="Patient" value={patientSummary(message.patient, message.patientName)} />
        </SimpleGrid>
        {message.body && (
          <Text mt="md" style={{ whiteSpace: 'pre-wrap', ...wrap }}>
            {message.body}
          </Text>
        )}
      </Card>

      {/* Where each recipient stands is what a sender opens this page for: before the documents' viewer. */}
      <Title order={2} size="h4">
        Delivery
      </Title>
      <Deliveries message={message} />

      <Title order={2} size="h4">
        Attachments
      </Title>
      <AttachmentList messageId={message.id} attachments={message.attachments} mode="view" />

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
