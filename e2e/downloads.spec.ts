import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { expectNoAxeViolations, screenshot } from './support/axe.ts';
import { expectHeading, expectPath, openSignIn, signIn } from './support/journeys.ts';
import { test } from './support/test.ts';

// Issue 13 §7: a system administrator publishes a file at /admin/downloads; an organization's user finds it on the
// Downloads page and downloads the very bytes that were uploaded.

const rowOf = (page: Page, text: string) => page.getByRole('table').getByRole('row').filter({ hasText: text });

test('a system administrator publishes a print driver and a Lakeside user downloads it', { timeout: 90_000 }, async ({ page }) => {
  const run = Date.now().toString(36);
  const displayName = `ClinicRelay Print Driver ${run}`;
  const bytes = Buffer.from(`MZ\u0090 ClinicRelay print driver ${run} ${'\u0001\u0002\u00ff'.repeat(64)}`, 'latin1');

  await openSignIn(page);
  await signIn(page, 'sysadmin@example.org');
  await page.goto('/admin/downloads');
  await expectHeading(page, 'Downloads');

  await page.getByRole('button', { name: 'Add download' }).click();
  const add = page.getByRole('dialog', { name: 'Add download' });
  await add.getByRole('button', { name: 'Save' }).click();
  await add.getByText('You must select a file.').waitFor();
  await add.getByRole('textbox', { name: 'Display name' }).fill(displayName);
  await add.getByRole('textbox', { name: 'Download tag' }).fill(`print-driver-${run}`);
  await add.getByRole('textbox', { name: 'Description' }).fill('Print to ClinicRelay from any Windows application.');
  await add.getByRole('textbox', { name: 'Platform OS' }).fill('Windows');
  await add.getByRole('textbox', { name: 'Platform version' }).fill('11');
  await add.getByRole('textbox', { name: 'Supported versions' }).fill('10, 11');
  await add.getByRole('textbox', { name: 'Version', exact: true }).fill('3.2.1');
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), add.getByRole('button', { name: 'File' }).click()]);
  await chooser.setFiles({ name: `PrintDriver-${run}.exe`, mimeType: 'application/octet-stream', buffer: bytes });
  await screenshot(page, 'admin-download-add');
  await expectNoAxeViolations(page, 'admin-download-add');
  await add.getByRole('button', { name: 'Save' }).click();
  await page.getByText('The download was saved successfully.').waitFor();
  await add.waitFor({ state: 'hidden' });

  // New uploads wait for activation.
  await page.getByRole('searchbox', { name: 'Search' }).fill(run);
  const row = rowOf(page, displayName);
  const active = row.getByRole('switch', { name: `Active: ${displayName}` });
  expect(await active.isChecked()).toBe(false);
  // Mantine draws the switch over its input, which has no box of its own to click.
  await active.click({ force: true });
  await page.getByText('The download was activated.').waitFor();
  await expect.poll(() => active.isChecked()).toBe(true);
  await row.getByRole('button', { name: `Copy the link of ${displayName}` }).waitFor();
  await screenshot(page, 'admin-downloads');
  await expectNoAxeViolations(page, 'admin-downloads');

  await page.goto('/account/logout');
  await expectPath(page, '/account/login');
  await signIn(page, 'user@lakeside.example.org');
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Downloads' }).click();
  await expectPath(page, '/downloads');
  await expectHeading(page, 'Downloads');
  const published = rowOf(page, displayName);
  await published.getByText('Print to ClinicRelay from any Windows application.').waitFor();
  await published.getByText('Windows 11').waitFor();
  await published.getByText('3.2.1').waitFor();
  await screenshot(page, 'downloads');
  await expectNoAxeViolations(page, 'downloads');

  const [download] = await Promise.all([page.waitForEvent('download'), published.getByRole('button', { name: `Download ${displayName}` }).click()]);
  expect(download.suggestedFilename()).toBe(`PrintDriver-${run}.exe`);
  expect(readFileSync(await download.path()).equals(bytes)).toBe(true);
});
