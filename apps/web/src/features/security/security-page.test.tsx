import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { demoProfile, json, renderApp, signIn, stubApi } from '../../app/app-test-harness.tsx';

// Issue 14 §6: /settings/security and the enrolment administrators cannot skip.

const me = { id: 'u-1', userName: 'alex@lakeside.example', firstName: 'Alex', lastName: 'Morgan', email: 'alex@lakeside.example', phoneNumber: null, organizationId: 'org-lakeside', roles: ['User'] };
const codes = Array.from({ length: 10 }, (_, i) => `ABCD${i}-EFGH${i}`.replace(/\d/g, 'Q'));
const setup = { secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', otpAuthUri: 'otpauth://totp/x', qrCode: 'data:image/svg+xml;base64,PHN2Zy8+' };
let uninstall: (() => void) | undefined;

afterEach(() => {
  uninstall?.();
});

function start(url: string) {
  signIn();
  const app = renderApp(url);
  uninstall = app.uninstall;
  return app;
}

const INVALID_CODE = 'The verification code is not valid.';
const invalidCode = () => json(400, { message: INVALID_CODE, modelState: { code: [INVALID_CODE] } });

/** Types a wrong code and sees it refused, then types the right one; both sent with `button`. */
async function wrongThenRightCode(user: ReturnType<typeof userEvent.setup>, button: string, wrong: string, right: string) {
  await user.type(screen.getByLabelText('Verification code'), wrong);
  await user.click(screen.getByRole('button', { name: button }));
  expect(await screen.findByText(INVALID_CODE)).toBeTruthy();
  await user.clear(screen.getByLabelText('Verification code'));
  await user.type(screen.getByLabelText('Verification code'), right);
  await user.click(screen.getByRole('button', { name: button }));
}

describe('security settings', () => {
  it('enrols an authenticator app: QR code, secret, a wrong then a right code, then the recovery codes once', async () => {
    let enabled = false;
    const { calls } = stubApi({
      handlers: {
        'GET /api/users/current': () => json(200, { ...me, twoFactorEnabled: enabled, tokenAuthEnabled: enabled }),
        'GET /api/users/enabletokenauth': () => json(200, setup),
        'POST /api/users/enabletokenauth': (body) => {
          if ((body as { code: string }).code !== '123456') return invalidCode();
          enabled = true;
          return json(200, { message: 'Two-factor sign-in with an authenticator app is on.', recoveryCodes: codes });
        },
      },
    });
    start('/settings/security');
    expect(await screen.findByRole('heading', { level: 1, name: 'Security' })).toBeTruthy();
    const section = screen.getByRole('region', { name: 'Two-factor sign-in' });
    expect(await within(section).findByText('Off')).toBeTruthy();
    const user = userEvent.setup();
    await user.click(within(section).getByRole('button', { name: 'Set up an authenticator app' }));
    expect((await screen.findByAltText('QR code for your authenticator app')).getAttribute('src')).toBe(setup.qrCode);
    expect(screen.getByLabelText('Secret key').textContent).toBe(setup.secret);

    await wrongThenRightCode(user, 'Turn on', '000000', '123456');

    expect(await screen.findByText('Save your recovery codes')).toBeTruthy();
    const list = screen.getByRole('list', { name: 'Recovery code list' });
    expect(within(list).getAllByRole('listitem').map((li) => li.textContent)).toEqual(codes);
    expect(screen.getByRole('button', { name: 'Copy codes' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Download codes' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'I saved my codes' }));
    expect(await within(section).findByText('On')).toBeTruthy();
    expect(screen.queryByText('Save your recovery codes')).toBeNull();
    expect(calls.filter((c) => c.key === 'POST /api/users/enabletokenauth').map((c) => c.body)).toEqual([{ code: '000000' }, { code: '123456' }]);
  });

  it('enrols codes by email: sends a code, then turns on with it', async () => {
    const { calls } = stubApi({
      handlers: {
        'GET /api/users/current': () => json(200, { ...me, twoFactorEnabled: false, tokenAuthEnabled: false }),
        'GET /api/users/sendcode?method=Email': () => json(200, { message: 'A verification code was sent to your email address.' }),
        'GET /api/users/enabletfa?code=654321': () => json(200, { message: 'Two-factor sign-in with codes by email is on.', recoveryCodes: codes }),
      },
    });
    start('/settings/security');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('radio', { name: 'Codes by email' }));
    await user.click(screen.getByRole('button', { name: 'Send a code' }));
    expect(await screen.findByText('A verification code was sent to your email address.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Send the code again' })).toBeTruthy();
    await user.type(screen.getByLabelText('Verification code'), '654321');
    await user.click(screen.getByRole('button', { name: 'Turn on' }));
    expect(await screen.findByText('Two-factor sign-in with codes by email is on.')).toBeTruthy();
    expect(calls.some((c) => c.key === 'GET /api/users/enabletfa?code=654321')).toBe(true);
  });

  it('turns two-factor off with a code (verifycode with disable) and shows a wrong code’s message', async () => {
    let enabled = true;
    const { calls } = stubApi({
      handlers: {
        'GET /api/users/current': () => json(200, { ...me, twoFactorEnabled: enabled, tokenAuthEnabled: enabled }),
        'POST /api/users/u-1/verifycode': (body) => {
          if ((body as { code: string }).code !== '222222') return invalidCode();
          enabled = false;
          return json(200, { verified: true, message: 'Two-factor sign-in is off.' });
        },
      },
    });
    start('/settings/security');
    expect(await screen.findByText('Each sign-in asks for the code of your authenticator app.')).toBeTruthy();
    const user = userEvent.setup();
    await wrongThenRightCode(user, 'Turn off', '111111', '222222');
    expect(await screen.findByRole('button', { name: 'Set up an authenticator app' })).toBeTruthy();
    expect(calls.filter((c) => c.key === 'POST /api/users/u-1/verifycode').map((c) => c.body)).toEqual([
      { code: '111111', disable: true },
      { code: '222222', disable: true },
    ]);
  });
});

describe('mandatory enrolment', () => {
  it('shows a modal that cannot be closed and no page behind it, until the profile says enrolment is done', async () => {
    let required = true;
    stubApi({
      profile: undefined,
      handlers: {
        'GET /api/users/profiledata': () => json(200, demoProfile({ roles: ['Administrator'], isAdmin: true, twoFactorEnrolmentRequired: required })),
        'GET /api/users/enabletokenauth': () => json(200, setup),
        'POST /api/users/enabletokenauth': () => {
          required = false;
          return json(200, { message: 'Two-factor sign-in with an authenticator app is on.', recoveryCodes: codes });
        },
      },
    });
    start('/intake');
    const dialog = await screen.findByRole('dialog', { name: 'Set up two-factor sign-in' });
    expect(within(dialog).queryByRole('button', { name: /close/i })).toBeNull();
    expect(screen.queryByRole('heading', { level: 1, name: 'Intake' })).toBeNull();
    const user = userEvent.setup();
    await user.keyboard('{Escape}');
    expect(screen.getByRole('dialog', { name: 'Set up two-factor sign-in' })).toBeTruthy();
    expect(within(dialog).getByRole('link', { name: 'Sign out' })).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Set up an authenticator app' }));
    await user.type(await within(dialog).findByLabelText('Verification code'), '123456');
    await user.click(within(dialog).getByRole('button', { name: 'Turn on' }));
    await user.click(await within(dialog).findByRole('button', { name: 'I saved my codes' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Set up two-factor sign-in' })).toBeNull());
    expect(await screen.findByRole('heading', { level: 1, name: 'Intake' })).toBeTruthy();
  });
});

describe('sign-in with two-factor', () => {
  // Alex logs in with the right password; the stubbed server then asks for the second factor.
  async function logIn() {
    uninstall = renderApp('/account/login').uninstall;
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Username'), 'alex');
    await user.type(screen.getByLabelText('Password'), 'Demo-pass-2026!');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    return user;
  }

  it('says the code was emailed, sends it again, and hints at recovery codes', async () => {
    const { calls } = stubApi({
      handlers: {
        'POST /api/account/login': () => json(401, { message: 'A verification code is required.', twoFactorRequired: true, twoFactorMethod: 'Email' }),
      },
    });
    const user = await logIn();
    expect((await screen.findByRole('alert')).textContent).toContain('A verification code is required. We sent it to your email address.');
    expect(screen.getByText('Enter the 6-digit code we emailed you, or a recovery code.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Send the code again' }));
    await waitFor(() => expect(calls.filter((c) => c.key === 'POST /api/account/login')).toHaveLength(2));
    expect(calls.filter((c) => c.key === 'POST /api/account/login')[1]!.body).toEqual({ userName: 'alex', password: 'Demo-pass-2026!' });
  });

  it('asks an app user for the app code or a recovery code, without a resend', async () => {
    stubApi({ handlers: { 'POST /api/account/login': () => json(401, { message: 'A verification code is required.', twoFactorRequired: true, twoFactorMethod: 'App' }) } });
    await logIn();
    expect(await screen.findByText('Enter the 6-digit code of your authenticator app, or a recovery code.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Send the code again' })).toBeNull();
  });
});
