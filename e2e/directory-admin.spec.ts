import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { expectNoAxeViolations, screenshot } from './support/axe.ts';
import { choose, expectHeading, openSignIn, signIn } from './support/journeys.ts';
import { test } from './support/test.ts';

// Issue 29 §7: the directory service's entries (/admin/directory), directory downloads (/admin/directorydownloads) and
// the e-signature connector with its sandbox provider (/admin/docusign), as a system administrator uses them.

const rowOf = (page: Page, text: string) => page.getByRole('table').getByRole('row').filter({ hasText: text });

async function openAdmin(page: Page, path: string, heading: string) {
  await openSignIn(page);
  await signIn(page, 'sysadmin@example.org');
  await page.goto(path);
  await expectHeading(page, heading);
}

test('a system administrator publishes a directory entry as JSON that end users then find', { timeout: 120_000 }, async ({ page }) => {
  const name = `Cascade Wound Care ${Date.now() % 1_000_000}`;
  await openAdmin(page, '/admin/directory', 'Directory');

  await page.getByRole('button', { name: 'Add directory entry' }).click();
  const add = page.getByRole('dialog', { name: 'Add directory entry' });
  const editor = add.getByRole('textbox', { name: 'Directory entry (JSON)' });
  await editor.fill('{ "entryType": "Organization", ');
  await add.getByRole('button', { name: 'Save' }).click();
  await add.getByText('Invalid JSON in directory entry.').waitFor();
  await add.getByText('There are invalid fields on this page.').waitFor();
  await editor.fill(JSON.stringify({ entryType: 'Organization', organizationName: name, directAddress: 'intake@direct.cascadewound.example.net', standardizedCity: 'Bend', standardizedState: 'OR', specialties: ['wound care'] }));
  // Leaving the editor pretty-prints it.
  await add.getByRole('button', { name: 'Cancel' }).focus();
  expect(await editor.inputValue()).toContain('\n  "entryType": "Organization",\n');
  await screenshot(page, 'admin-directory-entry');
  await expectNoAxeViolations(page, 'admin-directory-entry');
  await add.getByRole('button', { name: 'Save' }).click();
  await page.getByText('The directory entry was saved.').waitFor();

  await page.getByRole('searchbox', { name: 'Search' }).fill('cascade wound');
  const row = rowOf(page, name);
  await row.getByRole('cell', { name: 'intake@direct.cascadewound.example.net' }).waitFor();
  await screenshot(page, 'admin-directory');
  await expectNoAxeViolations(page, 'admin-directory');

  await row.getByRole('button', { name: `Edit ${name}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit directory entry' });
  const text = await edit.getByRole('textbox', { name: 'Directory entry (JSON)' }).inputValue();
  expect(JSON.parse(text)).toMatchObject({ organizationName: name, isSystemGenerated: false, tenantId: 'platform', specialties: ['wound care'] });
  await edit.getByRole('button', { name: 'Cancel' }).click();

  await row.getByRole('button', { name: `Delete ${name}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete directory entry' });
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await page.getByText('The directory entry was deleted.').waitFor();
  await page.getByText('There are no results matching your criteria.').waitFor();
});

test('a system administrator requests a directory download, reads its log and downloads the file', { timeout: 180_000 }, async ({ page, context, baseUrl }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
  await openAdmin(page, '/admin/directorydownloads', 'Directory downloads');
  await page.getByRole('button', { name: 'Request download' }).click();
  const request = page.getByRole('dialog', { name: 'Request directory download' });
  await request.getByRole('button', { name: 'Request' }).click();
  await request.getByText('There are invalid fields on this page.').waitFor();
  await request.getByText('Type is required.').waitFor();
  await choose(page, 'Type', 'Organizations');
  await choose(page, 'Mode', 'Full (every active entry)');
  await screenshot(page, 'admin-directory-download-request');
  await expectNoAxeViolations(page, 'admin-directory-download-request');
  await request.getByRole('button', { name: 'Request' }).click();
  await page.getByText('The download request was sent.').waitFor();

  // The workflow makes the file; the list looks again by itself until it is there.
  const row = rowOf(page, 'Organizations').first();
  await row.getByText('Completed').waitFor({ timeout: 90_000 });
  await screenshot(page, 'admin-directory-downloads');
  await expectNoAxeViolations(page, 'admin-directory-downloads');

  const [download] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: /^Download the file of request/ }).click()]);
  expect(download.suggestedFilename()).toMatch(/^directory_organizations_full_.*\.csv$/);
  const stream = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  const lines = Buffer.concat(chunks).toString('utf8').split('\r\n').filter(Boolean);
  expect(lines[0]).toMatch(/^NPI,Entity Type,Last Name,/);
  expect(lines.length).toBeGreaterThan(1);
  expect(lines.slice(1).every((line) => /^\d{10},Organization,/.test(line))).toBe(true);

  await row.getByRole('button', { name: /^Log message of request/ }).click();
  const log = page.getByRole('dialog', { name: 'Log message' });
  await log.getByText(/Full download of organizations/).waitFor();
  await log.getByRole('button', { name: 'Copy' }).click();
  await log.getByRole('button', { name: 'Copied!' }).waitFor();
  expect(await page.evaluate('navigator.clipboard.readText()')).toContain('Full download of organizations');
  await screenshot(page, 'admin-directory-download-log');
  await expectNoAxeViolations(page, 'admin-directory-download-log');
  // back-office-b §9: back to Copy after 2.5 s.
  await log.getByRole('button', { name: 'Copy' }).waitFor({ timeout: 5_000 });
});

test('a system administrator connects an e-signature account through the sandbox sign-in window and removes it', { timeout: 120_000 }, async ({ page }) => {
  const account = `Clinic Signatures ${Date.now() % 1_000_000}`;
  await openAdmin(page, '/admin/docusign', 'E-signature accounts');
  await page.getByText('sandbox', { exact: true }).waitFor();
  await page.getByRole('button', { name: 'Sign in' }).click();
  const modal = page.getByRole('dialog', { name: 'Sign in to the e-signature provider' });
  const [popup] = await Promise.all([page.waitForEvent('popup'), modal.getByRole('button', { name: 'Sign in' }).click()]);
  await popup.getByRole('heading', { name: 'Sign in to the sandbox e-signature provider' }).waitFor();
  await popup.getByRole('textbox', { name: 'Account name' }).fill(account);
  await popup.getByRole('textbox', { name: 'Email' }).fill('esign@clinic.example.org');
  await popup.getByRole('button', { name: 'Accept' }).click();
  await popup.getByRole('heading', { name: 'Account connected' }).waitFor();
  await popup.waitForEvent('close', { timeout: 10_000 });

  const row = rowOf(page, account);
  await row.getByRole('cell', { name: 'DocuSign (sandbox)' }).waitFor();
  await screenshot(page, 'admin-docusign');
  await expectNoAxeViolations(page, 'admin-docusign');

  await row.getByRole('button', { name: `Delete ${account}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete e-signature account' });
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await page.getByText('The e-signature account was removed.').waitFor();
  await row.waitFor({ state: 'detached' });
});
