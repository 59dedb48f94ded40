import { Alert, Badge, Center, Code, Group, Loader, Stack, Table, Tabs, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { MailMessageRow, WorkflowDetail } from '@clinicrelay/contracts/message-browser.ts';
import { errorDetails } from '../../components/error-details.ts';
import { formatDateTime, formatFileSize } from '../../components/format.ts';
import { fetchConversions, fetchMessageDetails, fetchMessageEvents, messageBrowserKeys } from './api.ts';

// back-office-b §4 health colours: failures red, waiting work orange, the rest blue.
export const statusColor = (status: string | null | undefined) =>
  status === 'Failed' ? 'red' : status === 'Pending' || status === 'Running' || status === 'Retry' ? 'orange' : status === 'Completed' ? 'green' : 'blue';

export const formatDuration = (ms: number | null | undefined) => {
  if (ms === null || ms === undefined) return '';
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
};

function Loading({ error, isLoading }: { error: unknown; isLoading: boolean }) {
  if (error) return <Alert color="red">{errorDetails(error).message}</Alert>;
  if (isLoading)
    return (
      <Center p="sm">
        <Loader size="sm" aria-label="Loading" />
      </Center>
    );
  return null;
}

function WorkflowPanel({ row, workflow }: { row: MailMessageRow; workflow: WorkflowDetail }) {
  return (
    <Stack gap="xs">
      <Group gap="lg">
        <Text size="sm">
          <b>Workflow</b> {workflow.Name}
        </Text>
        <Badge color={statusColor(workflow.Status)}>{workflow.Status}</Badge>
        <Text size="sm">
          <b>WorkflowId</b> <Code>{workflow.WorkflowId}</Code>
        </Text>
        <Text size="sm">
          <b>HispMessageId</b> {row.HispMessageId ? <Code>{row.HispMessageId}</Code> : '—'}
        </Text>
        <Text size="sm">
          <b>Duration</b> {formatDuration(workflow.Duration)}
        </Text>
      </Group>
      <Table withTableBorder fz="sm" aria-label={`Steps of workflow ${workflow.WorkflowId}`}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Step</Table.Th>
            <Table.Th>Key</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Attempts</Table.Th>
            <Table.Th>Start</Table.Th>
            <Table.Th>End</Table.Th>
            <Table.Th>Elapsed</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {workflow.Steps.length === 0 ? (
            <Table.Tr>
              <Table.Td colSpan={7}>No steps recorded yet.</Table.Td>
            </Table.Tr>
          ) : (
            workflow.Steps.map((step) => (
              <Table.Tr key={`${step.stepName}:${step.key}`}>
                <Table.Td>{step.stepName}</Table.Td>
                <Table.Td>{step.key}</Table.Td>
                <Table.Td>
                  <Badge size="sm" color={statusColor(step.status)}>
                    {step.status}
                  </Badge>
                </Table.Td>
                <Table.Td>{step.attempts}</Table.Td>
                <Table.Td>{formatDateTime(step.startTime)}</Table.Td>
                <Table.Td>{formatDateTime(step.endTime)}</Table.Td>
                <Table.Td>{formatDuration(step.elapsed)}</Table.Td>
              </Table.Tr>
            ))
          )}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}

function EventsPanel({ id }: { id: string }) {
  const events = useQuery({ queryKey: messageBrowserKeys.events(id), queryFn: ({ signal }) => fetchMessageEvents(id, signal) });
  if (!events.data) return <Loading error={events.error} isLoading={events.isLoading} />;
  if (events.data.length === 0) return <Text size="sm">No events recorded.</Text>;
  return (
    <Table withTableBorder fz="sm" aria-label="Events">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Date</Table.Th>
          <Table.Th>Source</Table.Th>
          <Table.Th>Event</Table.Th>
          <Table.Th>Recipient</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {events.data.map((event) => (
          <Table.Tr key={event.EventMessageId}>
            <Table.Td>{formatDateTime(event.CreatedDate)}</Table.Td>
            <Table.Td>{event.Source}</Table.Td>
            <Table.Td>{event.EventType}</Table.Td>
            <Table.Td>{event.Recipient ?? ''}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function ConversionsPanel({ id }: { id: string }) {
  const conversions = useQuery({ queryKey: messageBrowserKeys.conversions(id), queryFn: ({ signal }) => fetchConversions(id, signal) });
  if (!conversions.data) return <Loading error={conversions.error} isLoading={conversions.isLoading} />;
  return (
    <Table withTableBorder fz="sm" aria-label="Document conversions">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Conversion</Table.Th>
          <Table.Th>Attachment</Table.Th>
          <Table.Th>Type</Table.Th>
          <Table.Th>Size</Table.Th>
          <Table.Th>Status</Table.Th>
          <Table.Th>Attempts</Table.Th>
          <Table.Th>Started</Table.Th>
          <Table.Th>Elapsed</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {conversions.data.map((c) => (
          <Table.Tr key={c.WorkflowId}>
            <Table.Td>{c.ConversionType}</Table.Td>
            <Table.Td>
              <Code>{c.AttachmentId}</Code>
            </Table.Td>
            <Table.Td>{c.SourceMimeType}</Table.Td>
            <Table.Td>{formatFileSize(c.SizeInBytes)}</Table.Td>
            <Table.Td>
              <Badge size="sm" color={statusColor(c.Status)}>
                {c.Status}
              </Badge>
            </Table.Td>
            <Table.Td>{c.Attempts}</Table.Td>
            <Table.Td>{formatDateTime(c.StartTime)}</Table.Td>
            <Table.Td>{formatDuration(c.ElapsedMs)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** An expanded row: tabs Workflows, Attachments, Events, and Document Conversion when the message had conversions. */
export function MessageDetails({ row }: { row: MailMessageRow }) {
  const details = useQuery({ queryKey: messageBrowserKeys.details(row.MailMessageId), queryFn: ({ signal }) => fetchMessageDetails(row.MailMessageId, signal) });
  return (
    <Tabs defaultValue="workflows" keepMounted={false}>
      <Tabs.List aria-label={`Details of message ${row.MailMessageId}`}>
        <Tabs.Tab value="workflows">Workflows</Tabs.Tab>
        <Tabs.Tab value="attachments">Attachments</Tabs.Tab>
        <Tabs.Tab value="events">Events</Tabs.Tab>
        {row.ConversionCount > 0 && <Tabs.Tab value="conversion">Document Conversion</Tabs.Tab>}
      </Tabs.List>
      <Tabs.Panel value="workflows" pt="xs">
        {details.data ? (
          details.data.Workflows.length === 0 ? (
            <Text size="sm">No workflow for this message.</Text>
          ) : (
            <Stack>
              {details.data.Workflows.map((workflow) => (
                <WorkflowPanel key={workflow.WorkflowId} row={row} workflow={workflow} />
              ))}
            </Stack>
          )
        ) : (
          <Loading error={details.error} isLoading={details.isLoading} />
        )}
      </Tabs.Panel>
      <Tabs.Panel value="attachments" pt="xs">
        {details.data ? (
          details.data.Attachments.length === 0 ? (
            <Text size="sm">No attachments.</Text>
          ) : (
            <Table withTableBorder fz="sm" aria-label="Attachments">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Attachment</Table.Th>
                  <Table.Th>Type</Table.Th>
                  <Table.Th>Size</Table.Th>
                  <Table.Th>Preview</Table.Th>
                  <Table.Th>Transform</Table.Th>
                  <Table.Th>Added</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {details.data.Attachments.map((a) => (
                  <Table.Tr key={a.AttachmentId}>
                    <Table.Td>
                      <Code>{a.AttachmentId}</Code>
                    </Table.Td>
                    <Table.Td>{a.MimeType}</Table.Td>
                    <Table.Td>{formatFileSize(a.SizeInBytes)}</Table.Td>
                    <Table.Td>{a.PreviewStatus}</Table.Td>
                    <Table.Td>{a.TransformStatus}</Table.Td>
                    <Table.Td>{formatDateTime(a.CreatedDate)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )
        ) : (
          <Loading error={details.error} isLoading={details.isLoading} />
        )}
      </Tabs.Panel>
      <Tabs.Panel value="events" pt="xs">
        <EventsPanel id={row.MailMessageId} />
      </Tabs.Panel>
      {row.ConversionCount > 0 && (
        <Tabs.Panel value="conversion" pt="xs">
          <ConversionsPanel id={row.MailMessageId} />
        </Tabs.Panel>
      )}
    </Tabs>
  );
}
