import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test/render-with-providers.tsx';
import { JumpToPage } from './jump-to-page.tsx';

function type(text: string) {
  fireEvent.change(screen.getByLabelText('Go to page'), { target: { value: text } });
}

describe('JumpToPage', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('goes to the typed page 300 ms after typing stops', () => {
    const onChange = vi.fn();
    renderWithProviders(<JumpToPage totalPages={9} onChange={onChange} />);
    type('4');
    act(() => { vi.advanceTimersByTime(299); });
    expect(onChange).not.toHaveBeenCalled();
    act(() => { vi.advanceTimersByTime(1); });
    expect(onChange).toHaveBeenCalledExactlyOnceWith(4);
  });

  it('goes to page 1 for a number below 1 and to the last page above it', () => {
    const onChange = vi.fn();
    renderWithProviders(<JumpToPage totalPages={9} onChange={onChange} />);
    type('-3');
    act(() => { vi.advanceTimersByTime(300); });
    expect(onChange).toHaveBeenLastCalledWith(1);
    expect(screen.getByLabelText('Go to page')).toHaveProperty('value', '1');

    type('0');
    act(() => { vi.advanceTimersByTime(300); });
    expect(onChange).toHaveBeenLastCalledWith(1);

    type('40');
    act(() => { vi.advanceTimersByTime(300); });
    expect(onChange).toHaveBeenLastCalledWith(9);
    expect(screen.getByLabelText('Go to page')).toHaveProperty('value', '9');
  });

  it('ignores input that is not a number', () => {
    const onChange = vi.fn();
    renderWithProviders(<JumpToPage totalPages={9} onChange={onChange} />);
    type('abc');
    act(() => { vi.advanceTimersByTime(300); });
    type('');
    act(() => { vi.advanceTimersByTime(300); });
    expect(onChange).not.toHaveBeenCalled();
  });
});
