import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { expectNoAxeViolations, screenshot } from './support/axe.ts';
import { expectHeading, openSignIn, signIn } from './support/journeys.ts';
import { test } from './support/test.ts';

// Issue 29 §2: a system administrator imports a file of organizations at /admin/batchimports and follows each row on
// the Status tab; a row the organization form would refuse shows its messages, with the row number, in a tooltip.

// The first option of a select (the demo world's plans, HISPs and specialties are whatever the seed has).
async function chooseFirst(page: Page, label: string) {
  const select = page.getByRole('combobox', { name: label, exact: true });
  await expect
    .poll(
      async () => {
        if (!(await select.inputValue())) {
          await select.click();
          await page.getByRole('option').first().click({ timeout: 2_000 }).catch(() => page.keyboard.press('Escape'));
        }
        return select.inputValue();
      },
      { timeout: 10_000, interval: 250 },
    )
    .not.toBe('');
}

test('a system administrator imports organizations from a CSV file and follows the rows on the Status tab', { timeout: 180_000 }, async ({ page }) => {
  const run = Date.now() % 1_000_000;
  const fileName = `Harbor group ${run}.csv`;
  const csv = [
    'Organization Name,Subdomain,Street,City,State,Zip,Phone,Contact First Name,Contact Last Name,Contact Email',
    `Harbor Family Medicine ${run},harbor${run},100 Harbor Street,Portland,OR,97201,(503) 555-0100,Hana,Harbor,hana${run}@harbor.example.org`,
    `Ha,bad_sub${run},Harbor,Portland,OR,97201,(800) 555-0100,Hal,Harbor,hal${run}@harbor.example.org`,
  ].join('\r\n');

  await openSignIn(page);
  await signIn(page, 'sysadmin@example.org');
  await page.goto('/admin/organizations');
  // The back office's lazy chunks load on this first page: a machine shared with other runs needs more than 10 s.
  await page.getByRole('heading', { level: 1, name: 'Organizations', exact: true }).waitFor({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await expectHeading(page, 'Batch imports');
  await page.getByRole('tab', { name: 'Organization import', selected: true }).waitFor();

  // Every required field empty: the page says so, and each field its own message.
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await page.getByText('There are invalid fields on this page.').waitFor();
  await page.getByText('You must select a .CSV or .XLSX file.').waitFor();
  await page.getByText('Plan is required.').waitFor();
  await page.getByText('Specialty is required.').waitFor();
  await screenshot(page, 'batch-import-invalid');
  await expectNoAxeViolations(page, 'batch-import-invalid');

  // The sample template.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download template' }).click()]);
  expect(download.suggestedFilename()).toBe('organization-import-template.csv');

  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: 'File' }).click()]);
  await chooser.setFiles({ name: fileName, mimeType: 'text/csv', buffer: Buffer.from(csv) });
  for (const label of ['Plan', 'HISP', 'Brand', 'Type', 'Specialty']) await chooseFirst(page, label);
  await page.getByText(/^Allowed users: /).waitFor();
  await screenshot(page, 'batch-import-form');
  await expectNoAxeViolations(page, 'batch-import-form');
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await page.getByText('The file was imported successfully. Please check the status screen.').waitFor();

  // The Status tab: the workflow works the rows; the list reads them again until the file is done.
  await page.getByRole('tab', { name: 'Status', selected: true }).waitFor();
  await page.getByRole('searchbox', { name: 'Search' }).fill(`Harbor group ${run}`);
  const rows = page.getByRole('table').getByRole('row').filter({ hasText: fileName });
  await expect.poll(() => rows.count(), { timeout: 60_000 }).toBe(2);
  const created = rows.filter({ hasText: `Harbor Family Medicine ${run}` });
  await created.getByText('Created').first().waitFor({ timeout: 60_000 });
  const failed = rows.filter({ hasText: 'Ha' }).filter({ hasNotText: 'Family' });
  await failed.getByText('Failed').waitFor({ timeout: 60_000 });
  await failed.getByText('Not started').waitFor();
  // The row's errors, as the organization form words them, with the row number: in a tooltip beside the status.
  const info = failed.getByRole('button', { name: /^Row 3 errors: / });
  await info.hover();
  await page.getByRole('tooltip').getByText('Row 3: Name must be at least 3 characters.').waitFor();
  await page.getByRole('tooltip').getByText('Row 3: The phone number cannot be a toll-free (1-800) number.').waitFor();
  await screenshot(page, 'batch-import-status');
  await expectNoAxeViolations(page, 'batch-import-status');

  // Close returns to the organizations list, where the new organization is.
  await page.getByRole('link', { name: 'Close' }).click();
  await expectHeading(page, 'Organizations');
  await page.getByRole('searchbox', { name: 'Search' }).fill(`Harbor Family Medicine ${run}`);
  await page.getByRole('table').getByRole('row').filter({ hasText: `harbor${run}` }).waitFor();
});
