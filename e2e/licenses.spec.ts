import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { expectNoAxeViolations, screenshot } from './support/axe.ts';
import { apiSignIn, choose, expectHeading, openSignIn, signIn } from './support/journeys.ts';
import { test } from './support/test.ts';

// Issue 29 §4: a system administrator creates a license type, issues keys for an organization, sees them once in full
// in the generated list and then by their first group in the grid, narrows the grid to the keys expiring soon, and
// finds them on the organization's Licenses list. Every spec shares one demo world: names carry a run suffix.

const KEY = /^[0-9A-HJKMNP-TV-Z]{5}(?:-[0-9A-HJKMNP-TV-Z]{5}){5}$/;
const rowOf = (page: Page, text: string) => page.getByRole('table').first().getByRole('row').filter({ hasText: text });

test('a system administrator creates a license type, issues keys and finds them in the grid and on the organization', { timeout: 180_000 }, async ({ page, context, baseUrl }) => {
  const run = String(Date.now() % 1_000_000);
  const typeName = `E2E-Connector_${run}`;
  const reference = `ORDER-${run}`;
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });

  await openSignIn(page);
  await signIn(page, 'sysadmin@example.org');

  // License types: the form says what is missing, then a LicensedConnector type with six connector names.
  await page.getByRole('link', { name: 'License types' }).click();
  await expectHeading(page, 'License types');
  await page.getByRole('button', { name: 'Add license type' }).click();
  const add = page.getByRole('dialog', { name: 'Add license type' });
  await add.getByRole('button', { name: 'Save' }).click();
  await add.getByText('There are invalid fields on this page.').waitFor();
  await add.getByText('Please select a category').waitFor();
  await add.getByRole('textbox', { name: 'Name' }).fill('two words');
  await add.getByRole('button', { name: 'Save' }).click();
  await add.getByText('Name may contain only letters, digits, dashes and underscores.').waitFor();
  await choose(page, 'Category', 'Licensed plan');
  await add.getByRole('button', { name: 'Save' }).click();
  await add.getByText('Subscription is required for a licensed plan.').waitFor();
  await add.getByText('Duration is required for a licensed plan.').waitFor();

  await add.getByRole('textbox', { name: 'Name' }).fill(typeName);
  await add.getByRole('textbox', { name: 'Description' }).fill('The desktop connector, licensed per installation');
  await choose(page, 'Category', 'Licensed connector');
  const apps = add.getByLabel('Application names', { exact: true });
  await apps.fill('Connector');
  await apps.press('Enter');
  const connectors = add.getByLabel('Connector names', { exact: true });
  for (const name of ['Epic', 'Cerner', 'Athena', 'eClinicalWorks', 'NextGen', 'Allscripts']) {
    await connectors.fill(name);
    await connectors.press('Enter');
  }
  await screenshot(page, 'admin-license-type-add');
  await expectNoAxeViolations(page, 'admin-license-type-add');
  await add.getByRole('button', { name: 'Save' }).click();
  await page.getByText('The license type was saved successfully.').waitFor();
  await add.waitFor({ state: 'hidden' });

  await page.getByRole('searchbox', { name: 'Search' }).fill(typeName);
  const typeRow = rowOf(page, typeName);
  await typeRow.getByText('Licensed connector').waitFor();
  // §9: five connector names show, the sixth behind "+ 1 more".
  await typeRow.getByText('Epic, Cerner, Athena, eClinicalWorks, NextGen').waitFor();
  await typeRow.getByRole('button', { name: '+ 1 more' }).waitFor();
  await screenshot(page, 'admin-license-types');
  await expectNoAxeViolations(page, 'admin-license-types');

  // The same name again, in other letters, is refused.
  await page.getByRole('button', { name: 'Add license type' }).click();
  const again = page.getByRole('dialog', { name: 'Add license type' });
  await again.getByRole('textbox', { name: 'Name' }).fill(typeName.toLowerCase());
  await again.getByRole('textbox', { name: 'Description' }).click();
  await again.getByText('This license type already exists').waitFor();
  await again.getByRole('button', { name: 'Cancel' }).click();
  await again.waitFor({ state: 'hidden' });

  // License keys: generate three for Hillcrest, 30 days.
  await page.getByRole('link', { name: 'License keys' }).click();
  await expectHeading(page, 'License keys');
  await page.getByRole('button', { name: 'Generate' }).click();
  const generate = page.getByRole('dialog', { name: 'Generate license keys' });
  await generate.getByRole('button', { name: 'Generate' }).click();
  await generate.getByText('There are invalid fields on this page.').waitFor();
  await choose(page, 'License type', typeName);
  await generate.getByRole('combobox', { name: 'Organization' }).fill('Hillcr');
  await page.getByRole('option', { name: 'Hillcrest Pediatrics' }).click();
  await generate.getByRole('textbox', { name: 'Name', exact: true }).fill('Hannah Hill');
  await generate.getByRole('textbox', { name: 'Email', exact: true }).fill('hannah@hillcrest.example.org');
  await generate.getByRole('textbox', { name: 'Product name', exact: true }).fill('Connector Pro');
  await generate.getByRole('textbox', { name: 'Reference', exact: true }).fill(reference);
  await generate.getByRole('textbox', { name: 'Quantity', exact: true }).fill('3');
  await generate.getByRole('textbox', { name: 'Expires in days', exact: true }).fill('30');
  await choose(page, 'Application name', 'Connector');
  await screenshot(page, 'admin-license-generate');
  await expectNoAxeViolations(page, 'admin-license-generate');
  await generate.getByRole('button', { name: 'Generate' }).click();

  // The generated list: the keys in full, once.
  const list = page.getByRole('dialog', { name: 'Generated license keys' });
  await list.getByText('3 license keys were generated.').waitFor();
  const keys = (await list.getByRole('table').getByRole('row').locator('td:first-child').allInnerTexts()).map((k) => k.trim());
  expect(keys).toHaveLength(3);
  for (const key of keys) expect(key).toMatch(KEY);
  await list.getByRole('button', { name: 'Copy keys' }).click();
  await list.getByRole('button', { name: 'Copied!' }).waitFor();
  expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(keys.join('\n'));
  await screenshot(page, 'admin-license-generated');
  await expectNoAxeViolations(page, 'admin-license-generated');
  await list.getByRole('button', { name: 'Done' }).click();
  await list.waitFor({ state: 'hidden' });

  // The grid: each key by its first group only.
  await page.getByRole('searchbox', { name: 'Search' }).fill(reference);
  for (const key of keys) await rowOf(page, `${key.split('-')[0]}-…`).getByText('Hillcrest Pediatrics').waitFor();
  expect(await page.getByText(keys[0]!).count()).toBe(0);

  // One more key, a year long, through the API as a store would send it: Expiring Soon leaves it out.
  const headers = await apiSignIn(baseUrl, 'sysadmin@example.org');
  const yearLong = await fetch(`${baseUrl}/api/licenses/issue`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      name: 'Hannah Hill',
      email: 'hannah@hillcrest.example.org',
      internalproductname: 'Connector Pro',
      quantity: '1',
      expiresindays: '365',
      company: 'Hillcrest Pediatrics',
      licensedPlan: 'false',
      applicationname: 'Connector',
      licenseType: typeName,
      reference,
    }).toString(),
  });
  expect(yearLong.status).toBe(200);
  const yearKey = ((await yearLong.json()) as { licenses: { licenseKey: string }[] }).licenses[0]!.licenseKey;
  await page.reload();
  await rowOf(page, `${yearKey.split('-')[0]}-…`).waitFor();
  await page.getByText('1–4 of 4').waitFor();
  // The quick filter is a chip: its label is what is clicked.
  await page.getByText('Expiring Soon', { exact: true }).click();
  await page.getByText('1–3 of 3').waitFor();
  expect(await page.getByRole('checkbox', { name: 'Expiring Soon' }).isChecked()).toBe(true);
  expect(await rowOf(page, `${yearKey.split('-')[0]}-…`).count()).toBe(0);
  await screenshot(page, 'admin-license-keys-expiring');
  await expectNoAxeViolations(page, 'admin-license-keys-expiring');

  // The organization's Licenses list names the same keys.
  const found = (await (await fetch(`${baseUrl}/api/organizations?search=Hillcrest`, { headers })).json()) as { items: { id: string; name: string }[] };
  const hillcrest = found.items.find((o) => o.name === 'Hillcrest Pediatrics')!;
  await page.goto(`/admin/organizations/${hillcrest.id}`);
  await page.getByRole('tab', { name: 'Info' }).click();
  const licenses = page.getByRole('table', { name: 'Licenses' });
  for (const key of [...keys, yearKey]) await licenses.getByRole('row').filter({ hasText: `${key.split('-')[0]}-…` }).getByText(typeName).waitFor();
  await screenshot(page, 'admin-organization-licenses');
  await expectNoAxeViolations(page, 'admin-organization-licenses');
});
