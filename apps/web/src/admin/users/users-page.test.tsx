import userEvent from '@testing-library/user-event';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { adminUserMessages as text, type AdminUserListItem } from '@clinicrelay/contracts/admin-users.ts';
import { demoProfile, json, renderApp, signIn, stubApi } from '../../app/app-test-harness.tsx';

const SYS_ID = '5b7a4c1e-0000-4000-8000-000000000001';
const ORG_ID = '5b7a4c1e-0000-4000-8000-000000000002';
const OFF_ID = '5b7a4c1e-0000-4000-8000-000000000003';
const LAKESIDE = '5b7a4c1e-0000-4000-8000-0000000000aa';

const row = (over: Partial<AdminUserListItem>): AdminUserListItem => ({
  id: ORG_ID,
  userName: 'leo@lakeside.example.org',
  firstName: 'Leo',
  lastName: 'Shore',
  organizations: ['Lakeside Family Medicine'],
  idProofStatus: null,
  enabled: true,
  isDisabled: false,
  isOrgAdmin: true,
  isNetworkAdmin: true,
  isSysAdmin: false,
  roleType: 'Organization',
  roleName: 'Administrator',
  ...over,
});
const users = [
  row({ id: SYS_ID, userName: 'sam@example.org', organizations: [], isOrgAdmin: false, isNetworkAdmin: false, isSysAdmin: true, roleType: 'System', roleName: 'SysAdmin' }),
  row({}),
  row({ id: OFF_ID, userName: 'off@example.org', enabled: false, isDisabled: true, isOrgAdmin: false, isNetworkAdmin: false }),
];

const listUrl = (sort: { col: string; dir: string }[], extra: Record<string, string> = {}) =>
  `/api/admin/users?${new URLSearchParams({ pageNumber: '1', pageSize: '10', sort: JSON.stringify(sort), ...extra }).toString()}`;
const DEFAULT_SORT = [
  { col: 'userName', dir: 'asc' },
  { col: 'organization', dir: 'asc' },
];

const created = {
  id: ORG_ID,
  userName: 'dana@lakeside.example.org',
  firstName: 'Dana',
  lastName: 'Reed',
  email: 'dana@lakeside.example.org',
  phoneNumber: null,
  roleType: 'Organization',
  roleName: 'User',
  primaryJobFunction: { id: 1 },
  isSysAdmin: false,
  isOrgAdmin: false,
  isNetworkAdmin: false,
  isDisabled: false,
  disabledDateTime: null,
  idProofStatus: null,
  idProofed: false,
  idProofFileName: null,
  twoFactorEnabled: false,
  tokenAuthEnabled: false,
  hasUnclaimedSecurityTokens: false,
  lockoutEnabled: true,
  isLockedOut: false,
  organizationId: LAKESIDE,
  organizations: [{ id: LAKESIDE, name: 'Lakeside Family Medicine', role: 'User', primaryJobFunction: 'Physician', jobFunctionId: 1 }],
  allRoles: ['Administrator', 'User'],
  jobFunctions: [{ id: 1, name: 'Physician' }],
  userPreferences: { emailNewMessages: true, emailUnprocessedMessages: false, emailSystemNotifications: true, emailUnassignedMessages: false, emailFailedMessagesDigest: false },
};

let uninstall: (() => void) | undefined;
afterEach(() => uninstall?.());

function start(more: Record<string, (body: unknown) => Response> = {}) {
  signIn();
  const page = () => json(200, { users, totalUsersCount: 3 });
  const api = stubApi({
    profile: demoProfile({ roles: ['SysAdmin'], organizationId: null, organizationName: null, organizations: [] }),
    handlers: {
      [`GET ${listUrl(DEFAULT_SORT)}`]: page,
      [`GET ${listUrl(DEFAULT_SORT, { sysAdmin: 'true' })}`]: () => json(200, { users: [users[0]], totalUsersCount: 1 }),
      [`GET ${listUrl([{ col: 'organization', dir: 'asc' }, { col: 'userName', dir: 'asc' }])}`]: page,
      'GET /api/users/jobs': () => json(200, [{ id: 1, name: 'Physician' }]),
      'GET /api/organizations/?search=La&pageSize=10': () => json(200, { items: [{ id: LAKESIDE, name: 'Lakeside Family Medicine' }], totalCount: 1 }),
      'POST /api/admin/users/': () => json(200, created),
      [`PUT /api/admin/sysadmin/${SYS_ID}`]: () => json(200, { message: text.disabled }),
      ...more,
    },
  });
  uninstall = renderApp('/admin/users').uninstall;
  return api;
}

// Add User's name, organization and role filled in for Dana Reed of Lakeside.
async function fillDana(user: ReturnType<typeof userEvent.setup>, dialog: HTMLElement) {
    await user.type(within(dialog).getByRole('textbox', { name: 'User name (email)' }), 'dana@lakeside.example.org');
    await user.type(within(dialog).getByRole('textbox', { name: 'First name' }), 'Dana');
    await user.type(within(dialog).getByRole('textbox', { name: 'Last name' }), 'Reed');
    await user.type(within(dialog).getByRole('combobox', { name: 'Organization' }), 'La');
    await user.click(await screen.findByRole('option', { name: 'Lakeside Family Medicine' }));
    await user.click(within(dialog).getByRole('combobox', { name: 'Role' }));
    await user.click(await screen.findByRole('option', { name: 'User' }));
}

