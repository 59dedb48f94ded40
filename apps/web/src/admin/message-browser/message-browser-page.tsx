import { Fragment, useState } from 'react';
import { ActionIcon, Alert, Badge, Button, Center, Code, Group, Loader, Modal, NativeSelect, ScrollArea, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { MESSAGE_BROWSER_DEFAULT_PAGE_SIZE, type MailMessageRow, messageBrowserMessages as text, messageStatusName, messageStatusNames } from '@clinicrelay/contracts/message-browser.ts';
import { DateRangeFilter } from '../../components/date-range-filter.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { errorDetails } from '../../components/error-details.ts';
import { useListState } from '../../components/list-state.ts';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { PageSizeSelect } from '../../components/page-size-select.tsx';
import { Pager } from '../../components/pager.tsx';
import { SearchBox } from '../../components/search-box.tsx';
import { SortableHeader } from '../../components/sortable-header.tsx';
import { fetchMessages, messageBrowserKeys } from './api.ts';
import { formatDuration, MessageDetails, statusColor } from './message-details.tsx';

// back-office-b §9: this screen shows dates as MM/dd/yy.
const shortDateTime = (value: string | null) => (value ? dayjs(value).format('MM/DD/YY h:mm A') : '');
const COLUMN_COUNT = 9;

const statusOptions = [{ value: '', label: 'Any status' }, ...Object.entries(messageStatusNames).map(([value, label]) => ({ value, label: `${value} ${label}` }))];
const directionOptions = [
  { value: '', label: 'Any direction' },
  { value: 'Outbound', label: 'Outbound' },
  { value: 'Inbound', label: 'Inbound' },
];
const workflowStatusOptions = ['', 'Pending', 'Running', 'Completed', 'Failed'].map((value) => ({ value, label: value || 'Any workflow status' }));

/** The log-message view: the row as the feed gave it, for copying into a ticket. */
function LogMessageModal({ row, onClose }: { row: MailMessageRow | null; onClose: () => void }) {
  return (
    <Modal opened={row !== null} onClose={onClose} title="Log message" size="lg">
      {row && (
        <ScrollArea.Autosize mah={500}>
          <Code block>{JSON.stringify(row, null, 2)}</Code>
        </ScrollArea.Autosize>
      )}
    </Modal>
  );
}

// back-office-b §2 Messages browser: an expandable grid over GET /odata/mailmessages with refresh and expand/compress.
export function MessageBrowserPage() {
  const [state, setState] = useListState({ pageSize: MESSAGE_BROWSER_DEFAULT_PAGE_SIZE, sortCol: 'CreatedDate', sortDir: 'desc' });
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const [logRow, setLogRow] = useState<MailMessageRow | null>(null);
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: messageBrowserKeys.list(state), queryFn: ({ signal }) => fetchMessages(state, signal), placeholderData: keepPreviousData });
  const rows = list.data?.items ?? [];
  const totalCount = list.data?.totalCount ?? 0;
  const allExpanded = rows.length > 0 && rows.every((row) => expanded.has(row.MailMessageId));

  const toggle = (id: string) =>
    setExpanded((previous) => {
      const next = new Set(previous);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const refresh = async () => {
    try {
      await queryClient.invalidateQueries({ queryKey: messageBrowserKeys.all, refetchType: 'active' });
      notifySuccess(text.refreshed);
    } catch {
      notifyError(text.loadFailed);
    }
  };
  const filterValue = (key: string) => state.filters[key]?.value ?? '';
  const setFilter = (key: string, value: string) =>
    setState((current) => {
      const filters = { ...current.filters };
      if (value) filters[key] = { operator: 'equals', value };
      else delete filters[key];
      return { filters };
    });
  const sortable = (column: string, label: string, width?: number) => (
    <SortableHeader width={width} column={column} sortCol={state.sortCol} sortDir={state.sortDir} onSort={(sortCol, sortDir) => setState({ sortCol, sortDir })}>
      {label}
    </SortableHeader>
  );

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>Messages</Title>
        <Group gap="xs">
          <Button variant="default" onClick={() => void refresh()} loading={list.isFetching}>
            Refresh
          </Button>
          <Button variant="default" onClick={() => setExpanded(allExpanded ? new Set() : new Set(rows.map((row) => row.MailMessageId)))} disabled={rows.length === 0}>
            {allExpanded ? 'Compress all' : 'Expand all'}
          </Button>
        </Group>
      </Group>
      <Group align="flex-end">
        <SearchBox value={state.search} onChange={(search) => setState({ search })} label="Search sender, recipient or HISP message id" />
        <NativeSelect label="Status" data={statusOptions} value={filterValue('Status')} onChange={(e) => setFilter('Status', e.currentTarget.value)} />
        <NativeSelect label="Direction" data={directionOptions} value={filterValue('Direction')} onChange={(e) => setFilter('Direction', e.currentTarget.value)} />
        <NativeSelect label="Workflow status" data={workflowStatusOptions} value={filterValue('WorkflowStatus')} onChange={(e) => setFilter('WorkflowStatus', e.currentTarget.value)} />
        <DateRangeFilter value={{ startDate: state.startDate, endDate: state.endDate }} onChange={(range) => setState(range)} />
      </Group>
      {list.error ? <Alert color="red">{errorDetails(list.error).message}</Alert> : null}
      <Table.ScrollContainer minWidth={1000}>
        <Table highlightOnHover aria-label="Messages" layout="fixed" fz="sm" style={{ overflowWrap: 'anywhere' }}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={40}>
                <VisuallyHidden>Details</VisuallyHidden>
              </Table.Th>
              {sortable('CreatedDate', 'Created', 105)}
              <Table.Th w={100}>Direction</Table.Th>
              {sortable('Sender', 'Sender')}
              {sortable('MailTo', 'MailTo')}
              {sortable('Status', 'Status', 90)}
              <Table.Th w={130}>Workflow</Table.Th>
              <Table.Th>HispMessageId</Table.Th>
              {sortable('Duration', 'Duration', 120)}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => {
              const open = expanded.has(row.MailMessageId);
              return (
                <Fragment key={row.MailMessageId}>
                  <Table.Tr>
                    <Table.Td>
                      <ActionIcon
                        variant="subtle"
                        onClick={() => toggle(row.MailMessageId)}
                        aria-expanded={open}
                        aria-label={`${open ? 'Hide' : 'Show'} details of message ${row.MailMessageId}`}
                      >
                        <span aria-hidden="true">{open ? '▾' : '▸'}</span>
                      </ActionIcon>
                    </Table.Td>
                    <Table.Td>{shortDateTime(row.CreatedDate)}</Table.Td>
                    <Table.Td>{row.Direction}</Table.Td>
                    <Table.Td>{row.Sender ?? ''}</Table.Td>
                    <Table.Td>{row.MailTo}</Table.Td>
                    <Table.Td>{messageStatusName(row.Status, row.IsDraft)}</Table.Td>
                    <Table.Td>
                      {row.WorkflowId ? (
                        <Stack gap={2} align="flex-start">
                          <Text size="sm">{row.WorkflowName}</Text>
                          <Badge size="sm" color={statusColor(row.WorkflowStatus)}>
                            {row.WorkflowStatus}
                          </Badge>
                        </Stack>
                      ) : (
                        ''
                      )}
                    </Table.Td>
                    <Table.Td>{row.HispMessageId ?? ''}</Table.Td>
                    <Table.Td>
                      <Group gap={4} wrap="nowrap" justify="space-between">
                        {formatDuration(row.Duration)}
                        <Button size="compact-xs" variant="subtle" onClick={() => setLogRow(row)} aria-label={`View log of message ${row.MailMessageId}`}>
                          Log
                        </Button>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                  {open && (
                    <Table.Tr>
                      <Table.Td colSpan={COLUMN_COUNT} bg="var(--mantine-color-gray-0)">
                        <MessageDetails row={row} />
                      </Table.Td>
                    </Table.Tr>
                  )}
                </Fragment>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {list.isLoading && (
        <Center>
          <Loader aria-label="Loading" />
        </Center>
      )}
      {!list.isLoading && !list.error && rows.length === 0 && <EmptyState text={text.noResults} />}
      <Group justify="space-between">
        <Text size="sm">{totalCount > 0 ? `${(state.page - 1) * state.pageSize + 1}-${(state.page - 1) * state.pageSize + rows.length} of ${totalCount}` : ''}</Text>
        <Pager page={state.page} totalPages={Math.ceil(totalCount / state.pageSize)} onChange={(page) => setState({ page })} />
        <PageSizeSelect value={state.pageSize} onChange={(pageSize) => setState({ pageSize })} />
      </Group>
      <LogMessageModal row={logRow} onClose={() => setLogRow(null)} />
    </Stack>
  );
}
