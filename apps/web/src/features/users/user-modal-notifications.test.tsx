import userEvent from '@testing-library/user-event';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { demoProfile, json, renderApp, signIn, stubApi } from '../../app/app-test-harness.tsx';
import { LEO, orgUserRow } from './users-test-fixtures.ts';

// Issue 13 §5: the edit-user modal's notification checkboxes (back-office-a §3), saved with the user.
const leo = orgUserRow({ sendPermissions: 1, lastSignIn: null });
const prefs = { emailNewMessages: true, emailUnprocessedMessages: false, emailSystemNotifications: true, emailUnassignedMessages: false, emailFailedMessagesDigest: false };
const listUrl = `/api/users?${new URLSearchParams({ page: '1', pageSize: '25', sort: JSON.stringify({ col: 'name', dir: 'asc' }) }).toString()}`;

let uninstall: (() => void) | undefined;
afterEach(() => uninstall?.());

describe('the edit-user modal’s notifications', { timeout: 30_000 }, () => {
  it('shows the user’s five notification checkboxes and saves a change with the user', async () => {
    signIn();
    const { calls } = stubApi({
      profile: demoProfile({ roles: ['Administrator'], isAdmin: true }),
      handlers: {
        [`GET ${listUrl}`]: () => json(200, { items: [leo], totalCount: 1 }),
        'GET /api/users/jobs': () => json(200, [{ id: 2, name: 'Nurse' }]),
        [`GET /api/users/${LEO}/preferences`]: () => json(200, prefs),
        [`PUT /api/users/${LEO}`]: () => json(200, leo),
        [`PUT /api/users/${LEO}/preferences`]: (body) => json(200, body),
      },
    });
    uninstall = renderApp('/settings/users').uninstall;
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Actions for leo@lakeside.example.org' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit User Leo Shore' });
    const group = within(dialog).getByRole('group', { name: 'Notifications' });
    expect(await within(group).findByRole('checkbox', { name: 'New messages' })).toHaveProperty('checked', true);
    expect(within(group).getAllByRole('checkbox')).toHaveLength(5);
    await user.click(within(group).getByRole('checkbox', { name: 'Failed message digest' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.find((c) => c.key === `PUT /api/users/${LEO}/preferences`)?.body).toEqual({ ...prefs, emailFailedMessagesDigest: true }));
    expect(calls.some((c) => c.key === `PUT /api/users/${LEO}`)).toBe(true);
  });

  it('saves no preferences when none changed', async () => {
    signIn();
    const { calls } = stubApi({
      profile: demoProfile({ roles: ['Administrator'], isAdmin: true }),
      handlers: {
        [`GET ${listUrl}`]: () => json(200, { items: [leo], totalCount: 1 }),
        'GET /api/users/jobs': () => json(200, [{ id: 2, name: 'Nurse' }]),
        [`GET /api/users/${LEO}/preferences`]: () => json(200, prefs),
        [`PUT /api/users/${LEO}`]: () => json(200, leo),
      },
    });
    uninstall = renderApp('/settings/users').uninstall;
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Actions for leo@lakeside.example.org' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit User Leo Shore' });
    await within(dialog).findByRole('checkbox', { name: 'New messages' });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.key === `PUT /api/users/${LEO}`)).toBe(true));
    expect(calls.some((c) => c.key === `PUT /api/users/${LEO}/preferences`)).toBe(false);
  });
});
