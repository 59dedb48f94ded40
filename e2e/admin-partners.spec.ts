import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { expectNoAxeViolations, screenshot } from './support/axe.ts';
import { choose, expectHeading, openSignIn, signIn } from './support/journeys.ts';
import { test } from './support/test.ts';

// Issue 11 §4: partners and resellers, each created with a logo, found by search, edited and deleted.

const rowsOf = (page: Page) => page.getByRole('table').getByRole('row');
// A 1×1 PNG: a real image the server's content check accepts.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

async function search(page: Page, text: string) {
  await page.getByRole('searchbox', { name: 'Search' }).fill(text);
  await expect.poll(() => new URL(page.url()).searchParams.get('search')).toBe(text);
}

async function chooseLogo(page: Page, dialogName: string) {
  const dialog = page.getByRole('dialog', { name: dialogName });
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), dialog.getByRole('button', { name: 'Logo' }).click()]);
  await chooser.setFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG });
  await dialog.getByRole('img', { name: 'Logo preview' }).waitFor();
}

test('a system administrator adds a partner with a logo, finds, renames and deletes it', async ({ page }) => {
  const run = Date.now().toString(36);
  await openSignIn(page);
  await signIn(page, 'sysadmin@example.org');
  await page.goto('/admin/partners');
  await expectHeading(page, 'Partners');

  await page.getByRole('button', { name: 'Add partner' }).click();
  const add = page.getByRole('dialog', { name: 'Add partner' });
  await add.getByRole('textbox', { name: 'Name' }).fill(`Cascade Health IT ${run}`);
  await chooseLogo(page, 'Add partner');
  await screenshot(page, 'admin-partner-add');
  await expectNoAxeViolations(page, 'partner-add');
  await add.getByRole('button', { name: 'Save' }).click();
  await page.getByText('The partner was saved successfully.').waitFor();
  await add.waitFor({ state: 'hidden' });

  await search(page, run);
  await expect.poll(() => rowsOf(page).count()).toBe(2);
  // The logo is served back and shown in the list.
  await expect.poll(() => rowsOf(page).nth(1).getByRole('img').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(1);
  await screenshot(page, 'admin-partners');
  await expectNoAxeViolations(page, 'partners');

  await page.getByRole('button', { name: `Edit Cascade Health IT ${run}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit partner' });
  await edit.getByText('Current logo').waitFor();
  await edit.getByRole('textbox', { name: 'Name' }).fill(`Cascade Interop ${run}`);
  await edit.getByRole('button', { name: 'Save' }).click();
  await edit.waitFor({ state: 'hidden' });
  await rowsOf(page).filter({ hasText: `Cascade Interop ${run}` }).waitFor();

  await page.getByRole('button', { name: `Delete Cascade Interop ${run}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete partner' });
  await confirm.getByRole('button', { name: 'Yes' }).click();
  await page.getByText('The partner was deleted successfully.').waitFor();
  await page.getByText('There are no results matching your criteria.').waitFor();
});

test('a system administrator adds a reseller with its URL code, finds, edits and deletes it', async ({ page }) => {
  const run = Date.now().toString(36);
  const code = `valley-${run}`;
  await openSignIn(page);
  await signIn(page, 'sysadmin@example.org');
  await page.goto('/admin/resellers');
  await expectHeading(page, 'Resellers');

  await page.getByRole('button', { name: 'Add reseller' }).click();
  const add = page.getByRole('dialog', { name: 'Add reseller' });
  await add.getByRole('textbox', { name: 'Name' }).fill(`Valley EHR Partners ${run}`);
  await choose(page, 'Type', 'Licensing');
  // A reserved word is refused as it is typed.
  const urlCode = add.getByRole('textbox', { name: 'Url Code' });
  await urlCode.fill('admin');
  await add.getByText('The Url Code contains a reserved word. Please enter a valid Url Code.').waitFor();
  await urlCode.fill(code);
  await add.getByText(new RegExp(`Register URL: .*/register/${code}$`)).waitFor();
  await chooseLogo(page, 'Add reseller');
  await choose(page, 'Background colour', 'Dark Grey');
  await add.getByRole('textbox', { name: 'Welcome message' }).fill('Welcome, Valley EHR customers.');
  await screenshot(page, 'admin-reseller-add');
  await expectNoAxeViolations(page, 'reseller-add');
  await add.getByRole('button', { name: 'Save' }).click();
  await page.getByText('The reseller was saved successfully.').waitFor();
  await add.waitFor({ state: 'hidden' });

  await search(page, run);
  await expect.poll(() => rowsOf(page).count()).toBe(2);
  await rowsOf(page).nth(1).getByText('Licensing').waitFor();
  await rowsOf(page).nth(1).getByRole('link', { name: new RegExp(`/register/${code}$`) }).waitFor();
  await screenshot(page, 'admin-resellers');
  await expectNoAxeViolations(page, 'resellers');

  await page.getByRole('button', { name: `Edit Valley EHR Partners ${run}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit reseller' });
  await edit.getByRole('textbox', { name: 'Affiliate URL Tag' }).fill('valley-ehr');
  await edit.getByRole('button', { name: 'Save' }).click();
  await edit.waitFor({ state: 'hidden' });
  await rowsOf(page).nth(1).getByText('valley-ehr', { exact: true }).waitFor();

  await page.getByRole('button', { name: `Delete Valley EHR Partners ${run}` }).click();
  await page.getByRole('dialog', { name: 'Delete reseller' }).getByRole('button', { name: 'Delete' }).click();
  await page.getByText('The reseller was deleted successfully.').waitFor();
  await page.getByText('There are no results matching your criteria.').waitFor();
});
