import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test/render-with-providers.tsx';
import { ColumnFilter } from './column-filter.tsx';

describe('ColumnFilter', () => {
  it('filters a text column with the chosen operator', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    renderWithProviders(<ColumnFilter kind="text" label="Patient" value={null} onChange={onChange} />);

    await user.click(screen.getByRole('button', { name: 'Filter Patient' }));
    expect(screen.getByLabelText('Operator')).toHaveProperty('value', 'contains');
    await user.selectOptions(screen.getByLabelText('Operator'), 'Equals');
    await user.type(screen.getByLabelText('Value'), 'Jane Roe');
    await user.click(screen.getByRole('button', { name: 'Filter' }));

    expect(onChange).toHaveBeenCalledExactlyOnceWith({ value: 'Jane Roe', operator: 'equals' });
    expect(screen.queryByLabelText('Value')).toBeNull();
  });

  it('shows the current filter when reopened and removes it with Clear', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    renderWithProviders(
      <ColumnFilter kind="text" label="Patient" value={{ value: 'Roe', operator: 'contains' }} onChange={onChange} />,
    );

    await user.click(screen.getByRole('button', { name: 'Filter Patient' }));
    expect(screen.getByLabelText('Value')).toHaveProperty('value', 'Roe');
    await user.click(screen.getByRole('button', { name: 'Clear' }));
    expect(onChange).toHaveBeenCalledExactlyOnceWith(null);
  });

  it('filters a select column by one of its options', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    const options = [
      { value: 'New', label: 'New' },
      { value: 'Processed', label: 'Processed' },
    ];
    renderWithProviders(<ColumnFilter kind="select" options={options} label="Status" value={null} onChange={onChange} />);

    await user.click(screen.getByRole('button', { name: 'Filter Status' }));
    expect(screen.queryByLabelText('Operator')).toBeNull();
    await user.selectOptions(screen.getByLabelText('Value'), 'Processed');
    await user.click(screen.getByRole('button', { name: 'Filter' }));
    expect(onChange).toHaveBeenCalledExactlyOnceWith({ value: 'Processed', operator: 'equals' });
  });

  it('filters a date column by a picked day', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    renderWithProviders(
      <ColumnFilter kind="date" label="Received" value={{ value: '2026-03-04', operator: 'equals' }} onChange={onChange} />,
    );

    await user.click(screen.getByRole('button', { name: 'Filter Received' }));
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Value' }).value).toBe('03/04/2026');
    await user.click(screen.getByLabelText('Value'));
    await user.click(screen.getByRole('button', { name: '10 March 2026' }));
    await user.click(screen.getByRole('button', { name: 'Filter' }));
    expect(onChange).toHaveBeenCalledExactlyOnceWith({ value: '2026-03-10', operator: 'equals' });
  });

  it('filters a date column by a typed day', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    renderWithProviders(<ColumnFilter kind="date" label="Received" value={null} onChange={onChange} />);

    await user.click(screen.getByRole('button', { name: 'Filter Received' }));
    // Enter takes the typed day and submits the filter in one keypress.
    await user.type(screen.getByRole('textbox', { name: 'Value' }), '3/10/26{enter}');
    expect(onChange).toHaveBeenCalledExactlyOnceWith({ value: '2026-03-10', operator: 'equals' });
  });
});
