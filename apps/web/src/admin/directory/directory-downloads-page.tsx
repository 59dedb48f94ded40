import { useState } from 'react';
import { Anchor, Badge, Button, Text } from '@mantine/core';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DirectoryDownload } from '@clinicrelay/contracts/directory-downloads.ts';
import { directoryDownloadKeys, fetchDirectoryDownloadFile, fetchDirectoryDownloads } from '../../api/directory-downloads.ts';
import { usePageTitle } from '../../app/page-title.ts';
import { formatDateTime, formatFileSize } from '../../components/format.ts';
import { ListPage, type ListColumn } from '../../components/list-page.tsx';
import { useListState } from '../../components/list-state.ts';
import { notifyError } from '../../components/notify.ts';
import { saveFile } from '../../components/save-file.ts';
import { LogMessageModal } from './log-message-modal.tsx';
import { RequestDownloadModal } from './request-download-modal.tsx';

const STATUS_COLORS: Record<DirectoryDownload['status'], string> = { Pending: 'gray', Running: 'blue', Completed: 'green', Failed: 'red' };
// While a download is being made the list looks again every few seconds, so its file link appears by itself.
const REFRESH_WHILE_RUNNING_MS = 5000;

// The file is fetched with the administrator's token (a bare link would carry none) and saved under the server's name.
function FileLink({ row }: { row: DirectoryDownload }) {
  const [saving, setSaving] = useState(false);
  if (!row.fileUrl) return <Text size="sm" c="dimmed">{row.status === 'Failed' ? 'No file' : 'Being made…'}</Text>;
  const fileUrl = row.fileUrl;
  return (
    <Anchor
      component="button"
      type="button"
      size="sm"
      ta="left"
      disabled={saving}
      aria-label={`Download the file of request ${row.id}`}
      onClick={() => {
        setSaving(true);
        fetchDirectoryDownloadFile(fileUrl)
          .then((file) => saveFile(file.blob, file.fileName))
          .catch(() => notifyError('The file could not be downloaded.'))
          .finally(() => setSaving(false));
      }}
    >
      {fileUrl}
      {row.sizeInBytes !== null && (
        <Text span size="xs" c="dimmed">
          {' '}
          ({formatFileSize(row.sizeInBytes)})
        </Text>
      )}
    </Anchor>
  );
}

/** /admin/directorydownloads (back-office-b §2 "Directory download requests"). */
export function DirectoryDownloadsPage() {
  usePageTitle('Directory downloads');
  const [state, setState] = useListState({ sortDir: 'desc' });
  const queryClient = useQueryClient();
  const list = useQuery({
    queryKey: [...directoryDownloadKeys.all, 'list', state],
    queryFn: ({ signal }) => fetchDirectoryDownloads(state, signal),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.items.some((d) => d.status === 'Pending' || d.status === 'Running') ? REFRESH_WHILE_RUNNING_MS : false),
  });
  const [requesting, setRequesting] = useState(false);
  const [logOf, setLogOf] = useState<string | null>(null);

  const columns: ListColumn<DirectoryDownload>[] = [
    { key: 'id', header: 'Id', width: 110, render: (row) => <Text size="sm" title={row.id}>{row.id.slice(0, 8)}</Text> },
    { key: 'fileUrl', header: 'File URL', render: (row) => <FileLink row={row} /> },
    { key: 'occurred', header: 'Occurred', sortable: true, width: 190, render: (row) => formatDateTime(row.occurred) },
    { key: 'item', header: 'Item', width: 130 },
    { key: 'mode', header: 'Mode', width: 120 },
    {
      key: 'status',
      header: 'Status',
      width: 120,
      render: (row) => (
        <Badge variant="light" color={STATUS_COLORS[row.status]}>
          {row.status}
        </Badge>
      ),
    },
    {
      key: 'logMessage',
      header: 'Log message',
      width: 130,
      render: (row) => (
        <Button variant="subtle" size="compact-sm" aria-label={`Log message of request ${row.id}`} onClick={() => setLogOf(row.id)}>
          View
        </Button>
      ),
    },
  ];

  return (
    <>
      <ListPage
        title="Directory downloads"
        columns={columns}
        query={{ items: list.data?.items, totalCount: list.data?.totalCount, isLoading: list.isLoading, error: list.error }}
        state={{ ...state, sortCol: 'occurred' }}
        onStateChange={setState}
        actions={<Button onClick={() => setRequesting(true)}>Request download</Button>}
      />
      <RequestDownloadModal opened={requesting} onClose={() => setRequesting(false)} onRequested={() => queryClient.invalidateQueries({ queryKey: directoryDownloadKeys.all })} />
      <LogMessageModal downloadId={logOf} onClose={() => setLogOf(null)} />
    </>
  );
}
