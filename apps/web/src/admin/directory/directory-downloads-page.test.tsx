import userEvent from '@testing-library/user-event';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { directoryDownloadMessages as text } from '@clinicrelay/contracts/directory-downloads.ts';
import { demoProfile, json, renderApp, signIn, stubApi } from '../../app/app-test-harness.tsx';

const ID = '5b0c2a10-0000-4000-8000-000000000001';
const done = {
  id: ID,
  fileUrl: `/api/directory/downloads/${ID}/file`,
  occurred: '2026-11-02T10:00:00.000Z',
  item: 'Providers',
  mode: 'Full',
  status: 'Completed',
  rowCount: 3,
  sizeInBytes: 2048,
  hasLogMessage: true,
};
const LIST = 'GET /api/directory/downloads?pageNumber=1&pageSize=10&sortDirection=desc';
const LOG = 'Full download of providers from the provider directory (NPPES).\nWrote 3 rows in 2 parts.';

let uninstall: (() => void) | undefined;
afterEach(() => {
  uninstall?.();
  vi.useRealTimers();
});

function start(extra: Record<string, (body: unknown) => Response> = {}) {
  signIn();
  const api = stubApi({
    profile: demoProfile({ roles: ['SysAdmin'], organizationId: null, organizationName: null, organizations: [] }),
    handlers: {
      [LIST]: () => json(200, { items: [done], totalCount: 1 }),
      [`GET /api/directory/downloads/${ID}/logmessage`]: () => json(200, { id: ID, logMessage: LOG }),
      ...extra,
    },
  });
  uninstall = renderApp('/admin/directorydownloads').uninstall;
  return api;
}

describe('Directory downloads (back office)', { timeout: 30_000 }, () => {
  it('shows the log message with a copy button that says Copied! for 2.5 s', async () => {
    start();
    const user = userEvent.setup({ delay: null });
    const row = (await screen.findByText(done.fileUrl, undefined, { timeout: 20_000 })).closest('tr')!;
    for (const cell of ['5b0c2a10', 'Providers', 'Full', 'Completed']) expect(within(row).getByText(cell)).toBeTruthy();
    await user.click(within(row).getByRole('button', { name: `Log message of request ${ID}` }));
    const modal = await screen.findByRole('dialog', { name: 'Log message' });
    await within(modal).findByText(/Wrote 3 rows in 2 parts/);

    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    fireEvent.click(within(modal).getByRole('button', { name: 'Copy' }));
    await act(async () => {});
    expect(writeText).toHaveBeenCalledWith(LOG);
    expect(within(modal).getByRole('button', { name: 'Copied!' })).toBeTruthy();
    act(() => void vi.advanceTimersByTime(2499));
    expect(within(modal).getByRole('button', { name: 'Copied!' })).toBeTruthy();
    act(() => void vi.advanceTimersByTime(1));
    expect(within(modal).getByRole('button', { name: 'Copy' })).toBeTruthy();
  });

  it('asks for type and mode, sends the request, and says when it could not be sent', async () => {
    let answer = json(400, { message: text.notSent });
    const { calls } = start({ 'POST /api/directory/downloads/request': () => answer });
    const user = userEvent.setup({ delay: null });
    await screen.findByText(done.fileUrl, undefined, { timeout: 20_000 });
    await user.click(screen.getByRole('button', { name: 'Request download' }));
    const modal = await screen.findByRole('dialog', { name: 'Request directory download' });
    await user.click(within(modal).getByRole('button', { name: 'Request' }));
    expect(await within(modal).findByText('There are invalid fields on this page.')).toBeTruthy();
    expect(within(modal).getByText(text.typeRequired)).toBeTruthy();
    expect(within(modal).getByText(text.modeRequired)).toBeTruthy();

    await user.click(within(modal).getByRole('combobox', { name: 'Type' }));
    await user.click(await screen.findByRole('option', { name: 'All (providers and organizations)' }));
    await user.click(within(modal).getByRole('combobox', { name: 'Mode' }));
    await user.click(await screen.findByRole('option', { name: 'Incremental (changes since the last download)' }));
    await user.click(within(modal).getByRole('button', { name: 'Request' }));
    expect(await screen.findByText(text.notSent)).toBeTruthy();
    expect(calls.find((c) => c.key === 'POST /api/directory/downloads/request')?.body).toEqual({ type: 'All', mode: 'Incremental' });

    answer = json(200, { ...done, status: 'Pending', fileUrl: null });
    await user.click(within(modal).getByRole('button', { name: 'Request' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Request directory download' })).toBeNull());
    expect(await screen.findByText(text.sent)).toBeTruthy();
  });
});
