import path from 'node:path';
import { describe, expect } from 'vitest';
import { RESULTS_DIR } from './support/constants.ts';
import {
  alertText,
  expectHeading,
  expectPath,
  openSignIn,
  signIn,
  storedAccessToken,
  submitSignIn,
} from './support/journeys.ts';
import { test } from './support/test.ts';

// Journeys of the foundation issue: sign-in and landing, role guard, lockout, sign-out, deep links, org switch.

interface DemoAccount {
  userName: string;
  fullName: string;
  path: string;
  heading: string;
}

const MESSAGING_DASHBOARD = { path: '/admin/dashboard/messaging', heading: 'Messaging dashboard' };
const ACCOUNT_DASHBOARD = { path: '/account/dashboard', heading: 'Dashboard' };
const INTAKE = { path: '/intake', heading: 'Intake' };

const demoAccounts: DemoAccount[] = [
  { userName: 'sysadmin@example.org', fullName: 'Sam Admin', ...MESSAGING_DASHBOARD },
  { userName: 'reporting@example.org', fullName: 'Rita Reports', ...MESSAGING_DASHBOARD },
  { userName: 'admin@lakeside.example.org', fullName: 'Laura Lake', ...ACCOUNT_DASHBOARD },
  { userName: 'user@lakeside.example.org', fullName: 'Leo Shore', ...INTAKE },
  { userName: 'admin@riverview.example.org', fullName: 'Rachel Rivers', ...ACCOUNT_DASHBOARD },
  { userName: 'user@riverview.example.org', fullName: 'Ray Banks', ...INTAKE },
  { userName: 'admin@hillcrest.example.org', fullName: 'Hannah Hill', ...ACCOUNT_DASHBOARD },
  // Oakwood Clinic is canceled: its users land on the reactivation or canceled modal (organization.spec.ts).
  { userName: 'multi@example.org', fullName: 'Morgan Multi', ...INTAKE },
  { userName: 'netadmin@example.org', fullName: 'Nina Network', ...ACCOUNT_DASHBOARD },
];

describe('sign-in lands each demo account on its role default', () => {
  test.for(demoAccounts)('$userName lands on $path', async (account, { page }) => {
    await openSignIn(page);
    await signIn(page, account.userName);
    await expectPath(page, account.path);
    await expectHeading(page, account.heading);
    // The header's user menu carries the signed-in user's name.
    await page.getByRole('button', { name: account.fullName, exact: true }).waitFor();
  });
});

test('a User opening a back-office page lands on /unauthorized', async ({ page }) => {
  await openSignIn(page);
  await signIn(page, 'user@lakeside.example.org');
  await expectPath(page, '/intake');

  await page.goto('/admin/networks');
  await expectPath(page, '/unauthorized');
  await expectHeading(page, 'Unauthorized');
  await page.getByText('You are not authorized to view this resource.').waitFor();
});

test('a deep link opened while signed out survives sign-in', async ({ page }) => {
  await page.goto('/release');
  await expectPath(page, '/account/login');
  await expectHeading(page, 'Sign in');

  await signIn(page, 'user@lakeside.example.org');
  await expectPath(page, '/release');
  await expectHeading(page, 'Release');
});

