import type { ReactNode } from 'react';
import { Alert, Center, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { ColumnFilter, type ColumnFilterDefinition } from './column-filter.tsx';
import { DateRangeFilter, type QuickRange } from './date-range-filter.tsx';
import { EmptyState } from './empty-state.tsx';
import { errorDetails } from './error-details.ts';
import { JumpToPage } from './jump-to-page.tsx';
import type { ListState, ListStatePatch } from './list-state.ts';
import { PageSizeSelect } from './page-size-select.tsx';
import { Pager } from './pager.tsx';
import { SearchBox } from './search-box.tsx';
import { SortableHeader } from './sortable-header.tsx';

export interface ListColumn<Row> {
  /** Field name, also the sort column (`col`) and the filter key (`filter_<key>`). */
  key: string;
  header: string;
  sortable?: boolean;
  /** Cell content; defaults to the row's `key` field as text. */
  render?: (row: Row) => ReactNode;
  filter?: ColumnFilterDefinition;
  /** Column width (px or a CSS length); with `fixedLayout` the columns without one share the rest. */
  width?: number | string;
  /** Shown in the header cell instead of the header text and filter (e.g. a select-all box, two filters). */
  headerContent?: ReactNode;
  /** Hidden below this breakpoint (lg: 1200 px), so the columns that matter keep room on a narrow window. */
  visibleFrom?: 'sm' | 'md' | 'lg' | 'xl';
}

export interface ListQueryResult<Row> {
  items: Row[] | undefined;
  totalCount: number | undefined;
  isLoading: boolean;
  error?: unknown;
  /** More rows match than totalCount says (the server stopped counting): the total shows as "N+". */
  totalCountCapped?: boolean;
}

export interface ListPageProps<Row> {
  title: string;
  columns: ListColumn<Row>[];
  query: ListQueryResult<Row>;
  state: ListState;
  onStateChange: (patch: ListStatePatch) => void;
  /** Row identity for React; defaults to the row's `id`. */
  rowKey?: (row: Row) => string | number;
  /** Toolbar buttons, e.g. "Add". */
  actions?: ReactNode;
  /** Filters shown beside the search box. */
  toolbar?: ReactNode;
  /** Shows the date range filter, with optional extra quick ranges. */
  dateRange?: boolean | { quickRanges: QuickRange[] };
  emptyText?: string;
  /** Fixed table layout: the table takes the page's width and cells cut their text instead of widening it. */
  fixedLayout?: boolean;
  /** The heading level of the title: 1 for a page, lower for a list inside a page (a tab of an edit page). */
  titleOrder?: 1 | 2 | 3 | 4;
  /** The search box's accessible name when it searches one field (the audits' "Username"). */
  searchLabel?: string;
  /** The search box's pause before it searches (SearchBox). */
  searchDebounceMs?: number;
}

const defaultRowKey = (row: unknown) => (row as { id: string | number }).id;

function defaultCell(row: unknown, key: string): ReactNode {
  const value = (row as Record<string, unknown>)[key];
  // Plain values only; a column holding objects or arrays must give its own render.
  if (typeof value === 'string' || typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  return '';
}

export function ListPage<Row>({
  title,
  columns,
  query,
  state,
  onStateChange,
  rowKey = defaultRowKey,
  actions,
  toolbar,
  dateRange,
  emptyText,
  fixedLayout = false,
  titleOrder = 1,
  searchLabel,
  searchDebounceMs,
}: ListPageProps<Row>) {
  const items = query.items ?? [];
  const totalCount = query.totalCount ?? 0;
  const totalPages = Math.ceil(totalCount / state.pageSize);
  const first = (state.page - 1) * state.pageSize + 1;

  const filterOf = (column: ListColumn<Row>) =>
    column.filter && (
      <ColumnFilter
        {...column.filter}
        label={column.header}
        value={state.filters[column.key] ?? null}
        onChange={(filter) => {
          const filters = { ...state.filters };
          if (filter) filters[column.key] = filter;
          else delete filters[column.key];
          onStateChange({ filters });
        }}
      />
    );

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={titleOrder}>{title}</Title>
        {actions && <Group gap="xs">{actions}</Group>}
      </Group>
      <Group align="flex-end">
        <SearchBox value={state.search} onChange={(search) => onStateChange({ search })} {...(searchLabel ? { label: searchLabel } : {})} {...(searchDebounceMs ? { debounceMs: searchDebounceMs } : {})} />
        {toolbar}
        {dateRange && (
          <DateRangeFilter
            value={{ startDate: state.startDate, endDate: state.endDate }}
            onChange={(range) => onStateChange(range)}
            quickRanges={typeof dateRange === 'object' ? dateRange.quickRanges : undefined}
          />
        )}
      </Group>
      {query.error ? <Alert color="red">{errorDetails(query.error).message}</Alert> : null}
      <Table.ScrollContainer minWidth={600}>
        <Table striped highlightOnHover layout={fixedLayout ? 'fixed' : undefined}>
          <Table.Thead>
            <Table.Tr>
              {columns.map((column) =>
                column.headerContent !== undefined ? (
                  <Table.Th key={column.key} w={column.width} visibleFrom={column.visibleFrom}>
                    {column.headerContent}
                  </Table.Th>
                ) : column.sortable ? (
                  <SortableHeader
                    key={column.key}
                    visibleFrom={column.visibleFrom}
                    column={column.key}
                    sortCol={state.sortCol}
                    sortDir={state.sortDir}
                    onSort={(sortCol, sortDir) => onStateChange({ sortCol, sortDir })}
                    rightSection={filterOf(column)}
                  >
                    {column.header}
                  </SortableHeader>
                ) : (
                  <Table.Th key={column.key} w={column.width} visibleFrom={column.visibleFrom}>
                    <Group gap={4} wrap="nowrap">
                      {column.header}
                      {filterOf(column)}
                    </Group>
                  </Table.Th>
                ),
              )}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((row) => (
              <Table.Tr key={rowKey(row)}>
                {columns.map((column) => (
                  <Table.Td key={column.key} visibleFrom={column.visibleFrom}>
                    {column.render ? column.render(row) : defaultCell(row, column.key)}
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {query.isLoading ? (
        <Center py="lg">
          <Loader aria-label="Loading" />
        </Center>
      ) : (
        items.length === 0 && !query.error && <EmptyState text={emptyText} />
      )}
      <Group justify="space-between" align="flex-end">
        <Group align="flex-end">
          <PageSizeSelect value={state.pageSize} onChange={(pageSize) => onStateChange({ pageSize })} />
          {totalCount > 0 && (
            <Text size="sm" c="dimmed">
              {first}–{Math.min(first + items.length - 1, totalCount)} of {query.totalCountCapped ? `${totalCount.toLocaleString('en-US')}+` : totalCount}
            </Text>
          )}
        </Group>
        {totalPages > 1 && (
          <Group align="flex-end">
            <Pager page={state.page} totalPages={totalPages} onChange={(page) => onStateChange({ page })} />
            <JumpToPage totalPages={totalPages} onChange={(page) => onStateChange({ page })} />
          </Group>
        )}
      </Group>
    </Stack>
  );
}
