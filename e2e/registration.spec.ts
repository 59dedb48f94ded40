import { expect } from 'vitest';
import { expectNoAxeViolations, screenshot } from './support/axe.ts';
import { DEMO_PASSWORD } from './support/constants.ts';
import { acceptTerms, activateOrganization, alertText, answerQuiz, apiSignIn, composeReferral, expectHeading, openSignIn, signIn, submitIdentity, submitSignIn, type SandboxIdentity } from './support/journeys.ts';
import { mailMentioning } from './support/outbox.ts';
import { newContext, test } from './support/test.ts';

// Issue 14 §1: a clinic signs itself up, confirms its email address from the outbox's mail and signs in.

const CONFIRM_FIRST = 'Please confirm your email address: we sent you a link. You can ask for a new one on the registration page.';

const HAZEL: SandboxIdentity = {
  firstName: 'Hazel',
  lastName: 'Harbor',
  dateOfBirth: '1976-09-03',
  ssn: '123456789',
  phone: '5035550199',
  address: '12 Harbor Way',
  city: 'Astoria',
  state: 'Oregon',
  zip: '97103',
};

test('a new organization registers, confirms its email, onboards, is activated and sends its first message', { timeout: 240_000 }, async ({ page, browser, baseUrl }) => {
  const run = Date.now().toString(36);
  const organizationName = `Harbor Family Clinic ${run}`;
  const email = `hazel.${run}@harbor.example.com`;
  const password = `${DEMO_PASSWORD}-${run}`;

  await page.goto('/account/register');
  await expectHeading(page, 'Register your organization');
  await page.getByLabel(/^Organization name/).fill(organizationName);
  await page.getByLabel(/^First name/).fill('Hazel');
  await page.getByLabel(/^Last name/).fill('Harbor');
  // The email is the user name; nothing on screen tells whether an account exists (issue 26).
  const emailField = page.getByLabel(/^Email/);
  await emailField.fill(email);
  await expect.poll(() => page.getByText('Username already exists').count()).toBe(0);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByLabel(/^Confirm password/).fill(password);
  await screenshot(page, 'registration-form');
  await expectNoAxeViolations(page, 'registration-form');
  await page.getByRole('button', { name: 'Register', exact: true }).click();

  await expectHeading(page, 'Check your email');
  await page.getByText('Thank you for registering. We sent you an email with a link to confirm your email address.').waitFor();
  await screenshot(page, 'registration-check-email');
  await expectNoAxeViolations(page, 'registration-check-email');

  // Before the address is confirmed, the right password is not enough.
  await openSignIn(page);
  const refused = await submitSignIn(page, email, password);
  expect(refused.status()).toBe(401);
  expect(await alertText(page)).toBe(CONFIRM_FIRST);

  // The verification mail in the outbox; its link confirms once.
  await expect.poll(() => mailMentioning(email), { timeout: 20_000, interval: 250 }).toMatch(/\/account\/verify\?token=/);
  const link = new URL(/https?:\/\/[^\s"<>]+\/account\/verify\?token=[^\s"<>]+/.exec(mailMentioning(email))![0].replace(/&amp;/g, '&'));
  await page.goto(link.pathname + link.search);
  await expectHeading(page, 'Confirm your email address');
  await page.getByText('Your email address is confirmed. You can sign in now.').waitFor();
  await screenshot(page, 'registration-verified');
  await expectNoAxeViolations(page, 'registration-verified');

  await page.goto(link.pathname + link.search);
  await page.getByText(/This confirmation link is invalid, has expired or has already been used/).waitFor();
  await screenshot(page, 'registration-verify-used');

  // The new Administrator signs in and onboards (issue 14 §7): terms, the sandbox identity check, its decision.
  await openSignIn(page);
  await signIn(page, email, password);
  await page.getByRole('button', { name: 'Hazel Harbor', exact: true }).waitFor();
  await acceptTerms(page);
  await page.getByRole('dialog', { name: 'Welcome', exact: true }).getByRole('button', { name: 'Get started' }).click();
  await page.getByRole('dialog', { name: 'Identity verification', exact: true }).getByRole('button', { name: 'Continue' }).click();
  await submitIdentity(page, HAZEL);
  await page.getByRole('dialog', { name: 'Submit identity' }).getByRole('button', { name: 'Submit' }).click();
  await answerQuiz(page, HAZEL);
  const decision = page.getByRole('dialog', { name: 'Identity verification result', exact: true });
  await decision.getByText(/national address book/).waitFor();
  await decision.getByRole('button', { name: 'Close' }).last().click();
  await page.reload();
  const delay = page.getByRole('dialog', { name: 'Welcome!', exact: true });
  await delay.getByText(/2-3 business days/).waitFor();
  await delay.getByRole('button', { name: 'Ok' }).click();

  // A system administrator activates it from the activation queue (with its records address)…
  const office = await newContext(browser, baseUrl);
  const admin = await office.newPage();
  await openSignIn(admin);
  await signIn(admin, 'sysadmin@example.org');
  await admin.goto(`/admin/organizations?awaitingActivation=true&search=${run}`);
  await admin.getByRole('table').getByRole('row').filter({ hasText: organizationName }).waitFor();
  await activateOrganization(admin, organizationName);
  // Activation made its records address, records@{subdomain}.direct.{domain}, and put it in service (issue 26 §3b):
  // nothing more for the back office to do before the clinic sends.
  const records = `records@harbor-family-clinic-${run}.direct.example.org`;
  await admin.goto(`/admin/organizations?search=${run}`);
  await admin.getByRole('button', { name: `Edit ${organizationName}` }).click();
  await expectHeading(admin, organizationName);
  await admin.getByRole('tab', { name: 'Direct' }).click();
  await admin.getByRole('table').getByRole('row').filter({ hasText: records }).getByText('Activated').waitFor();
  await office.close();

  // …and its Administrator sends a first message to Lakeside from it.
  await page.reload();
  const subject = `First referral from Harbor ${run}`;
  await composeReferral(page, ['intake@lakeside.direct.example.org'], subject, records);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await page.getByRole('dialog', { name: 'Review and Send' }).getByRole('button', { name: 'Confirm' }).click();
  await page.getByText('The message was sent successfully.').first().waitFor();
});

