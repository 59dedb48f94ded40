import userEvent from '@testing-library/user-event';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { orgUserMessages as text } from '@clinicrelay/contracts/users.ts';
import { demoProfile, json, renderApp, signIn, stubApi } from '../../app/app-test-harness.tsx';
import { LEO, orgUserRow } from './users-test-fixtures.ts';

const SELF = 'u-1';
const PAT = '5b7a4c1e-0000-4000-8000-000000000003';

const row = orgUserRow;
const rows = [
  row({ id: SELF, userName: 'alex@lakeside.example', firstName: 'Alex', lastName: 'Morgan', fullName: 'Alex Morgan', roles: ['Administrator'], role: 'Administrator' }),
  row({}),
  row({ id: PAT, userName: 'pat@lakeside.example.org', firstName: 'Pat', lastName: 'Quill', fullName: 'Pat Quill', sendPermissions: 0, intakeRules: 0, lastSignIn: null, invitationStatus: 'Pending' }),
];

const listUrl = (sort: { col: string; dir: string }, extra: Record<string, string> = {}) =>
  `/api/users?${new URLSearchParams({ page: '1', pageSize: '25', sort: JSON.stringify(sort), ...extra }).toString()}`;

const SOURCE = (id: string, fullAddress: string) => ({
  id,
  organizationId: 'org-lakeside',
  organizationName: 'Lakeside Clinic',
  type: fullAddress.includes('@') ? 'DirectMessaging' : 'Fax',
  fullAddress,
  status: 1,
  statusName: 'Activated',
  createdDate: '2026-11-02T15:00:00Z',
  isGlobal: false,
  senders: [],
});

let uninstall: (() => void) | undefined;
afterEach(() => uninstall?.());

function start() {
  signIn();
  const api = stubApi({
    profile: demoProfile({ roles: ['Administrator'], isAdmin: true }),
    handlers: {
      [`GET ${listUrl({ col: 'name', dir: 'asc' })}`]: () => json(200, { items: rows, totalCount: 3 }),
      [`GET ${listUrl({ col: 'lastSignIn', dir: 'asc' })}`]: () => json(200, { items: rows, totalCount: 3 }),
      'GET /api/users/jobs': () => json(200, [{ id: 1, name: 'Physician' }, { id: 2, name: 'Nurse' }]),
      'GET /api/admin/documentsources?organizationId=org-lakeside&pageNumber=1&pageSize=100&sortDir=asc': () =>
        json(200, { items: [SOURCE('s-direct', 'intake@lakeside.direct.example.org'), SOURCE('s-fax', '5035550101')], totalCount: 2 }),
      'GET /api/intakerules': () => json(200, [{ id: 'r-sample', name: 'To Records (Sample)', toAddresses: ['intake@lakeside.direct.example.org'], fromAddress: null, sourceType: null, isGlobal: false }]),
      'POST /api/users/find?username=leo%40lakeside.example.org': () => json(200, { exists: true, message: text.userNameExists }),
      'POST /api/users/find?username=dana%40lakeside.example.org': () => json(200, { exists: false, message: text.userNameAvailable }),
      'POST /api/users': (body) => json(200, row({ id: 'new', ...(body as object), invitationStatus: 'Pending' })),
      [`POST /api/users/${LEO}/enable?enable=false`]: () => json(200, { message: text.disabled }),
      [`DELETE /api/users/${PAT}`]: () => json(200, { message: text.deleted }),
      'POST /api/users/resendinvitation': () => json(200, { message: 'The invitation has been sent again.' }),
    },
  });
  uninstall = renderApp('/settings/users').uninstall;
  return api;
}

