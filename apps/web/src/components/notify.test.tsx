import { act, screen, waitFor } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test/render-with-providers.tsx';
import { notifyError, notifySuccess } from './notify.ts';

describe('notify', () => {
  afterEach(() => {
    act(() => notifications.clean());
    vi.useRealTimers();
  });

  it('shows success and error toasts that close after 5 seconds', () => {
    vi.useFakeTimers();
    renderWithProviders(<div />);
    act(() => {
      notifySuccess('Invitation has been sent.');
      notifyError('An error occurred while sending the invitation.');
    });
    expect(screen.getByText('Invitation has been sent.')).toBeTruthy();
    expect(screen.getByText('An error occurred while sending the invitation.')).toBeTruthy();

    act(() => { vi.advanceTimersByTime(4_900); });
    expect(screen.queryByText('Invitation has been sent.')).toBeTruthy();
    act(() => { vi.advanceTimersByTime(200); });
    // The toast's own 250 ms exit animation starts once the 5 s timeout has fired.
    act(() => { vi.advanceTimersByTime(500); });
    expect(screen.queryByText('Invitation has been sent.')).toBeNull();
    expect(screen.queryByText('An error occurred while sending the invitation.')).toBeNull();
  });

  it('keeps one error toast on screen: the same failure again is not repeated, a new one takes its place', () => {
    renderWithProviders(<div />);
    act(() => {
      for (let i = 0; i < 4; i++) notifyError('The partner was not saved.');
    });
    expect(screen.getAllByText('The partner was not saved.')).toHaveLength(1);
    act(() => {
      notifyError('The reseller was not saved.');
      notifySuccess('The certificate was saved successfully.');
    });
    expect(screen.getByText('The reseller was not saved.')).toBeTruthy();
    expect(screen.getByText('The certificate was saved successfully.')).toBeTruthy();
    // The earlier error leaves (after its exit animation).
    return waitFor(() => expect(screen.queryByText('The partner was not saved.')).toBeNull());
  });
});
