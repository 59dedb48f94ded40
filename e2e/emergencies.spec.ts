import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { expectNoAxeViolations, screenshot } from './support/axe.ts';
import { expectHeading, openSignIn, signIn, waitForExpression } from './support/journeys.ts';
import { test } from './support/test.ts';

// Issue 29 §6: a system administrator declares an emergency at /admin/emergencies, covers organizations found through the
// emergency-organization service (a second application on its own port, called by the browser at its configured URL),
// disables and enables it, and keeps that service's organization list on the Organizations tab. The demo world brings
// one emergency of each state and four emergency organizations.

const rowOf = (page: Page, text: string) => page.getByRole('table').getByRole('row').filter({ hasText: text });

async function search(page: Page, text: string) {
  await page.getByRole('searchbox', { name: 'Search' }).fill(text);
  await expect.poll(() => new URL(page.url()).searchParams.get('search')).toBe(text);
}

// Types into an organization search and picks the listed organization (§5: at least 2 characters, 300 ms, chosen from the list).
async function pickOrganization(page: Page, label: string, typed: string, option: RegExp) {
  await page.getByRole('combobox', { name: label }).fill(typed);
  await page.getByRole('option', { name: option }).click();
}

const todayShort = () => {
  const now = new Date();
  return `${String(now.getUTCMonth() + 1).padStart(2, '0')}/${String(now.getUTCDate()).padStart(2, '0')}/${String(now.getUTCFullYear()).slice(2)}`;
};

