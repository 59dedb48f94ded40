import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { json, renderApp, signIn, stubApi } from '../../app/app-test-harness.tsx';
import { composeLookups } from './release-test-fixtures.ts';

const EMPTY = 'There are no direct addresses being saved at the moment.';
const ALL_REMOVED = 'All direct addresses will be removed from cache.';

const cached = Array.from({ length: 7 }, (_, index) => ({
  address: `clinic${index + 1}@riverview.direct.example.org`,
  useCount: index + 1,
  lastUsedAt: `2026-11-${String(10 + index).padStart(2, '0')}T15:00:00Z`,
}));

let uninstall: (() => void) | undefined;
afterEach(() => uninstall?.());

async function openModal(cache: typeof cached) {
  signIn();
  const api = stubApi({
    handlers: {
      ...composeLookups,
      'GET /api/addresscache': () => json(200, cache),
      'PUT /api/addresscache': (body) => json(200, cache.filter((c) => (body as { addresses: string[] }).addresses.includes(c.address))),
    },
  });
  uninstall = renderApp('/release/new').uninstall;
  fireEvent.click(await screen.findByRole('button', { name: 'Saved Direct addresses' }));
  const dialog = await screen.findByRole('dialog', { name: 'Saved Direct addresses' });
  return { ...api, dialog };
}

describe('Saved Direct addresses (manage cached Direct addresses)', () => {
  it('says so when nothing is cached, and has nothing to save', async () => {
    const { dialog } = await openModal([]);
    expect(await within(dialog).findByText(EMPTY)).toBeTruthy();
    expect(within(dialog).getByRole<HTMLButtonElement>('button', { name: 'Save Changes' }).disabled).toBe(true);
  });

  it('lists five a page, newest first, and saves only after a change, keeping the rest', async () => {
    const { dialog, calls } = await openModal(cached);
    await within(dialog).findByText('clinic7@riverview.direct.example.org');
    // Page size 5, most recently used first; the shared pager reaches the rest.
    expect(within(dialog).getAllByRole('button', { name: /^Remove / })).toHaveLength(5);
    expect(within(dialog).queryByText('clinic2@riverview.direct.example.org')).toBeNull();
    const save = within(dialog).getByRole<HTMLButtonElement>('button', { name: 'Save Changes' });
    expect(save.disabled).toBe(true);

    // Sorting by address ascending puts clinic1 first.
    fireEvent.click(within(dialog).getByRole('button', { name: /Address/ }));
    expect(within(dialog).getByText('clinic1@riverview.direct.example.org')).toBeTruthy();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove clinic1@riverview.direct.example.org' }));
    expect(within(dialog).queryByText('clinic1@riverview.direct.example.org')).toBeNull();
    expect(save.disabled).toBe(false);

    fireEvent.click(save);
    expect(await screen.findByText('Direct Address Cache has been saved successfully.')).toBeTruthy();
    const put = calls.find((call) => call.key === 'PUT /api/addresscache');
    expect(put?.body).toEqual({ addresses: cached.slice(1).map((c) => c.address) });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Saved Direct addresses' })).toBeNull());
  });

  it('Clear All empties the pending list and saves an empty cache', async () => {
    const { dialog, calls } = await openModal(cached);
    await within(dialog).findByText('clinic7@riverview.direct.example.org');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Clear All' }));
    expect(within(dialog).getByText(ALL_REMOVED)).toBeTruthy();
    // Nothing has left the cache yet.
    expect(calls.some((call) => call.key === 'PUT /api/addresscache')).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    await screen.findByText('Direct Address Cache has been saved successfully.');
    expect(calls.find((call) => call.key === 'PUT /api/addresscache')?.body).toEqual({ addresses: [] });
  });
});
