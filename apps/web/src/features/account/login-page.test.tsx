import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { demoProfile, json, renderApp, stubApi } from '../../app/app-test-harness.tsx';
import { storeRedirect } from '../../app/redirect.ts';

const tokens = { accessToken: 'access-1', tokenType: 'Bearer', expiresIn: 900, refreshToken: 'refresh-1' };
let uninstall: (() => void) | undefined;

afterEach(() => {
  uninstall?.();
});

function start(url = '/account/login') {
  const app = renderApp(url);
  uninstall = app.uninstall;
  return app;
}

async function fillIn(userName: string, password: string) {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText('Username'), userName);
  await user.type(screen.getByLabelText('Password'), password);
  return user;
}

describe('sign-in page', () => {
  it('has the Username and Password fields, the Log in button and the lockout tooltip', async () => {
    stubApi();
    start();
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeTruthy();
    expect(screen.getByLabelText('Username')).toBeTruthy();
    expect(screen.getByLabelText('Password')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Log in' })).toBeTruthy();
    expect(screen.getByText('ClinicRelay')).toBeTruthy();
    expect(screen.getByText('Secure health information exchange')).toBeTruthy();

    const user = userEvent.setup();
    await user.hover(screen.getByRole('button', { name: 'Account lockout policy' }));
    expect(
      await screen.findByText('For your security, your account is locked for 10 minutes after 3 failed login attempts.'),
    ).toBeTruthy();
  });

  it('links a new clinic to registration', async () => {
    stubApi();
    start();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('link', { name: 'Register your organization' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Register your organization' })).toBeTruthy();
  });

  it('shows the server’s message when sign-in fails', async () => {
    stubApi({ handlers: { 'POST /api/account/login': () => json(401, { message: 'Invalid user name or password.' }) } });
    start();
    const user = await fillIn('alex', 'wrong-password');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Invalid user name or password.');
    expect(localStorage.getItem('clinicrelay.accessToken')).toBeNull();
  });

  it('asks for the verification code and sends it with the second attempt', async () => {
    const { calls } = stubApi({
      profile: demoProfile({ roles: ['User'] }),
      handlers: {
        'POST /api/account/login': (body) =>
          (body as { code?: string }).code === '123456'
            ? json(200, tokens)
            : json(401, { message: 'A verification code is required.', twoFactorRequired: true }),
      },
    });
    const { router } = start();
    const user = await fillIn('alex', 'Demo-pass-2026!');
    expect(screen.queryByLabelText('Verification code')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect((await screen.findByRole('alert')).textContent).toContain('A verification code is required.');

    await user.type(screen.getByLabelText('Verification code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await screen.findByRole('heading', { level: 1, name: 'Intake' });
    expect(router.state.location.pathname).toBe('/intake');
    expect(calls.filter((c) => c.key === 'POST /api/account/login').map((c) => c.body)).toEqual([
      { userName: 'alex', password: 'Demo-pass-2026!' },
      { userName: 'alex', password: 'Demo-pass-2026!', code: '123456' },
    ]);
  });

  it('returns to the stored page after signing in, once', async () => {
    stubApi({ profile: demoProfile({ roles: ['Administrator'] }), handlers: { 'POST /api/account/login': () => json(200, tokens) } });
    storeRedirect('/release');
    const { router } = start();
    const user = await fillIn('alex', 'Demo-pass-2026!');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await screen.findByRole('heading', { level: 1, name: 'Release' });
    expect(router.state.location.pathname).toBe('/release');
    expect(sessionStorage.getItem('clinicrelay.redirectUrl')).toBeNull();
  });

  it('validates required fields before calling the server', async () => {
    const { calls } = stubApi();
    start();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Log in' }));
    expect(await screen.findByText('Username is required.')).toBeTruthy();
    expect(screen.getByText('Password is required.')).toBeTruthy();
    expect(calls).toEqual([]);
  });
});

describe('sign-out', () => {
  it('calls logout, forgets the tokens and shows the sign-in page', async () => {
    localStorage.setItem('clinicrelay.accessToken', 'access-1');
    localStorage.setItem('clinicrelay.accessTokenExpiresAt', String(Date.now() + 900_000));
    localStorage.setItem('clinicrelay.refreshToken', 'refresh-1');
    const { calls } = stubApi();
    const { router } = start('/account/logout');
    await screen.findByRole('heading', { level: 1, name: 'Sign in' });
    expect(router.state.location.pathname).toBe('/account/login');
    expect(calls.map((c) => c.key)).toEqual(['POST /api/account/logout']);
    await waitFor(() => expect(localStorage.getItem('clinicrelay.refreshToken')).toBeNull());
  });
});
