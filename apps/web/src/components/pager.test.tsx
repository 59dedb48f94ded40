import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test/render-with-providers.tsx';
import { Pager } from './pager.tsx';

const pageNumbers = () =>
  screen
    .getAllByRole('button')
    .map((button) => button.textContent ?? '')
    .filter((text) => /^\d+$/.test(text));

function Harness({ totalPages, initialPage = 1 }: { totalPages: number; initialPage?: number }) {
  const [page, setPage] = useState(initialPage);
  return <Pager page={page} totalPages={totalPages} onChange={setPage} />;
}

describe('Pager', () => {
  it('is not shown when everything fits on one page', () => {
    renderWithProviders(<Pager page={1} totalPages={1} onChange={vi.fn()} />);
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).toBeNull();
    expect(screen.queryAllByRole('button')).toHaveLength(0);
  });

  it('shows 5 pages at a time, moving the window with the current page', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Harness totalPages={12} />);
    expect(pageNumbers()).toEqual(['1', '2', '3', '4', '5']);
    expect(screen.getByRole('button', { name: '1' }).getAttribute('aria-current')).toBe('page');
    expect(screen.getByRole('button', { name: 'Previous page' })).toHaveProperty('disabled', true);

    await user.click(screen.getByRole('button', { name: '5' }));
    expect(pageNumbers()).toEqual(['3', '4', '5', '6', '7']);

    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(pageNumbers()).toEqual(['4', '5', '6', '7', '8']);
    expect(screen.getByRole('button', { name: '6' }).getAttribute('aria-current')).toBe('page');

    await user.click(screen.getByRole('button', { name: 'Last page' }));
    expect(pageNumbers()).toEqual(['8', '9', '10', '11', '12']);
    expect(screen.getByRole('button', { name: 'Next page' })).toHaveProperty('disabled', true);

    await user.click(screen.getByRole('button', { name: 'Previous page' }));
    expect(pageNumbers()).toEqual(['8', '9', '10', '11', '12']);
    expect(screen.getByRole('button', { name: '11' }).getAttribute('aria-current')).toBe('page');

    await user.click(screen.getByRole('button', { name: 'First page' }));
    expect(pageNumbers()).toEqual(['1', '2', '3', '4', '5']);
  });

  it('shows every page when there are fewer than 5', () => {
    renderWithProviders(<Harness totalPages={3} initialPage={2} />);
    expect(pageNumbers()).toEqual(['1', '2', '3']);
  });
});
