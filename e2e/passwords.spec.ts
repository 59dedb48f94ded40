import { expect } from 'vitest';
import { expectNoAxeViolations, screenshot } from './support/axe.ts';
import { DEMO_PASSWORD } from './support/constants.ts';
import { alertText, apiSignIn, expectHeading, expectPath, openSignIn, signIn } from './support/journeys.ts';
import { mailsMentioning } from './support/outbox.ts';
import { test } from './support/test.ts';

// Issue 14 §5 and §7: a user asks for a reset from the sign-in page, sets a new password from the mail's link with
// the strength meter showing, signs in with it, changes it from the user menu, and the same link is refused later.
// The user is made for this journey (through the API), so no other journey's demo user changes its password.

test('a password reset from the outbox mail works once', { timeout: 120_000 }, async ({ page, baseUrl }) => {
  const run = Date.now().toString(36);
  const userName = `pat.${run}@lakeside.example.org`;
  const lakeside = await apiSignIn(baseUrl, 'admin@lakeside.example.org');
  const { organizationId } = (await (await fetch(`${baseUrl}/api/users/profiledata`, { headers: lakeside })).json()) as { organizationId: string };
  const created = await fetch(`${baseUrl}/api/admin/users`, {
    method: 'POST',
    headers: { ...(await apiSignIn(baseUrl, 'sysadmin@example.org')), 'content-type': 'application/json' },
    body: JSON.stringify({
      userDetails: { userName, firstName: 'Pat', lastName: `Reset ${run}`, email: '', roleName: 'User', primaryJobFunction: { id: 1 } },
      password: DEMO_PASSWORD,
      confirmPassword: DEMO_PASSWORD,
      organizationId,
      emailCreatePassword: false,
    }),
  });
  expect(created.status, await created.clone().text()).toBe(200);
  // The terms dialog of a new user's first sign-in belongs to the onboarding journey: Pat accepts them here.
  const pat = await apiSignIn(baseUrl, userName);
  const terms = await fetch(`${baseUrl}/api/eulas/current`, { headers: pat });
  if (terms.status === 200) {
    const { id, acceptedAt } = (await terms.json()) as { id: string; acceptedAt: string | null };
    if (!acceptedAt) {
      const accepted = await fetch(`${baseUrl}/api/eulas/${id}/accept`, { method: 'POST', headers: { ...pat, 'content-type': 'application/json' }, body: JSON.stringify({ accepted: true }) });
      expect(accepted.status).toBe(200);
    }
  }

  // "Forgot your password?" on the sign-in page.
  await openSignIn(page);
  await screenshot(page, 'sign-in-forgot-password');
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await expectPath(page, '/account/forgot-password');
  await expectHeading(page, 'Reset your password');
  await screenshot(page, 'forgot-password');
  await expectNoAxeViolations(page, 'forgot-password');
  await page.getByRole('textbox', { name: 'Email' }).fill(userName);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await page.getByText('If an account exists for this email address, we have sent a link to reset the password.', { exact: false }).waitFor();
  await screenshot(page, 'forgot-password-sent');

  // The mail's link.
  await expect.poll(() => mailsMentioning(userName, '/account/password?token=').length, { timeout: 20_000, interval: 250 }).toBe(1);
  const mail = mailsMentioning(userName, '/account/password?token=')[0]!;
  expect(mail).toContain('The link works once and expires in one hour.');
  const href = /https?:\/\/[^\s"<>]+\/account\/password\?token=[^\s"<>]+/.exec(mail)![0].replace(/&amp;/g, '&');
  const link = new URL(href).pathname + new URL(href).search;

  // The meter rates what is typed and says why a common password is refused.
  await page.goto(link);
  await expectHeading(page, 'Choose your password');
  const password = page.getByRole('textbox', { name: 'Password', exact: true });
  await password.fill('qwertyuiop');
  const meter = page.getByRole('progressbar', { name: 'Strength of the password' });
  await expect.poll(() => meter.getAttribute('aria-valuetext'), { timeout: 10_000 }).toBe('Very weak');
  await page.getByText('This password is too common. Choose another one.', { exact: false }).waitFor();
  await screenshot(page, 'set-password-weak');
  const newPassword = `Quartz-Meadow-${run}!`;
  await password.fill(newPassword);
  await expect.poll(() => meter.getAttribute('aria-valuetext'), { timeout: 10_000 }).toBe('Strong');
  await page.getByLabel(/^Confirm password/).fill(newPassword);
  await screenshot(page, 'set-password-strong');
  await expectNoAxeViolations(page, 'set-password-strong');
  await page.getByRole('button', { name: 'Set password' }).click();
  await page.getByText('Your password has been set. You can sign in now.').waitFor();

  // The old password no longer works; the new one does.
  await openSignIn(page);
  const refused = await page.request.post('/api/account/login', { data: { userName, password: DEMO_PASSWORD } });
  expect(refused.status()).toBe(401);
  await signIn(page, userName, newPassword);
  await expect.poll(() => new URL(page.url()).pathname, { timeout: 10_000 }).not.toBe('/account/login');

  // Change password, from the user menu.
  await page.getByRole('button', { name: `Pat Reset ${run}` }).click();
  await page.getByRole('menuitem', { name: 'Change password' }).click();
  await expectHeading(page, 'Change password');
  await page.getByLabel(/^Current password/).fill(newPassword);
  const changed = `Harbor-Lantern-${run}-7`;
  await page.getByLabel(/^New password/).fill(changed);
  await page.getByLabel(/^Confirm new password/).fill(changed);
  await expect.poll(() => page.getByRole('progressbar', { name: 'Strength of the password' }).getAttribute('aria-valuetext'), { timeout: 10_000 }).toBe('Strong');
  await screenshot(page, 'change-password');
  await expectNoAxeViolations(page, 'change-password');
  await page.getByRole('button', { name: 'Change password' }).click();
  await page.getByText('Your password has been changed.').waitFor();

  // The same link a second time: refused.
  await page.goto(link);
  await expectHeading(page, 'Choose your password');
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(`Another-${newPassword}`);
  await page.getByLabel(/^Confirm password/).fill(`Another-${newPassword}`);
  await page.getByRole('button', { name: 'Set password' }).click();
  expect(await alertText(page)).toBe('This link is no longer valid. Please ask your administrator for a new one.');
  await page.getByRole('link', { name: 'Request a new password reset link' }).waitFor();
  await screenshot(page, 'set-password-used-link');
});
