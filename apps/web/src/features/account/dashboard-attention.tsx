import { useState } from 'react';
import { Anchor, Button, Group, List, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { Link } from 'react-router';
import { ConfirmModal } from '../../components/confirm-modal.tsx';
import { errorDetails } from '../../components/error-details.ts';
import { formatDate, formatDateTime } from '../../components/format.ts';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { useAcknowledgeAllFailed, useAcknowledgeFailed, useFailedMessages, useNeverSignedIn, useStatistics } from './dashboard-api.ts';
import { DashboardSection } from './dashboard-section.tsx';

export const attentionTexts = {
  title: 'What needs attention',
  failedTitle: 'Failed messages',
  failedEmpty: 'No failed messages to acknowledge.',
  acknowledge: 'Acknowledge',
  acknowledgeAll: 'Acknowledge all',
  acknowledgeAllTitle: 'Acknowledge all failed messages',
  acknowledgeAllMessage: (n: number) => `Acknowledge ${n === 1 ? 'the failed message' : `all ${n} failed messages`}? They will no longer be listed here.`,
  acknowledged: 'The failed message has been acknowledged.',
  allAcknowledged: (n: number) => (n === 1 ? '1 failed message has been acknowledged.' : `${n} failed messages have been acknowledged.`),
  unassignedTitle: 'Unassigned messages',
  unassigned: (n: number) => (n === 1 ? '1 message received in the last 30 days is not assigned to anyone.' : `${n} messages received in the last 30 days are not assigned to anyone.`),
  unassignedEmpty: 'Every message received in the last 30 days is assigned.',
  openIntake: 'Open Intake',
  neverSignedInTitle: 'Users who never signed in',
  neverSignedInEmpty: 'Every user of the organization has signed in.',
  added: (date: string) => `added ${date}`,
  more: (n: number) => `and ${n} more`,
  noSubject: '(no subject)',
} as const;

// Intake's own URL for its Unassigned filter (intake-filter-state.ts).
export const UNASSIGNED_INTAKE_PATH = '/intake?assign=unassigned';

/** Failed messages to acknowledge, unassigned messages, and users who never signed in. */
export function DashboardAttention() {
  return (
    <DashboardSection title={attentionTexts.title}>
      <Stack gap="lg">
        <FailedMessages />
        <UnassignedMessages />
        <NeverSignedIn />
      </Stack>
    </DashboardSection>
  );
}

function SubTitle({ children }: { children: string }) {
  return (
    <Title order={3} size="h5" mb="xs">
      {children}
    </Title>
  );
}

function Pending({ error, label }: { error: unknown; label: string }) {
  return error ? <Text c="red">{errorDetails(error).message}</Text> : <Text c="dimmed">{label}</Text>;
}

function FailedMessages() {
  const failed = useFailedMessages();
  const acknowledge = useAcknowledgeFailed();
  const acknowledgeAll = useAcknowledgeAllFailed();
  const [confirming, setConfirming] = useState(false);
  const items = failed.data?.items ?? [];
  const total = failed.data?.totalCount ?? 0;

  const acknowledgeOne = (id: string) =>
    acknowledge.mutate(id, {
      onSuccess: () => notifySuccess(attentionTexts.acknowledged),
      onError: (error) => notifyError(errorDetails(error).message),
    });

  return (
    <div>
      <Group justify="space-between" align="baseline">
        <SubTitle>{attentionTexts.failedTitle}</SubTitle>
        {total > 0 && (
          <Button size="xs" variant="light" onClick={() => setConfirming(true)}>
            {attentionTexts.acknowledgeAll}
          </Button>
        )}
      </Group>
      {!failed.data ? (
        <Pending error={failed.error} label="Loading failed messages…" />
      ) : items.length === 0 ? (
        <Text c="dimmed">{attentionTexts.failedEmpty}</Text>
      ) : (
        <Table.ScrollContainer minWidth={480}>
          <Table aria-label={attentionTexts.failedTitle}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Subject</Table.Th>
                <Table.Th>From</Table.Th>
                <Table.Th>Received</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((m) => {
                const subject = m.subject || attentionTexts.noSubject;
                return (
                  <Table.Tr key={m.id}>
                    <Table.Td>
                      <Anchor component={Link} to={`/intake/${m.id}`} size="sm">
                        {subject}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{m.fromAddress ?? ''}</Table.Td>
                    <Table.Td>{formatDateTime(m.receivedOn)}</Table.Td>
                    <Table.Td ta="right">
                      <Button
                        size="xs"
                        variant="default"
                        aria-label={`${attentionTexts.acknowledge} ${subject}`}
                        loading={acknowledge.isPending && acknowledge.variables === m.id}
                        onClick={() => acknowledgeOne(m.id)}
                      >
                        {attentionTexts.acknowledge}
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {total > items.length && (
        <Text size="sm" c="dimmed">
          {attentionTexts.more(total - items.length)}
        </Text>
      )}
      <ConfirmModal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title={attentionTexts.acknowledgeAllTitle}
        message={attentionTexts.acknowledgeAllMessage(total)}
        confirmLabel={attentionTexts.acknowledgeAll}
        onConfirm={async () => {
          const result = await acknowledgeAll.mutateAsync();
          notifySuccess(attentionTexts.allAcknowledged(result.acknowledged));
        }}
      />
    </div>
  );
}

function UnassignedMessages() {
  const statistics = useStatistics();
  const unassigned = statistics.data?.unassigned ?? 0;
  return (
    <div>
      <SubTitle>{attentionTexts.unassignedTitle}</SubTitle>
      {!statistics.data ? (
        <Pending error={statistics.error} label="Loading unassigned messages…" />
      ) : unassigned === 0 ? (
        <Text c="dimmed">{attentionTexts.unassignedEmpty}</Text>
      ) : (
        <Group gap="sm">
          <Text>{attentionTexts.unassigned(unassigned)}</Text>
          <Anchor component={Link} to={UNASSIGNED_INTAKE_PATH}>
            {attentionTexts.openIntake}
          </Anchor>
        </Group>
      )}
    </div>
  );
}

function NeverSignedIn() {
  const users = useNeverSignedIn();
  const items = users.data?.items ?? [];
  const total = users.data?.totalCount ?? 0;
  return (
    <div>
      <SubTitle>{attentionTexts.neverSignedInTitle}</SubTitle>
      {!users.data ? (
        <Pending error={users.error} label="Loading users…" />
      ) : items.length === 0 ? (
        <Text c="dimmed">{attentionTexts.neverSignedInEmpty}</Text>
      ) : (
        <List aria-label={attentionTexts.neverSignedInTitle} spacing={4}>
          {items.map((u) => (
            <List.Item key={u.id}>
              {u.fullName} ({u.userName}) <Text span size="sm" c="dimmed">{attentionTexts.added(formatDate(u.createdOn))}</Text>
            </List.Item>
          ))}
          {total > items.length && <List.Item>{attentionTexts.more(total - items.length)}</List.Item>}
        </List>
      )}
    </div>
  );
}
