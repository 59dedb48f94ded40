import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { registrationMessages as text } from '@clinicrelay/contracts/registration.ts';
import { orgUserMessages } from '@clinicrelay/contracts/users.ts';
import { json, renderApp, stubApi } from '../../app/app-test-harness.tsx';

let uninstall: (() => void) | undefined;
afterEach(() => uninstall?.());

function start(url: string) {
  const app = renderApp(url);
  uninstall = app.uninstall;
  return app;
}

const PASSWORD = 'Harbor-Lights-2031';

// What Hazel types into the form; the registration sends it as typed.
const hazel = { organizationName: 'Harbor Family Clinic', firstName: 'Hazel', lastName: 'Harbor', email: 'hazel@harbor.example.com', password: PASSWORD, confirmPassword: PASSWORD };

async function fillIn(user: ReturnType<typeof userEvent.setup>) {
  await user.type(await screen.findByLabelText(/Organization name/), hazel.organizationName);
  await user.type(screen.getByLabelText(/First name/), hazel.firstName);
  await user.type(screen.getByLabelText(/Last name/), hazel.lastName);
  await user.type(screen.getByLabelText(/^Email/), hazel.email);
  await user.type(screen.getByLabelText(/^Password/), hazel.password);
  await user.type(screen.getByLabelText(/Confirm password/), hazel.confirmPassword);
}

