import { expect } from 'vitest';
import { expectNoAxeViolations, screenshot } from './support/axe.ts';
import { DEMO_PASSWORD } from './support/constants.ts';
import { acceptTerms, alertText, expectHeading, expectPath, openSignIn, signIn, submitSignIn, waitForExpression } from './support/journeys.ts';
import { test } from './support/test.ts';
import { totpCode } from './support/totp.ts';

// Issue 14 §6: a new Riverview user (made through the back-office API, so no other journey's user changes) enrols an
// authenticator app from /settings/security, signs out, signs in with a code; the same code again is refused.

async function api<T>(baseUrl: string, path: string, init: { method?: string; token?: string; body?: unknown } = {}): Promise<T> {
  const res = await fetch(`${baseUrl}${path}`, {
    method: init.method ?? 'GET',
    headers: { ...(init.token ? { authorization: `Bearer ${init.token}` } : {}), ...(init.body ? { 'content-type': 'application/json' } : {}) },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

// A user new to the organization accepts its active terms first (the onboarding dialogs open after about 1 s).
const tokenOf = async (baseUrl: string, userName: string) =>
  (await api<{ accessToken: string }>(baseUrl, '/api/account/login', { method: 'POST', body: { userName, password: DEMO_PASSWORD } })).accessToken;

test('a user enrols an authenticator app and signs in with a code that works once', { timeout: 180_000 }, async ({ page, baseUrl }) => {
  const run = Date.now().toString(36);
  const userName = `tfa.${run}@riverview.example.org`;
  const password = `${DEMO_PASSWORD}-${run}`;
  const riverview = (await api<{ organizationId: string }>(baseUrl, '/api/users/profiledata', { token: await tokenOf(baseUrl, 'admin@riverview.example.org') })).organizationId;
  await api(baseUrl, '/api/admin/users/', {
    method: 'POST',
    token: await tokenOf(baseUrl, 'sysadmin@example.org'),
    body: {
      userDetails: { userName, firstName: 'Tatum', lastName: `Fields ${run}`, email: '', roleName: 'User', primaryJobFunction: { id: 1 } },
      password,
      confirmPassword: password,
      organizationId: riverview,
      emailCreatePassword: false,
    },
  });

  await openSignIn(page);
  await signIn(page, userName, password);
  await acceptTerms(page);
  await page.getByRole('button', { name: `Tatum Fields ${run}` }).click();
  await page.getByRole('menuitem', { name: 'Security' }).click();
  await expectHeading(page, 'Security');
  const section = page.getByRole('region', { name: 'Two-factor sign-in' });
  await section.getByText('Off', { exact: true }).waitFor();
  await screenshot(page, 'security-off');
  await expectNoAxeViolations(page, 'security-off');

  await section.getByRole('button', { name: 'Set up an authenticator app' }).click();
  await section.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
  const secret = (await section.getByLabel('Secret key').innerText()).trim();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await screenshot(page, 'security-app-setup');
  await expectNoAxeViolations(page, 'security-app-setup');
  await section.getByLabel('Verification code').fill(totpCode(secret));
  await section.getByRole('button', { name: 'Turn on' }).click();
  await section.getByText('Save your recovery codes').waitFor();
  expect(await section.getByRole('list', { name: 'Recovery code list' }).getByRole('listitem').count()).toBe(10);
  await screenshot(page, 'security-recovery-codes');
  await expectNoAxeViolations(page, 'security-recovery-codes');
  await section.getByRole('button', { name: 'I saved my codes' }).click();
  await section.getByText('On', { exact: true }).waitFor();
  await section.getByRole('button', { name: 'Turn off' }).waitFor();
  await screenshot(page, 'security-on');

  // Sign out, then in: the password alone is not enough.
  await page.goto('/account/logout');
  await expectHeading(page, 'Sign in');
  const first = await submitSignIn(page, userName, password);
  expect(first.status()).toBe(401);
  expect(await alertText(page)).toContain('A verification code is required.');
  await page.getByText('Enter the 6-digit code of your authenticator app, or a recovery code.').waitFor();
  await screenshot(page, 'sign-in-code');
  await expectNoAxeViolations(page, 'sign-in-code');
  // The confirmation used this time step: the next one (one step of drift is allowed) signs in.
  const code = totpCode(secret, 1);
  await page.getByLabel('Verification code').fill(code);
  const [signedIn] = await Promise.all([
    page.waitForResponse((r) => new URL(r.url()).pathname === '/api/account/login' && r.request().method() === 'POST'),
    page.getByRole('button', { name: 'Log in', exact: true }).click(),
  ]);
  expect(signedIn.status()).toBe(200);
  await waitForExpression(page, `localStorage.getItem('clinicrelay.accessToken') !== null`);
  await expectPath(page, '/intake');

  // The same code again: refused.
  await page.goto('/account/logout');
  await expectHeading(page, 'Sign in');
  await submitSignIn(page, userName, password);
  await page.getByLabel('Verification code').fill(code);
  const [replay] = await Promise.all([
    page.waitForResponse((r) => new URL(r.url()).pathname === '/api/account/login' && r.request().method() === 'POST'),
    page.getByRole('button', { name: 'Log in', exact: true }).click(),
  ]);
  expect(replay.status()).toBe(401);
  expect(await alertText(page)).toContain('A verification code is required.');
});