test('a system administrator declares, disables and enables an emergency and keeps the emergency organizations', { timeout: 150_000 }, async ({ page }) => {
  // A name of its own per run, longer than the 30 characters the list shows.
  const run = String(Date.now() % 1_000_000);
  const name = `Coastal Flood Response ${run} for the Willamette Valley`;
  const shown = `${name.slice(0, 30)}…`;

  await openSignIn(page);
  await signIn(page, 'sysadmin@example.org');
  await page.getByRole('link', { name: 'Emergencies' }).click();
  await expectHeading(page, 'Emergencies');
  await rowOf(page, 'Winter Storm Response').getByText('Pending disable').waitFor();
  await rowOf(page, 'COVID-19 Public Health Emergen…').getByText('Disabled', { exact: true }).waitFor();
  await rowOf(page, 'Pacific Northwest Wildfire Smo…').getByText('Active').waitFor();
  await screenshot(page, 'admin-emergencies');
  await expectNoAxeViolations(page, 'admin-emergencies');

  await page.getByRole('button', { name: 'Add emergency' }).click();
  const add = page.getByRole('dialog', { name: 'Add emergency' });
  await add.getByRole('textbox', { name: 'Disabled date' }).fill('2/30/2099');
  await add.getByRole('button', { name: 'Save' }).click();
  await add.getByText('There are invalid fields on this page.').waitFor();
  await add.getByText('Name is required.').waitFor();
  await add.getByText('Please enter a valid date: M/d/yyyy, M/d/yy, MMddyyyy or MMddyy.').waitFor();
  await add.getByRole('textbox', { name: 'Name' }).fill(name);
  // MMddyy: understood as 12/31/2099, a pending disable.
  await add.getByRole('textbox', { name: 'Disabled date' }).fill('123199');
  await add.getByRole('textbox', { name: 'Disabled date' }).blur();
  await expect.poll(() => add.getByRole('textbox', { name: 'Disabled date' }).inputValue()).toBe('12/31/2099');
  await add.getByText('Pending disable').waitFor();
  await page.getByRole('combobox', { name: 'Organizations' }).fill('zzqx');
  await page.getByText('No organizations found').waitFor();
  await pickOrganization(page, 'Organizations', 'Cascade', /Cascade Regional Hospital/);
  await pickOrganization(page, 'Organizations', '9001.11', /Willamette Valley Health Information Exchange/);
  await add.getByRole('list', { name: 'Chosen organizations' }).getByText('Cascade Regional Hospital').waitFor();
  await screenshot(page, 'admin-emergency-add');
  await expectNoAxeViolations(page, 'admin-emergency-add');
  await add.getByRole('button', { name: 'Save' }).click();
  await page.getByText('The emergency was saved successfully.').waitFor();
  await add.waitFor({ state: 'hidden' });

  await search(page, run);
  const row = rowOf(page, shown);
  await row.getByText('Pending disable').waitFor();
  await row.getByText('12/31/99').waitFor();
  // The full name in a tooltip.
  await row.getByText(shown).hover();
  await page.getByRole('tooltip').getByText(name).waitFor();

  // A pending disable can still be disabled now; it can be enabled again.
  await page.getByRole('button', { name: `Disable ${name}` }).click();
  await page.getByText('The emergency was disabled.').waitFor();
  await row.getByText('Disabled', { exact: true }).waitFor();
  await row.getByText(todayShort()).waitFor();
  await screenshot(page, 'admin-emergency-disabled');
  await page.getByRole('button', { name: `Enable ${name}` }).click();
  await page.getByText('The emergency was enabled.').waitFor();
  await row.getByText('Active').waitFor();

  // Edit: read again from the server, with its organizations.
  await page.getByRole('button', { name: `Edit ${name}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit emergency' });
  await edit.getByRole('list', { name: 'Chosen organizations' }).getByText('Willamette Valley Health Information Exchange').waitFor();
  await edit.getByRole('button', { name: 'Remove Willamette Valley Health Information Exchange' }).click();
  await edit.getByRole('button', { name: 'Save' }).click();
  await page.getByText('The emergency was saved successfully.').waitFor();
  await edit.waitFor({ state: 'hidden' });

  // The Organizations tab: the separate service's list.
  await page.getByRole('tab', { name: 'Organizations' }).click();
  await rowOf(page, 'Cascade Regional Hospital').getByText('2.16.840.1.113883.3.9001.10').waitFor();
  await screenshot(page, 'admin-emergency-organizations');
  await expectNoAxeViolations(page, 'admin-emergency-organizations');

  await page.getByRole('button', { name: 'Add organization' }).click();
  const addOrganization = page.getByRole('dialog', { name: 'Add organization' });
  // The dialog takes the focus once it is open: a Save clicked before that (CI, 2 loaded cores) submitted nothing.
  await waitForExpression(page, `!!document.activeElement?.closest('[role="dialog"]')`);
  await addOrganization.getByRole('button', { name: 'Save' }).click();
  await addOrganization.getByText('There are invalid fields on this page.').waitFor();
  await addOrganization.getByText('OID is required.').waitFor();
  await pickOrganization(page, 'Find organization', 'Riverview', /Riverview Cardiology/);
  await expect.poll(() => addOrganization.getByRole('textbox', { name: 'OID' }).inputValue()).toBe('2.16.840.1.113883.3.9001.2');
  await screenshot(page, 'admin-emergency-organization-add');
  await expectNoAxeViolations(page, 'admin-emergency-organization-add');
  await addOrganization.getByRole('textbox', { name: 'Name' }).fill(`Riverview Cardiology ${run}`);
  await addOrganization.getByRole('button', { name: 'Save' }).click();
  await page.getByText('The emergency organization was saved successfully.').waitFor();
  await addOrganization.waitFor({ state: 'hidden' });
  await rowOf(page, `Riverview Cardiology ${run}`).waitFor();

  await page.getByRole('button', { name: `Edit Riverview Cardiology ${run}` }).click();
  const editOrganization = page.getByRole('dialog', { name: 'Edit organization' });
  await editOrganization.getByRole('textbox', { name: 'Name' }).fill('Riverview Cardiology');
  await editOrganization.getByRole('button', { name: 'Save' }).click();
  await editOrganization.waitFor({ state: 'hidden' });
  await rowOf(page, '2.16.840.1.113883.3.9001.2').getByText('Riverview Cardiology', { exact: true }).waitFor();

  await page.getByRole('button', { name: 'Delete Willamette Valley Health Information Exchange' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete organization' });
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await page.getByText('The emergency organization was deleted successfully.').waitFor();
  await expect.poll(() => rowOf(page, 'Willamette Valley').count()).toBe(0);
});