describe('registration page', () => {
  it('registers, then shows the check-your-email state with a resend that never tells whether the account exists', async () => {
    const { calls } = stubApi({
      handlers: {
        'POST /api/account/register': () => json(200, { message: text.registered }),
        'POST /api/account/verify/resend': () => json(200, { message: text.resent }),
      },
    });
    start('/account/register');
    expect(await screen.findByRole('heading', { level: 1, name: 'Register your organization' })).toBeTruthy();
    const user = userEvent.setup();
    await fillIn(user);
    await user.click(screen.getByRole('button', { name: 'Register' }));

    expect(await screen.findByRole('heading', { level: 1, name: text.checkEmail })).toBeTruthy();
    expect(screen.getByText(text.registered)).toBeTruthy();
    expect(calls.find((c) => c.key === 'POST /api/account/register')?.body).toEqual({ ...hazel, urlCode: null, invitation: null });
    await user.click(screen.getByRole('button', { name: 'Send it again' }));
    expect(await screen.findByText(text.resent)).toBeTruthy();
    expect(calls.find((c) => c.key === 'POST /api/account/verify/resend')?.body).toEqual({ email: 'hazel@harbor.example.com' });
  });

  it('says an email that is not valid, and never asks the server whether an account exists (issue 26)', async () => {
    const { calls } = stubApi({ handlers: { 'POST /api/account/register': () => json(200, { message: text.registered }) } });
    start('/account/register');
    const user = userEvent.setup();
    await fillIn(user);
    const email = screen.getByLabelText(/^Email/);
    await user.clear(email);
    await user.type(email, 'not-an-email');
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByText(orgUserMessages.userNameNotValid)).toBeTruthy();
    await user.clear(email);
    await user.type(email, 'admin@lakeside.example.org');
    await user.click(screen.getByRole('button', { name: 'Register' }));
    // An existing address gets the same answer as a new one; its owner is told by mail.
    expect(await screen.findByRole('heading', { level: 1, name: text.checkEmail })).toBeTruthy();
    expect(calls.some((c) => c.key.includes('/find'))).toBe(false);
  });

  it('shows the server’s field messages at their fields', async () => {
    stubApi({
      handlers: {
        'POST /api/account/register': () => json(400, { message: 'This password is too common. Choose another one.', modelState: { password: ['This password is too common. Choose another one.'] } }),
      },
    });
    start('/account/register');
    const user = userEvent.setup();
    await fillIn(user);
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByText('This password is too common. Choose another one.')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: text.checkEmail })).toBeNull();
  });

  it('refuses to send when required fields are empty or the passwords differ', async () => {
    const { calls } = stubApi();
    start('/account/register');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^Password/), PASSWORD);
    await user.type(screen.getByLabelText(/Confirm password/), 'different-2031');
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByText(text.organizationNameRequired)).toBeTruthy();
    expect(screen.getByText(text.firstNameRequired)).toBeTruthy();
    expect(screen.getByText(text.passwordsDoNotMatch)).toBeTruthy();
    expect(calls.some((c) => c.key === 'POST /api/account/register')).toBe(false);
  });

  it('brands a reseller link with its logo, colour, welcome and registration texts, and registers with its code', async () => {
    const { calls } = stubApi({
      handlers: {
        'GET /api/account/register/reseller/northwind': () =>
          json(200, { name: 'Northwind Health', logoUrl: '/api/resellers/r1/logo?v=1', logoBackgroundColor: '3f4449', welcomeText: 'Welcome, Northwind members!', registrationText: 'Use your practice details.' }),
        'POST /api/account/register': () => json(200, { message: text.registered }),
      },
    });
    start('/register/northwind');
    expect(await screen.findByRole('img', { name: 'Northwind Health logo' })).toBeTruthy();
    expect(screen.getByText('Welcome, Northwind members!')).toBeTruthy();
    expect(screen.getByText('Use your practice details.')).toBeTruthy();
    expect(screen.getByTestId('reseller-banner').style.backgroundColor).toMatch(/#3f4449|rgb\(63, 68, 73\)/);
    const user = userEvent.setup();
    await fillIn(user);
    await user.click(screen.getByRole('button', { name: 'Register' }));
    await screen.findByRole('heading', { name: text.checkEmail });
    expect(calls.find((c) => c.key === 'POST /api/account/register')?.body).toMatchObject({ urlCode: 'northwind' });
  });

  it('says so when a reseller link is unknown, and registers without it', async () => {
    stubApi();
    start('/register/nobody');
    expect(await screen.findByText(text.resellerNotFound)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Register' })).toBeTruthy();
  });

  it('prefills name and email from the invitation link and sends its code', async () => {
    const { calls } = stubApi({
      handlers: {
        'GET /api/account/register/invitation?code=abc123': () => json(200, { firstName: 'Dr. Ana', lastName: 'Souza', email: 'ana.souza@clinic.example.com', invitedBy: 'Lakeside Family Medicine' }),
        'POST /api/account/register': () => json(200, { message: text.registered }),
      },
    });
    start('/account/register?invitation=abc123');
    await waitFor(() => expect(screen.getByLabelText<HTMLInputElement>(/^Email/).value).toBe('ana.souza@clinic.example.com'));
    expect(screen.getByLabelText<HTMLInputElement>(/First name/).value).toBe('Dr. Ana');
    expect(screen.getByLabelText<HTMLInputElement>(/Last name/).value).toBe('Souza');
    expect(screen.getByText('Lakeside Family Medicine')).toBeTruthy();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/Organization name/), 'Souza Cardiology');
    await user.type(screen.getByLabelText(/^Password/), PASSWORD);
    await user.type(screen.getByLabelText(/Confirm password/), PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Register' }));
    await screen.findByRole('heading', { name: text.checkEmail });
    expect(calls.find((c) => c.key === 'POST /api/account/register')?.body).toMatchObject({ invitation: 'abc123', email: 'ana.souza@clinic.example.com' });
  });
});

describe('email confirmation page', () => {
  it('confirms once from the link and offers sign-in', async () => {
    const { calls } = stubApi({ handlers: { 'POST /api/account/verify': () => json(200, { message: text.emailConfirmed }) } });
    start('/account/verify?token=tok-1');
    expect(await screen.findByText(text.emailConfirmed)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/account/login');
    expect(calls.filter((c) => c.key === 'POST /api/account/verify')).toEqual([{ key: 'POST /api/account/verify', body: { token: 'tok-1' } }]);
  });

  it('explains a used or expired link and asks for a new one', async () => {
    const { calls } = stubApi({
      handlers: {
        'POST /api/account/verify': () => json(400, { message: text.linkInvalid, modelState: { token: [text.linkInvalid] } }),
        'POST /api/account/verify/resend': () => json(200, { message: text.resent }),
      },
    });
    start('/account/verify?token=old');
    expect(await screen.findByText(text.linkInvalid)).toBeTruthy();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email address'), 'quinn@quayside.example.com');
    await user.click(screen.getByRole('button', { name: 'Send a new link' }));
    expect(await screen.findByText(text.resent)).toBeTruthy();
    expect(calls.find((c) => c.key === 'POST /api/account/verify/resend')?.body).toEqual({ email: 'quinn@quayside.example.com' });
  });
});
