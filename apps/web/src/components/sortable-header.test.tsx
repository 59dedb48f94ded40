import { Table } from '@mantine/core';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../test/render-with-providers.tsx';
import { SortableHeader, type SortDir } from './sortable-header.tsx';

function Harness() {
  const [sort, setSort] = useState<{ col: string | null; dir: SortDir }>({ col: null, dir: 'asc' });
  const header = (column: string, label: string) => (
    <SortableHeader column={column} sortCol={sort.col} sortDir={sort.dir} onSort={(col, dir) => setSort({ col, dir })}>
      {label}
    </SortableHeader>
  );
  return (
    <Table>
      <Table.Thead>
        <Table.Tr>
          {header('name', 'Name')}
          {header('date', 'Date')}
        </Table.Tr>
      </Table.Thead>
    </Table>
  );
}

describe('SortableHeader', () => {
  it('sorts ascending on the first click, descending on the second, and marks the column', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Harness />);
    const name = screen.getByRole('columnheader', { name: /Name/ });
    const date = screen.getByRole('columnheader', { name: /Date/ });
    expect(name.getAttribute('aria-sort')).toBe('none');

    await user.click(screen.getByRole('button', { name: /Name/ }));
    expect(name.getAttribute('aria-sort')).toBe('ascending');
    expect(name.textContent).toContain('▲');

    await user.click(screen.getByRole('button', { name: /Name/ }));
    expect(name.getAttribute('aria-sort')).toBe('descending');
    expect(name.textContent).toContain('▼');

    await user.click(screen.getByRole('button', { name: /Date/ }));
    expect(date.getAttribute('aria-sort')).toBe('ascending');
    expect(name.getAttribute('aria-sort')).toBe('none');
  });
});
