import userEvent from '@testing-library/user-event';
import { screen, waitFor, within } from '@testing-library/react';
import dayjs from 'dayjs';
import { afterEach, describe, expect, it } from 'vitest';
import { userDetailMessages as text, type OrgUser, type OrgUserDetail } from '@clinicrelay/contracts/users.ts';
import { demoProfile, json, renderApp, signIn, stubApi } from '../../app/app-test-harness.tsx';
import { LEO, orgUserRow } from './users-test-fixtures.ts';

const APP = '0123456789abcdef';

const leo: OrgUserDetail = {
  ...orgUserRow({ sendPermissions: 1 }),
  twoFactorEnabled: true,
  tokenAuthEnabled: true,
  applications: [
    { id: APP, name: 'Firefox on Windows', userAgent: 'Mozilla/5.0 Firefox/128.0', ipAddress: '203.0.113.7', sessions: 2, signedInOn: '2026-11-24T08:00:00Z', lastUsedOn: '2026-11-24T09:00:00Z' },
  ],
};

const today = dayjs().hour(9).minute(5).second(0).millisecond(0).toDate().toISOString();
const earlier = dayjs().subtract(3, 'day').hour(10).minute(0).toDate().toISOString();
const eventsUrl = (extra: Record<string, string> = {}) => `GET /api/users/${LEO}/events?${new URLSearchParams({ pageSize: '30', pageStart: '1', ...extra }).toString()}`;

let uninstall: (() => void) | undefined;
afterEach(() => uninstall?.());

function start(url = `/settings/users/${LEO}`) {
  signIn();
  const api = stubApi({
    profile: demoProfile({ roles: ['Administrator'], isAdmin: true }),
    handlers: {
      [`GET /api/users/${LEO}`]: () => json(200, leo),
      [eventsUrl()]: () =>
        json(200, {
          items: [
            { id: 'e1', eventType: 'Login', name: 'Signed in', createdOn: today, ipAddress: '203.0.113.7' },
            { id: 'e2', eventType: 'MessageViewed', name: 'Message Viewed', createdOn: earlier, ipAddress: '203.0.113.7' },
          ],
          totalCount: 2,
        }),
      [eventsUrl({ eventTypes: 'Login' })]: () => json(200, { items: [{ id: 'e1', eventType: 'Login', name: 'Signed in', createdOn: today, ipAddress: null }], totalCount: 1 }),
      [`GET /api/users/${LEO}/events/type`]: () => json(200, [{ eventType: 'Login', name: 'Signed in' }, { eventType: 'MessageViewed', name: 'Message Viewed' }]),
      [`GET /api/users/${LEO}/requests?pageSize=10&pageStart=1`]: () =>
        json(200, { items: [{ id: 'r1', type: 'Invitation', description: 'Invitation to Dr. Ada Field', status: 'Sent', requestedOn: '2026-11-21T10:00:00Z' }], totalCount: 1 }),
      [`DELETE /api/users/${LEO}/authenticators`]: () => json(200, { message: text.authenticatorsRemoved }),
      [`DELETE /api/users/${LEO}/applications/${APP}`]: () => json(200, { message: text.applicationRemoved }),
    },
  });
  uninstall = renderApp(url).uninstall;
  return api;
}

