import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import dayjs from 'dayjs';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test/render-with-providers.tsx';
import { DateRangeFilter, type DateRange } from './date-range-filter.tsx';

function Harness({ onChange, initial }: { onChange: (range: DateRange) => void; initial: DateRange }) {
  const [range, setRange] = useState(initial);
  return (
    <DateRangeFilter
      value={range}
      onChange={(next) => {
        setRange(next);
        onChange(next);
      }}
      quickRanges={[{ label: 'Message Date', range: () => ({ startDate: '2026-01-02', endDate: '2026-01-02' }) }]}
    />
  );
}

const empty: DateRange = { startDate: null, endDate: null };
const field = (label: string) => screen.getByRole<HTMLInputElement>('textbox', { name: label });

describe('DateRangeFilter', () => {
  it('shows dates as MM/DD/YYYY', () => {
    renderWithProviders(<Harness onChange={vi.fn()} initial={{ startDate: '2026-03-04', endDate: '2026-03-09' }} />);
    expect(field('Start date').value).toBe('03/04/2026');
    expect(field('End date').value).toBe('03/09/2026');
  });

  it('sets both dates to today or yesterday with the quick ranges', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    renderWithProviders(<Harness onChange={onChange} initial={empty} />);
    const today = dayjs().format('YYYY-MM-DD');
    const yesterday = dayjs().subtract(1, 'day').format('YYYY-MM-DD');

    await user.click(screen.getByRole('button', { name: 'Today' }));
    expect(onChange).toHaveBeenLastCalledWith({ startDate: today, endDate: today });
    expect(field('Start date').value).toBe(dayjs().format('MM/DD/YYYY'));

    await user.click(screen.getByRole('button', { name: 'Yesterday' }));
    expect(onChange).toHaveBeenLastCalledWith({ startDate: yesterday, endDate: yesterday });
  });

  it('offers extra quick ranges and clears both dates', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    renderWithProviders(<Harness onChange={onChange} initial={{ startDate: '2026-03-04', endDate: '2026-03-09' }} />);

    await user.click(screen.getByRole('button', { name: 'Message Date' }));
    expect(onChange).toHaveBeenLastCalledWith({ startDate: '2026-01-02', endDate: '2026-01-02' });

    await user.click(screen.getByRole('button', { name: 'Clear' }));
    expect(onChange).toHaveBeenLastCalledWith(empty);
    expect(field('Start date').value).toBe('');
  });

  it('does not offer days after today', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2026, 2, 15, 12));
    try {
      const user = userEvent.setup();
      renderWithProviders(<Harness onChange={vi.fn()} initial={empty} />);
      await user.click(field('End date'));
      expect(screen.getByRole('button', { name: '15 March 2026' })).toHaveProperty('disabled', false);
      expect(screen.getByRole('button', { name: '16 March 2026' })).toHaveProperty('disabled', true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('takes a typed day in any accepted format when the field is left, and shows it as MM/DD/YYYY', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    renderWithProviders(<Harness onChange={onChange} initial={empty} />);

    await user.type(field('Start date'), '3/4/26');
    expect(onChange).not.toHaveBeenCalled();
    await user.tab();
    expect(onChange).toHaveBeenLastCalledWith({ startDate: '2026-03-04', endDate: null });
    expect(field('Start date').value).toBe('03/04/2026');
    await user.type(field('End date'), '03092026{enter}');
    expect(onChange).toHaveBeenLastCalledWith({ startDate: '2026-03-04', endDate: '2026-03-09' });

    // Erasing the text clears the day.
    await user.clear(field('Start date'));
    await user.tab();
    expect(onChange).toHaveBeenLastCalledWith({ startDate: null, endDate: '2026-03-09' });
  });

  it('keeps the range whole: a typed start after the end, or a day after today, is not taken', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2026, 2, 15, 12));
    try {
      const user = userEvent.setup();
      const onChange = vi.fn();
      renderWithProviders(<Harness onChange={onChange} initial={{ startDate: '2026-03-04', endDate: '2026-03-09' }} />);

      await user.clear(field('Start date'));
      await user.type(field('Start date'), '03/12/2026');
      await user.tab();
      await user.clear(field('End date'));
      await user.type(field('End date'), '03/16/2026');
      await user.tab();
      expect(onChange).not.toHaveBeenCalled();
      // Leaving the field shows the last day it took again.
      expect(field('Start date').value).toBe('03/04/2026');
      expect(field('End date').value).toBe('03/09/2026');

      // Nor is text that is no day at all.
      await user.clear(field('End date'));
      await user.type(field('End date'), '02/30/2026');
      await user.tab();
      expect(onChange).not.toHaveBeenCalled();
      expect(field('End date').value).toBe('03/09/2026');
    } finally {
      vi.useRealTimers();
    }
  });
});
