import { useState } from 'react';
import { Button, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { messages } from '@clinicrelay/contracts/errors.ts';
import { downloadMessages as text, type PublishedDownload } from '@clinicrelay/contracts/downloads.ts';
import { downloadKeys, fetchDownloadFile, fetchPublishedDownloads } from '../../api/downloads.ts';
import { usePageTitle } from '../../app/page-title.ts';
import { formatFileSize } from '../../components/format.ts';
import { ListPage, type ListColumn } from '../../components/list-page.tsx';
import { useListState } from '../../components/list-state.ts';
import { notifyError } from '../../components/notify.ts';
import { saveFile } from '../../components/save-file.ts';

function DownloadButton({ item }: { item: PublishedDownload }) {
  const [busy, setBusy] = useState(false);
  if (!item.isDownloadable) {
    return (
      <Text size="sm" c="dimmed">
        Not available for download
      </Text>
    );
  }
  const save = async () => {
    setBusy(true);
    try {
      const { blob, fileName } = await fetchDownloadFile(item.id, item.fileName);
      saveFile(blob, fileName);
    } catch {
      // end-user §8: the download toast.
      notifyError(text.downloadFailed);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap={2} align="flex-start">
      <Button size="xs" loading={busy} aria-label={`Download ${item.displayName}`} onClick={() => void save()}>
        Download
      </Button>
      <Text size="xs" c="dimmed">
        {formatFileSize(item.sizeInBytes)}
      </Text>
    </Stack>
  );
}

const columns: ListColumn<PublishedDownload>[] = [
  {
    key: 'displayName',
    header: 'Name',
    render: (row) => (
      <Stack gap={0}>
        <Text size="sm" fw={500}>
          {row.displayName}
        </Text>
        {row.name && (
          <Text size="xs" c="dimmed">
            {row.name}
          </Text>
        )}
      </Stack>
    ),
  },
  { key: 'description', header: 'Description', render: (row) => row.description ?? '' },
  {
    key: 'platform',
    header: 'Platform',
    render: (row) => (
      <Stack gap={0}>
        <Text size="sm">{[row.platform.os, row.platform.version].filter(Boolean).join(' ') || 'Any'}</Text>
        {row.platform.supportedVersions && (
          <Text size="xs" c="dimmed">
            Supported: {row.platform.supportedVersions}
          </Text>
        )}
      </Stack>
    ),
  },
  { key: 'version', header: 'Version', width: 110, render: (row) => row.version ?? '' },
  { key: 'download', header: 'Download', width: 200, render: (row) => <DownloadButton item={row} /> },
];

/**
 * /downloads (issue 13 §7; the spec names no route): the files the platform publishes for the organization (desktop
 * apps, print drivers). The list is short and answered whole, so search and paging happen here, the state in the URL.
 */
export function DownloadsPage() {
  usePageTitle('Downloads');
  const [state, setState] = useListState();
  const query = useQuery({ queryKey: downloadKeys.published(), queryFn: ({ signal }) => fetchPublishedDownloads(signal) });
  const search = state.search.trim().toLowerCase();
  const matching = (query.data ?? []).filter((row) => !search || [row.displayName, row.name, row.description, row.platform.os].some((v) => v?.toLowerCase().includes(search)));
  const ordered = state.sortDir === 'desc' ? [...matching].reverse() : matching;
  const page = ordered.slice((state.page - 1) * state.pageSize, state.page * state.pageSize);
  return (
    <ListPage
      title="Downloads"
      columns={columns}
      query={{ items: query.data ? page : undefined, totalCount: query.data ? matching.length : undefined, isLoading: query.isLoading, error: query.error }}
      state={state}
      onStateChange={setState}
      emptyText={search ? messages.emptyList : text.empty}
    />
  );
}
