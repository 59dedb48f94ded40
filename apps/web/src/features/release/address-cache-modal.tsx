import { useMemo, useState } from 'react';
import { ActionIcon, Alert, Button, Center, Group, Loader, Modal, Stack, Table } from '@mantine/core';
import type { z } from 'zod';
import { releaseMessages, type cachedAddress } from '@clinicrelay/contracts/messages.ts';
import { EmptyState } from '../../components/empty-state.tsx';
import { errorDetails } from '../../components/error-details.ts';
import { formatDateTime } from '../../components/format.ts';
import { notifySuccess } from '../../components/notify.ts';
import { Pager } from '../../components/pager.tsx';
import { SortableHeader, type SortDir } from '../../components/sortable-header.tsx';
import { useAddressCache, useSaveAddressCache } from './api.ts';

type CachedAddress = z.infer<typeof cachedAddress>;
type SortColumn = 'address' | 'lastUsedAt' | 'useCount';

const PAGE_SIZE = 5;

// end-user §2 "Release screens": the modal's two empty texts.
export const addressCacheTexts = {
  empty: 'There are no direct addresses being saved at the moment.',
  allRemoved: 'All direct addresses will be removed from cache.',
} as const;

function compare(a: CachedAddress, b: CachedAddress, column: SortColumn): number {
  if (column === 'useCount') return a.useCount - b.useCount;
  if (column === 'lastUsedAt') return a.lastUsedAt.localeCompare(b.lastUsedAt);
  return a.address.localeCompare(b.address);
}

export interface AddressCacheModalProps {
  opened: boolean;
  onClose: () => void;
}

/** Saved Direct addresses (the To field's suggestions): remove some or all, then Save Changes. */
export function AddressCacheModal({ opened, onClose }: AddressCacheModalProps) {
  return (
    <Modal opened={opened} onClose={onClose} title="Saved Direct addresses" size="lg">
      {opened && <AddressCacheEditor onClose={onClose} />}
    </Modal>
  );
}

function AddressCacheEditor({ onClose }: { onClose: () => void }) {
  const cache = useAddressCache();
  const save = useSaveAddressCache();
  // Addresses the user removed; nothing leaves the cache until Save Changes.
  const [removed, setRemoved] = useState<ReadonlySet<string>>(new Set());
  const [sortCol, setSortCol] = useState<SortColumn>('lastUsedAt');
  const [sortDir, setSortDir] = useState<SortDir>('desc');
  const [page, setPage] = useState(1);
  const [error, setError] = useState<string | null>(null);

  const all = useMemo(() => cache.data ?? [], [cache.data]);
  const pending = useMemo(() => {
    const kept = all.filter((entry) => !removed.has(entry.address));
    const sign = sortDir === 'asc' ? 1 : -1;
    return kept.sort((a, b) => sign * compare(a, b, sortCol));
  }, [all, removed, sortCol, sortDir]);

  const totalPages = Math.max(1, Math.ceil(pending.length / PAGE_SIZE));
  const currentPage = Math.min(page, totalPages);
  const rows = pending.slice((currentPage - 1) * PAGE_SIZE, currentPage * PAGE_SIZE);

  const sort = (column: string, dir: SortDir) => {
    setSortCol(column as SortColumn);
    setSortDir(dir);
    setPage(1);
  };

  const saveChanges = async () => {
    setError(null);
    try {
      await save.mutateAsync(pending.map((entry) => entry.address));
      notifySuccess(releaseMessages.cacheSaved);
      onClose();
    } catch (failure) {
      setError(errorDetails(failure).message);
    }
  };

  if (cache.isPending) {
    return (
      <Center py="lg">
        <Loader aria-label="Loading saved addresses" />
      </Center>
    );
  }
  if (cache.error) return <Alert color="red">{errorDetails(cache.error).message}</Alert>;

  const header = (column: SortColumn, label: string) => (
    <SortableHeader column={column} sortCol={sortCol} sortDir={sortDir} onSort={sort}>
      {label}
    </SortableHeader>
  );

  return (
    <Stack>
      {error && <Alert color="red">{error}</Alert>}
      {pending.length === 0 ? (
        <EmptyState text={all.length === 0 ? addressCacheTexts.empty : addressCacheTexts.allRemoved} />
      ) : (
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              {header('address', 'Address')}
              {header('lastUsedAt', 'Last used')}
              {header('useCount', 'Uses')}
              <Table.Th aria-label="Actions" />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((entry) => (
              <Table.Tr key={entry.address}>
                <Table.Td style={{ wordBreak: 'break-all' }}>{entry.address}</Table.Td>
                <Table.Td>{formatDateTime(entry.lastUsedAt)}</Table.Td>
                <Table.Td>{entry.useCount}</Table.Td>
                <Table.Td>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={`Remove ${entry.address}`}
                    onClick={() => setRemoved((previous) => new Set(previous).add(entry.address))}
                  >
                    ✕
                  </ActionIcon>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Group justify="space-between">
        <Pager page={currentPage} totalPages={totalPages} onChange={setPage} />
        <span />
      </Group>
      <Group justify="space-between">
        <Button
          variant="default"
          color="red"
          disabled={pending.length === 0}
          onClick={() => setRemoved(new Set(all.map((entry) => entry.address)))}
        >
          Clear All
        </Button>
        <Group>
          <Button variant="default" onClick={onClose} disabled={save.isPending}>
            Cancel
          </Button>
          <Button onClick={() => void saveChanges()} disabled={removed.size === 0} loading={save.isPending}>
            Save Changes
          </Button>
        </Group>
      </Group>
    </Stack>
  );
}
