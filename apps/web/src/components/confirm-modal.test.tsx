import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test/render-with-providers.tsx';
import { ConfirmModal } from './confirm-modal.tsx';

function deferred() {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('ConfirmModal', () => {
  it('shows the question with Cancel and the confirm label', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    renderWithProviders(
      <ConfirmModal opened onClose={onClose} title="Delete draft" message="Delete this draft?" confirmLabel="Delete" danger onConfirm={vi.fn()} />,
    );
    expect(screen.getByRole('dialog', { name: 'Delete draft' })).toBeTruthy();
    expect(screen.getByText('Delete this draft?')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalledOnce();
  });

  it('defaults the confirm button to "Confirm"', () => {
    renderWithProviders(<ConfirmModal opened onClose={vi.fn()} title="Sure?" message="Really?" onConfirm={vi.fn()} />);
    expect(screen.getByRole('button', { name: 'Confirm' })).toBeTruthy();
  });

  it('shows loading while the action runs and closes when it succeeds', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    const call = deferred();
    renderWithProviders(
      <ConfirmModal opened onClose={onClose} title="Delete draft" message="Delete?" confirmLabel="Delete" onConfirm={() => call.promise} />,
    );

    await user.click(screen.getByRole('button', { name: 'Delete' }));
    const confirm = screen.getByRole('button', { name: 'Delete' });
    expect(confirm.getAttribute('data-loading')).toBe('true');
    expect(screen.getByRole('button', { name: 'Cancel' })).toHaveProperty('disabled', true);
    expect(onClose).not.toHaveBeenCalled();

    call.resolve();
    await waitFor(() => expect(onClose).toHaveBeenCalledOnce());
  });

  it('stays open and shows the server message when the action fails', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    renderWithProviders(
      <ConfirmModal
        opened
        onClose={onClose}
        title="Delete message"
        message="Delete?"
        onConfirm={() => Promise.reject(Object.assign(new Error('Message is already deleted.'), { status: 409 }))}
      />,
    );

    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Message is already deleted.');
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Confirm' }).getAttribute('data-loading')).toBeNull();
  });
});