describe('the organization’s Users (issue 13 §2)', { timeout: 30_000 }, () => {
  it('lists users with their counts, sign-in and invitation, and offers each row the actions its rules allow', async () => {
    const { calls } = start();
    const user = userEvent.setup({ delay: null });
    expect(await screen.findByText('leo@lakeside.example.org')).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Users · ClinicRelay'));
    const pat = screen.getByText('pat@lakeside.example.org').closest('tr')!;
    expect(within(pat).getByText('Never')).toBeTruthy();
    expect(within(pat).getByText('Pending')).toBeTruthy();
    const leo = screen.getByText('leo@lakeside.example.org').closest('tr')!;
    expect(within(leo).getByText('11/20/2026', { exact: false })).toBeTruthy();
    expect(within(leo).getByText('Accepted')).toBeTruthy();

    const menuOf = async (userName: string) => {
      await user.click(screen.getByRole('button', { name: `Actions for ${userName}` }));
      const items = (await screen.findAllByRole('menuitem')).map((i) => i.textContent);
      await user.keyboard('{Escape}');
      await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
      return items;
    };
    // Administrators never disable or delete themselves; only a pending invitation is resent.
    expect(await menuOf('alex@lakeside.example')).toEqual(['Edit', 'Reset Password']);
    expect(await menuOf('leo@lakeside.example.org')).toEqual(['Edit', 'Disable', 'Reset Password', 'Delete']);
    expect(await menuOf('pat@lakeside.example.org')).toEqual(['Edit', 'Disable', 'Reset Password', 'Resend Invitation', 'Delete']);

    await user.click(screen.getByRole('button', { name: 'Actions for leo@lakeside.example.org' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Disable' }));
    const dialog = await screen.findByRole('dialog', { name: 'Disable User' });
    await user.click(within(dialog).getByRole('button', { name: 'Disable' }));
    await waitFor(() => expect(calls.some((c) => c.key === `POST /api/users/${LEO}/enable?enable=false`)).toBe(true));
    expect(await screen.findByText(text.disabled)).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Actions for pat@lakeside.example.org' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Delete User' })).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(calls.some((c) => c.key === `DELETE /api/users/${PAT}`)).toBe(true));

    await user.click(screen.getByRole('button', { name: /Last sign-in/ }));
    await waitFor(() => expect(calls.some((c) => c.key === `GET ${listUrl({ col: 'lastSignIn', dir: 'asc' })}`)).toBe(true));
  });

  it('adds a user: the user name is checked a second after typing, and the new user is created with the account-creation mail', async () => {
    const { calls } = start();
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Add User' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add User' });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(text.userNameRequired)).toBeTruthy();
    expect(within(dialog).getByText(text.firstNameRequired)).toBeTruthy();
    expect(within(dialog).getByText(text.roleRequired)).toBeTruthy();
    expect(within(dialog).getByText(text.jobFunctionRequired)).toBeTruthy();

    const userName = within(dialog).getByRole('textbox', { name: 'Username' });
    await user.type(userName, 'leo@lakeside');
    expect(await within(dialog).findByText(text.userNameNotValid, {}, { timeout: 3000 })).toBeTruthy();
    await user.type(userName, '.example.org');
    expect(await within(dialog).findByText(text.userNameExists, {}, { timeout: 3000 })).toBeTruthy();
    await user.clear(userName);
    await user.type(userName, 'dana@lakeside.example.org');
    expect(await within(dialog).findByText(text.userNameAvailable, {}, { timeout: 3000 })).toBeTruthy();

    await user.type(within(dialog).getByRole('textbox', { name: 'First name' }), 'Dana');
    await user.type(within(dialog).getByRole('textbox', { name: 'Last name' }), 'Reed');
    await user.click(within(dialog).getByRole('combobox', { name: 'Primary job function' }));
    await user.click(await screen.findByRole('option', { name: 'Physician' }));
    await user.click(within(dialog).getByRole('combobox', { name: 'Role' }));
    await user.click(await screen.findByRole('option', { name: 'User' }));
    // Send permissions and intake rules go with the new user: one address, and every rule by "Add all".
    await user.click(within(dialog).getByRole('checkbox', { name: /intake@lakeside\.direct\.example\.org/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Add all: Intake rules' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(calls.find((c) => c.key === 'POST /api/users')?.body).toEqual({
        userName: 'dana@lakeside.example.org',
        firstName: 'Dana',
        lastName: 'Reed',
        role: 'User',
        jobFunctionId: 1,
        documentSourceIds: ['s-direct'],
        intakeRuleIds: ['r-sample'],
      }),
    );
    expect(await screen.findByText(text.created)).toBeTruthy();
  });
});
