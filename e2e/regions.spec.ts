import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { expectNoAxeViolations, screenshot } from './support/axe.ts';
import { expectHeading, openSignIn, signIn } from './support/journeys.ts';
import { test } from './support/test.ts';

// Issue 29 §6: health referral regions (create, edit, delete, unique name and code) and the health service areas'
// crosswalk upload (row errors with their line numbers, nothing loaded until the file is right). No other journey reads
// regions or service areas; the crosswalk replaces the service areas of this worker's world.

const rowOf = (page: Page, text: string) => page.getByRole('table').getByRole('row').filter({ hasText: text });

test('a system administrator keeps the health referral regions', { timeout: 120_000 }, async ({ page }) => {
  const run = Date.now() % 1_000_000;
  const name = `Journey Region ${run}`;
  await openSignIn(page);
  await signIn(page, 'sysadmin@example.org');
  await page.getByRole('link', { name: 'Health referral regions' }).click();
  await expectHeading(page, 'Health referral regions');

  await page.getByRole('button', { name: 'Add health referral region' }).click();
  const add = page.getByRole('dialog', { name: 'Add health referral region' });
  await add.getByRole('button', { name: 'Save' }).click();
  await add.getByText('There are invalid fields on this page.').waitFor();
  await add.getByRole('textbox', { name: 'Name' }).fill(name);
  await add.getByRole('textbox', { name: 'Code' }).fill(`J${run}`);
  await add.getByRole('button', { name: 'Save' }).click();
  await page.getByText('The health referral region was saved successfully.').first().waitFor();
  await add.waitFor({ state: 'hidden' });

  // The same name again: the server's model-state message at its field.
  await page.getByRole('button', { name: 'Add health referral region' }).click();
  await add.getByRole('textbox', { name: 'Name' }).fill(name.toUpperCase());
  await add.getByRole('textbox', { name: 'Code' }).fill(`K${run}`);
  await add.getByRole('button', { name: 'Save' }).click();
  await add.getByText('This health referral region name already exists, please enter a different name.').first().waitFor();
  await screenshot(page, 'regions-add-taken');
  await expectNoAxeViolations(page, 'regions-add-taken');
  await add.getByRole('button', { name: 'Cancel' }).click();

  await page.getByRole('searchbox', { name: 'Search' }).fill(String(run));
  await rowOf(page, name).waitFor();
  await screenshot(page, 'regions');
  await expectNoAxeViolations(page, 'regions');
  await page.getByRole('button', { name: `Edit ${name}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit health referral region' });
  await edit.getByRole('textbox', { name: 'Name' }).fill(`${name} East`);
  await edit.getByRole('button', { name: 'Save' }).click();
  await edit.waitFor({ state: 'hidden' });
  await rowOf(page, `${name} East`).waitFor();

  await page.getByRole('button', { name: `Delete ${name} East` }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete health referral region' });
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await page.getByText('The health referral region was deleted successfully.').first().waitFor();
  await page.getByText('There are no results matching your criteria.').waitFor();
});

test('a system administrator uploads the ZIP code crosswalk: errors by line first, then the whole file', { timeout: 120_000 }, async ({ page }) => {
  const header = 'zipcode19,hsanum,hsacity,hsastate,hrrnum,hrrcity,hrrstate';
  const good = [header, '1001,1013,Springfield,MA,230,Springfield,MA', '1002,1001,Amherst,MA,230,Springfield,MA', '35004,1081,Birmingham,AL,1,Birmingham,AL'];
  const bad = [...good, 'ABCDE,1013,Springfield,MA,230,Springfield,MA', '1001,1013,Springfield,MA,230,Springfield,MA'];
  await openSignIn(page);
  await signIn(page, 'sysadmin@example.org');
  await page.getByRole('link', { name: 'Health service areas' }).click();
  await expectHeading(page, 'Health service areas');

  await page.getByRole('button', { name: 'Upload crosswalk' }).click();
  const dialog = page.getByRole('dialog', { name: 'Upload crosswalk' });
  await dialog.getByRole('button', { name: 'Upload' }).click();
  await dialog.getByText('You must select a .CSV file.').waitFor();
  const choose = async (fileName: string, lines: string[]) => {
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), dialog.getByRole('button', { name: 'Crosswalk file' }).click()]);
    await chooser.setFiles({ name: fileName, mimeType: 'text/csv', buffer: Buffer.from(lines.join('\r\n')) });
  };
  await choose('ZipHsaHrr19.csv', bad);
  await dialog.getByRole('button', { name: 'Upload' }).click();
  await dialog.getByText('The crosswalk file has 2 errors; nothing was loaded.').waitFor();
  await dialog.getByText('Line 5: zipcode "ABCDE" is not a ZIP code.').waitFor();
  await dialog.getByText('Line 6: ZIP code 01001 is already on line 2.').waitFor();
  await screenshot(page, 'service-areas-crosswalk-errors');
  await expectNoAxeViolations(page, 'service-areas-crosswalk-errors');

  await dialog.getByRole('button', { name: 'Clear file' }).click();
  await choose('ZipHsaHrr19.csv', good);
  await dialog.getByRole('button', { name: 'Upload' }).click();
  await page.getByText(/^The crosswalk was loaded: 3 ZIP codes/).first().waitFor();
  await dialog.waitFor({ state: 'hidden' });
  await rowOf(page, '01001').waitFor();
  await expect.poll(() => page.getByRole('table').getByRole('row').count()).toBe(4);
  // The service areas' search waits 1000 ms after typing (back-office-b §9).
  await page.getByRole('searchbox', { name: 'Search' }).fill('Birmingham');
  await expect.poll(() => page.getByRole('table').getByRole('row').count(), { timeout: 10_000 }).toBe(2);
  await rowOf(page, '35004').waitFor();
  await screenshot(page, 'service-areas');
  await expectNoAxeViolations(page, 'service-areas');
});
