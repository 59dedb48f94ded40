import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { adminUserMessages } from '@clinicrelay/contracts/admin-users.ts';
import { passwordMessages } from '@clinicrelay/contracts/passwords.ts';
import { demoProfile, json, renderApp, signIn, stubApi } from '../../app/app-test-harness.tsx';

let uninstall: (() => void) | undefined;
afterEach(() => {
  uninstall?.();
  localStorage.clear();
});

function start(url: string) {
  const app = renderApp(url);
  uninstall = app.uninstall;
  return app;
}

const STRONG = 'Granite-Harbor-Lantern-62';

describe('the password field’s strength meter', () => {
  it('rates the password as it is typed and shows the policy’s message for a common one', async () => {
    stubApi();
    start('/account/password?token=abc');
    const user = userEvent.setup();
    const field = await screen.findByLabelText(/^Password/);
    await user.type(field, 'qwertyuiop');
    const meter = await screen.findByRole('progressbar', { name: 'Strength of the password' });
    await waitFor(() => expect(meter.getAttribute('aria-valuetext')).toBe('Very weak'));
    expect(screen.getByText(/This password is too common\. Choose another one\./)).toBeTruthy();
    await user.clear(field);
    await user.type(field, STRONG);
    await waitFor(() => expect(screen.getByRole('progressbar', { name: 'Strength of the password' }).getAttribute('aria-valuetext')).toBe('Strong'));
    expect(screen.queryByText(/too common/)).toBeNull();
  });

  it('names the user-name rule when the account is known (change password)', async () => {
    stubApi({ profile: demoProfile({ userName: 'alex@lakeside.example' }) });
    signIn();
    start('/settings/password');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^New password/), 'Alex-rides-bikes-77');
    expect(await screen.findByText(/Password must not contain your user name\./)).toBeTruthy();
  });
});

describe('set-password page (/account/password?token=)', () => {
  it('sets the password from the link and offers to sign in', async () => {
    const { calls } = stubApi({ handlers: { 'POST /api/account/password': () => json(200, { message: adminUserMessages.passwordSet }) } });
    start('/account/password?token=abc');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^Password/), STRONG);
    await user.type(screen.getByLabelText(/^Confirm password/), STRONG);
    await user.click(screen.getByRole('button', { name: 'Set password' }));
    expect(await screen.findByText(adminUserMessages.passwordSet)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/account/login');
    expect(calls.find((c) => c.key === 'POST /api/account/password')?.body).toEqual({ token: 'abc', password: STRONG, confirmPassword: STRONG });
  });

  it('shows the server’s refusal under the field, and a used link above the form', async () => {
    let answer = json(400, { message: passwordMessages.containsUserName, modelState: { password: [passwordMessages.containsUserName] } });
    stubApi({ handlers: { 'POST /api/account/password': () => answer } });
    start('/account/password?token=abc');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^Password/), STRONG);
    await user.type(screen.getByLabelText(/^Confirm password/), STRONG);
    await user.click(screen.getByRole('button', { name: 'Set password' }));
    expect(await screen.findByText(passwordMessages.containsUserName)).toBeTruthy();
    answer = json(400, { message: adminUserMessages.linkInvalid, modelState: { token: [adminUserMessages.linkInvalid] } });
    await user.click(screen.getByRole('button', { name: 'Set password' }));
    expect((await screen.findByRole('alert')).textContent).toContain(adminUserMessages.linkInvalid);
    expect(screen.getByRole('link', { name: 'Request a new password reset link' }).getAttribute('href')).toBe('/account/forgot-password');
  });
});

describe('forgotten password', () => {
  it('is linked from the sign-in page and answers with the same text for any email', async () => {
    const { calls } = stubApi({ handlers: { 'POST /api/users/resetpassword': () => json(200, { message: passwordMessages.resetRequested }) } });
    start('/account/login');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('link', { name: 'Forgot your password?' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Reset your password' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByText('Email is required.')).toBeTruthy();
    await user.type(screen.getByLabelText(/^Email/), 'laura@lakeside.example');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect((await screen.findByRole('status')).textContent).toBe(passwordMessages.resetRequested);
    const call = calls.find((c) => c.key === 'POST /api/users/resetpassword');
    expect(call?.body).toEqual({ userName: 'laura@lakeside.example' });
    expect(screen.getByRole('link', { name: 'Back to sign in' }).getAttribute('href')).toBe('/account/login');
  });
});

describe('change password (/settings/password)', () => {
  const fill = async (user: ReturnType<typeof userEvent.setup>, current: string, next: string, confirm = next) => {
    await user.type(await screen.findByLabelText(/^Current password/), current);
    await user.type(screen.getByLabelText(/^New password/), next);
    await user.type(screen.getByLabelText(/^Confirm new password/), confirm);
    await user.click(screen.getByRole('button', { name: 'Change password' }));
  };

  it('is in the user menu', async () => {
    stubApi();
    signIn();
    const app = start('/');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Alex Morgan' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Change password' }));
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/settings/password'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Change password' })).toBeTruthy();
  });

  it('checks the fields, shows the server’s message under the current password, then changes it', async () => {
    let answer = json(400, { message: passwordMessages.currentIncorrect, modelState: { currentPassword: [passwordMessages.currentIncorrect] } });
    const { calls } = stubApi({ handlers: { 'POST /api/account/changepassword': () => answer } });
    signIn();
    start('/settings/password');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Change password' }));
    expect(await screen.findByText(passwordMessages.currentRequired)).toBeTruthy();
    expect(screen.getByText(adminUserMessages.confirmPasswordRequired)).toBeTruthy();

    await fill(user, 'Old-pass-2026!', STRONG, 'Something-else-1');
    expect(await screen.findByText(adminUserMessages.passwordsDoNotMatch)).toBeTruthy();
    await user.clear(screen.getByLabelText(/^Confirm new password/));
    await user.type(screen.getByLabelText(/^Confirm new password/), STRONG);
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText(passwordMessages.currentIncorrect)).toBeTruthy();

    answer = json(200, { message: passwordMessages.changed });
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText(passwordMessages.changed)).toBeTruthy();
    await waitFor(() => expect(screen.getByLabelText<HTMLInputElement>(/^Current password/).value).toBe(''));
    expect(calls.filter((c) => c.key === 'POST /api/account/changepassword').at(-1)?.body).toEqual({ currentPassword: 'Old-pass-2026!', newPassword: STRONG, confirmPassword: STRONG });
  });
});
