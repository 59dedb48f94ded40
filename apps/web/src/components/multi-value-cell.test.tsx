import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../test/render-with-providers.tsx';
import { MultiValueCell } from './multi-value-cell.tsx';

describe('MultiValueCell', () => {
  it('shows the first 3 values and the rest as "+ 2 more", listing all on click', async () => {
    const user = userEvent.setup();
    renderWithProviders(<MultiValueCell values={['Ann', 'Bob', 'Cy', 'Dee', 'Eve']} />);
    expect(screen.getByText('Ann, Bob, Cy')).toBeTruthy();
    expect(screen.queryByText('Dee')).toBeNull();

    await user.click(screen.getByRole('button', { name: '+ 2 more' }));
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual(['Ann', 'Bob', 'Cy', 'Dee', 'Eve']);
  });

  it('shows up to 3 values without a "more" link', () => {
    renderWithProviders(<MultiValueCell values={['Ann', 'Bob', 'Cy']} />);
    expect(screen.getByText('Ann, Bob, Cy')).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
  });
});
