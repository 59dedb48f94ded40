import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { expectNoAxeViolations, screenshot } from './support/axe.ts';
import { acceptTerms, activateOrganization, apiSignIn, choose, composeReferral, expectHeading, expectPath, openSignIn, putOffIdentityCheck, signIn } from './support/journeys.ts';
import { test } from './support/test.ts';

// Issue 11 §7: the whole set-up of a new organization in the back office, with nothing from the demo seed but the
// system administrator and Lakeside: create the organization, give it a Direct address and an Administrator, activate
// it; that Administrator signs in and sends to Lakeside, which receives the message.

const rowsOf = (page: Page) => page.getByRole('table').getByRole('row');

async function search(page: Page, text: string) {
  await page.getByRole('searchbox', { name: 'Search' }).fill(text);
  await expect.poll(() => new URL(page.url()).searchParams.get('search')).toBe(text);
}

test('a system administrator sets up an organization whose Administrator then sends to Lakeside', { timeout: 150_000 }, async ({ page, baseUrl }) => {
  const run = Date.now().toString(36);
  const name = `Summit Family Clinic ${run}`;
  const subdomain = `summit${run}`;
  const address = `frontdesk@${subdomain}.direct.example.org`;
  const adminUser = `admin@${subdomain}.example.org`;
  const password = 'Summit-clinic-2026!';

  await openSignIn(page);
  await signIn(page, 'sysadmin@example.org');
  await page.goto('/admin/organizations');
  await expectHeading(page, 'Organizations');
  await rowsOf(page).filter({ hasText: 'Lakeside Family Medicine' }).waitFor();
  await screenshot(page, 'admin-organizations');
  await expectNoAxeViolations(page, 'organizations');

  // Create: details and the primary contact; the other tabs wait for an id.
  await page.getByRole('button', { name: 'Add organization' }).click();
  await expectPath(page, '/admin/organizations/add');
  await expectHeading(page, 'Add organization');
  expect(await page.getByRole('tab').allInnerTexts()).toEqual(['Details', 'Primary Contact']);
  // An empty form names what is missing.
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await page.getByText('Please fill out all required fields.').first().waitFor();
  await page.getByRole('textbox', { name: 'Organization Name' }).fill(name);
  await page.getByRole('textbox', { name: 'Subdomain' }).fill(subdomain);
  await choose(page, 'Type', 'Provider');
  await choose(page, 'Specialty', 'Family Medicine');
  await page.getByRole('textbox', { name: 'NPI', exact: true }).fill('1234567893');
  await page.getByRole('textbox', { name: 'Street' }).fill('410 Summit Avenue');
  await page.getByRole('textbox', { name: 'City' }).fill('Bend');
  await choose(page, 'State', 'Oregon (OR)');
  await page.getByRole('textbox', { name: 'Zip' }).fill('97701');
  await page.getByRole('textbox', { name: 'Phone', exact: true }).fill('5415550150');
  expect(await page.getByRole('textbox', { name: 'Phone', exact: true }).inputValue()).toBe('(541) 555-0150');
  await screenshot(page, 'admin-organization-add-details');
  await expectNoAxeViolations(page, 'organization-add');
  await page.getByRole('tab', { name: 'Primary Contact' }).click();
  await page.getByRole('textbox', { name: 'First Name' }).fill('Sofia');
  await page.getByRole('textbox', { name: 'Last Name' }).fill('Summit');
  await page.getByRole('textbox', { name: 'Email' }).fill(adminUser);
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await page.getByText('The organization was saved successfully.').waitFor();
  await expectPath(page, '/admin/organizations');

  // Find it, open it, and give it a Direct address on its Direct tab.
  await search(page, run);
  await expect.poll(() => rowsOf(page).count()).toBe(2);
  await rowsOf(page).filter({ hasText: name }).getByText('Not Activated').waitFor();
  // The Import button leads to the batch import (issue 29 §2, e2e/batch-imports.spec.ts); the Id the list shows opens the organization.
  expect(await page.getByRole('button', { name: 'Import', exact: true }).count()).toBe(1);
  const orgId = (await rowsOf(page).filter({ hasText: name }).getByRole('cell').first().innerText()).trim();
  expect(orgId).toMatch(/^\d+$/);
  await page.goto(`/admin/organizations/${orgId}`);
  await expectHeading(page, name);
  expect(new URL(page.url()).pathname).toMatch(/^\/admin\/organizations\/[0-9a-f-]{36}$/);
  // back-office-a §3: the affiliate and the licensing reseller, each its own field.
  await page.getByRole('combobox', { name: 'Affiliate Reseller' }).waitFor();
  await page.getByRole('combobox', { name: 'Licensing Reseller' }).waitFor();
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.getByRole('heading', { name: 'Plan and reseller' }).scrollIntoViewIfNeeded();
  await screenshot(page, 'admin-organization-resellers');
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goBack();
  await rowsOf(page).filter({ hasText: name }).waitFor();
  await page.getByRole('button', { name: `Edit ${name}` }).click();
  await expectHeading(page, name);
  await page.getByRole('tab', { name: 'Direct' }).click();
  await page.getByText('This organization has no Direct addresses or fax numbers yet.').waitFor();
  await page.getByRole('button', { name: 'Add address' }).click();
  const add = page.getByRole('dialog', { name: 'Add address' });
  await add.getByRole('textbox', { name: 'Direct address' }).fill(address);
  await add.getByRole('button', { name: 'Save' }).click();
  await add.waitFor({ state: 'hidden' });
  await rowsOf(page).filter({ hasText: address }).getByText('Provisioning').waitFor();
  await page.getByRole('button', { name: `Activate ${address}` }).click();
  await rowsOf(page).filter({ hasText: address }).getByText('Activated').waitFor();
  await screenshot(page, 'admin-organization-direct');
  await expectNoAxeViolations(page, 'organization-direct');

  // Its Administrator, with a password, from the users list.
  await page.goto('/admin/users');
  await expectHeading(page, 'Users');
  await page.getByRole('button', { name: 'Add User' }).click();
  const user = page.getByRole('dialog', { name: 'Add User' });
  await user.getByRole('textbox', { name: 'User name (email)' }).fill(adminUser);
  await user.getByRole('textbox', { name: 'First name' }).fill('Sofia');
  await user.getByRole('textbox', { name: 'Last name' }).fill('Summit');
  const organization = user.getByRole('combobox', { name: 'Organization' });
  await organization.fill(run);
  await page.getByRole('option', { name }).click();
  await choose(page, 'Role', 'Administrator');
  await choose(page, 'Primary job function', 'Practice Manager');
  await user.getByLabel(/^Password/).fill(password);
  await user.getByLabel('Confirm password').fill(password);
  await screenshot(page, 'admin-user-add');
  await expectNoAxeViolations(page, 'user-add');
  await user.getByRole('button', { name: 'Save' }).click();
  await user.waitFor({ state: 'hidden' });
  await search(page, subdomain);
  await rowsOf(page).filter({ hasText: adminUser }).getByText(name).waitFor();

  // Activate it from the list's row menu.
  await page.goto(`/admin/organizations?search=${run}`);
  await activateOrganization(page, name);
  await rowsOf(page).filter({ hasText: name }).getByText('Activated', { exact: true }).waitFor();

  // The new Administrator signs in and sends to Lakeside from the new address.
  await page.context().clearCookies();
  await page.evaluate('localStorage.clear()');
  await openSignIn(page);
  await signIn(page, adminUser, password);
  // Activated by the back office, but its terms and identity check are still the Administrator's to do.
  await acceptTerms(page);
  await putOffIdentityCheck(page);
  const subject = `Referral from Summit ${run}`;
  await composeReferral(page, ['intake@lakeside.direct.example.org'], subject, address);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await page.getByRole('dialog', { name: 'Review and Send' }).getByRole('button', { name: 'Confirm' }).click();
  await page.getByText('The message was sent successfully.').first().waitFor();

  // Lakeside receives it in Intake.
  const auth = await apiSignIn(baseUrl, 'user@lakeside.example.org');
  await expect
    .poll(
      async () => {
        const list = await fetch(`${baseUrl}/api/messages`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ filter: subject }) });
        const { items } = (await list.json()) as { items: { subject: string; fromAddress: string }[] };
        return items.map((m) => `${m.subject} from ${m.fromAddress}`);
      },
      { timeout: 30_000, interval: 1_000 },
    )
    .toEqual([`${subject} from ${address}`]);
});

