import { useState } from 'react';
import { Alert, Center, Group, Loader, Modal, MultiSelect, Stack, Table, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { ACTIVITY_PAGE_SIZE, activityMessages, auditList, auditType } from '@clinicrelay/contracts/audit.ts';
import { DIALOG_WIDTH_PX } from '@clinicrelay/contracts/constants.ts';
import { apiFetch } from '../api/client.ts';
import { DateRangeFilter, type DateRange } from './date-range-filter.tsx';
import { EmptyState } from './empty-state.tsx';
import { errorDetails } from './error-details.ts';
import { formatDateTime } from './format.ts';
import { Pager } from './pager.tsx';

// Shared by Release (view page) and Intake (row dropdown); Administrator only (end-user §2).
export const auditKeys = {
  all: ['audit'] as const,
  types: () => [...auditKeys.all, 'types'] as const,
  message: (messageId: string, filter: ActivityFilter) => [...auditKeys.all, 'message', messageId, filter] as const,
};

interface ActivityFilter extends DateRange {
  eventTypes: string[];
  page: number;
}

const useAuditTypes = () =>
  useQuery({
    queryKey: auditKeys.types(),
    queryFn: ({ signal }) => apiFetch('/api/audit/types', { schema: z.array(auditType), signal }),
    staleTime: Infinity,
  });

function activityPath(messageId: string, filter: ActivityFilter) {
  const params = new URLSearchParams({ pageStart: String(filter.page), pageSize: String(ACTIVITY_PAGE_SIZE) });
  if (filter.eventTypes.length > 0) params.set('eventTypes', filter.eventTypes.join(','));
  if (filter.startDate) params.set('startDate', filter.startDate);
  if (filter.endDate) params.set('endDate', filter.endDate);
  return `/api/audit/message/${encodeURIComponent(messageId)}?${params.toString()}`;
}

export interface MessageActivityModalProps {
  opened: boolean;
  onClose: () => void;
  messageId: string;
}

/** Message Activity: who did what to a message and when, filtered by activity type and dates. */
export function MessageActivityModal({ opened, onClose, messageId }: MessageActivityModalProps) {
  return (
    <Modal opened={opened} onClose={onClose} title="Message Activity" size={DIALOG_WIDTH_PX}>
      {/* Mounted only while open: queries run only then, and each opening starts unfiltered. */}
      {opened && <ActivityTable messageId={messageId} />}
    </Modal>
  );
}

function ActivityTable({ messageId }: { messageId: string }) {
  const [filter, setFilter] = useState<ActivityFilter>({ eventTypes: [], startDate: null, endDate: null, page: 1 });
  const types = useAuditTypes();
  const activity = useQuery({
    queryKey: auditKeys.message(messageId, filter),
    queryFn: ({ signal }) => apiFetch(activityPath(messageId, filter), { schema: auditList, signal }),
    placeholderData: keepPreviousData,
  });

  const typeName = (eventType: string) => types.data?.find((t) => t.eventType === eventType)?.name ?? eventType;
  const items = activity.data?.items ?? [];
  const totalPages = Math.ceil((activity.data?.totalCount ?? 0) / ACTIVITY_PAGE_SIZE);

  return (
    <Stack>
      <Group align="flex-end">
        <MultiSelect
          label="Activity type"
          placeholder={filter.eventTypes.length === 0 ? 'All activity' : undefined}
          data={(types.data ?? []).map((t) => ({ value: t.eventType, label: t.name }))}
          value={filter.eventTypes}
          onChange={(eventTypes) => setFilter((previous) => ({ ...previous, eventTypes, page: 1 }))}
          clearable
          searchable
          w={220}
        />
        <DateRangeFilter
          value={{ startDate: filter.startDate, endDate: filter.endDate }}
          onChange={(range) => setFilter((previous) => ({ ...previous, ...range, page: 1 }))}
        />
      </Group>
      {activity.error ? <Alert color="red">{errorDetails(activity.error).message}</Alert> : null}
      <Table striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>User</Table.Th>
            <Table.Th>Type</Table.Th>
            <Table.Th>Date</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((entry) => (
            <Table.Tr key={entry.id}>
              <Table.Td>{entry.createdBy ?? <Text c="dimmed">System</Text>}</Table.Td>
              <Table.Td>{typeName(entry.eventType)}</Table.Td>
              <Table.Td>{formatDateTime(entry.createdOn)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {activity.isLoading ? (
        <Center py="lg">
          <Loader aria-label="Loading activity" />
        </Center>
      ) : (
        items.length === 0 && !activity.error && <EmptyState text={activityMessages.empty} />
      )}
      <Pager page={filter.page} totalPages={totalPages} onChange={(page) => setFilter((previous) => ({ ...previous, page }))} />
    </Stack>
  );
}
