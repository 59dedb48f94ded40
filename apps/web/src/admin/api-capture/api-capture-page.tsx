import { Fragment, useState } from 'react';
import { ActionIcon, Alert, Badge, Center, Group, Loader, NativeSelect, Select, Stack, Table, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useSearchParams } from 'react-router';
import { API_CAPTURE_PAGE_SIZE, apiCaptureMessages, apiCaptureMethods } from '@clinicrelay/contracts/api-capture.ts';
import { organizationKeys, fetchOrganizations } from '../../api/organizations.ts';
import { fetchNetworks, networkKeys } from '../../api/networks.ts';
import { usePageTitle } from '../../app/page-title.ts';
import { EmptyState } from '../../components/empty-state.tsx';
import { errorDetails } from '../../components/error-details.ts';
import type { ListState } from '../../components/list-state.ts';
import { PageSizeSelect } from '../../components/page-size-select.tsx';
import { Pager } from '../../components/pager.tsx';
import { SearchBox } from '../../components/search-box.tsx';
import { apiCaptureKeys, fetchCaptures, type CaptureFilters } from './api.ts';
import { CaptureRecord } from './capture-record.tsx';

const LOCAL_MINUTE = 'YYYY-MM-DDTHH:mm';
// The organization and network choices: the first 100 by name (a platform has more organizations than a menu holds;
// search narrows the list by tenant name too).
const CHOICES: ListState = { search: '', sortCol: null, sortDir: 'asc', page: 1, pageSize: 100, filters: {}, startDate: null, endDate: null };

const statusColor = (status: number | undefined) => (!status ? 'gray' : status >= 500 ? 'red' : status >= 400 ? 'orange' : 'teal');

/** The filters from the URL: back-office-b §9, page size 20 and the last day by default, sortDir '1' newest first. */
function useFilters(): [CaptureFilters, (patch: Partial<CaptureFilters>) => void] {
  const [params, setParams] = useSearchParams();
  const [defaults] = useState(() => ({ end: dayjs().add(1, 'minute').format(LOCAL_MINUTE), start: dayjs().subtract(1, 'day').format(LOCAL_MINUTE) }));
  const filters: CaptureFilters = {
    start: params.get('start') || defaults.start,
    end: params.get('end') || defaults.end,
    search: params.get('search') ?? '',
    tenantId: params.get('tenantId'),
    networkId: params.get('networkId'),
    statusCode: params.get('statusCode'),
    method: params.get('method'),
    sortDir: params.get('sortDir') === '0' ? '0' : '1',
    pageNumber: Math.max(1, Number(params.get('page')) || 1),
    pageSize: Number(params.get('size')) || API_CAPTURE_PAGE_SIZE,
  };
  const update = (patch: Partial<CaptureFilters>) => {
    const next = { ...filters, pageNumber: 1, ...patch };
    const out = new URLSearchParams();
    const put = (key: string, value: string | null | undefined, fallback?: string) => value && value !== fallback && out.set(key, value);
    put('start', next.start, defaults.start);
    put('end', next.end, defaults.end);
    put('search', next.search);
    put('tenantId', next.tenantId);
    put('networkId', next.networkId);
    put('statusCode', next.statusCode);
    put('method', next.method);
    put('sortDir', next.sortDir, '1');
    put('page', String(next.pageNumber), '1');
    put('size', String(next.pageSize), String(API_CAPTURE_PAGE_SIZE));
    setParams(out, { replace: true });
  };
  return [filters, update];
}

