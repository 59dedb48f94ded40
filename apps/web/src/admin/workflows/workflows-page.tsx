import { Fragment, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ActionIcon, Alert, Badge, Button, Code, Group, Loader, NativeSelect, Stack, Table, Tabs, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  WORKFLOWS_PAGE_SIZE,
  workflowCategories,
  workflowChannels,
  workflowPageSizes,
  workflowStatuses,
  type WorkflowRow,
  type WorkflowStep,
} from '@clinicrelay/contracts/workflows.ts';
import { fetchWorkflows, retryWorkflowStep, workflowKeys, type WorkflowGridState } from '../../api/workflows.ts';
import { errorDetails } from '../../components/error-details.ts';
import { formatDateTime } from '../../components/format.ts';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { Pager } from '../../components/pager.tsx';

const tabLabels: Record<(typeof workflowCategories)[number], string> = { workflows: 'Workflows', attachments: 'Attachments', events: 'Events' };
const statusColor: Record<string, string> = { Completed: 'green', Failed: 'red', Running: 'blue', Pending: 'gray', Retry: 'orange' };

// Milliseconds as the grid shows a duration: 850 ms, 2.4 s, 3 min 5 s, 2 h 10 min.
export function formatDuration(ms: number | null): string {
  if (ms === null) return '';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms < 3_600_000) return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
  return `${Math.floor(ms / 3_600_000)} h ${Math.round((ms % 3_600_000) / 60_000)} min`;
}

function readState(params: URLSearchParams): WorkflowGridState {
  const category = params.get('tab') ?? 'workflows';
  const size = Number(params.get('pageSize'));
  return {
    category: (workflowCategories as readonly string[]).includes(category) ? category : 'workflows',
    status: params.get('status') ?? '',
    type: params.get('type') ?? '',
    channel: params.get('channel') ?? '',
    search: params.get('search') ?? '',
    page: Math.max(1, Number(params.get('page')) || 1),
    pageSize: size >= 1 && size <= 100 ? size : WORKFLOWS_PAGE_SIZE,
  };
}

const commandText = (command: Record<string, unknown>) =>
  Object.entries(command)
    .map(([key, value]) => `${key}: ${Array.isArray(value) ? value.join(', ') : String(value)}`)
    .join('; ');

