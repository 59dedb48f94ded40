import { useState, type ReactNode } from 'react';
import { Alert, Button, CopyButton, Group, Paper, Stack, Table, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { splitObjectIds } from '@clinicrelay/contracts/utilities.ts';
import { decodeMailMessageObjectIds, decodeObjectIds, lookupMessage } from '../../api/workflows.ts';
import { errorDetails } from '../../components/error-details.ts';

// back-office-b §9: 'Copied!' resets after 2.5 s.
const COPIED_MS = 2500;

function CopyValue({ value, label }: { value: string | null; label: string }) {
  if (!value) return <Text span c="dimmed">—</Text>;
  return (
    <Group gap="xs" wrap="nowrap">
      <Text span ff="monospace" size="sm" style={{ wordBreak: 'break-all' }}>
        {value}
      </Text>
      <CopyButton value={value} timeout={COPIED_MS}>
        {({ copied, copy }) => (
          <Button size="compact-xs" style={{ flexShrink: 0 }} variant="light" color={copied ? 'teal' : 'blue'} onClick={copy} aria-label={`Copy ${label}`}>
            {copied ? 'Copied!' : 'Copy'}
          </Button>
        )}
      </CopyButton>
    </Group>
  );
}

function ResultTable({ label, headers, rows }: { label: string; headers: string[]; rows: ReactNode[][] }) {
  if (rows.length === 0) return <Text>There are no results matching your criteria.</Text>;
  return (
    <Table aria-label={label} withTableBorder>
      <Table.Thead>
        <Table.Tr>
          {headers.map((h) => (
            <Table.Th key={h}>{h}</Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((cells, i) => (
          <Table.Tr key={i}>
            {cells.map((cell, j) => (
              <Table.Td key={j}>{cell}</Table.Td>
            ))}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function Lookup() {
  const [id, setId] = useState('');
  const search = useMutation({ mutationFn: () => lookupMessage(id.trim()) });
  return (
    <Paper withBorder p="md">
      <Stack>
        <Title order={2}>Message ID and workflow ID lookup</Title>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (id.trim()) search.mutate();
          }}
        >
          <Group align="flex-end">
            <TextInput label="Message, workflow or object ID" value={id} onChange={(e) => setId(e.currentTarget.value)} w={420} />
            <Button type="submit" loading={search.isPending}>
              Search
            </Button>
          </Group>
        </form>
        {search.error ? <Alert color="red">{errorDetails(search.error).message}</Alert> : null}
        {search.data ? (
          <ResultTable
            label="Lookup results"
            headers={['Message ID', 'Workflow ID', 'Object ID', 'Workflow']}
            rows={search.data.map((r) => [
              <CopyValue key="m" value={r.messageId} label="message ID" />,
              <CopyValue key="w" value={r.workflowId} label="workflow ID" />,
              <CopyValue key="o" value={r.objectId} label="object ID" />,
              r.workflowType ? `${r.workflowType} (${r.workflowStatus ?? ''})` : '',
            ])}
          />
        ) : null}
      </Stack>
    </Paper>
  );
}

function MailMessageDecode() {
  const [text, setText] = useState('');
  const decode = useMutation({ mutationFn: () => decodeMailMessageObjectIds(splitObjectIds(text)) });
  return (
    <Paper withBorder p="md">
      <Stack>
        <Title order={2}>Message object IDs to database and workflow IDs</Title>
        <Textarea label="Message object IDs" description="Comma separated" autosize minRows={2} value={text} onChange={(e) => setText(e.currentTarget.value)} />
        <Button w={120} onClick={() => decode.mutate()} loading={decode.isPending} disabled={!splitObjectIds(text).length}>
          Decode
        </Button>
        {decode.data ? (
          <ResultTable
            label="Message object ID results"
            headers={['Object ID', 'Database ID', 'Workflow ID']}
            rows={decode.data.map((r) => [r.objectId, <CopyValue key="m" value={r.mailMessageId} label="database ID" />, <CopyValue key="w" value={r.workflowId} label="workflow ID" />])}
          />
        ) : null}
      </Stack>
    </Paper>
  );
}

function ObjectIdDecode() {
  const [text, setText] = useState('');
  const decode = useMutation({ mutationFn: () => decodeObjectIds(splitObjectIds(text)) });
  return (
    <Paper withBorder p="md">
      <Stack>
        <Title order={2}>Object IDs to database ID and UUID</Title>
        <Textarea label="Object IDs" description="Comma separated" autosize minRows={2} value={text} onChange={(e) => setText(e.currentTarget.value)} />
        <Button w={120} onClick={() => decode.mutate()} loading={decode.isPending} disabled={!splitObjectIds(text).length}>
          Decode
        </Button>
        {decode.data ? (
          <ResultTable
            label="Object ID results"
            headers={['Object ID', 'Kind', 'Database ID', 'UUID']}
            rows={decode.data.map((r) => [r.objectId, r.kind ?? 'not an object id', <CopyValue key="d" value={r.dbEntityId} label="database ID" />, <CopyValue key="u" value={r.uuid} label="UUID" />])}
          />
        ) : null}
      </Stack>
    </Paper>
  );
}

/** /admin/utils (back-office-a §2 Message utilities). */
export function UtilitiesPage() {
  return (
    <Stack maw={1100}>
      <Title order={1}>Utilities</Title>
      <Lookup />
      <MailMessageDecode />
      <ObjectIdDecode />
    </Stack>
  );
}
