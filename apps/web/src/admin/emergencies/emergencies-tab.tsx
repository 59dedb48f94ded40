import { useCallback, useState } from 'react';
import { ActionIcon, Badge, Button, Group, Tooltip } from '@mantine/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { EMERGENCY_LIST_NAME_CHARS, emergencyMessages as text, formatDisabledDate, type Emergency, type EmergencyStatus } from '@clinicrelay/contracts/emergencies.ts';
import { disableEmergency, emergencyKeys, enableEmergency, fetchEmergencies } from '../../api/emergencies.ts';
import { ListPage, type ListColumn } from '../../components/list-page.tsx';
import { useListState } from '../../components/list-state.ts';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { TruncatedText } from '../../components/truncated-text.tsx';
import { EmergencyModal } from './emergency-modal.tsx';
import { failedWith } from './failed-with.ts';

// §4: the server's isDisabled (the date reached) decides Disabled; a date not reached yet is a pending disable.
const statusOf = (row: Emergency): EmergencyStatus => (row.isDisabled ? 'Disabled' : row.disabledDate ? 'Pending disable' : 'Active');
const STATUS_COLORS: Record<EmergencyStatus, string> = { Active: 'green', 'Pending disable': 'yellow', Disabled: 'gray' };

function StatusBadge({ row }: { row: Emergency }) {
  const status = statusOf(row);
  const badge = (
    <Badge color={STATUS_COLORS[status]} variant="light" autoContrast>
      {status}
    </Badge>
  );
  return status === 'Pending disable' ? (
    <Tooltip label={text.pendingDisable} multiline maw={320} withArrow>
      <span>{badge}</span>
    </Tooltip>
  ) : (
    badge
  );
}

/** The Emergencies tab: name (cut at 30 characters, §9), disabled date (MM/dd/yy), status, edit and enable/disable. */
export function EmergenciesTab() {
  const [state, setState] = useListState();
  const queryClient = useQueryClient();
  const list = useQuery({
    queryKey: [...emergencyKeys, 'list', state],
    queryFn: ({ signal }) => fetchEmergencies(state, signal).catch(failedWith(text.loadFailed)),
    placeholderData: keepPreviousData,
  });
  const [editing, setEditing] = useState<{ id: string | null } | null>(null);
  const closeModal = useCallback(() => setEditing(null), []);
  const toggle = useMutation({
    mutationFn: ({ row, enable }: { row: Emergency; enable: boolean }) => (enable ? enableEmergency(row.id) : disableEmergency(row.id)),
    onSuccess: async (_saved, { enable }) => {
      notifySuccess(enable ? text.enabled : text.disabled);
      await queryClient.invalidateQueries({ queryKey: emergencyKeys });
    },
    onError: (_error, { enable }) => notifyError(enable ? text.enableFailed : text.disableFailed),
  });

  const columns: ListColumn<Emergency>[] = [
    { key: 'name', header: 'Name', render: (row) => <TruncatedText text={row.name} maxChars={EMERGENCY_LIST_NAME_CHARS} size="sm" /> },
    { key: 'disabledDate', header: 'Disabled date', width: 140, render: (row) => formatDisabledDate(row.disabledDate) },
    { key: 'status', header: 'Status', width: 170, render: (row) => <StatusBadge row={row} /> },
    {
      key: 'actions',
      header: 'Actions',
      width: 150,
      render: (row) => {
        // A pending disable can still be disabled now (§4).
        const enable = row.isDisabled;
        const busy = toggle.isPending && toggle.variables?.row.id === row.id;
        return (
          <Group gap={4} wrap="nowrap">
            <Tooltip label="Edit" withArrow>
              <ActionIcon variant="subtle" aria-label={`Edit ${row.name}`} onClick={() => setEditing({ id: row.id })}>
                <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
                  <path d="M12 20h9" />
                  <path d="M16.5 3.5a2.121 2.121 0 0 1 3 3L7 19l-4 1 1-4Z" />
                </svg>
              </ActionIcon>
            </Tooltip>
            <Button size="compact-sm" variant="light" color={enable ? 'green' : 'red'} loading={busy} aria-label={`${enable ? 'Enable' : 'Disable'} ${row.name}`} onClick={() => toggle.mutate({ row, enable })}>
              {enable ? 'Enable' : 'Disable'}
            </Button>
          </Group>
        );
      },
    },
  ];

  return (
    <>
      <ListPage
        title="Emergencies"
        titleOrder={2}
        fixedLayout
        columns={columns}
        query={{ items: list.data?.items, totalCount: list.data?.totalCount, isLoading: list.isLoading, error: list.error }}
        state={state}
        onStateChange={setState}
        actions={<Button onClick={() => setEditing({ id: null })}>Add emergency</Button>}
      />
      <EmergencyModal editing={editing} onClose={closeModal} />
    </>
  );
}