function StepsTable({ workflow }: { workflow: WorkflowRow }) {
  const queryClient = useQueryClient();
  const retry = useMutation({
    mutationFn: (step: WorkflowStep) =>
      retryWorkflowStep(workflow.id, { type: workflow.kind ?? workflow.type, retryStep: step.stepName, id: workflow.id, ...(step.key ? { key: step.key } : {}) }),
    onSuccess: async (result) => {
      notifySuccess(result.message);
      await queryClient.invalidateQueries({ queryKey: workflowKeys.all });
    },
    onError: (error) => notifyError(errorDetails(error).message),
  });
  if (workflow.steps.length === 0) return <Text size="sm">This workflow has no steps yet.</Text>;
  return (
    <Table withTableBorder fz="sm" aria-label={`Steps of workflow ${workflow.id}`}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Step name</Table.Th>
          <Table.Th>For</Table.Th>
          <Table.Th w={120}>Status</Table.Th>
          <Table.Th>Start</Table.Th>
          <Table.Th>End</Table.Th>
          <Table.Th>Elapsed</Table.Th>
          <Table.Th>Attempts</Table.Th>
          <Table.Th>Last error / meta</Table.Th>
          <Table.Th>
            <VisuallyHidden>Actions</VisuallyHidden>
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {workflow.steps.map((step) => (
          <Table.Tr key={step.id}>
            <Table.Td>{step.stepName}</Table.Td>
            <Table.Td>{step.key}</Table.Td>
            <Table.Td>
              <Badge color={statusColor[step.status] ?? 'gray'} variant="light" style={{ overflow: 'visible' }} miw="max-content">
                {step.status}
              </Badge>
            </Table.Td>
            <Table.Td>{formatDateTime(step.startTime)}</Table.Td>
            <Table.Td>{formatDateTime(step.endTime)}</Table.Td>
            <Table.Td>{formatDuration(step.elapsed)}</Table.Td>
            <Table.Td>{step.attempts}</Table.Td>
            <Table.Td maw={360}>
              {step.lastError ? <Text size="sm" c="red.9">{step.lastError}</Text> : null}
              {step.meta ? <Code>{commandText(step.meta)}</Code> : null}
            </Table.Td>
            <Table.Td>
              {step.status !== 'Completed' ? (
                <Button size="xs" variant="light" loading={retry.isPending && retry.variables?.id === step.id} onClick={() => retry.mutate(step)} aria-label={`Retry ${step.stepName} ${step.key}`.trim()}>
                  Retry
                </Button>
              ) : null}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function WorkflowRows({ rows }: { rows: WorkflowRow[] }) {
  const [open, setOpen] = useState<Record<string, boolean>>({});
  return (
    <Table striped highlightOnHover aria-label="Workflows">
      <Table.Thead>
        <Table.Tr>
          <Table.Th w={40}>
            <VisuallyHidden>Steps</VisuallyHidden>
          </Table.Th>
          <Table.Th>id</Table.Th>
          <Table.Th>type</Table.Th>
          <Table.Th>status</Table.Th>
          <Table.Th>hispMessageId</Table.Th>
          <Table.Th>duration</Table.Th>
          <Table.Th>command</Table.Th>
          <Table.Th>mailMessage</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((row) => (
          <Fragment key={row.id}>
            <Table.Tr>
              <Table.Td>
                <ActionIcon
                  variant="subtle"
                  aria-expanded={Boolean(open[row.id])}
                  aria-label={`${open[row.id] ? 'Hide' : 'Show'} steps of workflow ${row.id}`}
                  onClick={() => setOpen((o) => ({ ...o, [row.id]: !o[row.id] }))}
                >
                  {open[row.id] ? '▾' : '▸'}
                </ActionIcon>
              </Table.Td>
              <Table.Td>
                <Text size="sm" ff="monospace">
                  {row.id}
                </Text>
                <Text size="xs" c="dimmed">
                  {formatDateTime(row.createdTime)}
                </Text>
              </Table.Td>
              <Table.Td>
                {row.type}
                {row.channel.length ? (
                  <Text size="xs" c="dimmed">
                    {row.channel.join(', ')}
                  </Text>
                ) : null}
              </Table.Td>
              <Table.Td>
                <Badge color={statusColor[row.status] ?? 'gray'} variant="light">
                  {row.status}
                </Badge>
                {row.lastError ? (
                  <Text size="xs" c="red.9" maw={260}>
                    {row.lastError}
                  </Text>
                ) : null}
              </Table.Td>
              <Table.Td>
                <Text size="xs" ff="monospace" maw={220} style={{ wordBreak: 'break-all' }}>
                  {row.hispMessageId}
                </Text>
              </Table.Td>
              <Table.Td>{formatDuration(row.duration)}</Table.Td>
              <Table.Td>
                <Text size="xs" maw={240} style={{ wordBreak: 'break-all' }}>
                  {commandText(row.command)}
                </Text>
              </Table.Td>
              <Table.Td>
                {row.mailMessage ? (
                  <Text size="xs" maw={260} style={{ wordBreak: 'break-all' }}>
                    {row.mailMessage.sender} → {row.mailMessage.mailTo}
                    <br />
                    {row.mailMessage.status} · {row.mailMessage.attachmentEvents.length} attachment(s) · {row.mailMessage.objectId}
                  </Text>
                ) : null}
              </Table.Td>
            </Table.Tr>
            {open[row.id] ? (
              <Table.Tr>
                <Table.Td colSpan={8}>
                  <StepsTable workflow={row} />
                </Table.Td>
              </Table.Tr>
            ) : null}
          </Fragment>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** /admin/dashboard/messaging/workflows (back-office-b §2): tabs, filters from the query string, steps with Retry. */
export function WorkflowsPage() {
  const [params, setParams] = useSearchParams();
  const state = readState(params);
  const [search, setSearch] = useState(state.search);
  const query = useQuery({ queryKey: workflowKeys.grid(state), queryFn: ({ signal }) => fetchWorkflows(state, signal) });
  const set = (patch: Record<string, string>) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      for (const [key, value] of Object.entries(patch)) {
        if (value) next.set(key, value);
        else next.delete(key);
      }
      if (!('page' in patch)) next.delete('page');
      return next;
    });
  const totalPages = Math.max(1, Math.ceil((query.data?.totalCount ?? 0) / state.pageSize));
  return (
    <Stack>
      <Title order={1}>Workflows</Title>
      <Tabs value={state.category} onChange={(tab) => set({ tab: tab ?? 'workflows' })}>
        <Tabs.List>
          {workflowCategories.map((c) => (
            <Tabs.Tab key={c} value={c}>
              {tabLabels[c]}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      <Group align="flex-end" wrap="wrap">
        <form
          onSubmit={(event) => {
            event.preventDefault();
            set({ search: search.trim() });
          }}
        >
          <Group align="flex-end" gap="xs">
            <TextInput label="Search" placeholder="Workflow, message or object id" value={search} onChange={(e) => setSearch(e.currentTarget.value)} w={320} />
            <Button type="submit" variant="default">
              Search
            </Button>
          </Group>
        </form>
        <NativeSelect label="Status" value={state.status} onChange={(e) => set({ status: e.currentTarget.value })} data={[{ value: '', label: 'Any' }, ...workflowStatuses]} />
        <NativeSelect
          label="Type"
          value={state.type}
          onChange={(e) => set({ type: e.currentTarget.value })}
          data={[
            { value: '', label: 'Any' },
            { value: 'release', label: 'Send (release)' },
            { value: 'intake', label: 'Receive (intake)' },
            ...(state.type && !['release', 'intake'].includes(state.type) ? [state.type] : []),
          ]}
        />
        <NativeSelect
          label="Channel"
          value={state.channel}
          onChange={(e) => set({ channel: e.currentTarget.value })}
          data={[{ value: '', label: 'Any' }, ...workflowChannels, ...(state.channel && !(workflowChannels as readonly string[]).includes(state.channel) ? [state.channel] : [])]}
        />
        <NativeSelect label="Items per page" value={String(state.pageSize)} onChange={(e) => set({ pageSize: e.currentTarget.value })} data={workflowPageSizes.map(String)} w={120} />
        <Button variant="default" onClick={() => void query.refetch()}>
          Refresh
        </Button>
      </Group>
      {query.isLoading ? <Loader aria-label="Loading workflows" /> : null}
      {query.error ? <Alert color="red">{errorDetails(query.error).message}</Alert> : null}
      {query.data ? (
        <>
          <Text size="sm">{query.data.totalCount} workflow(s)</Text>
          {query.data.items.length ? <WorkflowRows rows={query.data.items} /> : <Text>There are no results matching your criteria.</Text>}
          <Pager page={state.page} totalPages={totalPages} onChange={(page) => set({ page: String(page) })} />
        </>
      ) : null}
    </Stack>
  );
}