describe('Users', { timeout: 30_000 }, () => {
  it('lists users with admin icons and shows each row’s actions by its rules', async () => {
    const { calls } = start();
    const user = userEvent.setup({ delay: null });
    expect(await screen.findByText('leo@lakeside.example.org')).toBeTruthy();
    expect(screen.getAllByRole('img', { name: 'System admin' })).toHaveLength(1);
    expect(screen.getAllByRole('img', { name: 'Organization admin' })).toHaveLength(1);
    expect(screen.getAllByRole('img', { name: 'Network admin' })).toHaveLength(1);
    expect(screen.queryByRole('button', { name: /^Delete / })).toBeNull();

    const menuOf = async (userName: string) => {
      await user.click(screen.getByRole('button', { name: `More actions for ${userName}` }));
      const items = (await screen.findAllByRole('menuitem')).map((i) => i.textContent);
      await user.keyboard('{Escape}');
      await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
      return items;
    };
    expect(await menuOf('sam@example.org')).toEqual(['Disable', 'Resend Invitation']);
    expect(await menuOf('leo@lakeside.example.org')).toEqual(['Organizations', 'ID Proofing', 'Reset Password', 'Resend Invitation', 'Sync']);
    expect(await menuOf('off@example.org')).toEqual(['Organizations', 'ID Proofing', 'Reset Password', 'Sync']);

    // Disabling a system admin asks first.
    await user.click(screen.getByRole('button', { name: 'More actions for sam@example.org' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Disable' }));
    const dialog = await screen.findByRole('dialog', { name: 'Disable User' });
    expect(within(dialog).getByText(text.disablePrompt)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Disable' }));
    await waitFor(() => expect(calls.find((c) => c.key === `PUT /api/admin/sysadmin/${SYS_ID}`)?.body).toEqual({ enable: false }));

    // The globe filter and the organization column's sort, which keeps userName second.
    await user.click(screen.getByRole('button', { name: 'System administrators only' }));
    await waitFor(() => expect(calls.some((c) => c.key === `GET ${listUrl(DEFAULT_SORT, { sysAdmin: 'true' })}`)).toBe(true));
    await user.click(screen.getByRole('button', { name: 'System administrators only' }));
    await user.click(screen.getByRole('button', { name: /Organizations/ }));
    await waitFor(() => expect(calls.some((c) => c.key.includes(encodeURIComponent('[{"col":"organization"')))).toBe(true));
  });

  it('adds an organization user: the typeahead, the required fields, and the email option that disables the passwords', async () => {
    const { calls } = start();
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Add User' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add User' });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(text.userNameRequired)).toBeTruthy();
    expect(within(dialog).getByText(text.chooseFromList)).toBeTruthy();
    expect(within(dialog).getByText(text.jobFunctionRequired)).toBeTruthy();
    expect(within(dialog).getByText(text.passwordRequired)).toBeTruthy();

    await fillDana(user, dialog);
    await user.click(within(dialog).getByRole('combobox', { name: 'Primary job function' }));
    await user.click(await screen.findByRole('option', { name: 'Physician' }));
    await user.type(within(dialog).getByLabelText(/^Password/), 'Kestrel-harbor-42');
    await user.type(within(dialog).getByLabelText(/^Confirm password/), 'Kestrel-harbor-43');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(text.passwordsDoNotMatch)).toBeTruthy();

    await user.click(within(dialog).getByRole('checkbox', { name: 'Send account creation email' }));
    expect(within(dialog).getByLabelText<HTMLInputElement>(/^Password/).disabled).toBe(true);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(calls.find((c) => c.key === 'POST /api/admin/users/')?.body).toEqual({
        userDetails: { userName: 'dana@lakeside.example.org', firstName: 'Dana', lastName: 'Reed', email: 'dana@lakeside.example.org', roleName: 'User', primaryJobFunction: { id: 1 } },
        organizationId: LAKESIDE,
        emailCreatePassword: true,
      }),
    );
    expect(await screen.findByText(text.saved)).toBeTruthy();
  });

  it('shows every problem the server found at once, each under its field, and picking the chosen job function again keeps it', async () => {
    const weak = 'The password must not contain the user name.';
    const problems = { password: [weak], userName: [text.userNameTaken], jobFunctionId: [text.jobFunctionRequired] };
    start({ 'POST /api/admin/users/': () => json(400, { message: Object.values(problems).flat().join('\n'), modelState: problems }) });
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Add User' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add User' });
    await fillDana(user, dialog);
    const job = within(dialog).getByRole<HTMLInputElement>('combobox', { name: 'Primary job function' });
    await user.click(job);
    await user.click(await screen.findByRole('option', { name: 'Physician' }));
    await user.click(job);
    await user.click(await screen.findByRole('option', { name: 'Physician' }));
    expect(job.value).toBe('Physician');
    await user.type(within(dialog).getByLabelText(/^Password/), 'Dana-harbor-42');
    await user.type(within(dialog).getByLabelText(/^Confirm password/), 'Dana-harbor-42');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    for (const message of Object.values(problems).flat()) expect((await within(dialog).findAllByText(message)).length).toBe(1);
    expect(within(dialog).queryByRole('alert')).toBeNull();
  });
});
