import { expect } from 'vitest';
import { expectNoAxeViolations, screenshot } from './support/axe.ts';
import { DEMO_PASSWORD } from './support/constants.ts';
import { acceptTerms, composeReferral, expectHeading, findInIntake, openSignIn, sendAndOpen, sendNonPhiFax, signIn, untilListed } from './support/journeys.ts';
import { mailsMentioning } from './support/outbox.ts';
import { newContext, test } from './support/test.ts';

// Issue 13 §8: Lakeside's Administrator adds an intake rule and a colleague with one send permission (the fax number)
// and that rule; the colleague sets a password from the mail in the outbox, signs in, sees what the rule brings (a
// referral from Riverview) and not what comes to the fax number they may send from, and can send only from it.

const RIVERVIEW_DIRECT = 'referrals@riverview.direct.example.org';

test('a new user gets exactly the Intake their rule brings and sends only from what they are permitted', { timeout: 180_000 }, async ({ page, browser, baseUrl }) => {
  const run = Date.now().toString(36);
  const userName = `robin.${run}@lakeside.example.org`;
  const ruleName = `From Riverview ${run}`;
  await openSignIn(page);
  await signIn(page, 'admin@lakeside.example.org');

  // The rule: what Riverview's Direct address sends.
  await page.goto('/settings/rules');
  await expectHeading(page, 'Intake rules');
  await page.getByRole('button', { name: 'Add rule' }).click();
  const rule = page.getByRole('dialog', { name: 'Add intake rule' });
  await rule.getByRole('textbox', { name: 'Name' }).fill(ruleName);
  await rule.getByRole('textbox', { name: 'From (external)' }).fill(RIVERVIEW_DIRECT);
  await screenshot(page, 'settings-rule-add');
  await expectNoAxeViolations(page, 'settings-rule-add');
  await rule.getByRole('button', { name: 'Save' }).click();
  await page.getByText('The intake rule was saved.').waitFor();
  await page.getByRole('row').filter({ hasText: ruleName }).waitFor();

  // The colleague: the fax number to send from, the rule to receive by.
  await page.goto('/settings/users');
  await expectHeading(page, 'Users');
  await page.getByRole('button', { name: 'Add User' }).click();
  const add = page.getByRole('dialog', { name: 'Add User' });
  await add.getByRole('textbox', { name: 'Username' }).fill(userName);
  await add.getByText('Username is available').waitFor();
  await add.getByRole('textbox', { name: 'First name' }).fill('Robin');
  await add.getByRole('textbox', { name: 'Last name' }).fill(`Reyes ${run}`);
  await add.getByRole('combobox', { name: 'Primary job function' }).click();
  await page.getByRole('option', { name: 'Nurse', exact: true }).click();
  await add.getByRole('combobox', { name: 'Role' }).click();
  await page.getByRole('option', { name: 'User', exact: true }).click();
  await add.getByRole('checkbox', { name: /^503-555-0101/ }).check();
  await add.getByRole('checkbox', { name: ruleName }).check();
  await screenshot(page, 'settings-user-add-permissions');
  await expectNoAxeViolations(page, 'settings-user-add-permissions');
  await add.getByRole('button', { name: 'Save' }).click();
  await page.getByText('The user was created. An email with a link to set a password has been sent.').waitFor();

  // Riverview sends Lakeside a referral (the rule brings it) and a fax to Lakeside's fax number (nothing brings it).
  const referral = `Rule check ${run}`;
  // A received fax is named by its sender (faxes carry no subject).
  const fax = 'Fax from 503-555-0202';
  const riverview = await newContext(browser, baseUrl);
  const sender = await riverview.newPage();
  await openSignIn(sender);
  await signIn(sender, 'admin@riverview.example.org');
  await composeReferral(sender, ['intake@lakeside.direct.example.org'], referral, RIVERVIEW_DIRECT);
  await sendAndOpen(sender, referral);
  await sendNonPhiFax(sender, `Fax check ${run}`, '503-555-0101', '503-555-0202');
  await riverview.close();
  // Lakeside's Administrator sees both.
  await findInIntake(page, referral);
  await page.getByRole('searchbox', { name: 'Search' }).fill(fax);
  await untilListed(page, page.getByRole('link', { name: fax, exact: true }).first());

  // The colleague sets a password from the account-creation mail.
  // The new user may also have a new-message notification by now: the mail wanted is the one with the password link.
  const accountMail = () => mailsMentioning(userName, '/account/password?token=')[0] ?? '';
  await expect.poll(accountMail, { timeout: 20_000, interval: 250 }).toMatch(/\/account\/password\?token=/);
  const link = /https?:\/\/[^\s"<>]+\/account\/password\?token=[^\s"<>]+/.exec(accountMail())![0].replace(/&amp;/g, '&');
  const robin = await newContext(browser, baseUrl);
  const colleague = await robin.newPage();
  await colleague.goto(new URL(link).pathname + new URL(link).search);
  await expectHeading(colleague, 'Choose your password');
  const password = `${DEMO_PASSWORD}-${run}`;
  await colleague.getByLabel(/^Password/).fill(password);
  await colleague.getByLabel(/^Confirm password/).fill(password);
  await colleague.getByRole('button', { name: 'Set password' }).click();
  await colleague.getByText('Your password has been set. You can sign in now.').waitFor();
  await openSignIn(colleague);
  await signIn(colleague, userName, password);
  await acceptTerms(colleague);

  // Intake: the referral the rule brings; the fax to the number they may send from is not theirs to see.
  await colleague.goto('/intake');
  await expectHeading(colleague, 'Intake');
  const search = colleague.getByRole('searchbox', { name: 'Search' });
  await search.fill(referral);
  await untilListed(colleague, colleague.getByRole('link', { name: referral, exact: true }));
  await screenshot(colleague, 'intake-by-rule');
  await expectNoAxeViolations(colleague, 'intake-by-rule');
  await search.fill(fax);
  await colleague.getByText(/There are no messages matching your criteria\. Your Intake shows the messages your intake rules bring: .*From Riverview/).waitFor();
  await screenshot(colleague, 'intake-by-rule-empty');

  // Compose offers only the fax number as From.
  await colleague.goto('/release/new');
  await expectHeading(colleague, 'New message');
  await colleague.getByRole('combobox', { name: 'From', exact: true }).click();
  await expect.poll(async () => colleague.getByRole('option').allTextContents()).toEqual(['503-555-0101']);
  await colleague.keyboard.press('Escape');
  await sendNonPhiFax(colleague, `Permitted fax ${run}`, '503-555-0202', '503-555-0101');
  await robin.close();
});
