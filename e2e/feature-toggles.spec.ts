import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { expectNoAxeViolations, screenshot } from './support/axe.ts';
import { expectHeading, openSignIn, signIn } from './support/journeys.ts';
import { test } from './support/test.ts';

// Issue 29 §5: a system administrator stages a new feature, names it within the rules, and switches it and its
// organization setting from the list. Every journey of a worker shares one demo world: switching a feature other
// journeys read (WestFaxInterface, IntakeCdaViewer, ...) would change what they see, so this journey adds a feature of
// its own; that switching the product's features takes effect at once, in every server process, is proved in the API
// tests (feature-toggles.test.ts).

const rowOf = (page: Page, text: string) => page.getByRole('table').getByRole('row').filter({ hasText: text });

test('a system administrator adds a feature and switches it on, and for organizations, from the list', { timeout: 120_000 }, async ({ page }) => {
  const name = `JourneyFeature${Date.now() % 1_000_000}`;
  await openSignIn(page);
  await signIn(page, 'sysadmin@example.org');
  await page.getByRole('link', { name: 'Feature toggles' }).click();
  await expectHeading(page, 'Feature toggles');
  await rowOf(page, 'WestFaxInterface').waitFor();
  expect(await page.getByRole('switch', { name: 'Enabled: WestFaxInterface' }).isChecked()).toBe(false);
  await screenshot(page, 'feature-toggles');
  await expectNoAxeViolations(page, 'feature-toggles');

  await page.getByRole('button', { name: 'Add feature' }).click();
  const add = page.getByRole('dialog', { name: 'Add feature' });
  await add.getByRole('textbox', { name: 'Name' }).fill('abc');
  await add.getByRole('button', { name: 'Save' }).click();
  await add.getByText('There are invalid fields on this page.').waitFor();
  await add.getByText('Name must be at least 4 characters.').waitFor();
  // The product's own names are taken, whatever their case.
  await add.getByRole('textbox', { name: 'Name' }).fill('westfaxinterface');
  await add.getByRole('button', { name: 'Save' }).click();
  await add.getByText('This feature already exists, please enter a different name.').first().waitFor();
  await add.getByRole('textbox', { name: 'Name' }).fill(name);
  await screenshot(page, 'feature-toggles-add');
  await expectNoAxeViolations(page, 'feature-toggles-add');
  await add.getByRole('button', { name: 'Save' }).click();
  await page.getByText('The feature was saved successfully.').first().waitFor();
  await add.waitFor({ state: 'hidden' });

  await page.getByRole('searchbox', { name: 'Search' }).fill(name);
  const row = rowOf(page, name);
  await row.waitFor();
  await expect.poll(() => page.getByRole('table').getByRole('row').count()).toBe(2);
  await expect.poll(() => row.textContent()).toContain('sysadmin@example.org');
  const enabled = page.getByRole('switch', { name: `Enabled: ${name}` });
  const perOrganization = page.getByRole('switch', { name: `Organization feature: ${name}` });
  expect(await enabled.isChecked()).toBe(false);
  // Mantine's switch input is visually hidden: its label track takes the click.
  await enabled.click({ force: true });
  await expect.poll(() => enabled.isChecked(), { timeout: 10_000 }).toBe(true);
  await expect.poll(() => perOrganization.isEnabled(), { timeout: 10_000 }).toBe(true);
  await perOrganization.click({ force: true });
  await expect.poll(() => perOrganization.isChecked(), { timeout: 10_000 }).toBe(true);
  await page.reload();
  await expect.poll(() => page.getByRole('switch', { name: `Enabled: ${name}` }).isChecked(), { timeout: 10_000 }).toBe(true);

  await page.getByRole('button', { name: `Edit ${name}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit feature' });
  expect(await edit.getByRole('checkbox', { name: 'Enabled' }).isChecked()).toBe(true);
  await edit.getByRole('textbox', { name: 'Name' }).fill('abc');
  await edit.getByRole('button', { name: 'Save' }).click();
  await edit.getByText('There are invalid fields on this page.').waitFor();
  await edit.getByRole('textbox', { name: 'Name' }).fill(`${name}Renamed`);
  await edit.getByRole('checkbox', { name: 'Enabled' }).uncheck();
  await screenshot(page, 'feature-toggles-edit');
  await expectNoAxeViolations(page, 'feature-toggles-edit');
  await edit.getByRole('button', { name: 'Save' }).click();
  await edit.waitFor({ state: 'hidden' });
  await expect.poll(() => page.getByRole('switch', { name: `Enabled: ${name}Renamed` }).isChecked(), { timeout: 10_000 }).toBe(false);
});
