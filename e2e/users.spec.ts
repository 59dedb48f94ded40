import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { expectNoAxeViolations, screenshot } from './support/axe.ts';
import { choose, expectHeading, openSignIn, signIn } from './support/journeys.ts';
import { test } from './support/test.ts';

// Issue 13 §2: Lakeside's Administrator adds a colleague (the user name checked as typed), disables and enables them,
// and deletes them again.

const rowsOf = (page: Page) => page.getByRole('table').getByRole('row');

test('an organization Administrator adds, disables, enables and deletes a user', { timeout: 60_000 }, async ({ page }) => {
  const run = Date.now().toString(36);
  const userName = `casey.${run}@lakeside.example.org`;
  await openSignIn(page);
  await signIn(page, 'admin@lakeside.example.org');
  await page.getByRole('link', { name: 'Users' }).click();
  await expectHeading(page, 'Users');
  await rowsOf(page).filter({ hasText: 'user@lakeside.example.org' }).waitFor();
  await screenshot(page, 'settings-users');
  await expectNoAxeViolations(page, 'settings-users');

  await page.getByRole('button', { name: 'Add User' }).click();
  const add = page.getByRole('dialog', { name: 'Add User' });
  const name = add.getByRole('textbox', { name: 'Username' });
  await name.fill('user@lakeside.example.org');
  await add.getByText('Username already exists').waitFor();
  await name.fill(userName);
  await add.getByText('Username is available').waitFor();
  await add.getByRole('textbox', { name: 'First name' }).fill('Casey');
  await add.getByRole('textbox', { name: 'Last name' }).fill('Cole');
  await choose(page, 'Primary job function', 'Nurse');
  await choose(page, 'Role', 'User');
  await screenshot(page, 'settings-user-add');
  await expectNoAxeViolations(page, 'settings-user-add');
  await add.getByRole('button', { name: 'Save' }).click();
  await page.getByText('The user was created. An email with a link to set a password has been sent.').waitFor();
  await add.waitFor({ state: 'hidden' });

  await page.getByRole('searchbox', { name: 'Search' }).fill(run);
  await expect.poll(() => rowsOf(page).count()).toBe(2);
  const row = rowsOf(page).filter({ hasText: userName });
  await row.getByText('Pending').waitFor();

  const act = async (action: string, confirm: string, toast: string) => {
    await row.getByRole('button', { name: `Actions for ${userName}` }).click();
    await page.getByRole('menuitem', { name: action }).click();
    await page.getByRole('dialog').getByRole('button', { name: confirm }).click();
    await page.getByText(toast).waitFor();
  };
  await act('Disable', 'Disable', 'The user was disabled successfully.');
  await row.getByRole('cell', { name: 'No', exact: true }).waitFor();
  await act('Enable', 'Enable', 'The user was enabled successfully.');
  await row.getByRole('cell', { name: 'Yes', exact: true }).waitFor();
  await act('Delete', 'Delete', 'The user was deleted successfully.');
  await expect.poll(() => rowsOf(page).count()).toBe(1);
});

// Issue 13 §2: the user's detail — their recent activity (the sign-in just made), requests and where they are signed in.
test('an organization Administrator opens a user’s activity and security', { timeout: 60_000 }, async ({ page }) => {
  await openSignIn(page);
  await signIn(page, 'admin@lakeside.example.org');
  await page.getByRole('link', { name: 'Users' }).click();
  await expectHeading(page, 'Users');
  await page.getByRole('link', { name: 'Laura Lake' }).click();
  await expectHeading(page, 'Laura Lake');
  const activity = page.getByRole('table', { name: 'Activity' });
  await activity.getByRole('row').filter({ hasText: 'Signed in' }).first().waitFor();
  await screenshot(page, 'settings-user-activity');
  await expectNoAxeViolations(page, 'settings-user-activity');

  await page.getByRole('tab', { name: 'Security' }).click();
  await page.getByRole('table', { name: 'Applications and devices' }).getByRole('row').filter({ hasText: 'Chrome' }).first().waitFor();
  await screenshot(page, 'settings-user-security');
  await expectNoAxeViolations(page, 'settings-user-security');
});