test('a system administrator edits an organization’s details and deletes it', async ({ page, baseUrl }) => {
  const run = Date.now().toString(36);
  const name = `Pine Ridge Dental ${run}`;
  // Made through the API as the list's Add would make it; this journey is about editing and deleting.
  const auth = await apiSignIn(baseUrl, 'sysadmin@example.org');
  const made = await fetch(`${baseUrl}/api/organizations`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({
      name,
      subdomain: `pine${run}`,
      brandId: 'clinicrelay',
      organizationTypeId: 1,
      organizationSpecialtyId: 3,
      hispProviderId: 1,
      address: { street: '77 Ridge Road', city: 'Salem', state: 'OR', zip: '97301', country: 'US' },
      primaryPhone: '(503) 555-0190',
      primaryContactFirstName: 'Paula',
      primaryContactLastName: 'Pine',
      primaryContactEmail: `paula@pine${run}.example.org`,
    }),
  });
  expect(made.status, await made.clone().text()).toBe(200);

  await openSignIn(page);
  await signIn(page, 'sysadmin@example.org');
  await page.goto('/admin/organizations');
  await search(page, run);
  await page.getByRole('button', { name: `Edit ${name}` }).click();
  await expectHeading(page, name);
  // Every tab once it has an id (WestFax only with its feature).
  expect(await page.getByRole('tab').allInnerTexts()).toEqual(['Details', 'Primary Contact', 'eFax', 'Direct', 'Settings', 'Service Accounts', 'Carequality', 'QHIN', 'Info', 'IP Addresses']);
  await page.getByRole('textbox', { name: 'Tier Code' }).fill('T2');
  // A toll-free number is refused where it is typed.
  await page.getByRole('textbox', { name: 'Phone', exact: true }).fill('8005550100');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await page.getByText('Please fill out all required fields.').first().waitFor();
  await page.getByRole('textbox', { name: 'Phone', exact: true }).fill('5035550191');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await page.getByText('The organization was saved successfully.').waitFor();
  await expectPath(page, '/admin/organizations');
  await rowsOf(page).filter({ hasText: name }).getByRole('cell', { name: 'T2', exact: true }).waitFor();

  await page.getByRole('button', { name: `Delete ${name}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete organization' });
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await page.getByText('The organization was deleted successfully.').waitFor();
  await page.getByText('There are no results matching your criteria.').waitFor();
});

test('every tab of an organization opens, readable and accessible', { timeout: 90_000 }, async ({ page }) => {
  await openSignIn(page);
  await signIn(page, 'sysadmin@example.org');
  await page.goto('/admin/organizations');
  await search(page, 'Lakeside');
  await page.getByRole('button', { name: 'Edit Lakeside Family Medicine' }).click();
  await expectHeading(page, 'Lakeside Family Medicine');
  for (const tab of ['Primary Contact', 'eFax', 'Direct', 'Settings', 'Service Accounts', 'Carequality', 'QHIN', 'Info', 'IP Addresses']) {
    await page.getByRole('tab', { name: tab }).click();
    await expect.poll(() => page.getByRole('tab', { name: tab }).getAttribute('aria-selected')).toBe('true');
    await page.getByRole('tabpanel').waitFor();
    const name = tab.toLowerCase().replaceAll(' ', '-');
    await screenshot(page, `admin-organization-tab-${name}`);
    await expectNoAxeViolations(page, `organization-tab-${name}`);
  }
  await page.getByRole('tab', { name: 'Direct' }).click();
  await rowsOf(page).filter({ hasText: 'intake@lakeside.direct.example.org' }).getByText('Activated').waitFor();
});
