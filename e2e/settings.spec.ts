import { expect } from 'vitest';
import { expectNoAxeViolations, screenshot } from './support/axe.ts';
import { choose, expectHeading, expectPath, openSignIn, signIn } from './support/journeys.ts';
import { test } from './support/test.ts';

// Issue 13 §3 and §4: Lakeside's Administrator sees its addresses and fax numbers, orders a fax number from the
// sandbox fax provider, adds an intake rule and gives a user that rule.

test('Lakeside’s Administrator orders a sandbox fax number, adds an intake rule and assigns it to a user', { timeout: 120_000 }, async ({ page }) => {
  const ruleName = `Referrals ${Date.now().toString(36)}`;
  await openSignIn(page);
  await signIn(page, 'admin@lakeside.example.org');
  await expectPath(page, '/account/dashboard');

  await page.getByRole('link', { name: 'Addresses and fax numbers' }).click();
  await expectHeading(page, 'Addresses and fax numbers');
  const direct = page.getByRole('row').filter({ hasText: 'intake@lakeside.direct.example.org' });
  await direct.getByText('Activated').waitFor();
  await direct.getByText('Leo Shore').waitFor();

  await page.getByRole('button', { name: 'Request fax number' }).click();
  const order = page.getByRole('dialog', { name: 'Request fax number' });
  await order.getByRole('button', { name: 'Request', exact: true }).click();
  await page.getByText(/^Sandbox fax provider: 503-555-01\d\d was assigned/).waitFor();
  await expectNoAxeViolations(page, 'settings addresses');
  await screenshot(page, 'settings-addresses');

  await page.getByRole('link', { name: 'Intake rules' }).click();
  await expectHeading(page, 'Intake rules');
  await page.getByRole('button', { name: 'Add rule' }).click();
  const add = page.getByRole('dialog', { name: 'Add intake rule' });
  await add.getByRole('textbox', { name: 'Name' }).fill(ruleName);
  await add.getByRole('textbox', { name: 'From (external)' }).fill('referrals@riverview.direct.example.org');
  await add.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByRole('cell', { name: ruleName, exact: true }).waitFor();

  await choose(page, 'User', 'Leo Shore (user@lakeside.example.org)');
  await page.getByRole('button', { name: 'Permissions and rules' }).click();
  const access = page.getByRole('dialog', { name: 'Leo Shore: permissions and rules' });
  await access.getByRole('checkbox', { name: ruleName }).check();
  await expectNoAxeViolations(page, 'settings user access');
  await screenshot(page, 'settings-user-access');
  await access.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByText('The send permissions and intake rules were saved.').waitFor();
  await access.waitFor({ state: 'hidden' });

  // Reopened, the user has the rule.
  await page.getByRole('button', { name: 'Permissions and rules' }).click();
  expect(await access.getByRole('checkbox', { name: ruleName }).isChecked()).toBe(true);
  await access.getByRole('button', { name: 'Cancel', exact: true }).click();
  await access.waitFor({ state: 'hidden' });
  await expectNoAxeViolations(page, 'settings rules');
  await screenshot(page, 'settings-rules');
});
