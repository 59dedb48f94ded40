import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test/render-with-providers.tsx';
import { SearchBox } from './search-box.tsx';

describe('SearchBox', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('shows the value from the URL and reports typing once, 300 ms after the last keystroke', () => {
    const onChange = vi.fn();
    renderWithProviders(<SearchBox value="lake" onChange={onChange} />);
    const input = screen.getByRole('searchbox', { name: 'Search' });
    expect(input).toHaveProperty('value', 'lake');

    fireEvent.change(input, { target: { value: 'lakes' } });
    fireEvent.change(input, { target: { value: 'lakeside' } });
    act(() => { vi.advanceTimersByTime(299); });
    expect(onChange).not.toHaveBeenCalled();
    act(() => { vi.advanceTimersByTime(1); });
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(onChange).toHaveBeenCalledWith('lakeside');
  });

  it('drops a pending search when the page goes away', () => {
    const onChange = vi.fn();
    const { unmount } = renderWithProviders(<SearchBox value="" onChange={onChange} />);
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search' }), { target: { value: 'river' } });
    unmount();
    act(() => { vi.advanceTimersByTime(1000); });
    expect(onChange).not.toHaveBeenCalled();
  });

  it('follows a value changed from outside, such as the Back button', () => {
    const { rerender } = renderWithProviders(<SearchBox value="one" onChange={() => {}} />);
    rerender(<SearchBox value="two" onChange={() => {}} />);
    expect(screen.getByRole('searchbox', { name: 'Search' })).toHaveProperty('value', 'two');
  });
});
