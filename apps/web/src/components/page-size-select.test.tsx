import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test/render-with-providers.tsx';
import { PageSizeSelect } from './page-size-select.tsx';

describe('PageSizeSelect', () => {
  it('offers 10, 25, 50 and 100 items per page, 10 by default', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    renderWithProviders(<PageSizeSelect onChange={onChange} />);
    const select = screen.getByLabelText('Items per page');
    expect(select).toHaveProperty('value', '10');
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual(['10', '25', '50', '100']);

    await user.selectOptions(select, '50');
    expect(onChange).toHaveBeenCalledWith(50);
  });
});
