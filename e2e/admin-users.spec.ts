import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { expectNoAxeViolations, screenshot } from './support/axe.ts';
import { choose, expectHeading, openSignIn, signIn } from './support/journeys.ts';
import { test } from './support/test.ts';

// Issue 11 §3: a system user created with an account-creation email, found, edited, disabled and enabled again.

const rowsOf = (page: Page) => page.getByRole('table').getByRole('row');

async function search(page: Page, text: string) {
  await page.getByRole('searchbox', { name: 'Search' }).fill(text);
  await expect.poll(() => new URL(page.url()).searchParams.get('search')).toBe(text);
}

test('a system administrator adds a reporting user, finds, edits, disables and enables it', { timeout: 60_000 }, async ({ page }) => {
  const run = Date.now().toString(36);
  const userName = `analyst.${run}@example.org`;
  await openSignIn(page);
  await signIn(page, 'sysadmin@example.org');
  await page.goto('/admin/users');
  await expectHeading(page, 'Users');
  await rowsOf(page).filter({ hasText: 'admin@lakeside.example.org' }).waitFor();
  await screenshot(page, 'admin-users');
  await expectNoAxeViolations(page, 'users');

  await page.getByRole('button', { name: 'Add User' }).click();
  const add = page.getByRole('dialog', { name: 'Add User' });
  await add.getByText('System user', { exact: true }).click();
  await add.getByRole('textbox', { name: 'User name (email)' }).fill(userName);
  await add.getByRole('textbox', { name: 'First name' }).fill('Avery');
  await add.getByRole('textbox', { name: 'Last name' }).fill('Analyst');
  await choose(page, 'Role', 'SysAdminReporting');
  await add.getByRole('button', { name: 'Save' }).click();
  await page.getByText('The user was saved successfully.').waitFor();
  await add.waitFor({ state: 'hidden' });

  await search(page, run);
  await expect.poll(() => rowsOf(page).count()).toBe(2);
  const row = rowsOf(page).filter({ hasText: userName });
  await row.getByRole('img', { name: 'System admin' }).waitFor();

  await page.getByRole('button', { name: `Edit ${userName}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit User Avery Analyst' });
  await edit.getByRole('textbox', { name: 'First name' }).fill('Avery Jo');
  await screenshot(page, 'admin-user-edit');
  await expectNoAxeViolations(page, 'user-edit');
  await edit.getByRole('button', { name: 'Save' }).click();
  await edit.waitFor({ state: 'hidden' });

  await page.getByRole('button', { name: `More actions for ${userName}` }).click();
  await page.getByRole('menuitem', { name: 'Disable' }).click();
  const disable = page.getByRole('dialog', { name: 'Disable User' });
  await disable.getByText('The user is about to be disabled. Are you sure?').waitFor();
  await disable.getByRole('button', { name: 'Disable' }).click();
  await page.getByText('The user was disabled successfully.').waitFor();
  await disable.waitFor({ state: 'hidden' });
  // Disabled users leave the list until it is asked to show them.
  await page.getByText('There are no results matching your criteria.').waitFor();
  // The switch follows the URL: it shows checked once the list's state says so, a moment after the click.
  await page.getByRole('switch', { name: 'Show disabled' }).click();
  await expect.poll(() => page.getByRole('switch', { name: 'Show disabled' }).isChecked()).toBe(true);
  await row.getByRole('cell', { name: 'No', exact: true }).waitFor();
  await page.getByRole('button', { name: `More actions for ${userName}` }).click();
  await page.getByRole('menuitem', { name: 'Enable' }).click();
  await page.getByRole('dialog', { name: 'Enable User' }).getByRole('button', { name: 'Enable' }).click();
  await page.getByText('The user was enabled successfully.').waitFor();
  await row.getByRole('cell', { name: 'Yes', exact: true }).waitFor();
});

test('Add User shows every error at once, from the form and from the server, and picking the chosen job function again keeps it', { timeout: 60_000 }, async ({ page }) => {
  await openSignIn(page);
  await signIn(page, 'sysadmin@example.org');
  await page.goto('/admin/users');
  await expectHeading(page, 'Users');
  await page.getByRole('button', { name: 'Add User' }).click();
  const add = page.getByRole('dialog', { name: 'Add User' });
  // Once the modal has settled (its first field takes the focus), Save on the empty form.
  await add.getByRole('textbox', { name: 'User name (email)' }).click();
  await add.getByRole('button', { name: 'Save' }).click();
  for (const message of ['User name is required.', 'First name is required.', 'Last name is required.', 'Role is required.', 'Primary job function is required.', 'Password is required.']) {
    await add.getByText(message, { exact: true }).waitFor();
  }

  // A taken user name and a password that contains it: the server names both in one answer.
  await add.getByRole('textbox', { name: 'User name (email)' }).fill('admin@lakeside.example.org');
  // A name of its own: other journeys find Lakeside's users by name.
  await add.getByRole('textbox', { name: 'First name' }).fill('Quinn');
  await add.getByRole('textbox', { name: 'Last name' }).fill('Quarry');
  await add.getByRole('combobox', { name: 'Organization' }).fill('Lakeside');
  await page.getByRole('option', { name: 'Lakeside Family Medicine' }).click();
  await choose(page, 'Role', 'User');
  await choose(page, 'Primary job function', 'Practice Manager');
  const job = add.getByRole('combobox', { name: 'Primary job function', exact: true });
  await job.click();
  await page.getByRole('option', { name: 'Practice Manager', exact: true }).click();
  expect(await job.inputValue()).toBe('Practice Manager');
  await add.getByLabel(/^Password/).fill('Admin-kestrel-harbor-42');
  await add.getByLabel('Confirm password').fill('Admin-kestrel-harbor-42');
  await add.getByRole('button', { name: 'Save' }).click();
  await add.getByText('This user name already exists, please enter a different one.').waitFor();
  await add.getByText('Password must not contain your user name.', { exact: true }).waitFor();
  await screenshot(page, 'admin-user-add-errors');
  // Nothing was created: the journeys that follow count Lakeside's users.
  await add.getByRole('button', { name: 'Cancel' }).click();
});