describe('a user’s detail (issue 13 §2)', { timeout: 30_000 }, () => {
  it('shows the user’s activity, today’s by time and earlier by day, filtered by type', async () => {
    const { calls } = start();
    const user = userEvent.setup({ delay: null });
    expect(await screen.findByRole('heading', { name: 'Leo Shore' })).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Leo Shore · ClinicRelay'));
    const table = await screen.findByRole('table', { name: 'Activity' });
    const rows = within(table).getAllByRole('row');
    expect(within(rows[1]!).getByText(dayjs(today).format('h:mm A'))).toBeTruthy();
    expect(within(rows[1]!).getByText('Signed in')).toBeTruthy();
    expect(within(rows[2]!).getByText(dayjs(earlier).format('MMM DD'))).toBeTruthy();

    await user.click(screen.getByRole('combobox', { name: 'Activity type' }));
    await user.click(await screen.findByRole('option', { name: 'Signed in' }));
    await waitFor(() => expect(calls.some((c) => c.key === eventsUrl({ eventTypes: 'Login' }))).toBe(true));
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Activity' })).getAllByRole('row')).toHaveLength(2));
  });

  it('lists the user’s requests', async () => {
    start(`/settings/users/${LEO}?tab=requests`);
    const table = await screen.findByRole('table', { name: 'Requests' });
    expect(within(table).getByText('Invitation to Dr. Ada Field')).toBeTruthy();
    expect(within(table).getByText('Sent')).toBeTruthy();
    expect(within(table).getByText('11/21/2026')).toBeTruthy();
  });

  it('removes the authenticator and an application, each after a confirmation', async () => {
    const { calls } = start(`/settings/users/${LEO}?tab=security`);
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Remove authenticator' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove Authenticator' });
    expect(calls.some((c) => c.key === `DELETE /api/users/${LEO}/authenticators`)).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(calls.some((c) => c.key === `DELETE /api/users/${LEO}/authenticators`)).toBe(true));
    expect(await screen.findByText(text.authenticatorsRemoved)).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Remove Authenticator' })).toBeNull());

    const apps = screen.getByRole('table', { name: 'Applications and devices' });
    expect(within(apps).getByText('203.0.113.7')).toBeTruthy();
    await user.click(within(apps).getByRole('button', { name: 'Remove Firefox on Windows' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Remove Application' })).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(calls.some((c) => c.key === `DELETE /api/users/${LEO}/applications/${APP}`)).toBe(true));
    expect(await screen.findByText(text.applicationRemoved)).toBeTruthy();
  });
});

describe('network users in the list (issue 13 §2)', { timeout: 30_000 }, () => {
  const listUrl = (extra: Record<string, string> = {}) =>
    `GET /api/users?${new URLSearchParams({ page: '1', pageSize: '25', sort: JSON.stringify({ col: 'name', dir: 'asc' }), ...extra }).toString()}`;
  const own = { ...leo, applications: undefined, twoFactorEnabled: undefined } as unknown as OrgUser;
  const rachel: OrgUser = { ...own, id: 'r-1', userName: 'admin@riverview.example.org', fullName: 'Rachel Rivers', organizationId: 'o-2', organizationName: 'Riverview Cardiology' };

  it('offers the switch to a network administrator; network users show their organization and no actions', async () => {
    signIn();
    const { calls } = stubApi({
      profile: demoProfile({ roles: ['Administrator'], isAdmin: true, isNetworkAdmin: true }),
      handlers: {
        [listUrl()]: () => json(200, { items: [own], totalCount: 1 }),
        [listUrl({ includeNetwork: 'true' })]: () => json(200, { items: [own, rachel], totalCount: 2 }),
      },
    });
    uninstall = renderApp('/settings/users').uninstall;
    const user = userEvent.setup({ delay: null });
    expect(await screen.findByRole('link', { name: 'Leo Shore' })).toBeTruthy();
    await user.click(screen.getByRole('switch', { name: 'Include network users' }));
    await waitFor(() => expect(calls.some((c) => c.key === listUrl({ includeNetwork: 'true' }))).toBe(true));
    const row = (await screen.findByText('Rachel Rivers')).closest('tr')!;
    expect(within(row).getByText('Riverview Cardiology')).toBeTruthy();
    expect(within(row).queryByRole('button', { name: /Actions for/ })).toBeNull();
    expect(within(row).queryByRole('link')).toBeNull();
  });

  it('shows no switch to an Administrator who administers no network', async () => {
    signIn();
    stubApi({ profile: demoProfile({ roles: ['Administrator'], isAdmin: true }), handlers: { [listUrl()]: () => json(200, { items: [own], totalCount: 1 }) } });
    uninstall = renderApp('/settings/users').uninstall;
    expect(await screen.findByRole('link', { name: 'Leo Shore' })).toBeTruthy();
    expect(screen.queryByRole('switch', { name: 'Include network users' })).toBeNull();
  });
});
