import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { expectNoAxeViolations, screenshot } from './support/axe.ts';
import { activateOrganization, answerQuiz, composeReferral, expectHeading, expectPath, openSignIn, signIn, submitIdentity, type SandboxIdentity } from './support/journeys.ts';
import { mailsMentioning } from './support/outbox.ts';
import { newContext, test } from './support/test.ts';

// Issue 14 §3: Hillcrest's Administrator (terms not accepted, not ID-proofed, not activated) signs in and gets the
// onboarding sequence: terms, welcome, identity verification, a sandbox identity that passes, the quiz, the pass
// decision; after a reload the 'Welcome!' activation-delay dialog. The system administrators are mailed; one finds
// Hillcrest through the dashboard's count in the activation queue and activates it, the activation mail is in the
// outbox, and Hillcrest composes and sends from its new records address at once. Only this journey changes Hillcrest.

const HILLCREST_ADMIN = 'admin@hillcrest.example.org';
const RECORDS = 'records@hillcrest.direct.example.org';
const HANNAH: SandboxIdentity = {
  firstName: 'Hannah',
  lastName: 'Hill',
  dateOfBirth: '1980-04-12',
  ssn: '123456789',
  phone: '5415550300',
  address: '300 Hillcrest Avenue',
  city: 'Eugene',
  state: 'Oregon',
  zip: '97401',
};

async function dialogStep(page: Page, name: string, shot: string): Promise<Locator> {
  const dialog = page.getByRole('dialog', { name, exact: true });
  await dialog.waitFor();
  await screenshot(page, shot);
  await expectNoAxeViolations(page, shot);
  return dialog;
}

