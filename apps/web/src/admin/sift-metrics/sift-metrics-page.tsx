import { useState } from 'react';
import { Alert, Button, Center, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { formatIsoDate, parseTypedDate, todayIsoDate } from '@clinicrelay/contracts/dates.ts';
import { reportMessages as text, type SiftMetricRow } from '@clinicrelay/contracts/reports.ts';
import { fetchSiftMetrics, reportKeys } from '../../api/reports.ts';
import { usePageTitle } from '../../app/page-title.ts';
import { errorDetails } from '../../components/error-details.ts';
import { SortableHeader, type SortDir } from '../../components/sortable-header.tsx';
import { TypedDateInput } from '../../components/typed-date-input.tsx';

const dateTexts = { invalid: text.invalidDate, future: text.dateInFuture };
const percentColumns: [keyof SiftMetricRow, string][] = [
  ['noText', 'No Text'],
  ['error', 'Error'],
  ['noMatch', 'No Match'],
  ['conflicts', 'Conflicts'],
  ['perfectMatch', 'Perfect Match'],
  ['confidenceIsVeryHigh', 'Confidence Very High'],
  ['first', 'First'],
  ['middle', 'Middle'],
  ['last', 'Last'],
  ['dob', 'DOB'],
  ['gender', 'Gender'],
];
const percent = (value: number) => `${value.toFixed(1)}%`;

function defaultRange() {
  const end = new Date();
  const start = new Date(end);
  start.setMonth(start.getMonth() - 1);
  return { start: todayIsoDate(start), end: todayIsoDate(end) };
}

// back-office-a §2 "Sift metrics": patient extraction per tenant for a date range, sortable by tenant and count.
export function SiftMetricsPage() {
  usePageTitle('Sift metrics');
  const [range, setRange] = useState(defaultRange);
  const [typed, setTyped] = useState(() => ({ start: formatIsoDate(range.start), end: formatIsoDate(range.end) }));
  const [errors, setErrors] = useState<{ start?: string | null; end?: string | null }>({});
  const [sort, setSort] = useState<{ col: string; dir: SortDir }>({ col: 'tenant', dir: 'asc' });
  const query = useQuery({
    queryKey: reportKeys.sift(range.start, range.end, sort.col, sort.dir),
    queryFn: ({ signal }) => fetchSiftMetrics({ start: range.start, end: range.end, col: sort.col, sortDir: sort.dir }, signal),
  });
  const apply = () => {
    const start = parseTypedDate(typed.start);
    const end = parseTypedDate(typed.end);
    const next: { start: string | null; end: string | null } = { start: start ? null : text.invalidDate, end: end ? null : text.invalidDate };
    if (start && end && start > end) next.start = text.startAfterEnd;
    setErrors(next);
    if (start && end && !next.start && !next.end) setRange({ start, end });
  };
  const onSort = (col: string, dir: SortDir) => setSort({ col, dir });
  const rows = query.data ?? [];

  return (
    <Stack gap="md">
      <Title order={1}>Sift metrics</Title>
      <Group align="flex-end">
        <TypedDateInput label="Start Date" value={typed.start} onChange={(start) => setTyped((v) => ({ ...v, start }))} texts={dateTexts} onChecked={(start) => setErrors((e) => ({ ...e, start }))} error={errors.start} w={160} />
        <TypedDateInput label="End Date" value={typed.end} onChange={(end) => setTyped((v) => ({ ...v, end }))} texts={dateTexts} onChecked={(end) => setErrors((e) => ({ ...e, end }))} error={errors.end} w={160} />
        <Button onClick={apply}>Search</Button>
      </Group>
      {query.error ? (
        <Alert color="red">{errorDetails(query.error).message}</Alert>
      ) : query.isLoading ? (
        <Center p="xl">
          <Loader aria-label="Loading" />
        </Center>
      ) : rows.length === 0 ? (
        <Text c="dimmed">{text.noSiftMetrics}</Text>
      ) : (
        <Table.ScrollContainer minWidth={1100}>
          <Table striped highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <SortableHeader column="tenant" sortCol={sort.col} sortDir={sort.dir} onSort={onSort}>
                  Tenant
                </SortableHeader>
                <SortableHeader column="count" sortCol={sort.col} sortDir={sort.dir} onSort={onSort}>
                  Count
                </SortableHeader>
                <Table.Th>Average Elapsed (ms)</Table.Th>
                {percentColumns.map(([key, label]) => (
                  <Table.Th key={key}>{label}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => (
                <Table.Tr key={row.organizationId}>
                  <Table.Td>{row.id}</Table.Td>
                  <Table.Td>{row.count.toLocaleString()}</Table.Td>
                  <Table.Td>{Math.round(row.elapsed).toLocaleString()}</Table.Td>
                  {percentColumns.map(([key]) => (
                    <Table.Td key={key}>{percent(row[key] as number)}</Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
