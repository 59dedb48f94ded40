import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { expectNoAxeViolations, screenshot } from './support/axe.ts';
import { expectHeading, expectPath, openSignIn, signIn } from './support/journeys.ts';
import { test } from './support/test.ts';

// Issue 11: the back office's list areas, each a list with search and paging and its add, edit and delete modals.

const rowsOf = (page: Page) => page.getByRole('table').getByRole('row');

async function search(page: Page, text: string) {
  await page.getByRole('searchbox', { name: 'Search' }).fill(text);
  await expect.poll(() => new URL(page.url()).searchParams.get('search')).toBe(text);
}

test('a system administrator adds, finds, edits and deletes a reserved word and a specialty', { timeout: 90_000 }, async ({ page }) => {
  await openSignIn(page);
  await signIn(page, 'sysadmin@example.org');

  await page.goto('/admin/reservedwords');
  await expectPath(page, '/admin/reservedwords');
  await expectHeading(page, 'Reserved words');
  await rowsOf(page).filter({ hasText: 'admin' }).first().waitFor();
  await screenshot(page, 'admin-reserved-words');
  await expectNoAxeViolations(page, 'reserved-words');

  await page.getByRole('button', { name: 'Add reserved word' }).click();
  const add = page.getByRole('dialog', { name: 'Add reserved word' });
  await add.getByRole('textbox', { name: 'Name' }).fill('Referrals');
  await add.getByRole('button', { name: 'Save' }).click();
  await page.getByText('The reserved word was saved successfully.').waitFor();
  await add.waitFor({ state: 'hidden' });

  // The same word in another case is refused at its field.
  await page.getByRole('button', { name: 'Add reserved word' }).click();
  await add.getByRole('textbox', { name: 'Name' }).fill('REFERRALS');
  await add.getByRole('button', { name: 'Save' }).click();
  await add.getByText('This reserved word already exists, please enter a different one.').waitFor();
  await screenshot(page, 'admin-reserved-word-exists');
  await add.getByRole('button', { name: 'Cancel' }).click();

  await search(page, 'referr');
  await expect.poll(() => rowsOf(page).count()).toBe(2);
  await page.getByRole('button', { name: 'Edit Referrals' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit reserved word' });
  await edit.getByRole('checkbox', { name: 'Profanity' }).check();
  await edit.getByRole('button', { name: 'Save' }).click();
  await edit.waitFor({ state: 'hidden' });
  // Mantine's segmented control hides its radios behind their labels: click what the user clicks.
  const kind = page.getByRole('radiogroup', { name: 'Kind' });
  await kind.getByText('Profanity', { exact: true }).click();
  await expect.poll(() => kind.getByRole('radio', { name: 'Profanity' }).isChecked()).toBe(true);
  await rowsOf(page).filter({ hasText: 'Referrals' }).getByRole('cell', { name: 'Yes' }).waitFor();

  await page.getByRole('button', { name: 'Delete Referrals' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete reserved word' });
  await confirm.getByText('Delete Referrals? This cannot be undone.').waitFor();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await page.getByText('The reserved word was deleted successfully.').waitFor();
  await page.getByText('There are no results matching your criteria.').waitFor();

  await page.getByRole('link', { name: 'Specialties' }).click();
  await expectPath(page, '/admin/specialties');
  await expectHeading(page, 'Organization specialties');
  await page.getByRole('button', { name: 'Add specialty' }).click();
  const addSpecialty = page.getByRole('dialog', { name: 'Add specialty' });
  await addSpecialty.getByRole('textbox', { name: 'Name' }).fill('Sleep Medicine');
  await addSpecialty.getByRole('button', { name: 'Save' }).click();
  await addSpecialty.waitFor({ state: 'hidden' });
  await search(page, 'sleep');
  await page.getByRole('button', { name: 'Edit Sleep Medicine' }).click();
  const editSpecialty = page.getByRole('dialog', { name: 'Edit specialty' });
  await editSpecialty.getByRole('textbox', { name: 'Name' }).fill('Sleep and Pulmonary Medicine, Adult and Pediatric');
  await editSpecialty.getByRole('button', { name: 'Save' }).click();
  await editSpecialty.waitFor({ state: 'hidden' });
  await page.getByRole('button', { name: 'Delete Sleep and Pulmonary Medicine, Adult and Pediatric' }).click();
  // The prompt cuts a long name at 20 characters.
  await page.getByRole('dialog', { name: 'Delete specialty' }).getByText('Delete Sleep and Pulmonary…? This cannot be undone.').waitFor();
  await screenshot(page, 'admin-specialty-delete');
  await expectNoAxeViolations(page, 'specialty-delete');
  await page.getByRole('dialog', { name: 'Delete specialty' }).getByRole('button', { name: 'Delete' }).click();
  await page.getByText('The specialty was deleted successfully.').waitFor();
});

test('a system administrator creates a network, gives it an organization and an administrator, turns SSO on and deletes it', { timeout: 90_000 }, async ({ page }) => {
  await openSignIn(page);
  await signIn(page, 'sysadmin@example.org');
  await page.goto('/admin/networks');
  await expectHeading(page, 'Networks');
  await rowsOf(page).filter({ hasText: 'Northwest Health Network' }).waitFor();

  await page.getByRole('button', { name: 'Add network' }).click();
  const add = page.getByRole('dialog', { name: 'Add network' });
  // Issue 26 §3b: a name over 255 characters is refused with a message, not cut; names are unique whatever the case.
  await add.getByRole('textbox', { name: 'Name' }).fill('n'.repeat(256));
  expect((await add.getByRole('textbox', { name: 'Name' }).inputValue()).length).toBe(256);
  await add.getByRole('button', { name: 'Save' }).click();
  await add.getByText('Name must be at most 255 characters.').waitFor();
  await add.getByRole('textbox', { name: 'Name' }).fill('NORTHWEST health network');
  await add.getByRole('button', { name: 'Save' }).click();
  await add.getByText('A network with this name already exists, please enter a different one.').waitFor();
  await page.setViewportSize({ width: 1440, height: 900 });
  await screenshot(page, 'admin-network-name-taken');
  await page.setViewportSize({ width: 1280, height: 800 });
  await add.getByRole('textbox', { name: 'Name' }).fill('Mountain Valley Health Information Exchange');
  await add.getByRole('button', { name: 'Save' }).click();
  await page.getByText('The Network was saved successfully.').waitFor();
  await search(page, 'mountain');
  await expect.poll(() => rowsOf(page).count()).toBe(2);
  await screenshot(page, 'admin-networks');
  await expectNoAxeViolations(page, 'networks');

  await page.getByRole('button', { name: 'Organizations and administrators of Mountain Valley Health Information Exchange' }).click();
  const members = page.getByRole('dialog', { name: 'Mountain Valley Health Information Exchange' });
  // Add with nothing chosen: the typeahead asks for a value from the list.
  await members.getByRole('button', { name: 'Add' }).click();
  await members.getByText('Please enter a valid value for this field.').waitFor();
  await members.getByRole('combobox', { name: 'Organization' }).fill('hill');
  await page.getByRole('option', { name: 'Hillcrest Pediatrics' }).click();
  await members.getByRole('button', { name: 'Add' }).click();
  await page.getByText('The organization was saved successfully.').waitFor();
  await members.getByRole('list', { name: 'Organizations of the network' }).getByText('Hillcrest Pediatrics').waitFor();

  await members.getByRole('tab', { name: 'Administrators' }).click();
  await members.getByRole('combobox', { name: 'Administrator' }).fill('rita');
  await page.getByRole('option', { name: 'Rita Reports (reporting@example.org)' }).click();
  await members.getByRole('button', { name: 'Add' }).click();
  await page.getByText('The user was saved successfully.').waitFor();
  await members.getByRole('list', { name: 'Administrators of the network' }).getByText('Rita Reports (reporting@example.org)').waitFor();

  await members.getByRole('tab', { name: 'Network Features' }).click();
  const save = members.getByRole('button', { name: 'Save' });
  expect(await save.isDisabled()).toBe(true);
  expect(await members.getByRole('checkbox', { name: 'SCIM' }).isDisabled()).toBe(true);
  await members.getByRole('checkbox', { name: 'SSO' }).check();
  await save.click();
  await page.getByText('Network features updated successfully.').waitFor();
  // Once on, SSO cannot be turned off.
  await expect.poll(() => members.getByRole('checkbox', { name: 'SSO' }).isDisabled()).toBe(true);
  await screenshot(page, 'admin-network-features');
  await expectNoAxeViolations(page, 'network-features');
  await page.keyboard.press('Escape');
  await members.waitFor({ state: 'hidden' });

  await rowsOf(page).filter({ hasText: 'Mountain Valley' }).getByRole('cell', { name: '1', exact: true }).first().waitFor();
  await page.getByRole('button', { name: 'Delete Mountain Valley Health Information Exchange' }).click();
  await page.getByRole('dialog', { name: 'Delete network' }).getByText('Delete the network Mountain Valley Heal…? Its organizations leave it; they are not deleted.').waitFor();
  await page.getByRole('dialog', { name: 'Delete network' }).getByRole('button', { name: 'Delete' }).click();
  await page.getByText('The Network was deleted successfully.').waitFor();
});

test("a network's administrator turns on its SSO feature, which then stays on", async ({ page }) => {
  await openSignIn(page);
  await signIn(page, 'netadmin@example.org');
  await page.getByRole('link', { name: 'Network' }).click();
  await expectPath(page, '/account/network');
  await expectHeading(page, 'Northwest Health Network');
  await page.getByRole('list', { name: 'Organizations of the network' }).getByText('Riverview Cardiology').waitFor();
  const save = page.getByRole('button', { name: 'Save' });
  expect(await save.isDisabled()).toBe(true);
  // SCIM belongs to SSO: it waits for SSO to be on.
  expect(await page.getByRole('checkbox', { name: 'SCIM' }).isDisabled()).toBe(true);
  await page.getByRole('checkbox', { name: 'SSO' }).check();
  await screenshot(page, 'network-features');
  await expectNoAxeViolations(page, 'network-features');
  await save.click();
  await page.getByText('Network features updated successfully.').waitFor();
  await expect.poll(() => page.getByRole('checkbox', { name: 'SSO' }).isDisabled()).toBe(true);
  expect(await page.getByRole('checkbox', { name: 'SCIM' }).isDisabled()).toBe(false);
});
