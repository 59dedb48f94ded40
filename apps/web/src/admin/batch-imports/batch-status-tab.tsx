import { ActionIcon, Badge, Button, Group, Stack, Text, Tooltip } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { BatchStatusItem } from '@clinicrelay/contracts/batch-imports.ts';
import { messages } from '@clinicrelay/contracts/errors.ts';
import { batchImportKeys, fetchBatchItems } from '../../api/batch-imports.ts';
import { formatDateTime } from '../../components/format.ts';
import { ListPage, type ListColumn } from '../../components/list-page.tsx';
import { useListState } from '../../components/list-state.ts';
import { TruncatedText } from '../../components/truncated-text.tsx';

// back-office-b §9: file names are cut at 60 characters.
const FILE_NAME_MAX = 60;
// While a file is being imported, its rows' statuses are read again every few seconds.
const REFRESH_MS = 3000;

const colorOf: Record<string, string> = { Created: 'green', Added: 'green', Completed: 'green', Failed: 'red', CompletedWithErrors: 'orange', Skipped: 'gray', NotStarted: 'gray', Running: 'blue', Pending: 'blue' };
const labelOf = (status: string) => (status === 'CompletedWithErrors' ? 'Completed with errors' : status === 'NotStarted' ? 'Not started' : status);

/** A status badge; its errors (§3: "as a tooltip next to the status") behind an icon beside it. */
function StatusCell({ status, errors, what }: { status: string; errors: string | null; what: string }) {
  return (
    <Group gap={4} wrap="nowrap">
      <Badge color={colorOf[status] ?? 'gray'} variant="light">
        {labelOf(status)}
      </Badge>
      {errors && (
        <Tooltip label={<Text size="sm" style={{ whiteSpace: 'pre-line' }}>{errors}</Text>} multiline maw={480} withArrow events={{ hover: true, focus: true, touch: true }}>
          <ActionIcon variant="subtle" color="red" size="sm" aria-label={`${what} errors: ${errors}`}>
            <InfoIcon />
          </ActionIcon>
        </Tooltip>
      )}
    </Group>
  );
}

const columns: ListColumn<BatchStatusItem>[] = [
  { key: 'fileName', header: 'File', render: (row) => <TruncatedText text={row.fileName} maxChars={FILE_NAME_MAX} size="sm" /> },
  { key: 'rowNumber', header: 'Row', width: 70 },
  { key: 'name', header: 'Organization', render: (row) => <TruncatedText text={row.name ?? ''} size="sm" /> },
  { key: 'itemStatus', header: 'Status', width: 150, render: (row) => <StatusCell status={row.itemStatus} errors={row.itemError} what={`Row ${row.rowNumber}`} /> },
  { key: 'primaryContactStatus', header: 'Primary contact', width: 170, render: (row) => <StatusCell status={row.primaryContactStatus} errors={row.pcsErrors} what={`Row ${row.rowNumber} primary contact`} /> },
  { key: 'batchStatus', header: 'File status', width: 230, visibleFrom: 'lg', render: (row) => <StatusCell status={row.batchStatus} errors={null} what="" /> },
  { key: 'createDate', header: 'Imported', width: 170, visibleFrom: 'md', render: (row) => formatDateTime(row.createDate) },
];

/** The Status tab: every imported file's rows with their statuses and errors. */
export function BatchStatusTab() {
  const [state, setState] = useListState();
  const list = useQuery({
    queryKey: [...batchImportKeys.all, 'list', state],
    queryFn: ({ signal }) => fetchBatchItems(state, signal),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.items.some((i) => i.batchStatus === 'Pending' || i.batchStatus === 'Running') ? REFRESH_MS : false),
  });
  return (
    <Stack>
      <ListPage<BatchStatusItem>
        title="Status"
        titleOrder={2}
        columns={columns}
        query={{ items: list.data?.items, totalCount: list.data?.totalCount, isLoading: list.isLoading, error: list.error }}
        state={state}
        onStateChange={setState}
        emptyText={messages.emptyList}
        fixedLayout
        actions={
          <Button variant="default" onClick={() => void list.refetch()} loading={list.isFetching && !list.isLoading}>
            Refresh
          </Button>
        }
      />
    </Stack>
  );
}

function InfoIcon() {
  return (
    <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
      <circle cx="12" cy="12" r="10" />
      <path d="M12 8v4M12 16h.01" />
    </svg>
  );
}
