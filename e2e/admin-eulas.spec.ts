import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { expectNoAxeViolations, screenshot } from './support/axe.ts';
import { choose, expectHeading, openSignIn, signIn } from './support/journeys.ts';
import { test } from './support/test.ts';

// Issue 14 §2: a system administrator uploads a terms document at /admin/eulas, views it and activates it. The upload
// carries a script-execution probe: the stored document is sanitized and shown in a sandboxed frame, so neither the
// app nor the frame ever runs it. Every spec shares one demo world: activating a new EULA of the ClinicRelay brand would
// ask every other journey's users to accept terms again, so this journey activates a Privacy document (a published
// notice that is not asked at sign-in); that a new EULA asks everyone again is proved in the API tests.

const rowOf = (page: Page, text: string) => page.getByRole('table').getByRole('row').filter({ hasText: text });

test('a system administrator uploads, views and activates a sanitized terms document', { timeout: 120_000 }, async ({ page }) => {
  // A fresh version per run (max 10 characters, numeric with decimals).
  const version = `9.${Date.now() % 1_000_000}`;
  const name = `ClinicRelay Privacy ${version}`;
  const hostile = [
    '<h1>ClinicRelay Privacy Notice</h1>',
    '<p>We keep the information you send only as long as your organization needs it.</p>',
    '<script>window.__pwned = true; document.title = "pwned";</script>',
    '<img src="x" alt="" onerror="window.__pwned = true; document.title = \'pwned\'">',
    '<svg onload="window.__pwned = true"></svg>',
    '<p><a href="javascript:window.__pwned=true">A script link</a></p>',
  ].join('\n');

  await openSignIn(page);
  await signIn(page, 'sysadmin@example.org');
  await page.getByRole('link', { name: 'Terms of service' }).click();
  await expectHeading(page, 'Terms of service');
  await rowOf(page, 'ClinicRelay').filter({ hasText: '1.0' }).first().waitFor();
  const title = await page.title();

  await page.getByRole('button', { name: 'Add terms document' }).click();
  const add = page.getByRole('dialog', { name: 'Add terms document' });
  await add.getByRole('button', { name: 'Save' }).click();
  await add.getByText('You must select a file.').waitFor();
  const [wrong] = await Promise.all([page.waitForEvent('filechooser'), add.getByRole('button', { name: 'File' }).click()]);
  await wrong.setFiles({ name: 'privacy.txt', mimeType: 'text/plain', buffer: Buffer.from('Not html') });
  await add.getByRole('button', { name: 'Save' }).click();
  await add.getByText('You must select a html file.').waitFor();
  await add.getByRole('button', { name: 'Clear file' }).click();
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), add.getByRole('button', { name: 'File' }).click()]);
  await chooser.setFiles({ name: `privacy-${version}.html`, mimeType: 'text/html', buffer: Buffer.from(hostile) });
  await choose(page, 'Type', 'Privacy');
  await choose(page, 'Brand', 'ClinicRelay');
  // The demo EULA's version is taken for the brand, whatever the type.
  await add.getByRole('textbox', { name: 'Version' }).fill('1.0');
  await add.getByRole('button', { name: 'Save' }).click();
  await add.getByText('This eula version already exists, please enter a different version number.').waitFor();
  await add.getByRole('textbox', { name: 'Version' }).fill(version);
  await screenshot(page, 'admin-eula-add');
  await expectNoAxeViolations(page, 'admin-eula-add');
  await add.getByRole('button', { name: 'Save' }).click();
  await page.getByText('The terms document was created.').waitFor();
  await add.waitFor({ state: 'hidden' });

  await page.getByRole('searchbox', { name: 'Search' }).fill(version);
  const row = rowOf(page, version);
  await row.getByRole('cell', { name: 'Privacy', exact: true }).waitFor();
  await row.getByText('Inactive').waitFor();
  await screenshot(page, 'admin-eulas');
  await expectNoAxeViolations(page, 'admin-eulas');

  // View: the sanitized document in its sandboxed frame; the probe never runs.
  await row.getByRole('button', { name: `View ${name}` }).click();
  const view = page.getByRole('dialog', { name: `Terms document: ${name}` });
  const frame = view.locator('iframe');
  await frame.waitFor();
  expect(await frame.getAttribute('sandbox')).toBe('allow-popups allow-popups-to-escape-sandbox');
  const body = page.frameLocator(`iframe[title="Terms document ${name}"]`).locator('body');
  await body.getByRole('heading', { name: 'ClinicRelay Privacy Notice' }).waitFor();
  const inner = await body.innerHTML();
  expect(inner).not.toMatch(/<script|onerror|onload|javascript:|<svg/i);
  await page.waitForTimeout(500);
  expect(await page.evaluate('window.__pwned')).toBeUndefined();
  expect(await page.title()).toBe(title);
  await screenshot(page, 'admin-eula-view');
  await expectNoAxeViolations(page, 'admin-eula-view');
  await view.getByRole('button', { name: 'Close' }).click();
  await view.waitFor({ state: 'hidden' });

  // Activate: the confirmation says what it means; the row is then active and can no longer be deleted.
  await row.getByRole('button', { name: `Activate ${name}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Activate terms document' });
  await confirm.getByText('users are not asked to accept them at sign-in', { exact: false }).waitFor();
  await screenshot(page, 'admin-eula-activate');
  await expectNoAxeViolations(page, 'admin-eula-activate');
  await confirm.getByRole('button', { name: 'Activate' }).click();
  await page.getByText('The terms document was activated.').waitFor();
  await row.getByText('Active', { exact: true }).waitFor();
  expect(await row.getByRole('button', { name: `Delete ${name}` }).count()).toBe(0);
  expect(await row.getByRole('button', { name: `Activate ${name}` }).count()).toBe(0);
  expect(await page.evaluate('window.__pwned')).toBeUndefined();
});
