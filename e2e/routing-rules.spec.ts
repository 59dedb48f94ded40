import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { expectNoAxeViolations, screenshot } from './support/axe.ts';
import { choose, expectHeading, openSignIn, signIn } from './support/journeys.ts';
import { test } from './support/test.ts';

// Issue 29 §3: a system administrator keeps a routing rule at /admin/messageroutingrules: creates it (Save disabled
// while the form is invalid), gives it an MLLP endpoint and a sending organization, sees the counts in the grid, and
// deletes it.

const rowOf = (page: Page, text: string) => page.getByRole('table').getByRole('row').filter({ hasText: text });

test('a system administrator creates a routing rule, adds an endpoint and a sending organization, and deletes it', { timeout: 180_000 }, async ({ page }) => {
  const address = `results-${Date.now() % 1_000_000}@mercy-hospital.hl7.example.net`;
  const shown = `${address.slice(0, 17)}…`;

  await openSignIn(page);
  await signIn(page, 'sysadmin@example.org');
  await page.goto(new URL('/admin/messageroutingrules', page.url()).toString());
  await expectHeading(page, 'Message routing rules');

  await page.getByRole('button', { name: 'Add routing rule', exact: true }).click();
  const add = page.getByRole('dialog', { name: 'Add routing rule' });
  const save = add.getByRole('button', { name: 'Save', exact: true });
  expect(await save.isDisabled()).toBe(true);
  // Leaving the address empty says why, and the form is marked invalid.
  await add.getByRole('textbox', { name: 'Address', exact: true }).focus();
  await add.getByRole('textbox', { name: 'Key HIE address', exact: true }).fill('k'.repeat(10));
  await add.getByText('Address is required.').waitFor();
  await add.getByText('There are invalid fields on this page.').waitFor();
  await add.getByRole('textbox', { name: 'Address', exact: true }).fill(address);
  await choose(page, 'Step type', '3');
  await choose(page, 'Security type', 'Certificate');
  await choose(page, 'Convert to format', 'ORU');
  await choose(page, 'Location code', 'rrh');
  await add.getByRole('textbox', { name: 'Facility OID', exact: true }).fill('2.16.840.1.113883.3.1234');
  await add.getByRole('textbox', { name: 'Key HIE address', exact: true }).fill('hie-gateway@statehie.example.org');
  await expect.poll(() => save.isDisabled()).toBe(false);
  await screenshot(page, 'routing-rule-add');
  await expectNoAxeViolations(page, 'routing-rule-add');
  await save.click();
  await page.getByText('The routing rule was saved.').waitFor();
  await add.waitFor({ state: 'hidden' });

  await page.getByRole('searchbox', { name: 'Search' }).fill(address.slice(0, 14));
  const row = rowOf(page, shown);
  await row.waitFor();
  await row.getByRole('cell', { name: 'None', exact: true }).waitFor();

  // Manage endpoints: one MLLP endpoint.
  await row.getByRole('button', { name: `Manage endpoints of ${address}` }).click();
  const endpoints = page.getByRole('dialog', { name: /^Endpoints:/ });
  await endpoints.getByText('This routing rule has no endpoints yet.').waitFor();
  await endpoints.getByRole('button', { name: 'Add endpoint', exact: true }).click();
  const endpoint = page.getByRole('dialog', { name: 'Add endpoint' });
  await endpoint.getByRole('textbox', { name: 'IP address', exact: true }).fill('mllp.mercy-hospital.example.net');
  await endpoint.getByRole('textbox', { name: 'Port', exact: true }).fill('70000');
  await endpoint.getByRole('textbox', { name: 'OID', exact: true }).focus();
  await endpoint.getByText('Port must be a number from 1 to 65535.').waitFor();
  await endpoint.getByRole('textbox', { name: 'Port', exact: true }).fill('2575');
  await endpoint.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByText('The endpoint was saved.').waitFor();
  await endpoints.getByRole('cell', { name: 'mllp.mercy-hospital.example.net', exact: true }).waitFor();
  await screenshot(page, 'routing-rule-endpoints');
  await expectNoAxeViolations(page, 'routing-rule-endpoints');
  await page.keyboard.press('Escape');
  await endpoints.waitFor({ state: 'hidden' });

  // Manage sending organizations: Lakeside, chosen from the typeahead.
  await row.getByRole('button', { name: `Manage sending organizations of ${address}` }).click();
  const senders = page.getByRole('dialog', { name: /^Sending organizations:/ });
  await senders.getByRole('button', { name: 'Add sending organization', exact: true }).click();
  const sender = page.getByRole('dialog', { name: 'Add sending organization' });
  const organization = sender.getByRole('combobox', { name: 'Organization', exact: true });
  await organization.fill('Lakes');
  await page.getByRole('option', { name: /^Lakeside/ }).first().click();
  await sender.getByRole('textbox', { name: 'Organization OID', exact: true }).fill('2.16.840.1.113883.3.55');
  await sender.getByRole('textbox', { name: 'Facility type', exact: true }).fill('Clinic');
  await screenshot(page, 'routing-rule-sender-add');
  await expectNoAxeViolations(page, 'routing-rule-sender-add');
  await sender.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByText('The sending organization was saved.').waitFor();
  await senders.getByRole('cell', { name: '2.16.840.1.113883.3.55', exact: true }).waitFor();
  await screenshot(page, 'routing-rule-senders');
  await page.keyboard.press('Escape');
  await senders.waitFor({ state: 'hidden' });

  // The grid counts them.
  await row.getByRole('cell', { name: '1', exact: true }).first().waitFor();
  await expect.poll(async () => (await row.getByRole('cell').allInnerTexts()).slice(6, 8)).toEqual(['1', '1']);
  await screenshot(page, 'routing-rules');
  await expectNoAxeViolations(page, 'routing-rules');

  await row.getByRole('button', { name: `Delete ${address}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete routing rule' });
  await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
  await page.getByText('The routing rule was deleted.').waitFor();
  await page.getByText('There are no results matching your criteria.').waitFor();
});
