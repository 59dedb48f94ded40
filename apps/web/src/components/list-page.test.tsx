import { Button } from '@mantine/core';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../test/render-with-providers.tsx';
import { type ListColumn, ListPage } from './list-page.tsx';
import { type ListState, useListState } from './list-state.ts';

interface Network {
  id: string;
  name: string;
  status: string;
}

const columns: ListColumn<Network>[] = [
  { key: 'name', header: 'Name', sortable: true, filter: { kind: 'text' } },
  { key: 'status', header: 'Status', render: (row) => <strong>{row.status}</strong> },
];

const everyNetwork: Network[] = Array.from({ length: 23 }, (_, index) => ({
  id: `n${index + 1}`,
  name: `Network ${String(index + 1).padStart(2, '0')}`,
  status: index % 2 ? 'Active' : 'Inactive',
}));

// Stands in for the server: search, sort and paging over a fixed list, as the API would.
function fakeQuery(state: ListState, all: Network[]) {
  const nameFilter = state.filters.name;
  const matching = all.filter(
    (row) =>
      row.name.toLowerCase().includes(state.search.toLowerCase()) &&
      (!nameFilter || (nameFilter.operator === 'equals' ? row.name === nameFilter.value : row.name.includes(nameFilter.value))),
  );
  const sorted = state.sortCol === 'name' && state.sortDir === 'desc' ? [...matching].reverse() : matching;
  const start = (state.page - 1) * state.pageSize;
  return { items: sorted.slice(start, start + state.pageSize), totalCount: matching.length, isLoading: false };
}

function NetworksPage({ all = everyNetwork }: { all?: Network[] }) {
  const [state, setState] = useListState({ sortCol: 'name' });
  return (
    <ListPage
      title="Networks"
      columns={columns}
      query={fakeQuery(state, all)}
      state={state}
      onStateChange={setState}
      actions={<Button>Add</Button>}
    />
  );
}

const rowNames = () =>
  screen
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[0]?.textContent);

describe('ListPage', () => {
  it('shows the title, toolbar, rows and the first page of 10', () => {
    renderWithProviders(<NetworksPage />);
    expect(screen.getByRole('heading', { name: 'Networks' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Add' })).toBeTruthy();
    expect(screen.getByLabelText('Items per page')).toHaveProperty('value', '10');
    expect(rowNames()).toHaveLength(10);
    expect(rowNames()[0]).toBe('Network 01');
    expect(screen.getAllByText('Inactive')[0]?.tagName).toBe('STRONG');
    expect(screen.getByText('1–10 of 23')).toBeTruthy();
  });

  it('shows the empty text and no pager when nothing matches', () => {
    renderWithProviders(<NetworksPage all={[]} />);
    expect(screen.getByText('There are no results matching your criteria.')).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).toBeNull();
    expect(screen.queryByLabelText('Go to page')).toBeNull();
  });

  it('shows the pager and jump box only when there is more than one page', async () => {
    const user = userEvent.setup();
    renderWithProviders(<NetworksPage />);
    const pager = screen.getByRole('navigation', { name: 'Pagination' });
    expect(within(pager).getByRole('button', { name: '3' })).toBeTruthy();
    expect(screen.getByLabelText('Go to page')).toBeTruthy();

    await user.click(within(pager).getByRole('button', { name: '3' }));
    expect(rowNames()).toEqual(['Network 21', 'Network 22', 'Network 23']);

    await user.selectOptions(screen.getByLabelText('Items per page'), '25');
    expect(rowNames()).toHaveLength(23);
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).toBeNull();
  });

  it('sorts by a header and searches after typing stops, back on page 1', async () => {
    const user = userEvent.setup();
    renderWithProviders(<NetworksPage />);
    await user.click(screen.getByRole('button', { name: '2' }));

    await user.click(screen.getByRole('button', { name: 'Name' }));
    expect(screen.getByRole('columnheader', { name: /Name/ }).getAttribute('aria-sort')).toBe('descending');
    expect(rowNames()[0]).toBe('Network 13');

    await user.type(screen.getByRole('searchbox', { name: 'Search' }), '1');
    await waitFor(() => expect(rowNames()).toHaveLength(10));
    await waitFor(() => expect(screen.getByText('1–10 of 12')).toBeTruthy());
    expect(rowNames()[0]).toBe('Network 21');
  });

  it('filters a column through its filter button', async () => {
    const user = userEvent.setup();
    renderWithProviders(<NetworksPage />);
    await user.click(screen.getByRole('button', { name: 'Filter Name' }));
    await user.type(screen.getByLabelText('Value'), '07');
    await user.click(screen.getByRole('button', { name: 'Filter' }));
    expect(rowNames()).toEqual(['Network 07']);
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Filter Name' }));
    await user.click(screen.getByRole('button', { name: 'Clear' }));
    expect(rowNames()).toHaveLength(10);
  });

  it('shows a loader while loading and the error message when the call fails', () => {
    const state = { search: '', sortCol: null, sortDir: 'asc', page: 1, pageSize: 10, filters: {}, startDate: null, endDate: null } as const;
    const { rerender } = renderWithProviders(
      <ListPage title="Networks" columns={columns} query={{ items: undefined, totalCount: undefined, isLoading: true }} state={{ ...state }} onStateChange={() => {}} />,
    );
    expect(screen.getByLabelText('Loading')).toBeTruthy();
    expect(screen.queryByText('There are no results matching your criteria.')).toBeNull();

    rerender(
      <ListPage
        title="Networks"
        columns={columns}
        query={{ items: undefined, totalCount: undefined, isLoading: false, error: new Error('You are not authorized to view this resource.') }}
        state={{ ...state }}
        onStateChange={() => {}}
      />,
    );
    expect(screen.getByRole('alert').textContent).toContain('You are not authorized to view this resource.');
  });

  it('offers the date range filter when asked', async () => {
    const user = userEvent.setup();
    function DatedPage() {
      const [state, setState] = useListState();
      return (
        <ListPage title="Activity" columns={columns} query={fakeQuery(state, [])} state={state} onStateChange={setState} dateRange />
      );
    }
    renderWithProviders(<DatedPage />);
    await user.click(screen.getByRole('button', { name: 'Today' }));
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Start date' }).value).toMatch(/\d\d\/\d\d\/\d{4}/);
  });
});