test('sign-out returns to sign-in and revokes the old access token', async ({ page, context, baseUrl }) => {
  await openSignIn(page);
  await signIn(page, 'admin@lakeside.example.org');
  await expectPath(page, '/account/dashboard');
  const token = await storedAccessToken(context, baseUrl);
  expect(token, 'access token in localStorage after sign-in').toBeTruthy();
  const bearer = { Authorization: `Bearer ${token}` };
  expect((await page.request.get('/api/users/profiledata', { headers: bearer })).status()).toBe(200);

  await page.getByRole('button', { name: 'Laura Lake', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expectPath(page, '/account/login');
  await expectHeading(page, 'Sign in');
  expect(await storedAccessToken(context, baseUrl)).toBeNull();

  const afterSignOut = await page.request.get('/api/users/profiledata', { headers: bearer });
  expect(afterSignOut.status()).toBe(401);
  expect(await afterSignOut.json()).toMatchObject({ message: 'Token revoked or expired.' });

  // Without a session, a signed-in page sends the browser back to sign-in.
  await page.goto('/account/dashboard');
  await expectPath(page, '/account/login');
});

test('a user of two organizations switches organization from the header', async ({ page }) => {
  await openSignIn(page);
  await signIn(page, 'multi@example.org');
  await expectPath(page, '/intake');
  const switcher = page.getByRole('combobox', { name: 'Organization' });
  await expect.poll(() => switcher.inputValue()).toBe('Lakeside Family Medicine');

  await switcher.click();
  const [change] = await Promise.all([
    page.waitForResponse((r) => new URL(r.url()).pathname === '/api/account/change'),
    page.getByRole('option', { name: 'Riverview Cardiology', exact: true }).click(),
  ]);
  expect(change.status()).toBe(200);
  await expect.poll(() => switcher.inputValue()).toBe('Riverview Cardiology');
  await expectHeading(page, 'Intake');

  // The switch belongs to the session, not to the page: a reload keeps it.
  await page.reload();
  await expectHeading(page, 'Intake');
  await expect.poll(() => switcher.inputValue()).toBe('Riverview Cardiology');
});

test('a system administrator browses the API documentation from the user menu', async ({ page, context }) => {
  await openSignIn(page);
  await signIn(page, 'sysadmin@example.org');
  await expectPath(page, '/admin/dashboard/messaging');
  await page.getByRole('button', { name: 'Sam Admin', exact: true }).click();
  const [docs] = await Promise.all([
    context.waitForEvent('page'),
    page.getByRole('menuitem', { name: 'API documentation' }).click(),
  ]);
  await docs.getByRole('heading', { name: /ClinicRelay API/ }).waitFor();
  await docs.getByText('/api/users/profiledata', { exact: true }).first().waitFor();
});

test('an organization user has no API documentation link and the docs refuse them', async ({ page }) => {
  await openSignIn(page);
  await signIn(page, 'admin@lakeside.example.org');
  await expectPath(page, '/account/dashboard');
  await page.getByRole('button', { name: 'Laura Lake', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).waitFor();
  expect(await page.getByRole('menuitem', { name: 'API documentation' }).count()).toBe(0);
  expect((await page.request.get('/api/docs/')).status()).toBe(403);
});

test('a session the server ended shows the expiry notice, and sign-in returns to the same page', async ({ page, context, baseUrl }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openSignIn(page);
  await signIn(page, 'user@lakeside.example.org');
  await expectPath(page, '/intake');
  await page.goto('/release?tab=sent');
  await expectHeading(page, 'Release');

  // The server ends the session (as after SESSION_IDLE_MINUTES without a request); the browser still holds its tokens.
  const token = await storedAccessToken(context, baseUrl);
  expect((await page.request.post('/api/account/logout', { headers: { Authorization: `Bearer ${token}` } })).status()).toBe(200);

  await page.reload();
  await expectPath(page, '/account/login');
  await page.getByText('Your session has expired. Please sign in again.').waitFor();
  await page.screenshot({ path: path.join(RESULTS_DIR, 'session-expired-1440.png') });

  await signIn(page, 'user@lakeside.example.org');
  await expect.poll(() => new URL(page.url()).pathname + new URL(page.url()).search).toBe('/release?tab=sent');
  await expectHeading(page, 'Release');
});

// On an account of its own, registered here (not confirmed: the lock is checked before anything else), so no other
// journey's sign-in can meet the lock, whatever order the files run in.
test('three wrong passwords lock the account', async ({ page, baseUrl }) => {
  const userName = `lockout-${Date.now()}@example.org`;
  const password = 'Lockout-Journey-2026!';
  const registered = await fetch(`${baseUrl}/api/account/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ organizationName: `Lockout Clinic ${Date.now()}`, firstName: 'Lena', lastName: 'Lockout', email: userName, password, confirmPassword: password }),
  });
  expect(registered.status, await registered.text()).toBe(200);
  await openSignIn(page);

  for (const attempt of [1, 2]) {
    const response = await submitSignIn(page, userName, `Wrong-pass-${attempt}!`);
    expect(response.status()).toBe(401);
    expect(await alertText(page)).toBe('Invalid user name or password.');
  }
  const third = await submitSignIn(page, userName, 'Wrong-pass-3!');
  expect(third.status()).toBe(401);
  expect(await alertText(page)).toBe('Your account is locked for 10 minutes after 3 failed login attempts.');

  // Locked means locked: the right password is refused too, and the page stays on sign-in.
  await submitSignIn(page, userName, password);
  expect(await alertText(page)).toBe('Your account is locked for 10 minutes after 3 failed login attempts.');
  await expectPath(page, '/account/login');
});