/** /admin/apicapture (back-office-b §2): the API capture log of the organizations whose capture is on. */
export function ApiCapturePage() {
  usePageTitle('API capture');
  const [filters, update] = useFilters();
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const validRange = dayjs(filters.start).isValid() && dayjs(filters.end).isValid();
  const captures = useQuery({
    queryKey: apiCaptureKeys.page(filters),
    queryFn: ({ signal }) => fetchCaptures(filters, signal),
    enabled: validRange,
    placeholderData: keepPreviousData,
  });
  const tenants = useQuery({ queryKey: [...organizationKeys.all, 'capture-choices'], queryFn: ({ signal }) => fetchOrganizations(CHOICES, false, signal), staleTime: 60_000 });
  const networks = useQuery({ queryKey: [...networkKeys.all, 'capture-choices'], queryFn: ({ signal }) => fetchNetworks(CHOICES, signal), staleTime: 60_000 });
  const items = captures.data?.items ?? [];
  const totalCount = captures.data?.totalCount ?? 0;
  const totalPages = Math.ceil(totalCount / filters.pageSize);
  const toggle = (id: string) =>
    setOpen((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <Stack>
      <Title order={1}>API capture</Title>
      <Text size="sm" c="dimmed">
        Calls of organizations whose API capture is on, newest first. Passwords, tokens, secrets, one-time codes, credential headers and file contents are never stored.
      </Text>
      <Group align="flex-end" wrap="wrap">
        <SearchBox value={filters.search} onChange={(search) => update({ search })} />
        <TextInput type="datetime-local" label="From" step={60} value={filters.start} onChange={(e) => update({ start: e.currentTarget.value })} w={210} />
        <TextInput type="datetime-local" label="To" step={60} value={filters.end} onChange={(e) => update({ end: e.currentTarget.value })} w={210} />
        <Select
          label="Tenant"
          placeholder="All tenants"
          clearable
          searchable
          data={(tenants.data?.items ?? []).map((o) => ({ value: o.id, label: o.name }))}
          value={filters.tenantId}
          onChange={(tenantId) => update({ tenantId })}
          w={220}
        />
        <Select
          label="Network"
          placeholder="All networks"
          clearable
          data={(networks.data?.items ?? []).map((n) => ({ value: n.id, label: n.name }))}
          value={filters.networkId}
          onChange={(networkId) => update({ networkId })}
          w={200}
        />
        <TextInput
          label="Status code"
          inputMode="numeric"
          maxLength={3}
          value={filters.statusCode ?? ''}
          onChange={(e) => update({ statusCode: /^\d{3}$/.test(e.currentTarget.value) ? e.currentTarget.value : e.currentTarget.value === '' ? null : filters.statusCode })}
          w={110}
        />
        <NativeSelect label="Method" data={[{ value: '', label: 'All' }, ...apiCaptureMethods.map((m) => ({ value: m, label: m }))]} value={filters.method ?? ''} onChange={(e) => update({ method: e.currentTarget.value || null })} w={110} />
        <NativeSelect
          label="Order"
          data={[
            { value: '1', label: 'Newest first' },
            { value: '0', label: 'Oldest first' },
          ]}
          value={filters.sortDir}
          onChange={(e) => update({ sortDir: e.currentTarget.value === '0' ? '0' : '1' })}
          w={140}
        />
      </Group>
      {!validRange && <Alert color="orange">Choose a start and an end.</Alert>}
      {captures.error ? <Alert color="red">{errorDetails(captures.error).message || apiCaptureMessages.loadFailed}</Alert> : null}
      <Table.ScrollContainer minWidth={800}>
        <Table striped highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={40}>
                <VisuallyHidden>Expand</VisuallyHidden>
              </Table.Th>
              <Table.Th>Date</Table.Th>
              <Table.Th>Method</Table.Th>
              <Table.Th>URL</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Tenant</Table.Th>
              <Table.Th>Network</Table.Th>
              <Table.Th>User</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((record) => {
              const expanded = open.has(record.id);
              const { request, response } = record.value;
              return (
                <Fragment key={record.id}>
                  <Table.Tr>
                    <Table.Td>
                      <ActionIcon
                        variant="subtle"
                        aria-expanded={expanded}
                        aria-label={`${expanded ? 'Hide' : 'Show'} request and response of ${request.method ?? ''} ${request.url ?? ''}`}
                        onClick={() => toggle(record.id)}
                      >
                        {expanded ? '▾' : '▸'}
                      </ActionIcon>
                    </Table.Td>
                    <Table.Td>{dayjs(record.date).format('MM/DD/YY HH:mm:ss')}</Table.Td>
                    <Table.Td>{request.method}</Table.Td>
                    <Table.Td style={{ wordBreak: 'break-all' }}>{request.url}</Table.Td>
                    <Table.Td>
                      <Badge color={statusColor(response.status)} variant="light">
                        {response.status}
                      </Badge>
                    </Table.Td>
                    <Table.Td>{record.tenantName}</Table.Td>
                    <Table.Td>{record.networkName}</Table.Td>
                    <Table.Td>{record.userName}</Table.Td>
                  </Table.Tr>
                  {expanded && (
                    <Table.Tr>
                      <Table.Td colSpan={8}>
                        <CaptureRecord record={record} />
                      </Table.Td>
                    </Table.Tr>
                  )}
                </Fragment>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {captures.isLoading ? (
        <Center py="lg">
          <Loader aria-label="Loading" />
        </Center>
      ) : (
        items.length === 0 && !captures.error && <EmptyState text={apiCaptureMessages.empty} />
      )}
      <Group justify="space-between" align="flex-end">
        <Group align="flex-end">
          <PageSizeSelect value={filters.pageSize} onChange={(pageSize) => update({ pageSize })} />
          {totalCount > 0 && (
            <Text size="sm" c="dimmed">
              {(filters.pageNumber - 1) * filters.pageSize + 1}–{(filters.pageNumber - 1) * filters.pageSize + items.length} of {totalCount}
            </Text>
          )}
        </Group>
        {totalPages > 1 && <Pager page={filters.pageNumber} totalPages={totalPages} onChange={(pageNumber) => update({ pageNumber })} />}
      </Group>
    </Stack>
  );
}