test('registering an address that has an account answers as any registration and mails the address (issue 26)', async ({ page }) => {
  const run = Date.now().toString(36);
  await page.goto('/account/register');
  await expectHeading(page, 'Register your organization');
  await page.getByLabel(/^Organization name/).fill(`Copycat Clinic ${run}`);
  await page.getByLabel(/^First name/).fill('Laura');
  await page.getByLabel(/^Last name/).fill('Lake');
  await page.getByLabel(/^Email/).fill('admin@lakeside.example.org');
  await page.getByLabel(/^Password/).fill(`${DEMO_PASSWORD}-${run}`);
  await page.getByLabel(/^Confirm password/).fill(`${DEMO_PASSWORD}-${run}`);
  await page.getByRole('button', { name: 'Register', exact: true }).click();
  await expectHeading(page, 'Check your email');
  await page.getByText('Thank you for registering. We sent you an email with a link to confirm your email address.').waitFor();
  await expect.poll(() => mailMentioning('An account with this address already exists'), { timeout: 20_000, interval: 250 }).toContain('admin@lakeside.example.org');
});

test('a reseller’s registration link shows its branding', async ({ page, baseUrl }) => {
  const run = Date.now().toString(36);
  const headers = await apiSignIn(baseUrl, 'sysadmin@example.org');
  // The reseller's logo: a PNG the browser draws (the server accepts PNG, JPEG and GIF logos).
  await page.setContent(
    `<svg xmlns="http://www.w3.org/2000/svg" width="240" height="64"><rect width="64" height="64" rx="12" fill="#1864ab"/><path d="M17 48V16l30 32V16" stroke="#fff" stroke-width="7" fill="none"/><text x="76" y="43" font-family="sans-serif" font-size="28" font-weight="700" fill="#1864ab">Northwind</text></svg>`,
  );
  const logo = await page.locator('svg').screenshot({ omitBackground: true });
  const form = new FormData();
  form.append(
    'reseller',
    JSON.stringify({
      name: 'Northwind Health Partners',
      urlCode: `northwind-${run}`,
      logoBackgroundColor: 'e6e9ed',
      welcomeText: 'Welcome, Northwind members! Your first year of Direct messaging is on us.',
      registrationText: 'Register with your practice’s legal name; we activate Northwind practices within one business day.',
    }),
  );
  form.append('logo', new Blob([new Uint8Array(logo)], { type: 'image/png' }), 'northwind.png');
  const created = await fetch(`${baseUrl}/api/resellers`, { method: 'POST', headers, body: form });
  expect(created.status).toBe(200);

  await page.goto(`/register/northwind-${run}`);
  await expectHeading(page, 'Register your organization');
  await page.getByText('Welcome, Northwind members! Your first year of Direct messaging is on us.').waitFor();
  await page.getByRole('img', { name: 'Northwind Health Partners logo' }).waitFor();
  await screenshot(page, 'registration-reseller');
  await expectNoAxeViolations(page, 'registration-reseller');

  await page.goto('/account/verify');
  await expectHeading(page, 'Confirm your email address');
  await page.getByLabel('Email address').waitFor();
  await screenshot(page, 'registration-verify-resend');
  await expectNoAxeViolations(page, 'registration-verify-resend');
});

test('a new clinic finds registration from the sign-in page, and the email field says it is the username its messages name', async ({ page }) => {
  await openSignIn(page);
  await page.getByRole('link', { name: 'Register your organization' }).click();
  await expectHeading(page, 'Register your organization');
  const email = page.getByRole('textbox', { name: 'Email (your username)' });
  await email.fill('not an email');
  // Checked on Register, not while typing (typing would tell anyone whether an account exists).
  await page.getByRole('button', { name: 'Register' }).click();
  await page.getByText('Username is not valid').waitFor();
  await page.getByRole('link', { name: 'Sign in' }).click();
  await expectHeading(page, 'Sign in');
});
