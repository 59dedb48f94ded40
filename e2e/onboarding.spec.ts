import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { expectNoAxeViolations, screenshot } from './support/axe.ts';
import { activateOrganization, answerQuiz, expectHeading, openSignIn, signIn, submitIdentity, type SandboxIdentity } from './support/journeys.ts';
import { mailsMentioning } from './support/outbox.ts';
import { newContext, test } from './support/test.ts';

// Issue 14 §3: Hillcrest's Administrator (terms not accepted, not ID-proofed, not activated) signs in and gets the
// onboarding sequence: terms, welcome, identity verification, a sandbox identity that passes, the quiz, the pass
// decision; after a reload the 'Welcome!' activation-delay dialog. A system administrator then finds Hillcrest in the
// activation queue and activates it, and the activation mail is in the outbox. Only this journey changes Hillcrest.

const HILLCREST_ADMIN = 'admin@hillcrest.example.org';
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

  // The back office: Hillcrest is in the activation queue; activating it sends the activation mail.
  const office = await newContext(browser, baseUrl);
  const admin = await office.newPage();
  await openSignIn(admin);
  await signIn(admin, 'sysadmin@example.org');
  await admin.goto('/admin/organizations?awaitingActivation=true');
  await expectHeading(admin, 'Organizations');
  const row = admin.getByRole('table').getByRole('row').filter({ hasText: 'Hillcrest Pediatrics' });
  await row.waitFor();
  await screenshot(admin, 'onboarding-activation-queue');
  await activateOrganization(admin, 'Hillcrest Pediatrics');
  await expect.poll(() => mailsMentioning(HILLCREST_ADMIN, 'Hillcrest Pediatrics has been activated').length, { timeout: 20_000, interval: 250 }).toBeGreaterThan(0);
  await office.close();
});
