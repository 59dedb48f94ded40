import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { expectNoAxeViolations, screenshot } from './support/axe.ts';
import { expectHeading, expectPath, openSignIn, signIn } from './support/journeys.ts';
import { test } from './support/test.ts';

// Issue 27 §4: a reporting administrator downloads report CSVs and reads the sift metrics; a system administrator opens
// the generated monthly usage reports (made by the scheduled workflow when the server started) and downloads one.

const tile = (page: Page, title: string) => page.getByRole('region', { name: title });

async function downloadOf(page: Page, click: () => Promise<void>) {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  return { name: download.suggestedFilename(), text: readFileSync(await download.path()).toString('utf8') };
}

test('reports: CSV downloads, the Messages Report modal, sift metrics and generated reports', { timeout: 120_000 }, async ({ page }) => {
  await openSignIn(page);
  await signIn(page, 'reporting@example.org');
  await page.goto('/admin/reports');
  await expectHeading(page, 'Reports');
  // Generated reports are SysAdmin's: no tile for SysAdminReporting.
  expect(await tile(page, 'Generated Reports').count()).toBe(0);
  await tile(page, 'Download Contacts Statistics').waitFor();
  await screenshot(page, 'admin-reports');
  await expectNoAxeViolations(page, 'admin-reports');

  const addresses = await downloadOf(page, () => tile(page, 'Direct Addresses').getByRole('button', { name: 'Download' }).click());
  expect(addresses.name).toMatch(/^ClinicRelay_DirectAddresses_\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}\.csv$/);
  expect(addresses.text.split('\r\n')[0]).toBe('Organization Id,Organization,Subdomain,Direct Address,Status,Created');
  expect(addresses.text).toContain('intake@lakeside.direct.example.org');

  // The Messages Report modal: a reversed range is refused with the spec's texts, then the page downloads.
  await tile(page, 'Messages').getByRole('button', { name: 'Choose dates' }).click();
  const modal = page.getByRole('dialog', { name: 'Messages Report' });
  await modal.getByRole('textbox', { name: 'Start Date' }).fill('12/31/2025');
  await modal.getByRole('textbox', { name: 'End Date' }).fill('01/01/2025');
  await modal.getByRole('button', { name: 'Download' }).click();
  await modal.getByText('Start Date must be smaller or equal than End Date.').waitFor();
  await modal.getByText('There are invalid fields on this page.').waitFor();
  await screenshot(page, 'admin-reports-messages-modal');
  await expectNoAxeViolations(page, 'admin-reports-messages-modal');
  await modal.getByRole('textbox', { name: 'Start Date' }).fill('01/01/2025');
  await modal.getByRole('textbox', { name: 'End Date' }).fill('12/31/2025');
  const events = await downloadOf(page, () => modal.getByRole('button', { name: 'Download' }).click());
  expect(events.name).toMatch(/^ClinicRelay_Messages_.*\.csv$/);
  expect(events.text.split('\r\n')[0]).toBe('Date,Event Type,Organization Id,Organization,Message Id,Direction,Source Type,Status,User Name');
  await modal.waitFor({ state: 'hidden' });

  // An organization report, saved under the spec's name.
  await tile(page, 'Download Profiles').getByRole('button', { name: 'Choose organizations' }).click();
  const select = page.getByRole('dialog', { name: 'Download Profiles' });
  const profiles = await downloadOf(page, () => select.getByRole('button', { name: 'Download' }).click());
  expect(profiles.name).toBe('Download_Profiles.csv');
  expect(profiles.text).toContain('Lakeside Family Medicine,Export,PatientFolder');

  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Sift metrics' }).click();
  await expectPath(page, '/admin/siftmetrics');
  await expectHeading(page, 'Sift metrics');
  await page.getByRole('textbox', { name: 'Start Date' }).fill('01/01/2020');
  await page.getByRole('button', { name: 'Search' }).click();
  await Promise.race([page.getByRole('columnheader', { name: /Tenant/ }).waitFor(), page.getByText('There are no results matching your criteria.').waitFor()]);
  await screenshot(page, 'admin-siftmetrics');
  await expectNoAxeViolations(page, 'admin-siftmetrics');

  await page.goto('/account/logout');
  await expectPath(page, '/account/login');
  await signIn(page, 'sysadmin@example.org');
  await page.goto('/admin/reports');
  await tile(page, 'Generated Reports').getByRole('link', { name: 'Open' }).click();
  await expectPath(page, '/admin/generatedreports');
  await expectHeading(page, 'Generated reports');
  // Made by the monthly usage workflow the schedule started with the server.
  const row = page.getByRole('row').filter({ hasText: 'Monthly usage: Lakeside Family Medicine' });
  for (let i = 0; i < 20 && (await row.count()) === 0; i++) {
    await page.waitForTimeout(1000);
    await page.reload();
  }
  await row.first().waitFor();
  await screenshot(page, 'admin-generatedreports');
  await expectNoAxeViolations(page, 'admin-generatedreports');
  const usage = await downloadOf(page, () => row.first().getByRole('button', { name: /^Download / }).click());
  expect(usage.name).toMatch(/^ClinicRelay_MonthlyUsage_lakeside_\d{4}-\d{2}\.csv$/);
  expect(usage.text.split('\r\n')[0]).toBe('Organization Id,Organization,Month,Measure,Channel,Value');
  expect(usage.text).toMatch(/,Users,,\d+/);
});
