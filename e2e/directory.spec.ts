import { expect } from 'vitest';
import { expectNoAxeViolations, screenshot } from './support/axe.ts';
import { expectHeading, expectPath, openSignIn, signIn } from './support/journeys.ts';
import { mailMentioning } from './support/outbox.ts';
import { test } from './support/test.ts';

// Issue 10: Find Provider from compose, and Send an Invite for a provider the directory does not have.

const RIVERVIEW_DIRECT = 'referrals@riverview.direct.example.org';

test('Lakeside finds Riverview in the directory from compose and sends to it; a provider not found gets an invitation', { timeout: 90_000 }, async ({ page }) => {
  await openSignIn(page);
  await signIn(page, 'user@lakeside.example.org');
  await page.goto('/release/new');
  await expectPath(page, '/release/new');

  await page.getByRole('button', { name: 'Find Provider', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Find Provider' });
  await dialog.waitFor();
  await dialog.getByRole('textbox', { name: 'Organization name' }).fill('riverv');
  await dialog.getByRole('textbox', { name: 'Organization name' }).press('Enter');
  // The match is an organization: the dialog shows the Organizations tab by itself, and the hosted organization's
  // entry has its address.
  await expect.poll(() => dialog.getByRole('tab', { name: /Organizations/ }).getAttribute('aria-selected')).toBe('true');
  await dialog.getByText(RIVERVIEW_DIRECT, { exact: true }).waitFor();
  await dialog.getByRole('list', { name: 'Organizations' }).getByText(/200 River Road, Salem, OR 97301/).waitFor();
  await dialog.getByRole('checkbox', { name: 'Select Riverview Cardiology' }).check();
  await screenshot(page, 'directory-find-provider');
  await expectNoAxeViolations(page, 'find-provider');
  await dialog.getByRole('button', { name: /^Select/ }).click();
  await dialog.waitFor({ state: 'hidden' });

  // The address is a To tag, and the field says who it belongs to.
  const to = page.getByRole('combobox', { name: 'To', exact: true });
  await expect.poll(() => to.locator('xpath=ancestor::*[contains(@class, "mantine-TagsInput-root")]').innerText()).toContain(RIVERVIEW_DIRECT);
  await page.getByText('Riverview Cardiology', { exact: false }).first().waitFor();
  await screenshot(page, 'directory-compose-to-tag');

  // Providers of the demo directory (generated NPPES rows): Direct addresses first, each with its copy button, and
  // the phone card.
  await page.getByRole('button', { name: 'Find Provider', exact: true }).click();
  await dialog.getByRole('textbox', { name: 'Last name' }).fill('Smi');
  await dialog.getByRole('button', { name: 'Search', exact: true }).click();
  const providers = dialog.getByRole('list', { name: 'Providers' });
  await providers.getByRole('listitem').first().waitFor();
  await providers.getByRole('button', { name: 'Copy Direct address' }).first().waitFor();
  await providers.getByRole('button', { name: 'Phone and fax' }).first().hover();
  await page.getByText(/^Fax: /).first().waitFor();
  await screenshot(page, 'directory-providers');
  await expectNoAxeViolations(page, 'find-provider-providers');

  // Nobody by that name: the dialog leads to Send an Invite, and the invitation lands in the outbox.
  await dialog.getByRole('textbox', { name: 'Last name' }).fill('Zyzzogeton');
  await dialog.getByRole('button', { name: 'Search', exact: true }).click();
  await screenshot(page, 'directory-no-results');
  await dialog.getByRole('button', { name: "Don't see the provider you're looking for?" }).or(dialog.getByRole('link', { name: "Don't see the provider you're looking for?" })).click();
  const invite = page.getByRole('dialog', { name: 'Send an Invite' });
  await invite.waitFor();
  const email = `dr.zyzzogeton.${Date.now()}@example.net`;
  await invite.getByRole('textbox', { name: 'Full name' }).fill('Ada Zyzzogeton');
  await invite.getByRole('textbox', { name: 'Email address' }).fill(email);
  await screenshot(page, 'directory-send-invite');
  await expectNoAxeViolations(page, 'send-invite');
  await invite.getByRole('button', { name: 'Send', exact: true }).click();
  await page.getByText('Invitation has been sent.', { exact: true }).waitFor();

  const invitationMail = () => mailMentioning(email);
  await expect.poll(invitationMail, { timeout: 20_000, interval: 250 }).toContain('Lakeside Family Medicine');
  expect(invitationMail()).toMatch(/\/account\/register\?invitation=/);
  await expectHeading(page, 'New message');
});