test('Hillcrest onboards: terms, identity proofing with the sandbox, the activation delay, then the back office activates it', { timeout: 180_000 }, async ({ page, browser, baseUrl }) => {
  await openSignIn(page);
  await signIn(page, HILLCREST_ADMIN);
  await expectHeading(page, 'Dashboard');

  const terms = await dialogStep(page, 'Terms and conditions', 'onboarding-terms');
  await terms.getByTitle('Terms and conditions').waitFor();
  // The terms must be answered (issue 26): no close button, and Escape leaves the dialog open.
  expect(await terms.getByRole('button', { name: 'Close' }).count()).toBe(0);
  await page.keyboard.press('Escape');
  await page.waitForTimeout(300);
  expect(await terms.isVisible()).toBe(true);
  await terms.getByRole('checkbox', { name: 'I have read and accept the terms and conditions' }).check();
  await terms.getByRole('button', { name: 'Accept' }).click();

  const welcome = await dialogStep(page, 'Welcome', 'onboarding-welcome');
  await welcome.getByText('Sandbox', { exact: true }).waitFor();
  await welcome.getByRole('button', { name: 'Get started' }).click();

  const verification = await dialogStep(page, 'Identity verification', 'onboarding-verification');
  await verification.getByRole('button', { name: 'Continue' }).click();

  const form = page.getByRole('dialog', { name: 'Submit identity' });
  await form.waitFor();
  // The names are the signed-in administrator's; the birth date is typed like every date of the app.
  await expect.poll(() => form.getByRole('textbox', { name: 'First Name' }).inputValue()).toBe('Hannah');
  expect(await form.getByRole('textbox', { name: 'Last Name' }).inputValue()).toBe('Hill');
  const birth = form.getByRole('textbox', { name: 'Date of Birth' });
  expect(await birth.getAttribute('placeholder')).toBe('MM/DD/YYYY');
  await form.getByRole('button', { name: 'Submit' }).click();
  await form.getByText('Date of Birth is required.').waitFor();
  await birth.fill('02/30/1990');
  await birth.blur();
  await form.getByText('Please enter a valid Date of Birth.').waitFor();
  expect(await form.getByText('Date of Birth is required.').count()).toBe(0);
  await form.getByRole('textbox', { name: 'First Name' }).fill('');
  await form.getByRole('button', { name: 'Submit' }).click();
  await form.getByText('First Name is required.').waitFor();
  await screenshot(page, 'onboarding-identity-messages');
  await expectNoAxeViolations(page, 'onboarding-identity-messages');
  await submitIdentity(page, HANNAH);
  expect(await form.getByRole('textbox', { name: 'SSN' }).inputValue()).toBe('123-45-6789');
  expect(await form.getByRole('textbox', { name: 'Phone Number' }).inputValue()).toBe('(541) 555-0300');
  await screenshot(page, 'onboarding-identity');
  await form.getByRole('button', { name: 'Submit' }).click();

  await dialogStep(page, 'Security questions', 'onboarding-quiz');
  await answerQuiz(page, HANNAH);

  const decision = await dialogStep(page, 'Identity verification result', 'onboarding-decision-pass');
  await decision.getByText(/national address book/).waitFor();
  await decision.getByRole('button', { name: 'Close' }).last().click();
  await decision.waitFor({ state: 'hidden' });

  // After a reload: ID-proofed and not activated → the activation-delay dialog.
  await page.reload();
  const delay = await dialogStep(page, 'Welcome!', 'onboarding-activation-delay');
  await delay.getByText(/2-3 business days/).waitFor();
  await delay.getByRole('button', { name: 'Ok' }).click();

  // Issue 26 §3b: every system administrator is told Hillcrest is waiting.
  await expect.poll(() => mailsMentioning('sysadmin@example.org', 'Hillcrest Pediatrics is waiting for activation').length, { timeout: 20_000, interval: 250 }).toBeGreaterThan(0);

  // The back office: the dashboard counts Hillcrest in the activation queue and links to it; activating it sends the
  // activation mail and puts its records address in service.
  const office = await newContext(browser, baseUrl);
  const admin = await office.newPage();
  await admin.setViewportSize({ width: 1440, height: 900 });
  await openSignIn(admin);
  await signIn(admin, 'sysadmin@example.org');
  await admin.goto('/admin/dashboard/messaging');
  const queueCard = admin.locator('[data-queue="awaitingActivation"]');
  await expect.poll(async () => Number((await queueCard.innerText()).replace(/\D+/g, '')), { timeout: 10_000 }).toBeGreaterThan(0);
  await screenshot(admin, 'onboarding-dashboard-queue');
  await expectNoAxeViolations(admin, 'onboarding-dashboard-queue');
  await queueCard.getByRole('link', { name: 'Awaiting activation' }).click();
  await expectHeading(admin, 'Organizations');
  expect(new URL(admin.url()).searchParams.get('status')).toBe('awaitingActivation');
  expect(await admin.getByRole('combobox', { name: 'Status' }).inputValue()).toBe('Awaiting activation');
  const row = admin.getByRole('table').getByRole('row').filter({ hasText: 'Hillcrest Pediatrics' });
  await row.waitFor();
  await screenshot(admin, 'onboarding-activation-queue');
  await expectNoAxeViolations(admin, 'onboarding-activation-queue');
  await activateOrganization(admin, 'Hillcrest Pediatrics');
  await expect.poll(() => mailsMentioning(HILLCREST_ADMIN, 'Hillcrest Pediatrics has been activated').length, { timeout: 20_000, interval: 250 }).toBeGreaterThan(0);
  expect(mailsMentioning(HILLCREST_ADMIN, 'Hillcrest Pediatrics has been activated')[0]).toContain(RECORDS);
  await office.close();

  // Hillcrest's dashboard says what is still pending (a Direct certificate for other providers), as the mail did.
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/account/dashboard');
  const pending = page.getByRole('region', { name: 'Still pending' });
  await pending.getByText(`needs a Direct certificate for ${RECORDS}`, { exact: false }).waitFor();
  await screenshot(page, 'onboarding-dashboard-pending');
  await expectNoAxeViolations(page, 'onboarding-dashboard-pending');

  // Hillcrest can send at once: compose offers and fills the records address as From, and the send goes through.
  await page.goto('/release/new');
  await expectPath(page, '/release/new');
  await expect.poll(() => page.getByRole('combobox', { name: 'From' }).inputValue(), { timeout: 10_000 }).toBe(RECORDS);
  await screenshot(page, 'onboarding-first-compose');
  await expectNoAxeViolations(page, 'onboarding-first-compose');
  await composeReferral(page, ['intake@lakeside.direct.example.org'], 'First referral from Hillcrest', RECORDS);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await page.getByRole('dialog', { name: 'Review and Send' }).getByRole('button', { name: 'Confirm' }).click();
  await page.getByText('The message was sent successfully.').first().waitFor();
  await screenshot(page, 'onboarding-first-send');
});
